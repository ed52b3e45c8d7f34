/*
 * An example block library: a tank (a block written as blocksim's own
 * blocks are) and a valve (an Xcos type-4 function in valve.c, kept as
 * Xcos users write them), registered by the plugin's entry point.
 *
 * TANK: level h of a tank of section A filled by the inflow u and emptied
 * through an outlet, A h' = u - k h; output h. Parameters A, k, h0.
 */
#include <blocksim/plugin.h>
#include <blocksim/scicos_block4.h>

BSIM_PLUGIN_DECLARE_ABI;

static const bsim_param_spec tank_params[] = {
    {"A", BSIM_PARAM_REAL, "1", "section of the tank (m2), > 0"},
    {"k", BSIM_PARAM_REAL, "0.5", "outlet coefficient (m2/s), >= 0"},
    {"h0", BSIM_PARAM_REAL, "0", "initial level (m)"},
};

static int tank_define(bsim_define_ctx *ctx, bsim_model *m) {
  double A, k, h0;
  if (bsim_std_scalar(ctx, "A", &A) || bsim_std_scalar(ctx, "k", &k) ||
      bsim_std_scalar(ctx, "h0", &h0))
    return -1;
  if (!(A > 0) || k < 0)
    return bsim_define_error(ctx, "needs A > 0 and k >= 0 (got A=%g, k=%g)", A,
                             k);
  double *rpar = bsim_model_alloc_rpar(m, 2), *x0 = bsim_model_alloc_x0(m, 1);
  if (!rpar || !x0 || bsim_model_set_inputs(m, 1, 1, 1, 0) ||
      bsim_model_set_outputs(m, 1, 1, 1))
    return bsim_define_error(ctx, "out of memory");
  rpar[0] = A;
  rpar[1] = k;
  x0[0] = h0;
  return 0;
}

static void tank_fn(bsim_block *blk, int flag) {
  switch (flag) {
  case BSIM_FLAG_INIT:
    /* An Xcos file naming TANK may store a model of its own: check what
     * the other flags index (one state, A and k, a scalar in and out;
     * flag 10 writes a 2 x 2 matrix) before any of them runs. */
    if (blk->nx != 1 || blk->nrpar < 2 || blk->nin < 1 || blk->nout < 1 ||
        blk->insz[0] * blk->insz[blk->nin] != 1 ||
        blk->outsz[0] * blk->outsz[blk->nout] != 1)
      bsim_block_error(blk, "needs 1 state, rpar = [A; k] and a scalar input "
                            "and output");
    break;
  case BSIM_FLAG_OUTPUTS:
  case BSIM_FLAG_REINIT:
    blk->outptr[0][0] = blk->x[0];
    break;
  case BSIM_FLAG_DERIVATIVES:
    blk->xd[0] = (blk->inptr[0][0] - blk->rpar[1] * blk->x[0]) / blk->rpar[0];
    break;
  case BSIM_FLAG_JACOBIAN: /* [dxd/dx dxd/du; dy/dx dy/du] */
    blk->jac[0] = -blk->rpar[1] / blk->rpar[0];
    blk->jac[1] = 1.0;
    blk->jac[2] = 1.0 / blk->rpar[0];
    break;
  default:
    break;
  }
}

static const bsim_block_type tank = {
    "TANK",
    "tank",
    "Tank level: A h' = u - k h (example plugin).",
    "The level h of a tank of section A fed by the inflow u (input 1) and\n"
    "emptied through an outlet with flow k h. Output: h.\n"
    "Run-time layout: rpar = [A; k], x0 = [h0].",
    tank_params,
    3,
    tank_define,
    tank_fn,
    BSIM_TYPE_JACOBIAN};

/* valve.c, as written for Xcos */
void ex_valve(scicos_block *block, int flag);
BSIM_SCICOS4_TYPE(ex_valve, "Valve opening at a level (example plugin).");

int bsim_plugin_init(bsim_library *lib, bsim_error *err) {
  static const bsim_block_type *const types[] = {&tank,
                                                 &BSIM_SCICOS4(ex_valve)};
  return bsim_library_add(lib, types, 2, err);
}
