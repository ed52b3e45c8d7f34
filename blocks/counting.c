/*
 * Blocks that count activations or tell them apart: Modulo_Count (a
 * counter modulo N), freq_div (every N-th activation passes, Xcos's
 * frequency divider), ANDLOG_f (were both event inputs activated by one
 * same event?) and SELECT_f (the output copies the input whose event came
 * last). Their outputs change only at their activations and hold in
 * between, as in Xcos where nothing else ever runs them; a request for
 * outputs without activation (nevprt = 0) therefore writes nothing.
 */
#include <math.h>
#include <string.h>

#include "blocks/std.h"

/* The parameter as Scilab's int() leaves it: truncated toward zero. */
static int truncated(bsim_define_ctx *ctx, const char *name, double *out) {
  if (bsim_std_scalar(ctx, name, out) != 0) return -1;
  if (fabs(*out) > 1e9)
    return bsim_define_error(ctx, "'%s' must be below 1e9, got %g", name, *out);
  *out = trunc(*out);
  return 0;
}

/* ------------------------------------------------------------ Modulo_Count */

static const bsim_param_spec modulo_params[] = {
    {"initial-state", BSIM_PARAM_REAL, "0",
     "the count before the first activation (an integer >= 0; a fraction "
     "is dropped, as Scilab's int())"},
    {"modulus", BSIM_PARAM_REAL, "3",
     "the count runs 0, 1, ..., modulus - 1, 0, ... (an integer >= 1; "
     "Xcos's 'Upper Limit')"},
};

static int modulo_define(bsim_define_ctx *ctx, bsim_model *m) {
  double ini, base;
  if (truncated(ctx, "initial-state", &ini) || truncated(ctx, "modulus", &base))
    return -1;
  if (ini < 0)
    return bsim_define_error(ctx, "'initial-state' must be >= 0, got %g", ini);
  if (base <= 0)
    return bsim_define_error(ctx, "'modulus' must be >= 1, got %g", base);
  int *ip = bsim_model_alloc_ipar(m, 1);
  double *z = bsim_model_alloc_z0(m, 1);
  if (!ip || !z || bsim_model_set_outputs(m, 1, 1, 1) != 0 ||
      bsim_model_set_events(m, 1, 0) != 0)
    return bsim_define_error(ctx, "out of memory");
  ip[0] = (int)base;
  z[0] = ini;
  return 0;
}

/* y = count at the activation, then count = (count + 1) mod N; y is 0
 * before the first activation, as Xcos's buffers start. */
static void modulo_fn(bsim_block *blk, int flag) {
  if (flag == BSIM_FLAG_INIT) {
    if (blk->nipar < 1 || blk->ipar[0] < 1 || blk->nz < 1 || blk->nout < 1)
      bsim_block_error(blk, "needs ipar = [modulus >= 1], z = [count] and "
                            "one output");
    else
      blk->outptr[0][0] = 0;
  } else if (flag == BSIM_FLAG_OUTPUTS && blk->nevprt != 0) {
    blk->outptr[0][0] = blk->z[0];
  } else if (flag == BSIM_FLAG_UPDATE && blk->nevprt != 0) {
    blk->z[0] = (double)((1 + (int)blk->z[0]) % blk->ipar[0]);
  }
}

static const bsim_block_type bsim_type_Modulo_Count = {
    "Modulo_Count",
    "modulo_count",
    "Counter modulo N: outputs 0, 1, ..., N-1, 0, ... at its activations.",
    "At each activation outputs the count, then advances it: count =\n"
    "(count + 1) mod modulus, from initial-state. The output holds between\n"
    "activations and is 0 before the first, as in Xcos. One event input,\n"
    "one scalar output.\n"
    "Run-time layout: ipar = [modulus], z0 = [initial-state], out = out2 =\n"
    "1, nevin = 1, dep_u and dep_t false.",
    modulo_params,
    2,
    modulo_define,
    modulo_fn,
    0,
    "initial-state,modulus"};

/* ---------------------------------------------------------------- freq_div */

static const bsim_param_spec freqdiv_params[] = {
    {"phase", BSIM_PARAM_REAL, "0",
     "which activations pass: those where (phase + k) mod division-factor "
     "is 0, k counting activations from 0 (|phase| is used, at most "
     "division-factor - 1, as Xcos's dialog clamps it)"},
    {"division-factor", BSIM_PARAM_REAL, "3",
     "one activation in division-factor passes (values below 1 count as 1)"},
};

static int freqdiv_define(bsim_define_ctx *ctx, bsim_model *m) {
  double ph, df;
  if (bsim_std_scalar(ctx, "phase", &ph) ||
      bsim_std_scalar(ctx, "division-factor", &df))
    return -1;
  if (fabs(ph) > 1e9 || fabs(df) > 1e9)
    return bsim_define_error(ctx,
                             "'phase' and 'division-factor' must be "
                             "below 1e9, got %g and %g",
                             ph, df);
  /* Xcos's freq_div dialog adjusts rather than refuses. */
  df = trunc(df) < 1 ? 1 : trunc(df);
  ph = fabs(trunc(ph));
  if (ph > df - 1) ph = df - 1;
  int *ip = bsim_model_alloc_ipar(m, 1);
  double *z = bsim_model_alloc_z0(m, 1);
  if (!ip || !z || bsim_model_set_events(m, 1, 1) != 0)
    return bsim_define_error(ctx, "out of memory");
  ip[0] = (int)df;
  z[0] = ph;
  return 0;
}

/* Xcos's freq_div is a Modulo_Count whose count, before it advances, goes
 * to an IFTHEL_f: a count of 0 fires the output, in the same activation
 * (the block is synchronous). */
static void freqdiv_fn(bsim_block *blk, int flag) {
  if (flag == BSIM_FLAG_INIT) {
    if (blk->nipar < 1 || blk->ipar[0] < 1 || blk->nz < 1 || blk->nevout < 1)
      bsim_block_error(blk, "needs ipar = [division factor >= 1], z = "
                            "[count] and one event output");
  } else if (flag == BSIM_FLAG_EVENTS && blk->nevprt != 0) {
    if ((int)blk->z[0] <= 0) blk->evout[0] = 0;
  } else if (flag == BSIM_FLAG_UPDATE && blk->nevprt > 0) {
    blk->z[0] = (double)((1 + (int)blk->z[0]) % blk->ipar[0]);
  }
}

static const bsim_block_type bsim_type_freq_div = {
    "freq_div",
    "freq_div",
    "Frequency divider: one activation in N passes to the output.",
    "Counts its activations modulo division-factor from phase and fires\n"
    "its event output, within the same activation (synchronously, as the\n"
    "IFTHEL_f inside Xcos's freq_div), whenever the count before it\n"
    "advances is 0: with phase 0 the first activation passes, then every\n"
    "division-factor-th. In Xcos a superblock (Modulo_Count and IFTHEL_f)\n"
    "that an .xcos reader dissolves; here one block.\n"
    "Run-time layout (ours; Xcos's inner Modulo_Count has the same ipar\n"
    "and z0): ipar = [division-factor], z0 = [phase], nevin = 1, nevout =\n"
    "1, no data ports.",
    freqdiv_params,
    2,
    freqdiv_define,
    freqdiv_fn,
    BSIM_TYPE_SYNCHRONOUS,
    "phase,division-factor"};

/* ---------------------------------------------------------------- ANDLOG_f */

static int andlog_define(bsim_define_ctx *ctx, bsim_model *m) {
  if (bsim_model_set_outputs(m, 1, 1, 1) != 0 ||
      bsim_model_set_events(m, 2, 0) != 0)
    return bsim_define_error(ctx, "out of memory");
  return 0;
}

static void andlog_fn(bsim_block *blk, int flag) {
  if (flag == BSIM_FLAG_INIT && blk->nout >= 1)
    blk->outptr[0][0] = 0;
  else if (flag == BSIM_FLAG_OUTPUTS && blk->nevprt != 0 && blk->nout >= 1)
    blk->outptr[0][0] = blk->nevprt == 3 ? 1.0 : -1.0;
}

static const bsim_block_type bsim_type_ANDLOG_f = {
    "ANDLOG_f",
    "andlog",
    "Logical and of two event inputs: 1 if both came with one event, else -1.",
    "At each activation outputs 1 when both event inputs were activated\n"
    "by one same event (nevprt = 3: e.g. two inputs fed by one clock, or by\n"
    "simultaneous SampleCLK ticks, which Xcos merges), -1 when only one\n"
    "was. The output holds between activations and is 0 before the first.\n"
    "Two events at the same time from different sources are two\n"
    "activations, as in Xcos. Two event inputs, one scalar output.\n"
    "Run-time layout: rpar and ipar empty, out = out2 = 1, nevin = 2,\n"
    "dep_u and dep_t false.",
    NULL,
    0,
    andlog_define,
    andlog_fn,
    0,
    ""};

/* ---------------------------------------------------------------- SELECT_f */

static const bsim_param_spec select_params[] = {
    {"inputs", BSIM_PARAM_REAL, "2",
     "number of data inputs, each with its event input (>= 1)"},
    {"initial-input", BSIM_PARAM_REAL, "1",
     "the input (from 1) copied to the output before any activation"},
};

static int select_define(bsim_define_ctx *ctx, bsim_model *m) {
  int nin, z0;
  if (bsim_std_int(ctx, "inputs", 1, &nin) ||
      bsim_std_int(ctx, "initial-input", 1, &z0))
    return -1;
  if (nin > 31)
    return bsim_define_error(ctx, "'inputs' must be at most 31, got %d", nin);
  if (z0 > nin)
    return bsim_define_error(ctx,
                             "'initial-input' must be a valid input (1 to "
                             "%d), got %d",
                             nin, z0);
  double *z = bsim_model_alloc_z0(m, 1);
  if (!z || bsim_model_set_inputs(m, nin, -1, -2, 1) != 0 ||
      bsim_model_set_outputs(m, 1, -1, -2) != 0 ||
      bsim_model_set_events(m, nin, 0) != 0)
    return bsim_define_error(ctx, "out of memory");
  z[0] = z0 - 1; /* Xcos stores it from 0 */
  return 0;
}

static void select_copy(bsim_block *blk, int k) {
  memcpy(blk->outptr[0], blk->inptr[k],
         sizeof(double) * (size_t)bsim_std_outsize(blk, 0));
}

/* Xcos's selector: an activation copies the input of the highest event
 * input activated; the initial input only at the start. */
static void select_fn(bsim_block *blk, int flag) {
  if (flag == BSIM_FLAG_INIT) {
    for (int k = 0; k < blk->nin; k++)
      if (bsim_std_insize(blk, k) != bsim_std_outsize(blk, 0)) {
        bsim_block_error(blk, "input %d must have the output's size", k + 1);
        return;
      }
    if (blk->nz < 1 || blk->z[0] < 0 || blk->z[0] >= blk->nin)
      bsim_block_error(blk, "z = [initial input from 0] out of range");
  } else if (flag == BSIM_FLAG_REINIT) {
    select_copy(blk, (int)blk->z[0]);
  } else if (flag == BSIM_FLAG_OUTPUTS && blk->nevprt > 0) {
    int k = 0;
    while ((blk->nevprt >> (k + 1)) != 0)
      k++;
    if (k < blk->nin) select_copy(blk, k);
  }
}

static const bsim_block_type bsim_type_SELECT_f = {
    "SELECT_f",
    "selector",
    "Select by event: the output copies the input whose event input fired.",
    "Input i has event input i. At an activation the output copies the\n"
    "input of the activated event input (the highest one if several were\n"
    "activated by one event) and holds it until the next activation; at\n"
    "the start it copies initial-input. Inputs and output of one size\n"
    "(any); direct feedthrough.\n"
    "Run-time layout: z0 = [initial-input - 1], in = -1 and in2 = -2 for\n"
    "each input, out = -1, out2 = -2, nevin = inputs, dep_u true, dep_t\n"
    "false.",
    select_params,
    2,
    select_define,
    select_fn,
    0,
    "inputs,initial-input"};

const bsim_block_type *const bsim_counting_types[] = {
    &bsim_type_Modulo_Count, &bsim_type_freq_div, &bsim_type_ANDLOG_f,
    &bsim_type_SELECT_f};
const int bsim_counting_ntypes =
    (int)(sizeof bsim_counting_types / sizeof bsim_counting_types[0]);
