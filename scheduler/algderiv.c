/*
 * Derivatives of the algebraic unknowns at a cold restart. IDACalcIC
 * (IDA_YA_YDP_INIT) gives consistent y and the differential part of y',
 * but leaves y' of algebraic unknowns at the guess (0). IDA's first step
 * predicts them with that slope and includes them in its error test, so an
 * algebraic unknown that moves fast at the restart (a node driven by a
 * sine source, a torn signal fed by time) makes it shrink the step to
 * nothing (IDA_ERR_FAIL at h ~ 1e-12 with tight tolerances). Differentiating
 * F(t, y, y') = 0 along the solution gives, for an index-1 system,
 *
 *   [dF/dya  dF/dyd'] [ya'; yd''] = -(dF/dt + dF/dyd yd'),
 *
 * the very matrix IDACalcIC solves with, here by finite differences of the
 * residual; ya' is kept, yd'' dropped. Dense, so only for systems small
 * enough for a dense matrix to be cheap at every restart.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scheduler/run.h"
#include "solvers/analysis.h"

/* Above this many unknowns the dense matrix costs more than the steps the
 * correction saves; IDA then learns the slopes from its first steps. */
enum { MAX_DENSE = 400 };

static int residual(run_state *r, double t, const double *y, const double *yp,
                    double *res) {
  return bsim_run_residual(t, y, yp, res, r->run);
}

int bsim_run_algebraic_slopes(run_state *r) {
  const bsim_plan *p = r->p;
  int n = p->ny, na = 0;
  for (int i = 0; i < n; i++)
    na += p->id[i] == 0;
  if (na == 0 || n > MAX_DENSE) return 0;
  size_t nn = (size_t)n * (size_t)n;
  double *m = malloc(sizeof(double) * nn);
  double *f0 = malloc(sizeof(double) * (size_t)n * 5);
  if (!m || !f0) {
    free(m);
    free(f0);
    return -1;
  }
  double *fp = f0 + n, *fm = fp + n, *yy = fm + n, *yyp = yy + n;
  int rc = residual(r, r->t, r->y, r->yp, f0);
  memcpy(yy, r->y, sizeof(double) * (size_t)n);
  memcpy(yyp, r->yp, sizeof(double) * (size_t)n);
  /* columns: d/dy_j for algebraic j, d/dy'_j for differential j */
  for (int j = 0; j < n && rc == BSIM_CB_OK; j++) {
    double *v = p->id[j] == 0 ? yy : yyp, v0 = v[j];
    double h = sqrt(DBL_EPSILON) * fmax(fabs(v0), 1.0);
    v[j] = v0 + h;
    double hh = v[j] - v0;
    rc = residual(r, r->t, yy, yyp, fp);
    v[j] = v0;
    for (int i = 0; i < n; i++)
      m[(size_t)i * (size_t)n + (size_t)j] = (fp[i] - f0[i]) / hh;
  }
  /* right side: the residual's change along (t, yd) moving with yd' */
  double scale = fmax(fabs(r->s->tf - r->s->t0), fabs(r->t));
  double dt = 1e-7 * (scale > 0 ? scale : 1.0);
  double tp = r->t + dt, tm = r->t - dt;
  for (int side = 0; side < 2 && rc == BSIM_CB_OK; side++) {
    double d = side ? tm - r->t : tp - r->t;
    for (int i = 0; i < n; i++)
      yy[i] = r->y[i] + (p->id[i] != 0 ? d * r->yp[i] : 0.0);
    rc = residual(r, side ? tm : tp, yy, r->yp, side ? fm : fp);
  }
  if (rc == BSIM_CB_OK) {
    for (int i = 0; i < n; i++)
      f0[i] = -(fp[i] - fm[i]) / (tp - tm);
    if (bsim_dense_solve(n, m, 1, f0, f0) == 0)
      for (int j = 0; j < n; j++)
        if (p->id[j] == 0 && isfinite(f0[j])) r->yp[j] = f0[j];
  }
  /* leave the blocks' buffers at the restart's point */
  residual(r, r->t, r->y, r->yp, fp);
  r->run->errs.recoverable = 0;
  free(m);
  free(f0);
  return 0;
}
