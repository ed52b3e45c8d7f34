/*
 * What the parts of the Scilab evaluator share. expr.c reads expressions
 * (lexer and recursive-descent parser), expr_matrix.c matrix literals,
 * expr_index.c indexing and ranges, expr_ops.c the operators,
 * expr_func.c and expr_linalg.c the built-in functions, expr_poly.c
 * polynomials, script.c statements. All report errors through the same
 * parser state so that the first message wins and evaluation stays
 * reentrant. Private to diagrams/.
 */
#ifndef BSIM_EXPR_INT_H
#define BSIM_EXPR_INT_H

#include <stddef.h>

#include "diagrams/expr.h"

/* Every recursion passes through parse_unary; the cap keeps hostile input
 * such as "((((..." from exhausting a thread's stack. */
enum { MAX_DEPTH = 100, MAX_ARGS = 6, MAX_NAME = 63, MAX_NUMBER = 127 };
/* A parameter larger than this is a typo, not a model. */
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define MAX_ELEMS ((long)BSIM_MAX_ELEMS)
#else
/* The fuzz build (BSIM_FUZZ) stops a hundred times sooner: elementwise
 * work on 10^7 elements takes a second under its instrumentation. */
#define MAX_ELEMS 100000L
#endif
/* Products and factorisations cost n^3: on matrices within MAX_ELEMS
 * that is minutes (a fuzzer found eye(2688) * eye(2688)). Loading a
 * diagram must take bounded time, so an operation of more multiply-adds
 * than this (about a second) is refused. */
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define MAX_WORK 1e9
#else
/* The same refusal a hundred times sooner, as MAX_ELEMS. */
#define MAX_WORK 1e7
#endif

/* A value while it is computed: a real matrix (booleans are 0/1), a
 * string, or a polynomial. Richer than bsim_value, which is what leaves
 * the evaluator (parameters only ever hold real matrices or strings). */
typedef struct mat {
  int rows, cols;
  double *v; /* column-major; a polynomial's coefficients, lowest first */
  char *str; /* a string: v NULL, rows = cols = 1 */
  char var;  /* a polynomial in this variable: rows = 1, cols = degree+1 */
  char eye;  /* Scilab's eye(): an identity taking the other operand's size */
  char all;  /* a lone ':' in an index: every position */
} mat;

/* What an evaluation may change beyond its result: the random generator
 * (Scilab's rand has one state per session; here one per diagram) and
 * which dialect eye/zeros/ones of a scalar follow. Owned by a root scope. */
typedef struct ex_env {
  int scilab;      /* f(3) is 1x1 (Scilab), not 3x3 (native) */
  int rand_seed;   /* Scilab's urand state (bsim_urand), 0 at start */
  int rand_normal; /* rand('normal') was called */
  int have_spare;  /* the second deviate of a normal pair is waiting */
  double spare;
} ex_env;

typedef struct parser {
  const char *s;
  size_t pos;
  int bracket; /* directly inside [ ]: blanks separate elements */
  int depth;
  int polyvars; /* s, z, %s, %z are polynomial variables */
  const bsim_scope *scope;
  ex_env *env;
  const mat *dollar; /* the value being indexed, for '$' */
  int dollar_dim;    /* 0 linear, 1 rows, 2 columns */
  char *msg;
  size_t msglen;
  int failed;
  int unknown; /* the failure is a variable the context could not compute */
} parser;

/* Records the first error in P->msg; always returns -1. */
int ex_fail(parser *P, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* 0, or -1 with P failed when the operator or function `kind` `name`
 * ("operator", "*") would cost more than MAX_WORK multiply-adds. */
int ex_work(parser *P, const char *kind, const char *name, size_t pos,
            double work);

/* Messages count columns from 1. */
static inline size_t col(size_t pos) {
  return pos + 1;
}
static inline long numel(const mat *m) {
  return (long)m->rows * m->cols;
}
static inline int is_scalar(const mat *m) {
  return m->rows == 1 && m->cols == 1 && !m->var && !m->str;
}
static inline int is_real(const mat *m) {
  return !m->var && !m->str;
}

/* ------------------------------------------------------------ lexing */
char ex_at(const parser *P, size_t k);
int ex_is_blank(char c);
int ex_is_name_start(char c);
int ex_is_name_char(char c);
/* Skips blanks, comments and continuations; returns whether it moved. */
int ex_skip_ws(parser *P);
int ex_unexpected(parser *P, const char *expected);
/* Reads a name at P->pos into buf (MAX_NAME + 1 bytes); 0 or -1. */
int ex_read_name(parser *P, char *buf);
/* A number / a quoted string at P->pos. */
int ex_parse_number(parser *P, mat *out);
int ex_parse_string(parser *P, mat *out);
/* A full expression (the loosest level: '|'). */
int ex_parse_expr(parser *P, mat *out);
/* An additive expression (no ':' ranges, comparisons or boolean ops). */
int ex_parse_additive(parser *P, mat *out);
/* The rest of P->s as one expression (nothing may follow). */
int ex_eval_rest(parser *P, mat *m);
/* At '(' after a variable x: the index list up to ')', '$' bound to x. */
int ex_parse_index_args(parser *P, const mat *x, mat *args, int *n);
/* The rest of P->s as f(args) giving nout results. */
int ex_parse_multi_call(parser *P, mat *outs, int nout);
/* After '[': the literal up to its ']'. */
int ex_parse_matrix(parser *P, mat *out);

/* ------------------------------------------------------------ values */
void ex_clear(mat *m);
/* A zero-filled rows x cols matrix, size-checked. 0, or -1 with P failed. */
int ex_mat_new(parser *P, mat *m, long rows, long cols);
int ex_mat_scalar(parser *P, mat *m, double x);
int ex_mat_string(parser *P, mat *m, const char *s, size_t n);
int ex_copy(parser *P, mat *dst, const mat *src);
/* *dst = *src, releasing the old *dst and emptying *src. */
void ex_mat_move(mat *dst, mat *src);
/* Fails unless m is a real matrix (or, for the second, a polynomial);
 * what names the operand for messages. */
int ex_need_real(parser *P, const mat *m, const char *what, size_t pos);
int ex_need_real_or_poly(parser *P, const mat *m, const char *what, size_t pos);
typedef double (*fn2)(double, double);
/* a (op) b element-wise with a 1x1 operand broadcast. real_only: a NaN
 * produced from non-NaN inputs is a complex result, which we cannot hold. */
int ex_elementwise(parser *P, const mat *a, const mat *b, fn2 f,
                   const char *what, size_t pos, int real_only, mat *out);
/* The rows x cols identity. */
int ex_identity(parser *P, mat *m, long rows, long cols);
/* Transposes *m in place. */
int ex_transpose(parser *P, mat *m);
/* *r = a (op) b for the binary operator spelled op ("+", ".*", "==", ...);
 * pos is the operator's position, for messages. */
int ex_binary(parser *P, const char *op, const mat *a, const mat *b, size_t pos,
              mat *r);
/* A scope variable as a value: 0 found (copied to *out), 1 absent, -1
 * failed (unknown because its statement failed: P->unknown set). */
int ex_lookup(parser *P, const char *name, size_t pos, mat *out);

/* --------------------------------------------------------- functions */
/* Whether name is a built-in function (to tell "unknown function" from
 * "needs (...)"). */
int ex_is_function(const char *name);
/* name(args[0..n-1]) called at pos, nout results wanted (1 normally; more
 * for [a,b] = f(...)): out[0..nout-1]. */
int ex_call(parser *P, const char *name, size_t pos, mat *args, int n, mat *out,
            int nout);
/* Functions of expr_linalg.c: 0 handled, 1 not one of them, -1 failed. */
int ex_call_linalg(parser *P, const char *name, size_t pos, mat *args, int n,
                   mat *out);
/* Colour maps of expr_colormap.c: 0 handled, 1 not one of them, -1
 * failed. */
int ex_call_colormap(parser *P, const char *name, size_t pos, mat *args, int n,
                     mat *out);
int ex_is_colormap(const char *name);
/* x = A \ B (left: A x = B) or x = B / A (right: x A = B), A square. */
int ex_solve(parser *P, const mat *A, const mat *B, int left, size_t pos,
             mat *out);

/* --------------------------------------------------------- indexing */
/* x(args): extraction, where args were parsed with '$' bound to x. */
int ex_index(parser *P, const mat *x, mat *args, int n, size_t pos, mat *out);
/* x(args) = rhs, growing x as Scilab does. */
int ex_index_assign(parser *P, mat *x, mat *args, int n, const mat *rhs,
                    size_t pos);
/* from:step:to as a row. */
int ex_range(parser *P, const mat *from, const mat *step, const mat *to,
             size_t pos, mat *out);
/* The ':' that stands alone in an index: a marker value. */
int ex_colon_all(parser *P, mat *out);
int ex_is_colon_all(const mat *m);

/* ------------------------------------------------------- polynomials */
/* The variable s (or z) as a polynomial. */
int ex_poly_var(parser *P, char var, mat *out);
/* Operator on polynomials (at least one operand is one). */
int ex_poly_binary(parser *P, const char *op, const mat *a, const mat *b,
                   size_t pos, mat *r);
/* A polynomial parameter's value: *m (a real vector, taken as
 * coefficients highest power first, or a polynomial) becomes the
 * coefficient row vector, highest power first. */
int ex_poly_coefficients(parser *P, mat *m);
/* Functions on polynomials: 0 handled, 1 not one of them, -1 failed. */
int ex_call_poly(parser *P, const char *name, size_t pos, mat *args, int n,
                 mat *out);

/* ------------------------------------------------------------ scopes */
/* The environment of the scope chain (never NULL for a chain built by
 * bsim_scope_create; NULL for a NULL scope). */
ex_env *ex_scope_env(const bsim_scope *s);
/* Looks up name: 0 found (*value, *var filled), 1 absent, 2 unknown (*why
 * says which statement failed). */
int ex_scope_find(const bsim_scope *s, const char *name,
                  const bsim_value **value, char *var, const char **why);
/* Stores a value (a copy); a polynomial keeps its variable. Names pinned
 * by an override are left alone (returns 0). 0, or -1 out of memory. */
int ex_scope_store(bsim_scope *s, const char *name, const mat *m);

#endif
