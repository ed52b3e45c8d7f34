/*
 * The operators of the evaluator (expr.c parses): values' life cycle, real
 * matrices with Scilab's operator meanings, scalar broadcasting, integer
 * matrix powers, comparisons and boolean operators. Polynomial operands are
 * handed to expr_poly.c. Errors go through ex_fail on the caller's parser
 * state, so nothing here is global.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/expr_int.h"

void ex_clear(mat *m) {
  if (!m) return;
  free(m->v);
  free(m->str);
  memset(m, 0, sizeof *m);
}

int ex_mat_new(parser *P, mat *m, long rows, long cols) {
  memset(m, 0, sizeof *m);
  if (rows < 0 || cols < 0)
    return ex_fail(P, "negative matrix size %ldx%ld", rows, cols);
  if (rows > MAX_ELEMS || cols > MAX_ELEMS ||
      (cols > 0 && rows > MAX_ELEMS / cols))
    return ex_fail(P, "matrix of %ldx%ld is too large (at most %ld elements)",
                   rows, cols, MAX_ELEMS);
  if (rows * cols > 0) {
    m->v = calloc((size_t)(rows * cols), sizeof *m->v);
    if (!m->v) return ex_fail(P, "out of memory");
  }
  m->rows = (int)rows;
  m->cols = (int)cols;
  return 0;
}

int ex_mat_scalar(parser *P, mat *m, double x) {
  if (ex_mat_new(P, m, 1, 1)) return -1;
  m->v[0] = x;
  return 0;
}

int ex_mat_string(parser *P, mat *m, const char *s, size_t n) {
  memset(m, 0, sizeof *m);
  if (!(m->str = malloc(n + 1))) return ex_fail(P, "out of memory");
  memcpy(m->str, s, n);
  m->str[n] = '\0';
  m->rows = m->cols = 1;
  return 0;
}

int ex_copy(parser *P, mat *dst, const mat *src) {
  memset(dst, 0, sizeof *dst);
  long n = src->str ? 0 : numel(src);
  if (n > 0 && src->v) {
    if (!(dst->v = malloc((size_t)n * sizeof *dst->v)))
      return ex_fail(P, "out of memory");
    memcpy(dst->v, src->v, (size_t)n * sizeof *dst->v);
  }
  if (src->str && !(dst->str = strdup(src->str))) {
    ex_clear(dst);
    return ex_fail(P, "out of memory");
  }
  dst->rows = src->rows;
  dst->cols = src->cols;
  dst->var = src->var;
  dst->eye = src->eye;
  return 0;
}

static const char *kind_of(const mat *m) {
  return m->str ? "a string" : m->var ? "a polynomial" : "eye()";
}

int ex_need_real(parser *P, const mat *m, const char *what, size_t pos) {
  if (is_real(m) && !m->eye) return 0;
  return ex_fail(P, "%s at column %zu: %s where a real matrix is expected",
                 what, col(pos), kind_of(m));
}

int ex_need_real_or_poly(parser *P, const mat *m, const char *what,
                         size_t pos) {
  return m->str ? ex_need_real(P, m, what, pos) : 0;
}

void ex_mat_move(mat *dst, mat *src) {
  ex_clear(dst);
  *dst = *src;
  memset(src, 0, sizeof *src);
}

static double op_add(double a, double b) {
  return a + b;
}
static double op_sub(double a, double b) {
  return a - b;
}
static double op_mul(double a, double b) {
  return a * b;
}
static double op_div(double a, double b) {
  return a / b;
}

/* a (op) b element-wise with a 1x1 operand broadcast. real_only: a NaN
 * produced from non-NaN inputs is a complex result, which we cannot hold. */
int ex_elementwise(parser *P, const mat *a, const mat *b, fn2 f,
                   const char *what, size_t pos, int real_only, mat *out) {
  int sa = is_scalar(a), sb = is_scalar(b);
  const mat *shape = sa ? b : a;
  if (!sa && !sb && (a->rows != b->rows || a->cols != b->cols))
    return ex_fail(P, "%s at column %zu: sizes %dx%d and %dx%d do not match",
                   what, col(pos), a->rows, a->cols, b->rows, b->cols);
  if (ex_mat_new(P, out, shape->rows, shape->cols)) return -1;
  for (long i = 0; i < numel(out); i++) {
    double x = a->v[sa ? 0 : i], y = b->v[sb ? 0 : i], z = f(x, y);
    if (real_only && isnan(z) && !isnan(x) && !isnan(y)) {
      ex_clear(out);
      return ex_fail(P,
                     "%s at column %zu: complex result for (%g, %g); complex "
                     "numbers are not supported",
                     what, col(pos), x, y);
    }
    out->v[i] = z;
  }
  return 0;
}

int ex_work(parser *P, const char *kind, const char *name, size_t pos,
            double work) {
  if (work <= MAX_WORK) return 0;
  return ex_fail(P,
                 "%s '%s' at column %zu: %.3g multiply-adds are too much work "
                 "for a parameter expression (at most %.0e); compute such a "
                 "value outside the diagram and pass the result in",
                 kind, name, col(pos), work, MAX_WORK);
}

static int matmul(parser *P, const mat *a, const mat *b, size_t pos, mat *out) {
  if (is_scalar(a) || is_scalar(b))
    return ex_elementwise(P, a, b, op_mul, "operator '*'", pos, 0, out);
  if (a->cols != b->rows)
    return ex_fail(P,
                   "operator '*' at column %zu: sizes %dx%d and %dx%d do not "
                   "match (columns of the left must equal rows of the right)",
                   col(pos), a->rows, a->cols, b->rows, b->cols);
  if (ex_work(P, "operator", "*", pos,
              (double)a->rows * (double)a->cols * (double)b->cols))
    return -1;
  if (ex_mat_new(P, out, a->rows, b->cols)) return -1;
  for (int j = 0; j < b->cols; j++)
    for (int k = 0; k < a->cols; k++) {
      double bkj = b->v[k + (long)j * b->rows];
      for (int i = 0; i < a->rows; i++)
        out->v[i + (long)j * a->rows] += a->v[i + (long)k * a->rows] * bkj;
    }
  return 0;
}

int ex_transpose(parser *P, mat *m) {
  if (m->var || m->eye) return 0; /* a 1x1 polynomial, eye(): unchanged */
  if (ex_need_real(P, m, "operator '", P->pos)) return -1;
  mat t;
  if (ex_mat_new(P, &t, m->cols, m->rows)) return -1;
  for (int i = 0; i < m->rows; i++)
    for (int j = 0; j < m->cols; j++)
      t.v[j + (long)i * t.rows] = m->v[i + (long)j * m->rows];
  ex_mat_move(m, &t);
  return 0;
}

int ex_identity(parser *P, mat *m, long rows, long cols) {
  if (ex_mat_new(P, m, rows, cols)) return -1;
  for (long i = 0; i < rows && i < cols; i++)
    m->v[i + i * rows] = 1.0;
  return 0;
}

/* A^b: element-wise when A is a scalar; otherwise repeated squaring of a
 * square A, which is exact for the small integer powers models use. */
static int matpow(parser *P, const mat *a, const mat *b, size_t pos, mat *out) {
  if (is_scalar(a))
    return ex_elementwise(P, a, b, pow, "operator '^'", pos, 1, out);
  double e = is_scalar(b) ? b->v[0] : NAN;
  if (a->rows != a->cols || !(fabs(e) <= 2147483647.0 && e == floor(e)))
    return ex_fail(P,
                   "operator '^' at column %zu: %dx%d ^ %dx%d needs a square "
                   "matrix and an integer exponent (use .^ for element-wise "
                   "powers)",
                   col(pos), a->rows, a->cols, b->rows, b->cols);
  /* at most two products per bit of the exponent */
  double n3 = (double)a->rows * (double)a->rows * (double)a->rows;
  if (ex_work(P, "operator", "^", pos, 2 * n3 * (1 + floor(log2(fabs(e) + 1)))))
    return -1;
  mat result, base = {0}, tmp;
  if (ex_identity(P, &result, a->rows, a->cols)) return -1;
  /* A^-k = inv(A)^k, as Scilab computes R^(-1). */
  int rc = e < 0 ? ex_solve(P, a, &result, 1, pos, &base)
                 : ex_mat_new(P, &base, a->rows, a->cols);
  if (rc) {
    ex_clear(&result);
    return -1;
  }
  if (e < 0) {
    ex_clear(&result);
    if (ex_identity(P, &result, a->rows, a->cols)) {
      ex_clear(&base);
      return -1;
    }
    e = -e;
  } else if (numel(a) > 0) {
    memcpy(base.v, a->v, (size_t)numel(a) * sizeof *a->v);
  }
  for (unsigned long n = (unsigned long)e; n; n >>= 1) {
    if ((n & 1) && matmul(P, &result, &base, pos, &tmp) == 0)
      ex_mat_move(&result, &tmp);
    if (n > 1 && !P->failed && matmul(P, &base, &base, pos, &tmp) == 0)
      ex_mat_move(&base, &tmp);
    if (P->failed) break;
  }
  ex_clear(&base);
  if (P->failed) {
    ex_clear(&result);
    return -1;
  }
  *out = result;
  return 0;
}

static double op_eq(double a, double b) {
  return a == b;
}
static double op_ne(double a, double b) {
  return a != b;
}
static double op_lt(double a, double b) {
  return a < b;
}
static double op_le(double a, double b) {
  return a <= b;
}
static double op_gt(double a, double b) {
  return a > b;
}
static double op_ge(double a, double b) {
  return a >= b;
}
static double op_and(double a, double b) {
  return a != 0 && b != 0;
}
static double op_or(double a, double b) {
  return a != 0 || b != 0;
}

typedef struct binop {
  const char *op;
  fn2 f;
} binop;

static const binop LOGICAL[] = {
    {"==", op_eq}, {"~=", op_ne}, {"<", op_lt},  {"<=", op_le},
    {">", op_gt},  {">=", op_ge}, {"&", op_and}, {"|", op_or},
};

/* Scilab's eye() with no size becomes the identity of the other operand's
 * size in + and -; elsewhere it is the scalar 1. */
static int expand_eye(parser *P, const mat *e, const mat *other, mat *tmp) {
  if (ex_mat_new(P, tmp, other->rows, other->cols)) return -1;
  for (long i = 0; i < other->rows && i < other->cols; i++)
    tmp->v[i + i * other->rows] = 1.0;
  return 0;
}

/* Strings compare with == and ~=; nothing else takes them. */
static int string_binary(parser *P, const char *op, const mat *a, const mat *b,
                         size_t pos, mat *r) {
  if (a->str && b->str && (!strcmp(op, "==") || !strcmp(op, "~=")))
    return ex_mat_scalar(P, r, (strcmp(a->str, b->str) == 0) == (op[0] == '='));
  return ex_fail(P,
                 "operator '%s' at column %zu: strings are not supported in "
                 "arithmetic",
                 op, col(pos));
}

static int real_binary(parser *P, const char *op, const mat *a, const mat *b,
                       size_t pos, mat *r) {
  /* built by hand: this runs for every operator a block's Scilab code
   * evaluates, where snprintf's cost showed */
  char what[24] = "operator '";
  size_t n = strlen(op) < 8 ? strlen(op) : 8;
  memcpy(what + 10, op, n);
  memcpy(what + 10 + n, "'", 2);
  for (size_t i = 0; i < sizeof LOGICAL / sizeof *LOGICAL; i++)
    if (!strcmp(op, LOGICAL[i].op))
      return ex_elementwise(P, a, b, LOGICAL[i].f, what, pos, 0, r);
  switch (op[0] == '.' ? op[1] + 128 : op[0]) {
  case '+':
    return ex_elementwise(P, a, b, op_add, what, pos, 0, r);
  case '-':
    return ex_elementwise(P, a, b, op_sub, what, pos, 0, r);
  case '*':
    return matmul(P, a, b, pos, r);
  case '^':
    return matpow(P, a, b, pos, r);
  case '*' + 128:
    return ex_elementwise(P, a, b, op_mul, what, pos, 0, r);
  case '/' + 128:
    return ex_elementwise(P, a, b, op_div, what, pos, 0, r);
  case '^' + 128:
    return ex_elementwise(P, a, b, pow, what, pos, 1, r);
  case '\\':
    if (is_scalar(a)) return ex_elementwise(P, b, a, op_div, what, pos, 0, r);
    return ex_solve(P, a, b, 1, pos, r);
  default: /* '/' */
    if (is_scalar(b)) return ex_elementwise(P, a, b, op_div, what, pos, 0, r);
    return ex_solve(P, b, a, 0, pos, r);
  }
}

/* The binary operators, named by their text. */
int ex_binary(parser *P, const char *op, const mat *a, const mat *b, size_t pos,
              mat *r) {
  memset(r, 0, sizeof *r);
  if (a->str || b->str) return string_binary(P, op, a, b, pos, r);
  if (a->var || b->var) return ex_poly_binary(P, op, a, b, pos, r);
  int additive = !strcmp(op, "+") || !strcmp(op, "-");
  if (additive && a->eye != b->eye && !is_scalar(a->eye ? b : a)) {
    mat tmp = {0};
    int rc = a->eye ? expand_eye(P, a, b, &tmp) : expand_eye(P, b, a, &tmp);
    if (rc == 0)
      rc = a->eye ? real_binary(P, op, &tmp, b, pos, r)
                  : real_binary(P, op, a, &tmp, pos, r);
    ex_clear(&tmp);
    return rc;
  }
  int rc = real_binary(P, op, a, b, pos, r);
  /* eye() scaled or shifted by scalars keeps waiting for a size. */
  if (rc == 0 && (a->eye || b->eye) && is_scalar(r) &&
      (a->eye || is_scalar(a)) && (b->eye || is_scalar(b)) &&
      !strchr("=<>~&|", op[0]))
    r->eye = 1;
  return rc;
}
