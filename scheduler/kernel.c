/*
 * The residual as a flat list of operations. Inside the integrator the same
 * blocks are evaluated thousands of times with the same structure, and a
 * linear block (BSIM_TYPE_LINEAR with flag 10: gains, sums, integrators,
 * CLR, CLSS, MUX ...) computes nothing but fixed weighted sums of its
 * inputs and states. So at the start of a run their Jacobians (flag 10,
 * which for such a block depends on its parameters only) become rows of
 * terms, one per output element or state derivative:
 *   value = sum c * y[i] (states) + sum c * *p (input elements, in place).
 * Evaluation walks one list in compiled order, rows of linear blocks inline
 * and other blocks through their function, with no per-block bookkeeping:
 * no flag dispatch, no size arithmetic, no views to refresh for blocks
 * that are not called. The views of linear blocks are refreshed in the
 * discrete phase as before, where their functions run.
 *
 * Each block's rows are checked against its own flags 1 and 0 when built;
 * a block whose function disagrees stays a call.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scheduler/kernel.h"

int bsim_kprog_grow(void **a, int *cap, int need, size_t size) {
  if (need <= *cap) return 0;
  int c = *cap ? *cap : 16;
  while (c < need)
    c *= 2;
  void *n = realloc(*a, (size_t)c * size);
  if (!n) return -1;
  *a = n;
  *cap = c;
  return 0;
}

void bsim_kprog_free(kprog *g) {
  free(g->seg);
  free(g->rows);
  free(g->terms);
  free(g->yterms);
  memset(g, 0, sizeof *g);
}

int bsim_kprog_add_row(kprog *g, double *out, int row) {
  /* the term table exists once there is a row, even one without terms
   * (a zero gain): row walks then never offset a NULL pointer */
  if (bsim_kprog_grow((void **)&g->rows, &g->caprows, g->nrows + 1,
                      sizeof(krow)) ||
      bsim_kprog_grow((void **)&g->terms, &g->capterms, 1, sizeof(kterm)))
    return -1;
  g->rows[g->nrows++] = (krow){out, row, 0};
  return 0;
}

int bsim_kprog_add_term(kprog *g, double c, int i, const double *p) {
  if (bsim_kprog_grow((void **)&g->terms, &g->capterms, g->nterms + 1,
                      sizeof(kterm)))
    return -1;
  if (!p && bsim_kprog_grow((void **)&g->yterms, &g->capyterms, g->nyterms + 1,
                            sizeof(int)))
    return -1;
  kterm *t = &g->terms[g->nterms];
  t->c = c;
  t->p = p;
  t->i = p ? -1 : i;
  if (!p) {
    g->yterms[g->nyterms++] = g->nterms;
    g->ybase = NULL; /* to be based before use */
  }
  g->nterms++;
  g->rows[g->nrows - 1].n++;
  return 0;
}

/* Points the y terms into y. */
static inline void rebase(kprog *g, const double *y) {
  if (y == g->ybase) return;
  for (int k = 0; k < g->nyterms; k++) {
    kterm *t = &g->terms[g->yterms[k]];
    t->p = y + t->i;
  }
  g->ybase = y;
}

int bsim_kprog_add_seg(kprog *g, rt_block *call, int r0, int r1, int t0) {
  if (!call && g->nseg > 0 && !g->seg[g->nseg - 1].call) {
    g->seg[g->nseg - 1].r1 = r1; /* consecutive linear blocks: one run */
    return 0;
  }
  if (bsim_kprog_grow((void **)&g->seg, &g->capseg, g->nseg + 1, sizeof(kseg)))
    return -1;
  g->seg[g->nseg++] = (kseg){call, r0, r1, t0};
  return 0;
}

static void free_kernel(struct bsim_run_kernel *k) {
  if (!k) return;
  bsim_kprog_free(&k->full);
  bsim_kprog_free(&k->lean);
  free(k->calls);
  free(k->fn_states);
  free(k->expl);
  free(k);
}

void bsim_run_kernel_free(bsim_run *x) {
  free_kernel(x->kern);
  x->kern = NULL;
}

static int eligible(const bsim_plan *p, int b) {
  const plan_block *pb = &p->blocks[b];
  const bsim_flat_block *fb = pb->fb;
  const bsim_block_type *t = fb->run_type ? fb->run_type : fb->type;
  unsigned need = BSIM_TYPE_LINEAR | BSIM_TYPE_JACOBIAN;
  return (t->flags & need) == need && !fb->model.no_jacobian &&
         !fb->model.implicit && pb->ng == 0 && pb->nmode == 0 &&
         !bsim_plan_is_comp(p, b);
}

static int elems(const int *sz, int n, int k) {
  return sz[k] * sz[n + k];
}

static int nelems(const int *sz, int n) {
  int s = 0;
  for (int k = 0; k < n; k++)
    s += elems(sz, n, k);
  return s;
}

/* A row's value; *t walks the terms, which follow each other row after
 * row. */
static inline double row_value(const krow *r, const kterm **t) {
  const kterm *u = *t;
  int n = r->n;
  *t = u + n;
  if (n == 1) return u->c * *u->p; /* most rows: a copy or a gain */
  double s = 0;
  for (int i = 0; i < n; i++)
    s += u[i].c * *u[i].p;
  return s;
}

/* Appends the rows r0..r1 of block b's Jacobian J ((nx + ny) rows,
 * column-major): derivatives are rows 0..nx-1, outputs the rest. */
static int add_rows(bsim_run *x, kprog *g, int b, const double *J, int r0,
                    int r1) {
  const bsim_block *v = &x->blocks[b].b;
  int nx = v->nx, nr = nx + nelems(v->outsz, v->nout);
  int nu = nelems(v->insz, v->nin), xoff = x->plan->blocks[b].xoff;
  for (int r = r0; r < r1; r++) {
    double *out = NULL;
    if (r >= nx) { /* output element r - nx: its port and place */
      int e = r - nx, port = 0;
      while (e >= elems(v->outsz, v->nout, port))
        e -= elems(v->outsz, v->nout, port++);
      out = v->outptr[port] + e;
    }
    if (bsim_kprog_add_row(g, out, xoff + r) != 0) return -1;
    for (int c = 0; c < nx; c++) {
      double a = J[r + (size_t)nr * (size_t)c];
      if (a != 0 && bsim_kprog_add_term(g, a, xoff + c, NULL) != 0) return -1;
    }
    for (int c = 0, port = 0, e = 0; c < nu; c++, e++) {
      while (e >= elems(v->insz, v->nin, port)) {
        e = 0;
        port++;
      }
      double a = J[r + (size_t)nr * (size_t)(nx + c)];
      if (a != 0 && bsim_kprog_add_term(g, a, 0, v->inptr[port] + e) != 0)
        return -1;
    }
  }
  return 0;
}

/* Rows from r0 on (terms from t0 on) agree with what the block's function
 * computed (want: one value per row), up to rounding in their terms. */
static int agrees(kprog *g, int r0, int t0, const double *want,
                  const double *y) {
  rebase(g, y);
  if (r0 == g->nrows) return 1; /* no terms: g->terms may be NULL */
  const kterm *t = g->terms + t0;
  for (int r = r0; r < g->nrows; r++) {
    const krow *row = &g->rows[r];
    const kterm *u = t;
    double got = row_value(row, &t), tol = 0;
    for (int i = 0; i < row->n; i++)
      tol += fabs(u[i].c * *u[i].p);
    if (!(fabs(want[r - r0] - got) <= 1e-12 * tol)) return 0;
  }
  return 1;
}

/* Tries block b's output rows (states = 0) or derivative rows (1); on
 * disagreement they are dropped and 0 returned. -1 out of memory. */
static int try_block(bsim_run *x, kprog *g, int b, int states, double *J,
                     double *want, const double *y) {
  rt_block *rb = &x->blocks[b];
  bsim_block *v = &rb->b;
  int nx = v->nx, ny = nelems(v->outsz, v->nout), nu = nelems(v->insz, v->nin);
  memset(J, 0, sizeof(double) * (size_t)(nx + ny) * (size_t)(nx + nu));
  double *keep = v->jac;
  v->jac = J;
  rb->fn(v, BSIM_FLAG_JACOBIAN);
  v->jac = keep;
  if (x->errs.fatal) return 0;
  int r0 = g->nrows, t0 = g->nterms;
  if (add_rows(x, g, b, J, states ? 0 : nx, states ? nx : nx + ny) != 0)
    return -1;
  if (states) { /* flag 0 into the scratch, as the residual would */
    double *xd = v->xd;
    v->xd = want;
    rb->fn(v, BSIM_FLAG_DERIVATIVES);
    v->xd = xd;
  } else {
    for (int r = r0; r < g->nrows; r++)
      want[r - r0] = *g->rows[r].out;
  }
  if (!x->errs.fatal && agrees(g, r0, t0, want, y)) return 1;
  g->nrows = r0;
  g->nterms = t0;
  while (g->nyterms > 0 && g->yterms[g->nyterms - 1] >= t0)
    g->nyterms--;
  return 0;
}

/* The blocks the integrator still calls, and the explicit rows of the
 * state blocks among them. */
static int list_calls(bsim_run *x, struct bsim_run_kernel *k,
                      const char *lin_states) {
  const bsim_plan *p = x->plan;
  int n = p->nblocks;
  k->calls = calloc((size_t)n + 1, sizeof(rt_block *));
  k->fn_states = calloc((size_t)n + 1, sizeof(rt_block *));
  k->expl = calloc(2 * (size_t)n + 2, sizeof(int));
  char *in = calloc((size_t)n + 1, 1);
  if (!k->calls || !k->fn_states || !k->expl || !in) {
    free(in);
    return -1;
  }
  for (int s = 0; s < k->full.nseg; s++)
    if (k->full.seg[s].call) in[k->full.seg[s].call - x->blocks] = 1;
  for (int i = 0; i < p->nstate_blocks; i++) {
    int b = p->state_blocks[i];
    if (lin_states[b]) continue;
    in[b] = 1;
    k->fn_states[k->nfn_states++] = &x->blocks[b];
    const bsim_model *m = &p->blocks[b].fb->model;
    if (m->implicit) continue;
    k->expl[2 * k->nexpl] = p->blocks[b].xoff;
    k->expl[2 * k->nexpl++ + 1] = p->blocks[b].xoff + m->nx;
  }
  for (int i = 0; i < p->nzc_blocks; i++)
    in[p->zc_blocks[i]] = 1;
  for (int i = 0; i < p->ncomp; i++)
    in[p->comp_blocks[i]] = 1;
  for (int b = 0; b < n; b++)
    if (in[b]) k->calls[k->ncalls++] = &x->blocks[b];
  free(in);
  return 0;
}

/* The full program: every active block's outputs in compiled order, then
 * the derivative rows of the linear state blocks. */
static int build_full(bsim_run *x, struct bsim_run_kernel *k, const double *y,
                      char *lin_states) {
  const bsim_plan *p = x->plan;
  kprog *g = &k->full;
  size_t big = 1;
  for (int b = 0; b < p->nblocks; b++) {
    const bsim_block *v = &x->blocks[b].b;
    if (!eligible(p, b)) continue;
    size_t nr = (size_t)(v->nx + nelems(v->outsz, v->nout));
    size_t nc = (size_t)(v->nx + nelems(v->insz, v->nin));
    big = nr * nc > big ? nr * nc : big;
  }
  double *J = malloc(sizeof(double) * big);
  double *want = malloc(sizeof(double) * big);
  int rc = J && want ? 0 : -1;
  for (int i = 0; rc == 0 && i < p->nactive; i++) {
    int b = p->active_order[i], r0 = g->nrows, t0 = g->nterms;
    int lin = eligible(p, b) ? try_block(x, g, b, 0, J, want, y) : 0;
    if (lin < 0 ||
        bsim_kprog_add_seg(g, lin ? NULL : &x->blocks[b], r0, g->nrows, t0))
      rc = -1;
  }
  g->nout_rows = g->nrows;
  g->dt0 = g->nterms;
  for (int i = 0; rc == 0 && i < p->nstate_blocks; i++) {
    int b = p->state_blocks[i];
    int lin = eligible(p, b) ? try_block(x, g, b, 1, J, want, y) : 0;
    if (lin < 0) rc = -1;
    lin_states[b] = (char)(lin > 0);
  }
  free(J);
  free(want);
  return rc;
}

int bsim_run_kernel_build(bsim_run *x, const double *y) {
  const bsim_plan *p = x->plan;
  bsim_run_errors saved = x->errs;
  bsim_run_kernel_free(x);
  struct bsim_run_kernel *k = calloc(1, sizeof *k);
  char *lin_states = calloc((size_t)p->nblocks + 1, 1);
  int rc = k && lin_states ? build_full(x, k, y, lin_states) : -1;
  if (rc == 0) rc = list_calls(x, k, lin_states);
  if (rc == 0) rc = bsim_kernel_lean(x, k);
  free(lin_states);
  /* a flag 10 or a check that failed only keeps its block a call */
  x->errs.fatal = saved.fatal;
  x->errs.recoverable = saved.recoverable;
  x->errs.err = saved.err;
  if (rc != 0) {
    free_kernel(k);
    return -1;
  }
  x->kern = k;
  return 0;
}

void bsim_run_kernel_bind(bsim_run *x, double t, const double *y,
                          const double *yp, double *res) {
  const bsim_plan *p = x->plan;
  struct bsim_run_kernel *k = x->kern;
  bsim_run_set_phase(x, BSIM_PHASE_CONTINUOUS);
  for (int i = 0; i < k->ncalls; i++)
    k->calls[i]->b.t = t;
  if (y != k->y || yp != k->yp || res != k->res) {
    for (int i = 0; i < k->nfn_states; i++) {
      rt_block *rb = k->fn_states[i];
      bsim_run_bind_state(rb, p->blocks[rb - x->blocks].xoff, y, yp, res);
    }
    k->y = y;
    k->yp = yp;
    k->res = res;
  }
  if (p->nw) memcpy(x->w, y + p->nx, sizeof(double) * (size_t)p->nw);
  x->bound_y = y;
  if (p->ncomp) bsim_run_bind_acausal(x, y, yp);
}

void bsim_run_kernel_unbind(bsim_run *x) {
  if (x->kern) x->kern->y = NULL;
}

/* The passes, inline here so that the one-function residual below pays
 * no call for them. */
static inline void outputs_pass(kprog *g, const double *y) {
  rebase(g, y);
  for (int s = 0; s < g->nseg; s++) {
    const kseg *sg = &g->seg[s];
    if (sg->call) {
      sg->call->fn(&sg->call->b, BSIM_FLAG_OUTPUTS);
      continue;
    }
    if (sg->r0 == sg->r1) continue; /* no terms: g->terms may be NULL */
    const kterm *t = g->terms + sg->t0;
    for (int r = sg->r0; r < sg->r1; r++)
      *g->rows[r].out = row_value(&g->rows[r], &t);
  }
}

static inline void derivatives_pass(const struct bsim_run_kernel *k) {
  for (int i = 0; i < k->nfn_states; i++)
    k->fn_states[i]->fn(&k->fn_states[i]->b, BSIM_FLAG_DERIVATIVES);
}

/* F = y' - f on the explicit rows, f from the functions or the rows. */
static inline void tail_pass(const struct bsim_run_kernel *k, kprog *g,
                             const double *y, const double *yp, double *res) {
  rebase(g, y);
  for (int e = 0; e < k->nexpl; e++)
    for (int i = k->expl[2 * e]; i < k->expl[2 * e + 1]; i++)
      res[i] = yp[i] - res[i];
  if (g->nout_rows == g->nrows) return; /* no terms: g->terms may be NULL */
  const kterm *t = g->terms + g->dt0;
  for (int r = g->nout_rows; r < g->nrows; r++) {
    const krow *row = &g->rows[r];
    res[row->row] = yp[row->row] - row_value(row, &t);
  }
}

void bsim_run_kernel_outputs(bsim_run *x, int lean) {
  outputs_pass(lean ? &x->kern->lean : &x->kern->full, x->bound_y);
}

void bsim_run_kernel_derivatives(bsim_run *x) {
  derivatives_pass(x->kern);
}

void bsim_run_kernel_tail(bsim_run *x, const double *yp, double *res,
                          int lean) {
  struct bsim_run_kernel *k = x->kern;
  tail_pass(k, lean ? &k->lean : &k->full, x->bound_y, yp, res);
}

/* The whole residual for a run without algebraic loops or acausal parts,
 * the common case, in one function: bsim_run_residual's layers (bind,
 * outputs, tail) cost as much as a small diagram's equations. */
int bsim_run_kernel_residual(bsim_run *x, double t, const double *y,
                             const double *yp, double *res) {
  struct bsim_run_kernel *k = x->kern;
  x->errs.recoverable = 0;
  x->roots_streak = 0;
  bsim_run_kernel_bind(x, t, y, yp, res);
  outputs_pass(&k->lean, y);
  derivatives_pass(k);
  if (x->errs.fatal) return BSIM_CB_FATAL;
  if (x->errs.recoverable) return BSIM_CB_RECOVERABLE;
  tail_pass(k, &k->lean, y, yp, res);
  if (x->plan->dummy) res[0] = yp[0];
  return BSIM_CB_OK;
}
