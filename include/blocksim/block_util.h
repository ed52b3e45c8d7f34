/*
 * Helpers for writing blocks, the same ones the standard library uses:
 * reading scalar and integer parameters with uniform messages, sizes
 * without overflow, port sizes on the run-time view, numeric failures
 * reported as the integrator expects. Public so that a plugin's block is
 * written exactly like a built-in one (docs/extending.md).
 */
#ifndef BLOCKSIM_BLOCK_UTIL_H
#define BLOCKSIM_BLOCK_UTIL_H

#include "export.h"

#include "block.h"

#ifdef __cplusplus
extern "C" {
#endif

/* In a define step (the name is the parameter's, as declared in the
 * type's bsim_param_spec table): */

/* Number of elements of a parameter value (0 for an empty matrix). */
BSIM_API int bsim_std_numel(const bsim_value *v);
/* The parameter as one finite real scalar in *out; on anything else reports
 * "'name' must be a scalar" through the context and returns -1. */
BSIM_API int bsim_std_scalar(bsim_define_ctx *ctx, const char *name,
                             double *out);
/* The parameter as an integer scalar >= min; -1 (reported) otherwise. */
BSIM_API int bsim_std_int(bsim_define_ctx *ctx, const char *name, int min,
                          int *out);
/* rows x cols computed without overflow into *out; more than
 * BSIM_MAX_ELEMS (block.h) is reported as bad input naming `what` (-1). */
BSIM_API int bsim_std_elems(bsim_define_ctx *ctx, const char *what, long rows,
                            long cols, int *out);
/* One input and one output of the same, any size (-1 x -2), with
 * feedthrough: the ports of element-wise blocks. */
BSIM_API int bsim_std_elementwise_model(bsim_define_ctx *ctx, bsim_model *m);

/* In a computational function: */

/* Number of elements of input / output port k, as the scheduler laid them
 * out (rows times columns). */
BSIM_API int bsim_std_insize(const bsim_block *blk, int k);
BSIM_API int bsim_std_outsize(const bsim_block *blk, int k);
/* Report a numeric failure met while computing: recoverable while the
 * integrator runs (it retries with a smaller step), fatal otherwise. */
BSIM_API void bsim_std_numeric_failure(bsim_block *blk, const char *what);

#ifdef __cplusplus
}
#endif
#endif
