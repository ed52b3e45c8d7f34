/*
 * Going on across an event without restarting the integrator, when all
 * the event did is kink the solution through a linear part (the rule and
 * its reasons: docs/scheduler.md, "Carrying the history"; which signals
 * qualify: carry_plan.c). The event has been served at a stop time, so
 * the engine's last step ends exactly there, or at a root the engine
 * returned inside its last step; no mode changed, and y did not jump but
 * in states of linear parts (a reset: a ball's velocity at a bounce). The
 * jump of y' is f after the event minus f before it (each with its own y),
 * and for a linear part the jump of y^(m+1) is J^m times that, J from the
 * Jacobian kept for the modes or else by differences of f (exact for a
 * linear f). The engine adds the Taylor polynomial of these jumps (and of
 * y's) to its history (bsim_engine_type.carry, carry_jump) and integrates
 * on, at the order and step size it had reached.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scheduler/run.h"

/* Enough for any BDF history (IDA: order 5 and its last correction). */
enum { MAX_TERMS = 8 };

int bsim_run_carry_alloc(run_state *r) {
  const bsim_plan *p = r->p;
  size_t nz = 0, ny = (size_t)p->ny;
  r->zblocks = malloc(sizeof(int) * ((size_t)p->nblocks + 1));
  if (!r->zblocks) return -1;
  r->nzblocks = 0;
  for (int b = 0; b < p->nblocks; b++)
    if (p->blocks[b].active && r->run->blocks[b].b.nz > 0) {
      nz += (size_t)r->run->blocks[b].b.nz;
      r->zblocks[r->nzblocks++] = b;
    }
  r->nsnap_z = nz;
  r->snap_z = calloc(nz ? nz : 1, sizeof(double));
  if (!r->snap_z) return -1;
  if (r->s->no_carry || !(p->carry_any || p->carry_states) ||
      !(r->s->engine->carry || r->s->auto_solver))
    return 0;
  /* f before, f after, a perturbed y, the jumps, the output buffers, the
   * jump of y */
  r->carry_buf = calloc((4 + MAX_TERMS) * ny + p->noutbuf, sizeof(double));
  return r->carry_buf ? 0 : -1;
}

void bsim_run_carry_free(run_state *r) {
  free(r->snap_z);
  free(r->zblocks);
  free(r->carry_buf);
}

/* The discrete states of active blocks enter f without showing in any
 * output: an event that changes them changes the equations themselves. */
static void z_walk(run_state *r, int save, int *same) {
  double *s = r->snap_z;
  for (int k = 0; k < r->nzblocks; k++) {
    const bsim_block *blk = &r->run->blocks[r->zblocks[k]].b;
    size_t len = sizeof(double) * (size_t)blk->nz;
    if (save)
      memcpy(s, blk->z, len);
    else if (memcmp(s, blk->z, len) != 0)
      *same = 0;
    s += blk->nz;
  }
}

void bsim_run_carry_snapshot(run_state *r) {
  z_walk(r, 1, NULL);
}

/* Every signal the continuous part reads that changed is one whose
 * change can be carried; y changed only in states of linear parts, and
 * only if the engine takes a jump of y (*jumped says whether it did); the
 * modes and the active blocks' discrete states did not change. */
static int qualifies(const run_state *r, int *jumped) {
  const bsim_plan *p = r->p;
  *jumped = 0;
  for (int i = 0; i < p->ny; i++)
    if (r->snap_y[i] != r->y[i]) {
      if (!p->carry_state[i] || !r->s->engine->carry_jump) return 0;
      *jumped = 1;
    }
  if (memcmp(r->snap_modes, r->modes, sizeof(int) * (size_t)p->nmodes) != 0)
    return 0;
  int same = 1;
  z_walk((run_state *)r, 0, &same);
  if (!same) return 0;
  const double *now = r->run->outbufs;
  for (size_t k = 0; k < p->nuncarried; k++) {
    size_t i = p->uncarried[k];
    if (r->snap_out[i] != now[i] && !(isnan(r->snap_out[i]) && isnan(now[i])))
      return 0;
  }
  return 1;
}

int bsim_run_rhs(run_state *r, const double *y, double *f) {
  const bsim_plan *p = r->p;
  memset(r->yp, 0, sizeof(double) * (size_t)p->ny);
  r->extra_res++;
  if (bsim_run_residual(r->t, y, r->yp, r->res, r->run) != BSIM_CB_OK)
    return -1;
  for (int i = 0; i < p->ny; i++)
    f[i] = i < p->nx ? -r->res[i] : 0.0;
  return 0;
}

/* fmax for a first argument that is never NaN, which the compiler inlines
 * (fmax is a call into libm, a third of these loops' work) */
static inline double larger(double a, double b) {
  return b > a ? b : a;
}

/* What term m (jump of y^(m+1)) adds to a history stepping by h, in units
 * of the error test's tolerance: h^(m+1) / (m+1)! |d| / (rtol |y| + atol). */
static double term_size(const run_state *r, const double *d, int m, double h) {
  double scale = 1, worst = 0;
  for (int k = 1; k <= m + 1; k++)
    scale *= h / k;
  for (int i = 0; i < r->p->ny; i++)
    worst =
        larger(worst, fabs(d[i]) / (r->s->rtol * fabs(r->y[i]) + r->s->atol));
  return scale * worst;
}

/* The jump of y' (before: with y and the signals as they were before the
 * event), then J^m of it; nterms vectors into jumps. Once a term is below
 * a thousandth of the tolerance for steps of h and smaller than the one
 * before, the later ones are smaller still: left zero. */
static int derivative_jumps(run_state *r, int nterms, double h,
                            double **jumps) {
  const bsim_plan *p = r->p;
  int ny = p->ny;
  double *before = r->carry_buf, *after = before + ny, *ypert = after + ny;
  double *outs = jumps[0] + (size_t)MAX_TERMS * (size_t)ny;
  double *outbufs = r->run->outbufs;
  size_t nout = sizeof(double) * p->noutbuf; /* outbufs NULL when 0 */
  if (nout) memcpy(outs, outbufs, nout);
  if (nout) memcpy(outbufs, r->snap_out, nout);
  int rc = bsim_run_rhs(r, r->snap_y, before);
  if (nout) memcpy(outbufs, outs, nout);
  if (rc != 0 || bsim_run_rhs(r, r->y, after) != 0) return -1;
  double ymax = 0;
  for (int i = 0; i < ny; i++) {
    jumps[0][i] = after[i] - before[i];
    if (jumps[0][i] != 0 && !p->carry_state[i]) return 1;
    ymax = larger(ymax, fabs(r->y[i]));
  }
  double last = h > 0 ? term_size(r, jumps[0], 0, h) : INFINITY;
  /* J is -dF/dy on the states' rows (f = -F(t, y, 0) there, 0 on the
   * others): the matrix kept for the modes gives J d exactly, for a
   * sparse product instead of a residual */
  int kept = bsim_run_jacobian_kept(r->run);
  for (int m = 1; m < nterms; m++) {
    const double *d = jumps[m - 1];
    double dmax = 0;
    for (int i = 0; i < ny; i++)
      dmax = larger(dmax, fabs(d[i]));
    if (dmax == 0 || last < 1e-3) {
      memset(jumps[m], 0, sizeof(double) * (size_t)ny);
      continue;
    }
    if (kept) {
      if (bsim_run_jacobian_times(r->t, r->y, r->yp, d, jumps[m], r->run) !=
          BSIM_CB_OK)
        return -1;
      for (int i = 0; i < ny; i++)
        jumps[m][i] = i < p->nx ? -jumps[m][i] : 0.0;
    } else {
      /* f is linear where d lives: any step is exact up to rounding, one
       * of the size of y keeps that rounding relative to f */
      double eps = (1.0 + ymax) / dmax;
      for (int i = 0; i < ny; i++)
        ypert[i] = r->y[i] + eps * d[i];
      if (bsim_run_rhs(r, ypert, jumps[m]) != 0) return -1;
      for (int i = 0; i < ny; i++)
        jumps[m][i] = (jumps[m][i] - after[i]) / eps;
    }
    double size = h > 0 ? term_size(r, jumps[m], m, h) : INFINITY;
    last = size < last ? size : INFINITY; /* growing terms: go on */
  }
  return 0;
}

int bsim_run_try_carry(run_state *r, bsim_error *err) {
  const bsim_engine_type *et = r->s->engine;
  int jumped;
  if (!r->carry_buf || r->run->errs.cold || !qualifies(r, &jumped)) return 0;
  if (!et->carry) return 2;
  double h = 0;
  int nterms = et->carry_terms(r->eng, r->t, &h);
  if (nterms <= 0 || nterms > MAX_TERMS) return 0;
  size_t ny = (size_t)r->p->ny;
  double *jumps[MAX_TERMS];
  for (int m = 0; m < MAX_TERMS; m++)
    jumps[m] = r->carry_buf + 3 * ny + (size_t)m * ny;
  int rc = derivative_jumps(r, nterms, h, jumps);
  /* The outputs moving with y now hold the last difference's values. The
   * copy derivative_jumps took first is what settling them again at (t, y)
   * computes (flag 1 is a function of t, x, z and the inputs, none of
   * which the differences changed), for the price of a copy. */
  bsim_run_bind(r->run, r->t, r->y, r->yp, r->res, BSIM_PHASE_DISCRETE);
  memcpy(r->run->outbufs, jumps[0] + (size_t)MAX_TERMS * ny,
         sizeof(double) * r->p->noutbuf);
  if (rc < 0) return bsim_run_fail(r, err);
  if (rc > 0) return 0;
  double *dy = NULL;
  if (jumped) {
    dy = jumps[0] + (size_t)MAX_TERMS * ny + r->p->noutbuf;
    for (size_t i = 0; i < ny; i++)
      dy[i] = r->y[i] - r->snap_y[i];
  }
  rc = et->carry_jump
           ? et->carry_jump(r->eng, r->t, nterms, dy,
                            (const double *const *)jumps)
           : et->carry(r->eng, r->t, nterms, (const double *const *)jumps);
  if (rc < 0) {
    bsim_error_set(err, BSIM_ERR_SIM, "%s", et->last_error(r->eng));
    return -1;
  }
  if (rc > 0) return 0;
  /* y' from now on: f itself for an ODE (derivative_jumps left it after
   * the scratch's first vectors), the engine's corrected history else */
  if (r->p->ode_form)
    memcpy(r->yp, r->carry_buf + r->p->ny, sizeof(double) * (size_t)r->p->ny);
  else if (et->interpolate(r->eng, r->t, 1, r->yp) != 0) {
    bsim_error_set(err, BSIM_ERR_SIM, "%s", et->last_error(r->eng));
    return -1;
  }
  r->carries++;
  return 1;
}
