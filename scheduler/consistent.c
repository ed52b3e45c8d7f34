/*
 * Consistent values at a cold restart, for systems small enough for a
 * dense matrix. With y_d the differential unknowns (fixed) and y_a the
 * algebraic ones, IDA_YA_YDP_INIT solves F(t, y, y') = 0 for (y_a, y_d');
 * IDACalcIC does so with the matrix F_y + F_y'/h for a tentative step h,
 * which is a Newton matrix only when h is short against the system's
 * fastest time constant: a switch closing onto a capacitor (1e-4 ohm, 10
 * pF: 1e-15 s) makes it diverge. Here the same unknowns get Newton's
 * method with the true matrix
 *
 *   M = [dF/dya  dF/dyd'],
 *
 * damped when the residual does not shrink, M factored once and kept
 * while the residual falls by 16 at each step; IDACalcIC then finds the
 * values consistent at once (or, when this Newton gives up, starts from
 * the guess as before). M comes from the analytic Jacobian when the plan
 * has one, dF/dy and dF/dy' from one evaluation of the blocks (instead of
 * n + 1 residuals: a switching converter restarting 200 times spent a
 * tenth of its run here); else from finite differences of the residual.
 *
 * After IDACalcIC the same matrix gives the derivatives of the algebraic
 * unknowns, which IDACalcIC leaves at the guess (0): differentiating F
 * along the solution,
 *
 *   M [ya'; yd''] = -(dF/dt + dF/dyd yd'),
 *
 * keeps ya' and drops yd''. Without them IDA's first step predicts the
 * algebraic unknowns with slope 0, and with a source moving fast and
 * tight tolerances fails its error test down to hmin.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scheduler/run.h"
#include "solvers/analysis.h"

/* Above this many unknowns the dense matrix costs more than it saves;
 * IDA's own methods then serve alone. */
enum { MAX_DENSE = 400, MAX_NEWTON = 20 };

static int residual(run_state *r, double t, const double *y, const double *yp,
                    double *res) {
  return bsim_run_residual(t, y, yp, res, r->run);
}

/* Scratch of one computation: M (n x n), five vectors and, with the
 * analytic Jacobian, dF/dy and dF/dy' in the pattern's order. */
typedef struct work {
  int n;
  double *m, *f0, *f1, *f2, *yy, *yyp;
  double *dfdy, *dfdyp;
  int *piv; /* M's row swaps once factored */
} work;

static int analytic(const bsim_plan *p) {
  return p->jac && !p->ix;
}

static int work_alloc(work *w, const bsim_plan *p) {
  int n = p->ny;
  size_t nnz = analytic(p) ? (size_t)p->pat_colptr[n] : 0;
  w->n = n;
  w->m = malloc(sizeof(double) * (size_t)n * (size_t)n);
  w->f0 = malloc(sizeof(double) * ((size_t)n * 5 + 2 * nnz));
  w->piv = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
  if (!w->m || !w->f0 || !w->piv) {
    free(w->m);
    free(w->f0);
    free(w->piv);
    return -1;
  }
  w->dfdy = nnz ? w->f0 + 5 * (size_t)n : NULL;
  w->dfdyp = nnz ? w->dfdy + nnz : NULL;
  w->f1 = w->f0 + n;
  w->f2 = w->f1 + n;
  w->yy = w->f2 + n;
  w->yyp = w->yy + n;
  return 0;
}

static void work_free(work *w) {
  free(w->m);
  free(w->f0);
  free(w->piv);
}

/* M at (t, y, yp), f0 = F there. BSIM_CB_* */
static int matrix(run_state *r, work *w, const double *y, const double *yp) {
  const bsim_plan *p = r->p;
  int n = w->n;
  int rc = residual(r, r->t, y, yp, w->f0);
  if (w->dfdy) {
    if (rc == BSIM_CB_OK)
      rc = bsim_run_jacobian_parts(r->t, y, yp, w->dfdy, w->dfdyp, r->run);
    memset(w->m, 0, sizeof(double) * (size_t)n * (size_t)n);
    for (int j = 0; j < n; j++)
      for (int q = p->pat_colptr[j]; q < p->pat_colptr[j + 1]; q++)
        w->m[(size_t)p->pat_rowidx[q] * (size_t)n + (size_t)j] =
            p->id[j] == 0 ? w->dfdy[q] : w->dfdyp[q];
    return rc;
  }
  memcpy(w->yy, y, sizeof(double) * (size_t)n);
  memcpy(w->yyp, yp, sizeof(double) * (size_t)n);
  for (int j = 0; j < n && rc == BSIM_CB_OK; j++) {
    double *v = p->id[j] == 0 ? w->yy : w->yyp, v0 = v[j];
    double h = sqrt(DBL_EPSILON) * fmax(fabs(v0), 1.0);
    v[j] = v0 + h;
    double hh = v[j] - v0;
    rc = residual(r, r->t, w->yy, w->yyp, w->f1);
    v[j] = v0;
    for (int i = 0; i < n; i++)
      w->m[(size_t)i * (size_t)n + (size_t)j] = (w->f1[i] - w->f0[i]) / hh;
  }
  return rc;
}

static int has_algebraic(const bsim_plan *p) {
  for (int i = 0; i < p->ny; i++)
    if (p->id[i] == 0) return 1;
  return 0;
}

static double norm2(const double *f, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += f[i] * f[i];
  return s;
}

/* z += lambda * d over the unknowns of YA_YDP_INIT, into (yy, yyp). */
static void step_to(const bsim_plan *p, const double *y, const double *yp,
                    const double *d, double lambda, work *w) {
  for (int i = 0; i < w->n; i++) {
    w->yy[i] = y[i];
    w->yyp[i] = yp[i];
    if (p->id[i] == 0)
      w->yy[i] += lambda * d[i];
    else
      w->yyp[i] += lambda * d[i];
  }
}

int bsim_run_consistent(run_state *r) {
  const bsim_plan *p = r->p;
  int n = p->ny;
  if (p->na == 0 || n > MAX_DENSE || !has_algebraic(p)) return 0;
  work w;
  if (work_alloc(&w, p) != 0) return -1;
  double *y = malloc(sizeof(double) * (size_t)n * 3);
  if (!y) {
    work_free(&w);
    return -1;
  }
  double *yp = y + n, *d = yp + n;
  memcpy(y, r->y, sizeof(double) * (size_t)n);
  memcpy(yp, r->yp, sizeof(double) * (size_t)n);
  /* unknowns are converged within 1e-3 of their error weights; a
   * derivative's weight uses the run's span as the time scale */
  double span = fmax(fabs(r->s->tf - r->s->t0), DBL_MIN);
  double f0 = -1, f = -1;
  /* M is factored once and kept while the residual falls fast enough (a
   * chord iteration: a circuit linear between its switchings converges in
   * one step); formed again at the current point when it stops doing so */
  int have = 0, fresh = 0;
  for (int it = 0; it < MAX_NEWTON; it++) {
    if (!have) {
      if (matrix(r, &w, y, yp) != BSIM_CB_OK || bsim_dense_lu(n, w.m, w.piv))
        break;
      have = fresh = 1;
    }
    f = norm2(w.f0, n);
    if (f0 < 0) f0 = f;
    if (f == 0) break;
    for (int i = 0; i < n; i++)
      d[i] = -w.f0[i];
    bsim_dense_lu_solve(n, w.m, w.piv, 1, d);
    /* damped: halve the step until the residual shrinks */
    double lambda = 1;
    int moved = 0;
    for (int back = 0; back < 30 && !moved; back++, lambda /= 2) {
      step_to(p, y, yp, d, lambda, &w);
      if (residual(r, r->t, w.yy, w.yyp, w.f2) == BSIM_CB_OK &&
          norm2(w.f2, n) < f)
        moved = 1;
    }
    if (!moved) {
      if (fresh) break;
      have = 0; /* a kept matrix: form it here and try again */
      continue;
    }
    lambda *= 2; /* the one taken */
    memcpy(y, w.yy, sizeof(double) * (size_t)n);
    memcpy(yp, w.yyp, sizeof(double) * (size_t)n);
    memcpy(w.f0, w.f2, sizeof(double) * (size_t)n); /* F at the new point */
    double fold = f;
    f = norm2(w.f2, n);
    fresh = 0;
    if (lambda < 1 || f > 0.0625 * fold) have = 0; /* slow: form M again */
    double big = 0;
    for (int i = 0; i < n; i++) {
      int alg = p->id[i] == 0;
      double z = alg ? y[i] : yp[i];
      double wt = r->s->rtol * fabs(z) + r->s->atol / (alg ? 1.0 : span);
      big = fmax(big, fabs(lambda * d[i]) / (1e-3 * wt));
    }
    if (big <= 1.0) break;
  }
  /* whatever Newton reached, if it is closer than the guess */
  if (f >= 0 && f < f0) {
    memcpy(r->y, y, sizeof(double) * (size_t)n);
    memcpy(r->yp, yp, sizeof(double) * (size_t)n);
  }
  residual(r, r->t, r->y, r->yp, w.f0); /* buffers at the point kept */
  r->run->errs.recoverable = 0;
  free(y);
  work_free(&w);
  return 0;
}

int bsim_run_algebraic_slopes(run_state *r) {
  const bsim_plan *p = r->p;
  int n = p->ny;
  if (n > MAX_DENSE || !has_algebraic(p)) return 0;
  work w;
  if (work_alloc(&w, p) != 0) return -1;
  int rc = matrix(r, &w, r->y, r->yp);
  /* right side: the residual's change along (t, yd) moving with yd' */
  double scale = fmax(fabs(r->s->tf - r->s->t0), fabs(r->t));
  double dt = 1e-7 * (scale > 0 ? scale : 1.0);
  double tp = r->t + dt, tm = r->t - dt;
  for (int side = 0; side < 2 && rc == BSIM_CB_OK; side++) {
    double dd = side ? tm - r->t : tp - r->t;
    for (int i = 0; i < n; i++)
      w.yy[i] = r->y[i] + (p->id[i] != 0 ? dd * r->yp[i] : 0.0);
    rc = residual(r, side ? tm : tp, w.yy, r->yp, side ? w.f2 : w.f1);
  }
  if (rc == BSIM_CB_OK) {
    for (int i = 0; i < n; i++)
      w.f0[i] = -(w.f1[i] - w.f2[i]) / (tp - tm);
    if (bsim_dense_solve(n, w.m, 1, w.f0, w.f0) == 0)
      for (int j = 0; j < n; j++)
        if (p->id[j] == 0 && isfinite(w.f0[j])) r->yp[j] = w.f0[j];
  }
  /* leave the blocks' buffers at the restart's point */
  residual(r, r->t, r->y, r->yp, w.f1);
  r->run->errs.recoverable = 0;
  work_free(&w);
  return 0;
}
