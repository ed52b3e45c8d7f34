/*
 * Evaluator of expressions (the language is described in expr.h and
 * docs/format.md). A recursive-descent parser that computes while it
 * parses: each expression is evaluated once, at load time, so a syntax tree
 * would buy nothing. All state lives in a parser struct on the caller's
 * stack, which keeps evaluation reentrant. This file reads the text; matrix
 * literals, indexing, operators, functions and polynomials live in the
 * other expr_*.c files, statements in script.c.
 *
 * Precedence, loosest first: | ||, & &&, unary ~, comparisons
 * (== ~= <> < <= > >=), ranges a:b:c, binary + -, * / .* ./, unary - +,
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

static int parse_unary(parser *P, mat *out);

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

/* Whether the parenthesised list opening at P->pos - 1 has two or more
 * items, so that '$' in x($, 1) means the last row rather than the last
 * element. A quote after an operand is a transpose, else a string. */
static int several_items(const parser *P) {
  int depth = 0;
  char prev = '(';
  for (const char *c = P->s + P->pos; *c; prev = *c, c++) {
    if (*c == '\'' || *c == '"') {
      if (*c == '\'' && (ex_is_name_char(prev) || prev == ')' || prev == ']' ||
                         prev == '\'' || prev == '.'))
        continue;
      char q = *c;
      for (c++; *c && !(*c == q && c[1] != q); c++)
        if (*c == q) c++;
      if (!*c) return 0;
    } else if (*c == '(' || *c == '[') {
      depth++;
    } else if (*c == ')' || *c == ']') {
      if (depth-- == 0) return 0;
    } else if (*c == ',' && depth == 0) {
      return 1;
    }
  }
  return 0;
}

/* After '(': arguments up to ')'. A lone ':' is "everything" (indexing). */
static int parse_args(parser *P, mat *args, int *n, int indexing) {
  int dims = indexing && several_items(P), saved_dim = P->dollar_dim;
  int saved = P->bracket;
  P->bracket = 0;
  *n = 0;
  ex_skip_ws(P);
  if (ex_at(P, 0) == ')') {
    P->pos++;
    P->bracket = saved;
    return 0;
  }
  for (;;) {
    if (*n == MAX_ARGS)
      return ex_fail(P, "too many arguments at column %zu (at most %d)",
                     col(P->pos), MAX_ARGS);
    ex_skip_ws(P);
    size_t save = P->pos;
    int all = 0;
    if (indexing) P->dollar_dim = dims ? *n + 1 : 0;
    if (ex_at(P, 0) == ':') {
      P->pos++;
      ex_skip_ws(P);
      all = ex_at(P, 0) == ',' || ex_at(P, 0) == ')';
      if (!all) P->pos = save;
    }
    int rc = all ? ex_colon_all(P, &args[*n]) : ex_parse_expr(P, &args[*n]);
    P->dollar_dim = saved_dim;
    if (rc) return -1;
    (*n)++;
    ex_skip_ws(P);
    if (ex_at(P, 0) == ',') {
      P->pos++;
    } else if (ex_at(P, 0) == ')') {
      P->pos++;
      break;
    } else {
      return ex_unexpected(P, "',' or ')'");
    }
  }
  P->bracket = saved;
  return 0;
}

static void clear_args(mat *args) {
  for (int i = 0; i < MAX_ARGS; i++)
    ex_clear(&args[i]);
}

/* x(...) on a variable: '$' inside stands for x's last index. */
static int parse_indexing(parser *P, const mat *x, size_t start, mat *out) {
  const mat *saved = P->dollar;
  P->dollar = x;
  mat args[MAX_ARGS];
  int n = 0, rc = -1;
  memset(args, 0, sizeof args);
  P->pos++;
  if (parse_args(P, args, &n, 1) == 0) rc = ex_index(P, x, args, n, start, out);
  P->dollar = saved;
  clear_args(args);
  return rc;
}

static int parse_name(parser *P, mat *out) {
  size_t start = P->pos;
  char name[MAX_NAME + 1];
  if (ex_read_name(P, name)) return -1;
  for (size_t i = 0; i < sizeof CONSTANTS / sizeof *CONSTANTS; i++)
    if (strcmp(CONSTANTS[i].name, name) == 0)
      return ex_mat_scalar(P, out, CONSTANTS[i].value);
  if (!strcmp(name, "%s") || !strcmp(name, "%z"))
    return ex_poly_var(P, name[1], out);
  mat var = {0};
  int found = ex_lookup(P, name, start, &var);
  /* In a polynomial parameter s and z are the variable, as Xcos's dialogs
   * define them; a native diagram's own s or z (a damping ratio, say) is
   * kept, since native files used coefficient vectors before. */
  if (P->polyvars && (!strcmp(name, "s") || !strcmp(name, "z")) &&
      (found != 0 || (P->env && P->env->scilab))) {
    ex_clear(&var);
    P->failed = P->unknown = 0;
    if (P->msg && P->msglen) P->msg[0] = '\0';
    return ex_poly_var(P, name[0], out);
  }
  if (found < 0) return -1;
  /* Inside brackets "f (1)" is two elements, so the call needs no blank. */
  size_t save = P->pos;
  if (!P->bracket) ex_skip_ws(P);
  if (ex_at(P, 0) != '(') {
    P->pos = save;
    if (found == 0) {
      ex_mat_move(out, &var);
      return 0;
    }
    if (!strcmp(name, "rand")) { /* Scilab's rand alone is rand() */
      mat none[1] = {{0}};
      return ex_call(P, name, start, none, 0, out, 1);
    }
    if (ex_is_function(name))
      return ex_fail(P,
                     "function '%s' at column %zu needs its arguments in "
                     "parentheses",
                     name, col(start));
    return ex_fail(P, "unknown variable '%s' at column %zu", name, col(start));
  }
  if (found == 0) {
    int rc = parse_indexing(P, &var, start, out);
    ex_clear(&var);
    return rc;
  }
  P->pos++;
  mat args[MAX_ARGS];
  int n = 0, rc = -1;
  memset(args, 0, sizeof args);
  if (parse_args(P, args, &n, 0) == 0)
    rc = ex_call(P, name, start, args, n, out, 1);
  clear_args(args);
  return rc;
}

static int parse_primary(parser *P, mat *out) {
  ex_skip_ws(P);
  char c = ex_at(P, 0);
  if (isdigit((unsigned char)c) ||
      (c == '.' && isdigit((unsigned char)ex_at(P, 1))))
    return ex_parse_number(P, out);
  if (ex_is_name_start(c)) return parse_name(P, out);
  if (c == '[') return ex_parse_matrix(P, out);
  if (c == '\'' || c == '"') return ex_parse_string(P, out);
  if (c == '$') {
    if (!P->dollar)
      return ex_fail(P, "'$' at column %zu outside an index", col(P->pos));
    P->pos++;
    long last = P->dollar_dim == 1   ? P->dollar->rows
                : P->dollar_dim == 2 ? P->dollar->cols
                                     : numel(P->dollar);
    return ex_mat_scalar(P, out, (double)last);
  }
  if (c != '(') return ex_unexpected(P, "a number, a name, '(' or '['");
  size_t open = P->pos++;
  int saved = P->bracket;
  P->bracket = 0;
  if (ex_parse_expr(P, out)) return -1;
  ex_skip_ws(P);
  if (ex_at(P, 0) != ')') {
    ex_clear(out);
    if (ex_at(P, 0) == '\0')
      return ex_fail(P, "missing ')' for the '(' at column %zu", col(open));
    return ex_unexpected(P, "an operator or ')'");
  }
  P->pos++;
  P->bracket = saved;
  return 0;
}

/* ------------------------------------------------------------ operators */

static int parse_postfix(parser *P, mat *out) {
  if (parse_primary(P, out)) return -1;
  for (;;) {
    size_t save = P->pos;
    /* Inside brackets, a quote after a blank would start a string. */
    if (!P->bracket) ex_skip_ws(P);
    if (ex_at(P, 0) == '\'' || (ex_at(P, 0) == '.' && ex_at(P, 1) == '\'')) {
      P->pos += ex_at(P, 0) == '.' ? 2 : 1;
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
  mat rhs = {0}, res = {0};
  /* A failed parse may leave a partial value: whoever owns it clears it. */
  int rc = operand(P, &rhs) ? -1 : ex_binary(P, op, out, &rhs, pos, &res);
  ex_clear(&rhs);
  if (rc == 0) ex_mat_move(out, &res);
  return rc;
}

static int parse_power(parser *P, mat *out) {
  if (parse_postfix(P, out)) return -1;
  size_t save = P->pos;
  ex_skip_ws(P);
  size_t pos = P->pos;
  /* The exponent is a unary expression: right-associative, 2^-1 allowed. */
  if (ex_at(P, 0) == '^' || (ex_at(P, 0) == '*' && ex_at(P, 1) == '*')) {
    P->pos += ex_at(P, 0) == '^' ? 1 : 2;
    return apply(P, out, parse_unary, "^", pos);
  }
  if (ex_at(P, 0) == '.' && ex_at(P, 1) == '^') {
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
  ex_skip_ws(P);
  char c = ex_at(P, 0);
  size_t pos = P->pos;
  int rc;
  if (c == '-' || c == '+') {
    P->pos++;
    rc = parse_unary(P, out);
    if (rc == 0 && c == '-')
      rc = ex_need_real_or_poly(P, out, "unary '-'", pos);
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
    ex_skip_ws(P);
    size_t pos = P->pos;
    char c = ex_at(P, 0), d = ex_at(P, 1);
    const char *op = c == '*' && d != '*'   ? "*"
                     : c == '/' && d != '/' ? "/"
                     : c == '.' && d == '*' ? ".*"
                     : c == '.' && d == '/' ? "./"
                     : c == '\\'            ? "\\"
                                            : NULL;
    if (!op) {
      P->pos = save;
      return 0;
    }
    P->pos += strlen(op);
    if (apply(P, out, parse_unary, op, pos)) return -1;
  }
}

int ex_parse_additive(parser *P, mat *out) {
  if (parse_term(P, out)) return -1;
  for (;;) {
    size_t save = P->pos;
    int blank = ex_skip_ws(P);
    size_t pos = P->pos;
    char c = ex_at(P, 0), d = ex_at(P, 1);
    /* Scilab's rule: in "[1 -1]" the sign hugs its operand after a blank,
     * so it starts a new element; "[1 - 1]" and "[1-1]" are subtractions. */
    if ((c != '+' && c != '-') ||
        (P->bracket && blank && !ex_is_blank(d) && d != '\n')) {
      P->pos = save;
      return 0;
    }
    P->pos++;
    if (apply(P, out, parse_term, c == '+' ? "+" : "-", pos)) return -1;
  }
}

/* a:b or a:step:b. */
static int parse_range(parser *P, mat *out) {
  if (ex_parse_additive(P, out)) return -1;
  size_t save = P->pos;
  ex_skip_ws(P);
  if (ex_at(P, 0) != ':') {
    P->pos = save;
    return 0;
  }
  size_t pos = P->pos++;
  mat b = {0}, c = {0}, r = {0};
  int rc = ex_parse_additive(P, &b);
  if (rc == 0) {
    save = P->pos;
    ex_skip_ws(P);
    if (ex_at(P, 0) == ':') {
      P->pos++;
      rc = ex_parse_additive(P, &c);
      if (rc == 0) rc = ex_range(P, out, &b, &c, pos, &r);
    } else {
      P->pos = save;
      rc = ex_range(P, out, NULL, &b, pos, &r);
    }
  }
  if (rc == 0) ex_mat_move(out, &r);
  ex_clear(&b);
  ex_clear(&c);
  return rc;
}

/* The comparison operator at P->pos (its spelling's length in *len), or
 * NULL. "<>" is Scilab's other spelling of "~=". */
static const char *comparison(const parser *P, size_t *len) {
  char c = ex_at(P, 0), d = ex_at(P, 1);
  *len = 2;
  if (c == '=' && d == '=') return "==";
  if ((c == '~' || c == '!') && d == '=') return "~=";
  if (c == '<' && d == '>') return "~=";
  if ((c == '<' || c == '>') && d == '=') return c == '<' ? "<=" : ">=";
  *len = 1;
  if (c == '<') return "<";
  if (c == '>') return ">";
  return NULL;
}

static int parse_comparison(parser *P, mat *out) {
  if (parse_range(P, out)) return -1;
  for (;;) {
    size_t save = P->pos;
    ex_skip_ws(P);
    size_t pos = P->pos;
    size_t len;
    const char *op = comparison(P, &len);
    if (!op) {
      P->pos = save;
      return 0;
    }
    P->pos += len;
    if (apply(P, out, parse_range, op, pos)) return -1;
  }
}

static int parse_not(parser *P, mat *out) {
  ex_skip_ws(P);
  if ((ex_at(P, 0) == '~' || ex_at(P, 0) == '!') && ex_at(P, 1) != '=') {
    size_t pos = P->pos++;
    if (++P->depth > MAX_DEPTH)
      return ex_fail(P, "expression nested too deeply at column %zu (limit %d)",
                     col(pos), MAX_DEPTH);
    int rc = parse_not(P, out);
    P->depth--;
    if (rc == 0) rc = ex_need_real(P, out, "operator '~'", pos);
    for (long i = 0; rc == 0 && i < numel(out); i++)
      out->v[i] = out->v[i] == 0;
    return rc;
  }
  return parse_comparison(P, out);
}

/* One level of & or |: both spellings (& &&, | ||) compute element-wise;
 * Scilab only short-circuits scalars, which gives the same values. */
static int parse_logic(parser *P, mat *out, char sym,
                       int (*operand)(parser *, mat *)) {
  if (operand(P, out)) return -1;
  for (;;) {
    size_t save = P->pos;
    ex_skip_ws(P);
    size_t pos = P->pos;
    if (ex_at(P, 0) != sym) {
      P->pos = save;
      return 0;
    }
    P->pos += ex_at(P, 1) == sym ? 2 : 1;
    if (apply(P, out, operand, sym == '&' ? "&" : "|", pos)) return -1;
  }
}

static int parse_and(parser *P, mat *out) {
  return parse_logic(P, out, '&', parse_not);
}

int ex_parse_expr(parser *P, mat *out) {
  return parse_logic(P, out, '|', parse_and);
}

/* ------------------------------------------------------------ entry points */

int ex_parse_index_args(parser *P, const mat *x, mat *args, int *n) {
  const mat *saved = P->dollar;
  P->dollar = x;
  P->pos++; /* '(' */
  int rc = parse_args(P, args, n, 1);
  P->dollar = saved;
  return rc;
}

int ex_parse_multi_call(parser *P, mat *outs, int nout) {
  ex_skip_ws(P);
  size_t start = P->pos;
  char name[MAX_NAME + 1];
  if (!ex_is_name_start(ex_at(P, 0)) || ex_read_name(P, name))
    return ex_fail(P, "[...] = needs a function call on the right, e.g. "
                      "[r, c] = size(A)");
  mat v = {0};
  int found = ex_lookup(P, name, start, &v);
  ex_clear(&v);
  if (found < 0) return -1;
  ex_skip_ws(P);
  if (found == 0 || ex_at(P, 0) != '(')
    return ex_fail(P, "[...] = needs a function call on the right, e.g. "
                      "[r, c] = size(A)");
  P->pos++;
  mat args[MAX_ARGS];
  int n = 0, rc = -1;
  memset(args, 0, sizeof args);
  if (parse_args(P, args, &n, 0) == 0)
    rc = ex_call(P, name, start, args, n, outs, nout);
  clear_args(args);
  if (rc == 0) {
    ex_skip_ws(P);
    if (ex_at(P, 0) != '\0') rc = ex_unexpected(P, "the end of the statement");
  }
  return rc;
}

int ex_eval_rest(parser *P, mat *m) {
  if (ex_parse_expr(P, m) == 0) {
    ex_skip_ws(P);
    if (ex_at(P, 0) == '\0') return 0;
    ex_unexpected(P, "an operator or the end of the expression");
  }
  ex_clear(m);
  return -1;
}
