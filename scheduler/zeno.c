/*
 * The chattering guard's watch on event accumulation (Zeno behaviour),
 * with bounded work whatever the blocks do:
 *
 * - Pile-up: events and roots served one after another, each closer to the
 *   previous than the integrator can step (min_span), are counted across
 *   calendar calls, hot or critical, restarted or downgraded; more than
 *   max_events in a row stop the run. An event loop with a delay of 1e-300
 *   never repeats an instant exactly, yet piles up here.
 *
 * - Missed returns: after a root, a block's reset usually sends the state
 *   back across the surface it just crossed (a ball's velocity reversed at
 *   the floor). Near an accumulation point the state stays a hair past the
 *   surface and the way back is shorter than one step of the integrator,
 *   which then sees no sign change and lets the state run on past the
 *   surface (the ball falls through the floor, silently). So after every
 *   restart that follows a root, each surface that fired, still on the
 *   crossed side but heading back across within one minimal step, is
 *   watched; if it is later found further past than it was after the
 *   reset, without having crossed back, the return was missed: the run
 *   stops naming the block.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scheduler/run.h"

double bsim_run_min_span(const run_state *r) {
  return fmax(1e-10 * fabs(r->s->tf - r->s->t0),
              100 * DBL_EPSILON * fabs(r->t));
}

int bsim_run_zeno_alloc(run_state *r) {
  size_t ng = (size_t)(r->p->ng ? r->p->ng : 1);
  size_t ny = (size_t)r->p->ny;
  r->watch_dir = calloc(ng, sizeof(int));
  r->watch_g = calloc(ng, sizeof(double));
  r->gnow = calloc(ng, sizeof(double));
  r->gnext = calloc(ng, sizeof(double));
  r->ynext = calloc(ny, sizeof(double));
  return r->watch_dir && r->watch_g && r->gnow && r->gnext && r->ynext ? 0 : -1;
}

void bsim_run_zeno_free(run_state *r) {
  free(r->watch_dir);
  free(r->watch_g);
  free(r->gnow);
  free(r->gnext);
  free(r->ynext);
}

long bsim_run_close_gaps(const run_state *r, long *gaps, double *last) {
  if (!isnan(*last) && r->t - *last < bsim_run_min_span(r))
    (*gaps)++;
  else
    *gaps = 0;
  *last = r->t;
  return *gaps;
}

int bsim_run_pileup(run_state *r, bsim_error *err) {
  /* n events in a row have n - 1 gaps */
  if (bsim_run_close_gaps(r, &r->piled, &r->last_event_t) < r->max_events)
    return 0;
  bsim_error_set(err, BSIM_ERR_SIM,
                 "events pile up: %ld events or zero crossings in a row, "
                 "each less than %.3g s after the previous, at t=%.17g, the "
                 "last from block '%s' (Zeno behaviour: an event loop with a "
                 "tiny delay, or crossings closer than the integrator can "
                 "resolve; the bound is --max-events)",
                 r->piled + 1, bsim_run_min_span(r), r->t,
                 r->cause ? r->cause : "?");
  return -1;
}

void bsim_run_zeno_roots(run_state *r, const int *jroot) {
  for (int j = 0; j < r->p->ng; j++)
    if (jroot[j]) {
      r->watch_dir[j] = jroot[j] > 0 ? 1 : -1;
      r->watch_armed = 1; /* armed for real by bsim_run_zeno_arm */
    }
}

/* The block owning surface j. */
static const bsim_flat_block *owner(const bsim_plan *p, int j) {
  for (int b = 0; b < p->nblocks; b++) {
    const plan_block *pb = &p->blocks[b];
    if (pb->goff >= 0 && j >= pb->goff && j < pb->goff + pb->fb->model.ng)
      return pb->fb;
  }
  return NULL;
}

/* The surfaces at (t, y) for the watch alone: a block that fails there (a
 * domain error one minimal step ahead) must not fail the run, so the run's
 * error state is put back, and the watch just learns nothing. */
static int surfaces(run_state *r, double t, const double *y, double *g) {
  bsim_run_errors saved = r->run->errs;
  int ok = bsim_run_surfaces(r->run, t, y, r->yp, g) == BSIM_CB_OK;
  r->run->errs = saved;
  return ok ? 0 : -1;
}

void bsim_run_zeno_arm(run_state *r) {
  if (!r->watch_armed) return;
  const bsim_plan *p = r->p;
  double dt = bsim_run_min_span(r);
  for (int i = 0; i < p->ny; i++)
    r->ynext[i] = r->y[i] + dt * r->yp[i];
  r->watch_armed = 0;
  if (surfaces(r, r->t + dt, r->ynext, r->gnext) != 0 ||
      surfaces(r, r->t, r->y, r->gnow) != 0) {
    memset(r->watch_dir, 0, sizeof(int) * (size_t)p->ng);
    r->watching = 0;
    return;
  }
  int any = 0;
  for (int j = 0; j < p->ng; j++) {
    int d = r->watch_dir[j];
    if (!d) continue;
    /* past the surface now, back on (or at) its other side one minimal
     * step later: the return must happen within a step */
    if (d * r->gnow[j] > 0 && d * r->gnext[j] <= 0) {
      r->watch_g[j] = r->gnow[j];
      r->watch_t = r->t;
      any = 1;
    } else {
      r->watch_dir[j] = 0;
    }
  }
  r->watching = any;
}

int bsim_run_zeno_check(run_state *r, bsim_error *err) {
  if (!r->watching) return 0;
  const bsim_plan *p = r->p;
  if (surfaces(r, r->t, r->y, r->gnow) != 0) return 0; /* learn nothing */
  int any = 0;
  for (int j = 0; j < p->ng; j++) {
    int d = r->watch_dir[j];
    if (!d) continue;
    if (d * r->gnow[j] <= 0) {
      r->watch_dir[j] = 0; /* it went back across: an ordinary crossing */
      continue;
    }
    if (d * r->gnow[j] > d * r->watch_g[j]) {
      const bsim_flat_block *fb = owner(p, j);
      bsim_error_set(
          err, BSIM_ERR_SIM,
          "event accumulation (Zeno behaviour) at t=%.17g: the zero "
          "crossings of block '%s' (%s) come closer than the integrator "
          "can resolve; after the last one the reset left the state %.3g "
          "past the surface, heading back, and the way back was missed: "
          "at t=%.17g it has run on to %.3g past it (hint: add a stopping "
          "rule, e.g. hold the state once a reset leaves too little speed "
          "to leave the surface, or end the run before this time)",
          r->watch_t, fb ? fb->path : "?", fb ? fb->type->name : "?",
          fabs(r->watch_g[j]), r->t, fabs(r->gnow[j]));
      return -1;
    }
    any = 1;
  }
  r->watching = any;
  return 0;
}
