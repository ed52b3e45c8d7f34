/*
 * The Scilab value tree the Xcos decoders produce: construction, copying,
 * freeing and the few lookups the reader needs (fields of tlists/mlists by
 * name, elements of matrices).
 */
#include "diagrams/xcos/sciv.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

sciv *sciv_new(sciv_kind kind) {
  sciv *v = calloc(1, sizeof *v);
  if (v) v->kind = kind;
  return v;
}

int sciv_alloc(sciv *v, int rows, int cols, int complex) {
  if (rows < 0 || cols < 0 || (rows && cols > INT_MAX / rows)) return -1;
  size_t n = (size_t)rows * (size_t)cols;
  v->rows = n ? rows : 0;
  v->cols = n ? cols : 0;
  if (v->kind == SCIV_STRING) {
    v->str = calloc(n ? n : 1, sizeof *v->str);
    return v->str ? 0 : -1;
  }
  v->re = calloc(n ? n : 1, sizeof *v->re);
  if (!v->re) return -1;
  if (complex && v->kind == SCIV_DOUBLE) {
    v->im = calloc(n ? n : 1, sizeof *v->im);
    if (!v->im) return -1;
  }
  return 0;
}

int sciv_append(sciv *list, sciv *item) {
  sciv **grown =
      realloc(list->items, (size_t)(list->nitems + 1) * sizeof *grown);
  if (!grown) return -1;
  list->items = grown;
  grown[list->nitems++] = item;
  return 0;
}

void sciv_free(sciv *v) {
  if (!v) return;
  free(v->re);
  free(v->im);
  if (v->str) {
    int n = v->rows * v->cols;
    for (int i = 0; i < n; i++)
      free(v->str[i]);
    free(v->str);
  }
  for (int i = 0; i < v->nitems; i++)
    sciv_free(v->items[i]);
  free(v->items);
  free(v);
}

sciv *sciv_copy(const sciv *v) {
  if (!v) return NULL;
  sciv *c = sciv_new(v->kind);
  if (!c) return NULL;
  c->prec = v->prec;
  if (!sciv_is_list(v)) {
    if (sciv_alloc(c, v->rows, v->cols, v->im != NULL) != 0) goto fail;
    size_t n = (size_t)v->rows * (size_t)v->cols;
    if (v->re && n) memcpy(c->re, v->re, n * sizeof *c->re);
    if (v->im && n) memcpy(c->im, v->im, n * sizeof *c->im);
    for (size_t i = 0; v->str && i < n; i++)
      if (v->str[i] && !(c->str[i] = strdup(v->str[i]))) goto fail;
  }
  for (int i = 0; i < v->nitems; i++) {
    sciv *item = sciv_copy(v->items[i]);
    if (!item || sciv_append(c, item) != 0) {
      sciv_free(item);
      goto fail;
    }
  }
  return c;
fail:
  sciv_free(c);
  return NULL;
}

int sciv_numel(const sciv *v) {
  if (!v) return 0;
  return sciv_is_list(v) ? v->nitems : v->rows * v->cols;
}

int sciv_is_list(const sciv *v) {
  return v && (v->kind == SCIV_LIST || v->kind == SCIV_TLIST ||
               v->kind == SCIV_MLIST);
}

int sciv_is_real(const sciv *v) {
  return v && ((v->kind == SCIV_DOUBLE && !v->im) || v->kind == SCIV_INT ||
               v->kind == SCIV_BOOL);
}

const char *sciv_type_name(const sciv *v) {
  if (!v || (v->kind != SCIV_TLIST && v->kind != SCIV_MLIST) || !v->nitems)
    return NULL;
  return sciv_str(v->items[0], 0);
}

const sciv *sciv_field(const sciv *v, const char *name) {
  if (!sciv_type_name(v)) return NULL;
  const sciv *names = v->items[0];
  int n = sciv_numel(names);
  for (int i = 1; i < n; i++) {
    const char *s = sciv_str(names, i);
    if (s && strcmp(s, name) == 0) return i < v->nitems ? v->items[i] : NULL;
  }
  return NULL;
}

const sciv *sciv_item(const sciv *v, int i) {
  if (!sciv_is_list(v) || i < 0 || i >= v->nitems) return NULL;
  return v->items[i];
}

double sciv_num(const sciv *v, int i, double dflt) {
  if (!sciv_is_real(v) || i < 0 || i >= v->rows * v->cols) return dflt;
  return v->re[i];
}

const char *sciv_str(const sciv *v, int i) {
  if (!v || v->kind != SCIV_STRING || i < 0 || i >= v->rows * v->cols)
    return NULL;
  return v->str[i];
}
