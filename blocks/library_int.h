/*
 * Inside of the block library object, shared by the files of blocks/ that
 * build it (library.c: types and lookups; the plugin loader). Not
 * installed.
 */
#ifndef BSIM_LIBRARY_INT_H
#define BSIM_LIBRARY_INT_H

#include "blocksim/library.h"

typedef struct bsim_lib_entry {
  const bsim_block_type *type;
  const char *origin; /* static text or one of the library's own strings */
} bsim_lib_entry;

typedef struct bsim_lib_key {
  const char *name;
  size_t index; /* into types */
} bsim_lib_key;

struct bsim_library {
  const bsim_library *parent; /* looked up first; NULL for a root */
  bsim_lib_entry *types;      /* registration order */
  size_t ntypes, captypes;
  bsim_lib_key *by_name; /* ntypes keys sorted by interface name */
  bsim_lib_key *by_sim;  /* nsim keys sorted by simulation-function name */
  size_t nsim;
  const char *origin; /* what bsim_library_add records as the origin */
};

/* An empty library on top of parent (which must outlive it). */
bsim_library *bsim_library_create_on(const bsim_library *parent,
                                     bsim_error *err);

#endif
