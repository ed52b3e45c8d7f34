/*
 * A test plugin written exactly as a built-in block family is (block.h and
 * the public helpers only): a first-order lag with a state and a
 * polynomial with direct feedthrough, whose combination has a closed form
 * the tests check, plus the Heun engine of heun.c. Built as a module that
 * resolves blocksim's symbols from the program loading it.
 */
#include <math.h>

#include "blocksim/plugin.h"

BSIM_PLUGIN_DECLARE_ABI;

extern const bsim_engine_type test_engine_heun;
extern const bsim_param_spec test_poly_params[2];
int test_poly_define(bsim_define_ctx *ctx, bsim_model *m);

/* ---- TEST_LAG: tau x' = u - x, y = x (element-wise) ------------------- */

static const bsim_param_spec lag_params[] = {
    {"tau", BSIM_PARAM_REAL, "1", "time constant, > 0"},
    {"x0", BSIM_PARAM_REAL, "0", "initial output"},
};

static int lag_define(bsim_define_ctx *ctx, bsim_model *m) {
  double tau, x0;
  if (bsim_std_scalar(ctx, "tau", &tau) || bsim_std_scalar(ctx, "x0", &x0))
    return -1;
  if (!(tau > 0)) return bsim_define_error(ctx, "tau must be > 0, got %g", tau);
  double *rp = bsim_model_alloc_rpar(m, 1), *x = bsim_model_alloc_x0(m, 1);
  if (!rp || !x || bsim_model_set_inputs(m, 1, 1, 1, 0) ||
      bsim_model_set_outputs(m, 1, 1, 1))
    return bsim_define_error(ctx, "out of memory");
  rp[0] = tau;
  x[0] = x0;
  return 0;
}

static void lag_fn(bsim_block *blk, int flag) {
  if (flag == BSIM_FLAG_OUTPUTS)
    blk->outptr[0][0] = blk->x[0];
  else if (flag == BSIM_FLAG_DERIVATIVES)
    blk->xd[0] = (blk->inptr[0][0] - blk->x[0]) / blk->rpar[0];
}

static const bsim_block_type type_lag = {
    "TEST_LAG",
    "test_lag",
    "First-order lag tau x' = u - x (test plugin).",
    "y = x with tau x' = u - x; rpar = [tau], x0 = [x0].",
    lag_params,
    2,
    lag_define,
    lag_fn,
    0};

/* ---- TEST_POLY: y = a u^2 + b, any size (parameters: poly.c) ---------- */

static void poly_fn(bsim_block *blk, int flag) {
  if (flag != BSIM_FLAG_OUTPUTS) return;
  const double *u = blk->inptr[0];
  double *y = blk->outptr[0];
  for (int i = 0, n = bsim_std_insize(blk, 0); i < n; i++) {
    y[i] = blk->rpar[0] * u[i] * u[i] + blk->rpar[1];
    if (!isfinite(y[i])) bsim_std_numeric_failure(blk, "overflow");
  }
}

static const bsim_block_type type_poly = {"TEST_POLY",
                                          "test_poly",
                                          "y = a u^2 + b (test plugin).",
                                          "Element-wise; rpar = [a; b].",
                                          test_poly_params,
                                          2,
                                          test_poly_define,
                                          poly_fn,
                                          0};

static const bsim_block_type *const types[] = {&type_lag, &type_poly};

int bsim_plugin_init(bsim_library *lib, bsim_error *err) {
  if (bsim_library_add(lib, types, 2, err)) return -1;
  return bsim_library_add_engine(lib, &test_engine_heun, err);
}
