/*
 * Finding and loading the optional modules, in the shared library: a
 * module is LIBDIR/blocksim-modules/NAME.so, LIBDIR being wherever this
 * library was loaded from (so the build tree and any installation prefix
 * work alike). A module is opened with RTLD_NODELETE and stays loaded to
 * the end of the process: its libraries (HDF5 registers exit handlers)
 * must not go away, and opening it again is then only a lookup in the
 * dynamic loader's list. The loader keeps that list, so blocksim keeps no
 * state of its own and threads may load modules concurrently.
 */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "blocksim/blocksim.h"
#include "modules/module.h"
#include "modules/version.h"

/* "the HDF5 format needs blocksim's 'hdf5' module, which" or, without
 * `what`, "blocksim's 'hdf5' module": a sentence's subject. */
static void subject(char *buf, size_t len, const char *name, const char *what) {
  if (what)
    snprintf(buf, len, "%s needs blocksim's '%s' module, which", what, name);
  else
    snprintf(buf, len, "blocksim's '%s' module", name);
}

/* The module's path: 0, or -1 when this library cannot say where it is. */
static int module_path(const char *name, char *path, size_t len) {
  Dl_info self;
  if (!dladdr((const void *)bsim_module_lookup, &self) || !self.dli_fname)
    return -1;
  const char *slash = strrchr(self.dli_fname, '/');
  int dirlen = slash ? (int)(slash - self.dli_fname) : 1;
  int n = snprintf(path, len, "%.*s/blocksim-modules/%s.so", dirlen,
                   slash ? self.dli_fname : ".", name);
  return n > 0 && (size_t)n < len ? 0 : -1;
}

void *bsim_module_lookup(const char *name, const char *symbol, const char *what,
                         bsim_error *err) {
  char path[PATH_MAX], who[256];
  subject(who, sizeof who, name, what);
  if (module_path(name, path, sizeof path) != 0) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "%s cannot be found: the library cannot tell the folder "
                   "it was loaded from (hint: load libblocksim by its path)",
                   who);
    return NULL;
  }
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (!h) {
    const char *why = dlerror();
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "%s cannot be loaded: %s (hint: the modules are "
                   "installed with the library, in %.*s; reinstall blocksim, "
                   "with the libraries this module needs)",
                   who, why ? why : path, (int)(strrchr(path, '/') - path),
                   path);
    return NULL;
  }
  const char *version = dlsym(h, "bsim_module_version");
  void *sym = NULL;
  if (!version || strcmp(version, BSIM_MODULE_VERSION) != 0)
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "%s cannot be loaded: %s belongs to %s%s, not to this "
                   "library (%s) (hint: reinstall blocksim: a library and its "
                   "modules come together)",
                   who, path, version ? "blocksim " : "no blocksim",
                   version ? version : "", BSIM_MODULE_VERSION);
  else if (!(sym = dlsym(h, symbol)))
    bsim_error_set(err, BSIM_ERR_INPUT, "%s cannot be used: %s lacks '%s'", who,
                   path, symbol);
  /* RTLD_NODELETE: the module stays; this only balances the count */
  dlclose(h);
  return sym;
}
