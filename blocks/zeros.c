/*
 * A zero signal whose size is inferred from what it feeds. Xcos gives an
 * unconnected input of SUM_f / SOM_f a buffer of zeros instead of an
 * error; the Xcos reader wires this block there to do the same, and a
 * native diagram may use it as a placeholder.
 */
#include <string.h>

#include "blocks/std.h"

static int zeros_define(bsim_define_ctx *ctx, bsim_model *m) {
  if (bsim_model_set_outputs(m, 1, -1, -2) != 0)
    return bsim_define_error(ctx, "out of memory");
  return 0;
}

static void zeros_fn(bsim_block *blk, int flag) {
  /* a file's stored model may lack a port */
  if (bsim_std_lacks_ports(blk, flag, 0, 1)) return;
  if (flag == BSIM_FLAG_OUTPUTS || flag == BSIM_FLAG_REINIT)
    memset(blk->outptr[0], 0,
           (size_t)bsim_std_outsize(blk, 0) * sizeof(double));
}

static const bsim_block_type type_ZEROS = {
    "ZEROS",
    "zeros",
    "Zeros: a constant zero signal of any size.",
    "Outputs zeros, as many as the port it feeds needs (rows and columns\n"
    "are inferred from the link). The Xcos reader wires one to each\n"
    "unconnected input of SUM_f and SOM_f, which Scilab reads as zero.\n"
    "Run-time layout: no parameters, no inputs, out = -1, out2 = -2.",
    NULL,
    0,
    zeros_define,
    zeros_fn,
    0,
    ""};

const bsim_block_type *const bsim_zeros_types[] = {&type_ZEROS};
const int bsim_zeros_ntypes =
    (int)(sizeof bsim_zeros_types / sizeof bsim_zeros_types[0]);
