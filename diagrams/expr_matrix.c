/*
 * Matrix literals: [1 2; 3 4], [A b], [1 -1]. Kept apart from the rest of
 * the parser because Scilab's whitespace rules inside brackets (a blank
 * separates elements, a newline ends a row) and the concatenation checks
 * are a concern of their own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/expr_int.h"

/* ------------------------------------------------------ matrix literals */

/* The literal starting at '[' (up to its ']', shortened), for messages. */
static const char *literal_text(const parser *P, size_t open, char *buf,
                                size_t n) {
  size_t end = open;
  for (int depth = 0; P->s[end]; end++) {
    depth += (P->s[end] == '[') - (P->s[end] == ']');
    if (depth == 0) {
      end++;
      break;
    }
  }
  int len = (int)(end - open);
  if (len > 40)
    snprintf(buf, n, "%.37s...", P->s + open);
  else
    snprintf(buf, n, "%.*s", len, P->s + open);
  return buf;
}

/* A literal under construction, built in time linear in its size (joining
 * at every element was quadratic: a 200 KB literal took 15 s). The current
 * row grows in place — column-major, so horizontal concatenation appends —
 * with a doubling capacity; finished rows wait in a list and are stacked
 * once, at ']'. */
typedef struct lit {
  mat row;
  long cap;  /* doubles allocated for row.v */
  mat *rows; /* finished non-empty rows */
  int nrows, rcap;
  int first;  /* number of the first non-empty row, for messages */
  long total; /* elements in rows */
} lit;

static void lit_clear(lit *L) {
  ex_clear(&L->row);
  for (int i = 0; i < L->nrows; i++)
    ex_clear(&L->rows[i]);
  free(L->rows);
  memset(L, 0, sizeof *L);
}

static int too_large(parser *P, long n) {
  return ex_fail(P, "matrix of %ld elements is too large (at most %ld)", n,
                 MAX_ELEMS);
}

/* row = [row e]; e is consumed. Empty pieces vanish, as in Scilab. */
static int hcat(parser *P, lit *L, mat *e, int k, int r, size_t open) {
  if (ex_need_real(P, e, "a matrix element", open)) return -1;
  mat *row = &L->row;
  long n = numel(row), add = numel(e);
  if (add == 0) {
    ex_clear(e);
    return 0;
  }
  if (n == 0) {
    ex_mat_move(row, e); /* row is empty and initialised */
    L->cap = add;
    return 0;
  }
  char buf[48];
  if (row->rows != e->rows)
    return ex_fail(P,
                   "%s at column %zu: in row %d, element %d has %d row(s) "
                   "but the elements before it have %d",
                   literal_text(P, open, buf, sizeof buf), col(open), r, k,
                   e->rows, row->rows);
  if (n + add > MAX_ELEMS - L->total) return too_large(P, L->total + n + add);
  if (n + add > L->cap) {
    long cap = 2 * L->cap > n + add ? 2 * L->cap : n + add;
    double *v = realloc(row->v, (size_t)cap * sizeof *v);
    if (!v) return ex_fail(P, "out of memory");
    row->v = v;
    L->cap = cap;
  }
  memcpy(row->v + n, e->v, (size_t)add * sizeof *row->v);
  row->cols += e->cols;
  ex_clear(e);
  return 0;
}

/* The current row joins the finished ones. */
static int end_row(parser *P, lit *L, int r, size_t open) {
  mat *row = &L->row;
  if (numel(row) == 0) {
    ex_clear(row);
    return 0;
  }
  char buf[48];
  if (L->nrows > 0 && L->rows[0].cols != row->cols)
    return ex_fail(P,
                   "%s at column %zu: row %d has %d column(s), row %d has %d",
                   literal_text(P, open, buf, sizeof buf), col(open), r,
                   row->cols, L->first, L->rows[0].cols);
  if (L->nrows == L->rcap) {
    int cap = L->rcap ? 2 * L->rcap : 8;
    mat *grown = realloc(L->rows, (size_t)cap * sizeof *grown);
    if (!grown) return ex_fail(P, "out of memory");
    L->rows = grown;
    L->rcap = cap;
  }
  if (L->nrows == 0) L->first = r;
  L->total += numel(row);
  L->rows[L->nrows++] = *row; /* moved: the row starts empty again */
  memset(row, 0, sizeof *row);
  L->cap = 0;
  return 0;
}

/* [rows[0]; rows[1]; ...] into out, in one pass. */
static int stack(parser *P, lit *L, mat *out) {
  if (L->nrows == 0) {
    memset(out, 0, sizeof *out);
    return 0;
  }
  if (L->nrows == 1) {
    *out = L->rows[0]; /* moved */
    L->nrows = 0;
    return 0;
  }
  long nr = 0;
  for (int i = 0; i < L->nrows; i++)
    nr += L->rows[i].rows;
  if (ex_mat_new(P, out, nr, L->rows[0].cols)) return -1;
  for (int j = 0; j < out->cols; j++) {
    double *dst = out->v + (long)j * out->rows;
    for (int i = 0; i < L->nrows; i++) {
      const mat *m = &L->rows[i];
      memcpy(dst, m->v + (long)j * m->rows, (size_t)m->rows * sizeof *dst);
      dst += m->rows;
    }
  }
  return 0;
}

int ex_parse_matrix(parser *P, mat *out) {
  size_t open = P->pos++;
  int saved = P->bracket;
  P->bracket = 1;
  lit L;
  memset(&L, 0, sizeof L);
  mat e = {0};
  int r = 1, k = 0, comma = 0, rc = -1;
  for (;;) {
    int blank = ex_skip_ws(P);
    char c = ex_at(P, 0);
    if (c == ']' || c == ';' || c == '\n') {
      P->pos++;
      if (end_row(P, &L, r, open)) goto done;
      if (c == ']') break;
      if (k > 0) r++;
      k = 0;
      comma = 0;
    } else if (c == ',') {
      if (k == 0 || comma) {
        ex_unexpected(P, "a matrix element");
        goto done;
      }
      P->pos++;
      comma = 1;
    } else if (c == '\0') {
      ex_fail(P, "missing ']' for the '[' at column %zu", col(open));
      goto done;
    } else {
      if (k > 0 && !blank && !comma) {
        ex_unexpected(P, "',', ';', ']' or an operator");
        goto done;
      }
      if (ex_parse_expr(P, &e) || hcat(P, &L, &e, ++k, r, open)) goto done;
      comma = 0;
    }
  }
  if (stack(P, &L, out)) goto done;
  P->bracket = saved;
  rc = 0;
done:
  lit_clear(&L);
  ex_clear(&e);
  return rc;
}
