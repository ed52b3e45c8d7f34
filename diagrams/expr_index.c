/*
 * Indexing and ranges: x(i), x(i,j), x(:), '$' for the last index, a:b:c,
 * and the indexed assignment of scripts, x(i) = v, which grows x as Scilab
 * does. Apart from the parser because index arithmetic (ranges, growth,
 * bounds) is where off-by-one errors live, and deserves its own file.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/expr_int.h"

int ex_colon_all(parser *P, mat *out) {
  memset(out, 0, sizeof *out);
  out->all = 1;
  return 0;
}

int ex_is_colon_all(const mat *m) {
  return m->all;
}

int ex_range(parser *P, const mat *from, const mat *step, const mat *to,
             size_t pos, mat *out) {
  const mat *parts[3] = {from, step, to};
  for (int i = 0; i < 3; i++)
    if (parts[i] && (!is_scalar(parts[i]) || parts[i]->eye))
      return ex_fail(P,
                     "range ':' at column %zu: bounds and step must be real "
                     "scalars",
                     col(pos));
  double a = from->v[0], s = step ? step->v[0] : 1.0, b = to->v[0];
  if (!isfinite(a) || !isfinite(b) || !isfinite(s))
    return ex_fail(P, "range ':' at column %zu: bounds must be finite",
                   col(pos));
  double span = s == 0 ? -1 : (b - a) / s;
  /* A last element within rounding of the bound still belongs (0:0.1:1
   * has 11 elements), as in Scilab. */
  if (span < 0 && span > -1e-10) span = 0;
  if (!(span >= 0)) return ex_mat_new(P, out, 0, 0);
  double count = floor(span + 1e-10) + 1;
  if (count > MAX_ELEMS)
    return ex_fail(P, "range ':' at column %zu has too many elements",
                   col(pos));
  if (ex_mat_new(P, out, 1, (long)count)) return -1;
  for (long i = 0; i < (long)count; i++)
    out->v[i] = a + (double)i * s;
  return 0;
}

/* The positions (0-based) an index selects in a dimension of size n:
 * ':' all of them, else a real vector of integers 1..n (up to limit when
 * growing is allowed: limit < 0 means no growth). On failure s holds
 * nothing: callers free s->at on every path, this one included. */
typedef struct sel {
  long *at;
  long n;
  long max; /* largest position + 1 */
} sel;

static int selection(parser *P, const mat *idx, long n, int grow, size_t pos,
                     sel *s) {
  memset(s, 0, sizeof *s);
  if (ex_is_colon_all(idx)) {
    s->n = n;
  } else {
    if (ex_need_real(P, idx, "index", pos)) return -1;
    s->n = numel(idx);
  }
  if (s->n > 0 && !(s->at = malloc((size_t)s->n * sizeof *s->at)))
    return ex_fail(P, "out of memory");
  for (long k = 0; k < s->n; k++) {
    double d = ex_is_colon_all(idx) ? (double)(k + 1) : idx->v[k];
    if (!(d >= 1) || d != floor(d) || d > MAX_ELEMS) {
      free(s->at);
      s->at = NULL;
      return ex_fail(P,
                     "index at column %zu: %g is not a positive integer "
                     "(indices count from 1)",
                     col(pos), d);
    }
    if (!grow && d > n) {
      free(s->at);
      s->at = NULL;
      return ex_fail(P, "index at column %zu: %g is out of range (size %ld)",
                     col(pos), d, n);
    }
    s->at[k] = (long)d - 1;
    if ((long)d > s->max) s->max = (long)d;
  }
  return 0;
}

int ex_index(parser *P, const mat *x, mat *args, int n, size_t pos, mat *out) {
  if (ex_need_real(P, x, "indexing", pos)) return -1;
  if (n == 1) {
    sel s;
    if (selection(P, &args[0], numel(x), 0, pos, &s)) return -1;
    /* x(:) is a column; a row stays a row; otherwise the index's shape. */
    long r = s.n, c = 1;
    if (!ex_is_colon_all(&args[0]) &&
        (x->rows == 1 || (x->cols != 1 && args[0].rows == 1))) {
      r = 1;
      c = s.n;
    }
    int rc = ex_mat_new(P, out, r, c);
    for (long k = 0; rc == 0 && k < s.n; k++)
      out->v[k] = x->v[s.at[k]];
    free(s.at);
    return rc;
  }
  if (n != 2)
    return ex_fail(P, "indexing at column %zu takes one or two indices, not %d",
                   col(pos), n);
  sel si, sj;
  if (selection(P, &args[0], x->rows, 0, pos, &si)) return -1;
  if (selection(P, &args[1], x->cols, 0, pos, &sj)) {
    free(si.at);
    return -1;
  }
  int rc = ex_mat_new(P, out, si.n, sj.n);
  for (long j = 0; rc == 0 && j < sj.n; j++)
    for (long i = 0; i < si.n; i++)
      out->v[i + j * si.n] = x->v[si.at[i] + sj.at[j] * x->rows];
  free(si.at);
  free(sj.at);
  return rc;
}

/* *x grown (zero-filled) to at least rows x cols. */
static int grow_to(parser *P, mat *x, long rows, long cols) {
  if (rows <= x->rows && cols <= x->cols) return 0;
  if (rows < x->rows) rows = x->rows;
  if (cols < x->cols) cols = x->cols;
  mat t;
  if (ex_mat_new(P, &t, rows, cols)) return -1;
  for (long j = 0; j < x->cols; j++)
    for (long i = 0; i < x->rows; i++)
      t.v[i + j * rows] = x->v[i + j * x->rows];
  ex_mat_move(x, &t);
  return 0;
}

int ex_index_assign(parser *P, mat *x, mat *args, int n, const mat *rhs,
                    size_t pos) {
  if (ex_need_real(P, x, "indexed assignment", pos) ||
      ex_need_real(P, rhs, "indexed assignment", pos))
    return -1;
  if (n < 1 || n > 2)
    return ex_fail(P,
                   "indexed assignment at column %zu takes one or two "
                   "indices, not %d",
                   col(pos), n);
  sel si = {0}, sj = {0};
  int rc = -1;
  if (n == 1) {
    if (selection(P, &args[0], numel(x), 1, pos, &si)) return -1;
    if (si.max > numel(x)) {
      /* Growing by a linear index only makes sense for a vector. */
      if (x->rows > 1 && x->cols > 1) {
        ex_fail(P,
                "indexed assignment at column %zu: index %ld is beyond the "
                "%dx%d matrix",
                col(pos), si.max, x->rows, x->cols);
        goto done;
      }
      if (x->cols == 1 && x->rows > 1 ? grow_to(P, x, si.max, 1)
                                      : grow_to(P, x, 1, si.max))
        goto done;
    }
    sj.n = 1;
  } else {
    if (selection(P, &args[0], x->rows, 1, pos, &si) ||
        selection(P, &args[1], x->cols, 1, pos, &sj) ||
        grow_to(P, x, si.max, sj.max))
      goto done;
  }
  long count = si.n * sj.n;
  if (!is_scalar(rhs) && numel(rhs) != count) {
    ex_fail(P,
            "indexed assignment at column %zu: %ld element(s) selected but "
            "the value has %ld",
            col(pos), count, numel(rhs));
    goto done;
  }
  for (long j = 0; j < sj.n; j++)
    for (long i = 0; i < si.n; i++) {
      long k = i + j * si.n;
      double v = is_scalar(rhs) ? rhs->v[0] : rhs->v[k];
      long at = n == 1 ? si.at[i] : si.at[i] + sj.at[j] * x->rows;
      x->v[at] = v;
    }
  rc = 0;
done:
  free(si.at);
  free(sj.at);
  return rc;
}
