/*
 * M_freq: one clock for several sample times and offsets, firing at each
 * date one event output per combination of the clocks due then (output k
 * when the clocks of the bits of k tick together). Xcos compiles every
 * diagram's SampleCLK blocks into this block, so that simultaneous sample
 * clocks give one activation; blocksim's flattener does the same
 * (diagrams/sampleclk.c). Dates are integers over a common denominator,
 * offset + counter / den, as Scilab's m_frequ computes them: they do not
 * drift and match Scilab's to the bit.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "blocks/std.h"

static double gcd_d(double a, double b) {
  while (b > 0) {
    double r = fmod(a, b);
    a = b;
    b = r;
  }
  return a;
}

/* Scilab's rat(): continued fraction n/d of |x| with |x - n/d| <= tol. */
static int rat(double x, double tol, double *n, double *d) {
  const double nmax = 2147483647.0;
  double n0 = 0, d0 = 1, n1 = 1, d1 = 0, z = fabs(x), ax = z;
  while (!(fabs(d1 * ax - n1) <= d1 * tol)) {
    if (z > nmax) return -1;
    double bm = floor(z), dz = z - bm;
    if (dz != 0) z = 1.0 / dz;
    double xn = n0 + bm * n1, xd = d0 + bm * d1;
    if (xn > nmax || xd > nmax) return -1;
    n0 = n1;
    d0 = d1;
    n1 = xn;
    d1 = xd;
    if (dz == 0) break;
  }
  *n = n1;
  *d = d1;
  return 0;
}

/* Scilab's fixedpointgcd's common denominator of the nonzero values:
 * scaled by a power of ten around their magnitudes, each made a fraction
 * (rat, 1e-9 relative to the largest), the denominators' lcm, scaled back. */
static int common_den(const double *v, int n, double *den) {
  double lo = INFINITY, hi = -INFINITY, big = 0;
  for (int i = 0; i < n; i++) {
    double x = log10(fabs(v[i]));
    lo = fmin(lo, x);
    hi = fmax(hi, x);
  }
  double f = round((lo + hi) / 2), scale = pow(10, f), lcm = 1;
  for (int i = 0; i < n; i++)
    big = fmax(big, fabs(v[i] / scale));
  for (int i = 0; i < n; i++) {
    double num, d;
    if (rat(v[i] / scale, 1e-9 * big, &num, &d) != 0) return -1;
    lcm = lcm / gcd_d(lcm, d) * d;
    if (lcm > 4294967295.0) return -1;
  }
  *den = f > 0 ? lcm : lcm * pow(10, -f);
  return 0;
}

/* One tick of the merged schedule: its date in 1/den units and the bits
 * of the classes ticking then. */
typedef struct tick {
  double at;
  int bits;
} tick;

static int by_date(const void *a, const void *b) {
  double x = ((const tick *)a)->at, y = ((const tick *)b)->at;
  return (x > y) - (x < y);
}

static const bsim_param_spec mfreq_params[] = {
    {"sample-times", BSIM_PARAM_REAL, "[1;2]",
     "periods of the clocks (> 0), one per clock"},
    {"offsets", BSIM_PARAM_REAL, "[0;0]",
     "first date of each clock (0 <= offset <= its period); clocks with the "
     "same period and offset are one"},
};

/*
 * The schedule as Scilab's mfrequ_clk lays it out in opar: m (rows x 3:
 * delay to the next date in 1/den units, the output it fires, its date),
 * den, the offset added to every date, and the counter's start; the first
 * date is the firing of its output.
 */
static int mfreq_define(bsim_define_ctx *ctx, bsim_model *m) {
  const bsim_value *fv = bsim_param(ctx, "sample-times"),
                   *ov = bsim_param(ctx, "offsets");
  int n = bsim_std_numel(fv), rc = -1;
  if (n < 1 || bsim_std_numel(ov) != n)
    return bsim_define_error(ctx, "'sample-times' and 'offsets' must have "
                                  "one element per clock, the same number");
  if (n > 16)
    return bsim_define_error(ctx, "at most 16 distinct clocks, got %d", n);
  double *fr = calloc((size_t)n, sizeof *fr),
         *of = calloc((size_t)n, sizeof *of),
         *nz = calloc((size_t)(2 * n), sizeof *nz);
  tick *ticks = NULL;
  if (!fr || !of || !nz) goto nomem;
  int nc = 0, nnz = 0;
  for (int i = 0; i < n; i++) {
    double f = fv->v[i], o = ov->v[i];
    if (!(f > 0) || !(o >= 0) || o > f) {
      bsim_define_error(ctx,
                        "clock %d: the sample time must be > 0 and the "
                        "offset from 0 to it, got %g and %g",
                        i + 1, f, o);
      goto done;
    }
    int seen = 0;
    for (int k = 0; k < nc && !seen; k++)
      seen = fr[k] == f && of[k] == o;
    if (!seen) {
      fr[nc] = f;
      of[nc++] = o;
    }
    nz[nnz++] = f;
    if (o != 0) nz[nnz++] = o;
  }
  double lo = INFINITY, hi = 0;
  for (int i = 0; i < nnz; i++) {
    lo = fmin(lo, nz[i]);
    hi = fmax(hi, nz[i]);
  }
  if (hi / lo > 1e5) { /* Scilab refuses too */
    bsim_define_error(ctx, "the sample times and offsets differ by more than "
                           "a factor 1e5: the clocks cannot be synchronized");
    goto done;
  }
  double den;
  if (common_den(nz, nnz, &den) != 0) {
    bsim_define_error(ctx, "the sample times and offsets have no common "
                           "denominator below 2^32: they cannot be "
                           "synchronized");
    goto done;
  }
  double ppcm = 1;
  for (int k = 0; k < nc; k++) {
    double step = round(fr[k] * den);
    ppcm = ppcm / gcd_d(ppcm, step) * step;
  }
  int nout = (1 << nc) - 1;
  if (bsim_model_set_events(m, 1, nout) != 0) goto nomem;
  bsim_value mat = {0, 3, NULL, NULL}, dv = {1, 1, &den, NULL},
             offv = {1, 1, NULL, NULL}, cnt = {1, 1, NULL, NULL};
  double zero = 0, count = 0;
  if (nc == 1) {
    double step = round(fr[0] * den), row[3] = {step, 1, step};
    mat = (bsim_value){1, 3, row, NULL};
    offv.v = &of[0];
    cnt.v = &zero;
    m->firing[0] = of[0];
    rc = bsim_model_add_opar(m, &mat) || bsim_model_add_opar(m, &dv) ||
                 bsim_model_add_opar(m, &offv) || bsim_model_add_opar(m, &cnt)
             ? -2
             : 0;
    if (rc == -2) goto nomem;
    goto done;
  }
  /* every date of every class over one common period (ppcm), merged */
  size_t total = 0;
  for (int k = 0; k < nc; k++)
    total += (size_t)floor((ppcm - of[k] * den) / round(fr[k] * den)) + 1;
  if (total > 100000) {
    bsim_define_error(ctx,
                      "the clocks need %zu dates per common period; at "
                      "most 100000 are supported",
                      total);
    goto done;
  }
  ticks = calloc(total, sizeof *ticks);
  if (!ticks) goto nomem;
  size_t nt = 0;
  for (int k = 0; k < nc; k++)
    for (double at = of[k] * den; at <= ppcm; at += round(fr[k] * den))
      ticks[nt++] = (tick){at, 1 << k};
  qsort(ticks, nt, sizeof *ticks, by_date);
  size_t nu = 0;
  for (size_t i = 0; i < nt; i++)
    if (nu > 0 && ticks[nu - 1].at == ticks[i].at)
      ticks[nu - 1].bits |= ticks[i].bits;
    else
      ticks[nu++] = ticks[i];
  double last = ppcm - ticks[nu - 1].at + ticks[0].at;
  size_t rows = last != 0 ? nu : nu - 1; /* the first row goes to count */
  double *mv = calloc(rows * 3 + 1, sizeof *mv);
  if (!mv) goto nomem;
  /* row r (before dropping the first): delay, output, date */
  for (size_t r = 1; r <= rows; r++) {
    size_t i = r < nu ? r : 0;
    double date = r < nu ? ticks[r].at : ppcm + ticks[0].at;
    mv[r - 1] = r < nu ? ticks[r].at - ticks[r - 1].at : last;
    mv[rows + r - 1] = ticks[i].bits;
    mv[2 * rows + r - 1] = date;
  }
  count = ticks[0].at;
  mat = (bsim_value){(int)rows, 3, mv, NULL};
  offv.v = &zero;
  cnt.v = &count;
  m->firing[ticks[0].bits - 1] = ticks[0].at / den;
  rc = bsim_model_add_opar(m, &mat) || bsim_model_add_opar(m, &dv) ||
               bsim_model_add_opar(m, &offv) || bsim_model_add_opar(m, &cnt)
           ? -2
           : 0;
  free(mv);
  if (rc == -2) goto nomem;
  goto done;
nomem:
  rc = bsim_define_error(ctx, "out of memory");
done:
  free(fr);
  free(of);
  free(nz);
  free(ticks);
  return rc;
}

typedef struct mfreq_work {
  int64_t counter;
  int row;
} mfreq_work;

static void mfreq_fn(bsim_block *blk, int flag) {
  mfreq_work *w = (mfreq_work *)*blk->work;
  if (flag == BSIM_FLAG_INIT) {
    if (blk->nopar < 4 || blk->oparsz[0] < 1 || blk->oparsz[blk->nopar] != 3) {
      bsim_block_error(blk, "opar must hold the schedule, den, offset and "
                            "counter start (M_freq's layout)");
      return;
    }
    /* A file's stored opar is not checked by the define step: counts
     * converted to integers must fit them (and their sum over a run). */
    const double *mat = blk->oparptr[0], c0 = blk->oparptr[3][0];
    for (int i = 0; i < 2 * blk->oparsz[0]; i++)
      if (!(fabs(mat[i]) <= (i < blk->oparsz[0] ? 1e12 : 1e9))) {
        bsim_block_error(blk,
                         "opar: schedule entry %g is out of range "
                         "(delays up to 1e12, outputs up to 1e9)",
                         mat[i]);
        return;
      }
    if (!(fabs(c0) <= 1e15)) {
      bsim_block_error(blk, "opar: counter start %g is out of range", c0);
      return;
    }
    if (!w && !(w = calloc(1, sizeof *w))) {
      bsim_block_error(blk, "out of memory");
      return;
    }
    *blk->work = w;
    w->counter = (int64_t)blk->oparptr[3][0];
    w->row = 0;
  } else if (flag == BSIM_FLAG_EVENTS && w && blk->nevprt != 0) {
    const double *mat = blk->oparptr[0];
    int rows = blk->oparsz[0];
    double den = blk->oparptr[1][0], off = blk->oparptr[2][0];
    w->counter += (int64_t)mat[w->row];
    int out = (int)mat[rows + w->row];
    if (out >= 1 && out <= blk->nevout)
      blk->evout[out - 1] = off + (double)w->counter / den - blk->t;
    w->row = (w->row + 1) % rows;
  } else if (flag == BSIM_FLAG_END) {
    free(w);
    *blk->work = NULL;
  }
}

const bsim_block_type bsim_type_M_freq = {
    "M_freq",
    "m_frequ",
    "Multiple-frequency clock: one event per date, output by combination.",
    "Merges clocks of the given sample times and offsets into one: at each\n"
    "date of any of them it fires one event output, number k = the sum of\n"
    "2^(i-1) over the clocks i due then (output 3 when clocks 1 and 2 tick\n"
    "together). Dates are offset + counter / den with integer counters\n"
    "over a common denominator, as Scilab computes them (no drift). Every\n"
    "event output is wired back to the event input (self-activated), as\n"
    "Xcos wires the clock it builds from a diagram's SampleCLK blocks,\n"
    "which blocksim's flattener also builds this way.\n"
    "Run-time layout (Scilab's mfrequ_clk): opar = [m (rows x 3: delay in\n"
    "1/den units, output, date); den; offset; counter start], nevin = 1,\n"
    "nevout = 2^clocks - 1, firing = the first date on its output, -1\n"
    "elsewhere.",
    mfreq_params,
    2,
    mfreq_define,
    mfreq_fn,
    BSIM_TYPE_SELF_ACTIVATED,
    "sample-times,offsets"};
