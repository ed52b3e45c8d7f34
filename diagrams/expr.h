/*
 * Parameter expressions and context scripts: the Scilab subset that
 * diagram parameters, context variables and Xcos contexts are written in
 * (docs/format.md lists it). Values are real matrices (scalars are 1x1;
 * booleans are 0/1), strings, and inside the evaluator polynomials. An
 * expression is evaluated by bsim_expr_eval; a script of statements
 * (assignments, if, for, while) by bsim_script_run, which assigns into a
 * scope.
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
 * outer ones). Lookup walks the chain. A root scope (no parent) owns the
 * chain's environment: the state of rand and the dialect. */
typedef struct bsim_scope bsim_scope;

bsim_scope *bsim_scope_create(const bsim_scope *parent);
void bsim_scope_free(bsim_scope *s);
/* Dialect of the whole chain (set on the root): 0 native, where eye(n),
 * zeros(n), ones(n) and rand(n) of a scalar n are n x n (as documented for
 * the native format since its start); 1 Scilab (Xcos files), where they
 * take the size of their argument, so eye(3) is 1x1. */
void bsim_scope_set_scilab(bsim_scope *s, int on);
/* Copies the value. 0, or -1 out of memory. Redefining replaces. */
int bsim_scope_set(bsim_scope *s, const char *name, const bsim_value *v);
/* Like set, but a script's later assignments to the name are ignored: a
 * command-line override (-p VAR=V) wins over the script, and the script's
 * exists('VAR') sees it. */
int bsim_scope_pin(bsim_scope *s, const char *name, const bsim_value *v);
/* Marks name as unknown: a statement meant to set it failed (why says
 * which, e.g. "line 3 (K=ppol(...)): ..."). Using it fails with
 * BSIM_EXPR_UNKNOWN. 0, or -1 out of memory. */
int bsim_scope_set_unknown(bsim_scope *s, const char *name, const char *why);
/* The value of name along the chain; NULL if absent or unknown. */
const bsim_value *bsim_scope_get(const bsim_scope *s, const char *name);

/* Returned by the evaluators when the failure is a variable that a failed
 * statement should have set: an Xcos reader may then fall back to the data
 * stored in the file for the block concerned. */
enum { BSIM_EXPR_UNKNOWN = -2 };

/* Evaluate text into *out (out->v malloc'ed; release with bsim_value_clear):
 * a real matrix or a string. Returns 0, or -1 (or BSIM_EXPR_UNKNOWN) with a
 * message like "unknown variable 'k' at column 3" in msg (NUL-terminated,
 * at most msglen bytes). */
int bsim_expr_eval(const char *text, const bsim_scope *scope, bsim_value *out,
                   char *msg, size_t msglen);

/* Evaluate a parameter of the given kind: BSIM_PARAM_REAL a real matrix
 * (a string is an error), BSIM_PARAM_STRING the text itself, and
 * BSIM_PARAM_POLY a coefficient row vector, highest power first, from a
 * coefficient vector or a polynomial in s, z, %s or %z ("1+2*s+s^2",
 * "(1+s)*(2+s)", "poly([1 2],'s','c')"). Returns as bsim_expr_eval. */
int bsim_expr_eval_param(bsim_param_kind kind, const char *text,
                         const bsim_scope *scope, bsim_value *out, char *msg,
                         size_t msglen);

/* Run Scilab statements (a context script) in scope: assignments (also
 * indexed, a(2)=3, and multiple, [r,c]=size(x)), expression statements,
 * if/elseif/else/end, for, while; separated by newlines, ';' or ','.
 * A statement that fails does not stop the script: the names it would
 * have assigned become unknown (bsim_scope_set_unknown). Only a script
 * whose structure cannot be followed (an if without end, a bracket never
 * closed) stops; then the function returns -1 with msg naming the line
 * and the statement. Lines are numbered from first_line (the file line
 * where text starts, or 1). Returns 0 otherwise.
 * *failed (may be NULL) counts the statements that failed. */
int bsim_script_run(const char *text, int first_line, bsim_scope *scope,
                    char *msg, size_t msglen, int *failed);

void bsim_value_clear(bsim_value *v);
/* Clear n values and free the array (NULL is fine). */
void bsim_values_free(bsim_value *v, int n);
int bsim_value_copy(bsim_value *dst, const bsim_value *src);

#endif
