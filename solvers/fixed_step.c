/*
 * Fixed-step engines "rk4" (classical Runge-Kutta, order 4) and "euler"
 * (explicit Euler, order 1): deterministic, cheap per step, no error
 * control. They serve real-time style runs and comparisons with other
 * tools that use a fixed step.
 *
 * The grid is t0 + k * step from the last (re)start; k * step is computed
 * by multiplication, so that the grid does not drift. Outputs, stop times
 * and roots that fall between grid points are reached by shortening the
 * one step that crosses them; the following step goes back to the grid.
 * Events and interpolation come from solvers/ode_events.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solvers/engine.h"
#include "solvers/ode_events.h"
#include "solvers/params.h"

extern const bsim_engine_type bsim_engine_rk4, bsim_engine_euler;

enum { P_STEP, P_MAX_STEPS, P_EVENT_TOL, P_COUNT };

static const bsim_engine_param fixed_params[P_COUNT] = {
    {"step", "real", "1e-3", NULL, "the fixed step size, > 0"},
    {"max-steps", "int", "0", NULL,
     "most steps in one advance; 0 = no limit (the step count is known in "
     "advance)"},
    {"event-tol", "real", "1e-12", NULL,
     "zero crossings are located to event-tol * max(1, |t|)"},
};

/* A grid point within this fraction of a step from tend is tend: no
 * sliver steps from rounding. */
static const double snap = 1e-9;

struct bsim_engine {
  bsim_ode core; /* first: ode_events.c reaches it through the engine */
  int rk4;       /* 1: rk4, 0: euler */
  double step;
  double *k2, *k3, *k4, *ys; /* stage values, in core.work */
};

/* ---- the methods -------------------------------------------------------- */

static int fail_rhs(bsim_ode *o, int rc, double t) {
  if (rc == BSIM_CB_FATAL)
    return bsim_ode_fail(o,
                         "integrating failed at t=%.17g: a block's "
                         "equations failed (fatal); hint: see the block's "
                         "message",
                         t);
  return bsim_ode_fail(o,
                       "integrating failed at t=%.17g: the equations "
                       "failed (domain error or NaN) and a fixed-step "
                       "method cannot retry with a smaller step; hint: "
                       "reduce step, or use a variable-step solver such "
                       "as \"rk45\" or \"ida\"",
                       t);
}

/* One step of size h from (t, y, f): y1 and f1 = f(t + h, y1). */
static int one_step(bsim_engine *e, double t, const double *y, const double *f,
                    double h, double t1, double *y1, double *f1) {
  bsim_ode *o = &e->core;
  int n = o->n, rc;
  if (e->rk4) {
    double *ys = e->ys;
    for (int i = 0; i < n; i++)
      ys[i] = y[i] + 0.5 * h * f[i];
    if ((rc = bsim_ode_rhs(o, t + 0.5 * h, ys, e->k2)) != BSIM_CB_OK)
      return fail_rhs(o, rc, t + 0.5 * h);
    for (int i = 0; i < n; i++)
      ys[i] = y[i] + 0.5 * h * e->k2[i];
    if ((rc = bsim_ode_rhs(o, t + 0.5 * h, ys, e->k3)) != BSIM_CB_OK)
      return fail_rhs(o, rc, t + 0.5 * h);
    for (int i = 0; i < n; i++)
      ys[i] = y[i] + h * e->k3[i];
    if ((rc = bsim_ode_rhs(o, t1, ys, e->k4)) != BSIM_CB_OK)
      return fail_rhs(o, rc, t1);
    for (int i = 0; i < n; i++)
      y1[i] = y[i] + h / 6.0 * (f[i] + 2.0 * (e->k2[i] + e->k3[i]) + e->k4[i]);
  } else {
    for (int i = 0; i < n; i++)
      y1[i] = y[i] + h * f[i];
  }
  /* f at the end is the next step's first stage, and y' for the caller. */
  if ((rc = bsim_ode_rhs(o, t1, y1, f1)) != BSIM_CB_OK)
    return fail_rhs(o, rc, t1);
  o->st.steps++;
  return 0;
}

static int fixed_step(bsim_ode *o, double tend, double *tnew, double *ynew,
                      double *fnew) {
  bsim_engine *e = o->impl;
  double h = e->step;
  double k = floor((o->t - o->t0) / h) + 1;
  double tg = o->t0 + k * h;
  if (tg <= o->t + snap * h) /* o->t sits on (or just below) a grid point */
    tg = o->t0 + (k + 1) * h;
  double t1 = tg > tend - snap * h ? tend : tg;
  *tnew = t1;
  return one_step(e, o->t, o->y, o->f, t1 - o->t, t1, ynew, fnew);
}

static int fixed_redo(bsim_ode *o, double ta, const double *ya,
                      const double *fa, double t1, double *y1, double *f1) {
  return one_step(o->impl, ta, ya, fa, t1 - ta, t1, y1, f1);
}

static const bsim_ode_method fixed_method = {fixed_step, fixed_redo, NULL};

/* ---- engine operations -------------------------------------------------- */

static bsim_engine *fixed_create(const bsim_engine_type *type, int rk4,
                                 const bsim_problem *p,
                                 const bsim_engine_settings *s, double t0,
                                 const double *y0, char *msg, size_t msglen) {
  bsim_param_value v[P_COUNT];
  if (bsim_ode_check_params(type, p, s, t0, v, msg, msglen) ||
      bsim_engine_param_range(type, P_MAX_STEPS, v, 0, HUGE_VAL, msg, msglen) ||
      bsim_engine_param_range(type, P_EVENT_TOL, v, 1e-15, 1e-3, msg, msglen))
    return NULL;
  if (!(v[P_STEP].r > 0)) {
    snprintf(msg, msglen, "%s: step must be > 0, not %s", type->name,
             v[P_STEP].text);
    return NULL;
  }
  bsim_engine *e =
      bsim_ode_engine_new(sizeof *e, type->name, p, &fixed_method, t0, y0,
                          v[P_EVENT_TOL].r, v[P_MAX_STEPS].i, 4, msg, msglen);
  if (!e) return NULL;
  e->rk4 = rk4;
  e->step = v[P_STEP].r;
  e->k2 = e->core.work;
  e->k3 = e->k2 + p->n;
  e->k4 = e->k3 + p->n;
  e->ys = e->k4 + p->n;
  return e;
}

static bsim_engine *rk4_create(const bsim_problem *p,
                               const bsim_engine_settings *s, double t0,
                               const double *y0, const double *yp0, char *msg,
                               size_t msglen) {
  return fixed_create(&bsim_engine_rk4, 1, p, s, t0, y0, msg, msglen);
}

static bsim_engine *euler_create(const bsim_problem *p,
                                 const bsim_engine_settings *s, double t0,
                                 const double *y0, const double *yp0, char *msg,
                                 size_t msglen) {
  return fixed_create(&bsim_engine_euler, 0, p, s, t0, y0, msg, msglen);
}

BSIM_ODE_ENGINE(rk4, "rk4",
                "classical Runge-Kutta of order 4 with a fixed step (parameter "
                "step), for ODEs",
                fixed_params, bsim_ode_reinit, bsim_ode_engine_free)
BSIM_ODE_ENGINE(euler, "euler",
                "explicit Euler of order 1 with a fixed step (parameter step), "
                "for ODEs",
                fixed_params, bsim_ode_reinit, bsim_ode_engine_free)
