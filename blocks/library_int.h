/*
 * Inside of the block library object, shared by the files of blocks/ that
 * build it (library.c: types, lookups and life; plugin.c: loading shared
 * objects into it). Not installed.
 */
#ifndef BSIM_LIBRARY_INT_H
#define BSIM_LIBRARY_INT_H

#include <pthread.h>
#include <stdatomic.h>

#include "blocksim/library.h"

typedef struct bsim_lib_entry {
  const bsim_block_type *type;
  const char *origin; /* static text or one of the library's own strings */
} bsim_lib_entry;

typedef struct bsim_lib_key {
  const char *name;
  size_t index; /* into types */
} bsim_lib_key;

typedef struct bsim_lib_engine {
  const bsim_engine_type *type;
  const char *origin;
} bsim_lib_engine;

struct bsim_library {
  /* The one part that changes once the library is shared: references
   * held by the creator, diagrams, sims and child libraries. */
  atomic_int refs;
  const bsim_library *parent; /* looked up first; NULL for a root */
  bsim_lib_entry *types;      /* registration order */
  size_t ntypes, captypes;
  bsim_lib_key *by_name; /* ntypes keys sorted by interface name */
  bsim_lib_key *by_sim;  /* nsim keys sorted by simulation-function name */
  size_t nsim;
  bsim_lib_engine *engines; /* plugin engines, registration order */
  size_t nengines, capengines;
  const char *origin; /* what the add functions record as the origin */
  char **strings;     /* owned origins (plugin paths) */
  size_t nstrings, capstrings;
  void **handles; /* dlopen handles, closed in reverse order at the end */
  size_t nhandles, caphandles;
  char *cc, *cc_cache; /* C blocks' compiler and cache folder, NULL: default */
  /* A root's cache of the native reader's compiled schema, made on first
   * use (diagrams/xml.c): compiling it cost 1.7 M instructions, a third of
   * a small diagram's load, in every load of a program that loads many
   * (a sweep's members that cannot share a plan, embedding programs, the
   * fuzzers). Mutable behind its lock while the library is shared. */
  pthread_mutex_t schema_lock;
  void *schema;
  void (*schema_free)(void *);
};

/* The root of lib's chain locked, and its cached schema (NULL the first
 * time); bsim_lib_schema_unlock stores schema (freed by drop with the
 * library) and unlocks. The lock is held while the caller validates. */
void *bsim_lib_schema_lock(const bsim_library *lib);
void bsim_lib_schema_unlock(const bsim_library *lib, void *schema,
                            void (*drop)(void *));

/* Grow *arr (elements of size sz) to hold at least need; 0 or -1. */
int bsim_lib_reserve(void **arr, size_t *cap, size_t need, size_t sz);
/* Forget the types and engines registered after the first ntypes /
 * nengines (a plugin whose initialisation failed); 0 or -1 (no memory to
 * rebuild the indexes: the library is then unusable). */
int bsim_lib_truncate(bsim_library *lib, size_t ntypes, size_t nengines);
/* bsim_library_load with the origin its types get (NULL: the path);
 * path must contain a '/' when origin is given. */
int bsim_lib_load_as(bsim_library *lib, const char *path, const char *origin,
                     bsim_error *err);
/* Is this dlopen handle already held by lib or one of its parents? */
int bsim_lib_holds(const bsim_library *lib, const void *handle);

#endif
