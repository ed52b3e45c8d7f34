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
 * A one-step engine's struct bsim_engine starts with its bsim_ode, so the
 * engine operations here take the engine itself and most of an engine's
 * type descriptor is BSIM_ODE_ENGINE below.
 *
 * Internal to solvers/: not part of the public API.
 */
#ifndef BSIM_SOLVERS_ODE_EVENTS_H
#define BSIM_SOLVERS_ODE_EVENTS_H

#include <stddef.h>

#include "solvers/engine.h"
#include "solvers/params.h"

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
  double *work; /* the method's scratch: nwork vectors of n doubles */

  bsim_engine_stats st; /* totals since create */
  char err[1024];
};

/* Checks shared by the ODE-only engines: a residual, roots if ng > 0,
 * ode_form set (else the "integrates ODEs only" refusal), sane tolerances
 * and a finite start time. 0, or -1 with a message. */
int bsim_ode_check_problem(const char *name, const bsim_problem *p,
                           const bsim_engine_settings *s, double t0, char *msg,
                           size_t msglen);
/* Those checks, then type's parameters resolved from s into v. */
int bsim_ode_check_params(const bsim_engine_type *type, const bsim_problem *p,
                          const bsim_engine_settings *s, double t0,
                          bsim_param_value *v, char *msg, size_t msglen);

/* A zeroed engine of `size` bytes whose first member, its bsim_ode, is set
 * up for problem p starting at (t0, y0), with the engine as the method's
 * impl and nwork scratch vectors in core.work. NULL with a message (out of
 * memory). */
bsim_engine *bsim_ode_engine_new(size_t size, const char *name,
                                 const bsim_problem *p,
                                 const bsim_ode_method *m, double t0,
                                 const double *y0, double event_tol,
                                 long max_steps, int nwork, char *msg,
                                 size_t msglen);
/* Frees the core and the engine (NULL is fine). */
void bsim_ode_engine_free(bsim_engine *e);

/* f = -F(t, y, 0), counted, NaN/Inf turned into a recoverable failure.
 * Returns BSIM_CB_*. */
int bsim_ode_rhs(bsim_ode *o, double t, const double *y, double *f);

/* Set o->err: "<name>: <text>". Returns -1 for convenience. */
int bsim_ode_fail(bsim_ode *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The engine operations of a one-step engine. */
int bsim_ode_reinit(bsim_engine *e, double t0, const double *y0,
                    const double *yp0);
int bsim_ode_calc_ic(bsim_engine *e, double tout1, double *y, double *yp);
int bsim_ode_set_stop_time(bsim_engine *e, double tstop);
bsim_adv_status bsim_ode_advance(bsim_engine *e, double tout, double *tret,
                                 double *y, double *yp);
int bsim_ode_interpolate(bsim_engine *e, double t, int k, double *dky);
int bsim_ode_roots_found(bsim_engine *e, int *dirs);
void bsim_ode_stats(const bsim_engine *e, bsim_engine_stats *st);
const char *bsim_ode_last_error(const bsim_engine *e);

/* The type descriptor bsim_engine_<id> of a one-step engine: its
 * <id>_create, parameter table, reinit and free; the rest from above. */
#define BSIM_ODE_ENGINE(id, label, text, table, reinit_fn, free_fn)            \
  const bsim_engine_type bsim_engine_##id = {                                  \
      .name = label,                                                           \
      .summary = text,                                                         \
      .params = table,                                                         \
      .nparams = (int)(sizeof(table) / sizeof((table)[0])),                    \
      .needs_ode = 1,                                                          \
      .create = id##_create,                                                   \
      .reinit = reinit_fn,                                                     \
      .calc_ic = bsim_ode_calc_ic,                                             \
      .set_stop_time = bsim_ode_set_stop_time,                                 \
      .advance = bsim_ode_advance,                                             \
      .interpolate = bsim_ode_interpolate,                                     \
      .roots_found = bsim_ode_roots_found,                                     \
      .stats = bsim_ode_stats,                                                 \
      .last_error = bsim_ode_last_error,                                       \
      .free = free_fn,                                                         \
  };

#endif
