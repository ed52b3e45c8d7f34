/*
 * The engines a library offers: the built-in ones (solvers/registry.c)
 * followed by those plugins registered. Here in the scheduler because it
 * is the one place that may see both the library (blocks/) and the
 * solvers; solvers stay blind to blocks, and the library to solvers.
 */
#include <string.h>

#include "blocks/library_int.h"
#include "solvers/engine.h"

static const char *const origin_standard = "standard";

/* The plugin engine registered under name in lib or a parent, or NULL. */
static const bsim_lib_engine *plugin_engine(const bsim_library *lib,
                                            const char *name) {
  for (; lib; lib = lib->parent)
    for (size_t i = 0; i < lib->nengines; i++)
      if (strcmp(lib->engines[i].type->name, name) == 0)
        return &lib->engines[i];
  return NULL;
}

int bsim_library_add_engine(bsim_library *lib, const bsim_engine_type *e,
                            bsim_error *err) {
  if (!lib || !e || !e->name || !e->name[0] || !e->create || !e->advance ||
      !e->free) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "%s: engine descriptor without a name or without create, "
                   "advance or free",
                   lib ? lib->origin : "bsim_library_add_engine");
    return -1;
  }
  const bsim_lib_engine *other = plugin_engine(lib, e->name);
  if (bsim_engine_find(e->name) || other) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "%s: engine '%s' clashes with the engine of that name from "
                   "%s (hint: rename it; `blocksim solvers` lists the taken "
                   "names)",
                   lib->origin, e->name,
                   other ? other->origin : "the built-in engines");
    return -1;
  }
  if (bsim_lib_reserve((void **)&lib->engines, &lib->capengines,
                       lib->nengines + 1, sizeof *lib->engines)) {
    bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
    return -1;
  }
  lib->engines[lib->nengines++] = (bsim_lib_engine){e, lib->origin};
  return 0;
}

/* The i-th plugin engine of the chain, parents first. */
static const bsim_lib_engine *plugin_engine_at(const bsim_library *lib,
                                               size_t *i) {
  if (!lib) return NULL;
  const bsim_lib_engine *e = plugin_engine_at(lib->parent, i);
  if (e) return e;
  if (*i < lib->nengines) return &lib->engines[*i];
  *i -= lib->nengines;
  return NULL;
}

const bsim_engine_type *bsim_library_engine_at(const bsim_library *lib,
                                               size_t i, const char **origin) {
  size_t nbuiltin = 0;
  while (bsim_engine_at(nbuiltin))
    nbuiltin++;
  if (i < nbuiltin) {
    if (origin) *origin = origin_standard;
    return bsim_engine_at(i);
  }
  i -= nbuiltin;
  const bsim_lib_engine *e = plugin_engine_at(lib, &i);
  if (e && origin) *origin = e->origin;
  return e ? e->type : NULL;
}

const bsim_engine_type *bsim_library_engine_find(const bsim_library *lib,
                                                 const char *name) {
  const bsim_engine_type *t = bsim_engine_find(name);
  if (t || !name) return t;
  const bsim_lib_engine *e = plugin_engine(lib, name);
  return e ? e->type : NULL;
}
