/*
 * Helpers shared by the standard block families: parameter checks that give
 * the same wording everywhere, and port-size arithmetic on the run-time view.
 * Kept here so that each family file reads as the block's semantics only.
 */
#include <math.h>

#include "blocks/std.h"

int bsim_std_numel(const bsim_value *v) {
  if (!v || v->rows <= 0 || v->cols <= 0) return 0;
  return v->rows * v->cols;
}

int bsim_std_scalar(bsim_define_ctx *ctx, const char *name, double *out) {
  const bsim_value *v = bsim_param(ctx, name);
  if (!v || bsim_std_numel(v) != 1 || !v->v)
    return bsim_define_error(
        ctx, "parameter '%s' must be a scalar, got a %dx%d matrix", name,
        v ? v->rows : 0, v ? v->cols : 0);
  if (!isfinite(v->v[0]))
    return bsim_define_error(ctx, "parameter '%s' must be finite, got %g", name,
                             v->v[0]);
  *out = v->v[0];
  return 0;
}

int bsim_std_int(bsim_define_ctx *ctx, const char *name, int min, int *out) {
  double d;
  if (bsim_std_scalar(ctx, name, &d) != 0) return -1;
  if (d != floor(d) || d < min || d > 1e9)
    return bsim_define_error(
        ctx, "parameter '%s' must be an integer >= %d, got %g", name, min, d);
  *out = (int)d;
  return 0;
}

int bsim_std_insize(const bsim_block *blk, int k) {
  return blk->insz[k] * blk->insz[blk->nin + k];
}

int bsim_std_outsize(const bsim_block *blk, int k) {
  return blk->outsz[k] * blk->outsz[blk->nout + k];
}

void bsim_std_numeric_failure(bsim_block *blk, const char *what) {
  if (blk->phase == BSIM_PHASE_CONTINUOUS)
    bsim_block_recoverable(blk, "%s", what);
  else
    bsim_block_error(blk, "%s", what);
}
