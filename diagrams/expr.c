/*
 * Evaluator of parameter expressions (the language is described in expr.h).
 * A recursive-descent parser that computes while it parses: each expression
 * is evaluated once, at load time, so a syntax tree would buy nothing. All
 * state lives in a parser struct on the caller's stack, which keeps
 * evaluation reentrant. This file reads the text; the arithmetic on matrix
 * values and the function table are in expr_ops.c.
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

#include "diagrams/expr_int.h"

static int parse_additive(parser *P, mat *out);
static int parse_unary(parser *P, mat *out);
static int parse_matrix(parser *P, mat *out);

int ex_fail(parser *P, const char *fmt, ...) {
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
  return ex_fail(P, "unexpected %s at column %zu, expected %s",
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
    return ex_fail(P, "number too long at column %zu", col(P->pos));
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
  return ex_mat_scalar(P, out, strtod(buf, NULL));
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
      return ex_fail(P, "too many arguments at column %zu (at most %d)",
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
    return ex_fail(P, "name too long at column %zu (at most %d characters)",
                   col(start), MAX_NAME);
  char name[MAX_NAME + 1];
  memcpy(name, P->s + start, len);
  name[len] = '\0';
  P->pos += len;
  for (size_t i = 0; i < sizeof CONSTANTS / sizeof *CONSTANTS; i++)
    if (strcmp(CONSTANTS[i].name, name) == 0)
      return ex_mat_scalar(P, out, CONSTANTS[i].value);
  const bsim_value *var = bsim_scope_get(P->scope, name);
  if (var && !var->v && var->str)
    return ex_fail(P,
                   "variable '%s' at column %zu holds a string, not a number",
                   name, col(start));
  /* Inside brackets "f (1)" is two elements, so the call needs no blank. */
  size_t save = P->pos;
  if (!P->bracket) skip_ws(P);
  if (at(P, 0) != '(') {
    P->pos = save;
    if (var) return bsim_value_copy(out, var) ? ex_fail(P, "out of memory") : 0;
    if (ex_is_function(name))
      return ex_fail(P,
                     "function '%s' at column %zu needs its arguments in "
                     "parentheses",
                     name, col(start));
    return ex_fail(P, "unknown variable '%s' at column %zu", name, col(start));
  }
  if (var)
    return ex_fail(P, "indexing '%s(...)' at column %zu is not supported", name,
                   col(start));
  P->pos++;
  mat args[MAX_ARGS];
  int n = 0, rc = -1;
  memset(args, 0, sizeof args);
  if (parse_args(P, args, &n) == 0) rc = ex_call(P, name, start, args, n, out);
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
    return ex_fail(P,
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
      return ex_fail(P, "missing ')' for the '(' at column %zu", col(open));
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
      ex_fail(P, "missing ']' for the '[' at column %zu", col(open));
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
      if (ex_transpose(P, out)) return -1;
    } else {
      P->pos = save;
      return 0;
    }
  }
}

/* *out = *out (op) the operand that follows. */
static int apply(parser *P, mat *out, int (*operand)(parser *, mat *),
                 const char *op, size_t pos) {
  mat rhs = {0}, res;
  /* A failed parse may leave a partial value: whoever owns it clears it. */
  int rc = operand(P, &rhs) ? -1 : ex_binary(P, op, out, &rhs, pos, &res);
  bsim_value_clear(&rhs);
  if (rc == 0) ex_mat_move(out, &res);
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
    return ex_fail(P, "expression nested too deeply at column %zu (limit %d)",
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
