/*
 * Signal routing: MUX / DEMUX (one computational function, Xcos's
 * "multiplex", for both directions) and the superblock ports IN_f / OUT_f,
 * which carry only their port number and are dissolved by the flattener.
 */
#include <math.h>
#include <string.h>

#include "blocks/std.h"

/* ------------------------------------------------------------ MUX / DEMUX */

/* The "number of ports or vector of sizes" parameter: fills sizes[] with
 * -1, -2, ... (each port its own unknown size) for a count, or with the
 * given sizes, and *total with their sum (0 when some size is unknown, the
 * convention for "sum of the other side"). */
static int port_sizes(bsim_define_ctx *ctx, const char *name, int max,
                      int *sizes, int *count, int *total) {
  const bsim_value *p = bsim_param(ctx, name);
  int n = bsim_std_numel(p);
  if (n == 1) {
    double c = p->v[0];
    if (c != floor(c) || c < 2 || c > max)
      return bsim_define_error(
          ctx, "'%s' must be between 2 and %d ports, got %g", name, max, c);
    *count = (int)c;
    for (int i = 0; i < *count; i++)
      sizes[i] = -(i + 1);
    *total = 0;
    return 0;
  }
  if (n < 2 || n > max)
    return bsim_define_error(
        ctx, "'%s' must give between 2 and %d port sizes, got %d", name, max,
        n);
  int unknown = 0, sum = 0;
  for (int i = 0; i < n; i++) {
    double s = p->v[i];
    if (s == 0 || s != floor(s) || fabs(s) > 1e6)
      return bsim_define_error(
          ctx, "'%s': port size %d must be a nonzero integer, got %g", name,
          i + 1, s);
    sizes[i] = (int)s;
    if (s < 0)
      unknown = 1;
    else
      sum += (int)s;
  }
  *count = n;
  *total = unknown ? 0 : sum;
  return 0;
}

static const bsim_param_spec mux_params[] = {
    {"in", BSIM_PARAM_REAL, "2",
     "number of inputs (2..31), or a vector with the size of each input"},
};

int bsim_std_mux_model(bsim_define_ctx *ctx, bsim_model *m, const char *name,
                       int demux, int max_ports) {
  int sizes[31], n = 0, total = 0;
  if (max_ports > 31) max_ports = 31;
  if (port_sizes(ctx, name, max_ports, sizes, &n, &total) != 0) return -1;
  int *ip = bsim_model_alloc_ipar(m, 1);
  int ok = ip != NULL;
  if (demux)
    ok = ok && bsim_model_set_inputs(m, 1, total, 1, 1) == 0 &&
         bsim_model_set_outputs(m, n, 0, 1) == 0;
  else
    ok = ok && bsim_model_set_inputs(m, n, 0, 1, 1) == 0 &&
         bsim_model_set_outputs(m, 1, total, 1) == 0;
  if (!ok) return bsim_define_error(ctx, "out of memory");
  for (int i = 0; i < n; i++)
    (demux ? m->out : m->in)[i] = sizes[i];
  ip[0] = n;
  return 0;
}

static int mux_define(bsim_define_ctx *ctx, bsim_model *m) {
  return bsim_std_mux_model(ctx, m, "in", 0, 31);
}

static const bsim_param_spec demux_params[] = {
    {"out", BSIM_PARAM_REAL, "2",
     "number of outputs (2..31), or a vector with the size of each output"},
};

static int demux_define(bsim_define_ctx *ctx, bsim_model *m) {
  return bsim_std_mux_model(ctx, m, "out", 1, 31);
}

/* One input: split it over the outputs (DEMUX); several: stack them into
 * the one output (MUX). */
void bsim_std_multiplex_fn(bsim_block *blk, int flag) {
  int split = blk->nin == 1;
  if (flag == BSIM_FLAG_INIT) {
    int a = 0, b = 0;
    for (int k = 0; k < blk->nin; k++)
      a += bsim_std_insize(blk, k);
    for (int k = 0; k < blk->nout; k++)
      b += bsim_std_outsize(blk, k);
    if (a != b)
      bsim_block_error(blk, "inputs carry %d elements but outputs %d", a, b);
    else if (!split && blk->nin > 0 && blk->nout > 1)
      /* what the outputs pass stacks into output 1 */
      bsim_block_error(blk,
                       "%d inputs are stacked into one output, not %d "
                       "(a stored model's ports?)",
                       blk->nin, blk->nout);
    return;
  }
  if (flag == BSIM_FLAG_JACOBIAN) {
    /* the stacked outputs are the stacked inputs: an identity */
    int n = 0;
    for (int k = 0; k < blk->nin; k++)
      n += bsim_std_insize(blk, k);
    for (int i = 0; i < n; i++)
      blk->jac[i + n * i] = 1.0;
    return;
  }
  if (flag != BSIM_FLAG_OUTPUTS && flag != BSIM_FLAG_REINIT) return;
  int off = 0;
  if (split) {
    for (int k = 0; k < blk->nout; k++) {
      int n = bsim_std_outsize(blk, k);
      memcpy(blk->outptr[k], blk->inptr[0] + off, (size_t)n * sizeof(double));
      off += n;
    }
  } else {
    for (int k = 0; k < blk->nin; k++) {
      int n = bsim_std_insize(blk, k);
      memcpy(blk->outptr[0] + off, blk->inptr[k], (size_t)n * sizeof(double));
      off += n;
    }
  }
}

const bsim_block_type bsim_type_MUX = {
    "MUX",
    "multiplex",
    "Stack several vector inputs into one output vector.",
    "The output is the concatenation of the inputs, in port order.\n"
    "Run-time layout: ipar = [number of inputs], in = -[1..n] (each its own\n"
    "unknown size) or the given sizes, in2 = 1, out = 0 (the sum of the\n"
    "inputs; the sum itself when all sizes are given), out2 = 1.\n"
    "Direct feedthrough.",
    mux_params,
    1,
    mux_define,
    bsim_std_multiplex_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    "in"};

const bsim_block_type bsim_type_DEMUX = {
    "DEMUX",
    "multiplex",
    "Split one input vector over several outputs.",
    "The outputs take consecutive slices of the input, in port order.\n"
    "Run-time layout: ipar = [number of outputs], out = -[1..n] or the\n"
    "given sizes, out2 = 1, in = 0 (the sum of the outputs; the sum itself\n"
    "when all sizes are given), in2 = 1. Direct feedthrough.",
    demux_params,
    1,
    demux_define,
    bsim_std_multiplex_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    "out"};

/* ------------------------------------------------------------ IN_f, OUT_f */

static const bsim_param_spec port_params[] = {
    {"port", BSIM_PARAM_REAL, "1",
     "number (from 1) of the superblock port this block stands for"},
};

static int in_define(bsim_define_ctx *ctx, bsim_model *m) {
  int port;
  if (bsim_std_int(ctx, "port", 1, &port) != 0) return -1;
  int *ip = bsim_model_alloc_ipar(m, 1);
  if (!ip || bsim_model_set_outputs(m, 1, -1, -2) != 0)
    return bsim_define_error(ctx, "out of memory");
  ip[0] = port;
  return 0;
}

static int out_define(bsim_define_ctx *ctx, bsim_model *m) {
  int port;
  if (bsim_std_int(ctx, "port", 1, &port) != 0) return -1;
  int *ip = bsim_model_alloc_ipar(m, 1);
  if (!ip || bsim_model_set_inputs(m, 1, -1, -2, 0) != 0)
    return bsim_define_error(ctx, "out of memory");
  ip[0] = port;
  return 0;
}

/* Ports never run: flattening replaces them by links. */
static void port_fn(bsim_block *blk, int flag) {}

const bsim_block_type bsim_type_IN_f = {
    "IN_f",
    "input",
    "Superblock input port.",
    "Inside a superblock, stands for the superblock's input number 'port':\n"
    "its one output carries what is linked to that input outside. Dissolved\n"
    "by flattening.\n"
    "Run-time layout: ipar = [port], no inputs, out = -1, out2 = -2.",
    port_params,
    1,
    in_define,
    port_fn,
    BSIM_TYPE_PORT};

const bsim_block_type bsim_type_OUT_f = {
    "OUT_f",
    "output",
    "Superblock output port.",
    "Inside a superblock, stands for the superblock's output number 'port':\n"
    "what is linked to its one input leaves the superblock there. Dissolved\n"
    "by flattening.\n"
    "Run-time layout: ipar = [port], in = -1, in2 = -2, no outputs.",
    port_params,
    1,
    out_define,
    port_fn,
    BSIM_TYPE_PORT};
