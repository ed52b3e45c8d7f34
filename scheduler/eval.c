/*
 * Evaluating the compiled diagram: the residual F(t, y, y') handed to the
 * engine, the zero-crossing surfaces, and the block calls with their error
 * reporting. This is the hot path: no allocation, no copies of states (block
 * x / xd / res point straight into the engine's vectors; acausal
 * components, whose many connector pointers would otherwise follow every
 * new vector, read copies of their part: acausal.c).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "scheduler/index.h"
#include "scheduler/plan.h"
#include "solvers/engine.h"

static bsim_run_errors *errors_of(bsim_block *blk) {
  return (bsim_run_errors *)blk->ctx_;
}

void bsim_block_error(bsim_block *blk, const char *fmt, ...) {
  bsim_run_errors *e = errors_of(blk);
  char what[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  const rt_block *rb = (const rt_block *)blk; /* b is rt_block's first member */
  e->fatal = 1;
  bsim_error_set(&e->err, BSIM_ERR_SIM, "block '%s' (%s) at t=%.17g: %s",
                 blk->path, rb->fb->type->name, blk->t, what);
}

void bsim_block_recoverable(bsim_block *blk, const char *fmt, ...) {
  bsim_run_errors *e = errors_of(blk);
  va_list ap;
  va_start(ap, fmt);
  int n = snprintf(e->last_recoverable, sizeof e->last_recoverable,
                   "block '%s' at t=%.17g: ", blk->path, blk->t);
  if (n > 0 && (size_t)n < sizeof e->last_recoverable)
    vsnprintf(e->last_recoverable + n, sizeof e->last_recoverable - (size_t)n,
              fmt, ap);
  va_end(ap);
  e->recoverable = 1;
}

void bsim_run_bind_state(rt_block *rb, int xoff, const double *y,
                         const double *yp, double *res) {
  /* the engine's vectors are read-only to us except through res; blocks
   * write only xd/res, never x, inside a residual */
  rb->b.x = (double *)y + xoff;
  if (rb->fb->model.implicit) {
    rb->b.xd = (double *)yp + xoff;
    rb->b.res = res ? res + xoff : NULL;
  } else {
    rb->b.xd = res ? res + xoff : NULL;
    rb->b.res = NULL;
  }
}

void bsim_run_bind(bsim_run *x, double t, const double *y, const double *yp,
                   double *res, int phase) {
  const bsim_plan *p = x->plan;
  bsim_run_set_phase(x, phase);
  for (int i = 0; i < p->nblocks; i++)
    x->blocks[i].b.t = t;
  for (int k = 0; k < p->nstate_blocks; k++) {
    int i = p->state_blocks[k];
    bsim_run_bind_state(&x->blocks[i], p->blocks[i].xoff, y, yp, res);
  }
  if (p->nw) memcpy(x->w, y + p->nx, sizeof(double) * (size_t)p->nw);
  x->bound_y = y;
  /* components read y' only in their residual (flag 0) and Jacobian,
   * which run in the continuous phase: an event's binds, many per step
   * of the integrator, copy y alone */
  if (p->ncomp)
    bsim_run_bind_acausal(x, y, phase == BSIM_PHASE_CONTINUOUS ? yp : NULL);
  bsim_run_kernel_unbind(x);
}

void bsim_run_bind_integrating(bsim_run *x, double t, const double *y,
                               const double *yp, double *res) {
  if (x->kern)
    bsim_run_kernel_bind(x, t, y, yp, res);
  else
    bsim_run_bind(x, t, y, yp, res, BSIM_PHASE_CONTINUOUS);
}

static int status_of(const bsim_run *x) {
  if (x->errs.fatal) return BSIM_CB_FATAL;
  if (x->errs.recoverable) return BSIM_CB_RECOVERABLE;
  return BSIM_CB_OK;
}

int bsim_run_call(bsim_run *x, int blk, int flag) {
  rt_block *rb = &x->blocks[blk];
  rb->fn(&rb->b, flag);
  return status_of(x);
}

/* Failures are checked once after the pass, not after every block: this is
 * the hot path, the first message is kept anyway, and blocks after a failed
 * one only compute values nobody will use. */
int bsim_run_outputs(bsim_run *x, int all) {
  const bsim_plan *p = x->plan;
  if (!all && x->kern) {
    bsim_run_kernel_outputs(x, 0);
    return status_of(x);
  }
  const int *list = all ? p->order : p->active_order;
  int n = all ? p->nblocks : p->nactive;
  for (int k = 0; k < n; k++) {
    rt_block *rb = &x->blocks[list[k]];
    if (rb->b.nout > 0) rb->fn(&rb->b, BSIM_FLAG_OUTPUTS);
  }
  return status_of(x);
}

static int tail(bsim_run *x, const double *yp, double *res, int lean);

/* While integrating, the flat program (kernel.c) when the run has one:
 * only what F needs is computed. */
int bsim_run_residual(double t, const double *y, const double *yp, double *res,
                      void *user) {
  bsim_run *x = user;
  if (x->plan->ix) return bsim_run_index_residual(x, t, y, yp, res);
  if (x->kern && x->plan->ntorn == 0 && x->plan->ncomp == 0)
    return bsim_run_kernel_residual(x, t, y, yp, res);
  return bsim_run_base_residual(x, t, y, yp, res);
}

/* The blocks' residual (before any index reduction), without the kernel
 * when the plan has components or torn signals. */
int bsim_run_base_residual(bsim_run *x, double t, const double *y,
                           const double *yp, double *res) {
  x->errs.recoverable = 0;
  x->roots_streak = 0;
  bsim_run_bind_integrating(x, t, y, yp, res);
  if (x->kern)
    bsim_run_kernel_outputs(x, 1);
  else
    bsim_run_outputs(x, 0);
  int rc = status_of(x);
  if (rc != BSIM_CB_OK) return rc;
  return tail(x, yp, res, 1);
}

int bsim_run_residual_tail(bsim_run *x, const double *yp, double *res) {
  return tail(x, yp, res, 0);
}

static int tail(bsim_run *x, const double *yp, double *res, int lean) {
  const bsim_plan *p = x->plan;
  if (x->kern) {
    bsim_run_kernel_derivatives(x);
  } else {
    for (int k = 0; k < p->nstate_blocks; k++) {
      rt_block *rb = &x->blocks[p->state_blocks[k]];
      rb->fn(&rb->b, BSIM_FLAG_DERIVATIVES);
    }
  }
  for (int k = 0; k < p->ncomp; k++) {
    rt_block *rb = &x->blocks[p->comp_blocks[k]];
    rb->fn(&rb->b, BSIM_FLAG_DERIVATIVES);
  }
  int rc = status_of(x);
  if (rc != BSIM_CB_OK) return rc;
  /* explicit blocks gave f in res: F_x = x' - f */
  if (x->kern) bsim_run_kernel_tail(x, yp, res, lean);
  for (int k = 0; !x->kern && k < p->nstate_blocks; k++) {
    int b = p->state_blocks[k];
    const bsim_model *m = &p->blocks[b].fb->model;
    if (m->implicit) continue;
    for (int i = p->blocks[b].xoff; i < p->blocks[b].xoff + m->nx; i++)
      res[i] = yp[i] - res[i];
  }
  if (p->dummy) res[0] = yp[0];
  if (p->ncomp) bsim_run_acausal_rows(x, res);
  /* F_w = w - h(w) */
  for (int t2 = 0; t2 < p->ntorn; t2++) {
    const rt_torn *tw = &p->torn[t2];
    const double *h = x->blocks[tw->block].b.outptr[tw->port];
    const double *w = x->w + (tw->yoff - p->nx);
    for (int i = 0; i < tw->n; i++)
      res[tw->yoff + i] = w[i] - h[i];
  }
  return BSIM_CB_OK;
}

/* A root search halves its bracket at least every few evaluations, so a
 * double's 2^-52 relative resolution is reached long before this many; an
 * engine's search can still cycle forever when a surface lives at the
 * scale of denormals (a threshold of 1e-308): bounded here, whatever the
 * engine and the block. */
enum { MAX_ROOT_SEARCH = 10000 };

static int root_search_fails(bsim_run *x, double t, const double *g) {
  const bsim_plan *p = x->plan;
  int near = 0;
  for (int j = 1; j < p->ng; j++)
    if (fabs(g[j]) < fabs(g[near])) near = j;
  const plan_block *pb = NULL;
  for (int b = 0; b < p->nblocks && !pb; b++)
    if (p->blocks[b].goff >= 0 && near >= p->blocks[b].goff &&
        near < p->blocks[b].goff + p->blocks[b].fb->model.ng)
      pb = &p->blocks[b];
  x->errs.fatal = 1;
  bsim_error_set(&x->errs.err, BSIM_ERR_SIM,
                 "the zero crossings of block '%s' (%s) cannot be located "
                 "near t=%.17g: %d evaluations of its surfaces without "
                 "progress (hint: thresholds closer to each other or to the "
                 "signal than the integrator can resolve, e.g. 1e-308, "
                 "cannot be told apart; widen them)",
                 pb ? pb->fb->path : "?", pb ? pb->fb->type->name : "?", t,
                 MAX_ROOT_SEARCH);
  return BSIM_CB_FATAL;
}

int bsim_run_roots(double t, const double *y, const double *yp, double *g,
                   void *user) {
  bsim_run *x = user;
  int rc = bsim_run_surfaces(x, t, y, yp, g);
  if (rc != BSIM_CB_OK) return rc;
  if (++x->roots_streak > MAX_ROOT_SEARCH) return root_search_fails(x, t, g);
  return BSIM_CB_OK;
}

int bsim_run_surfaces(bsim_run *x, double t, const double *y, const double *yp,
                      double *g) {
  const bsim_plan *p = x->plan;
  x->errs.recoverable = 0;
  bsim_run_bind_integrating(x, t, y, yp, NULL);
  int rc = bsim_run_outputs(x, 0);
  if (rc != BSIM_CB_OK) return rc;
  for (int k = 0; k < p->nzc_blocks; k++) {
    int i = p->zc_blocks[k];
    if (x->blocks[i].b.ng == 0) continue;
    rc = bsim_run_call(x, i, BSIM_FLAG_ZCROSS);
    if (rc != BSIM_CB_OK) return rc;
  }
  memcpy(g, x->gbuf, sizeof(double) * (size_t)p->ng);
  return BSIM_CB_OK;
}
