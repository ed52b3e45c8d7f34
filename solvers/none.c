/*
 * The engine of a diagram with nothing to integrate: no continuous
 * unknown (the plan then holds one dummy, F = y') and no zero-crossing
 * surface. Time only moves from one event or output time to the next, as
 * in Scilab's simulator when a diagram has no continuous state, and the
 * solution stays y(t0). Running a real integrator on the dummy costs
 * steps, restarts and Jacobians for nothing (Xcos' IF_block demo: 2 072
 * CVODE steps and 1 000 Jacobians). The scheduler picks this engine for
 * such diagrams whatever solver was named (scheduler/sim.c); it is not in
 * the registry, since there is nothing to choose it for.
 */
#include <stdlib.h>
#include <string.h>

#include "solvers/engine.h"

struct bsim_engine {
  int n;
  double tstop; /* <= t: none */
  double t;
  double y[]; /* y(t0), n entries */
};

static bsim_engine *none_create(const bsim_problem *p,
                                const bsim_engine_settings *s, double t0,
                                const double *y0, const double *yp0, char *msg,
                                size_t msglen) {
  (void)s;
  (void)yp0;
  if (p->ng > 0) {
    /* the scheduler never asks; a root needs an integrator to locate it */
    strncpy(msg, "zero-crossing surfaces need an integrator", msglen - 1);
    msg[msglen - 1] = '\0';
    return NULL;
  }
  bsim_engine *e = malloc(sizeof *e + sizeof(double) * (size_t)p->n);
  if (!e) {
    strncpy(msg, "out of memory", msglen - 1);
    msg[msglen - 1] = '\0';
    return NULL;
  }
  e->n = p->n;
  e->t = e->tstop = t0;
  memcpy(e->y, y0, sizeof(double) * (size_t)p->n);
  return e;
}

static int none_reinit(bsim_engine *e, double t0, const double *y0,
                       const double *yp0) {
  (void)yp0;
  e->t = e->tstop = t0;
  memcpy(e->y, y0, sizeof(double) * (size_t)e->n);
  return 0;
}

static int none_calc_ic(bsim_engine *e, double tout1, double *y, double *yp) {
  (void)tout1;
  memcpy(y, e->y, sizeof(double) * (size_t)e->n);
  memset(yp, 0, sizeof(double) * (size_t)e->n);
  return 0;
}

static int none_set_stop_time(bsim_engine *e, double tstop) {
  e->tstop = tstop;
  return 0;
}

static bsim_adv_status none_advance(bsim_engine *e, double tout, double *tret,
                                    double *y, double *yp) {
  bsim_adv_status st = BSIM_ADV_OK;
  if (e->tstop > e->t && e->tstop <= tout) {
    tout = e->tstop;
    st = BSIM_ADV_TSTOP;
  }
  e->t = *tret = tout;
  memcpy(y, e->y, sizeof(double) * (size_t)e->n);
  memset(yp, 0, sizeof(double) * (size_t)e->n);
  return st;
}

static int none_interpolate(bsim_engine *e, double t, int k, double *dky) {
  (void)t;
  if (k == 0)
    memcpy(dky, e->y, sizeof(double) * (size_t)e->n);
  else
    memset(dky, 0, sizeof(double) * (size_t)e->n);
  return 0;
}

static int none_roots_found(bsim_engine *e, int *dirs) {
  (void)e;
  (void)dirs;
  return 0;
}

static void none_stats(const bsim_engine *e, bsim_engine_stats *st) {
  (void)e;
  memset(st, 0, sizeof *st);
}

static const char *none_last_error(const bsim_engine *e) {
  (void)e;
  return "";
}

static void none_free(bsim_engine *e) {
  free(e);
}

const bsim_engine_type bsim_engine_none = {
    .name = "none",
    .summary = "no integration: a diagram without continuous unknowns or "
               "zero-crossing surfaces only moves from event to event",
    .create = none_create,
    .reinit = none_reinit,
    .calc_ic = none_calc_ic,
    .set_stop_time = none_set_stop_time,
    .advance = none_advance,
    .interpolate = none_interpolate,
    .roots_found = none_roots_found,
    .stats = none_stats,
    .last_error = none_last_error,
    .free = none_free,
};
