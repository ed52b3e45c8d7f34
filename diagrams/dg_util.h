/*
 * Helpers shared by the reader, the override code and the flattener, which
 * all look blocks up by id and explain a block type's parameters in their
 * messages. Private to diagrams/.
 */
#ifndef BSIM_DG_UTIL_H
#define BSIM_DG_UTIL_H

#include <stddef.h>

#include "diagrams/diagram.h"
#include "diagrams/flat.h"

/* The blocks of one level sorted by id (ties by position), so that lookups
 * and duplicate detection stay O(log n) on large diagrams. malloc'ed; NULL
 * when out of memory (or when the level has no blocks). */
int *dg_block_index(const dg_diagram *d);
/* Position of block `id` in d->blocks, or -1. `len` limits the compared
 * length of id (use (size_t)-1 for a NUL-terminated id). */
int dg_block_lookup(const dg_diagram *d, const int *index, const char *id,
                    size_t len);

/* "gain, overflow" — the names of a type's parameters, for hints. */
void dg_param_list(const bsim_block_type *t, char *buf, size_t n);
/* Whether name can be written in an expression: a letter, '_' or '%'
 * followed by letters, digits and '_' (context variables must be). */
int dg_valid_name(const char *name);
/* Index of parameter `name` in t->params, or -1. */
int dg_param_find(const bsim_block_type *t, const char *name);

/* Where an override target points: a block parameter (*block, *param) or
 * a context variable of a level (*level, *param: the top level for a bare
 * "name", a superblock's for "path/sb.name"). *param points into target.
 * 0, or -1 with err set (status BSIM_ERR_INPUT, the message names the
 * nearest existing level). Implemented in diagrams/diagram.c. */
int dg_override_resolve(const bsim_diagram *d, const char *target,
                        dg_diagram **level, dg_block **block,
                        const char **param, bsim_error *err);

/* The whole file at path, NUL-terminated, its length in *len; NULL with
 * err set (status 2 naming the path and the reason) when it cannot be
 * read. diagrams/file.c. */
char *dg_slurp(const char *path, size_t *len, bsim_error *err);

/* Compile the diagram's C blocks (CBLOCK, CBLOCK4) and make each a block
 * of the type its code defines, in a child library the diagram then owns
 * (d->lib). 0, or -1 with err set (status 2 for a compiler error).
 * diagrams/cblocks.c; every reader calls it once the tree is read. */
int dg_compile_cblocks(bsim_diagram *d, bsim_error *err);

/* Load the plugin a diagram names (path relative to the diagram file's
 * folder unless absolute) into lib; a failure is reported at file:line.
 * 0 or -1. diagrams/libraries.c. */
int dg_load_plugin(bsim_library *lib, const char *file, int line,
                   const char *path, bsim_error *err);

/* Port size inference over a flat diagram whose links are final. link_lines
 * gives the source line of each data link (for messages). 0, or -1 with err
 * set. Implemented in diagrams/sizes.c. */
int dg_infer_sizes(bsim_flat *f, const int *link_lines, bsim_error *err);

/* The representative of i's set in a union-find forest (parent[i] == i at
 * a root), halving the path on the way: connection sets, Xcos nets and
 * implicit nets are all joined this way. */
static inline int dg_set_root(int *parent, int i) {
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

#endif
