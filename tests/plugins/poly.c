/*
 * The parameters of the two test plugins' TEST_POLY (a, b -> rpar = [a; b],
 * one input and one output of any size), compiled into both: their types
 * differ only in what they compute.
 */
#include "blocksim/plugin.h"

const bsim_param_spec test_poly_params[2] = {
    {"a", BSIM_PARAM_REAL, "1", "coefficient of u^2"},
    {"b", BSIM_PARAM_REAL, "0", "offset"},
};

int test_poly_define(bsim_define_ctx *ctx, bsim_model *m) {
  double a, b;
  if (bsim_std_scalar(ctx, "a", &a) || bsim_std_scalar(ctx, "b", &b)) return -1;
  double *rp = bsim_model_alloc_rpar(m, 2);
  if (!rp || bsim_model_set_inputs(m, 1, -1, -2, 1) ||
      bsim_model_set_outputs(m, 1, -1, -2))
    return bsim_define_error(ctx, "out of memory");
  rp[0] = a;
  rp[1] = b;
  return 0;
}
