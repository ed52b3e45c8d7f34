/*
 * Xcos's tabulated functions and its older signal generators: the
 * piecewise-linear functions of the input (LOOKUP_f, INTRPLBLK_f) and of
 * time (CURV_f), the square wave toggled by events (GENSQR_f) and the
 * sawtooth reset by events (SAWTOOTH_f). Each keeps Xcos's run-time data
 * and its exact arithmetic (the interpolation formulas differ slightly
 * between Scilab's lookup, intrpl and intp, and so do the results in the
 * last bits).
 */
#include <math.h>

#include "blocks/std.h"

static int is_output_flag(int flag) {
  return flag == BSIM_FLAG_OUTPUTS || flag == BSIM_FLAG_REINIT;
}

static int oom(bsim_define_ctx *ctx) {
  return bsim_define_error(ctx, "out of memory");
}

/* The x and y parameters of a table: as many of each, at least `min`
 * points, x increasing (strictly when `strict`). Copies them into
 * r = [x; y] when r is not NULL; returns the number of points or -1. */
static int table_points(bsim_define_ctx *ctx, int min, int strict, double *r) {
  const bsim_value *x = bsim_param(ctx, "x"), *y = bsim_param(ctx, "y");
  int n = bsim_std_numel(x);
  if (n != bsim_std_numel(y))
    return bsim_define_error(ctx,
                             "'x' and 'y' must have as many elements, got %d "
                             "and %d",
                             n, bsim_std_numel(y));
  if (n < min)
    return bsim_define_error(ctx, "'x' and 'y' need at least %d points, got %d",
                             min, n);
  for (int i = 1; i < n; i++)
    if (strict ? !(x->v[i] > x->v[i - 1]) : x->v[i] < x->v[i - 1])
      return bsim_define_error(ctx,
                               "'x' must be %s: x(%d) = %g after x(%d) = %g",
                               strict ? "strictly increasing" : "increasing",
                               i + 1, x->v[i], i, x->v[i - 1]);
  for (int i = 0; r && i < n; i++) {
    r[i] = x->v[i];
    r[n + i] = y->v[i];
  }
  return n;
}

/* A scalar function of a scalar input tabulated in rpar = [x; y]. */
static int table_define(bsim_define_ctx *ctx, bsim_model *m, int min) {
  int n = table_points(ctx, min, 1, NULL);
  if (n < 0) return -1;
  double *r = bsim_model_alloc_rpar(m, 2 * n);
  if (!r || bsim_model_set_inputs(m, 1, 1, 1, 1) != 0 ||
      bsim_model_set_outputs(m, 1, 1, 1) != 0)
    return oom(ctx);
  return table_points(ctx, min, 1, r) < 0 ? -1 : 0;
}

/* Index i (1 <= i < n) of the segment [x(i-1), x(i)] used for u: the
 * first breakpoint at or above u among x(1)..x(n-2), else the last
 * segment, so that the end segments extend linearly beyond the table. */
static int table_segment(const double *x, int n, double u) {
  int i = 1;
  while (i < n - 1 && u > x[i])
    i++;
  return i;
}

static void table_check(bsim_block *blk, int min) {
  /* a file's stored model may lack a port */
  if (bsim_std_need_ports(blk, 1, 1) != 0) return;
  if (blk->nrpar < 2 * min || blk->nrpar % 2)
    bsim_block_error(blk, "rpar must be [x; y] with at least %d points", min);
}

/* --------------------------------------------------------------- LOOKUP_f */

/* Xcos's lookup: y = y(i) - (x(i) - u) (y(i) - y(i-1)) / (x(i) - x(i-1)),
 * and a one-point table is the constant y(1). */
static void lookup_fn(bsim_block *blk, int flag) {
  int n = blk->nrpar / 2;
  const double *x = blk->rpar, *y = blk->rpar + n;
  if (flag == BSIM_FLAG_INIT) {
    table_check(blk, 1);
    return;
  }
  if (flag != BSIM_FLAG_JACOBIAN && !is_output_flag(flag)) return;
  double u = blk->inptr[0][0];
  if (n == 1) {
    if (flag != BSIM_FLAG_JACOBIAN) blk->outptr[0][0] = y[0];
    return;
  }
  int i = table_segment(x, n, u);
  double slope = (y[i] - y[i - 1]) / (x[i] - x[i - 1]);
  if (flag == BSIM_FLAG_JACOBIAN)
    blk->jac[0] = slope;
  else
    blk->outptr[0][0] =
        y[i] - (x[i] - u) * (y[i] - y[i - 1]) / (x[i] - x[i - 1]);
}

static const bsim_param_spec lookup_params[] = {
    {"x", BSIM_PARAM_REAL, "[-2 -1 1 2]", "abscissae, strictly increasing"},
    {"y", BSIM_PARAM_REAL, "[-1 1 -1 1]", "ordinates, one per abscissa"},
};

static int lookup_define(bsim_define_ctx *ctx, bsim_model *m) {
  return table_define(ctx, m, 1);
}

static const bsim_block_type type_LOOKUP_f = {
    "LOOKUP_f",
    "lookup",
    "Table lookup: y = f(u), piecewise linear.",
    "y is the piecewise-linear function through the points (x, y) at the\n"
    "scalar input u; beyond the first and last points the end segments\n"
    "extend linearly. A one-point table is a constant. Xcos edits the\n"
    "table graphically and keeps no dialog fields (its exprs are empty):\n"
    "an .xcos file's table is read from the stored rpar.\n"
    "Run-time layout: rpar = [x(:); y(:)], in = out = 1, in2 = out2 = 1,\n"
    "dep_u = 1.",
    lookup_params,
    2,
    lookup_define,
    lookup_fn,
    BSIM_TYPE_JACOBIAN,
    NULL};

/* ------------------------------------------------------------ INTRPLBLK_f */

/* Xcos's intrpl: y = y(i-1) + (y(i) - y(i-1)) / (x(i) - x(i-1)) (u -
 * x(i-1)). */
static void intrpl_fn(bsim_block *blk, int flag) {
  int n = blk->nrpar / 2;
  const double *x = blk->rpar, *y = blk->rpar + n;
  if (flag == BSIM_FLAG_INIT) {
    table_check(blk, 2);
    return;
  }
  if (flag != BSIM_FLAG_JACOBIAN && !is_output_flag(flag)) return;
  double u = blk->inptr[0][0];
  int i = table_segment(x, n, u);
  double slope = (y[i] - y[i - 1]) / (x[i] - x[i - 1]);
  if (flag == BSIM_FLAG_JACOBIAN)
    blk->jac[0] = slope;
  else
    blk->outptr[0][0] = y[i - 1] + slope * (u - x[i - 1]);
}

static const bsim_param_spec intrpl_params[] = {
    {"x", BSIM_PARAM_REAL, "[0;1]",
     "abscissae, strictly increasing, at least 2"},
    {"y", BSIM_PARAM_REAL, "[0;1]", "ordinates, one per abscissa"},
};

static int intrpl_define(bsim_define_ctx *ctx, bsim_model *m) {
  return table_define(ctx, m, 2);
}

static const bsim_block_type type_INTRPLBLK_f = {
    "INTRPLBLK_f",
    "intrpl",
    "Interpolation: y = f(u), piecewise linear through (x, y).",
    "y is the piecewise-linear function through the points (x, y) at the\n"
    "scalar input u; beyond the first and last points the end segments\n"
    "extend linearly. At least two points (Xcos accepts one and then reads\n"
    "past its table).\n"
    "Run-time layout: rpar = [x(:); y(:)], in = out = 1, in2 = out2 = 1,\n"
    "dep_u = 1.",
    intrpl_params,
    2,
    intrpl_define,
    intrpl_fn,
    BSIM_TYPE_JACOBIAN,
    "x,y"};

/* ----------------------------------------------------------------- CURV_f */

/* Xcos's intplt: y(t) interpolated linearly in the table, held constant
 * before the first and after the last abscissa; equal abscissae make a
 * jump (the left point's value holds up to the jump). */
static void curv_fn(bsim_block *blk, int flag) {
  int n = blk->nipar >= 1 ? blk->ipar[0] : 0;
  if (flag == BSIM_FLAG_INIT) {
    if (n < 1 || blk->nrpar < 2 * n)
      bsim_block_error(blk, "ipar(1) must be the number of points n >= 1 and "
                            "rpar start with [x; y] (2n entries)");
    else /* a file's stored model may lack the output */
      bsim_std_need_ports(blk, 0, 1);
    return;
  }
  if (!is_output_flag(flag)) return;
  const double *x = blk->rpar, *y = blk->rpar + n;
  double t = blk->t, *out = blk->outptr[0];
  if (n == 1 || t <= x[0]) {
    out[0] = y[0];
  } else if (t >= x[n - 1]) {
    out[0] = y[n - 1];
  } else {
    int i = 1;
    while (!(t < x[i]))
      i++;
    i--; /* x(i) <= t < x(i+1) */
    out[0] = x[i + 1] == x[i]
                 ? y[i]
                 : y[i] + (t - x[i]) * ((y[i + 1] - y[i]) / (x[i + 1] - x[i]));
  }
}

static const bsim_param_spec curv_params[] = {
    {"x", BSIM_PARAM_REAL, "[0;1;2]", "times, increasing"},
    {"y", BSIM_PARAM_REAL, "[-5;5;0]", "values, one per time"},
    {"rect", BSIM_PARAM_REAL, "[0 -5 2 5]",
     "Xcos's editor window [xmin ymin xmax ymax] (display only)"},
    {"axes", BSIM_PARAM_REAL, "[2;10;2;10]",
     "Xcos's editor axes graduations (display only)"},
};

static int curv_define(bsim_define_ctx *ctx, bsim_model *m) {
  const bsim_value *rect = bsim_param(ctx, "rect"),
                   *ax = bsim_param(ctx, "axes");
  if (bsim_std_numel(rect) != 4 || bsim_std_numel(ax) != 4)
    return bsim_define_error(ctx, "'rect' and 'axes' must have 4 entries each");
  int n = table_points(ctx, 1, 0, NULL);
  if (n < 0) return -1;
  double *r = bsim_model_alloc_rpar(m, 2 * n + 4);
  int *ip = bsim_model_alloc_ipar(m, 5);
  if (!r || !ip || bsim_model_set_outputs(m, 1, 1, 1) != 0) return oom(ctx);
  table_points(ctx, 1, 0, r);
  ip[0] = n;
  for (int i = 0; i < 4; i++) {
    r[2 * n + i] = rect->v[i];
    ip[1 + i] = (int)ax->v[i];
  }
  m->dep_t = 1;
  return 0;
}

static const bsim_block_type type_CURV_f = {
    "CURV_f",
    "intplt",
    "Curve of time: y(t) piecewise linear through (x, y).",
    "y(t) interpolates the points (x, y) linearly; before the first time\n"
    "it is y(1), after the last y(n). Equal successive times make a jump.\n"
    "Xcos edits the curve graphically and keeps no dialog fields (its\n"
    "exprs are empty): an .xcos file's curve is read from the stored rpar\n"
    "and ipar.\n"
    "Run-time layout: rpar = [x(:); y(:); rect(:)], ipar = [n; axes(:)],\n"
    "no inputs, out = 1, out2 = 1, dep_t = 1.",
    curv_params,
    4,
    curv_define,
    curv_fn,
    0,
    NULL};

/* --------------------------------------------------------------- GENSQR_f */

static const bsim_param_spec gensqr_params[] = {
    {"amplitude", BSIM_PARAM_REAL, "1", "the output starts at this value"},
};

static int gensqr_define(bsim_define_ctx *ctx, bsim_model *m) {
  double a;
  if (bsim_std_scalar(ctx, "amplitude", &a) != 0) return -1;
  double *z = bsim_model_alloc_z0(m, 1);
  if (!z || bsim_model_set_outputs(m, 1, 1, 1) != 0 ||
      bsim_model_set_events(m, 1, 0) != 0)
    return oom(ctx);
  z[0] = a;
  return 0;
}

/* Xcos's gensqr: y = z, computed at activations only (and initially);
 * each activation negates z after the outputs are computed (flag 1
 * before flag 2), so y changes one activation later. */
static void gensqr_fn(bsim_block *blk, int flag) {
  if (flag == BSIM_FLAG_INIT) {
    if (blk->nz < 1)
      bsim_block_error(blk, "needs one discrete state");
    else /* a file's stored model may lack the output */
      bsim_std_need_ports(blk, 0, 1);
  } else if ((flag == BSIM_FLAG_OUTPUTS && blk->nevprt != 0) ||
             flag == BSIM_FLAG_REINIT) {
    blk->outptr[0][0] = blk->z[0];
  } else if (flag == BSIM_FLAG_UPDATE) {
    blk->z[0] = -blk->z[0];
  }
}

static const bsim_block_type type_GENSQR_f = {
    "GENSQR_f", "gensqr",
    "Square wave: +A and -A alternating at its activations.",
    "The output is the discrete state z, which starts at 'amplitude' and\n"
    "changes sign at every activation. As in Xcos the output is computed\n"
    "before the state changes: after activation k (from 1) the output is\n"
    "(-1)^(k-1) A, so a clock of period T gives a square wave of period\n"
    "2T whose first half-period is one tick longer.\n"
    "Run-time layout: z0 = [amplitude], no inputs, out = 1, out2 = 1,\n"
    "nevin = 1, dep_u and dep_t 0.",
    gensqr_params, 1, gensqr_define, gensqr_fn, 0,
    /* (files older than Scilab 5 store two entries, the amplitude last;
     * Xcos's own macro drops the first) */
    "amplitude"};

/* ------------------------------------------------------------- SAWTOOTH_f */

static int sawtooth_define(bsim_define_ctx *ctx, bsim_model *m) {
  if (!bsim_model_alloc_z0(m, 1) || bsim_model_set_outputs(m, 1, 1, 1) != 0 ||
      bsim_model_set_events(m, 1, 0) != 0)
    return oom(ctx);
  m->dep_t = 1;
  return 0;
}

/* Xcos's sawtth: z holds the time of the last activation; y = t - z, and
 * 0 at the activation itself. */
static void sawtooth_fn(bsim_block *blk, int flag) {
  if (flag == BSIM_FLAG_INIT) {
    if (blk->nz < 1)
      bsim_block_error(blk, "needs one discrete state");
    else if (bsim_std_need_ports(blk, 0, 1) == 0) /* it may lack the output */
      blk->z[0] = 0;
  } else if (is_output_flag(flag)) {
    blk->outptr[0][0] = blk->nevprt > 0 ? 0.0 : blk->t - blk->z[0];
  } else if (flag == BSIM_FLAG_UPDATE && blk->nevprt > 0) {
    blk->z[0] = blk->t;
  }
}

static const bsim_block_type type_SAWTOOTH_f = {
    "SAWTOOTH_f", "sawtth", "Sawtooth: the time since the last activation.",
    "y = t - (time of the last activation), from 0 at t = 0: a ramp of\n"
    "slope 1 that each activation resets to 0. No parameters.\n"
    "Run-time layout: z0 = [0] (the last activation time), no inputs,\n"
    "out = 1, out2 = 1, nevin = 1, dep_t = 1.",
    NULL, 0, sawtooth_define, sawtooth_fn, 0,
    /* Xcos stores one blank exprs entry */
    "-"};

/* ------------------------------------------------------- family registry */

const bsim_block_type *const bsim_table_types[] = {
    &type_LOOKUP_f, &type_INTRPLBLK_f, &type_CURV_f,
    &type_GENSQR_f, &type_SAWTOOTH_f,  &bsim_type_CURVE_c,
};
const int bsim_table_ntypes =
    (int)(sizeof bsim_table_types / sizeof bsim_table_types[0]);
