/*
 * Xcos's older elementary blocks, which its demo diagrams still use: the
 * fixed sums and product (SUM_f, BIGSOM_f, PROD_f), the matrix gains
 * (GAIN_f, GAINBLK_f), the inverse and square root (INVBLK_f, SQRT), the
 * saturation with a slope (SAT_f) and the 8-port MUX_f / DEMUX_f. Their
 * run-time data differ from the newer blocks' (BIGSOM_f keeps its gains in
 * rpar, SAT_f divides its limits by the slope), so they are types of their
 * own; where the semantics are the same as a newer block's, they share its
 * computational function.
 */
#include <math.h>
#include <stdio.h>

#include "blocks/std.h"

static int is_output_flag(int flag) {
  return flag == BSIM_FLAG_OUTPUTS || flag == BSIM_FLAG_REINIT;
}

static int oom(bsim_define_ctx *ctx) {
  return bsim_define_error(ctx, "out of memory");
}

/* Flag 4 of the element-wise blocks: every input has the output's number
 * of elements. */
static void same_sizes(bsim_block *blk) {
  /* a file's stored model may lack a port */
  if (bsim_std_need_ports(blk, 1, 1) != 0) return;
  int n = bsim_std_outsize(blk, 0);
  for (int k = 0; k < blk->nin; k++)
    if (bsim_std_insize(blk, k) != n) {
      bsim_block_error(blk, "input %d has %d elements, the output %d", k + 1,
                       bsim_std_insize(blk, k), n);
      return;
    }
}

/* ------------------------------------------------------- SUM_f, BIGSOM_f */

/* Xcos's "sum" (and "plusblk", which is the same with no rpar): input k
 * weighted by rpar[k], 1 past the end of rpar. */
static double sum_weight(const bsim_block *blk, int k) {
  return k < blk->nrpar ? blk->rpar[k] : 1.0;
}

static void sum_fn(bsim_block *blk, int flag) {
  if (flag == BSIM_FLAG_INIT) {
    same_sizes(blk);
    return;
  }
  /* not at flag 5, which comes also after a flag 4 that found no output */
  if (flag != BSIM_FLAG_JACOBIAN && !is_output_flag(flag)) return;
  int n = bsim_std_outsize(blk, 0);
  if (flag == BSIM_FLAG_JACOBIAN) {
    for (int k = 0; k < blk->nin; k++)
      for (int j = 0; j < n; j++)
        blk->jac[j + n * (n * k + j)] = sum_weight(blk, k);
    return;
  }
  if (!is_output_flag(flag)) return;
  double *y = blk->outptr[0];
  for (int j = 0; j < n; j++) {
    double s = 0;
    for (int k = 0; k < blk->nin; k++)
      s += sum_weight(blk, k) * blk->inptr[k][j];
    y[j] = s;
  }
}

static int sum3_define(bsim_define_ctx *ctx, bsim_model *m) {
  if (bsim_model_set_inputs(m, 3, -1, 1, 1) != 0 ||
      bsim_model_set_outputs(m, 1, -1, 1) != 0)
    return oom(ctx);
  return 0;
}

static const bsim_block_type type_SUM_f = {
    "SUM_f",
    "plusblk",
    "Sum of three inputs.",
    "y = u1 + u2 + u3 element-wise; the three inputs and the output are\n"
    "vectors of the same size. The block has no parameters (Xcos's dialog\n"
    "has none; a stored sign vector in its exprs is ignored, as Xcos does).\n"
    "Run-time layout: rpar and ipar empty, in = [-1; -1; -1], in2 = 1,\n"
    "out = -1, out2 = 1. Direct feedthrough.",
    NULL,
    0,
    sum3_define,
    sum_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    "*"};

static const bsim_param_spec bigsom_params[] = {
    {"gains", BSIM_PARAM_REAL, "[1;1]",
     "one gain per input (usually +1 or -1): y = sum of gains(k) * uk; the "
     "number of entries is the number of inputs"},
};

static int bigsom_define(bsim_define_ctx *ctx, bsim_model *m) {
  const bsim_value *g = bsim_param(ctx, "gains");
  int n = bsim_std_numel(g);
  if (n == 0)
    return bsim_define_error(ctx, "'gains' must have one entry per input");
  double *r = bsim_model_alloc_rpar(m, n);
  if (!r || bsim_model_set_inputs(m, n, -1, 1, 1) != 0 ||
      bsim_model_set_outputs(m, 1, -1, 1) != 0)
    return oom(ctx);
  for (int i = 0; i < n; i++)
    r[i] = g->v[i];
  return 0;
}

static const bsim_block_type type_BIGSOM_f = {
    "BIGSOM_f",
    /* Xcos's name, "sum", is also that of the event union CLKSOMV_f's
     * (an event-only pseudo-function there), which answers to it here */
    "bigsom", "Weighted sum of the inputs.",
    "y = sum_k gains(k) uk element-wise; one input per entry of 'gains',\n"
    "all inputs and the output vectors of the same size. Xcos names its\n"
    "function \"sum\", as it does the event union CLKSOMV_f's; here it is\n"
    "\"bigsom\", and \"sum\" finds CLKSOMV_f.\n"
    "Run-time layout: rpar = gains(:), ipar empty, in = -1 per input,\n"
    "in2 = 1, out = -1, out2 = 1. Direct feedthrough.",
    bigsom_params, 1, bigsom_define, sum_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR, "gains"};

/* ----------------------------------------------------------------- PROD_f */

static void prod_fn(bsim_block *blk, int flag) {
  if (flag == BSIM_FLAG_INIT) {
    same_sizes(blk);
    return;
  }
  /* not at flag 5, which comes also after a flag 4 that found no output */
  if (flag != BSIM_FLAG_JACOBIAN && !is_output_flag(flag)) return;
  int n = bsim_std_outsize(blk, 0);
  if (flag == BSIM_FLAG_JACOBIAN) {
    /* d/duk = product of the other inputs, formed directly so that a zero
     * factor needs no division */
    for (int k = 0; k < blk->nin; k++)
      for (int j = 0; j < n; j++) {
        double p = 1;
        for (int i = 0; i < blk->nin; i++)
          if (i != k) p *= blk->inptr[i][j];
        blk->jac[j + n * (n * k + j)] = p;
      }
    return;
  }
  if (!is_output_flag(flag)) return;
  for (int j = 0; j < n; j++) {
    double p = 1;
    for (int k = 0; k < blk->nin; k++)
      p *= blk->inptr[k][j];
    blk->outptr[0][j] = p;
  }
}

static int prod2_define(bsim_define_ctx *ctx, bsim_model *m) {
  if (bsim_model_set_inputs(m, 2, -1, 1, 1) != 0 ||
      bsim_model_set_outputs(m, 1, -1, 1) != 0)
    return oom(ctx);
  return 0;
}

static const bsim_block_type type_PROD_f = {
    "PROD_f",
    "prod",
    "Element-wise product of two inputs.",
    "y = u1 .* u2; both inputs and the output are vectors of the same\n"
    "size. No parameters.\n"
    "Run-time layout: rpar and ipar empty, in = [-1; -1], in2 = 1,\n"
    "out = -1, out2 = 1. Direct feedthrough.",
    NULL,
    0,
    prod2_define,
    prod_fn,
    BSIM_TYPE_JACOBIAN,
    ""};

/* ------------------------------------------------------ GAIN_f, GAINBLK_f */

static const bsim_param_spec gainf_params[] = {
    {"gain", BSIM_PARAM_REAL, "1",
     "m x n matrix G (a scalar is 1 x 1): y = G u, u has n elements, y m"},
};

static int gainf_define(bsim_define_ctx *ctx, bsim_model *m) {
  const bsim_value *g = bsim_param(ctx, "gain");
  int n = bsim_std_numel(g);
  if (n == 0)
    return bsim_define_error(ctx, "'gain' must have at least one element");
  double *r = bsim_model_alloc_rpar(m, n);
  if (!r || bsim_model_set_inputs(m, 1, g->cols, 1, 1) != 0 ||
      bsim_model_set_outputs(m, 1, g->rows, 1) != 0)
    return oom(ctx);
  for (int i = 0; i < n; i++)
    r[i] = g->v[i];
  return 0;
}

#define GAINF_DOC                                                              \
  "y = G u, the matrix product: u is a vector of cols(G) elements, y of\n"     \
  "rows(G). A scalar gain takes and gives scalars (unlike GAINBLK, whose\n"    \
  "scalar gain applies to any size).\n"                                        \
  "Run-time layout: rpar = G(:) (column-major), in = cols(G), in2 = 1,\n"      \
  "out = rows(G), out2 = 1. Direct feedthrough."

static const bsim_block_type type_GAIN_f = {
    "GAIN_f", "gain", "Matrix gain: y = G u (vectors).", GAINF_DOC,
    gainf_params, 1, gainf_define, bsim_std_gain_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    /* Xcos stores the input and output sizes after the gain; they follow
     * from it */
    "gain,-,-"};

static const bsim_block_type type_GAINBLK_f = {
    "GAINBLK_f",  "gain",           "Matrix gain: y = G u (vectors).",
    GAINF_DOC,    gainf_params,     1,
    gainf_define, bsim_std_gain_fn, BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    "gain"};

/* --------------------------------------------------------------- INVBLK_f */

static void invblk_fn(bsim_block *blk, int flag) {
  if (flag == BSIM_FLAG_INIT) same_sizes(blk);
  if (flag != BSIM_FLAG_JACOBIAN && !is_output_flag(flag)) return;
  int n = bsim_std_outsize(blk, 0);
  const double *u = blk->inptr[0];
  if (flag == BSIM_FLAG_JACOBIAN || is_output_flag(flag)) {
    for (int i = 0; i < n; i++)
      if (u[i] == 0) {
        /* Xcos keeps the previous output during the initial fixed point
         * and fails later; so do we */
        if (flag == BSIM_FLAG_REINIT) continue;
        char what[96];
        snprintf(what, sizeof what, "1/u with u = 0 (element %d)", i + 1);
        bsim_std_numeric_failure(blk, what);
        return;
      } else if (flag == BSIM_FLAG_JACOBIAN) {
        blk->jac[i + n * i] = -1.0 / (u[i] * u[i]);
      } else {
        blk->outptr[0][i] = 1.0 / u[i];
      }
  }
}

static const bsim_block_type type_INVBLK_f = {
    "INVBLK_f", "invblk", "Inverse: y = 1/u element-wise.",
    "y = 1/u for every element of u (any size). A zero element is a\n"
    "recoverable failure while integrating (the step is retried) and fatal\n"
    "elsewhere, except during the initial fixed point on outputs, where\n"
    "that element keeps its previous value, as Xcos does.\n"
    "Run-time layout: rpar and ipar empty, in = -1, in2 = -2, out = -1,\n"
    "out2 = -2. Direct feedthrough.",
    NULL, 0, bsim_std_elementwise_model, invblk_fn, BSIM_TYPE_JACOBIAN,
    /* the one exprs entry Xcos stores is a blank */
    "-"};

/* ------------------------------------------------------------------- SQRT */

static const bsim_param_spec sqrt_params[] = {
    {"datatype", BSIM_PARAM_REAL, "1",
     "1: real double (the only type supported; Xcos's 2, complex, is not)"},
};

static int sqrt_define(bsim_define_ctx *ctx, bsim_model *m) {
  if (bsim_std_real_datatype(ctx) != 0) return -1;
  return bsim_std_elementwise_model(ctx, m);
}

static void sqrt_fn(bsim_block *blk, int flag) {
  if (flag == BSIM_FLAG_INIT) same_sizes(blk);
  if (flag != BSIM_FLAG_JACOBIAN && !is_output_flag(flag)) return;
  int n = bsim_std_outsize(blk, 0);
  const double *u = blk->inptr[0];
  for (int i = 0; i < n; i++) {
    /* Xcos gives NaN below 0 and lets it spread; a NaN would only stop
     * the integrator later, far from its cause */
    if (u[i] < 0 || (flag == BSIM_FLAG_JACOBIAN && u[i] == 0)) {
      char what[96];
      snprintf(what, sizeof what, "sqrt(%g) (element %d)", u[i], i + 1);
      bsim_std_numeric_failure(blk, what);
      return;
    }
    if (flag == BSIM_FLAG_JACOBIAN)
      blk->jac[i + n * i] = 0.5 / sqrt(u[i]);
    else
      blk->outptr[0][i] = sqrt(u[i]);
  }
}

static const bsim_block_type type_SQRT = {
    "SQRT",
    "mat_sqrt",
    "Square root, element-wise.",
    "y = sqrt(u) for every element of u (any size). A negative element is\n"
    "a recoverable failure while integrating (the step is retried) and\n"
    "fatal elsewhere (Xcos would output NaN).\n"
    "Run-time layout: rpar and ipar empty, in = -1, in2 = -2, out = -1,\n"
    "out2 = -2. Direct feedthrough.",
    sqrt_params,
    1,
    sqrt_define,
    sqrt_fn,
    BSIM_TYPE_JACOBIAN,
    "datatype"};

/* ------------------------------------------------------------------ SAT_f */

static const bsim_param_spec satf_params[] = {
    {"min", BSIM_PARAM_REAL, "-1", "lower output limit"},
    {"max", BSIM_PARAM_REAL, "1", "upper output limit (> 0)"},
    {"slope", BSIM_PARAM_REAL, "1", "slope of the linear part (> 0)"},
};

static int satf_define(bsim_define_ctx *ctx, bsim_model *m) {
  double lo, hi, slope;
  if (bsim_std_scalar(ctx, "min", &lo) != 0 ||
      bsim_std_scalar(ctx, "max", &hi) != 0 ||
      bsim_std_scalar(ctx, "slope", &slope) != 0)
    return -1;
  /* Xcos's checks, no more: it accepts min >= max */
  if (hi <= 0) return bsim_define_error(ctx, "'max' must be > 0, got %g", hi);
  if (slope <= 0)
    return bsim_define_error(ctx, "'slope' must be > 0, got %g", slope);
  double *r = bsim_model_alloc_rpar(m, 3);
  if (!r || bsim_model_set_inputs(m, 1, 1, 1, 1) != 0 ||
      bsim_model_set_outputs(m, 1, 1, 1) != 0)
    return oom(ctx);
  r[0] = lo / slope;
  r[1] = hi / slope;
  r[2] = slope;
  m->ng = 2;
  return 0;
}

/* Xcos's lusat: the thresholds are on u (the limits divided by the slope);
 * no modes, so the output follows the current value and the surfaces only
 * make the integrator stop at the corners. */
static void satf_fn(bsim_block *blk, int flag) {
  if (flag == BSIM_FLAG_INIT) {
    if (blk->nrpar < 3)
      bsim_block_error(blk, "rpar must be [min/slope; max/slope; slope]");
    else
      same_sizes(blk);
    return;
  }
  /* flag 5 comes also after a flag 4 that found no ports */
  if (flag != BSIM_FLAG_ZCROSS && !is_output_flag(flag)) return;
  int n = bsim_std_insize(blk, 0);
  const double *u = blk->inptr[0], *r = blk->rpar;
  if (flag == BSIM_FLAG_ZCROSS) {
    for (int i = 0; i < n && blk->ng >= 2 * n; i++) {
      blk->g[i] = u[i] - r[0];
      blk->g[n + i] = u[i] - r[1];
    }
    return;
  }
  if (!is_output_flag(flag)) return;
  for (int i = 0; i < n; i++)
    blk->outptr[0][i] = u[i] <= r[0]   ? r[0] * r[2]
                        : u[i] >= r[1] ? r[1] * r[2]
                                       : r[2] * u[i];
}

static const bsim_block_type type_SAT_f = {
    "SAT_f",
    "lusat",
    "Saturation with a slope: y = slope u clipped to [min, max].",
    "y = min when slope u <= min, max when slope u >= max, slope u in\n"
    "between. Scalar input and output. The surfaces u - min/slope and\n"
    "u - max/slope make the integrator stop at the corners; there are no\n"
    "modes (as in Xcos), so the output follows the current input.\n"
    "Xcos's checks apply: max > 0 and slope > 0.\n"
    "Run-time layout: rpar = [min/slope; max/slope; slope], in = out = 1,\n"
    "in2 = out2 = 1, ng = 2, nmode = 0. Direct feedthrough.",
    satf_params,
    3,
    satf_define,
    satf_fn,
    0,
    "min,max,slope"};

/* -------------------------------------------------------- MUX_f, DEMUX_f */

static const bsim_param_spec muxf_params[] = {
    {"in", BSIM_PARAM_REAL, "2",
     "number of inputs (2..8), or a vector with the size of each input"},
};

static int muxf_define(bsim_define_ctx *ctx, bsim_model *m) {
  return bsim_std_mux_model(ctx, m, "in", 0, 8);
}

static const bsim_block_type type_MUX_f = {
    "MUX_f",
    "mux",
    "Stack up to 8 vector inputs into one output vector.",
    "As MUX, limited to 8 inputs: the output is the concatenation of the\n"
    "inputs, in port order.\n"
    "Run-time layout: ipar = [number of inputs], in = -[1..n] (each its own\n"
    "unknown size) or the given sizes, in2 = 1, out = 0 (the sum of the\n"
    "inputs; the sum itself when all sizes are given), out2 = 1.\n"
    "Direct feedthrough.",
    muxf_params,
    1,
    muxf_define,
    bsim_std_multiplex_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    "in"};

static const bsim_param_spec demuxf_params[] = {
    {"out", BSIM_PARAM_REAL, "2",
     "number of outputs (2..8), or a vector with the size of each output"},
};

static int demuxf_define(bsim_define_ctx *ctx, bsim_model *m) {
  return bsim_std_mux_model(ctx, m, "out", 1, 8);
}

static const bsim_block_type type_DEMUX_f = {
    "DEMUX_f",
    "demux",
    "Split one input vector over up to 8 outputs.",
    "As DEMUX, limited to 8 outputs: the outputs take consecutive slices of\n"
    "the input, in port order.\n"
    "Run-time layout: ipar = [number of outputs], out = -[1..n] or the\n"
    "given sizes, out2 = 1, in = 0 (the sum of the outputs; the sum itself\n"
    "when all sizes are given), in2 = 1. Direct feedthrough.",
    demuxf_params,
    1,
    demuxf_define,
    bsim_std_multiplex_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    "out"};

/* ------------------------------------------------------- family registry */

const bsim_block_type *const bsim_basic_f_types[] = {
    &type_SUM_f,    &type_BIGSOM_f, &type_PROD_f, &type_GAIN_f, &type_GAINBLK_f,
    &type_INVBLK_f, &type_SQRT,     &type_SAT_f,  &type_MUX_f,  &type_DEMUX_f,
};
const int bsim_basic_f_ntypes =
    (int)(sizeof bsim_basic_f_types / sizeof bsim_basic_f_types[0]);
