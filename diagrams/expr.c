/*
 * Evaluator of parameter expressions (the language is described in expr.h).
 * A recursive-descent parser that computes while it parses: each expression
 * is evaluated once, at load time, so a syntax tree would buy nothing. All
 * state lives in a parser struct on the caller's stack, which keeps
 * evaluation reentrant.
 *
 * Precedence, loosest first: binary + -, * / .* ./, unary - +,
 * ^ .^ (right-associative, so -2^2 = -4 and 2^-1 works), postfix ' .'.
 * Inside [ ] whitespace separates elements, with Scilab's rule that a + or -
 * after a blank and directly before its operand starts a new element.
 */
#include "diagrams/expr.h"

#include <ctype.h>
#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every recursion passes through parse_unary; the cap keeps hostile input
 * such as "((((..." from exhausting a thread's stack. */
enum { MAX_DEPTH = 100, MAX_ARGS = 4, MAX_NAME = 63, MAX_NUMBER = 127 };
/* A parameter larger than this is a typo, not a model. */
#define MAX_ELEMS 10000000L

typedef bsim_value mat;

typedef struct parser {
  const char *s;
  size_t pos;
  int bracket; /* directly inside [ ]: blanks separate elements */
  int depth;
  const bsim_scope *scope;
  char *msg;
  size_t msglen;
  int failed;
} parser;

static int parse_additive(parser *P, mat *out);
static int parse_unary(parser *P, mat *out);
static int parse_matrix(parser *P, mat *out);

static int fail(parser *P, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int fail(parser *P, const char *fmt, ...) {
  /* The first error is the cause; later ones are fallout. */
  if (!P->failed && P->msg && P->msglen > 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(P->msg, P->msglen, fmt, ap);
    va_end(ap);
  }
  P->failed = 1;
  return -1;
}

static size_t col(size_t pos) {
  return pos + 1;
}
/* Lookahead that never reads past the terminating NUL. */
static char at(const parser *P, size_t k) {
  const char *c = P->s + P->pos;
  for (size_t i = 0; i < k; i++)
    if (!c[i]) return '\0';
  return c[k];
}
static int is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}
static int is_name_start(char c) {
  return isalpha((unsigned char)c) || c == '_' || c == '%';
}
static int is_name_char(char c) {
  return isalnum((unsigned char)c) || c == '_';
}

/* How to name a character in "unexpected ..." messages. */
static const char *describe(char c, char *buf, size_t n) {
  if (c == '\0')
    snprintf(buf, n, "end of expression");
  else if (c == '\n')
    snprintf(buf, n, "end of line");
  else if (isprint((unsigned char)c))
    snprintf(buf, n, "'%c'", c);
  else
    snprintf(buf, n, "character 0x%02x", (unsigned)(unsigned char)c);
  return buf;
}

static int unexpected(parser *P, const char *expected) {
  char d[32];
  return fail(P, "unexpected %s at column %zu, expected %s",
              describe(at(P, 0), d, sizeof d), col(P->pos), expected);
}

/* Skips blanks, "//" comments and ".." continuations; newlines too unless
 * directly inside brackets, where they end a row. Returns whether anything
 * was skipped, which is what separates matrix elements. */
static int skip_ws(parser *P) {
  size_t start = P->pos;
  for (;;) {
    char c = at(P, 0);
    if (is_blank(c) || (c == '\n' && !P->bracket)) {
      P->pos++;
    } else if (c == '/' && at(P, 1) == '/') {
      while (at(P, 0) && at(P, 0) != '\n')
        P->pos++;
    } else if (c == '.' && at(P, 1) == '.') {
      size_t k = 2;
      while (at(P, k) == '.' || is_blank(at(P, k)))
        k++;
      if (at(P, k) != '\n' && at(P, k) != '\0') break;
      P->pos += k + (at(P, k) == '\n');
    } else {
      break;
    }
  }
  return P->pos != start;
}

/* ---------------------------------------------------------------- values */

static long numel(const mat *m) {
  return (long)m->rows * m->cols;
}
static int is_scalar(const mat *m) {
  return m->rows == 1 && m->cols == 1;
}

static int mat_new(parser *P, mat *m, long rows, long cols) {
  memset(m, 0, sizeof *m);
  if (rows < 0 || cols < 0)
    return fail(P, "negative matrix size %ldx%ld", rows, cols);
  if (rows > MAX_ELEMS || cols > MAX_ELEMS ||
      (cols > 0 && rows > MAX_ELEMS / cols))
    return fail(P, "matrix of %ldx%ld is too large (at most %ld elements)",
                rows, cols, MAX_ELEMS);
  if (rows * cols > 0) {
    m->v = calloc((size_t)(rows * cols), sizeof *m->v);
    if (!m->v) return fail(P, "out of memory");
  }
  m->rows = (int)rows;
  m->cols = (int)cols;
  return 0;
}

static int mat_scalar(parser *P, mat *m, double x) {
  if (mat_new(P, m, 1, 1)) return -1;
  m->v[0] = x;
  return 0;
}

static void mat_move(mat *dst, mat *src) {
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
    return fail(P, "%s at column %zu: sizes %dx%d and %dx%d do not match", what,
                col(pos), a->rows, a->cols, b->rows, b->cols);
  if (mat_new(P, out, shape->rows, shape->cols)) return -1;
  for (long i = 0; i < numel(out); i++) {
    double x = a->v[sa ? 0 : i], y = b->v[sb ? 0 : i], z = f(x, y);
    if (real_only && isnan(z) && !isnan(x) && !isnan(y)) {
      bsim_value_clear(out);
      return fail(P,
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
    return fail(P,
                "operator '*' at column %zu: sizes %dx%d and %dx%d do not "
                "match (columns of the left must equal rows of the right)",
                col(pos), a->rows, a->cols, b->rows, b->cols);
  if (mat_new(P, out, a->rows, b->cols)) return -1;
  for (int j = 0; j < b->cols; j++)
    for (int k = 0; k < a->cols; k++) {
      double bkj = b->v[k + (long)j * b->rows];
      for (int i = 0; i < a->rows; i++)
        out->v[i + (long)j * a->rows] += a->v[i + (long)k * a->rows] * bkj;
    }
  return 0;
}

static int transpose(parser *P, mat *m) {
  mat t;
  if (mat_new(P, &t, m->cols, m->rows)) return -1;
  for (int i = 0; i < m->rows; i++)
    for (int j = 0; j < m->cols; j++)
      t.v[j + (long)i * t.rows] = m->v[i + (long)j * m->rows];
  mat_move(m, &t);
  return 0;
}

static int identity(parser *P, mat *m, long rows, long cols) {
  if (mat_new(P, m, rows, cols)) return -1;
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
    return fail(P,
                "operator '^' at column %zu: %dx%d ^ %dx%d needs a square "
                "matrix and a non-negative integer exponent (use .^ for "
                "element-wise powers)",
                col(pos), a->rows, a->cols, b->rows, b->cols);
  mat result, base, tmp;
  if (identity(P, &result, a->rows, a->cols)) return -1;
  if (mat_new(P, &base, a->rows, a->cols)) {
    bsim_value_clear(&result);
    return -1;
  }
  if (numel(a) > 0) memcpy(base.v, a->v, (size_t)numel(a) * sizeof *a->v);
  for (unsigned long n = (unsigned long)e; n; n >>= 1) {
    if ((n & 1) && matmul(P, &result, &base, pos, &tmp) == 0)
      mat_move(&result, &tmp);
    if (n > 1 && !P->failed && matmul(P, &base, &base, pos, &tmp) == 0)
      mat_move(&base, &tmp);
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

/* ---------------------------------------------------------------- syntax */

static int parse_number(parser *P, mat *out) {
  const char *s = P->s + P->pos;
  size_t i = 0;
  while (isdigit((unsigned char)s[i]))
    i++;
  /* A dot belongs to the number unless it starts an operator (.* ./ .^ .')
   * or a ".." continuation. */
  if (s[i] == '.' && s[i + 1] != '*' && s[i + 1] != '/' && s[i + 1] != '^' &&
      s[i + 1] != '\'' && s[i + 1] != '.') {
    i++;
    while (isdigit((unsigned char)s[i]))
      i++;
  }
  if (s[i] == 'e' || s[i] == 'E' || s[i] == 'd' || s[i] == 'D') {
    size_t j = i + 1;
    if (s[j] == '+' || s[j] == '-') j++;
    if (isdigit((unsigned char)s[j])) {
      while (isdigit((unsigned char)s[j]))
        j++;
      i = j;
    }
  }
  if (i > MAX_NUMBER)
    return fail(P, "number too long at column %zu", col(P->pos));
  /* strtod follows the process locale; translate our '.' into its decimal
   * point so that an embedding program's setlocale cannot change values. */
  char buf[MAX_NUMBER + 1];
  char point = localeconv()->decimal_point[0];
  for (size_t k = 0; k < i; k++) {
    char c = s[k];
    buf[k] = (c == 'd' || c == 'D') ? 'e' : c == '.' ? point : c;
  }
  buf[i] = '\0';
  P->pos += i;
  return mat_scalar(P, out, strtod(buf, NULL));
}

typedef struct constant {
  const char *name;
  double value;
} constant;

static const constant CONSTANTS[] = {
    {"%pi", 3.14159265358979323846},
    {"%e", 2.71828182845904523536},
    {"%inf", INFINITY},
    {"%nan", NAN},
    {"%eps", DBL_EPSILON},
    {"%t", 1.0},
    {"%T", 1.0},
    {"%f", 0.0},
    {"%F", 0.0},
};

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

static int is_function(const char *name) {
  for (size_t i = 0; i < sizeof OTHER_FUNCTIONS / sizeof *OTHER_FUNCTIONS; i++)
    if (strcmp(OTHER_FUNCTIONS[i], name) == 0) return 1;
  return find_function1(name) != NULL;
}

/* A size argument of zeros/ones/eye: a non-negative integer scalar. */
static int size_arg(parser *P, const char *fname, const mat *a, size_t pos,
                    long *n) {
  if (!is_scalar(a) || !(a->v[0] >= 0 && a->v[0] <= MAX_ELEMS) ||
      a->v[0] != floor(a->v[0]))
    return fail(P,
                "function '%s' at column %zu: sizes must be non-negative "
                "integers",
                fname, col(pos));
  *n = (long)a->v[0];
  return 0;
}

static int call(parser *P, const char *name, size_t pos, mat *args, int n,
                mat *out) {
  char what[96];
  snprintf(what, sizeof what, "function '%s'", name);
  const function1 *f1 = find_function1(name);
  if (f1 && n == 1) {
    if (mat_new(P, out, args[0].rows, args[0].cols)) return -1;
    for (long i = 0; i < numel(out); i++) {
      double x = args[0].v[i], y = f1->f(x);
      if (isnan(y) && !isnan(x)) {
        bsim_value_clear(out);
        return fail(P,
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
    if (mat_new(P, out, r, c)) return -1;
    for (long i = 0; name[0] == 'o' && i < r * c; i++)
      out->v[i] = 1.0;
    return 0;
  }
  /* eye(n) is n x n (as expr.h promises), not Scilab's size-of-argument. */
  if (n == 1 && !strcmp(name, "eye"))
    return size_arg(P, name, &args[0], pos, &r) ? -1 : identity(P, out, r, r);
  if (!strcmp(name, "size") && (n == 1 || n == 2)) {
    if (n == 1) {
      if (mat_new(P, out, 1, 2)) return -1;
      out->v[0] = args[0].rows;
      out->v[1] = args[0].cols;
      return 0;
    }
    if (!is_scalar(&args[1]) || (args[1].v[0] != 1 && args[1].v[0] != 2))
      return fail(P, "%s at column %zu: second argument must be 1 or 2", what,
                  col(pos));
    return mat_scalar(P, out, args[1].v[0] == 1 ? args[0].rows : args[0].cols);
  }
  if (is_function(name))
    return fail(P, "%s at column %zu: wrong number of arguments (%d)", what,
                col(pos), n);
  return fail(P, "unknown function '%s' at column %zu", name, col(pos));
}

/* After '(': arguments up to ')'. */
static int parse_args(parser *P, mat *args, int *n) {
  int saved = P->bracket;
  P->bracket = 0;
  *n = 0;
  skip_ws(P);
  if (at(P, 0) == ')') {
    P->pos++;
    P->bracket = saved;
    return 0;
  }
  for (;;) {
    if (*n == MAX_ARGS)
      return fail(P, "too many arguments at column %zu (at most %d)",
                  col(P->pos), MAX_ARGS);
    if (parse_additive(P, &args[*n])) return -1;
    (*n)++;
    skip_ws(P);
    if (at(P, 0) == ',') {
      P->pos++;
    } else if (at(P, 0) == ')') {
      P->pos++;
      break;
    } else {
      return unexpected(P, "',' or ')'");
    }
  }
  P->bracket = saved;
  return 0;
}

static int parse_name(parser *P, mat *out) {
  size_t start = P->pos, len = 1;
  while (is_name_char(P->s[start + len]))
    len++;
  if (len > MAX_NAME)
    return fail(P, "name too long at column %zu (at most %d characters)",
                col(start), MAX_NAME);
  char name[MAX_NAME + 1];
  memcpy(name, P->s + start, len);
  name[len] = '\0';
  P->pos += len;
  for (size_t i = 0; i < sizeof CONSTANTS / sizeof *CONSTANTS; i++)
    if (strcmp(CONSTANTS[i].name, name) == 0)
      return mat_scalar(P, out, CONSTANTS[i].value);
  const bsim_value *var = bsim_scope_get(P->scope, name);
  if (var && !var->v && var->str)
    return fail(P, "variable '%s' at column %zu holds a string, not a number",
                name, col(start));
  /* Inside brackets "f (1)" is two elements, so the call needs no blank. */
  size_t save = P->pos;
  if (!P->bracket) skip_ws(P);
  if (at(P, 0) != '(') {
    P->pos = save;
    if (var) return bsim_value_copy(out, var) ? fail(P, "out of memory") : 0;
    if (is_function(name))
      return fail(P,
                  "function '%s' at column %zu needs its arguments in "
                  "parentheses",
                  name, col(start));
    return fail(P, "unknown variable '%s' at column %zu", name, col(start));
  }
  if (var)
    return fail(P, "indexing '%s(...)' at column %zu is not supported", name,
                col(start));
  P->pos++;
  mat args[MAX_ARGS];
  int n = 0, rc = -1;
  memset(args, 0, sizeof args);
  if (parse_args(P, args, &n) == 0) rc = call(P, name, start, args, n, out);
  for (int i = 0; i < MAX_ARGS; i++)
    bsim_value_clear(&args[i]);
  return rc;
}

static int parse_primary(parser *P, mat *out) {
  skip_ws(P);
  char c = at(P, 0);
  if (isdigit((unsigned char)c) ||
      (c == '.' && isdigit((unsigned char)at(P, 1))))
    return parse_number(P, out);
  if (is_name_start(c)) return parse_name(P, out);
  if (c == '[') return parse_matrix(P, out);
  if (c == '\'' || c == '"')
    return fail(P,
                "string at column %zu: strings are not supported in "
                "numeric expressions",
                col(P->pos));
  if (c != '(') return unexpected(P, "a number, a name, '(' or '['");
  size_t open = P->pos++;
  int saved = P->bracket;
  P->bracket = 0;
  if (parse_additive(P, out)) return -1;
  skip_ws(P);
  if (at(P, 0) != ')') {
    bsim_value_clear(out);
    if (at(P, 0) == '\0')
      return fail(P, "missing ')' for the '(' at column %zu", col(open));
    return unexpected(P, "an operator or ')'");
  }
  P->pos++;
  P->bracket = saved;
  return 0;
}

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
  if (numel(e) == 0) {
    bsim_value_clear(e);
    return 0;
  }
  if (numel(row) == 0) {
    mat_move(row, e);
    return 0;
  }
  char buf[48];
  if (row->rows != e->rows)
    return fail(P,
                "%s at column %zu: in row %d, element %d has %d row(s) "
                "but the elements before it have %d",
                literal_text(P, open, buf, sizeof buf), col(open), r, k,
                e->rows, row->rows);
  mat t;
  if (mat_new(P, &t, row->rows, (long)row->cols + e->cols)) return -1;
  /* Column-major: horizontal concatenation is appending. */
  memcpy(t.v, row->v, (size_t)numel(row) * sizeof *t.v);
  memcpy(t.v + numel(row), e->v, (size_t)numel(e) * sizeof *t.v);
  mat_move(row, &t);
  bsim_value_clear(e);
  return 0;
}

/* acc = [acc; row]; row is consumed. */
static int vcat(parser *P, mat *acc, mat *row, int r, int *first, size_t open) {
  if (numel(row) == 0) {
    bsim_value_clear(row);
    return 0;
  }
  if (numel(acc) == 0) {
    mat_move(acc, row);
    *first = r;
    return 0;
  }
  char buf[48];
  if (acc->cols != row->cols)
    return fail(P, "%s at column %zu: row %d has %d column(s), row %d has %d",
                literal_text(P, open, buf, sizeof buf), col(open), r, row->cols,
                *first, acc->cols);
  mat t;
  if (mat_new(P, &t, (long)acc->rows + row->rows, acc->cols)) return -1;
  for (int j = 0; j < t.cols; j++) {
    memcpy(t.v + (long)j * t.rows, acc->v + (long)j * acc->rows,
           (size_t)acc->rows * sizeof *t.v);
    memcpy(t.v + (long)j * t.rows + acc->rows, row->v + (long)j * row->rows,
           (size_t)row->rows * sizeof *t.v);
  }
  mat_move(acc, &t);
  bsim_value_clear(row);
  return 0;
}

static int parse_matrix(parser *P, mat *out) {
  size_t open = P->pos++;
  int saved = P->bracket;
  P->bracket = 1;
  mat acc = {0}, row = {0}, e = {0};
  int r = 1, k = 0, first = 1, comma = 0, rc = -1;
  for (;;) {
    int blank = skip_ws(P);
    char c = at(P, 0);
    if (c == ']' || c == ';' || c == '\n') {
      P->pos++;
      if (vcat(P, &acc, &row, r, &first, open)) goto done;
      if (c == ']') break;
      if (k > 0) r++;
      k = 0;
      comma = 0;
    } else if (c == ',') {
      if (k == 0 || comma) {
        unexpected(P, "a matrix element");
        goto done;
      }
      P->pos++;
      comma = 1;
    } else if (c == '\0') {
      fail(P, "missing ']' for the '[' at column %zu", col(open));
      goto done;
    } else {
      if (k > 0 && !blank && !comma) {
        unexpected(P, "',', ';', ']' or an operator");
        goto done;
      }
      if (parse_additive(P, &e) || hcat(P, &row, &e, ++k, r, open)) goto done;
      comma = 0;
    }
  }
  P->bracket = saved;
  *out = acc;
  memset(&acc, 0, sizeof acc);
  rc = 0;
done:
  bsim_value_clear(&acc);
  bsim_value_clear(&row);
  bsim_value_clear(&e);
  return rc;
}

/* ------------------------------------------------------------ operators */

static int parse_postfix(parser *P, mat *out) {
  if (parse_primary(P, out)) return -1;
  for (;;) {
    size_t save = P->pos;
    /* Inside brackets, a quote after a blank would start a string. */
    if (!P->bracket) skip_ws(P);
    if (at(P, 0) == '\'' || (at(P, 0) == '.' && at(P, 1) == '\'')) {
      P->pos += at(P, 0) == '.' ? 2 : 1;
      if (transpose(P, out)) return -1;
    } else {
      P->pos = save;
      return 0;
    }
  }
}

/* The binary operators, named by their text. */
static int binary(parser *P, const char *op, const mat *a, const mat *b,
                  size_t pos, mat *r) {
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
      return fail(P,
                  "operator '/' at column %zu: %dx%d / %dx%d: matrix right "
                  "division not supported (divide by a scalar, or use ./)",
                  col(pos), a->rows, a->cols, b->rows, b->cols);
    return elementwise(P, a, b, op_div, what, pos, 0, r);
  }
}

/* *out = *out (op) the operand that follows. */
static int apply(parser *P, mat *out, int (*operand)(parser *, mat *),
                 const char *op, size_t pos) {
  mat rhs = {0}, res;
  /* A failed parse may leave a partial value: whoever owns it clears it. */
  int rc = operand(P, &rhs) ? -1 : binary(P, op, out, &rhs, pos, &res);
  bsim_value_clear(&rhs);
  if (rc == 0) mat_move(out, &res);
  return rc;
}

static int parse_power(parser *P, mat *out) {
  if (parse_postfix(P, out)) return -1;
  size_t save = P->pos;
  skip_ws(P);
  size_t pos = P->pos;
  /* The exponent is a unary expression: right-associative, 2^-1 allowed. */
  if (at(P, 0) == '^' || (at(P, 0) == '*' && at(P, 1) == '*')) {
    P->pos += at(P, 0) == '^' ? 1 : 2;
    return apply(P, out, parse_unary, "^", pos);
  }
  if (at(P, 0) == '.' && at(P, 1) == '^') {
    P->pos += 2;
    return apply(P, out, parse_unary, ".^", pos);
  }
  P->pos = save;
  return 0;
}

static int parse_unary(parser *P, mat *out) {
  if (++P->depth > MAX_DEPTH)
    return fail(P, "expression nested too deeply at column %zu (limit %d)",
                col(P->pos), MAX_DEPTH);
  skip_ws(P);
  char c = at(P, 0);
  int rc;
  if (c == '-' || c == '+') {
    P->pos++;
    rc = parse_unary(P, out);
    for (long i = 0; rc == 0 && c == '-' && i < numel(out); i++)
      out->v[i] = -out->v[i];
  } else {
    rc = parse_power(P, out);
  }
  P->depth--;
  return rc;
}

static int parse_term(parser *P, mat *out) {
  if (parse_unary(P, out)) return -1;
  for (;;) {
    size_t save = P->pos;
    skip_ws(P);
    size_t pos = P->pos;
    char c = at(P, 0), d = at(P, 1);
    const char *op = c == '*' && d != '*'   ? "*"
                     : c == '/'             ? "/"
                     : c == '.' && d == '*' ? ".*"
                     : c == '.' && d == '/' ? "./"
                                            : NULL;
    if (!op) {
      P->pos = save;
      return 0;
    }
    P->pos += strlen(op);
    if (apply(P, out, parse_unary, op, pos)) return -1;
  }
}

static int parse_additive(parser *P, mat *out) {
  if (parse_term(P, out)) return -1;
  for (;;) {
    size_t save = P->pos;
    int blank = skip_ws(P);
    size_t pos = P->pos;
    char c = at(P, 0), d = at(P, 1);
    /* Scilab's rule: in "[1 -1]" the sign hugs its operand after a blank,
     * so it starts a new element; "[1 - 1]" and "[1-1]" are subtractions. */
    if ((c != '+' && c != '-') ||
        (P->bracket && blank && !is_blank(d) && d != '\n')) {
      P->pos = save;
      return 0;
    }
    P->pos++;
    if (apply(P, out, parse_term, c == '+' ? "+" : "-", pos)) return -1;
  }
}

int bsim_expr_eval(const char *text, const bsim_scope *scope, bsim_value *out,
                   char *msg, size_t msglen) {
  parser P = {
      .s = text ? text : "", .scope = scope, .msg = msg, .msglen = msglen};
  if (msg && msglen > 0) msg[0] = '\0';
  memset(out, 0, sizeof *out);
  if (parse_additive(&P, out) == 0) {
    skip_ws(&P);
    if (at(&P, 0) == '\0') return 0;
    unexpected(&P, "an operator or the end of the expression");
  }
  bsim_value_clear(out);
  return -1;
}
