/*
 * The arithmetic half of the expression evaluator (expr.c parses): real
 * matrices with Scilab's operator meanings, scalar broadcasting, integer
 * matrix powers, and the built-in functions. Errors go through ex_fail on
 * the caller's parser state, so nothing here is global.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/expr_int.h"

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

void ex_mat_move(mat *dst, mat *src) {
  bsim_value_clear(dst);
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
static double op_min(double a, double b) {
  return fmin(a, b);
}
static double op_max(double a, double b) {
  return fmax(a, b);
}
static double fn_sign(double x) {
  return x > 0 ? 1.0 : x < 0 ? -1.0 : x == 0 ? 0.0 : x;
}

typedef double (*fn2)(double, double);

/* a (op) b element-wise with a 1x1 operand broadcast. real_only: a NaN
 * produced from non-NaN inputs is a complex result, which we cannot hold. */
static int elementwise(parser *P, const mat *a, const mat *b, fn2 f,
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
      bsim_value_clear(out);
      return ex_fail(P,
                     "%s at column %zu: complex result for (%g, %g); complex "
                     "numbers are not supported",
                     what, col(pos), x, y);
    }
    out->v[i] = z;
  }
  return 0;
}

static int matmul(parser *P, const mat *a, const mat *b, size_t pos, mat *out) {
  if (is_scalar(a) || is_scalar(b))
    return elementwise(P, a, b, op_mul, "operator '*'", pos, 0, out);
  if (a->cols != b->rows)
    return ex_fail(P,
                   "operator '*' at column %zu: sizes %dx%d and %dx%d do not "
                   "match (columns of the left must equal rows of the right)",
                   col(pos), a->rows, a->cols, b->rows, b->cols);
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
  mat t;
  if (ex_mat_new(P, &t, m->cols, m->rows)) return -1;
  for (int i = 0; i < m->rows; i++)
    for (int j = 0; j < m->cols; j++)
      t.v[j + (long)i * t.rows] = m->v[i + (long)j * m->rows];
  ex_mat_move(m, &t);
  return 0;
}

static int identity(parser *P, mat *m, long rows, long cols) {
  if (ex_mat_new(P, m, rows, cols)) return -1;
  for (long i = 0; i < rows && i < cols; i++)
    m->v[i + i * rows] = 1.0;
  return 0;
}

/* A^b: element-wise when A is a scalar; otherwise repeated squaring of a
 * square A, which is exact for the small integer powers models use. */
static int matpow(parser *P, const mat *a, const mat *b, size_t pos, mat *out) {
  if (is_scalar(a))
    return elementwise(P, a, b, pow, "operator '^'", pos, 1, out);
  double e = is_scalar(b) ? b->v[0] : -1;
  if (a->rows != a->cols || !(e >= 0 && e <= 2147483647.0 && e == floor(e)))
    return ex_fail(P,
                   "operator '^' at column %zu: %dx%d ^ %dx%d needs a square "
                   "matrix and a non-negative integer exponent (use .^ for "
                   "element-wise powers)",
                   col(pos), a->rows, a->cols, b->rows, b->cols);
  mat result, base, tmp;
  if (identity(P, &result, a->rows, a->cols)) return -1;
  if (ex_mat_new(P, &base, a->rows, a->cols)) {
    bsim_value_clear(&result);
    return -1;
  }
  if (numel(a) > 0) memcpy(base.v, a->v, (size_t)numel(a) * sizeof *a->v);
  for (unsigned long n = (unsigned long)e; n; n >>= 1) {
    if ((n & 1) && matmul(P, &result, &base, pos, &tmp) == 0)
      ex_mat_move(&result, &tmp);
    if (n > 1 && !P->failed && matmul(P, &base, &base, pos, &tmp) == 0)
      ex_mat_move(&base, &tmp);
    if (P->failed) break;
  }
  bsim_value_clear(&base);
  if (P->failed) {
    bsim_value_clear(&result);
    return -1;
  }
  *out = result;
  return 0;
}

typedef struct function1 {
  const char *name;
  double (*f)(double);
} function1;

static const function1 FUNCTIONS1[] = {
    {"sin", sin},     {"cos", cos},   {"tan", tan},     {"asin", asin},
    {"acos", acos},   {"atan", atan}, {"sinh", sinh},   {"cosh", cosh},
    {"tanh", tanh},   {"exp", exp},   {"log", log},     {"log10", log10},
    {"sqrt", sqrt},   {"abs", fabs},  {"floor", floor}, {"ceil", ceil},
    {"round", round}, {"fix", trunc}, {"int", trunc},   {"sign", fn_sign},
};

typedef struct function2 {
  const char *name;
  fn2 f;
} function2;

/* Element-wise with broadcasting, like the binary operators. */
static const function2 F2[] = {
    {"atan", atan2}, {"min", op_min}, {"max", op_max}};

/* Functions other than FUNCTIONS1, for "unknown function" vs "needs (...)". */
static const char *const OTHER_FUNCTIONS[] = {
    "min", "max", "zeros", "ones", "eye", "size",
};

static const function1 *find_function1(const char *name) {
  for (size_t i = 0; i < sizeof FUNCTIONS1 / sizeof *FUNCTIONS1; i++)
    if (strcmp(FUNCTIONS1[i].name, name) == 0) return &FUNCTIONS1[i];
  return NULL;
}

int ex_is_function(const char *name) {
  for (size_t i = 0; i < sizeof OTHER_FUNCTIONS / sizeof *OTHER_FUNCTIONS; i++)
    if (strcmp(OTHER_FUNCTIONS[i], name) == 0) return 1;
  return find_function1(name) != NULL;
}

/* A size argument of zeros/ones/eye: a non-negative integer scalar. */
static int size_arg(parser *P, const char *fname, const mat *a, size_t pos,
                    long *n) {
  if (!is_scalar(a) || !(a->v[0] >= 0 && a->v[0] <= MAX_ELEMS) ||
      a->v[0] != floor(a->v[0]))
    return ex_fail(P,
                   "function '%s' at column %zu: sizes must be non-negative "
                   "integers",
                   fname, col(pos));
  *n = (long)a->v[0];
  return 0;
}

int ex_call(parser *P, const char *name, size_t pos, mat *args, int n,
            mat *out) {
  char what[96];
  snprintf(what, sizeof what, "function '%s'", name);
  const function1 *f1 = find_function1(name);
  if (f1 && n == 1) {
    if (ex_mat_new(P, out, args[0].rows, args[0].cols)) return -1;
    for (long i = 0; i < numel(out); i++) {
      double x = args[0].v[i], y = f1->f(x);
      if (isnan(y) && !isnan(x)) {
        bsim_value_clear(out);
        return ex_fail(P,
                       "%s at column %zu: complex result for %g; complex "
                       "numbers are not supported",
                       what, col(pos), x);
      }
      out->v[i] = y;
    }
    return 0;
  }
  for (size_t i = 0; i < sizeof F2 / sizeof *F2; i++)
    if (n == 2 && strcmp(F2[i].name, name) == 0)
      return elementwise(P, &args[0], &args[1], F2[i].f, what, pos, 0, out);
  long r = 0, c = 0;
  if (n == 2 && (!strcmp(name, "zeros") || !strcmp(name, "ones") ||
                 !strcmp(name, "eye"))) {
    if (size_arg(P, name, &args[0], pos, &r) ||
        size_arg(P, name, &args[1], pos, &c))
      return -1;
    if (!strcmp(name, "eye")) return identity(P, out, r, c);
    if (ex_mat_new(P, out, r, c)) return -1;
    for (long i = 0; name[0] == 'o' && i < r * c; i++)
      out->v[i] = 1.0;
    return 0;
  }
  /* eye(n) is n x n (as expr.h promises), not Scilab's size-of-argument. */
  if (n == 1 && !strcmp(name, "eye"))
    return size_arg(P, name, &args[0], pos, &r) ? -1 : identity(P, out, r, r);
  if (!strcmp(name, "size") && (n == 1 || n == 2)) {
    if (n == 1) {
      if (ex_mat_new(P, out, 1, 2)) return -1;
      out->v[0] = args[0].rows;
      out->v[1] = args[0].cols;
      return 0;
    }
    if (!is_scalar(&args[1]) || (args[1].v[0] != 1 && args[1].v[0] != 2))
      return ex_fail(P, "%s at column %zu: second argument must be 1 or 2",
                     what, col(pos));
    return ex_mat_scalar(P, out,
                         args[1].v[0] == 1 ? args[0].rows : args[0].cols);
  }
  if (ex_is_function(name))
    return ex_fail(P, "%s at column %zu: wrong number of arguments (%d)", what,
                   col(pos), n);
  return ex_fail(P, "unknown function '%s' at column %zu", name, col(pos));
}

/* The binary operators, named by their text. */
int ex_binary(parser *P, const char *op, const mat *a, const mat *b, size_t pos,
              mat *r) {
  char what[24];
  snprintf(what, sizeof what, "operator '%s'", op);
  switch (op[0] == '.' ? op[1] + 128 : op[0]) {
  case '+':
    return elementwise(P, a, b, op_add, what, pos, 0, r);
  case '-':
    return elementwise(P, a, b, op_sub, what, pos, 0, r);
  case '*':
    return matmul(P, a, b, pos, r);
  case '^':
    return matpow(P, a, b, pos, r);
  case '*' + 128:
    return elementwise(P, a, b, op_mul, what, pos, 0, r);
  case '/' + 128:
    return elementwise(P, a, b, op_div, what, pos, 0, r);
  case '^' + 128:
    return elementwise(P, a, b, pow, what, pos, 1, r);
  default: /* '/' */
    if (!is_scalar(b))
      return ex_fail(P,
                     "operator '/' at column %zu: %dx%d / %dx%d: matrix right "
                     "division not supported (divide by a scalar, or use ./)",
                     col(pos), a->rows, a->cols, b->rows, b->cols);
    return elementwise(P, a, b, op_div, what, pos, 0, r);
  }
}
