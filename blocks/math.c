/*
 * Algebraic blocks without state: gain, sum, product, a^u and |u|. They are
 * direct-feedthrough and are called inside every residual evaluation, so
 * their computational functions do no allocation and report numeric
 * failures as recoverable while the integrator runs.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>

#include "blocks/std.h"

static int is_output_flag(int flag) {
  return flag == BSIM_FLAG_OUTPUTS || flag == BSIM_FLAG_REINIT;
}

/* ---------------------------------------------------------------- GAINBLK */

static const bsim_param_spec gain_params[] = {
    {"gain", BSIM_PARAM_REAL, "1",
     "scalar (element-wise) or m x n matrix (y = G u, u has n rows)"},
};

static int gain_define(bsim_define_ctx *ctx, bsim_model *m) {
  const bsim_value *g = bsim_param(ctx, "gain");
  int n = bsim_std_numel(g);
  if (n == 0)
    return bsim_define_error(ctx, "'gain' must have at least one element");
  double *r = bsim_model_alloc_rpar(m, n);
  if (!r) return bsim_define_error(ctx, "out of memory");
  for (int i = 0; i < n; i++)
    r[i] = g->v[i];
  int ok;
  if (n == 1) /* any size in, the same size out */
    ok = bsim_model_set_inputs(m, 1, -1, -2, 1) == 0 &&
         bsim_model_set_outputs(m, 1, -1, -2) == 0;
  else /* rows of u = columns of G; columns of u shared with y */
    ok = bsim_model_set_inputs(m, 1, g->cols, -1, 1) == 0 &&
         bsim_model_set_outputs(m, 1, g->rows, -1) == 0;
  if (!ok) return bsim_define_error(ctx, "out of memory");
  return 0;
}

/* dy/du: g I for a scalar gain; for a matrix, G on each column of u
 * (y(i,k) reads u(:,k) only). */
static void gain_jacobian(bsim_block *blk) {
  int ny = bsim_std_outsize(blk, 0);
  if (blk->nrpar == 1) {
    for (int i = 0; i < ny; i++)
      blk->jac[i + ny * i] = blk->rpar[0];
    return;
  }
  int mo = blk->outsz[0], mi = blk->insz[0], nc = blk->insz[blk->nin];
  for (int k = 0; k < nc; k++)
    for (int i = 0; i < mo; i++)
      for (int j = 0; j < mi; j++)
        blk->jac[(i + mo * k) + ny * (j + mi * k)] = blk->rpar[i + mo * j];
}

void bsim_std_gain_fn(bsim_block *blk, int flag) {
  if (flag == BSIM_FLAG_INIT) {
    if (bsim_std_need_ports(blk, 1, 1) != 0) return;
    /* a file's stored model may have no gain, or a scalar gain between
     * ports of different sizes */
    if (blk->nrpar < 1)
      bsim_block_error(blk, "rpar holds no gain");
    else if (blk->nrpar == 1 &&
             bsim_std_insize(blk, 0) < bsim_std_outsize(blk, 0))
      bsim_block_error(blk, "input has %d elements, the output %d",
                       bsim_std_insize(blk, 0), bsim_std_outsize(blk, 0));
    else if (blk->nrpar > 1 && (blk->nrpar != blk->outsz[0] * blk->insz[0] ||
                                blk->outsz[blk->nout] != blk->insz[blk->nin]))
      bsim_block_error(blk,
                       "gain has %d elements but the ports are %dx%d -> %dx%d",
                       blk->nrpar, blk->insz[0], blk->insz[blk->nin],
                       blk->outsz[0], blk->outsz[blk->nout]);
    return;
  }
  if (flag == BSIM_FLAG_JACOBIAN) {
    gain_jacobian(blk);
    return;
  }
  if (!is_output_flag(flag)) return;
  const double *u = blk->inptr[0];
  double *y = blk->outptr[0];
  if (blk->nrpar == 1) {
    int n = bsim_std_outsize(blk, 0);
    for (int i = 0; i < n; i++)
      y[i] = blk->rpar[0] * u[i];
    return;
  }
  int mo = blk->outsz[0], mi = blk->insz[0], nc = blk->insz[blk->nin];
  const double *G = blk->rpar; /* mo x mi, column-major */
  for (int k = 0; k < nc; k++)
    for (int i = 0; i < mo; i++) {
      double s = 0;
      for (int j = 0; j < mi; j++)
        s += G[i + mo * j] * u[j + mi * k];
      y[i + mo * k] = s;
    }
}

const bsim_block_type bsim_type_GAINBLK = {
    "GAINBLK",
    "gainblk",
    "Gain: y = G u.",
    "A scalar gain multiplies every element of the input (any size). A\n"
    "matrix gain G (m x n) gives the matrix product y = G u: u has n rows,\n"
    "y has m rows, both share the number of columns.\n"
    "Run-time layout: rpar = G(:) (column-major). Scalar: in = -1,\n"
    "in2 = -2, out = -1, out2 = -2. Matrix: in = n, in2 = -1, out = m,\n"
    "out2 = -1. Direct feedthrough.",
    gain_params,
    1,
    gain_define,
    bsim_std_gain_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    "gain,-"};

/* ----------------------------------------------- SUMMATION and PRODUCT */

/* The "number of inputs or sign vector" parameter both blocks share. A
 * scalar n is a count: n = 1 folds the elements of one input into a scalar,
 * n > 1 gives n inputs all with +1. A vector holds one +1/-1 per input. */
static int signed_inputs(bsim_define_ctx *ctx, bsim_model *m,
                         const char *name) {
  const bsim_value *s = bsim_param(ctx, name);
  int n = bsim_std_numel(s);
  if (n == 0) return bsim_define_error(ctx, "'%s' must not be empty", name);
  int count = n, fold = 0;
  if (n == 1) {
    double c = s->v[0];
    if (c != floor(c) || c < 1 || c > 1000)
      return bsim_define_error(ctx,
                               "'%s': a single value is the number of inputs "
                               "and must be an integer >= 1, got %g",
                               name, c);
    count = (int)c;
    fold = count == 1;
  } else {
    for (int i = 0; i < n; i++)
      if (s->v[i] != 1 && s->v[i] != -1)
        return bsim_define_error(
            ctx, "'%s' may only hold +1 or -1, element %d is %g", name, i + 1,
            s->v[i]);
  }
  int ok = bsim_model_set_inputs(m, count, -1, -2, 1) == 0;
  if (fold) {
    ok = ok && bsim_model_set_outputs(m, 1, 1, 1) == 0;
  } else {
    int *ip = bsim_model_alloc_ipar(m, count);
    ok = ok && ip && bsim_model_set_outputs(m, 1, -1, -2) == 0;
    for (int i = 0; ip && i < count; i++)
      ip[i] = n == 1 ? 1 : (int)s->v[i];
  }
  if (!ok) return bsim_define_error(ctx, "out of memory");
  return 0;
}

static int same_sizes_check(bsim_block *blk) {
  if (bsim_std_need_ports(blk, 1, 1) != 0) return -1;
  if (blk->nin > 1) {
    if (blk->nipar < blk->nin) {
      bsim_block_error(blk, "ipar must hold one sign per input (%d), has %d",
                       blk->nin, blk->nipar);
      return -1;
    }
    int n = bsim_std_outsize(blk, 0);
    for (int k = 0; k < blk->nin; k++)
      if (bsim_std_insize(blk, k) != n) {
        bsim_block_error(blk, "input %d has %d elements, the output %d", k + 1,
                         bsim_std_insize(blk, k), n);
        return -1;
      }
  }
  return 0;
}

static const bsim_param_spec sum_params[] = {
    {"signs", BSIM_PARAM_REAL, "[1 -1]",
     "one +1/-1 per input; a single number n means n inputs all added "
     "(n = 1: sum of the elements of the one input)"},
};

static int sum_define(bsim_define_ctx *ctx, bsim_model *m) {
  if (signed_inputs(ctx, m, "signs") != 0) return -1;
  /* Xcos stores its overflow mode (0 = nothing, for real doubles) in rpar. */
  if (!bsim_model_alloc_rpar(m, 1))
    return bsim_define_error(ctx, "out of memory");
  return 0;
}

static void sum_fn(bsim_block *blk, int flag) {
  if (flag == BSIM_FLAG_INIT) {
    same_sizes_check(blk);
    return;
  }
  if (flag == BSIM_FLAG_JACOBIAN) { /* the signs, element by element */
    if (blk->nin == 1) {
      int n = bsim_std_insize(blk, 0);
      for (int j = 0; j < n; j++)
        blk->jac[j] = blk->nipar >= 1 ? blk->ipar[0] : 1.0;
      return;
    }
    int n = bsim_std_outsize(blk, 0);
    for (int k = 0; k < blk->nin; k++)
      for (int j = 0; j < n; j++)
        blk->jac[j + n * (n * k + j)] = blk->ipar[k];
    return;
  }
  if (!is_output_flag(flag)) return;
  double *y = blk->outptr[0];
  if (blk->nin == 1) {
    double s = 0;
    int n = bsim_std_insize(blk, 0);
    for (int j = 0; j < n; j++)
      s += blk->inptr[0][j];
    y[0] = blk->nipar >= 1 ? blk->ipar[0] * s : s;
    return;
  }
  int n = bsim_std_outsize(blk, 0);
  for (int j = 0; j < n; j++) {
    double s = 0;
    for (int k = 0; k < blk->nin; k++)
      s += blk->ipar[k] * blk->inptr[k][j];
    y[j] = s;
  }
}

const bsim_block_type bsim_type_SUMMATION = {
    "SUMMATION",
    "summation",
    "Sum of the inputs with signs.",
    "y = sum_k s_k u_k element-wise, all inputs and the output of the same\n"
    "size. With one input (signs = 1) y is the sum of its elements.\n"
    "Run-time layout: ipar = signs (empty for the one-input sum; ones(n)\n"
    "for a count n), rpar = [0] (Xcos's overflow mode), in = -1 and\n"
    "in2 = -2 per input, out = -1, out2 = -2 (1 x 1 for the one-input sum).\n"
    "Direct feedthrough.",
    sum_params,
    1,
    sum_define,
    sum_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    "=1,signs,-|signs"};

static const bsim_param_spec prod_params[] = {
    {"ops", BSIM_PARAM_REAL, "[1 -1]",
     "one +1 (multiply) or -1 (divide) per input; a single number n means "
     "n inputs all multiplied (n = 1: product of the elements of the input)"},
    {"zero-division", BSIM_PARAM_REAL, "1",
     "1: dividing by zero is an error; 0: divide by %eps instead (Xcos)"},
};

static int prod_define(bsim_define_ctx *ctx, bsim_model *m) {
  double zerr;
  if (signed_inputs(ctx, m, "ops") != 0 ||
      bsim_std_scalar(ctx, "zero-division", &zerr) != 0)
    return -1;
  double *r = bsim_model_alloc_rpar(m, 1);
  if (!r) return bsim_define_error(ctx, "out of memory");
  r[0] = zerr != 0 ? 0.0 : DBL_EPSILON;
  return 0;
}

/* dy/du of the product. Each partial derivative is the product of the
 * other factors (times -1/u^2 for a divisor), formed directly rather than
 * as y/u so that a zero factor gives the right value. A divisor replaced by
 * eps is a constant: its derivative is 0. */
static void prod_jacobian(bsim_block *blk) {
  if (blk->nin == 1) {
    int n = bsim_std_insize(blk, 0);
    for (int j = 0; j < n; j++) {
      double p = 1;
      for (int i = 0; i < n; i++)
        if (i != j) p *= blk->inptr[0][i];
      blk->jac[j] = p;
    }
    return;
  }
  double eps = blk->nrpar >= 1 ? blk->rpar[0] : 0.0;
  int n = bsim_std_outsize(blk, 0);
  for (int j = 0; j < n; j++)
    for (int k = 0; k < blk->nin; k++) {
      double p = 1, uk = blk->inptr[k][j];
      if (blk->ipar[k] < 0 && uk == 0) {
        if (eps != 0) continue;
        bsim_std_numeric_failure(blk, "division by zero");
        return;
      }
      for (int m = 0; m < blk->nin; m++) {
        if (m == k) continue;
        double u = blk->inptr[m][j];
        if (blk->ipar[m] > 0)
          p *= u;
        else if (u != 0)
          p /= u;
        else if (eps != 0)
          p /= eps;
        else {
          bsim_std_numeric_failure(blk, "division by zero");
          return;
        }
      }
      blk->jac[j + n * (n * k + j)] = blk->ipar[k] > 0 ? p : -p / (uk * uk);
    }
}

static void prod_fn(bsim_block *blk, int flag) {
  if (flag == BSIM_FLAG_INIT) {
    same_sizes_check(blk);
    return;
  }
  if (flag == BSIM_FLAG_JACOBIAN) {
    prod_jacobian(blk);
    return;
  }
  if (!is_output_flag(flag)) return;
  double *y = blk->outptr[0];
  if (blk->nin == 1) {
    double p = 1;
    int n = bsim_std_insize(blk, 0);
    for (int j = 0; j < n; j++)
      p *= blk->inptr[0][j];
    y[0] = p;
    return;
  }
  double eps = blk->nrpar >= 1 ? blk->rpar[0] : 0.0;
  int n = bsim_std_outsize(blk, 0);
  for (int j = 0; j < n; j++) {
    double p = 1;
    for (int k = 0; k < blk->nin; k++) {
      double u = blk->inptr[k][j];
      if (blk->ipar[k] > 0) {
        p *= u;
      } else if (u != 0) {
        p /= u;
      } else if (eps != 0) {
        p /= eps;
      } else {
        char what[128];
        snprintf(what, sizeof what, "division by zero (input %d, element %d)",
                 k + 1, j + 1);
        bsim_std_numeric_failure(blk, what);
        return;
      }
    }
    y[j] = p;
  }
}

const bsim_block_type bsim_type_PRODUCT = {
    "PRODUCT",
    "product",
    "Element-wise product and quotient of the inputs.",
    "y = prod_k u_k^(s_k) element-wise, s_k = +1 multiplies, -1 divides.\n"
    "With one input (ops = 1) y is the product of its elements. Dividing by\n"
    "zero is a recoverable failure while integrating (the step is retried)\n"
    "and fatal elsewhere, unless zero-division = 0.\n"
    "Run-time layout: ipar = ops (empty for the one-input product),\n"
    "rpar = [0] (error on zero division) or [%eps], in = -1, in2 = -2,\n"
    "out = -1, out2 = -2. Direct feedthrough.",
    prod_params,
    2,
    prod_define,
    prod_fn,
    BSIM_TYPE_JACOBIAN,
    "ops,zero-division"};

/* --------------------------------------------------------------- EXPBLK_m */

static const bsim_param_spec exp_params[] = {
    {"base", BSIM_PARAM_REAL, "%e", "base a (> 0) of y = a^u"},
};

static int exp_define(bsim_define_ctx *ctx, bsim_model *m) {
  double a;
  if (bsim_std_scalar(ctx, "base", &a) != 0) return -1;
  if (a <= 0) return bsim_define_error(ctx, "'base' must be > 0, got %g", a);
  double *r = bsim_model_alloc_rpar(m, 1);
  if (!r || bsim_model_set_inputs(m, 1, -1, -2, 1) != 0 ||
      bsim_model_set_outputs(m, 1, -1, -2) != 0)
    return bsim_define_error(ctx, "out of memory");
  r[0] = a;
  return 0;
}

static void exp_fn(bsim_block *blk, int flag) {
  if (flag == BSIM_FLAG_INIT) {
    /* a file's stored model may lack the ports or the base */
    if (bsim_std_need_ports(blk, 1, 1) != 0) return;
    if (blk->nrpar < 1)
      bsim_block_error(blk, "rpar holds no base");
    else if (bsim_std_insize(blk, 0) < bsim_std_outsize(blk, 0))
      bsim_block_error(blk, "input has %d elements, the output %d",
                       bsim_std_insize(blk, 0), bsim_std_outsize(blk, 0));
    return;
  }
  if (flag != BSIM_FLAG_JACOBIAN && !is_output_flag(flag)) return;
  int n = bsim_std_outsize(blk, 0);
  double a = blk->rpar[0];
  if (flag == BSIM_FLAG_JACOBIAN) { /* d(a^u)/du = ln(a) a^u, diagonal */
    for (int i = 0; i < n; i++)
      blk->jac[i + n * i] = log(a) * pow(a, blk->inptr[0][i]);
    return;
  }
  if (!is_output_flag(flag)) return;
  for (int i = 0; i < n; i++) {
    double u = blk->inptr[0][i];
    double y = pow(a, u);
    if (!isfinite(y) && isfinite(u)) {
      char what[128];
      snprintf(what, sizeof what, "%g^%g overflows (element %d)", a, u, i + 1);
      bsim_std_numeric_failure(blk, what);
      return;
    }
    blk->outptr[0][i] = y;
  }
}

const bsim_block_type bsim_type_EXPBLK_m = {
    "EXPBLK_m",
    "expblk_m",
    "Exponential: y = a^u element-wise.",
    "y = a^u for every element of u (any size); a > 0, %e by default.\n"
    "An overflow is a recoverable failure while integrating.\n"
    "Run-time layout: rpar = [a], in = -1, in2 = -2, out = -1, out2 = -2.\n"
    "Direct feedthrough.",
    exp_params,
    1,
    exp_define,
    exp_fn,
    BSIM_TYPE_JACOBIAN,
    "base"};

/* -------------------------------------------------------------- ABS_VALUE */

static const bsim_param_spec abs_params[] = {
    {"zero-crossing", BSIM_PARAM_REAL, "1",
     "1: locate the sign changes of u with zero crossings (one per element) "
     "so the integrator never steps over the kink; 0: plain |u|"},
};

static int abs_define(bsim_define_ctx *ctx, bsim_model *m) {
  double zc;
  if (bsim_std_scalar(ctx, "zero-crossing", &zc) != 0) return -1;
  if (bsim_model_set_inputs(m, 1, -1, -2, 1) != 0 ||
      bsim_model_set_outputs(m, 1, -1, -2) != 0)
    return bsim_define_error(ctx, "out of memory");
  /* -1: one surface and one mode per element of input 1 */
  m->ng = m->nmode = zc != 0 ? -1 : 0;
  return 0;
}

/* Mode encoding as Xcos's absolute_value: 1 = u >= 0 (y = u), 2 = u < 0
 * (y = -u). */
static void abs_fn(bsim_block *blk, int flag) {
  /* flag 5 comes also after a flag 4 that found no ports */
  if (flag == BSIM_FLAG_END) return;
  if (flag == BSIM_FLAG_INIT && bsim_std_need_ports(blk, 1, 1) != 0) return;
  int n = bsim_std_insize(blk, 0);
  const double *u = blk->inptr[0];
  if (flag == BSIM_FLAG_INIT) {
    if (bsim_std_outsize(blk, 0) < n)
      bsim_block_error(blk, "input has %d elements, the output %d", n,
                       bsim_std_outsize(blk, 0));
    else if (blk->ng > 0 && (blk->ng < n || blk->nmode < n))
      bsim_block_error(blk, "needs %d surfaces and modes, has %d and %d", n,
                       blk->ng, blk->nmode);
    return;
  }
  if (is_output_flag(flag)) {
    double *y = blk->outptr[0];
    /* While integrating, the modes freeze the branch so that y stays smooth
     * until the solver locates the crossing. */
    int frozen =
        blk->phase == BSIM_PHASE_CONTINUOUS && blk->ng > 0 && blk->nmode >= n;
    for (int i = 0; i < n; i++)
      y[i] = frozen ? (blk->mode[i] == 1 ? u[i] : -u[i]) : fabs(u[i]);
    return;
  }
  if (flag == BSIM_FLAG_ZCROSS && blk->ng > 0) {
    for (int i = 0; i < n && i < blk->ng; i++)
      blk->g[i] = u[i];
    if (blk->phase == BSIM_PHASE_DISCRETE)
      for (int i = 0; i < n && i < blk->nmode; i++)
        blk->mode[i] = u[i] < 0 ? 2 : 1;
  }
}

const bsim_block_type bsim_type_ABS_VALUE = {
    "ABS_VALUE",
    "absolute_value",
    "Absolute value |u| element-wise, with zero crossings.",
    "y = |u| for every element of u (any size). With zero-crossing = 1 each\n"
    "element has a surface g = u and a mode (1: u >= 0, 2: u < 0); modes\n"
    "change only when the scheduler handles an event, so while integrating\n"
    "y follows the branch of its mode and the kink is located exactly.\n"
    "Run-time layout: rpar and ipar empty, in = -1, in2 = -2, out = -1,\n"
    "out2 = -2, ng = nmode = -1 (one per input element) or 0.\n"
    "Direct feedthrough.",
    abs_params,
    1,
    abs_define,
    abs_fn,
    0,
    "zero-crossing"};
