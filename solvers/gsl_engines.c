/*
 * GSL's adaptive steppers as engines: "rk45" (Runge-Kutta-Fehlberg 4(5)),
 * "rk8pd" (Prince-Dormand 8(9)) and "msbdf" (variable-order BDF for stiff
 * problems), each advanced by gsl_odeiv2_evolve_apply with the standard
 * y-based error control. They integrate ODEs only; events, stop times and
 * interpolation come from solvers/ode_events.c.
 *
 * msbdf needs the Jacobian df/dy, as a dense matrix (GSL's only form, and
 * its linear algebra is dense LU, hence msbdf is for small systems). It
 * comes from solvers/newton_jac.c like IDA's and CVODE's: the blocks'
 * analytic Jacobian, or finite differences colored over the sparsity
 * pattern (one f call per color, plus f itself), or without a pattern one
 * column per unknown.
 *
 * GSL reports some internal errors through its global error handler (which
 * aborts by default). The library cannot switch it off without touching
 * global state, so programs embedding it should call
 * gsl_set_error_handler_off() once; with valid inputs the paths used here
 * do not reach that handler except for a singular Newton matrix in msbdf.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_odeiv2.h>

#include "solvers/engine.h"
#include "solvers/newton_jac.h"
#include "solvers/ode_events.h"
#include "solvers/params.h"

extern const bsim_engine_type bsim_engine_rk45, bsim_engine_rk8pd,
    bsim_engine_msbdf;

/* msbdf's table is the others' and jacobian. */
enum {
  P_INIT_STEP,
  P_MAX_STEP,
  P_MAX_STEPS,
  P_EVENT_TOL,
  P_COUNT,
  P_JACOBIAN = P_COUNT
};
enum { JAC_AUTO, JAC_FD };

#define GSL_PARAMS                                                             \
  {"init-step", "real", "0", NULL,                                             \
   "first step size; 0 = estimated from y, y' and the tolerances"},            \
      {"max-step", "real", "0", NULL, "largest step size; 0 = unlimited"},     \
      {"max-steps", "int", "100000", NULL,                                     \
       "most steps in one advance (between two outputs or events)"},           \
  {                                                                            \
    "event-tol", "real", "1e-12", NULL,                                        \
        "zero crossings are located to event-tol * max(1, |t|)"                \
  }

static const bsim_engine_param gsl_params[P_COUNT] = {GSL_PARAMS};

static const bsim_engine_param msbdf_params[P_COUNT + 1] = {
    GSL_PARAMS,
    {"jacobian", "choice", "auto", "auto|fd",
     "auto: the blocks' analytic Jacobian (flag 10) when every block "
     "evaluated during integration provides one, else finite differences "
     "(colored over the system's sparsity pattern); fd: always finite "
     "differences"},
};

struct bsim_engine {
  bsim_ode core; /* first: ode_events.c reaches it through the engine */
  const bsim_engine_type *type;
  gsl_odeiv2_system sys;
  gsl_odeiv2_driver *drv; /* owns step, control and evolve objects */
  double rtol, atol;
  double h;          /* step to try next; 0 = estimate one */
  double init_step;  /* user's first step, 0 = estimate */
  double max_step;   /* 0 = unlimited */
  double *yerr;      /* error estimate of a redone step, unused */
  double *f0, *yjac; /* Jacobian scratch; all three in core.work */
  bsim_njac *jac;    /* msbdf's df/dy */
};

/* ---- callbacks given to GSL --------------------------------------------- */

static int gsl_rhs(double t, const double y[], double dydt[], void *ud) {
  bsim_engine *e = ud;
  int rc = bsim_ode_rhs(&e->core, t, y, dydt);
  /* GSL retries a failed step with half the step unless told EBADFUNC. */
  return rc == BSIM_CB_OK      ? GSL_SUCCESS
         : rc == BSIM_CB_FATAL ? GSL_EBADFUNC
                               : GSL_EDOM;
}

/* msbdf's df/dy, row-major. The increments follow the error weights GSL's
 * control uses (1 / (atol + rtol |y|)) and the step in use. msbdf does not
 * use dfdt. */
static int gsl_jac(double t, const double y[], double *dfdy, double dfdt[],
                   void *ud) {
  bsim_engine *e = ud;
  bsim_ode *o = &e->core;
  int n = o->n, colored = bsim_njac_colors(e->jac) > 0;
  o->st.jacobian_evals++;
  if (colored) { /* the differences need f itself */
    int rc = bsim_ode_rhs(o, t, y, e->f0);
    o->st.jacobian_residual_evals++;
    if (rc != BSIM_CB_OK) return rc == BSIM_CB_FATAL ? GSL_EBADFUNC : GSL_EDOM;
  }
  double *yy = e->yjac, *ewt = e->yerr;
  for (int i = 0; i < n; i++) {
    yy[i] = y[i];
    ewt[i] = 1.0 / (e->atol + e->rtol * fabs(y[i]));
  }
  long before = bsim_njac_residual_evals(e->jac);
  int rc = bsim_njac_ode(e->jac, t, yy, e->f0, e->h, ewt);
  long used = bsim_njac_residual_evals(e->jac) - before;
  o->st.residual_evals += used;
  o->st.jacobian_residual_evals += used;
  if (rc != 0) return rc < 0 ? GSL_EBADFUNC : GSL_EDOM;
  bsim_njac_dense_rows(e->jac, 1.0, dfdy);
  for (int i = 0; i < n; i++)
    dfdt[i] = 0.0;
  return GSL_SUCCESS;
}

/* msbdf's Jacobian over the problem's pattern, or without one over all
 * n x n entries (finite differences then cost one column each). 0, or -1
 * when out of memory. */
static int make_jacobian(bsim_engine *e, const bsim_problem *p, int analytic) {
  bsim_problem q = *p;
  int *full = NULL;
  if (!p->pattern_colptr || !p->pattern_rowidx) {
    size_t n = (size_t)p->n;
    if (n > 46340) return -1; /* n * n indices would overflow an int */
    if (!(full = malloc(sizeof(int) * (n + 1 + n * n)))) return -1;
    int *cp = full, *ri = cp + n + 1;
    for (size_t j = 0; j <= n; j++)
      cp[j] = (int)(j * n);
    for (size_t k = 0; k < n * n; k++)
      ri[k] = (int)(k % n);
    q.pattern_colptr = cp;
    q.pattern_rowidx = ri;
    q.jacobian = NULL; /* a problem's Jacobian follows its own pattern */
  }
  e->jac = bsim_njac_create(&q, BSIM_NJAC_ODE, analytic);
  free(full); /* copied */
  if (e->jac) e->core.st.jacobian_colors = bsim_njac_colors(e->jac);
  return e->jac ? 0 : -1;
}

/* ---- the one-step method ------------------------------------------------ */

/* First step from the sizes of y and y' against the tolerances (a usual
 * estimate: a hundredth of the time y takes to change by its own size). */
static double first_step(bsim_engine *e, double tend) {
  bsim_ode *o = &e->core;
  if (e->init_step > 0) return e->init_step;
  double d0 = 0, d1 = 0;
  for (int i = 0; i < o->n; i++) {
    double sc = e->atol + e->rtol * fabs(o->y[i]);
    d0 = fmax(d0, fabs(o->y[i]) / sc);
    d1 = fmax(d1, fabs(o->f[i]) / sc);
  }
  double span = tend - o->t;
  double h = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 * fmax(1.0, span) : 0.01 * d0 / d1;
  return fmin(h, span);
}

static int explain(bsim_ode *o, int status, double t, double h) {
  if (status == GSL_EBADFUNC)
    return bsim_ode_fail(o,
                         "integrating failed at t=%.17g: a block's "
                         "equations failed (fatal); hint: see the block's "
                         "message",
                         t);
  if (status == GSL_EDOM)
    return bsim_ode_fail(o,
                         "integrating failed at t=%.17g: the equations "
                         "kept failing (domain error or NaN) down to step "
                         "%.3g; hint: check the model near this time",
                         t, h);
  return bsim_ode_fail(o,
                       "integrating failed at t=%.17g: the step fell to "
                       "%.3g without meeting the tolerances (GSL status "
                       "%d: %s); hint: the model may be stiff or "
                       "discontinuous there: try solver \"msbdf\" or "
                       "\"cvode-bdf\", or loosen rtol/atol",
                       t, h, status, gsl_strerror(status));
}

static int gsl_step(bsim_ode *o, double tend, double *tnew, double *ynew,
                    double *fnew) {
  bsim_engine *e = o->impl;
  gsl_odeiv2_evolve *ev = e->drv->e;
  if (!(e->h > 0)) e->h = first_step(e, tend);
  if (e->max_step > 0 && e->h > e->max_step) e->h = e->max_step;
  double t = o->t;
  unsigned long failed = ev->failed_steps;
  memcpy(ynew, o->y, (size_t)o->n * sizeof *ynew);
  int status = gsl_odeiv2_evolve_apply(ev, e->drv->c, e->drv->s, &e->sys, &t,
                                       tend, &e->h, ynew);
  o->st.error_test_failures += (long)(ev->failed_steps - failed);
  if (status != GSL_SUCCESS) return explain(o, status, o->t, e->h);
  o->st.steps++;
  *tnew = t;
  if (e->drv->s->type->gives_exact_dydt_out) {
    memcpy(fnew, ev->dydt_out, (size_t)o->n * sizeof *fnew);
  } else {
    int rc = bsim_ode_rhs(o, t, ynew, fnew);
    if (rc != BSIM_CB_OK)
      return explain(o, rc == BSIM_CB_FATAL ? GSL_EBADFUNC : GSL_EDOM, t, e->h);
  }
  return 0;
}

/* One-step methods: a single step of the same formula, shorter than the
 * accepted one, so at least as accurate. msbdf has history that cannot be
 * rewound: restart it at ta and integrate with error control. */
static int gsl_redo(bsim_ode *o, double ta, const double *ya, const double *fa,
                    double t1, double *y1, double *f1) {
  bsim_engine *e = o->impl;
  gsl_odeiv2_step *s = e->drv->s;
  memcpy(y1, ya, (size_t)o->n * sizeof *y1);
  if (e->type != &bsim_engine_msbdf) {
    const double *din = s->type->can_use_dydt_in ? fa : NULL;
    int status =
        gsl_odeiv2_step_apply(s, ta, t1 - ta, y1, e->yerr, din, f1, &e->sys);
    if (status != GSL_SUCCESS) return explain(o, status, ta, t1 - ta);
    o->st.steps++;
  } else {
    gsl_odeiv2_step_reset(s);
    gsl_odeiv2_evolve_reset(e->drv->e);
    double t = ta, h = t1 - ta;
    long guard = 0;
    while (t < t1) {
      unsigned long failed = e->drv->e->failed_steps;
      int status = gsl_odeiv2_evolve_apply(e->drv->e, e->drv->c, s, &e->sys, &t,
                                           t1, &h, y1);
      o->st.error_test_failures += (long)(e->drv->e->failed_steps - failed);
      if (status != GSL_SUCCESS) return explain(o, status, t, h);
      o->st.steps++;
      if (++guard > 100000)
        return bsim_ode_fail(o,
                             "locating a zero crossing near t=%.17g took "
                             "too many steps",
                             t1);
    }
    memcpy(f1, e->drv->e->dydt_out, (size_t)o->n * sizeof *f1);
  }
  if (!s->type->gives_exact_dydt_out) {
    int rc = bsim_ode_rhs(o, t1, y1, f1);
    if (rc != BSIM_CB_OK)
      return explain(o, rc == BSIM_CB_FATAL ? GSL_EBADFUNC : GSL_EDOM, t1,
                     t1 - ta);
  }
  return 0;
}

/* After a jump the step size is kept (the scales are the same) but the
 * stepper's history is not. */
static void gsl_forget(bsim_ode *o) {
  bsim_engine *e = o->impl;
  if (!e || !e->drv) return;
  gsl_odeiv2_step_reset(e->drv->s);
  gsl_odeiv2_evolve_reset(e->drv->e);
}

static const bsim_ode_method gsl_method = {gsl_step, gsl_redo, gsl_forget};

/* ---- engine operations -------------------------------------------------- */

static void gsl_free(bsim_engine *e) {
  if (e && e->drv) gsl_odeiv2_driver_free(e->drv);
  if (e) bsim_njac_free(e->jac);
  bsim_ode_engine_free(e);
}

static bsim_engine *gsl_create(const bsim_engine_type *type,
                               const gsl_odeiv2_step_type *T,
                               const bsim_problem *p,
                               const bsim_engine_settings *s, double t0,
                               const double *y0, char *msg, size_t msglen) {
  bsim_param_value v[P_COUNT + 1];
  if (bsim_ode_check_params(type, p, s, t0, v, msg, msglen) ||
      bsim_engine_param_range(type, P_INIT_STEP, v, 0, HUGE_VAL, msg, msglen) ||
      bsim_engine_param_range(type, P_MAX_STEP, v, 0, HUGE_VAL, msg, msglen) ||
      bsim_engine_param_range(type, P_MAX_STEPS, v, 1, HUGE_VAL, msg, msglen) ||
      bsim_engine_param_range(type, P_EVENT_TOL, v, 1e-15, 1e-3, msg, msglen))
    return NULL;
  bsim_engine *e =
      bsim_ode_engine_new(sizeof *e, type->name, p, &gsl_method, t0, y0,
                          v[P_EVENT_TOL].r, v[P_MAX_STEPS].i, 3, msg, msglen);
  if (!e) return NULL;
  e->type = type;
  e->rtol = s ? s->rtol : 1e-6;
  e->atol = s ? s->atol : 1e-8;
  e->init_step = v[P_INIT_STEP].r;
  e->max_step = v[P_MAX_STEP].r;
  e->yerr = e->core.work;
  e->f0 = e->yerr + p->n;
  e->yjac = e->f0 + p->n;
  e->sys.function = gsl_rhs;
  e->sys.jacobian = T == gsl_odeiv2_step_msbdf ? gsl_jac : NULL;
  if (e->sys.jacobian &&
      make_jacobian(e, p, v[P_JACOBIAN].choice == JAC_AUTO) != 0) {
    snprintf(msg, msglen, "%s: out of memory for the Jacobian", type->name);
    gsl_free(e);
    return NULL;
  }
  e->sys.dimension = (size_t)p->n;
  e->sys.params = e;
  /* The driver is only the owner of step, control and evolve objects, and
   * what msbdf reads its error levels through; its hstart is unused. */
  e->drv = gsl_odeiv2_driver_alloc_y_new(&e->sys, T, 1e-6, e->atol, e->rtol);
  if (!e->drv) {
    snprintf(msg, msglen,
             "%s: setting up GSL's stepper failed (out of "
             "memory?)",
             type->name);
    gsl_free(e);
    return NULL;
  }
  return e;
}

static bsim_engine *rk45_create(const bsim_problem *p,
                                const bsim_engine_settings *s, double t0,
                                const double *y0, const double *yp0, char *msg,
                                size_t msglen) {
  return gsl_create(&bsim_engine_rk45, gsl_odeiv2_step_rkf45, p, s, t0, y0, msg,
                    msglen);
}

static bsim_engine *rk8pd_create(const bsim_problem *p,
                                 const bsim_engine_settings *s, double t0,
                                 const double *y0, const double *yp0, char *msg,
                                 size_t msglen) {
  return gsl_create(&bsim_engine_rk8pd, gsl_odeiv2_step_rk8pd, p, s, t0, y0,
                    msg, msglen);
}

static bsim_engine *msbdf_create(const bsim_problem *p,
                                 const bsim_engine_settings *s, double t0,
                                 const double *y0, const double *yp0, char *msg,
                                 size_t msglen) {
  return gsl_create(&bsim_engine_msbdf, gsl_odeiv2_step_msbdf, p, s, t0, y0,
                    msg, msglen);
}

/* A restart may follow a jump of the dynamics: estimate the step again. */
static int gsl_reinit(bsim_engine *e, double t0, const double *y0,
                      const double *yp0) {
  e->h = 0;
  return bsim_ode_reinit(e, t0, y0, yp0);
}

BSIM_ODE_ENGINE(rk45, "rk45",
                "GSL Runge-Kutta-Fehlberg 4(5), adaptive step, for non-stiff "
                "ODEs",
                gsl_params, gsl_reinit, gsl_free)
BSIM_ODE_ENGINE(
    rk8pd, "rk8pd",
    "GSL Runge-Kutta Prince-Dormand 8(9), adaptive step, for smooth "
    "non-stiff ODEs at tight tolerances",
    gsl_params, gsl_reinit, gsl_free)
BSIM_ODE_ENGINE(msbdf, "msbdf",
                "GSL multistep BDF (orders 1-5) with a dense Newton matrix, "
                "for small stiff ODEs",
                msbdf_params, gsl_reinit, gsl_free)
