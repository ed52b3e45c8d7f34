/*
 * EXPRESSION's compiler: a scalar expression in Scilab's syntax (u1, u2,
 * ..., context variables, numbers, + - * / ^, comparisons, & | ~, and
 * Scilab's elementary functions) into the postfix code Xcos keeps in the
 * block's ipar and rpar (blocks/expr_code.h). The tree is Scilab's: the
 * same precedence and associativity, a minus sign folded into a number it
 * applies to, one rpar entry per constant or variable occurrence, so that
 * the code is the one Xcos's own compiler (compile_expr) stores.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocks/expr_code.h"

/* Scilab's functions, numbered from 101 in this order, and how many
 * arguments each takes. */
static const struct {
  const char *name;
  int nargs;
} functions[] = {{"sin", 1},   {"cos", 1},   {"tan", 1},   {"exp", 1},
                 {"log", 1},   {"sinh", 1},  {"cosh", 1},  {"tanh", 1},
                 {"int", 1},   {"round", 1}, {"ceil", 1},  {"floor", 1},
                 {"sign", 1},  {"abs", 1},   {"max", 2},   {"min", 2},
                 {"asin", 1},  {"acos", 1},  {"atan", 1},  {"asinh", 1},
                 {"acosh", 1}, {"atanh", 1}, {"atan2", 2}, {"log10", 1}};

#define NFUNC ((int)(sizeof functions / sizeof functions[0]))

typedef struct node {
  enum { N_CONST, N_INPUT, N_OP, N_PLUS } kind;
  double value; /* N_CONST */
  int code;     /* N_INPUT: input number; N_OP: operator code */
  int nkids;
  struct node *kid[2];
} node;

typedef struct parser {
  const char *s, *p;
  int max_input; /* highest u<k> allowed */
  bsim_expr_lookup lookup;
  void *user;
  char *msg;
  size_t msglen;
  int failed;
} parser;

static node *fail(parser *ps, const char *fmt, const char *arg) {
  if (!ps->failed) {
    snprintf(ps->msg, ps->msglen, fmt, arg);
    ps->failed = 1;
  }
  return NULL;
}

static void skip(parser *ps) {
  while (*ps->p == ' ' || *ps->p == '\t')
    ps->p++;
}

/* The next token is `op` (and not the start of a longer operator that
 * also begins with it, as "<" in "<=", "*" in "**"): consume it. */
static int eat(parser *ps, const char *op) {
  skip(ps);
  size_t n = strlen(op);
  if (strncmp(ps->p, op, n) != 0) return 0;
  char next = ps->p[n];
  if ((strcmp(op, "<") == 0 || strcmp(op, ">") == 0) &&
      (next == '=' || (op[0] == '<' && next == '>')))
    return 0;
  if ((strcmp(op, "=") == 0 || strcmp(op, "~") == 0) && next == '=') return 0;
  if (strcmp(op, "*") == 0 && next == '*') return 0;
  if (strcmp(op, ".") == 0 && isdigit((unsigned char)next)) return 0;
  ps->p += n;
  return 1;
}

static node *mk(parser *ps, int kind, int code, node *a, node *b) {
  node *n = calloc(1, sizeof *n);
  if (!n) return fail(ps, "out of memory%s", "");
  n->kind = kind;
  n->code = code;
  n->kid[0] = a;
  n->kid[1] = b;
  n->nkids = (a != NULL) + (b != NULL);
  return n;
}

static void free_node(node *n) {
  if (!n) return;
  free_node(n->kid[0]);
  free_node(n->kid[1]);
  free(n);
}

/* A binary operator node, or NULL (freeing the operands) on failure. */
static node *binary(parser *ps, int code, node *a, node *b) {
  if (!a || !b) {
    free_node(a);
    free_node(b);
    return NULL;
  }
  node *n = mk(ps, N_OP, code, a, b);
  if (!n) {
    free_node(a);
    free_node(b);
  }
  return n;
}

static node *expr_or(parser *ps);

static node *constant(parser *ps, double v) {
  node *n = mk(ps, N_CONST, 0, NULL, NULL);
  if (n) n->value = v;
  return n;
}

/* A name: an input u<k>, a Scilab constant, or a context variable. */
static node *name(parser *ps, const char *id) {
  if (id[0] == 'u' && isdigit((unsigned char)id[1])) {
    char *end;
    long k = strtol(id + 1, &end, 10);
    if (*end == '\0' && k >= 1 && id[1] != '0') {
      if (k > ps->max_input)
        return fail(ps, "%s is not an input (the block has fewer)", id);
      return mk(ps, N_INPUT, (int)k, NULL, NULL);
    }
  }
  static const struct {
    const char *name;
    double v;
  } consts[] = {{"%pi", 3.14159265358979323846},
                {"%e", 2.7182818284590452354},
                {"%t", 1},
                {"%f", 0},
                {"%T", 1},
                {"%F", 0},
                {"%eps", 2.220446049250313e-16},
                {"%inf", INFINITY},
                {"%nan", NAN}};
  for (size_t i = 0; i < sizeof consts / sizeof consts[0]; i++)
    if (strcmp(id, consts[i].name) == 0) return constant(ps, consts[i].v);
  double v;
  int found = ps->lookup ? ps->lookup(ps->user, id, &v) : -1;
  if (found == 1) return fail(ps, "variable %s is not a scalar", id);
  if (found != 0) return fail(ps, "unknown variable %s", id);
  return constant(ps, v);
}

static node *call(parser *ps, const char *id) {
  int f = 0;
  while (f < NFUNC && strcmp(functions[f].name, id) != 0)
    f++;
  if (id[0] == 'u' && isdigit((unsigned char)id[1]))
    return fail(ps,
                "%s(...): extracting from an input is not supported "
                "(with one vector input, write u2 for its 2nd element)",
                id);
  if (f == NFUNC) return fail(ps, "function %s is not supported", id);
  if (f == 22) /* atan2: in Xcos's list, but Scilab 6 has no such function */
    return fail(ps, "%s is not available (Xcos cannot compile it)", id);
  node *args[2] = {NULL, NULL};
  int n = 0;
  if (!eat(ps, ")")) {
    do {
      node *a = expr_or(ps);
      if (!a || n == 2) {
        free_node(a);
        free_node(args[0]);
        free_node(args[1]);
        return ps->failed ? NULL : fail(ps, "too many arguments to %s", id);
      }
      args[n++] = a;
    } while (eat(ps, ","));
    if (!eat(ps, ")")) {
      free_node(args[0]);
      free_node(args[1]);
      return fail(ps, "')' expected after the arguments of %s", id);
    }
  }
  if (n != functions[f].nargs) {
    free_node(args[0]);
    free_node(args[1]);
    char what[128];
    snprintf(what, sizeof what, "%s takes %d argument%s", id,
             functions[f].nargs, functions[f].nargs > 1 ? "s" : "");
    return fail(ps, "%s", what);
  }
  node *r = mk(ps, N_OP, 101 + f, args[0], args[1]);
  if (!r) {
    free_node(args[0]);
    free_node(args[1]);
  }
  return r;
}

static node *primary(parser *ps) {
  skip(ps);
  const char *p = ps->p;
  if (isdigit((unsigned char)*p) ||
      (*p == '.' && isdigit((unsigned char)p[1]))) {
    char *end;
    errno = 0;
    double v = strtod(p, &end);
    /* Scilab writes exponents with d or D too */
    if ((*end == 'd' || *end == 'D') &&
        (isdigit((unsigned char)end[1]) || end[1] == '-' || end[1] == '+')) {
      char buf[64];
      size_t len = (size_t)(end - p);
      if (len < 40) {
        memcpy(buf, p, len);
        buf[len] = 'e';
        char *e2;
        long ex = strtol(end + 1, &e2, 10);
        snprintf(buf + len + 1, sizeof buf - len - 1, "%ld", ex);
        v = strtod(buf, NULL);
        end = e2;
      }
    }
    ps->p = end;
    return constant(ps, v);
  }
  if (isalpha((unsigned char)*p) || *p == '%' || *p == '_') {
    char id[64];
    size_t n = 0;
    while ((isalnum((unsigned char)p[n]) || p[n] == '_' || p[n] == '%') &&
           n < sizeof id - 1) {
      id[n] = p[n];
      n++;
    }
    id[n] = '\0';
    ps->p = p + n;
    if (eat(ps, "(")) return call(ps, id);
    return name(ps, id);
  }
  if (eat(ps, "(")) {
    node *e = expr_or(ps);
    if (e && !eat(ps, ")")) {
      free_node(e);
      return fail(ps, "')' expected%s", "");
    }
    return e;
  }
  return fail(ps, *p ? "unexpected '%.1s'" : "incomplete expression%s", p);
}

static node *postfix(parser *ps) {
  node *n = primary(ps);
  skip(ps);
  if (n && (eat(ps, "'") || eat(ps, ".'"))) {
    free_node(n);
    return fail(ps,
                "the transpose%s is not supported (Xcos's evaluator "
                "refuses it)",
                "");
  }
  return n;
}

static node *negate(parser *ps, node *a, int plus) {
  if (!a) return NULL;
  if (a->kind == N_CONST) { /* Scilab folds the sign into the number */
    if (!plus) a->value = -a->value;
    return a;
  }
  node *n = mk(ps, plus ? N_PLUS : N_OP, plus ? 0 : 99, a, NULL);
  if (!n) free_node(a);
  return n;
}

static node *power(parser *ps);

/* An exponent may carry its own sign (u1^-1), and is itself a power:
 * Scilab's ^ groups from the right, 2^3^2 = 2^9. */
static node *power_arg(parser *ps) {
  if (eat(ps, "-")) return negate(ps, power_arg(ps), 0);
  if (eat(ps, "+")) return negate(ps, power_arg(ps), 1);
  return power(ps);
}

static node *power(parser *ps) {
  node *a = postfix(ps);
  if (eat(ps, ".^")) return binary(ps, 31, a, power_arg(ps));
  if (eat(ps, "^") || eat(ps, "**")) return binary(ps, 15, a, power_arg(ps));
  return a;
}

static node *unary(parser *ps) {
  if (eat(ps, "-")) return negate(ps, unary(ps), 0);
  if (eat(ps, "+")) return negate(ps, unary(ps), 1);
  if (eat(ps, "~")) {
    node *a = unary(ps);
    node *n = a ? mk(ps, N_OP, 30, a, NULL) : NULL;
    if (a && !n) free_node(a);
    return n;
  }
  return power(ps);
}

static node *product(parser *ps) {
  node *a = unary(ps);
  for (;;) {
    if (eat(ps, ".*"))
      a = binary(ps, 4, a, unary(ps));
    else if (eat(ps, "./"))
      a = binary(ps, 8, a, unary(ps));
    else if (eat(ps, "*"))
      a = binary(ps, 3, a, unary(ps));
    else if (eat(ps, "/"))
      a = binary(ps, 7, a, unary(ps));
    else if (eat(ps, "\\") || eat(ps, ".\\")) {
      free_node(a);
      return fail(ps,
                  "left division%s is not supported (Xcos's evaluator "
                  "refuses it)",
                  "");
    } else
      return a;
  }
}

static node *sum(parser *ps) {
  node *a = product(ps);
  for (;;) {
    if (eat(ps, "+"))
      a = binary(ps, 1, a, product(ps));
    else if (eat(ps, "-"))
      a = binary(ps, 2, a, product(ps));
    else
      return a;
  }
}

static node *comparison(parser *ps) {
  static const struct {
    const char *op;
    int code;
  } ops[] = {{"==", 16}, {"~=", 21}, {"<>", 21}, {"<=", 19},
             {">=", 20}, {"<", 17},  {">", 18}};
  node *a = sum(ps);
  for (;;) {
    size_t k = 0;
    while (k < sizeof ops / sizeof ops[0] && !eat(ps, ops[k].op))
      k++;
    if (k == sizeof ops / sizeof ops[0]) return a;
    a = binary(ps, ops[k].code, a, sum(ps));
  }
}

static node *conjunction(parser *ps) {
  node *a = comparison(ps);
  while (eat(ps, "&&") || eat(ps, "&"))
    a = binary(ps, 29, a, comparison(ps));
  return a;
}

static node *expr_or(parser *ps) {
  node *a = conjunction(ps);
  while (eat(ps, "||") || eat(ps, "|"))
    a = binary(ps, 28, a, conjunction(ps));
  return a;
}

/* The postfix code of a tree, operands first. */
static int emit(const node *n, bsim_expr_code *c) {
  if (n->kind == N_PLUS) { /* Scilab pushes a 0 before the operand */
    if (bsim_expr_code_push(c, 6, 0, 0.0) != 0) return -1;
    return emit(n->kid[0], c);
  }
  for (int k = 0; k < n->nkids; k++)
    if (emit(n->kid[k], c) != 0) return -1;
  switch (n->kind) {
  case N_CONST:
    return bsim_expr_code_push(c, 6, 0, n->value);
  case N_INPUT:
    return bsim_expr_code_push(c, 2, n->code, 0.0);
  default:
    if (bsim_expr_is_zc(n->code)) c->nz++;
    return bsim_expr_code_push(c, 5, n->code, 0.0);
  }
}

int bsim_expr_compile(const char *text, int max_input, bsim_expr_lookup lookup,
                      void *user, bsim_expr_code *code, char *msg,
                      size_t msglen) {
  parser ps = {text, text, max_input, lookup, user, msg, msglen, 0};
  memset(code, 0, sizeof *code);
  skip(&ps);
  node *root = *ps.p ? expr_or(&ps) : constant(&ps, 0.0); /* "" is 0 */
  skip(&ps);
  if (root && *ps.p) {
    free_node(root);
    root = fail(&ps, "unexpected '%.1s'", ps.p);
  }
  if (!root) return -1;
  int rc = emit(root, code);
  /* Xcos's dialog leaves nzcross at 0 when the expression's value is a
   * boolean (its outermost operation a comparison or a logical one) */
  code->boolean = root->kind == N_OP && bsim_expr_is_zc(root->code);
  free_node(root);
  if (rc != 0) {
    bsim_expr_code_clear(code);
    snprintf(msg, msglen, "out of memory");
    return -1;
  }
  return 0;
}
