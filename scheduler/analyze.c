/*
 * System analysis: the point (consistent initial values, or the state a run
 * reaches at time T), Jacobians of the residual by central differences,
 * names of unknowns and equations from block paths, and the checks users
 * want before trusting a simulation: structural regularity, index at most
 * one, and the stability of the linearized dynamics. The matrix work lives
 * in solvers/analysis.c; this file knows blocks.
 *
 * The run that finds the point ends with flag 5 (blocks release their
 * private memory), so the blocks are initialised again (flag 4) with their
 * discrete states, modes and output buffers put back as the run left them;
 * only what a block keeps in its work memory restarts from its initial
 * value.
 */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scheduler/analyze.h"
#include "scheduler/index.h"
#include "solvers/analysis.h"

static void *zalloc(size_t n, size_t size) {
  return calloc(n ? n : 1, size);
}

char *bsim_an_appendf(char **buf, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int add = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  size_t old = *buf ? strlen(*buf) : 0;
  char *s = add < 0 ? NULL : realloc(*buf, old + (size_t)add + 1);
  if (!s) return NULL;
  va_start(ap, fmt);
  vsnprintf(s + old, (size_t)add + 1, fmt, ap);
  va_end(ap);
  *buf = s;
  return s;
}

/* ------------------------------------------------------------------ */
/* Evaluation                                                          */
/* ------------------------------------------------------------------ */

int bsim_an_evlist(bsim_analysis *a) {
  const bsim_plan *p = a->p;
  const bsim_flat *f = p->flat;
  char *mark = zalloc((size_t)p->nblocks, 1),
       *fed = zalloc((size_t)p->nblocks, 1);
  if (!mark || !fed) {
    free(mark);
    free(fed);
    return -1;
  }
  for (int i = 0; i < p->nblocks; i++)
    mark[i] = (char)p->blocks[i].active;
  for (int k = 0; k < a->nin; k++)
    fed[a->in[k].block] = 1;
  /* a perturbed input moves the event-free blocks it reaches, active or
   * not; an inactive input itself is set, never recomputed */
  for (int changed = 1; changed;) {
    changed = 0;
    for (int l = 0; l < f->nlinks; l++) {
      int from = f->links[l].from_block, to = f->links[l].to_block;
      if ((mark[from] || fed[from]) && !mark[to] &&
          f->blocks[to].model.nevin == 0 &&
          !(fed[to] && !p->blocks[to].active)) {
        mark[to] = 1;
        changed = 1;
      }
    }
  }
  a->nev = 0;
  for (int k = 0; k < p->nblocks; k++) {
    int b = p->order[k];
    if (mark[b] && f->blocks[b].model.nout > 0) a->evlist[a->nev++] = b;
  }
  free(mark);
  free(fed);
  return 0;
}

/* Same equations as bsim_run_residual (eval.c), with the inputs imposed:
 * an inactive producer's buffer is set, an active producer's output is
 * shifted right after it computes it. */
int bsim_an_eval(bsim_analysis *a, const double *y, const double *yp,
                 double *res) {
  const bsim_plan *p = a->p;
  bsim_run *x = a->x;
  memset(&x->errs, 0, sizeof x->errs);
  /* a reduced system (index.c) is evaluated whole; inputs are not
   * imposed on it (linearize refuses it) */
  if (p->ix) return bsim_run_index_residual(x, a->t, y, yp, res);
  bsim_run_bind(x, a->t, y, yp, res, BSIM_PHASE_CONTINUOUS);
  for (int k = 0, ui = 0; k < a->nin; ui += a->in[k].n, k++) {
    const an_input *in = &a->in[k];
    if (p->blocks[in->block].active) continue;
    double *buf = x->blocks[in->block].b.outptr[in->port];
    for (int i = 0; a->u && i < in->n; i++)
      buf[i] = a->u[ui + i];
  }
  for (int e = 0; e < a->nev; e++) {
    int b = a->evlist[e];
    int rc = bsim_run_call(x, b, BSIM_FLAG_OUTPUTS);
    if (rc != BSIM_CB_OK) return rc;
    for (int k = 0, ui = 0; a->u && k < a->nin; ui += a->in[k].n, k++) {
      if (a->in[k].block != b) continue;
      double *buf = x->blocks[b].b.outptr[a->in[k].port];
      for (int i = 0; i < a->in[k].n; i++)
        buf[i] += a->u[ui + i] - a->unom[ui + i];
    }
  }
  return bsim_run_residual_tail(x, yp, res);
}

/* A difference is signal when it exceeds what rounding in the terms of F
 * can produce (a generous 64 ulps of everything involved); below that it is
 * noise from cancellation, e.g. w - (1 + w), and is made exactly zero so
 * that the structural check sees the cancellation. */
static int significant(double fp, double fm, double scale) {
  return fabs(fp - fm) > 64.0 * DBL_EPSILON * (fabs(fp) + fabs(fm) + scale);
}

/*
 * Step sqrt(eps) * max(|v|, 1): relative to the entry so that large
 * states are moved by more than their rounding, at least sqrt(eps) so that
 * entries near zero move at all. With central differences the truncation
 * error (h^2) is negligible at this step and the rounding error is about
 * eps / h = 1.5e-8 relative; the small step also keeps both evaluations on
 * the same side of nearby kinks (saturations, abs) and inside domains. The
 * step actually taken is the representable difference (v+h) - (v-h).
 */
int bsim_an_column(bsim_analysis *a, double *v, int j, double *col,
                   double *noise, double *outs) {
  if (a->perm && (v == a->y || v == a->yp)) j = a->perm[j];
  double v0 = v[j], h = sqrt(DBL_EPSILON) * fmax(fabs(v0), 1.0);
  double vp = v0 + h, vm = v0 - h, hh = vp - vm;
  double *op = outs, *om = NULL; /* f+ outputs go to outs, f- to om */
  if (outs) {
    om = malloc(sizeof(double) * (size_t)(a->no ? a->no : 1));
    if (!om) return BSIM_CB_FATAL;
  }
  v[j] = vp;
  int rc = bsim_an_eval(a, a->y, a->yp, a->r1);
  for (int k = 0; rc == BSIM_CB_OK && outs && k < a->no; k++)
    op[k] = *a->osrc[k];
  if (rc == BSIM_CB_OK) {
    v[j] = vm;
    rc = bsim_an_eval(a, a->y, a->yp, a->r2);
    for (int k = 0; rc == BSIM_CB_OK && outs && k < a->no; k++)
      om[k] = *a->osrc[k];
  }
  v[j] = v0;
  if (rc == BSIM_CB_OK) {
    for (int k = 0; k < a->n; k++) {
      int i = a->rperm ? a->rperm[k] : k;
      double fp = a->r1[i], fm = a->r2[i];
      double sc = a->rscale ? a->rscale[k] : a->scale;
      col[k] = significant(fp, fm, sc) ? (fp - fm) / hh : 0.0;
      if (noise)
        noise[k] = 64.0 * DBL_EPSILON * (fabs(fp) + fabs(fm) + sc) / hh;
    }
    for (int k = 0; outs && k < a->no; k++)
      outs[k] =
          significant(op[k], om[k], a->scale) ? (op[k] - om[k]) / hh : 0.0;
  }
  free(om);
  return rc;
}

/* Both Jacobians at the current a->y, a->yp (noise bounds optional). */
int bsim_an_jacobians(bsim_analysis *a, double *J, double *Jp, double *Jn,
                      double *Jpn) {
  int n = a->n;
  double *col = malloc(sizeof(double) * (size_t)(n ? n : 1));
  double *noi = malloc(sizeof(double) * (size_t)(n ? n : 1));
  int rc = col && noi ? BSIM_CB_OK : BSIM_CB_FATAL;
  for (int wrt = 0; wrt < 2 && rc == BSIM_CB_OK; wrt++) {
    double *M = wrt ? Jp : J, *N = wrt ? Jpn : Jn;
    for (int j = 0; j < n && rc == BSIM_CB_OK; j++) {
      rc = bsim_an_column(a, wrt ? a->yp : a->y, j, col, noi, NULL);
      for (int i = 0; rc == BSIM_CB_OK && i < n; i++) {
        M[(size_t)i * (size_t)n + (size_t)j] = col[i];
        if (N) N[(size_t)i * (size_t)n + (size_t)j] = noi[i];
      }
    }
  }
  free(col);
  free(noi);
  return rc;
}

/* ------------------------------------------------------------------ */
/* The point                                                           */
/* ------------------------------------------------------------------ */

/* Blocks were ended by the run: initialise them again, keeping what the
 * run left in outputs, discrete states and modes. */
static int revive(bsim_analysis *a, bsim_error *err) {
  const bsim_plan *p = a->p;
  bsim_run *x = a->x;
  size_t nz = 0, nm = 0;
  for (int i = 0; i < p->nblocks; i++) {
    nz += (size_t)x->blocks[i].b.nz;
    nm += (size_t)x->blocks[i].b.nmode;
  }
  double *outs = zalloc(p->noutbuf, sizeof(double)),
         *z = zalloc(nz, sizeof(double));
  int *modes = zalloc(nm, sizeof(int));
  double *ty = zalloc((size_t)p->ny * 3, sizeof(double));
  int rc = -1;
  if (!outs || !z || !modes || !ty) {
    bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
    goto done;
  }
  if (p->noutbuf) memcpy(outs, x->outbufs, sizeof(double) * p->noutbuf);
  for (int i = 0, oz = 0, om = 0; i < p->nblocks; i++) {
    bsim_block *b = &x->blocks[i].b;
    if (b->nz) memcpy(z + oz, b->z, sizeof(double) * (size_t)b->nz);
    if (b->nmode) memcpy(modes + om, b->mode, sizeof(int) * (size_t)b->nmode);
    oz += b->nz;
    om += b->nmode;
  }
  /* flag 4 may write states: give it scratch copies */
  memcpy(ty, a->y, sizeof(double) * (size_t)p->ny);
  memcpy(ty + p->ny, a->yp, sizeof(double) * (size_t)p->ny);
  memset(&x->errs, 0, sizeof x->errs);
  bsim_run_bind(x, a->t, ty, ty + p->ny, ty + 2 * p->ny, BSIM_PHASE_DISCRETE);
  for (int k = 0; k < p->nblocks; k++) {
    rt_block *rb = &x->blocks[p->order[k]];
    rb->fn(&rb->b, BSIM_FLAG_INIT);
  }
  a->live = 1;
  if (x->errs.fatal) {
    bsim_error_set(err, BSIM_ERR_SIM, "%s", x->errs.err.message);
    goto done;
  }
  if (p->noutbuf) memcpy(x->outbufs, outs, sizeof(double) * p->noutbuf);
  for (int i = 0, oz = 0, om = 0; i < p->nblocks; i++) {
    bsim_block *b = &x->blocks[i].b;
    if (b->nz) memcpy(b->z, z + oz, sizeof(double) * (size_t)b->nz);
    if (b->nmode) memcpy(b->mode, modes + om, sizeof(int) * (size_t)b->nmode);
    oz += b->nz;
    om += b->nmode;
  }
  rc = 0;
done:
  free(outs);
  free(z);
  free(modes);
  free(ty);
  return rc;
}

/* No consistent point: the states' initial values, the loop signals as
 * the last evaluation left them, y' = f. */
static void initial_guess(bsim_analysis *a) {
  const bsim_plan *p = a->p;
  const bsim_run *x = a->x;
  a->t = a->s->t0;
  memset(a->y, 0, sizeof(double) * (size_t)p->ny);
  memset(a->yp, 0, sizeof(double) * (size_t)p->ny);
  for (int k = 0; k < p->nstate_blocks; k++) {
    int b = p->state_blocks[k];
    const rt_block *rb = &x->blocks[b];
    if (rb->m->x0 && rb->b.nx)
      memcpy(a->y + p->blocks[b].xoff, rb->m->x0,
             sizeof(double) * (size_t)rb->b.nx);
  }
  if (p->nw) memcpy(a->y + p->nx, x->w, sizeof(double) * (size_t)p->nw);
  if (bsim_an_eval(a, a->y, a->yp, a->res) == BSIM_CB_OK)
    for (int i = 0; i < p->nx; i++)
      a->yp[i] = -a->res[i];
}

static int find_point(bsim_analysis *a, const bsim_diagram *d,
                      const bsim_options *o, double at, bsim_error *err) {
  bsim_options opt;
  if (o)
    opt = *o;
  else
    bsim_options_init(&opt);
  if (at > 0) opt.final_time = at;
  opt.samples = 2; /* only the end matters */
  a->s = bsim_sim_create(d, &opt, err);
  if (!a->s) return -1;
  const bsim_plan *p = a->p = a->s->plan;
  a->x = a->s->run;
  size_t ny = (size_t)p->ny;
  a->y = zalloc(ny, sizeof(double));
  a->yp = zalloc(ny, sizeof(double));
  a->res = zalloc(ny, sizeof(double));
  a->r1 = zalloc(ny, sizeof(double));
  a->r2 = zalloc(ny, sizeof(double));
  a->evlist = zalloc((size_t)p->nblocks, sizeof(int));
  if (!a->y || !a->yp || !a->res || !a->r1 || !a->r2 || !a->evlist) {
    bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
    return -1;
  }
  a->n = p->ny - p->dummy;
  a->nd = 0;
  for (int i = 0; i < a->n; i++)
    a->nd += p->id[i] != 0;
  a->na = a->n - a->nd;
  a->s->stop_after_start = !(at > 0);
  a->s->final_y = a->y;
  a->s->final_yp = a->yp;
  bsim_error run_err;
  bsim_error_clear(&run_err);
  int ok = bsim_sim_run(a->s, &run_err) == 0;
  if (!ok && run_err.status == BSIM_ERR_NOMEM) {
    bsim_error_set(err, BSIM_ERR_NOMEM, "%s", run_err.message);
    return -1;
  }
  a->t = ok ? a->s->final_t : a->s->t0;
  if (revive(a, err) != 0 || bsim_an_evlist(a) != 0) return -1;
  if (!ok) {
    snprintf(a->note, sizeof a->note,
             "no consistent point%s: %s; analysing the initial guess at "
             "t = %g instead",
             at > 0 ? " (the run failed)" : "", run_err.message, a->t);
    initial_guess(a);
  }
  double m = 0;
  for (size_t i = 0; i < ny; i++)
    m = fmax(m, fmax(fabs(a->y[i]), fabs(a->yp[i])));
  a->scale = 1.0 + m;
  return 0;
}

/* ------------------------------------------------------------------ */
/* Names                                                               */
/* ------------------------------------------------------------------ */

/* The acausal part's unknowns and rows (acausal.c, index.c). */
static int name_acausal(bsim_analysis *a) {
  const bsim_plan *p = a->p;
  for (int c = 0; c < p->ncomp; c++) {
    int b = p->comp_blocks[c];
    const plan_block *pb = &p->blocks[b];
    const bsim_model *m = &pb->fb->model;
    int nres = m->nres > 0 ? m->nres : m->nx;
    for (int i = 0; i < m->nx; i++) {
      a->ublock[pb->xoff + i] = b;
      if (!bsim_an_appendf(&a->uname[pb->xoff + i], "%s.x[%d]", pb->fb->path,
                           i + 1))
        return -1;
    }
    for (int r = 0; r < nres; r++) {
      a->rblock[pb->roff + r] = b;
      if (!bsim_an_appendf(&a->ename[pb->roff + r], "%s.res[%d]", pb->fb->path,
                           r + 1))
        return -1;
    }
    for (int k = 0; k < m->ncon; k++) {
      const bsim_domain *d = m->condom[k];
      int pot = p->conpot[pb->conoff + k], fl = p->conflow[pb->conoff + k];
      for (int v = 0; v < d->npot; v++) {
        int j = pot + v;
        if (a->uname[j]) continue;
        a->ublock[j] = b;
        if (!bsim_an_appendf(&a->uname[j], "%s:%s.pot[%d]", pb->fb->path,
                             m->conname[k], v + 1))
          return -1;
      }
      int row = p->kcl_row[pb->fb->con_node[k]];
      for (int v = 0; v < d->nflow; v++) {
        a->ublock[fl + v] = b;
        if (!bsim_an_appendf(&a->uname[fl + v], "%s:%s.flow[%d]", pb->fb->path,
                             m->conname[k], v + 1))
          return -1;
        if (row < 0 || a->ename[row + v]) continue;
        a->rblock[row + v] = b;
        if (!bsim_an_appendf(&a->ename[row + v], "flow balance at %s:%s",
                             pb->fb->path, m->conname[k]))
          return -1;
      }
    }
  }
  const struct bsim_plan_index *ix = p->ix;
  for (int k = 0; ix && k < ix->nd; k++) {
    int j = ix->ny0 + k, r = ix->drow[k];
    a->ublock[j] = a->ublock[ix->dcol[k]];
    a->rblock[j] = a->rblock[r];
    if (!bsim_an_appendf(&a->uname[j], "der(%s)",
                         a->uname[ix->dcol[k]] ? a->uname[ix->dcol[k]] : "?") ||
        !bsim_an_appendf(&a->ename[j], "d/dt %s",
                         a->ename[r] ? a->ename[r] : "?"))
      return -1;
  }
  return 0;
}

static int name_unknowns(bsim_analysis *a) {
  const bsim_plan *p = a->p;
  int n = a->n;
  a->uname = zalloc((size_t)n, sizeof(char *));
  a->ename = zalloc((size_t)n, sizeof(char *));
  a->ublock = zalloc((size_t)n, sizeof(int));
  a->rblock = zalloc((size_t)n, sizeof(int));
  if (!a->uname || !a->ename || !a->ublock || !a->rblock) return -1;
  for (int k = 0; k < p->nstate_blocks; k++) {
    const plan_block *pb = &p->blocks[p->state_blocks[k]];
    for (int i = 0; i < pb->fb->model.nx; i++) {
      int j = pb->xoff + i;
      a->ublock[j] = a->rblock[j] = p->state_blocks[k];
      if (!bsim_an_appendf(&a->uname[j], "%s.x[%d]", pb->fb->path, i + 1) ||
          !bsim_an_appendf(&a->ename[j], "%s.f[%d]", pb->fb->path, i + 1))
        return -1;
    }
  }
  if (name_acausal(a) != 0) return -1;
  for (int t = 0; t < p->ntorn; t++) {
    const rt_torn *tw = &p->torn[t];
    const char *path = p->blocks[tw->block].fb->path;
    for (int i = 0; i < tw->n; i++) {
      int j = tw->yoff + i;
      char idx[32] = "";
      if (tw->n > 1) snprintf(idx, sizeof idx, "[%d]", i + 1);
      a->ublock[j] = a->rblock[j] = tw->block;
      if (!bsim_an_appendf(&a->uname[j], "%s:%d%s", path, tw->port + 1, idx) ||
          !bsim_an_appendf(&a->ename[j], "%s:%d%s.g", path, tw->port + 1, idx))
        return -1;
    }
  }
  return 0;
}

static void permute_rows_cols(double *M, int n, const int *rp, const int *cp,
                              double *tmp) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      tmp[(size_t)i * (size_t)n + (size_t)j] =
          M[(size_t)rp[i] * (size_t)n + (size_t)cp[j]];
  memcpy(M, tmp, sizeof(double) * (size_t)n * (size_t)n);
}

static void permute_names(char **v, const int *p, int n, char **tmp) {
  for (int i = 0; i < n; i++)
    tmp[i] = v[p[i]];
  memcpy(v, tmp, sizeof(char *) * (size_t)n);
}

/* Differential unknowns first, and the equations that hold y' first,
 * for the checks' partition [yd | ya] (acausal parts interleave them).
 * Rows stay in place when their count does not match. */
static int order_partition(bsim_analysis *a) {
  int n = a->n, nd = 0;
  a->perm = zalloc((size_t)n, sizeof(int));
  a->rperm = zalloc((size_t)n, sizeof(int));
  double *tmp = zalloc((size_t)n * (size_t)n, sizeof(double));
  char **names = zalloc((size_t)n, sizeof(char *));
  int *ub = zalloc((size_t)n, sizeof(int));
  if (!a->perm || !a->rperm || !tmp || !names || !ub) {
    free(tmp);
    free(names);
    free(ub);
    return -1;
  }
  for (int pass = 0, k = 0; pass < 2; pass++)
    for (int j = 0; j < n; j++)
      if ((a->p->id[j] != 0) == !pass) a->perm[k++] = j;
  for (int j = 0; j < n; j++)
    nd += a->p->id[j] != 0;
  int ndr = 0;
  for (int i = 0; i < n; i++) {
    int any = 0;
    for (int j = 0; j < n && !any; j++)
      any = a->Jp[(size_t)i * (size_t)n + (size_t)j] != 0;
    a->rperm[i] = any; /* mark for now */
    ndr += any;
  }
  if (ndr == nd) {
    int k = 0, *mark = ub;
    memcpy(mark, a->rperm, sizeof(int) * (size_t)n);
    for (int pass = 0; pass < 2; pass++)
      for (int i = 0; i < n; i++)
        if (mark[i] == !pass) a->rperm[k++] = i;
  } else {
    for (int i = 0; i < n; i++)
      a->rperm[i] = i;
  }
  double *mats[] = {a->J, a->Jp, a->Jn, a->Jpn};
  for (int m = 0; m < 4; m++)
    permute_rows_cols(mats[m], n, a->rperm, a->perm, tmp);
  permute_names(a->uname, a->perm, n, names);
  permute_names(a->ename, a->rperm, n, names);
  for (int i = 0; i < n; i++)
    ub[i] = a->ublock[a->perm[i]];
  memcpy(a->ublock, ub, sizeof(int) * (size_t)n);
  for (int i = 0; i < n; i++)
    ub[i] = a->rblock[a->rperm[i]];
  memcpy(a->rblock, ub, sizeof(int) * (size_t)n);
  free(tmp);
  free(names);
  free(ub);
  return 0;
}

static int row_scales(bsim_analysis *a) {
  int n = a->n;
  a->rscale = zalloc((size_t)n, sizeof(double));
  if (!a->rscale) return -1;
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int k = 0; k < n; k++) {
      int j = a->perm[k];
      s += fabs(a->J[(size_t)i * (size_t)n + (size_t)k]) * fabs(a->y[j]) +
           fabs(a->Jp[(size_t)i * (size_t)n + (size_t)k]) * fabs(a->yp[j]);
    }
    a->rscale[i] = s + DBL_MIN;
  }
  return 0;
}

bsim_analysis *bsim_analysis_create(const bsim_diagram *d,
                                    const bsim_options *o, double at,
                                    bsim_error *err) {
  bsim_analysis *a = calloc(1, sizeof *a);
  if (!a) {
    bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
    return NULL;
  }
  a->verdict = BSIM_STABILITY_UNKNOWN;
  if (find_point(a, d, o, at, err) != 0) goto fail;
  size_t nn = (size_t)a->n * (size_t)a->n;
  a->J = zalloc(nn, sizeof(double));
  a->Jp = zalloc(nn, sizeof(double));
  a->Jn = zalloc(nn, sizeof(double));
  a->Jpn = zalloc(nn, sizeof(double));
  if (!a->J || !a->Jp || !a->Jn || !a->Jpn || name_unknowns(a) != 0) goto nomem;
  /* a first pass judged only by each row's own values gives the rows'
   * scales; the second pass judges rounding with them */
  double global = a->scale;
  a->scale = 0;
  int rc = bsim_an_jacobians(a, a->J, a->Jp, a->Jn, a->Jpn);
  a->scale = global;
  if (rc == BSIM_CB_OK && (order_partition(a) != 0 || row_scales(a) != 0))
    goto nomem;
  if (rc == BSIM_CB_OK) rc = bsim_an_jacobians(a, a->J, a->Jp, a->Jn, a->Jpn);
  if (rc != BSIM_CB_OK) {
    bsim_error_set(err, BSIM_ERR_SIM,
                   "the residual cannot be evaluated near the point t = %g: "
                   "%s (hint: the point lies on a domain boundary; try --at)",
                   a->t,
                   a->x->errs.fatal ? a->x->errs.err.message
                                    : a->x->errs.last_recoverable);
    goto fail;
  }
  if (bsim_an_structural(a) != 0 || bsim_an_index(a) != 0 ||
      bsim_an_reduce(a) != 0)
    goto nomem;
  /* leave the block buffers at the point itself */
  bsim_an_eval(a, a->y, a->yp, a->res);
  return a;
nomem:
  bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
fail:
  bsim_analysis_free(a);
  return NULL;
}

void bsim_analysis_free(bsim_analysis *a) {
  if (!a) return;
  if (a->live) {
    const bsim_plan *p = a->p;
    bsim_run_bind(a->x, a->t, a->y, a->yp, a->res, BSIM_PHASE_DISCRETE);
    for (int k = 0; k < p->nblocks; k++) {
      rt_block *rb = &a->x->blocks[p->order[k]];
      rb->fn(&rb->b, BSIM_FLAG_END);
    }
  }
  for (int j = 0; j < a->n && a->uname; j++)
    free(a->uname[j]);
  for (int j = 0; j < a->n && a->ename; j++)
    free(a->ename[j]);
  bsim_an_free_linear(a);
  free(a->uname);
  free(a->ename);
  free(a->ublock);
  free(a->rblock);
  free(a->perm);
  free(a->rperm);
  free(a->rscale);
  free(a->ere);
  free(a->eim);
  free(a->ared);
  free(a->smsg);
  free(a->imsg);
  free(a->J);
  free(a->Jp);
  free(a->Jn);
  free(a->Jpn);
  free(a->evlist);
  free(a->y);
  free(a->yp);
  free(a->res);
  free(a->r1);
  free(a->r2);
  bsim_sim_free(a->s);
  free(a);
}
