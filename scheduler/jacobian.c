/*
 * The analytic Jacobian of the flattened system, J = dF/dy + cj dF/dy',
 * assembled from the blocks' own Jacobians (flag 10) by the chain rule, so
 * that the solver's Newton matrix costs one pass over the diagram instead
 * of one residual call per column group (or per unknown for dense).
 *
 * Every output element carries its derivative with respect to y as a dense
 * row over the few unknowns it depends on (the same sets sparsity.c
 * computes: the block's states and what its direct-feedthrough inputs
 * depend on), so the work and memory follow the sparsity pattern, not n^2.
 * Along the evaluation order,
 *   dy_b/dy = dy_b/dx_b * S_b + dy_b/du_b * du_b/dy,
 * where S_b selects the block's states from y and du_b/dy is the source's
 * row, a unit row for a torn signal w, or zero for an inactive source
 * (constant while the integrator runs). The rows of F are then
 *   F_x = x' - f:  -df/dy, plus cj on the diagonal;
 *   F_w = w - h:   e_w - dh/dy;   dummy F = y': cj.
 * The plan behind it (the sets, the groups of unknowns for block-Jacobi
 * preconditioning) is jacobian_plan.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "scheduler/index.h"
#include "scheduler/jacobian_int.h"
#include "solvers/engine.h"

/* The system the blocks' Jacobian describes: the plan's, or after an
 * index reduction the one before it (index_run.c builds the reduced
 * system's matrix from its columns). */
static inline int jny(const bsim_plan *p) {
  return p->ix ? p->ix->ny0 : p->ny;
}
static inline const int *jcp(const bsim_plan *p) {
  return p->ix ? p->ix->colptr0 : p->pat_colptr;
}
static inline const int *jri(const bsim_plan *p) {
  return p->ix ? p->ix->rowidx0 : p->pat_rowidx;
}

int bsim_run_jacobian_alloc(bsim_run *x) {
  const bsim_plan *p = x->plan;
  const struct bsim_plan_jac *PJ = p->jac;
  struct bsim_run_jac *J = calloc(1, sizeof *J);
  if (!J) return -1;
  x->jac = J;
  J->ny = jny(p);
  J->pos = malloc(sizeof(int) * (size_t)jny(p));
  J->res = calloc((size_t)jny(p), sizeof(double));
  J->jacbuf = malloc(sizeof(double) * (PJ->njacbuf ? PJ->njacbuf : 1));
  J->d = malloc(sizeof(double) * (PJ->nd ? PJ->nd : 1));
  int nnz = jcp(p) ? jcp(p)[jny(p)] : 0;
  J->dfdy = malloc(sizeof(double) * 2 * (size_t)(nnz > 0 ? nnz : 1));
  if (!J->pos || !J->res || !J->jacbuf || !J->d || !J->dfdy) return -1;
  J->dfdyp = J->dfdy + (nnz > 0 ? nnz : 1);
  for (int i = 0; i < jny(p); i++)
    J->pos[i] = -1;
  if (jcp(p) && jny(p) <= MAX_SLOT_MAP) {
    size_t n = (size_t)jny(p);
    J->slot = malloc(sizeof(int) * (n * n > 0 ? n * n : 1));
    if (!J->slot) return -1;
    for (size_t e = 0; e < n * n; e++)
      J->slot[e] = -1;
    for (int j = 0; j < jny(p); j++)
      for (int q = jcp(p)[j]; q < jcp(p)[j + 1]; q++)
        J->slot[(size_t)jri(p)[q] * n + (size_t)j] = q;
  }
  for (int b = 0; b < p->nblocks; b++)
    if (PJ->jb[b].on) x->blocks[b].b.jac = J->jacbuf + PJ->jb[b].jacoff;
  if (p->njac_nl && !p->ix) {
    J->nlq = malloc(sizeof(int) * (size_t)(nnz > 0 ? nnz : 1));
    if (!J->nlq) return -1;
    for (int q = 0; q < nnz; q++)
      if (p->jac_nl_row[jri(p)[q]]) J->nlq[J->nnlq++] = q;
  }
  return 0;
}

void bsim_run_jacobian_free(bsim_run *x) {
  struct bsim_run_jac *J = x->jac;
  if (!J) return;
  free(J->pos);
  free(J->res);
  free(J->jacbuf);
  free(J->d);
  free(J->dfdy);
  free(J->slot);
  free(J->nlq);
  free(J);
  x->jac = NULL;
}

void bsim_run_jacobian_forget(bsim_run *x) {
  if (x->jac) x->jac->have_kept = 0;
}

/* row (over the set whose members pos maps) += a * d(input k element e)/dy */
static void add_input(const bsim_run *x, int b, int k, int e, double a,
                      double *row) {
  const bsim_plan *p = x->plan;
  const struct bsim_plan_jac *J = p->jac;
  const int *pos = x->jac->pos;
  int sb = p->insrc_block[p->inbase[b] + k];
  if (sb < 0) return;
  int sp = p->insrc_port[p->inbase[b] + k];
  int t = p->torn_of[p->portbase[sb] + sp];
  if (t >= 0) {
    row[pos[p->torn[t].yoff + e]] += a;
    return;
  }
  const jblock *src = &J->jb[sb];
  if (!src->hasd) return; /* inactive: constant while integrating */
  int off = 0;
  for (int q = 0; q < sp; q++)
    off += outsize(model_of(p, sb), q);
  const double *srow =
      x->jac->d + src->doff + (size_t)(off + e) * (size_t)src->ncols;
  for (int c = 0; c < src->ncols; c++)
    if (srow[c] != 0) row[pos[src->cols[c]]] += a * srow[c];
}

/* Rows r0 .. r0+nr-1 of the block's flag-10 matrix as rows over cols
 * (outputs: direct-feedthrough inputs only). */
static void chain_rows(bsim_run *x, int b, int r0, int nr, int all_in,
                       const int *cols, int ncols, double *out) {
  const bsim_plan *p = x->plan;
  const struct bsim_plan_jac *J = p->jac;
  const bsim_model *m = model_of(p, b);
  int *pos = x->jac->pos;
  int comp = is_comp(p, b);
  int ndirect = comp ? 2 * m->nx + bsim_model_ncv(m) : m->nx;
  int nrow = (int)jac_rows(p, b, J->jb[b].nyb), xoff = p->blocks[b].xoff;
  const int *dcols = J->jb[b].dcols;
  const double *jac = x->blocks[b].b.jac;
  for (int c = 0; c < ncols; c++)
    pos[cols[c]] = c;
  memset(out, 0, sizeof(double) * (size_t)nr * (size_t)ncols);
  for (int r = 0; r < nr; r++) {
    double *row = out + (size_t)r * (size_t)ncols;
    for (int c = 0; c < ndirect; c++) {
      double a = jac[(r0 + r) + (size_t)nrow * (size_t)c];
      if (a == 0) continue; /* most entries: no lookup */
      int j = comp ? dcols[c] : xoff + c;
      if (j >= 0) row[pos[j]] += a;
    }
    int uoff = ndirect;
    for (int k = 0; k < m->nin; k++) {
      int nk = insize(m, k);
      if (all_in || m->dep_u[k])
        for (int e = 0; e < nk; e++) {
          double a = jac[(r0 + r) + (size_t)nrow * (size_t)(uoff + e)];
          if (a != 0) add_input(x, b, k, e, a, row);
        }
      uoff += nk;
    }
  }
  for (int c = 0; c < ncols; c++)
    pos[cols[c]] = -1;
}

/* values[(i, j)] += v; the entry must be in the pattern. */
static int put(const bsim_run *x, double *values, int i, int j, double v) {
  const bsim_plan *p = x->plan;
  if (x->jac->slot) {
    int q = x->jac->slot[(size_t)i * (size_t)x->jac->ny + (size_t)j];
    if (q < 0) return v == 0 ? 0 : -1;
    values[q] += v;
    return 0;
  }
  int lo = jcp(p)[j], hi = jcp(p)[j + 1] - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2, r = jri(p)[mid];
    if (r == i) {
      values[mid] += v;
      return 0;
    }
    if (r < i)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return v == 0 ? 0 : -1;
}

static int outside_pattern(bsim_run *x, int i, int j) {
  x->errs.fatal = 1;
  bsim_error_set(&x->errs.err, BSIM_ERR_SIM,
                 "analytic Jacobian: entry (%d, %d) lies outside the "
                 "sparsity pattern (hint: run with --solver-param "
                 "jacobian=fd and report the diagram)",
                 i, j);
  return BSIM_CB_FATAL;
}

/* The acausal part's rows: each component's residuals (its own x' terms
 * times cj), then each node's flow balances (a sum: ones). */
static int component_rows(bsim_run *x, int b, double cj, double *values) {
  const bsim_plan *p = x->plan;
  const jblock *jb = &p->jac->jb[b];
  const bsim_model *m = model_of(p, b);
  int nres = bsim_model_nres(m), roff = p->blocks[b].roff,
      xoff = p->blocks[b].xoff;
  int nrow = (int)jac_rows(p, b, jb->nyb);
  double *dx = x->jac->d + jb->dxoff;
  const double *jac = x->blocks[b].b.jac;
  chain_rows(x, b, 0, nres, 1, jb->rcols, jb->nrcols, dx);
  for (int r = 0; r < nres; r++) {
    int i = roff + r;
    for (int c = 0; c < jb->nrcols; c++)
      if (put(x, values, i, jb->rcols[c],
              dx[(size_t)r * (size_t)jb->nrcols + (size_t)c]) != 0)
        return outside_pattern(x, i, jb->rcols[c]);
    for (int s = 0; s < m->nx; s++) {
      double a = jac[r + (size_t)nrow * (size_t)(m->nx + s)];
      if (a != 0 && put(x, values, i, xoff + s, cj * a) != 0)
        return outside_pattern(x, i, xoff + s);
    }
  }
  return BSIM_CB_OK;
}

static int acausal_rows(bsim_run *x, double cj, double *values) {
  const bsim_plan *p = x->plan;
  for (int k = 0; k < p->ncomp; k++) {
    int rc = component_rows(x, p->comp_blocks[k], cj, values);
    if (rc != BSIM_CB_OK) return rc;
  }
  const bsim_flat *f = p->flat;
  for (int n = 0; n < f->nnodes; n++) {
    if (p->kcl_row[n] < 0) continue;
    for (int j = 0; j < f->nodes[n].dom->nflow; j++)
      for (int q = p->kcl_start[n]; q < p->kcl_start[n + 1]; q++) {
        int i = p->kcl_row[n] + j, c = p->kcl_var[q] + j;
        if (put(x, values, i, c, 1.0) != 0) return outside_pattern(x, i, c);
      }
  }
  return BSIM_CB_OK;
}

/* dF/dy', all of whose entries are what bsim_run_jacobian multiplies by
 * cj: the states' rows (y' - f), the dummy's, and the components' own x'
 * terms (flag 10 of the evaluation just made). */
static int cj_part(bsim_run *x, double *values) {
  const bsim_plan *p = x->plan;
  const struct bsim_plan_jac *J = p->jac;
  memset(values, 0, sizeof(double) * (size_t)jcp(p)[jny(p)]);
  for (int k = 0; k < p->nstate_blocks; k++) {
    int b = p->state_blocks[k];
    for (int r = 0; r < model_of(p, b)->nx; r++) {
      int i = p->blocks[b].xoff + r;
      if (put(x, values, i, i, 1.0) != 0) return outside_pattern(x, i, i);
    }
  }
  if (p->dummy && put(x, values, 0, 0, 1.0) != 0)
    return outside_pattern(x, 0, 0);
  for (int k = 0; k < p->ncomp; k++) {
    int b = p->comp_blocks[k];
    const bsim_model *m = model_of(p, b);
    int nres = bsim_model_nres(m), roff = p->blocks[b].roff,
        xoff = p->blocks[b].xoff;
    int nrow = (int)jac_rows(p, b, J->jb[b].nyb);
    const double *jac = x->blocks[b].b.jac;
    for (int r = 0; r < nres; r++)
      for (int s = 0; s < m->nx; s++) {
        double a = jac[r + (size_t)nrow * (size_t)(m->nx + s)];
        if (a != 0 && put(x, values, roff + r, xoff + s, a) != 0)
          return outside_pattern(x, roff + r, xoff + s);
      }
  }
  return BSIM_CB_OK;
}

/* J(cj) at (t, y, y') from the blocks' flag 10 and the chain rule. */
static int evaluate(bsim_run *x, double t, const double *y, const double *yp,
                    double cj, double *values) {
  const bsim_plan *p = x->plan;
  const struct bsim_plan_jac *J = p->jac;
  double *d = x->jac->d;
  x->errs.recoverable = 0;
  bsim_run_bind(x, t, y, yp, x->jac->res, BSIM_PHASE_CONTINUOUS);
  int rc = bsim_run_outputs(x, 0);
  if (rc != BSIM_CB_OK) return rc;
  for (int b = 0; b < p->nblocks; b++) {
    if (!J->jb[b].on) continue;
    size_t sz = jac_rows(p, b, J->jb[b].nyb) * jac_cols(p, b);
    if (sz == 0) continue; /* a source of time alone (supports()) */
    memset(x->blocks[b].b.jac, 0, sizeof(double) * sz);
    if ((rc = bsim_run_call(x, b, BSIM_FLAG_JACOBIAN)) != BSIM_CB_OK) return rc;
  }
  for (int k = 0; k < p->nactive; k++) {
    int b = p->active_order[k];
    const jblock *jb = &J->jb[b];
    const bsim_model *m = model_of(p, b);
    chain_rows(x, b, is_comp(p, b) ? bsim_model_nres(m) : m->nx, jb->nyb, 0,
               jb->cols, jb->ncols, d + jb->doff);
  }
  memset(values, 0, sizeof(double) * (size_t)jcp(p)[jny(p)]);
  for (int k = 0; k < p->nstate_blocks; k++) {
    int b = p->state_blocks[k];
    const jblock *jb = &J->jb[b];
    int nx = model_of(p, b)->nx, xoff = p->blocks[b].xoff;
    const double *dx = d + jb->dxoff;
    chain_rows(x, b, 0, nx, 1, jb->rcols, jb->nrcols, d + jb->dxoff);
    for (int r = 0; r < nx; r++) {
      int i = xoff + r;
      if (put(x, values, i, i, cj) != 0) return outside_pattern(x, i, i);
      for (int c = 0; c < jb->nrcols; c++)
        if (put(x, values, i, jb->rcols[c],
                -dx[(size_t)r * (size_t)jb->nrcols + (size_t)c]) != 0)
          return outside_pattern(x, i, jb->rcols[c]);
    }
  }
  for (int tt = 0; tt < p->ntorn; tt++) {
    const rt_torn *tw = &p->torn[tt];
    const jblock *src = &J->jb[tw->block];
    int off = 0;
    for (int q = 0; q < tw->port; q++)
      off += outsize(model_of(p, tw->block), q);
    for (int e = 0; e < tw->n; e++) {
      int i = tw->yoff + e;
      if (put(x, values, i, i, 1.0) != 0) return outside_pattern(x, i, i);
      if (!src->hasd) continue;
      const double *row =
          d + src->doff + (size_t)(off + e) * (size_t)src->ncols;
      for (int c = 0; c < src->ncols; c++)
        if (put(x, values, i, src->cols[c], -row[c]) != 0)
          return outside_pattern(x, i, src->cols[c]);
    }
  }
  if (p->dummy && put(x, values, 0, 0, cj) != 0)
    return outside_pattern(x, 0, 0);
  return acausal_rows(x, cj, values);
}

/* dF/dy (J at cj = 0) and dF/dy' from one evaluation of the blocks. */
static int parts(bsim_run *x, double t, const double *y, const double *yp,
                 double *dfdy, double *dfdyp) {
  int rc = evaluate(x, t, y, yp, 0.0, dfdy);
  return rc == BSIM_CB_OK ? cj_part(x, dfdyp) : rc;
}

/* With a plan's jac_constant: the parts kept, formed once per mode. */
static int kept(bsim_run *x, double t, const double *y, const double *yp) {
  struct bsim_run_jac *R = x->jac;
  if (R->have_kept) return BSIM_CB_OK;
  int rc = parts(x, t, y, yp, R->dfdy, R->dfdyp);
  R->have_kept = rc == BSIM_CB_OK;
  return rc;
}

int bsim_run_jacobian_parts(double t, const double *y, const double *yp,
                            double *dfdy, double *dfdyp, bsim_run *x) {
  const bsim_plan *p = x->plan;
  if (!p->jac || !x->jac) return BSIM_CB_FATAL;
  if (!p->jac_constant) return parts(x, t, y, yp, dfdy, dfdyp);
  int rc = kept(x, t, y, yp);
  size_t nnz = (size_t)jcp(p)[jny(p)];
  if (rc == BSIM_CB_OK) {
    memcpy(dfdy, x->jac->dfdy, sizeof(double) * nnz);
    memcpy(dfdyp, x->jac->dfdyp, sizeof(double) * nnz);
  }
  return rc;
}

int bsim_run_jacobian_times(double t, const double *y, const double *yp,
                            const double *d, double *out, bsim_run *x) {
  const bsim_plan *p = x->plan;
  if (!bsim_run_jacobian_kept(x)) return BSIM_CB_FATAL;
  int rc = kept(x, t, y, yp);
  if (rc != BSIM_CB_OK) return rc;
  const int *cp = jcp(p), *ri = jri(p);
  const double *v = x->jac->dfdy;
  memset(out, 0, sizeof(double) * (size_t)p->ny);
  for (int j = 0; j < p->ny; j++)
    if (d[j] != 0)
      for (int q = cp[j]; q < cp[j + 1]; q++)
        out[ri[q]] += v[q] * d[j];
  return BSIM_CB_OK;
}

/* With a plan's jac_nl: the rows of the components that move, evaluated
 * again into values (bsim_run_jacobian zeroed their entries and formed
 * the others from the kept parts), each entry as evaluate() forms it: a
 * row's entries come from its own block alone. */
static int moving_rows(bsim_run *x, double t, const double *y, const double *yp,
                       double cj, double *values) {
  const bsim_plan *p = x->plan;
  x->errs.recoverable = 0;
  bsim_run_bind(x, t, y, yp, x->jac->res, BSIM_PHASE_CONTINUOUS);
  int rc = bsim_run_outputs(x, 0);
  if (rc != BSIM_CB_OK) return rc;
  for (int k = 0; k < p->njac_nl; k++) {
    int b = p->jac_nl[k];
    memset(x->blocks[b].b.jac, 0,
           sizeof(double) * jac_rows(p, b, p->jac->jb[b].nyb) * jac_cols(p, b));
    if ((rc = bsim_run_call(x, b, BSIM_FLAG_JACOBIAN)) != BSIM_CB_OK ||
        (rc = component_rows(x, b, cj, values)) != BSIM_CB_OK)
      return rc;
  }
  return BSIM_CB_OK;
}

int bsim_run_jacobian(double t, const double *y, const double *yp, double cj,
                      double *values, void *user) {
  bsim_run *x = user;
  const bsim_plan *p = x->plan;
  if (!p->jac || !x->jac) return BSIM_CB_FATAL;
  const struct bsim_run_jac *R = x->jac;
  if (!p->jac_constant && !R->nlq) return evaluate(x, t, y, yp, cj, values);
  /* Each entry gets at most one term times cj and one without: formed
   * from the kept parts, it is the same sum of the same two numbers. */
  int rc = kept(x, t, y, yp);
  size_t nnz = (size_t)jcp(p)[jny(p)];
  for (size_t q = 0; rc == BSIM_CB_OK && q < nnz; q++)
    values[q] = R->dfdy[q] + cj * R->dfdyp[q];
  if (rc != BSIM_CB_OK || !R->nlq) return rc;
  for (int k = 0; k < R->nnlq; k++)
    values[R->nlq[k]] = 0;
  return moving_rows(x, t, y, yp, cj, values);
}
