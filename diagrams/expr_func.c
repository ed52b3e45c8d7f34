/*
 * The built-in functions of the evaluator that work on real matrices and
 * strings: element-wise maths, constructors (zeros, ones, eye, rand,
 * linspace), shape (size, length, matrix, cat), reductions (sum, prod,
 * max, min) and exists. Linear algebra is in expr_linalg.c, polynomials in
 * expr_poly.c. Meanings follow Scilab's, except where the native dialect
 * keeps what the native format documented (eye(n) is n x n).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/expr_int.h"

static double fn_sign(double x) {
  return x > 0 ? 1.0 : x < 0 ? -1.0 : x == 0 ? 0.0 : x;
}
static double op_min(double a, double b) {
  return fmin(a, b);
}
static double op_max(double a, double b) {
  return fmax(a, b);
}
/* Scilab's modulo keeps the sign of a; pmodulo is always >= 0 for b > 0. */
static double fn_modulo(double a, double b) {
  return b == 0 ? a : a - b * trunc(a / b);
}
static double fn_pmodulo(double a, double b) {
  return b == 0 ? a : a - fabs(b) * floor(a / fabs(b));
}

typedef struct function1 {
  const char *name;
  double (*f)(double);
} function1;

static const function1 FUNCTIONS1[] = {
    {"sin", sin},      {"cos", cos},     {"tan", tan},   {"asin", asin},
    {"acos", acos},    {"atan", atan},   {"sinh", sinh}, {"cosh", cosh},
    {"tanh", tanh},    {"exp", exp},     {"log", log},   {"log10", log10},
    {"log2", log2},    {"sqrt", sqrt},   {"abs", fabs},  {"floor", floor},
    {"ceil", ceil},    {"round", round}, {"fix", trunc}, {"int", trunc},
    {"sign", fn_sign}, {"real", NULL},
};

typedef struct function2 {
  const char *name;
  fn2 f;
} function2;

/* Element-wise with broadcasting, like the binary operators. */
static const function2 F2[] = {
    {"atan", atan2},       {"min", op_min},         {"max", op_max},
    {"modulo", fn_modulo}, {"pmodulo", fn_pmodulo},
};

/* Everything else, for "unknown function" vs "needs (...)" and exists(). */
static const char *const OTHER_FUNCTIONS[] = {
    "min",      "max",  "zeros",  "ones",   "eye",    "size",    "rand",
    "linspace", "sum",  "prod",   "length", "matrix", "cat",     "exists",
    "isempty",  "diag", "and",    "or",     "modulo", "pmodulo", "inv",
    "det",      "expm", "ppol",   "poly",   "coeff",  "degree",  "trace",
    "norm",     "abs",  "cumsum",
};

static const function1 *find_function1(const char *name) {
  for (size_t i = 0; i < sizeof FUNCTIONS1 / sizeof *FUNCTIONS1; i++)
    if (strcmp(FUNCTIONS1[i].name, name) == 0) return &FUNCTIONS1[i];
  return NULL;
}

int ex_is_function(const char *name) {
  for (size_t i = 0; i < sizeof OTHER_FUNCTIONS / sizeof *OTHER_FUNCTIONS; i++)
    if (strcmp(OTHER_FUNCTIONS[i], name) == 0) return 1;
  return find_function1(name) != NULL || ex_is_colormap(name);
}

/* Scilab's rand(): its uniform generator (bsim_urand, the one RAND_m
 * uses), or for the normal law both deviates of each polar-method pair in
 * turn, as Scilab's rand('normal') gives them. */
static double draw(ex_env *env, int normal) {
  if (!normal) return bsim_urand(&env->rand_seed);
  if (env->have_spare) {
    env->have_spare = 0;
    return env->spare;
  }
  double pair[2];
  bsim_nrand_pair(&env->rand_seed, pair);
  env->spare = pair[1];
  env->have_spare = 1;
  return pair[0];
}

/* A size argument: a non-negative integer scalar. */
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

static int is_string_arg(const mat *a, const char *s) {
  return a->str && !strcmp(a->str, s);
}

/* zeros, ones, eye, rand: the size their arguments ask for. */
static int constructor_size(parser *P, const char *name, size_t pos, mat *args,
                            int n, long *r, long *c) {
  if (n == 0) {
    *r = *c = 1;
    return 0;
  }
  if (n == 1) {
    if (ex_need_real(P, &args[0], name, pos)) return -1;
    /* Scilab: the size of the argument. Native: eye(n) is n x n. */
    if (is_scalar(&args[0]) && !(P->env && P->env->scilab)) {
      if (size_arg(P, name, &args[0], pos, r)) return -1;
      *c = *r;
      return 0;
    }
    *r = args[0].rows;
    *c = args[0].cols;
    return 0;
  }
  if (n == 2)
    return size_arg(P, name, &args[0], pos, r) ||
                   size_arg(P, name, &args[1], pos, c)
               ? -1
               : 0;
  return ex_fail(P,
                 "function '%s' at column %zu: wrong number of arguments "
                 "(%d)",
                 name, col(pos), n);
}

static int call_rand(parser *P, size_t pos, mat *args, int n, mat *out) {
  ex_env *env = P->env;
  if (!env)
    return ex_fail(P, "function 'rand' at column %zu needs a context",
                   col(pos));
  if (n >= 1 && args[0].str) {
    if (is_string_arg(&args[0], "seed")) {
      if (n == 1) return ex_mat_scalar(P, out, (double)env->rand_seed);
      long s = 0; /* size_arg sets it on success; GCC -O3 cannot tell */
      if (size_arg(P, "rand", &args[1], pos, &s)) return -1;
      env->rand_seed = (int)(s & 0x7fffffffL);
      env->have_spare = 0;
      return ex_mat_new(P, out, 0, 0);
    }
    if (is_string_arg(&args[0], "uniform") || is_string_arg(&args[0], "def")) {
      env->rand_normal = 0;
      return ex_mat_new(P, out, 0, 0);
    }
    if (is_string_arg(&args[0], "normal")) env->rand_normal = 1;
    return ex_mat_new(P, out, 0, 0);
  }
  int law_normal = env->rand_normal;
  if (n >= 1 && args[n - 1].str) {
    if (is_string_arg(&args[n - 1], "normal") ||
        is_string_arg(&args[n - 1], "n"))
      law_normal = 1;
    else if (is_string_arg(&args[n - 1], "uniform") ||
             is_string_arg(&args[n - 1], "u"))
      law_normal = 0;
    else
      return ex_fail(P, "function 'rand' at column %zu: unknown law '%s'",
                     col(pos), args[n - 1].str);
    n--;
  }
  long r, c;
  if (constructor_size(P, "rand", pos, args, n, &r, &c) ||
      ex_mat_new(P, out, r, c))
    return -1;
  for (long i = 0; i < r * c; i++)
    out->v[i] = draw(env, law_normal);
  return 0;
}

static int call_size(parser *P, size_t pos, mat *args, int n, mat *out,
                     int nout) {
  const mat *x = &args[0];
  long rows = x->var || x->str ? 1 : x->rows,
       cols = x->var || x->str ? 1 : x->cols;
  if (n == 1 && nout == 2)
    return ex_mat_scalar(P, &out[0], (double)rows) ||
                   ex_mat_scalar(P, &out[1], (double)cols)
               ? -1
               : 0;
  if (n == 1) {
    if (ex_mat_new(P, out, 1, 2)) return -1;
    out->v[0] = (double)rows;
    out->v[1] = (double)cols;
    return 0;
  }
  const mat *d = &args[1];
  if (is_string_arg(d, "r") || (is_scalar(d) && d->v[0] == 1))
    return ex_mat_scalar(P, out, (double)rows);
  if (is_string_arg(d, "c") || (is_scalar(d) && d->v[0] == 2))
    return ex_mat_scalar(P, out, (double)cols);
  if (is_string_arg(d, "*")) return ex_mat_scalar(P, out, (double)rows * cols);
  return ex_fail(P,
                 "function 'size' at column %zu: second argument must be 1, "
                 "2, 'r', 'c' or '*'",
                 col(pos));
}

/* The direction of a reduction: 0 all elements, 1 down columns (Scilab's
 * 'r': one row out), 2 along rows ('c'). */
static int reduce_dir(parser *P, const char *name, size_t pos, mat *args, int n,
                      int *dir) {
  *dir = 0;
  if (n < 2) return 0;
  const mat *d = &args[1];
  if (is_string_arg(d, "*")) return 0;
  if (is_string_arg(d, "r") || (is_scalar(d) && d->v[0] == 1))
    *dir = 1;
  else if (is_string_arg(d, "c") || (is_scalar(d) && d->v[0] == 2))
    *dir = 2;
  else
    return ex_fail(P,
                   "function '%s' at column %zu: second argument must be "
                   "'*', 'r', 'c', 1 or 2",
                   name, col(pos));
  return 0;
}

/* sum, prod, cumsum (kind 's', 'p', 'c'), and, or ('a', 'o'). */
static int reduce(parser *P, const char *name, char kind, size_t pos, mat *args,
                  int n, mat *out) {
  const mat *x = &args[0];
  int dir;
  if (ex_need_real(P, x, name, pos) || reduce_dir(P, name, pos, args, n, &dir))
    return -1;
  long groups = dir == 0 ? 1 : dir == 1 ? x->cols : x->rows;
  long len = dir == 0 ? numel(x) : dir == 1 ? x->rows : x->cols;
  if (kind == 'c') {
    if (ex_mat_new(P, out, x->rows, x->cols)) return -1;
  } else if (ex_mat_new(P, out, dir == 2 ? x->rows : 1,
                        dir == 1 ? x->cols : 1)) {
    return -1;
  }
  if (numel(x) == 0 && dir == 0 && kind != 'c') { /* Scilab: sum([]) = 0 */
    out->v[0] = kind == 'p' || kind == 'a';
    return 0;
  }
  for (long g = 0; g < groups; g++) {
    double acc = kind == 'p' || kind == 'a' ? 1 : 0;
    for (long k = 0; k < len; k++) {
      long i = dir == 0 ? k : dir == 1 ? k + g * x->rows : g + k * x->rows;
      double e = x->v[i];
      if (kind == 'p')
        acc *= e;
      else if (kind == 'a')
        acc = acc && e != 0;
      else if (kind == 'o')
        acc = acc || e != 0;
      else
        acc += e;
      if (kind == 'c') out->v[i] = acc;
    }
    if (kind != 'c') out->v[g] = acc;
  }
  return 0;
}

/* max(A) / min(A) over all elements (NaNs ignored, as Scilab does), with
 * the linear index as an optional second result. */
static int extremum(parser *P, const char *name, size_t pos, const mat *x,
                    mat *out, int nout) {
  if (ex_need_real(P, x, name, pos)) return -1;
  if (numel(x) == 0) {
    if (ex_mat_new(P, &out[0], 0, 0)) return -1;
    return nout == 2 ? ex_mat_new(P, &out[1], 0, 0) : 0;
  }
  int want_max = name[1] == 'a';
  long best = -1;
  for (long i = 0; i < numel(x); i++) {
    if (isnan(x->v[i])) continue;
    if (best < 0 || (want_max ? x->v[i] > x->v[best] : x->v[i] < x->v[best]))
      best = i;
  }
  double v = best < 0 ? NAN : x->v[best];
  if (ex_mat_scalar(P, &out[0], v)) return -1;
  return nout == 2
             ? ex_mat_scalar(P, &out[1], (double)(best < 0 ? 1 : best + 1))
             : 0;
}

static int call_linspace(parser *P, size_t pos, mat *args, int n, mat *out) {
  long k = 100;
  if (n == 3 && size_arg(P, "linspace", &args[2], pos, &k)) return -1;
  if (!is_scalar(&args[0]) || !is_scalar(&args[1]))
    return ex_fail(P,
                   "function 'linspace' at column %zu: the bounds must be "
                   "scalars",
                   col(pos));
  if (ex_mat_new(P, out, 1, k)) return -1;
  double a = args[0].v[0], b = args[1].v[0];
  for (long i = 0; i < k; i++)
    out->v[i] = k == 1 ? b : a + (b - a) * (double)i / (double)(k - 1);
  if (k > 1) out->v[k - 1] = b;
  return 0;
}

/* matrix(v, m, n): v's elements, column-major, reshaped; one size may be
 * -1 (deduced). */
static int call_matrix(parser *P, size_t pos, mat *args, int n, mat *out) {
  const mat *x = &args[0];
  if (ex_need_real(P, x, "matrix", pos)) return -1;
  double r = -1, c = -1;
  if (n == 2 && args[1].rows * args[1].cols == 2 && is_real(&args[1])) {
    r = args[1].v[0];
    c = args[1].v[1];
  } else if (n == 3 && is_scalar(&args[1]) && is_scalar(&args[2])) {
    r = args[1].v[0];
    c = args[2].v[0];
  } else {
    return ex_fail(P,
                   "function 'matrix' at column %zu: expected matrix(v, m, "
                   "n) or matrix(v, [m n])",
                   col(pos));
  }
  long total = numel(x);
  if (r == -1 && c > 0) r = (double)total / c;
  if (c == -1 && r > 0) c = (double)total / r;
  if (!(r >= 0 && c >= 0) || r != floor(r) || c != floor(c) ||
      (long)r * (long)c != total)
    return ex_fail(P,
                   "function 'matrix' at column %zu: %ld elements cannot be "
                   "arranged as %gx%g",
                   col(pos), total, r, c);
  if (ex_mat_new(P, out, (long)r, (long)c)) return -1;
  if (total) memcpy(out->v, x->v, (size_t)total * sizeof *out->v);
  return 0;
}

/* cat(dim, A, B, ...): dim 1 stacks rows, 2 columns. */
static int call_cat(parser *P, size_t pos, mat *args, int n, mat *out) {
  if (n < 1 || !is_scalar(&args[0]) || (args[0].v[0] != 1 && args[0].v[0] != 2))
    return ex_fail(P,
                   "function 'cat' at column %zu: the first argument must "
                   "be 1 or 2",
                   col(pos));
  int dim = (int)args[0].v[0];
  mat acc = {0};
  for (int i = 1; i < n; i++) {
    mat *e = &args[i], t = {0};
    if (ex_need_real(P, e, "cat", pos)) {
      ex_clear(&acc);
      return -1;
    }
    if (numel(e) == 0) continue;
    if (numel(&acc) == 0) {
      if (ex_copy(P, &acc, e)) return -1;
      continue;
    }
    int ok = dim == 1 ? acc.cols == e->cols : acc.rows == e->rows;
    if (!ok || ex_mat_new(P, &t, dim == 1 ? acc.rows + e->rows : acc.rows,
                          dim == 1 ? acc.cols : acc.cols + e->cols)) {
      ex_clear(&acc);
      return ok ? -1
                : ex_fail(P,
                          "function 'cat' at column %zu: argument %d is "
                          "%dx%d, which does not fit %dx%d along dimension "
                          "%d",
                          col(pos), i + 1, e->rows, e->cols, acc.rows, acc.cols,
                          dim);
    }
    for (int j = 0; j < t.cols; j++)
      for (int k = 0; k < t.rows; k++) {
        int fromacc = dim == 1 ? k < acc.rows : j < acc.cols;
        const mat *src = fromacc ? &acc : e;
        int sk = dim == 1 && !fromacc ? k - acc.rows : k;
        int sj = dim == 2 && !fromacc ? j - acc.cols : j;
        t.v[k + (long)j * t.rows] = src->v[sk + (long)sj * src->rows];
      }
    ex_mat_move(&acc, &t);
  }
  ex_mat_move(out, &acc);
  return 0;
}

static int call_diag(parser *P, size_t pos, const mat *x, mat *out) {
  if (ex_need_real(P, x, "diag", pos)) return -1;
  if (x->rows == 1 || x->cols == 1) {
    long k = numel(x);
    if (ex_mat_new(P, out, k, k)) return -1;
    for (long i = 0; i < k; i++)
      out->v[i + i * k] = x->v[i];
    return 0;
  }
  long k = x->rows < x->cols ? x->rows : x->cols;
  if (ex_mat_new(P, out, k, 1)) return -1;
  for (long i = 0; i < k; i++)
    out->v[i] = x->v[i + i * x->rows];
  return 0;
}

static int call_exists(parser *P, size_t pos, const mat *x, mat *out) {
  if (!x->str)
    return ex_fail(P,
                   "function 'exists' at column %zu: expected a name in "
                   "quotes, e.g. exists('k')",
                   col(pos));
  mat v = {0};
  int r = ex_lookup(P, x->str, pos, &v);
  ex_clear(&v);
  if (r < 0) return -1;
  return ex_mat_scalar(P, out, r == 0 || ex_is_function(x->str));
}

/* Functions with one result. */
static int call1(parser *P, const char *name, size_t pos, mat *args, int n,
                 mat *out) {
  char what[96];
  snprintf(what, sizeof what, "function '%s'", name);
  const function1 *f1 = find_function1(name);
  if (f1 && n == 1) {
    if (ex_need_real(P, &args[0], what, pos)) return -1;
    if (!f1->f) return ex_copy(P, out, &args[0]); /* real(x) of a real */
    if (ex_mat_new(P, out, args[0].rows, args[0].cols)) return -1;
    for (long i = 0; i < numel(out); i++) {
      double x = args[0].v[i], y = f1->f(x);
      if (isnan(y) && !isnan(x)) {
        ex_clear(out);
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
      return ex_need_real(P, &args[0], what, pos) ||
                     ex_need_real(P, &args[1], what, pos)
                 ? -1
                 : ex_elementwise(P, &args[0], &args[1], F2[i].f, what, pos, 0,
                                  out);
  long r = 0, c = 0;
  if (!strcmp(name, "eye") && n == 0) {
    /* Scilab's eye(): the identity of whatever size it meets in + or -. */
    if (ex_mat_scalar(P, out, 1.0)) return -1;
    out->eye = 1;
    return 0;
  }
  if (!strcmp(name, "zeros") || !strcmp(name, "ones") || !strcmp(name, "eye")) {
    if (constructor_size(P, name, pos, args, n, &r, &c)) return -1;
    if (name[0] == 'e') return ex_identity(P, out, r, c);
    if (ex_mat_new(P, out, r, c)) return -1;
    for (long i = 0; name[0] == 'o' && i < r * c; i++)
      out->v[i] = 1.0;
    return 0;
  }
  if (!strcmp(name, "rand")) return call_rand(P, pos, args, n, out);
  if (!strcmp(name, "linspace") && (n == 2 || n == 3))
    return call_linspace(P, pos, args, n, out);
  if (!strcmp(name, "matrix")) return call_matrix(P, pos, args, n, out);
  if (!strcmp(name, "cat")) return call_cat(P, pos, args, n, out);
  if (n == 1 && !strcmp(name, "length"))
    return ex_mat_scalar(P, out,
                         args[0].str   ? (double)strlen(args[0].str)
                         : args[0].var ? 1.0
                                       : (double)numel(&args[0]));
  if (n == 1 && !strcmp(name, "isempty"))
    return ex_mat_scalar(P, out,
                         !args[0].str && !args[0].var && numel(&args[0]) == 0);
  if (n == 1 && !strcmp(name, "diag")) return call_diag(P, pos, &args[0], out);
  if (n == 1 && !strcmp(name, "exists"))
    return call_exists(P, pos, &args[0], out);
  if ((n == 1 || n == 2) && !strcmp(name, "sum"))
    return reduce(P, name, 's', pos, args, n, out);
  if ((n == 1 || n == 2) && !strcmp(name, "prod"))
    return reduce(P, name, 'p', pos, args, n, out);
  if ((n == 1 || n == 2) && !strcmp(name, "cumsum"))
    return reduce(P, name, 'c', pos, args, n, out);
  if ((n == 1 || n == 2) && !strcmp(name, "and"))
    return reduce(P, name, 'a', pos, args, n, out);
  if ((n == 1 || n == 2) && !strcmp(name, "or"))
    return reduce(P, name, 'o', pos, args, n, out);
  if (n == 1 && (!strcmp(name, "max") || !strcmp(name, "min")))
    return extremum(P, name, pos, &args[0], out, 1);
  if (ex_is_function(name))
    return ex_fail(P, "%s at column %zu: wrong number of arguments (%d)", what,
                   col(pos), n);
  return ex_fail(P, "unknown function '%s' at column %zu", name, col(pos));
}

int ex_call(parser *P, const char *name, size_t pos, mat *args, int n, mat *out,
            int nout) {
  if (nout > 1) {
    if (!strcmp(name, "size") && n == 1 && nout == 2)
      return call_size(P, pos, args, n, out, 2);
    if ((!strcmp(name, "max") || !strcmp(name, "min")) && n == 1 && nout == 2)
      return extremum(P, name, pos, &args[0], out, 2);
    return ex_fail(P, "function '%s' at column %zu gives one result, not %d",
                   name, col(pos), nout);
  }
  if (!strcmp(name, "size") && (n == 1 || n == 2))
    return call_size(P, pos, args, n, out, 1);
  int rc = ex_call_poly(P, name, pos, args, n, out);
  if (rc <= 0) return rc;
  rc = ex_call_linalg(P, name, pos, args, n, out);
  if (rc <= 0) return rc;
  rc = ex_call_colormap(P, name, pos, args, n, out);
  if (rc <= 0) return rc;
  return call1(P, name, pos, args, n, out);
}
