/*
 * The part shared by the engines that SUNDIALS does not drive: GSL's
 * steppers and the fixed-step methods. They only know how to take one step;
 * this module turns "one step" into the engine interface: integrate to tout
 * without passing it or the stop time, find zero crossings of g after each
 * step and locate them, interpolate inside the last step, keep statistics.
 *
 * It also holds the checks every ODE-only engine makes on a problem (CVODE
 * included), so that they all refuse a DAE with the same words.
 *
 * Internal to solvers/: not part of the public API.
 */
#ifndef BSIM_SOLVERS_ODE_EVENTS_H
#define BSIM_SOLVERS_ODE_EVENTS_H

#include <stddef.h>

#include "solvers/engine.h"

typedef struct bsim_ode bsim_ode;

/* What a one-step method provides. Each function returns 0, or -1 after
 * bsim_ode_fail() said why. */
typedef struct bsim_ode_method {
  /* One accepted step from (o->t, o->y, o->f) towards tend, never past it
   * (landing on tend exactly when it gets there): the new time, y and
   * f = y' there. */
  int (*step)(bsim_ode *o, double tend, double *tnew, double *ynew,
              double *fnew);
  /* From (ta, ya, fa) straight to t1, where [ta, t1] lies inside a step the
   * method has just accepted: y and f at t1. Used to locate roots on the
   * method's own solution rather than on an interpolant. */
  int (*redo)(bsim_ode *o, double ta, const double *ya, const double *fa,
              double t1, double *y1, double *f1);
  /* The solution jumped (restart, or back to a root inside the last step):
   * drop any history the method keeps. */
  void (*forget)(bsim_ode *o);
} bsim_ode_method;

struct bsim_ode {
  const char *name; /* engine name, for messages */
  const bsim_ode_method *m;
  void *impl; /* the method's own state */
  int n, ng;
  int (*residual)(double, const double *, const double *, double *, void *);
  int (*roots)(double, const double *, const double *, double *, void *);
  void *user;
  int *gdir; /* ng entries, 0 = both directions */

  double t, *y, *f; /* the current point; f valid when have_f */
  int have_f;
  double ta, *ya, *fa; /* start of the last step, which ends at t */
  double t0;           /* time of the last (re)start */
  double *g;           /* g at the current point, valid when have_g */
  int have_g;
  signed char *gsign; /* last nonzero sign of each g; 0 = none yet */
  signed char *slo;   /* the same at the low end of a root bracket */
  int *fired;         /* roots of the last BSIM_ADV_ROOT */
  int root_pending;
  double tstop;
  int tstop_set;
  double event_tol; /* relative to max(1, |t|) */
  long max_steps;   /* per advance; 0 = unlimited */

  double *zero, *res;             /* y' = 0 and F, to form f = -F(t, y, 0) */
  double *ynew, *fnew, *gnew;     /* a step's result */
  double *ylo, *flo, *glo;        /* root bracket, low end */
  double *yhi, *fhi, *ghi, *gtry; /* high end and trial values */
  double *ytry, *ftry;

  bsim_engine_stats st; /* totals since create */
  char err[1024];
};

/* Checks shared by the ODE-only engines: a residual, roots if ng > 0,
 * ode_form set (else the "integrates ODEs only" refusal), sane tolerances
 * and a finite start time. 0, or -1 with a message. */
int bsim_ode_check_problem(const char *name, const bsim_problem *p,
                           const bsim_engine_settings *s, double t0, char *msg,
                           size_t msglen);

/* Fill o for problem p starting at (t0, y0); impl belongs to the caller.
 * 0, or -1 with a message (out of memory). */
int bsim_ode_init(bsim_ode *o, const char *name, const bsim_problem *p,
                  const bsim_ode_method *m, void *impl, double t0,
                  const double *y0, double event_tol, long max_steps, char *msg,
                  size_t msglen);
void bsim_ode_release(bsim_ode *o);

/* f = -F(t, y, 0), counted, NaN/Inf turned into a recoverable failure.
 * Returns BSIM_CB_*. */
int bsim_ode_rhs(bsim_ode *o, double t, const double *y, double *f);

/* Set o->err: "<name>: <text>". Returns -1 for convenience. */
int bsim_ode_fail(bsim_ode *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The engine operations, ready to be called by each engine's wrappers. */
int bsim_ode_reinit(bsim_ode *o, double t0, const double *y0);
int bsim_ode_calc_ic(bsim_ode *o, double *y, double *yp);
int bsim_ode_set_stop_time(bsim_ode *o, double tstop);
bsim_adv_status bsim_ode_advance(bsim_ode *o, double tout, double *tret,
                                 double *y, double *yp);
int bsim_ode_interpolate(bsim_ode *o, double t, int k, double *dky);
int bsim_ode_roots_found(bsim_ode *o, int *dirs);
const char *bsim_ode_last_error(const bsim_ode *o);

#endif
