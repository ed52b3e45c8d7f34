/*
 * Values and scopes for parameter expressions. Kept apart from the parser so
 * that the flattener and the define glue can hold and copy values without
 * caring how they were computed. A scope is a small unsorted table: contexts
 * hold tens of names, so a linear search beats the bookkeeping of a hash.
 */
#include "diagrams/expr.h"

#include <stdlib.h>
#include <string.h>

typedef struct entry {
  char *name;
  bsim_value value;
} entry;

struct bsim_scope {
  const bsim_scope *parent;
  entry *e;
  size_t n, cap;
};

static char *dup_string(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

void bsim_value_clear(bsim_value *v) {
  if (!v) return;
  free(v->v);
  free(v->str);
  memset(v, 0, sizeof *v);
}

void bsim_values_free(bsim_value *v, int n) {
  for (int i = 0; v && i < n; i++)
    bsim_value_clear(&v[i]);
  free(v);
}

/* dst is overwritten, not released: callers pass a fresh or cleared value.
 * On failure dst is left empty so that clearing it stays safe. */
int bsim_value_copy(bsim_value *dst, const bsim_value *src) {
  if (dst == src) return 0;
  memset(dst, 0, sizeof *dst);
  if (!src) return 0;
  size_t n = (src->rows > 0 && src->cols > 0)
                 ? (size_t)src->rows * (size_t)src->cols
                 : 0;
  if (n > 0 && src->v) {
    dst->v = malloc(n * sizeof *dst->v);
    if (!dst->v) return -1;
    memcpy(dst->v, src->v, n * sizeof *dst->v);
  }
  if (src->str) {
    dst->str = dup_string(src->str);
    if (!dst->str) {
      bsim_value_clear(dst);
      return -1;
    }
  }
  dst->rows = src->rows;
  dst->cols = src->cols;
  return 0;
}

bsim_scope *bsim_scope_create(const bsim_scope *parent) {
  bsim_scope *s = calloc(1, sizeof *s);
  if (s) s->parent = parent;
  return s;
}

void bsim_scope_free(bsim_scope *s) {
  if (!s) return;
  for (size_t i = 0; i < s->n; i++) {
    free(s->e[i].name);
    bsim_value_clear(&s->e[i].value);
  }
  free(s->e);
  free(s);
}

static entry *find_local(const bsim_scope *s, const char *name) {
  for (size_t i = 0; i < s->n; i++)
    if (strcmp(s->e[i].name, name) == 0) return &s->e[i];
  return NULL;
}

int bsim_scope_set(bsim_scope *s, const char *name, const bsim_value *v) {
  if (!s || !name) return -1;
  bsim_value copy;
  if (bsim_value_copy(&copy, v) != 0) return -1;
  entry *old = find_local(s, name);
  if (old) {
    /* Copy first, then replace: v may point into the old value itself. */
    bsim_value_clear(&old->value);
    old->value = copy;
    return 0;
  }
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 8;
    entry *e = realloc(s->e, cap * sizeof *e);
    if (!e) {
      bsim_value_clear(&copy);
      return -1;
    }
    s->e = e;
    s->cap = cap;
  }
  char *n = dup_string(name);
  if (!n) {
    bsim_value_clear(&copy);
    return -1;
  }
  s->e[s->n].name = n;
  s->e[s->n].value = copy;
  s->n++;
  return 0;
}

const bsim_value *bsim_scope_get(const bsim_scope *s, const char *name) {
  if (!name) return NULL;
  for (; s; s = s->parent) {
    const entry *e = find_local(s, name);
    if (e) return &e->value;
  }
  return NULL;
}
