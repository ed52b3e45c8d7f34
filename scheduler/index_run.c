/*
 * The reduced system at run time (index.c decides the reduction at
 * compile time): F with the differentiated rows appended, evaluated by
 * central differences in time, and its Newton matrix. Apart from the
 * analysis because it is on the integrator's path, the analysis is not.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scheduler/index.h"

int bsim_index_partial_prepare(bsim_plan *p) {
  struct bsim_plan_index *ix = p->ix;
  const bsim_flat *f = p->flat;
  ix->pcomp = calloc((size_t)p->ncomp + 1, sizeof(int));
  ix->pnode = calloc((size_t)f->nnodes + 1, sizeof(int));
  if (!ix->pcomp || !ix->pnode) return -1;
  int covered = 0;
  for (int c = 0; c < p->ncomp; c++) {
    int b = p->comp_blocks[c], r0 = p->blocks[b].roff;
    const bsim_model *m = &p->blocks[b].fb->model;
    int mine = 0;
    for (int k = 0; k < ix->nd; k++)
      mine += ix->drow[k] >= r0 && ix->drow[k] < r0 + bsim_model_nres(m);
    if (!mine) continue;
    if (m->nin > 0) return 0; /* its inputs' blocks would run too */
    ix->pcomp[ix->npcomp++] = b;
    covered += mine;
  }
  for (int n = 0; n < f->nnodes; n++) {
    int r0 = p->kcl_row[n], mine = 0;
    for (int k = 0; r0 >= 0 && k < ix->nd; k++)
      mine += ix->drow[k] >= r0 && ix->drow[k] < r0 + f->nodes[n].dom->nflow;
    if (mine) ix->pnode[ix->npnode++] = n;
    covered += mine;
  }
  ix->partial = covered == ix->nd;
  return 0;
}

/* The differentiated rows alone at (t, y, y'), into res: their
 * components' flag 0 on the run's copies of y and y' and their nodes'
 * flow balances, the same operations as in the whole residual. */
static int rows_only(bsim_run *x, double t, const double *y, const double *yp,
                     double *res) {
  const bsim_plan *p = x->plan;
  const struct bsim_plan_index *ix = p->ix;
  x->errs.recoverable = 0;
  bsim_run_set_phase(x, BSIM_PHASE_CONTINUOUS);
  bsim_run_bind_acausal(x, y, yp);
  for (int c = 0; c < ix->npcomp; c++) {
    rt_block *rb = &x->blocks[ix->pcomp[c]];
    rb->b.t = t;
    rb->fn(&rb->b, BSIM_FLAG_DERIVATIVES);
  }
  if (x->errs.fatal) return BSIM_CB_FATAL;
  if (x->errs.recoverable) return BSIM_CB_RECOVERABLE;
  for (int k = 0; k < ix->nd; k++)
    res[ix->drow[k]] = x->acres[ix->drow[k]];
  for (int c = 0; c < ix->npnode; c++)
    bsim_plan_node_balance(p, ix->pnode[c], y, res);
  return BSIM_CB_OK;
}

int bsim_run_index_residual(bsim_run *x, double t, const double *y,
                            const double *yp, double *res) {
  const bsim_plan *p = x->plan;
  const struct bsim_plan_index *ix = p->ix;
  int n = ix->ny0;
  double *yph = x->ixbuf, *ydot = yph + n, *yq = ydot + n, *r1 = yq + n,
         *r2 = r1 + n;
  memcpy(yph, yp, sizeof(double) * (size_t)n);
  for (int k = 0; k < ix->nd; k++)
    yph[ix->dcol[k]] = y[n + k];
  memset(ydot, 0, sizeof(double) * (size_t)n);
  for (int q = 0; q < ix->nvd; q++) {
    int j = ix->vd[q];
    ydot[j] = ix->slot_of[j] >= 0 ? y[ix->slot_of[j]] : yp[j];
  }
  /* central differences: truncation error ~ h^2, rounding ~ eps / h, so
   * h ~ eps^(1/3) of the run's time scale; exactly representable in t */
  double tp = t + 6e-6 * x->tscale, hh = tp - t;
  int rc = BSIM_CB_OK;
  for (int side = 0; side < 2 && rc == BSIM_CB_OK; side++) {
    double s = side ? -hh : hh;
    for (int j = 0; j < n; j++)
      yq[j] = y[j] + s * ydot[j];
    rc = ix->partial
             ? rows_only(x, t + s, yq, yph, side ? r2 : r1)
             : bsim_run_base_residual(x, t + s, yq, yph, side ? r2 : r1);
  }
  if (rc == BSIM_CB_OK) rc = bsim_run_base_residual(x, t, y, yph, res);
  if (rc != BSIM_CB_OK) return rc;
  for (int k = 0; k < ix->nd; k++)
    res[n + k] = (r1[ix->drow[k]] - r2[ix->drow[k]]) / (2 * hh);
  return BSIM_CB_OK;
}

/* Column j of the unreduced dF/dy (wrt 0) or dF/dy' (1) into col (n
 * entries): from the analytic parts (CSC) when there are, else one
 * difference of the blocks' residual (f0 at the point; yq, yph the
 * point, restored). */
static int base_column(bsim_run *x, double t, int j, int wrt, double *yq,
                       double *yph, const double *f0, double *f1, double *col) {
  const struct bsim_plan_index *ix = x->plan->ix;
  int n = ix->ny0;
  if (x->ixjac) {
    const double *part = x->ixjac + (wrt ? ix->colptr0[n] : 0);
    memset(col, 0, sizeof(double) * (size_t)n);
    for (int q = ix->colptr0[j]; q < ix->colptr0[j + 1]; q++)
      col[ix->rowidx0[q]] = part[q];
    return BSIM_CB_OK;
  }
  double *v = wrt ? yph : yq, v0 = v[j];
  double h = 1.4901161193847656e-08 * fmax(fabs(v0), 1.0);
  v[j] = v0 + h;
  double hh = v[j] - v0;
  int rc = bsim_run_base_residual(x, t, yq, yph, f1);
  v[j] = v0;
  for (int i = 0; i < n; i++)
    col[i] = (f1[i] - f0[i]) / hh;
  return rc;
}

int bsim_run_index_jacobian(double t, const double *y, const double *yp,
                            double cj, double *values, void *user) {
  bsim_run *x = user;
  const bsim_plan *p = x->plan;
  const struct bsim_plan_index *ix = p->ix;
  int n = ix->ny0, N = p->ny;
  double *yph = x->ixbuf, *yq = yph + n, *f0 = yq + n, *f1 = f0 + n,
         *col = f1 + n;
  memcpy(yph, yp, sizeof(double) * (size_t)n);
  for (int k = 0; k < ix->nd; k++)
    yph[ix->dcol[k]] = y[n + k];
  memcpy(yq, y, sizeof(double) * (size_t)n);
  int rc = x->ixjac ? bsim_run_jacobian_parts(t, y, yph, x->ixjac,
                                              x->ixjac + ix->colptr0[n], x)
                    : bsim_run_base_residual(x, t, y, yph, f0);
  memset(values, 0, sizeof(double) * (size_t)N * (size_t)N);
  for (int j = 0; j < n && rc == BSIM_CB_OK; j++)
    for (int wrt = 0; wrt < 2 && rc == BSIM_CB_OK; wrt++) {
      if (wrt && !ix->state0[j] && ix->slot_of[j] < 0) continue;
      rc = base_column(x, t, j, wrt, yq, yph, f0, f1, col);
      /* where the column goes: y_j; y'_j (times cj) or its dummy */
      int slot = ix->slot_of[j];
      double *out = values + (size_t)(wrt && slot >= 0 ? slot : j) * (size_t)N;
      double a = wrt && slot < 0 ? cj : 1.0;
      if (wrt && (ix->state0[j] || slot >= 0))
        for (int i = 0; i < n; i++)
          out[i] += a * col[i];
      if (!wrt)
        for (int i = 0; i < n; i++)
          out[i] += col[i];
      /* G rows read y_j's derivative: its dummy, or y'_j (times cj) */
      if (!wrt) {
        double *g = values + (size_t)(slot >= 0 ? slot : j) * (size_t)N;
        double b = slot >= 0 ? 1.0 : cj;
        for (int k = 0; k < ix->nd; k++)
          g[n + k] += b * col[ix->drow[k]];
      }
    }
  /* the blocks' buffers at the point again, after the differences */
  if (!x->ixjac) bsim_run_base_residual(x, t, y, yph, f0);
  return rc;
}
