/*
 * What the two halves of the expression evaluator share: expr.c reads the
 * text (lexer and recursive-descent parser), expr_ops.c computes on matrix
 * values (arithmetic, broadcasting, powers, the function table). Both report
 * errors through the same parser state so that the first message wins and
 * evaluation stays reentrant. Private to diagrams/.
 */
#ifndef BSIM_EXPR_INT_H
#define BSIM_EXPR_INT_H

#include <stddef.h>

#include "diagrams/expr.h"

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

/* Records the first error in P->msg; always returns -1. */
int ex_fail(parser *P, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Messages count columns from 1. */
static inline size_t col(size_t pos) {
  return pos + 1;
}
static inline long numel(const mat *m) {
  return (long)m->rows * m->cols;
}
static inline int is_scalar(const mat *m) {
  return m->rows == 1 && m->cols == 1;
}

/* A zero-filled rows x cols matrix, size-checked. 0, or -1 with P failed. */
int ex_mat_new(parser *P, mat *m, long rows, long cols);
int ex_mat_scalar(parser *P, mat *m, double x);
/* *dst = *src, releasing the old *dst and emptying *src. */
void ex_mat_move(mat *dst, mat *src);
/* Transposes *m in place. */
int ex_transpose(parser *P, mat *m);
/* *r = a (op) b for the binary operator spelled op ("+", ".*", "^", ...);
 * pos is the operator's position, for messages. */
int ex_binary(parser *P, const char *op, const mat *a, const mat *b, size_t pos,
              mat *r);
/* Whether name is a built-in function (to tell "unknown function" from
 * "needs (...)"). */
int ex_is_function(const char *name);
/* name(args[0..n-1]) called at pos. */
int ex_call(parser *P, const char *name, size_t pos, mat *args, int n,
            mat *out);

#endif
