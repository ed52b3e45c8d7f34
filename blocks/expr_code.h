/*
 * The code of Xcos's EXPRESSION block, shared by its compiler
 * (expr_compile.c) and its evaluator (expression.c). An expression is kept
 * in postfix form as pairs in ipar:
 *   (2, k)   push input k (with one vector input: its k-th element, 0 past
 *            its end)
 *   (6, k)   push rpar(k) (a number, or a context variable's value)
 *   (5, op)  apply an operator to the top of the stack: 1 +, 2 -, 3 *,
 *            4 .*, 7 /, 8 ./, 15 ^, 31 .^, 99 unary minus; comparisons
 *            16 ==, 17 <, 18 >, 19 <=, 20 >=, 21 ~=; logical 28 |, 29 &,
 *            30 ~; functions 101.. in the order sin cos tan exp log sinh
 *            cosh tanh int round ceil floor sign abs max min asin acos
 *            atan asinh acosh atanh atan2 log10.
 * Comparisons and logical operators are the ones that may have a
 * zero-crossing surface (nz counts them).
 */
#ifndef BSIM_BLOCKS_EXPR_CODE_H
#define BSIM_BLOCKS_EXPR_CODE_H

#include <stddef.h>

typedef struct bsim_expr_code {
  int *ipar;
  int nipar, capi;
  double *rpar;
  int nrpar, capr;
  int nz;      /* comparison and logical operators */
  int boolean; /* the outermost operator is one of them */
} bsim_expr_code;

/* Append (kind, arg); for kind 6 the value goes to rpar and arg is its
 * index. 0, or -1 out of memory. */
int bsim_expr_code_push(bsim_expr_code *c, int kind, int arg, double value);
void bsim_expr_code_clear(bsim_expr_code *c);
/* 1 for the operators that may have a zero-crossing surface. */
int bsim_expr_is_zc(int op);

/* A context variable: 0 with *out for a scalar, 1 for a variable that is
 * not a scalar, -1 for none. */
typedef int (*bsim_expr_lookup)(void *user, const char *name, double *out);

/* Compile text, whose inputs are u1..u<max_input>. 0, or -1 with a
 * message. */
int bsim_expr_compile(const char *text, int max_input, bsim_expr_lookup lookup,
                      void *user, bsim_expr_code *code, char *msg,
                      size_t msglen);

#endif
