/*
 * Values and scopes for expressions and scripts. Kept apart from the parser
 * so that the flattener and the define glue can hold and copy values
 * without caring how they were computed. A scope is a small unsorted
 * table: contexts hold tens of names, so a linear search beats the
 * bookkeeping of a hash. Besides values, an entry may be pinned (set by an
 * override, which a script must not change) or unknown (its statement
 * failed); the root of a chain owns the environment (rand, dialect).
 */
#include <stdlib.h>
#include <string.h>

#include "diagrams/expr_int.h"

typedef struct entry {
  char *name;
  bsim_value value;
  char var;      /* polynomial variable, 0 for other values */
  int pinned;    /* set by an override: assignments leave it alone */
  char *unknown; /* why it could not be computed; NULL when known */
} entry;

struct bsim_scope {
  const bsim_scope *parent;
  ex_env *env; /* the root's, shared down the chain */
  ex_env own;
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
  if (!s) return NULL;
  s->parent = parent;
  /* The chain's state is mutable although parents are seen as const: it is
   * the evaluation's state (rand), not the parent's variables. */
  s->env = parent ? parent->env : &s->own;
  return s;
}

void bsim_scope_set_scilab(bsim_scope *s, int on) {
  if (s) s->env->scilab = on;
}

ex_env *ex_scope_env(const bsim_scope *s) {
  return s ? s->env : NULL;
}

void bsim_scope_free(bsim_scope *s) {
  if (!s) return;
  for (size_t i = 0; i < s->n; i++) {
    free(s->e[i].name);
    free(s->e[i].unknown);
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

/* The local entry for name, created empty if absent; NULL out of memory. */
static entry *slot(bsim_scope *s, const char *name) {
  entry *old = find_local(s, name);
  if (old) return old;
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 8;
    entry *e = realloc(s->e, cap * sizeof *e);
    if (!e) return NULL;
    s->e = e;
    s->cap = cap;
  }
  char *n = dup_string(name);
  if (!n) return NULL;
  memset(&s->e[s->n], 0, sizeof s->e[s->n]);
  s->e[s->n].name = n;
  return &s->e[s->n++];
}

static int store(bsim_scope *s, const char *name, const bsim_value *v, char var,
                 int pin) {
  if (!s || !name) return -1;
  /* Copy first, then replace: v may point into the old value itself. */
  bsim_value copy;
  if (bsim_value_copy(&copy, v) != 0) return -1;
  entry *e = find_local(s, name);
  if (e && e->pinned && !pin) {
    bsim_value_clear(&copy);
    return 0;
  }
  if (!e && !(e = slot(s, name))) {
    bsim_value_clear(&copy);
    return -1;
  }
  bsim_value_clear(&e->value);
  free(e->unknown);
  e->unknown = NULL;
  e->value = copy;
  e->var = var;
  e->pinned |= pin;
  return 0;
}

int bsim_scope_set(bsim_scope *s, const char *name, const bsim_value *v) {
  return store(s, name, v, 0, 0);
}

int bsim_scope_pin(bsim_scope *s, const char *name, const bsim_value *v) {
  return store(s, name, v, 0, 1);
}

int ex_scope_store(bsim_scope *s, const char *name, const mat *m) {
  bsim_value v = {m->rows, m->cols, m->v, m->str};
  return store(s, name, &v, m->var, 0);
}

int bsim_scope_set_unknown(bsim_scope *s, const char *name, const char *why) {
  if (!s || !name) return -1;
  entry *e = find_local(s, name);
  if (e && e->pinned) return 0;
  char *w = dup_string(why ? why : "");
  if (!w || (!e && !(e = slot(s, name)))) {
    free(w);
    return -1;
  }
  bsim_value_clear(&e->value);
  free(e->unknown);
  e->unknown = w;
  e->var = 0;
  return 0;
}

int ex_scope_find(const bsim_scope *s, const char *name,
                  const bsim_value **value, char *var, const char **why) {
  for (; s; s = s->parent) {
    const entry *e = find_local(s, name);
    if (!e) continue;
    if (e->unknown) {
      *why = e->unknown;
      return 2;
    }
    *value = &e->value;
    *var = e->var;
    return 0;
  }
  return 1;
}

const bsim_value *bsim_scope_get(const bsim_scope *s, const char *name) {
  const bsim_value *v = NULL;
  const char *why;
  char var;
  if (!name || ex_scope_find(s, name, &v, &var, &why) != 0 || var) return NULL;
  return v;
}
