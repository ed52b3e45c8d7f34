/*
 * Parameter expressions: the Scilab subset that diagram parameters and
 * context variables are written in. Values are real matrices (scalars are
 * 1x1). Supported: numbers (1, 2.5e-3), %pi %e %inf %nan %t %f, variables from
 * a scope chain, matrix literals ([1 2; 3 4], [1,-1], [a b], nested and
 * concatenating), + - * / ^ with Scilab's matrix meaning (* matrix product,
 * scalar broadcasting, / by a scalar), element-wise .* ./ .^, transpose ',
 * unary minus, parentheses, and functions of one argument applied element-wise
 * (sin cos tan asin acos atan sinh cosh tanh exp log log10 sqrt abs floor ceil
 * round sign) plus atan(y,x), min(a,b), max(a,b), zeros(m,n), ones(m,n),
 * eye(n) / eye(m,n).
 *
 * Hand-written rather than libmatheval because values are matrices (libmatheval
 * is scalar-only) and because libmatheval's parser keeps global state, which
 * would break concurrent loads in threads.
 */
#ifndef BSIM_EXPR_H
#define BSIM_EXPR_H

#include <stddef.h>

#include "blocksim/block.h"

/* A scope: name -> value, with a parent for shadowing (inner contexts shadow
 * outer ones). Lookup walks the chain. */
typedef struct bsim_scope bsim_scope;

bsim_scope *bsim_scope_create(const bsim_scope *parent);
void bsim_scope_free(bsim_scope *s);
/* Copies the value. 0, or -1 out of memory. Redefining replaces. */
int bsim_scope_set(bsim_scope *s, const char *name, const bsim_value *v);
const bsim_value *bsim_scope_get(const bsim_scope *s, const char *name);

/* Evaluate text into *out (out->v malloc'ed; release with bsim_value_clear).
 * Returns 0, or -1 with a message like "unknown variable 'k' at column 3" in
 * msg (NUL-terminated, at most msglen bytes). */
int bsim_expr_eval(const char *text, const bsim_scope *scope, bsim_value *out,
                   char *msg, size_t msglen);

void bsim_value_clear(bsim_value *v);
/* Clear n values and free the array (NULL is fine). */
void bsim_values_free(bsim_value *v, int n);
int bsim_value_copy(bsim_value *dst, const bsim_value *src);

#endif
