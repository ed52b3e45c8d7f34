/*
 * Matrix literals: [1 2; 3 4], [A b], [1 -1]. Kept apart from the rest of
 * the parser because Scilab's whitespace rules inside brackets (a blank
 * separates elements, a newline ends a row) and the concatenation checks
 * are a concern of their own.
 */
#include <stdio.h>
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

/* row = [row e]; e is consumed. Empty pieces vanish, as in Scilab. */
static int hcat(parser *P, mat *row, mat *e, int k, int r, size_t open) {
  if (ex_need_real(P, e, "a matrix element", open)) return -1;
  if (numel(e) == 0) {
    ex_clear(e);
    return 0;
  }
  if (numel(row) == 0) {
    ex_mat_move(row, e);
    return 0;
  }
  char buf[48];
  if (row->rows != e->rows)
    return ex_fail(P,
                   "%s at column %zu: in row %d, element %d has %d row(s) "
                   "but the elements before it have %d",
                   literal_text(P, open, buf, sizeof buf), col(open), r, k,
                   e->rows, row->rows);
  mat t;
  if (ex_mat_new(P, &t, row->rows, (long)row->cols + e->cols)) return -1;
  /* Column-major: horizontal concatenation is appending. */
  memcpy(t.v, row->v, (size_t)numel(row) * sizeof *t.v);
  memcpy(t.v + numel(row), e->v, (size_t)numel(e) * sizeof *t.v);
  ex_mat_move(row, &t);
  ex_clear(e);
  return 0;
}

/* acc = [acc; row]; row is consumed. */
static int vcat(parser *P, mat *acc, mat *row, int r, int *first, size_t open) {
  if (numel(row) == 0) {
    ex_clear(row);
    return 0;
  }
  if (numel(acc) == 0) {
    ex_mat_move(acc, row);
    *first = r;
    return 0;
  }
  char buf[48];
  if (acc->cols != row->cols)
    return ex_fail(P,
                   "%s at column %zu: row %d has %d column(s), row %d has %d",
                   literal_text(P, open, buf, sizeof buf), col(open), r,
                   row->cols, *first, acc->cols);
  mat t;
  if (ex_mat_new(P, &t, (long)acc->rows + row->rows, acc->cols)) return -1;
  for (int j = 0; j < t.cols; j++) {
    memcpy(t.v + (long)j * t.rows, acc->v + (long)j * acc->rows,
           (size_t)acc->rows * sizeof *t.v);
    memcpy(t.v + (long)j * t.rows + acc->rows, row->v + (long)j * row->rows,
           (size_t)row->rows * sizeof *t.v);
  }
  ex_mat_move(acc, &t);
  ex_clear(row);
  return 0;
}

int ex_parse_matrix(parser *P, mat *out) {
  size_t open = P->pos++;
  int saved = P->bracket;
  P->bracket = 1;
  mat acc = {0}, row = {0}, e = {0};
  int r = 1, k = 0, first = 1, comma = 0, rc = -1;
  for (;;) {
    int blank = ex_skip_ws(P);
    char c = ex_at(P, 0);
    if (c == ']' || c == ';' || c == '\n') {
      P->pos++;
      if (vcat(P, &acc, &row, r, &first, open)) goto done;
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
      if (ex_parse_expr(P, &e) || hcat(P, &row, &e, ++k, r, open)) goto done;
      comma = 0;
    }
  }
  P->bracket = saved;
  *out = acc;
  memset(&acc, 0, sizeof acc);
  rc = 0;
done:
  ex_clear(&acc);
  ex_clear(&row);
  ex_clear(&e);
  return rc;
}
