/*
 * The C blocks of a diagram (CBLOCK, CBLOCK4, c_block: C source carried in the
 * file) are compiled when it is loaded, whatever the reader: each becomes
 * a block of the type its code defines, in a child of the caller's
 * library that the diagram owns, so the caller's library never changes.
 * The block keeps its model-data parameters (rpar, in, out, ...); the
 * source itself is gone from the tree once compiled.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/dg_util.h"

/* Which kind of function (BSIM_C_*, without implicitness) the block's
 * code defines, -1 if it is not a C block. */
static int cblock_kind(const bsim_library *lib, const char *type) {
  const bsim_block_type *t = type ? bsim_library_find(lib, type) : NULL;
  if (!t) return -1;
  if (strcmp(t->name, "CBLOCK") == 0 || strcmp(t->name, "CBLOCK4") == 0)
    return BSIM_C_TYPE4;
  return strcmp(t->name, "c_block") == 0 ? BSIM_C_TYPE1 : -1;
}

/* Take parameter `name` out of the block: its text (malloc'd) or NULL. */
static char *take_param(dg_block *b, const char *name) {
  for (int i = 0; i < b->nparams; i++) {
    if (strcmp(b->params[i].name, name) != 0) continue;
    char *text = b->params[i].expr;
    free(b->params[i].name);
    memmove(&b->params[i], &b->params[i + 1],
            (size_t)(b->nparams - i - 1) * sizeof *b->params);
    b->nparams--;
    return text;
  }
  return NULL;
}

/* Strip blanks at both ends, in place (Xcos's stripblanks). */
static char *strip(char *s) {
  while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
    s++;
  size_t n = strlen(s);
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' ||
                   s[n - 1] == '\r'))
    s[--n] = '\0';
  return s;
}

static int compile_one(const bsim_diagram *d, bsim_library *own, dg_block *b,
                       const char *path, int kind, bsim_error *err) {
  char origin[2400];
  snprintf(origin, sizeof origin, "%.1000s:%d: block '%.1000s' (%.40s)",
           d->file, b->line, path, b->type);
  char *fn = take_param(b, "function"), *code = take_param(b, "code"),
       *impl = take_param(b, "implicit");
  int rc = 0;
  if (!fn || !code) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "%s: needs the parameters 'function' (the C function's "
                   "name) and 'code' (its source)",
                   origin);
    rc = -1;
  }
  char *name = fn ? strip(fn) : NULL;
  if (impl && (strip(impl)[0] == 'y' || strip(impl)[0] == 'Y'))
    kind = BSIM_C_TYPE4_IMPLICIT;
  if (rc == 0) rc = bsim_library_compile_c(own, name, code, kind, origin, err);
  if (rc == 0) {
    char *type = strdup(name);
    if (!type) {
      bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
      rc = -1;
    } else {
      free(b->type);
      b->type = type;
    }
  }
  free(fn);
  free(code);
  free(impl);
  return rc;
}

static int walk(const bsim_diagram *d, bsim_library **own, dg_diagram *level,
                const char *prefix, bsim_error *err) {
  for (int i = 0; i < level->nblocks; i++) {
    dg_block *b = &level->blocks[i];
    char path[2048];
    snprintf(path, sizeof path, "%s%s%s", prefix, *prefix ? "/" : "", b->id);
    if (b->sub) {
      if (walk(d, own, b->sub, path, err) != 0) return -1;
      continue;
    }
    int kind = cblock_kind(d->lib, b->type);
    if (kind < 0) continue;
    if (!*own && !(*own = bsim_library_create_child(d->lib, err))) return -1;
    if (compile_one(d, *own, b, path, kind, err) != 0) return -1;
  }
  return 0;
}

int dg_compile_cblocks(bsim_diagram *d, bsim_error *err) {
  bsim_library *own = NULL;
  int rc = walk(d, &own, d->root, "", err);
  if (own) { /* the diagram's library from now on; it holds the old one */
    bsim_library_release(d->lib);
    d->lib = own;
  }
  return rc;
}
