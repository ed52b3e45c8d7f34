/*
 * Discrete blocks: state that changes only at activations (the unit delay,
 * sample-and-hold, discrete linear systems, the counter). Their outputs are
 * written when the block is activated and *held* in between: the scheduler
 * may ask any block for outputs (flag 1 with nevprt = 0) while settling a
 * diagram or integrating, and a held value must not follow its input then.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blocks/std.h"

/* -------------------------------------------- DOLLAR_m, DOLLAR, DOLLAR_f */

static const bsim_param_spec dollar_params[] = {
    {"x0", BSIM_PARAM_REAL, "0",
     "initial output (scalar, vector or matrix; its size is the ports')"},
    {"inherit", BSIM_PARAM_REAL, "0",
     "0: one event input activates the block; 1: no event input, the block "
     "runs whenever the block feeding it does"},
};

static int dollar_define(bsim_define_ctx *ctx, bsim_model *m) {
  const bsim_value *x0 = bsim_param(ctx, "x0");
  int inherit, n = bsim_std_numel(x0);
  if (n == 0)
    return bsim_define_error(ctx, "'x0' must have at least one element");
  if (bsim_std_int(ctx, "inherit", 0, &inherit) != 0) return -1;
  if (inherit > 1)
    return bsim_define_error(ctx, "'inherit' must be 0 or 1, got %d", inherit);
  double *z = bsim_model_alloc_z0(m, n);
  if (!z || bsim_model_set_inputs(m, 1, x0->rows, x0->cols, 0) != 0 ||
      bsim_model_set_outputs(m, 1, x0->rows, x0->cols) != 0 ||
      bsim_model_set_events(m, inherit ? 0 : 1, 0) != 0)
    return bsim_define_error(ctx, "out of memory");
  memcpy(z, x0->v, (size_t)n * sizeof *z);
  return 0;
}

/* y = z when activated (and at the start, so that x0 is out before the
 * first activation); z = u at the update. Other requests for outputs hold
 * y, as Xcos never runs the block then: right after an activation z holds
 * the new input, which must not show before the next one. */
static void dollar_fn(bsim_block *blk, int flag) {
  if (flag == BSIM_FLAG_INIT &&
      (blk->nin < 1 || blk->nout < 1 || bsim_std_insize(blk, 0) != blk->nz ||
       bsim_std_outsize(blk, 0) != blk->nz)) {
    bsim_block_error(blk, "input and output must have %d elements (x0)",
                     blk->nz);
    return;
  }
  if ((flag == BSIM_FLAG_OUTPUTS && blk->nevprt != 0) ||
      flag == BSIM_FLAG_INIT || flag == BSIM_FLAG_REINIT)
    memcpy(blk->outptr[0], blk->z, (size_t)blk->nz * sizeof(double));
  else if (flag == BSIM_FLAG_UPDATE)
    memcpy(blk->z, blk->inptr[0], (size_t)blk->nz * sizeof(double));
}

#define DOLLAR_DOC                                                             \
  "Unit delay: the output is the input of the previous activation, x0\n"       \
  "before the first one, held between activations. Ports have the size\n"      \
  "of x0. Not direct feedthrough, so it breaks algebraic loops.\n"             \
  "Run-time layout: z0 = x0(:), in = out = rows(x0), in2 = out2 =\n"           \
  "cols(x0), dep_u = 0, nevin = 1 (0 with inherit = 1), rpar and ipar\n"       \
  "empty."

static const bsim_block_type bsim_type_DOLLAR_m = {
    "DOLLAR_m",
    "dollar4_m",
    "Unit delay 1/z.",
    DOLLAR_DOC "\nXcos keeps a matrix x0 in odstate; we keep it in z.",
    dollar_params,
    2,
    dollar_define,
    dollar_fn,
    0,
    "x0,inherit"};

static const bsim_block_type bsim_type_DOLLAR = {
    "DOLLAR",      "dollar4",     "Unit delay 1/z (same as DOLLAR_m).",
    DOLLAR_DOC,    dollar_params, 2,
    dollar_define, dollar_fn,     0,
    "x0,inherit"};

static const bsim_block_type bsim_type_DOLLAR_f = {
    "DOLLAR_f",    "dollar",      "Unit delay 1/z (older interface).",
    DOLLAR_DOC,    dollar_params, 2,
    dollar_define, dollar_fn,     0,
    "x0,inherit"};

/* -------------------------------------------------------------- SAMPHOLD_m */

static int samphold_define(bsim_define_ctx *ctx, bsim_model *m) {
  if (bsim_model_set_inputs(m, 1, -1, -2, 1) != 0 ||
      bsim_model_set_outputs(m, 1, -1, -2) != 0 ||
      bsim_model_set_events(m, 1, 0) != 0)
    return bsim_define_error(ctx, "out of memory");
  return 0;
}

void bsim_std_samphold_fn(bsim_block *blk, int flag) {
  if (flag == BSIM_FLAG_INIT) {
    if (blk->nin < 1 || blk->nout < 1 ||
        bsim_std_insize(blk, 0) != bsim_std_outsize(blk, 0))
      bsim_block_error(blk, "input and output must have the same size");
    return;
  }
  /* Only the activation samples; any other request for outputs holds. */
  if (flag == BSIM_FLAG_OUTPUTS && blk->nevprt != 0)
    memcpy(blk->outptr[0], blk->inptr[0],
           (size_t)bsim_std_outsize(blk, 0) * sizeof(double));
}

static const bsim_block_type bsim_type_SAMPHOLD_m = {
    "SAMPHOLD_m",
    "samphold4_m",
    "Sample and hold: y = u at each activation, held in between.",
    "Copies its input to its output when activated and holds it until the\n"
    "next activation (0 before the first). Any size; direct feedthrough.\n"
    "Run-time layout: in = -1, in2 = -2, out = -1, out2 = -2, dep_u = 1,\n"
    "nevin = 1, rpar and ipar empty (only real data: Xcos's datatype\n"
    "parameter is not offered).",
    NULL,
    0,
    samphold_define,
    bsim_std_samphold_fn,
    0,
    "=1"};

/* ------------------------------------------------- dsslti4: DLR, DLSS */

/* x+ = A x + B u, y = C x + D u, with rpar = [A(:); B(:); C(:); D(:)], n =
 * nz states, m input and p output elements. */
typedef struct lti_dims {
  int n, m, p;
  const double *A, *B, *C, *D;
} lti_dims;

static int lti_layout(const bsim_block *blk, lti_dims *d) {
  d->n = blk->nz;
  d->m = blk->nin ? bsim_std_insize(blk, 0) : 0;
  d->p = blk->nout ? bsim_std_outsize(blk, 0) : 0;
  d->A = blk->rpar;
  d->B = d->A + d->n * d->n;
  d->C = d->B + d->n * d->m;
  d->D = d->C + d->p * d->n;
  return blk->nrpar == d->n * d->n + d->n * d->m + d->p * d->n + d->p * d->m;
}

static void dsslti_fn(bsim_block *blk, int flag) {
  lti_dims d;
  int fits = lti_layout(blk, &d);
  double *tmp = (double *)*blk->work;
  switch (flag) {
  case BSIM_FLAG_INIT:
    if (!fits) {
      bsim_block_error(blk,
                       "rpar has %d entries; %d states, %d inputs and %d "
                       "outputs need %d",
                       blk->nrpar, d.n, d.m, d.p,
                       d.n * d.n + d.n * d.m + d.p * d.n + d.p * d.m);
      return;
    }
    /* The update needs the old state while writing the new one. */
    if (!tmp && d.n > 0) {
      tmp = malloc((size_t)d.n * sizeof *tmp);
      if (!tmp) {
        bsim_block_error(blk, "out of memory");
        return;
      }
      *blk->work = tmp;
    }
    break;
  case BSIM_FLAG_OUTPUTS:
  case BSIM_FLAG_REINIT:
    /* Xcos computes y only when the block runs; held otherwise. */
    if (!fits || (flag == BSIM_FLAG_OUTPUTS && blk->nevprt == 0)) return;
    for (int i = 0; i < d.p; i++) {
      double y = 0;
      for (int j = 0; j < d.n; j++)
        y += d.C[i + d.p * j] * blk->z[j];
      for (int j = 0; j < d.m; j++)
        y += d.D[i + d.p * j] * blk->inptr[0][j];
      blk->outptr[0][i] = y;
    }
    break;
  case BSIM_FLAG_UPDATE:
    if (!fits || (d.n > 0 && !tmp)) return;
    for (int i = 0; i < d.n; i++) {
      double x = 0;
      for (int j = 0; j < d.n; j++)
        x += d.A[i + d.n * j] * blk->z[j];
      for (int j = 0; j < d.m; j++)
        x += d.B[i + d.n * j] * blk->inptr[0][j];
      tmp[i] = x;
    }
    if (d.n > 0) memcpy(blk->z, tmp, (size_t)d.n * sizeof *tmp);
    break;
  case BSIM_FLAG_END:
    free(tmp);
    *blk->work = NULL;
    break;
  default:
    break;
  }
}

static const bsim_param_spec dlr_params[] = {
    {"num", BSIM_PARAM_POLY, "[1]",
     "numerator: a polynomial in z (\"1+z\") or its coefficients, highest "
     "power first"},
    {"den", BSIM_PARAM_POLY, "[1 1]",
     "denominator: a polynomial in z (\"0.5+z\") or its coefficients, "
     "highest power first"},
};

static int dlr_define(bsim_define_ctx *ctx, bsim_model *m) {
  return bsim_std_tf_model(ctx, m, 1);
}

#define DLR_DOC                                                                \
  "A SISO discrete transfer function num(z)/den(z), polynomials in z as\n"     \
  "Xcos's dialog takes them (num = 1, den = z-0.5) or coefficient vectors\n"   \
  "highest power first (den = [1 -0.5]): 1/(z - 0.5). It must\n"               \
  "be proper. At each activation y = C x + D u is output, then the state\n"    \
  "moves to x+ = A x + B u. Realised as Scilab's DLR does: the\n"              \
  "controllable canonical form of cont_frm with den made monic.\n"             \
  "Run-time layout: rpar = [A(:); B(:); C(:); D], z0 = zeros(n), in = out\n"   \
  "= 1, in2 = out2 = 1, dep_u = (D <> 0), nevin = 1."

static const bsim_block_type bsim_type_DLR = {
    "DLR",      "dsslti4",  "Discrete transfer function num(z)/den(z).",
    DLR_DOC,    dlr_params, 2,
    dlr_define, dsslti_fn,  0,
    "num,den"};

static const bsim_block_type bsim_type_DLR_f = {
    "DLR_f",
    "dsslti",
    "Discrete transfer function (older interface of DLR).",
    DLR_DOC,
    dlr_params,
    2,
    dlr_define,
    dsslti_fn,
    0,
    "num,den"};

static int dlss_define(bsim_define_ctx *ctx, bsim_model *m) {
  return bsim_std_ss_model(ctx, m, 1);
}

static const bsim_block_type bsim_type_DLSS = {
    "DLSS",
    "dsslti4",
    "Discrete state-space system: x+ = A x + B u, y = C x + D u.",
    "A discrete linear system with n states, m = cols(B) inputs (one\n"
    "vector port) and p = rows(C) outputs (one vector port). At each\n"
    "activation y = C x + D u is output, then x moves to A x + B u; the\n"
    "output is held between activations.\n"
    "Run-time layout: rpar = [A(:); B(:); C(:); D(:)] (column-major),\n"
    "z0 = x0(:), in = m, out = p, in2 = out2 = 1, dep_u = (D has a nonzero\n"
    "entry), nevin = 1.",
    bsim_std_ss_params,
    5,
    dlss_define,
    dsslti_fn,
    0,
    "A,B,C,D,x0"};

/* ----------------------------------------------------------------- Counter */

static const bsim_param_spec counter_params[] = {
    {"minimum", BSIM_PARAM_REAL, "0", "lowest count (integer)"},
    {"maximum", BSIM_PARAM_REAL, "2", "highest count (integer >= minimum)"},
    {"rule", BSIM_PARAM_REAL, "1",
     "1: count up from minimum, 2: count down from maximum"},
};

static int counter_define(bsim_define_ctx *ctx, bsim_model *m) {
  double lo, hi, rule;
  if (bsim_std_scalar(ctx, "minimum", &lo) ||
      bsim_std_scalar(ctx, "maximum", &hi) ||
      bsim_std_scalar(ctx, "rule", &rule))
    return -1;
  if (lo != floor(lo) || hi != floor(hi) || fabs(lo) > 1e9 || fabs(hi) > 1e9)
    return bsim_define_error(ctx,
                             "'minimum' and 'maximum' must be integers, got "
                             "%g and %g",
                             lo, hi);
  if (hi < lo)
    return bsim_define_error(
        ctx, "'maximum' (%g) must not be less than 'minimum' (%g)", hi, lo);
  if (rule != 1 && rule != 2)
    return bsim_define_error(ctx, "'rule' must be 1 (up) or 2 (down), got %g",
                             rule);
  int *ip = bsim_model_alloc_ipar(m, 3);
  if (!ip || !bsim_model_alloc_z0(m, 1) ||
      bsim_model_set_outputs(m, 1, 1, 1) != 0 ||
      bsim_model_set_events(m, 1, 0) != 0)
    return bsim_define_error(ctx, "out of memory");
  ip[0] = (int)rule;
  ip[1] = (int)hi;
  ip[2] = (int)lo;
  return 0;
}

/* z counts the activations modulo the range; y maps it to the count. */
static void counter_fn(bsim_block *blk, int flag) {
  if (flag == BSIM_FLAG_INIT) {
    if (blk->nipar < 3 || blk->nz < 1 || blk->nout < 1 ||
        blk->ipar[1] < blk->ipar[2])
      bsim_block_error(blk, "ipar must hold [rule; maximum; minimum] with "
                            "maximum >= minimum, and z one element");
    else if (!(fabs(blk->z[0]) <= 1e15)) /* converted to long below */
      bsim_block_error(blk, "the count z(1) = %g is out of range", blk->z[0]);
    return;
  }
  if (blk->nipar < 3 || blk->nz < 1) return;
  long lo = blk->ipar[2], hi = blk->ipar[1];
  if (flag == BSIM_FLAG_OUTPUTS && blk->nevprt != 0) {
    long k = (long)blk->z[0];
    blk->outptr[0][0] = (double)(blk->ipar[0] == 1 ? lo + k : hi - k);
  } else if (flag == BSIM_FLAG_UPDATE) {
    blk->z[0] = (double)(((long)blk->z[0] + 1) % (hi - lo + 1));
  }
}

static const bsim_block_type bsim_type_Counter = {
    "Counter",
    "counter",
    "Counts activations between a minimum and a maximum, wrapping around.",
    "At each activation outputs the current count and then advances it:\n"
    "rule 1 counts minimum, minimum+1, ..., maximum, minimum, ...; rule 2\n"
    "counts maximum, maximum-1, ..., minimum, maximum, ... The output is 0\n"
    "before the first activation and held between activations.\n"
    "Run-time layout: ipar = [rule; maximum; minimum], z0 = [0] (activations\n"
    "modulo maximum-minimum+1), out = 1, out2 = 1, nevin = 1.",
    counter_params,
    3,
    counter_define,
    counter_fn,
    0,
    "minimum,maximum,rule"};

/* DLSS before DLR: "dsslti4" then finds the general state-space form. */
const bsim_block_type *const bsim_discrete_types[] = {
    &bsim_type_DOLLAR_m,   &bsim_type_DOLLAR,  &bsim_type_DOLLAR_f,
    &bsim_type_SAMPHOLD_m, &bsim_type_DLSS,    &bsim_type_DLR,
    &bsim_type_DLR_f,      &bsim_type_Counter,
};
const int bsim_discrete_ntypes =
    (int)(sizeof bsim_discrete_types / sizeof bsim_discrete_types[0]);
