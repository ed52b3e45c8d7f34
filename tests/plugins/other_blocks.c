/*
 * A second test plugin that also calls its type TEST_POLY, with another
 * law (y = a u + b): two libraries, each with one of the two plugins, must
 * each run their own, even in two threads at once.
 */
#include "blocksim/plugin.h"

BSIM_PLUGIN_DECLARE_ABI;

extern const bsim_param_spec test_poly_params[2];
int test_poly_define(bsim_define_ctx *ctx, bsim_model *m);

static void fn(bsim_block *blk, int flag) {
  if (flag != BSIM_FLAG_OUTPUTS) return;
  for (int i = 0, n = bsim_std_insize(blk, 0); i < n; i++)
    blk->outptr[0][i] = blk->rpar[0] * blk->inptr[0][i] + blk->rpar[1];
}

static const bsim_block_type type_poly = {"TEST_POLY",
                                          "test_poly",
                                          "y = a u + b (second test plugin).",
                                          "Element-wise; rpar = [a; b].",
                                          test_poly_params,
                                          2,
                                          test_poly_define,
                                          fn,
                                          0};

static const bsim_block_type *const types[] = {&type_poly};

int bsim_plugin_init(bsim_library *lib, bsim_error *err) {
  return bsim_library_add(lib, types, 1, err);
}
