/*
 * The evaluator's entry points: expressions to values (bsim_expr_eval,
 * bsim_expr_eval_param) and variable lookup, which is where the values of
 * the scope chain become values of the evaluator and where unknown
 * variables (their statement failed) are reported in a catchable way.
 */
#include <stdlib.h>
#include <string.h>

#include "diagrams/expr_int.h"

int ex_lookup(parser *P, const char *name, size_t pos, mat *out) {
  const bsim_value *v = NULL;
  const char *why = NULL;
  char var = 0;
  int r = ex_scope_find(P->scope, name, &v, &var, &why);
  if (r == 2) {
    P->unknown = 1;
    return ex_fail(P,
                   "variable '%s' at column %zu is unknown: the context "
                   "statement that sets it failed (%s)",
                   name, col(pos), why ? why : "no reason recorded");
  }
  if (r == 1) return 1;
  mat m = {v->rows, v->cols, v->v, v->str, var, 0};
  return ex_copy(P, out, &m);
}

/* A value leaving the evaluator: only real matrices and strings do. */
static int to_value(parser *P, mat *m, bsim_value *out) {
  if (m->var)
    return ex_fail(P,
                   "the value is a polynomial in %c; a real matrix is "
                   "expected here",
                   m->var);
  if (m->eye)
    return ex_fail(P, "eye() has no size of its own here (write eye(n, n))");
  out->rows = m->rows;
  out->cols = m->cols;
  out->v = m->v;
  out->str = m->str;
  memset(m, 0, sizeof *m);
  return 0;
}

static int finish(parser *P, int rc) {
  return rc == 0 ? 0 : P->unknown ? BSIM_EXPR_UNKNOWN : -1;
}

int bsim_expr_eval(const char *text, const bsim_scope *scope, bsim_value *out,
                   char *msg, size_t msglen) {
  parser P = {.s = text ? text : "",
              .scope = scope,
              .env = ex_scope_env(scope),
              .msg = msg,
              .msglen = msglen};
  if (msg && msglen > 0) msg[0] = '\0';
  memset(out, 0, sizeof *out);
  mat m = {0};
  int rc = ex_eval_rest(&P, &m);
  if (rc == 0) rc = to_value(&P, &m, out);
  ex_clear(&m);
  return finish(&P, rc);
}

int bsim_expr_eval_param(bsim_param_kind kind, const char *text,
                         const bsim_scope *scope, bsim_value *out, char *msg,
                         size_t msglen) {
  parser P = {.s = text ? text : "",
              .scope = scope,
              .env = ex_scope_env(scope),
              .msg = msg,
              .msglen = msglen,
              .polyvars = kind == BSIM_PARAM_POLY};
  if (msg && msglen > 0) msg[0] = '\0';
  memset(out, 0, sizeof *out);
  if (kind == BSIM_PARAM_STRING) {
    out->str = strdup(P.s);
    out->rows = out->cols = 1;
    return out->str ? 0 : ex_fail(&P, "out of memory");
  }
  mat m = {0};
  int rc = ex_eval_rest(&P, &m);
  if (rc == 0 && m.str)
    rc = ex_fail(&P,
                 "the value is the string '%.40s'; strings are not "
                 "supported in numeric parameters",
                 m.str);
  if (rc == 0 && kind == BSIM_PARAM_POLY) rc = ex_poly_coefficients(&P, &m);
  if (rc == 0) rc = to_value(&P, &m, out);
  ex_clear(&m);
  return finish(&P, rc);
}
