/*
 * CURVE_c: a signal of time given by points and an interpolation method
 * (steps, lines, a quadratic or one of Scilab's cubic splines), once or
 * periodically. It is the heart of Xcos's Sigbuilder superblock, which
 * loops the block's event output back to its event input so that it can
 * restart itself every period. The define step prepares the table as
 * Xcos's dialog does (points at negative times dropped, a point (0, 0)
 * added when there is none at 0, sorted, spline data appended:
 * blocks/spline.c); the computational function follows Xcos's curve_c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blocks/spline.h"
#include "blocks/std.h"

static const bsim_param_spec curve_params[] = {
    {"method", BSIM_PARAM_REAL, "3",
     "0: steps (zero order), 1: linear, 2: quadratic (order 2), cubic "
     "splines 3: not-a-knot, 4: periodic, 5: monotone, 6: fast (three-point "
     "slopes), 7: clamped (zero slopes at the ends); truncated to an "
     "integer and clipped to 0..7"},
    {"x", BSIM_PARAM_REAL, "[0 1 2]",
     "times of the points; those below 0 are dropped"},
    {"y", BSIM_PARAM_REAL, "[10 20 -30]", "values of the points"},
    {"periodic", BSIM_PARAM_STRING, "y",
     "y: repeat the curve with period max(x); n: hold the last value"},
};

/* The points as Xcos's dialog cleans them: in place, returns the count. */
static int clean_points(double *x, double *y, int n) {
  int k = 0, zero = 0;
  for (int i = 0; i < n; i++)
    if (x[i] >= 0) {
      zero |= x[i] == 0;
      x[k] = x[i];
      y[k++] = y[i];
    }
  if (!zero) {
    x[k] = 0;
    y[k++] = 0;
  }
  for (int i = 1; i < k; i++) /* stable insertion sort by time */
    for (int j = i; j > 0 && x[j - 1] > x[j]; j--) {
      double tx = x[j], ty = y[j];
      x[j] = x[j - 1];
      y[j] = y[j - 1];
      x[j - 1] = tx;
      y[j - 1] = ty;
    }
  return k;
}

/* Spline data appended after [x; y]; how many entries. */
static int extra_count(int method, int n) {
  return method == BSIM_SPLINE_ORDER2       ? 3 * (n - 1)
         : method >= BSIM_SPLINE_NOT_A_KNOT ? n
                                            : 0;
}

static int curve_table(bsim_define_ctx *ctx, int method, double *x, double *y,
                       int n, double *extra) {
  int need = method == BSIM_SPLINE_ORDER2 ? 3 : method >= 3 ? 2 : 1;
  if (n < need)
    return bsim_define_error(ctx,
                             "method %d needs at least %d points at times >= "
                             "0 (counting (0, 0), added when no point is at "
                             "0), got %d",
                             method, need, n);
  for (int i = 1; i < n; i++)
    if (method >= 2 && x[i] == x[i - 1])
      return bsim_define_error(ctx,
                               "method %d needs distinct times: two points at "
                               "t = %g",
                               method, x[i]);
  if (method == BSIM_SPLINE_PERIODIC) y[n - 1] = y[0]; /* as Xcos forces */
  if (method == BSIM_SPLINE_ORDER2) {
    if (bsim_spline_order2(x, y, n, extra) == 0) return 0;
  } else if (method >= BSIM_SPLINE_NOT_A_KNOT) {
    extra[0] = extra[n - 1] = 0; /* clamped: zero slopes at the ends */
    if (bsim_spline_derivatives(method, x, y, n, extra) == 0) return 0;
  } else {
    return 0;
  }
  return bsim_define_error(ctx,
                           "the spline of method %d through these points "
                           "cannot be computed (singular system)",
                           method);
}

static int curve_define(bsim_define_ctx *ctx, bsim_model *m) {
  double mt;
  if (bsim_std_scalar(ctx, "method", &mt) != 0) return -1;
  int method = mt < 0 ? 0 : mt > 7 ? 7 : (int)mt;
  const bsim_value *xv = bsim_param(ctx, "x"), *yv = bsim_param(ctx, "y");
  const bsim_value *pv = bsim_param(ctx, "periodic");
  int n = bsim_std_numel(xv);
  if (n != bsim_std_numel(yv))
    return bsim_define_error(ctx,
                             "'x' and 'y' must have as many elements, got %d "
                             "and %d",
                             n, bsim_std_numel(yv));
  for (int i = 0; i < n; i++)
    if (isnan(xv->v[i]) || isnan(yv->v[i]))
      return bsim_define_error(ctx, "point %d is not a number", i + 1);
  const char *ps = pv && pv->str ? pv->str : "n";
  int periodic = strcmp(ps, "y") == 0 || strcmp(ps, "Y") == 0;
  /* room for the added point and for the spline data */
  size_t cap = (size_t)n + 1;
  double *buf = malloc((5 * cap) * sizeof *buf);
  if (!buf) return bsim_define_error(ctx, "out of memory");
  double *x = buf, *y = x + cap, *extra = y + cap;
  memcpy(x, xv->v, (size_t)n * sizeof *x);
  memcpy(y, yv->v, (size_t)n * sizeof *y);
  n = clean_points(x, y, n);
  int rc = curve_table(ctx, method, x, y, n, extra);
  int ne = extra_count(method, n);
  double *r = rc == 0 ? bsim_model_alloc_rpar(m, 2 * n + ne) : NULL;
  int *ip = r ? bsim_model_alloc_ipar(m, 3) : NULL;
  if (rc == 0 && (!ip || bsim_model_set_outputs(m, 1, 1, 1) != 0 ||
                  bsim_model_set_events(m, 1, 1) != 0))
    rc = bsim_define_error(ctx, "out of memory");
  if (rc == 0) {
    memcpy(r, x, (size_t)n * sizeof *r);
    memcpy(r + n, y, (size_t)n * sizeof *r);
    if (ne) memcpy(r + 2 * n, extra, (size_t)ne * sizeof *r);
    ip[0] = n;
    ip[1] = method;
    ip[2] = periodic;
    m->firing[0] = x[0]; /* the first point at a time >= 0: always 0 */
    m->dep_t = 1;
  }
  free(buf);
  return rc;
}

/* Run-time state: the next breakpoint whose event is due (steps and
 * lines) and how many times the curve has started. */
typedef struct curve_work {
  int next, starts;
} curve_work;

static void curve_output(bsim_block *blk, const curve_work *w) {
  int n = blk->ipar[0], method = blk->ipar[1], periodic = blk->ipar[2];
  const double *x = blk->rpar, *y = x + n, *e = y + n;
  double t = blk->t;
  if (periodic && w->starts > 0) t -= (w->starts - 1) * (x[n - 1] - x[0]);
  if (t < x[0]) {
    blk->outptr[0][0] = 0;
    return;
  }
  if (t >= x[n - 1]) {
    blk->outptr[0][0] = y[n - 1];
    return;
  }
  int i = 0, hi = n - 1; /* x[i] <= t < x[hi], narrowed to hi = i + 1 */
  while (hi - i > 1) {
    int mid = (i + hi) / 2;
    if (t < x[mid])
      hi = mid;
    else
      i = mid;
  }
  double out;
  if (method == BSIM_SPLINE_ZERO_ORDER) {
    out = y[i];
  } else if (method == BSIM_SPLINE_LINEAR) {
    out = (y[i + 1] - y[i]) * (t - x[i]) / (x[i + 1] - x[i]) + y[i];
  } else if (method == BSIM_SPLINE_ORDER2) {
    double d = t - x[i];
    out = e[i] * d * d + e[i + n - 1] * d + e[i + 2 * n - 2];
  } else {
    bsim_spline_hermite(t, x[i], x[i + 1], y[i], y[i + 1], e[i], e[i + 1],
                        &out);
  }
  blk->outptr[0][0] = out;
}

/* Events: steps and lines fire at every breakpoint (so that the steps
 * fall on events), the others once per period. */
static void curve_events(bsim_block *blk, curve_work *w) {
  int n = blk->ipar[0], method = blk->ipar[1], periodic = blk->ipar[2];
  const double *x = blk->rpar;
  double period = x[n - 1] - x[0];
  if (method <= BSIM_SPLINE_LINEAR) {
    int i = w->next;
    if (i == n - 1 && periodic) i = 0;
    if (i < n - 1) {
      blk->evout[0] = x[i + 1] - x[i];
      w->next = i + 1;
    }
    if (w->next == 1) w->starts++;
    return;
  }
  if (periodic || w->starts == 0) blk->evout[0] = period;
  w->starts++;
}

static void curve_fn(bsim_block *blk, int flag) {
  curve_work *w = (curve_work *)*blk->work;
  switch (flag) {
  case BSIM_FLAG_INIT: {
    int n = blk->nipar >= 3 ? blk->ipar[0] : 0;
    int method = n > 0 ? blk->ipar[1] : -1;
    if (n < 1 || method < 0 || method > 7 ||
        blk->nrpar != 2 * n + extra_count(method, n) ||
        (method == BSIM_SPLINE_ORDER2 && n < 3) ||
        (method >= BSIM_SPLINE_NOT_A_KNOT && n < 2)) {
      bsim_block_error(blk, "ipar must be [n; method 0..7; periodic] and "
                            "rpar [x; y] plus the method's spline data");
      return;
    }
    free(w);
    *blk->work = w = calloc(1, sizeof *w);
    if (!w) bsim_block_error(blk, "out of memory");
    return;
  }
  case BSIM_FLAG_OUTPUTS: /* Xcos's curve_c leaves flag 6 alone: y = 0 */
    if (w) curve_output(blk, w);
    return;
  case BSIM_FLAG_EVENTS:
    if (w && blk->nevout > 0) curve_events(blk, w);
    return;
  case BSIM_FLAG_END:
    free(w);
    *blk->work = NULL;
    return;
  default:
    return;
  }
}

const bsim_block_type bsim_type_CURVE_c = {
    "CURVE_c", "curve_c",
    "Curve of time through points, with steps, lines or splines.",
    "y(t) passes through the points (x, y), interpolated by 'method'\n"
    "between them: 0 steps (y of the point on the left), 1 lines,\n"
    "2 Xcos's quadratic (a C1 piecewise quadratic), 3..7 cubic splines\n"
    "computed as Scilab's splin (not-a-knot, periodic, monotone, fast,\n"
    "clamped with zero end slopes). As Xcos's dialog does, points at\n"
    "negative times are dropped and (0, 0) is added when no point is at 0;\n"
    "the points are sorted by time. Before 0 y is 0, after the last time\n"
    "it holds the last value.\n"
    "Events: the block fires its event output at 0 and then (steps and\n"
    "lines) at every point's time, or (other methods) after one period\n"
    "max(x). Linked back to its own event input, as inside Xcos's\n"
    "Sigbuilder, those activations restart the curve every period when\n"
    "periodic = y (the periodic method also forces y(last) = y(first)).\n"
    "Run-time layout: rpar = [x; y] plus the spline data (methods 2: the\n"
    "quadratic's coefficients [a; b; c], n-1 each; 3..7: the slopes at\n"
    "the points, n), ipar = [n; method; periodic], no inputs, out = 1,\n"
    "out2 = 1, nevin = 1, nevout = 1, firing = 0, dep_t = 1.",
    curve_params, 4, curve_define, curve_fn, 0,
    /* the fifth field opens Xcos's graphic editor */
    "method,x,y,periodic,-"};
