/*
 * Loading block plugins: shared objects that register types (and engines)
 * into a library through one entry point, so that users extend blocksim in
 * C without rebuilding it. Every way a load can go wrong is bad input
 * (status 2) with the plugin's path and the reason, and leaves the library
 * as it was.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocks/library_int.h"
#include "blocksim/plugin.h"

static int nomem(bsim_error *err) {
  bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
  return -1;
}

/* "x.so" would make dlopen search the system's library path; a plugin is a
 * file the user names, so a bare name means one in the current directory. */
static char *as_file_path(const char *path) {
  int bare = strchr(path, '/') == NULL;
  size_t n = strlen(path) + 3;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s%s", bare ? "./" : "", path);
  return p;
}

/* Keep what a loaded plugin needs for the library's lifetime: its path
 * (the origin of its types) and its handle. 0 or -1. */
static int keep(bsim_library *lib, char *path, void *handle) {
  if (bsim_lib_reserve((void **)&lib->strings, &lib->capstrings,
                       lib->nstrings + 1, sizeof *lib->strings) ||
      bsim_lib_reserve((void **)&lib->handles, &lib->caphandles,
                       lib->nhandles + 1, sizeof *lib->handles))
    return -1;
  lib->strings[lib->nstrings++] = path;
  lib->handles[lib->nhandles++] = handle;
  return 0;
}

/* The entry points, checked; NULL init (and err set) when the file is no
 * usable plugin. */
static bsim_plugin_init_fn entry_point(void *h, const char *path,
                                       bsim_error *err) {
  const int *abi = dlsym(h, BSIM_PLUGIN_ABI_SYMBOL);
  if (!abi) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "%s: not a blocksim plugin: it does not export '%s' "
                   "(hint: a plugin's source says BSIM_PLUGIN_DECLARE_ABI; "
                   "see docs/extending.md)",
                   path, BSIM_PLUGIN_ABI_SYMBOL);
    return NULL;
  }
  if (*abi != BSIM_ABI_VERSION) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "%s: plugin built for block ABI %d, but this blocksim "
                   "(%s) has ABI %d (hint: rebuild the plugin against this "
                   "blocksim's headers)",
                   path, *abi, bsim_version(), BSIM_ABI_VERSION);
    return NULL;
  }
  /* POSIX's way from an object pointer to a function pointer. */
  bsim_plugin_init_fn init;
  void *sym = dlsym(h, BSIM_PLUGIN_INIT_SYMBOL);
  memcpy(&init, &sym, sizeof init);
  if (!init)
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "%s: not a blocksim plugin: it does not export '%s' "
                   "(see docs/extending.md)",
                   path, BSIM_PLUGIN_INIT_SYMBOL);
  return init;
}

int bsim_library_load(bsim_library *lib, const char *path, bsim_error *err) {
  return bsim_lib_load_as(lib, path, NULL, err);
}

int bsim_lib_load_as(bsim_library *lib, const char *path, const char *origin,
                     bsim_error *err) {
  if (!lib || !path || !*path) {
    bsim_error_set(err, BSIM_ERR_INPUT, "plugin: no library or no path");
    return -1;
  }
  char *file = as_file_path(path);
  if (file && origin) { /* the origin to keep, not the file's name */
    char *o = strdup(origin);
    free(file);
    file = o;
  }
  if (!file) return nomem(err);
  /* RTLD_LOCAL: two plugins may use the same helper names. */
  void *h = dlopen(origin ? path : file, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char *why = dlerror();
    if (origin) /* compiled from a diagram's code (cblock.c) */
      bsim_error_set(err, BSIM_ERR_INPUT,
                     "cannot load its compiled code: %s (hint: does the "
                     "code define every function it uses, the block's own "
                     "included?)",
                     why ? why : "unknown reason");
    else
      bsim_error_set(err, BSIM_ERR_INPUT,
                     "%s: cannot load plugin: %s (hint: give the path of a "
                     "shared object built against blocksim/plugin.h)",
                     path, why ? why : "unknown reason");
    free(file);
    return -1;
  }
  if (bsim_lib_holds(lib, h)) { /* already there: dlopen counted one more */
    dlclose(h);
    free(file);
    return 0;
  }
  bsim_plugin_init_fn init = entry_point(h, path, err);
  size_t ntypes = lib->ntypes, nengines = lib->nengines;
  const char *saved = lib->origin;
  int rc = -1;
  if (init) {
    bsim_error mine;
    bsim_error_clear(&mine);
    lib->origin = file;
    rc = init(lib, &mine);
    lib->origin = saved;
    if (rc != 0)
      bsim_error_set(
          err, mine.status == BSIM_ERR_NOMEM ? mine.status : BSIM_ERR_INPUT,
          "%s: plugin initialisation failed: %s", path,
          mine.status != BSIM_OK ? mine.message
                                 : "bsim_plugin_init returned "
                                   "non-zero without a message");
  }
  if (rc == 0 && keep(lib, file, h) != 0) rc = nomem(err);
  if (rc != 0) {
    /* Nothing of the plugin may stay: its descriptors go with dlclose. */
    if (bsim_lib_truncate(lib, ntypes, nengines) != 0) nomem(err);
    dlclose(h);
    free(file);
    return -1;
  }
  return 0;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_plugin_name(const char *name) {
  size_t n = strlen(name);
  return name[0] != '.' && n > 3 && strcmp(name + n - 3, ".so") == 0;
}

/* Every *.so of one directory, sorted so that the load order (and so
 * which plugin a clash message blames) does not depend on the file
 * system. */
static int load_dir(bsim_library *lib, const char *dir, bsim_error *err) {
  DIR *d = opendir(dir);
  if (!d) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "plugin directory '%s': cannot read it: %s (hint: check "
                   "the list of plugin directories)",
                   dir, strerror(errno));
    return -1;
  }
  char **names = NULL;
  size_t n = 0, cap = 0;
  int rc = 0;
  for (struct dirent *e; rc == 0 && (e = readdir(d)) != NULL;) {
    if (!is_plugin_name(e->d_name)) continue;
    size_t len = strlen(dir) + strlen(e->d_name) + 2;
    char *p = malloc(len);
    if (!p || bsim_lib_reserve((void **)&names, &cap, n + 1, sizeof *names)) {
      free(p);
      rc = nomem(err);
      break;
    }
    snprintf(p, len, "%s/%s", dir, e->d_name);
    names[n++] = p;
  }
  closedir(d);
  if (n) qsort(names, n, sizeof *names, by_name);
  for (size_t i = 0; i < n; i++) {
    if (rc == 0) rc = bsim_library_load(lib, names[i], err);
    free(names[i]);
  }
  free(names);
  return rc;
}

int bsim_library_load_dirs(bsim_library *lib, const char *dirs,
                           bsim_error *err) {
  if (!dirs) return 0;
  char *copy = strdup(dirs);
  if (!copy) return nomem(err);
  int rc = 0;
  for (char *s = copy, *next; rc == 0 && s; s = next) {
    next = strchr(s, ':');
    if (next) *next++ = '\0';
    if (*s) rc = load_dir(lib, s, err);
  }
  free(copy);
  return rc;
}
