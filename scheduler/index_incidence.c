/*
 * Which unknowns each row of F reads (y and y'), for the index analysis
 * of index.c: the plan's coarse pattern for the causal rows, and for the
 * acausal components the union of their own Jacobians (flag 10, else
 * differences of flag 0) at a few random points, the causal blocks in
 * between followed through the dependency sets the sparsity pattern
 * uses. Apart from the matching because this is the part that runs
 * blocks.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scheduler/index.h"

enum { PROBES = 6 };

static void *zalloc(size_t n, size_t size) {
  return calloc(n ? n : 1, size);
}

/* Deterministic uniform numbers in [-1, 1) (no global state). */
static double urand(unsigned long *s) {
  *s = *s * 6364136223846793005UL + 1442695040888963407UL;
  return (double)(*s >> 11) / 4503599627370496.0 - 1.0;
}

static int ninputs(const bsim_model *m) {
  int n = 0;
  for (int k = 0; k < m->nin; k++)
    n += m->in[k] * m->in2[k];
  return n;
}

/* Local incidence of component b: rows nres (+ outputs ignored) over
 * columns x, x', connector variables, inputs; pat[r * ncol + c]. The
 * union of the nonzeros of its Jacobian at PROBES random points. 0, or
 * -1 when the block fails there (the caller gives up the analysis). */
static int probe(bsim_run *x, int b, char *pat, int ncol, unsigned long *seed) {
  const bsim_plan *p = x->plan;
  const plan_block *pb = &p->blocks[b];
  const bsim_model *m = &pb->fb->model;
  bsim_block *v = &x->blocks[b].b;
  int nx = m->nx, nc = bsim_model_ncv(m), nu = ninputs(m),
      nres = bsim_model_nres(m);
  int ny = 0;
  for (int k = 0; k < m->nout; k++)
    ny += m->out[k] * m->out2[k];
  int nrow = nres + ny, rc = 0;
  int flag10 =
      (pb->fb->run_type->flags & BSIM_TYPE_JACOBIAN) && !m->no_jacobian;
  size_t need =
      (size_t)(2 * nx + nc + nu + 2 * nres) + (size_t)nrow * (size_t)ncol;
  double *mem = zalloc(need, sizeof(double));
  const double **pot = zalloc((size_t)m->ncon, sizeof *pot);
  const double **flow = zalloc((size_t)m->ncon, sizeof *flow);
  if (!mem || !pot || !flow) {
    free(mem);
    free(pot);
    free(flow);
    return -1;
  }
  double *xs = mem, *xd = xs + nx, *cv = xd + nx, *u = cv + nc;
  double *r0 = u + nu, *r1 = r0 + nres, *jac = r1 + nres;
  /* inputs: point the view at our own values */
  double **inptr = v->inptr;
  double **myin = zalloc((size_t)m->nin, sizeof *myin);
  if (!myin) rc = -1;
  for (int k = 0, e = 0; rc == 0 && k < m->nin; k++) {
    myin[k] = u + e;
    e += m->in[k] * m->in2[k];
  }
  v->inptr = myin;
  v->x = xs;
  v->xd = xd;
  v->res = r0;
  v->pot = pot;
  v->flow = flow;
  for (int k = 0, c = 0; k < m->ncon; k++) {
    pot[k] = cv + c;
    c += m->condom[k]->npot;
    flow[k] = cv + c;
    c += m->condom[k]->nflow;
  }
  v->phase = BSIM_PHASE_CONTINUOUS;
  for (int s = 0; s < PROBES && rc == 0; s++) {
    v->t = 1 + urand(seed);
    for (int i = 0; i < 2 * nx + nc + nu; i++)
      xs[i] = 3 * urand(seed); /* xs, xd, cv, u are contiguous */
    for (int i = 0; i < v->nmode; i++)
      v->mode[i] = s & 1;
    x->errs.fatal = x->errs.recoverable = 0;
    if (flag10) {
      double *saved = v->jac;
      v->jac = jac;
      memset(jac, 0, sizeof(double) * (size_t)nrow * (size_t)ncol);
      x->blocks[b].fn(v, BSIM_FLAG_JACOBIAN);
      v->jac = saved;
      for (int r = 0; r < nres; r++)
        for (int c = 0; c < ncol; c++)
          if (jac[r + (size_t)nrow * (size_t)c] != 0)
            pat[(size_t)r * (size_t)ncol + (size_t)c] = 1;
    } else {
      v->res = r0;
      x->blocks[b].fn(v, BSIM_FLAG_DERIVATIVES);
      for (int c = 0; c < ncol && !x->errs.fatal; c++) {
        double old = xs[c];
        xs[c] = old + 1e-6 * (1 + fabs(old));
        v->res = r1;
        x->blocks[b].fn(v, BSIM_FLAG_DERIVATIVES);
        xs[c] = old;
        for (int r = 0; r < nres; r++)
          if (r1[r] != r0[r]) pat[(size_t)r * (size_t)ncol + (size_t)c] = 1;
      }
    }
    if (x->errs.fatal) rc = -1;
  }
  v->inptr = inptr;
  x->errs.fatal = x->errs.recoverable = 0;
  free(myin);
  free(mem);
  free(pot);
  free(flow);
  return rc;
}

/* What each active block's outputs depend on (dense rows over y), in
 * evaluation order, for the inputs of components. */
static char *output_deps(const bsim_plan *p, int n) {
  const bsim_flat *f = p->flat;
  char *dep = zalloc((size_t)p->nblocks * (size_t)n, 1);
  if (!dep) return NULL;
  for (int k = 0; k < p->nblocks; k++) {
    int b = p->order[k];
    const plan_block *pb = &p->blocks[b];
    const bsim_model *m = &f->blocks[b].model;
    char *row = dep + (size_t)b * (size_t)n;
    if (!pb->active) continue;
    for (int s = 0; s < m->nx; s++)
      row[pb->xoff + s] = 1;
    if (pb->conoff >= 0)
      for (int c = 0; c < bsim_model_ncv(m); c++)
        row[bsim_plan_con_var(p, b, c)] = 1;
    for (int u = 0; u < m->nin; u++) {
      int sb = p->insrc_block[p->inbase[b] + u];
      if (sb < 0 || (!m->dep_u[u] && pb->conoff < 0)) continue;
      int t = p->torn_of[p->portbase[sb] + p->insrc_port[p->inbase[b] + u]];
      if (t >= 0) {
        for (int i = 0; i < p->torn[t].n; i++)
          row[p->torn[t].yoff + i] = 1;
      } else {
        const char *src = dep + (size_t)sb * (size_t)n;
        for (int j = 0; j < n; j++)
          row[j] |= src[j];
      }
    }
  }
  return dep;
}

int bsim_index_incidence(const bsim_plan *p, bsim_index_inc *I) {
  int n = p->ny, rc = 0;
  I->n = n;
  I->py = zalloc((size_t)n * (size_t)n, 1);
  I->pyp = zalloc((size_t)n * (size_t)n, 1);
  char *dep = output_deps(p, n);
  bsim_run *x = bsim_run_create(p, NULL);
  double *zero = zalloc((size_t)n * 3, sizeof(double));
  if (!I->py || !I->pyp || !dep || !x || !zero) {
    free(dep);
    free(zero);
    bsim_run_free(x);
    return -1;
  }
  /* blocks see a bound view at flag 4, as in a run */
  bsim_run_bind(x, 0, zero, zero + n, zero + 2 * n, BSIM_PHASE_DISCRETE);
  /* everything but the components' rows: the pattern, with y' on the
   * states' own rows */
  for (int j = 0; j < n; j++)
    for (int q = p->pat_colptr[j]; q < p->pat_colptr[j + 1]; q++)
      I->py[(size_t)p->pat_rowidx[q] * (size_t)n + (size_t)j] = 1;
  for (int i = 0; i < p->nx; i++)
    I->pyp[(size_t)i * (size_t)n + (size_t)i] = 1;
  for (int k = 0; k < p->nstate_blocks; k++) {
    const plan_block *pb = &p->blocks[p->state_blocks[k]];
    if (!pb->fb->model.implicit) continue;
    for (int r = 0; r < pb->fb->model.nx; r++)
      for (int s = 0; s < pb->fb->model.nx; s++)
        I->pyp[(size_t)(pb->xoff + r) * (size_t)n + (size_t)(pb->xoff + s)] = 1;
  }
  unsigned long seed = 12345;
  for (int c = 0; c < p->ncomp && rc == 0; c++) {
    int b = p->comp_blocks[c];
    const plan_block *pb = &p->blocks[b];
    const bsim_model *m = &pb->fb->model;
    int nx = m->nx, nc = bsim_model_ncv(m), nres = bsim_model_nres(m);
    int ncol = 2 * nx + nc + ninputs(m);
    char *pat = zalloc((size_t)nres * (size_t)ncol, 1);
    if (!pat) {
      rc = -1;
      break;
    }
    x->blocks[b].fn(&x->blocks[b].b, BSIM_FLAG_INIT);
    rc = x->errs.fatal ? 1 : probe(x, b, pat, ncol, &seed) ? 1 : 0;
    x->blocks[b].fn(&x->blocks[b].b, BSIM_FLAG_END);
    for (int r = 0; r < nres && rc == 0; r++) {
      size_t i = (size_t)(pb->roff + r);
      memset(I->py + i * (size_t)n, 0, (size_t)n);
      const char *pr = pat + (size_t)r * (size_t)ncol;
      for (int s = 0; s < nx; s++) {
        if (pr[s]) I->py[i * (size_t)n + (size_t)(pb->xoff + s)] = 1;
        if (pr[nx + s]) I->pyp[i * (size_t)n + (size_t)(pb->xoff + s)] = 1;
      }
      for (int cc = 0; cc < nc; cc++)
        if (pr[2 * nx + cc])
          I->py[i * (size_t)n + (size_t)bsim_plan_con_var(p, b, cc)] = 1;
      for (int u = 0, e = 2 * nx + nc; u < m->nin; u++) {
        int any = 0;
        for (int q = 0; q < m->in[u] * m->in2[u]; q++)
          any |= pr[e + q];
        e += m->in[u] * m->in2[u];
        int sb = p->insrc_block[p->inbase[b] + u];
        if (!any || sb < 0) continue;
        int t = p->torn_of[p->portbase[sb] + p->insrc_port[p->inbase[b] + u]];
        for (int j = 0; j < n; j++)
          if (t >= 0
                  ? j >= p->torn[t].yoff && j < p->torn[t].yoff + p->torn[t].n
                  : dep[(size_t)sb * (size_t)n + (size_t)j])
            I->py[i * (size_t)n + (size_t)j] = 1;
      }
    }
    free(pat);
  }
  free(dep);
  free(zero);
  bsim_run_free(x);
  return rc;
}
