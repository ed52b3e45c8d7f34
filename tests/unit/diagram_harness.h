/*
 * Shared by the diagram tests (test_diagram_load.c, test_diagram_flatten.c,
 * test_diagram_events.c): loading and flattening a diagram of
 * tests/data/diagrams/, finding a block of the tree by id or a flat block
 * by path, and running a table
 * of files that must fail to flatten with given pieces of message. Static
 * inline functions in a header, so that each test stays one translation
 * unit and need not use all of them.
 */
#ifndef BSIM_TEST_DIAGRAM_HARNESS_H
#define BSIM_TEST_DIAGRAM_HARNESS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/flat.h"
#include "tests/unit/test_check.h"
#include "tests/unit/test_library.h"

#ifndef BSIM_TEST_DATA
#error "BSIM_TEST_DATA must name the tests/data folder"
#endif

/* A block of one level of the Diagram tree by id, and a parameter's text. */
static inline const dg_block *find_block(const dg_diagram *d, const char *id) {
  for (int i = 0; d && i < d->nblocks; i++)
    if (strcmp(d->blocks[i].id, id) == 0) return &d->blocks[i];
  return NULL;
}

static inline const char *param_expr(const dg_block *b, const char *name) {
  for (int i = 0; b && i < b->nparams; i++)
    if (strcmp(b->params[i].name, name) == 0) return b->params[i].expr;
  return NULL;
}

static inline bsim_diagram *load(const char *file, bsim_error *err) {
  char path[1024];
  snprintf(path, sizeof path, "%s/diagrams/%s", BSIM_TEST_DATA, file);
  bsim_error_clear(err);
  return bsim_diagram_load(path, test_library(), err);
}

/* Load and flatten tests/data/diagrams/<file>; d receives the diagram (to
 * free after the flat one). */
static inline bsim_flat *flatten_file(const char *file, bsim_diagram **d,
                                      bsim_error *err) {
  *d = load(file, err);
  return *d ? bsim_flatten(*d, err) : NULL;
}

static inline int block_at(const bsim_flat *f, const char *path) {
  for (int i = 0; i < f->nblocks; i++)
    if (strcmp(f->blocks[i].path, path) == 0) return i;
  return -1;
}

static inline const char *leaf_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

static inline int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A file that must be refused, and two pieces its message must hold. */
typedef struct bad_case {
  const char *file;
  const char *piece1, *piece2;
} bad_case;

/* Each file loads but does not flatten, with BSIM_ERR_INPUT and both
 * pieces in the message. */
static inline void check_flatten_errors(const bad_case *cases, size_t n) {
  for (size_t i = 0; i < n; i++) {
    bsim_diagram *d = NULL;
    bsim_error err;
    bsim_flat *f = flatten_file(cases[i].file, &d, &err);
    CHECK(f == NULL, "%s flattened", cases[i].file);
    CHECK(d != NULL, "%s: failed at load already: %s", cases[i].file,
          err.message);
    CHECK(err.status == BSIM_ERR_INPUT, "%s: status %d", cases[i].file,
          (int)err.status);
    CHECK(strstr(err.message, cases[i].piece1) &&
              strstr(err.message, cases[i].piece2),
          "%s: message '%s' lacks '%s' / '%s'", cases[i].file, err.message,
          cases[i].piece1, cases[i].piece2);
    bsim_flat_free(f);
    bsim_diagram_free(d);
  }
}

#endif
