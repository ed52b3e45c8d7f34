/*
 * Random sources (RAND_f, RAND_m): y = offset + scale * r, r drawn from
 * Scilab's own generators (bsim_urand, bsim_nrand_pair) so that a diagram
 * with a given seed produces Scilab's very numbers. The generator's state
 * lives in the block's discrete state, as Xcos keeps it: z = [seed; r(:)].
 */
#include <math.h>

#include "blocks/std.h"

/* Scilab draws at initialisation (flag 4) and at every activation (flag
 * 2), and outputs at flag 1: an activation shows the values drawn at the
 * previous one (the first shows those of the initialisation). */
static void draw(bsim_block *blk, int normal) {
  int seed = (int)blk->z[0];
  for (int i = 1; i < blk->nz; i++) {
    if (normal) {
      double pair[2];
      bsim_nrand_pair(&seed, pair);
      blk->z[i] = pair[0];
    } else {
      blk->z[i] = bsim_urand(&seed);
    }
  }
  blk->z[0] = seed;
}

/* Shared by RAND_f and RAND_m: ipar = [distribution], rpar = [offset(:);
 * scale(:)], z = [seed; r(:)]. */
static void rand_fn(bsim_block *blk, int flag) {
  int n = blk->nz - 1;
  if (flag == BSIM_FLAG_INIT) {
    if (n < 1 || blk->nout < 1 || bsim_std_outsize(blk, 0) != n ||
        blk->nrpar != 2 * n || blk->nipar < 1) {
      bsim_block_error(blk,
                       "needs z = [seed; %d draws], rpar = [offset(:); "
                       "scale(:)] and one output of that size",
                       n);
      return;
    }
    /* a file's stored seed is converted to int below */
    if (!(fabs(blk->z[0]) <= 2147483647.0)) {
      bsim_block_error(blk, "the seed z(1) = %g is not a 32-bit integer",
                       blk->z[0]);
      return;
    }
    draw(blk, blk->ipar[0] != 0);
  } else if (flag == BSIM_FLAG_UPDATE) {
    draw(blk, blk->ipar[0] != 0);
  }
  /* Outputs only when activated (and at the start): right after an update
   * z holds the next draws, which must not show before the next
   * activation. */
  if ((flag == BSIM_FLAG_OUTPUTS && blk->nevprt != 0) ||
      flag == BSIM_FLAG_INIT || flag == BSIM_FLAG_REINIT) {
    double *y = blk->outptr[0];
    for (int i = 0; i < n; i++)
      y[i] = blk->rpar[i] + blk->rpar[n + i] * blk->z[i + 1];
  }
}

/* The checks and the layout both interfaces share; rows x cols is the
 * output's shape. */
static int rand_model(bsim_define_ctx *ctx, bsim_model *m, int rows, int cols,
                      int same_shape) {
  int dist;
  double seed;
  const bsim_value *a = bsim_param(ctx, "offset"),
                   *b = bsim_param(ctx, "scale");
  int n = bsim_std_numel(a);
  if (bsim_std_int(ctx, "distribution", 0, &dist) != 0) return -1;
  if (dist > 1)
    return bsim_define_error(
        ctx, "'distribution' must be 0 (uniform) or 1 (normal), got %d", dist);
  if (n == 0)
    return bsim_define_error(ctx, "'offset' must have at least one element");
  if (bsim_std_numel(b) != n || (same_shape && b->rows != a->rows))
    return bsim_define_error(ctx,
                             "'scale' must have the size of 'offset' (%dx%d), "
                             "got %dx%d",
                             a->rows, a->cols, b->rows, b->cols);
  const bsim_value *s = bsim_param(ctx, "seed");
  if (bsim_std_numel(s) < 1 || !isfinite(s->v[0]))
    return bsim_define_error(ctx, "'seed' must be a finite number");
  seed = s->v[0];
  /* The generator keeps its state in a 32-bit integer, as Scilab's. */
  if (!(seed > -2147483649.0 && seed < 2147483648.0))
    return bsim_define_error(ctx,
                             "'seed' must be an integer below 2^31 in "
                             "absolute value, got %g",
                             seed);
  double *r = bsim_model_alloc_rpar(m, 2 * n),
         *z = bsim_model_alloc_z0(m, n + 1);
  int *ip = bsim_model_alloc_ipar(m, 1);
  if (!r || !z || !ip || bsim_model_set_outputs(m, 1, rows, cols) != 0 ||
      bsim_model_set_events(m, 1, 0) != 0)
    return bsim_define_error(ctx, "out of memory");
  for (int i = 0; i < n; i++) {
    r[i] = a->v[i];
    r[n + i] = b->v[i];
  }
  z[0] = seed;
  ip[0] = dist;
  return 0;
}

static const bsim_param_spec randf_params[] = {
    {"distribution", BSIM_PARAM_REAL, "0",
     "0: uniform on [offset, offset + scale); 1: normal with mean offset and "
     "standard deviation scale (Xcos's 'flag')"},
    {"offset", BSIM_PARAM_REAL, "0",
     "vector: the minimum (uniform) or the mean (normal) of each output "
     "element (Xcos's 'A')"},
    {"scale", BSIM_PARAM_REAL, "1",
     "vector of the size of offset: the width (uniform) or the standard "
     "deviation (normal) (Xcos's 'B')"},
    {"seed", BSIM_PARAM_REAL, "0",
     "seed of Scilab's generator (an integer below 2^31; a fractional part "
     "is dropped, as Scilab does)"},
};

static int randf_define(bsim_define_ctx *ctx, bsim_model *m) {
  return rand_model(ctx, m, bsim_std_numel(bsim_param(ctx, "offset")), 1, 0);
}

#define RAND_DOC                                                               \
  "Draws offset + scale * r at each activation, r uniform on [0, 1) or\n"      \
  "standard normal, from Scilab's generator with the given seed: the same\n"   \
  "seed gives Scilab's numbers. Values are drawn at the start and at each\n"   \
  "activation; an activation outputs the values drawn at the previous one\n"   \
  "(the first, those drawn at the start), as Xcos does. Normal deviates\n"     \
  "come from the polar method, one per uniform pair accepted. One event\n"     \
  "input, no data input.\n"

static const bsim_block_type bsim_type_RAND_f = {
    "RAND_f",
    "rndblk",
    "Random generator (uniform or normal), vector output.",
    RAND_DOC "Run-time layout: ipar = [distribution], rpar = [offset(:);\n"
             "scale(:)], z0 = [seed; zeros(offset(:))], out = numel(offset),\n"
             "nevin = 1, dep_u and dep_t false.",
    randf_params,
    4,
    randf_define,
    rand_fn,
    0,
    "distribution,offset,scale,seed"};

static const bsim_param_spec randm_params[] = {
    {"datatype", BSIM_PARAM_REAL, "1",
     "1: real output (2, complex, is not supported)"},
    {"distribution", BSIM_PARAM_REAL, "0",
     "0: uniform on [offset, offset + scale); 1: normal with mean offset and "
     "standard deviation scale (Xcos's 'flag')"},
    {"offset", BSIM_PARAM_REAL, "0",
     "matrix: the minimum (uniform) or the mean (normal) of each output "
     "element; its size is the output's (Xcos's 'A')"},
    {"scale", BSIM_PARAM_REAL, "1",
     "matrix of the size of offset: the width (uniform) or the standard "
     "deviation (normal) (Xcos's 'B')"},
    {"seed", BSIM_PARAM_REAL, "[0 0]",
     "seeds of Scilab's generator, [real part, imaginary part]: the first "
     "drives a real output (integers below 2^31)"},
};

static int randm_define(bsim_define_ctx *ctx, bsim_model *m) {
  int dt;
  if (bsim_std_int(ctx, "datatype", 1, &dt) != 0) return -1;
  if (dt != 1)
    return bsim_define_error(ctx,
                             "'datatype' %d is not supported: only 1 "
                             "(real) is (complex signals are not)",
                             dt);
  const bsim_value *a = bsim_param(ctx, "offset");
  return rand_model(ctx, m, a->rows, a->cols, 1);
}

static const bsim_block_type bsim_type_RAND_m = {
    "RAND_m",
    "rndblk_m",
    "Random generator (uniform or normal), matrix output.",
    RAND_DOC "Run-time layout: ipar = [distribution], rpar = [offset(:);\n"
             "scale(:)], z0 = [seed(1); zeros(offset(:))], out x out2 =\n"
             "size(offset), nevin = 1, dep_u and dep_t false.",
    randm_params,
    5,
    randm_define,
    rand_fn,
    0,
    "datatype,distribution,offset,scale,seed"};

const bsim_block_type *const bsim_random_types[] = {&bsim_type_RAND_f,
                                                    &bsim_type_RAND_m};
const int bsim_random_ntypes =
    (int)(sizeof bsim_random_types / sizeof bsim_random_types[0]);
