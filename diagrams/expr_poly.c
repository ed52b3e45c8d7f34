/*
 * Polynomials, for transfer-function parameters written as Xcos dialogs
 * take them ("1+s", "(1+s)*(2+s)", "poly([1 2],'s','c')"): scalar
 * polynomials in one variable with + - * ^ and scaling, poly(), coeff(),
 * degree(). A polynomial holds its coefficients lowest power first, as
 * Scilab's coeff() returns them; a parameter's value is turned around to
 * highest power first, the order transfer-function blocks take.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/expr_int.h"

/* Drops exact-zero leading (highest) coefficients, keeping at least one, as
 * Scilab does after arithmetic: (1+s)-s has degree 0. */
static void normalize(mat *p) {
  while (p->cols > 1 && p->v[p->cols - 1] == 0)
    p->cols--;
}

static int poly_new(parser *P, mat *p, char var, long ncoef) {
  if (ex_mat_new(P, p, 1, ncoef)) return -1;
  p->var = var;
  return 0;
}

int ex_poly_var(parser *P, char var, mat *out) {
  if (poly_new(P, out, var, 2)) return -1;
  out->v[1] = 1.0;
  return 0;
}

/* A real scalar as a constant polynomial in var, or a copy of a polynomial. */
static int as_poly(parser *P, const mat *m, char var, const char *op,
                   size_t pos, mat *out) {
  if (m->var) return ex_copy(P, out, m);
  if (m->str || m->eye || !is_scalar(m))
    return ex_fail(P,
                   "operator '%s' at column %zu: a polynomial combines only "
                   "with scalars and polynomials (matrices of polynomials "
                   "are not supported)",
                   op, col(pos));
  if (poly_new(P, out, var, 1)) return -1;
  out->v[0] = m->v[0];
  return 0;
}

static int poly_mul(parser *P, const mat *a, const mat *b, mat *r) {
  if (poly_new(P, r, a->var, (long)a->cols + b->cols - 1)) return -1;
  for (int i = 0; i < a->cols; i++)
    for (int j = 0; j < b->cols; j++)
      r->v[i + j] += a->v[i] * b->v[j];
  normalize(r);
  return 0;
}

static int poly_add(parser *P, const mat *a, const mat *b, double sign,
                    mat *r) {
  long n = a->cols > b->cols ? a->cols : b->cols;
  if (poly_new(P, r, a->var, n)) return -1;
  for (long i = 0; i < n; i++)
    r->v[i] = (i < a->cols ? a->v[i] : 0) + sign * (i < b->cols ? b->v[i] : 0);
  normalize(r);
  return 0;
}

static int poly_pow(parser *P, const mat *a, const mat *e, size_t pos, mat *r) {
  double k = is_scalar(e) ? e->v[0] : -1;
  if (e->var || !(k >= 0 && k <= 1000 && k == floor(k)))
    return ex_fail(P,
                   "operator '^' at column %zu: a polynomial's power must be "
                   "an integer from 0 to 1000",
                   col(pos));
  if (poly_new(P, r, a->var, 1)) return -1;
  r->v[0] = 1.0;
  for (int i = 0; i < (int)k; i++) {
    mat t = {0};
    if (poly_mul(P, r, a, &t)) return -1;
    ex_mat_move(r, &t);
  }
  return 0;
}

int ex_poly_binary(parser *P, const char *op, const mat *a, const mat *b,
                   size_t pos, mat *r) {
  char var = a->var ? a->var : b->var;
  if (a->var && b->var && a->var != b->var)
    return ex_fail(P,
                   "operator '%s' at column %zu: polynomials in %c and in %c "
                   "cannot be combined",
                   op, col(pos), a->var, b->var);
  if (!strcmp(op, "^") || !strcmp(op, ".^")) {
    if (!a->var)
      return ex_fail(P,
                     "operator '%s' at column %zu: a polynomial exponent is "
                     "not supported",
                     op, col(pos));
    return poly_pow(P, a, b, pos, r);
  }
  if ((!strcmp(op, "/") || !strcmp(op, "./")) && !b->var) {
    if (!is_scalar(b))
      return as_poly(P, b, var, op, pos, r); /* reports the error */
    if (ex_copy(P, r, a)) return -1;
    for (int i = 0; i < r->cols; i++)
      r->v[i] /= b->v[0];
    return 0;
  }
  if (!strcmp(op, "/") || !strcmp(op, "./") || !strcmp(op, "\\"))
    return ex_fail(P,
                   "operator '%s' at column %zu: rational functions are not "
                   "supported (give numerator and denominator separately)",
                   op, col(pos));
  mat pa = {0}, pb = {0};
  int rc = as_poly(P, a, var, op, pos, &pa);
  if (rc == 0) rc = as_poly(P, b, var, op, pos, &pb);
  if (rc == 0) {
    if (!strcmp(op, "+") || !strcmp(op, "-"))
      rc = poly_add(P, &pa, &pb, op[0] == '-' ? -1.0 : 1.0, r);
    else if (!strcmp(op, "*") || !strcmp(op, ".*"))
      rc = poly_mul(P, &pa, &pb, r);
    else if (!strcmp(op, "==") || !strcmp(op, "~="))
      rc =
          ex_mat_scalar(P, r,
                        (pa.cols == pb.cols &&
                         !memcmp(pa.v, pb.v, (size_t)pa.cols * sizeof *pa.v)) ==
                            (op[0] == '='));
    else
      rc = ex_fail(P,
                   "operator '%s' at column %zu is not defined for "
                   "polynomials",
                   op, col(pos));
  }
  ex_clear(&pa);
  ex_clear(&pb);
  return rc;
}

/* poly(v, 'x'[, 'roots' | 'coeff']): from roots (the default) or from
 * coefficients, lowest power first. */
static int call_poly(parser *P, size_t pos, mat *args, int n, mat *out) {
  if (n < 2 || n > 3 || !args[1].str || strlen(args[1].str) != 1 ||
      !ex_is_name_start(args[1].str[0]) || args[1].str[0] == '%')
    return ex_fail(P,
                   "function 'poly' at column %zu: expected poly(v, 'x') or "
                   "poly(v, 'x', 'c') with a one-letter variable",
                   col(pos));
  if (ex_need_real(P, &args[0], "function 'poly'", pos)) return -1;
  char var = args[1].str[0];
  int coeffs = 0;
  if (n == 3) {
    const char *k = args[2].str ? args[2].str : "";
    if (!strcmp(k, "c") || !strcmp(k, "coeff"))
      coeffs = 1;
    else if (strcmp(k, "r") && strcmp(k, "roots"))
      return ex_fail(P,
                     "function 'poly' at column %zu: third argument must be "
                     "'r' (roots) or 'c' (coefficients)",
                     col(pos));
  }
  const mat *v = &args[0];
  if (v->rows > 1 && v->cols > 1)
    return ex_fail(P,
                   "function 'poly' at column %zu: characteristic "
                   "polynomials of matrices are not supported (give a vector)",
                   col(pos));
  long k = numel(v);
  if (coeffs) {
    if (poly_new(P, out, var, k ? k : 1)) return -1;
    if (k) memcpy(out->v, v->v, (size_t)k * sizeof *out->v);
    normalize(out);
    return 0;
  }
  /* prod(x - r_i), built one factor at a time. */
  if (poly_new(P, out, var, k + 1)) return -1;
  out->v[0] = 1.0;
  for (long i = 0; i < k; i++) {
    for (long j = i + 1; j > 0; j--)
      out->v[j] = out->v[j - 1] - v->v[i] * out->v[j];
    out->v[0] = -v->v[i] * out->v[0];
  }
  return 0;
}

int ex_call_poly(parser *P, const char *name, size_t pos, mat *args, int n,
                 mat *out) {
  if (!strcmp(name, "poly")) return call_poly(P, pos, args, n, out);
  if (n == 1 && (!strcmp(name, "coeff") || !strcmp(name, "degree"))) {
    const mat *p = &args[0];
    if (ex_need_real_or_poly(P, p, name, pos)) return -1;
    if (!p->var && !is_scalar(p))
      return ex_fail(P, "function '%s' at column %zu: expected a polynomial",
                     name, col(pos));
    if (name[0] == 'd')
      return ex_mat_scalar(P, out, p->var ? (double)p->cols - 1 : 0.0);
    if (ex_copy(P, out, p)) return -1;
    out->var = 0;
    return 0;
  }
  for (int i = 0; i < n; i++)
    if (args[i].var)
      return ex_fail(P,
                     "function '%s' at column %zu does not take a polynomial",
                     name, col(pos));
  return 1;
}

int ex_poly_coefficients(parser *P, mat *m) {
  if (m->var) {
    for (int i = 0, j = m->cols - 1; i < j; i++, j--) {
      double t = m->v[i];
      m->v[i] = m->v[j];
      m->v[j] = t;
    }
    m->var = 0;
    return 0;
  }
  if (m->eye || (m->rows > 1 && m->cols > 1) || numel(m) == 0)
    return ex_fail(P,
                   "a polynomial is expected: a coefficient vector (highest "
                   "power first) or an expression in s or z, got a %dx%d "
                   "matrix",
                   m->rows, m->cols);
  m->cols = (int)numel(m);
  m->rows = 1;
  return 0;
}
