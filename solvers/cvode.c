/*
 * The "cvode-bdf" and "cvode-adams" engines: SUNDIALS CVODE behind the
 * engine interface, for diagrams whose system is an ODE y' = f(t, y) (no
 * algebraic loops, no implicit blocks). BDF suits stiff systems, Adams
 * smooth non-stiff ones; both are variable order and variable step.
 *
 * f comes from the diagram's residual: F = y' - f, so f = -F(t, y, 0).
 * Root functions g(t, y, y') are called with y' = f(t, y).
 *
 * Each instance owns its SUNContext and SUNDIALS objects and captures
 * SUNDIALS' messages instead of printing them. The stop time follows the
 * same scheme as solvers/ida.c, for the same SUNDIALS 6.4 reasons: a stop
 * time cannot be cleared (it is moved to +infinity), and one behind
 * CVODE's internal time is honoured by integrating to it as an output.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_band.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_band.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include "solvers/engine.h"
#include "solvers/ode_events.h"
#include "solvers/params.h"

extern const bsim_engine_type bsim_engine_cvode_bdf, bsim_engine_cvode_adams;

/* Indices into both parameter tables; keep them in this order. */
enum {
  P_ITERATION,
  P_LINSOL,
  P_BAND_UPPER,
  P_BAND_LOWER,
  P_MAX_ORDER,
  P_MAX_STEPS,
  P_INIT_STEP,
  P_MAX_STEP,
  P_MIN_STEP,
  P_COUNT
};
enum { IT_NEWTON, IT_FIXED_POINT };
enum { LS_DENSE, LS_BAND };

#define COMMON_PARAMS                                                          \
  {"linear-solver", "choice", "dense", "dense|band",                           \
   "linear solver of the Newton iteration: dense, or band for unknowns "       \
   "coupled only to near neighbours (iteration=newton only)"},                 \
      {"band-upper", "int", "-1", NULL,                                        \
       "upper half-bandwidth for linear-solver=band; -1 = n-1"},               \
  {                                                                            \
    "band-lower", "int", "-1", NULL,                                           \
        "lower half-bandwidth for linear-solver=band; -1 = n-1"                \
  }

#define STEP_PARAMS                                                            \
  {"max-steps", "int", "100000", NULL,                                         \
   "most internal steps in one advance (between two outputs or events)"},      \
      {"init-step", "real", "0", NULL, "first step size; 0 = CVODE chooses"},  \
      {"max-step", "real", "0", NULL, "largest step size; 0 = unlimited"}, {   \
    "min-step", "real", "0", NULL, "smallest step size; 0 = no bound"          \
  }

static const bsim_engine_param bdf_params[P_COUNT] = {
    {"iteration", "choice", "newton", "newton|fixed-point",
     "nonlinear iteration: newton (with a linear solver; what stiff systems "
     "need) or fixed-point (no Jacobian)"},
    COMMON_PARAMS,
    {"max-order", "int", "5", NULL, "highest BDF order, 1..5"},
    STEP_PARAMS,
};

static const bsim_engine_param adams_params[P_COUNT] = {
    {"iteration", "choice", "fixed-point", "newton|fixed-point",
     "nonlinear iteration: fixed-point (no Jacobian; right for the non-stiff "
     "systems Adams is meant for) or newton"},
    COMMON_PARAMS,
    {"max-order", "int", "12", NULL, "highest Adams order, 1..12"},
    STEP_PARAMS,
};

struct bsim_engine {
  const bsim_engine_type *type;
  SUNContext ctx;
  void *mem;
  N_Vector y, tmp;
  SUNMatrix A;
  SUNLinearSolver ls;
  SUNNonlinearSolver nls;
  int n, ng, newton;
  int (*residual)(double, const double *, const double *, double *, void *);
  int (*roots)(double, const double *, const double *, double *, void *);
  void *user;
  double *zero, *res, *f; /* to form f = -F(t, y, 0) outside CVODE's count */
  double t;               /* time of the values last handed out */
  int stepped;            /* CVode called since the last (re)init */
  int tstop_set, cv_tstop;
  double tstop;
  bsim_adv_status last_adv;
  long extra_rhs; /* f evaluations CVODE does not count (roots, calc_ic) */
  bsim_engine_stats before;
  int banked;
  char sunmsg[512];
  char err[1024];
};

/* ---- callbacks ---------------------------------------------------------- */

static int form_f(bsim_engine *e, double t, const double *y, double *f) {
  int rc = e->residual(t, y, e->zero, e->res, e->user);
  if (rc != BSIM_CB_OK) return rc < 0 ? -1 : 1;
  for (int i = 0; i < e->n; i++) {
    f[i] = -e->res[i];
    if (!isfinite(f[i])) return 1; /* a smaller step may avoid the NaN */
  }
  return 0;
}

static int cv_rhs(realtype t, N_Vector y, N_Vector ydot, void *ud) {
  bsim_engine *e = ud;
  return form_f(e, t, N_VGetArrayPointer(y), N_VGetArrayPointer(ydot));
}

/* CVODE has no recoverable root failure: anything but OK ends the solve. */
static int cv_roots(realtype t, N_Vector y, realtype *g, void *ud) {
  bsim_engine *e = ud;
  const double *yy = N_VGetArrayPointer(y);
  e->extra_rhs++;
  if (form_f(e, t, yy, e->f) != 0) return -1;
  return e->roots(t, yy, e->f, g, e->user) == BSIM_CB_OK ? 0 : -1;
}

static void cv_errh(int code, const char *module, const char *function,
                    char *msg, void *ud) {
  bsim_engine *e = ud;
  if (code == CV_WARNING) return;
  snprintf(e->sunmsg, sizeof e->sunmsg, "%s: %s", function ? function : "CVODE",
           msg ? msg : "");
}

/* ---- messages ----------------------------------------------------------- */

static const char *hint_for(int flag) {
  switch (flag) {
  case CV_TOO_MUCH_WORK:
    return "raise max-steps, or the model may be stiff: try cvode-bdf with "
           "iteration=newton";
  case CV_TOO_MUCH_ACC:
    return "tolerances too tight: raise rtol/atol";
  case CV_ERR_FAILURE:
  case CV_CONV_FAILURE:
    return "the model may be stiff or discontinuous here: use cvode-bdf with "
           "iteration=newton, check for unhandled discontinuities, or "
           "tighten rtol";
  case CV_LSETUP_FAIL:
  case CV_LSOLVE_FAIL:
    return "the Jacobian looks singular; check the model";
  case CV_RHSFUNC_FAIL:
  case CV_UNREC_RHSFUNC_ERR:
    return "a block's equations failed (fatal); see the block's message";
  case CV_REPTD_RHSFUNC_ERR:
  case CV_FIRST_RHSFUNC_ERR:
    return "the equations kept failing (domain error or NaN); check the "
           "initial values and the model's domain";
  case CV_RTFUNC_FAIL:
    return "a zero-crossing function failed";
  default:
    return "check the model, the engine settings and the times given";
  }
}

static void set_failure(bsim_engine *e, const char *op, int flag, double t) {
  char *name = CVodeGetReturnFlagName(flag); /* malloc'ed by SUNDIALS */
  snprintf(e->err, sizeof e->err,
           "%s: %s failed at t=%.17g with %s%s%s%s; hint: %s", e->type->name,
           op, t, name ? name : "an unknown flag", e->sunmsg[0] ? " (" : "",
           e->sunmsg, e->sunmsg[0] ? ")" : "", hint_for(flag));
  free(name);
}

/* ---- life cycle --------------------------------------------------------- */

static void cv_free(bsim_engine *e) {
  if (!e) return;
  if (e->mem) CVodeFree(&e->mem);
  if (e->nls) SUNNonlinSolFree(e->nls);
  if (e->ls) SUNLinSolFree(e->ls);
  if (e->A) SUNMatDestroy(e->A);
  N_Vector vs[] = {e->y, e->tmp};
  for (size_t i = 0; i < 2; i++)
    if (vs[i]) N_VDestroy(vs[i]);
  if (e->ctx) SUNContext_Free(&e->ctx);
  free(e->zero);
  free(e->res);
  free(e->f);
  free(e);
}

static int check_ranges(const bsim_engine_type *t, const bsim_param_value *v,
                        int max_order, char *msg, size_t msglen) {
  if (bsim_engine_param_range(t, P_MAX_ORDER, v, 1, max_order, msg, msglen) ||
      bsim_engine_param_range(t, P_MAX_STEPS, v, 1, HUGE_VAL, msg, msglen) ||
      bsim_engine_param_range(t, P_INIT_STEP, v, 0, HUGE_VAL, msg, msglen) ||
      bsim_engine_param_range(t, P_MAX_STEP, v, 0, HUGE_VAL, msg, msglen) ||
      bsim_engine_param_range(t, P_MIN_STEP, v, 0, HUGE_VAL, msg, msglen) ||
      bsim_engine_param_range(t, P_BAND_UPPER, v, -1, HUGE_VAL, msg, msglen) ||
      bsim_engine_param_range(t, P_BAND_LOWER, v, -1, HUGE_VAL, msg, msglen))
    return -1;
  if (v[P_ITERATION].choice == IT_FIXED_POINT &&
      (v[P_LINSOL].given || v[P_BAND_UPPER].given || v[P_BAND_LOWER].given)) {
    snprintf(msg, msglen,
             "%s: linear-solver, band-upper and band-lower "
             "apply to iteration=newton only, not fixed-point",
             t->name);
    return -1;
  }
  if (v[P_MAX_STEP].r > 0 && v[P_MIN_STEP].r > v[P_MAX_STEP].r) {
    snprintf(msg, msglen, "%s: min-step (%s) must not exceed max-step (%s)",
             t->name, v[P_MIN_STEP].text, v[P_MAX_STEP].text);
    return -1;
  }
  return 0;
}

static int make_solvers(bsim_engine *e, const bsim_param_value *v) {
  if (!e->newton) {
    e->nls = SUNNonlinSol_FixedPoint(e->y, 0, e->ctx);
    return e->nls ? CVodeSetNonlinearSolver(e->mem, e->nls) : CV_MEM_FAIL;
  }
  sunindextype n = e->n;
  if (v[P_LINSOL].choice == LS_BAND) {
    sunindextype mu = v[P_BAND_UPPER].i, ml = v[P_BAND_LOWER].i;
    if (mu < 0 || mu > n - 1) mu = n - 1;
    if (ml < 0 || ml > n - 1) ml = n - 1;
    e->A = SUNBandMatrix(n, mu, ml, e->ctx);
    e->ls = e->A ? SUNLinSol_Band(e->y, e->A, e->ctx) : NULL;
  } else {
    e->A = SUNDenseMatrix(n, n, e->ctx);
    e->ls = e->A ? SUNLinSol_Dense(e->y, e->A, e->ctx) : NULL;
  }
  return e->ls ? CVodeSetLinearSolver(e->mem, e->ls, e->A) : CV_MEM_FAIL;
}

static bsim_engine *cv_create(const bsim_engine_type *type, int lmm,
                              int max_order, const bsim_problem *p,
                              const bsim_engine_settings *s, double t0,
                              const double *y0, char *msg, size_t msglen) {
  bsim_param_value v[P_COUNT];
  if (bsim_ode_check_problem(type->name, p, s, t0, msg, msglen) ||
      bsim_engine_params_resolve(type, s, v, msg, msglen) ||
      check_ranges(type, v, max_order, msg, msglen))
    return NULL;
  bsim_engine *e = calloc(1, sizeof *e);
  if (!e) {
    snprintf(msg, msglen, "%s: out of memory", type->name);
    return NULL;
  }
  e->type = type;
  e->n = p->n;
  e->ng = p->ng;
  e->residual = p->residual;
  e->roots = p->roots;
  e->user = p->user;
  e->newton = v[P_ITERATION].choice == IT_NEWTON;
  e->t = t0;
  e->last_adv = BSIM_ADV_OK;

  const char *step = "allocating";
  int flag = CV_MEM_FAIL;
  e->zero = calloc((size_t)e->n, sizeof(double));
  e->res = calloc((size_t)e->n, sizeof(double));
  e->f = calloc((size_t)e->n, sizeof(double));
  if (!e->zero || !e->res || !e->f) goto fail;
  step = "SUNContext_Create";
  if ((flag = SUNContext_Create(NULL, &e->ctx)) != 0) goto fail;
  step = "N_VNew_Serial";
  flag = CV_MEM_FAIL;
  e->y = N_VNew_Serial(e->n, e->ctx);
  e->tmp = N_VNew_Serial(e->n, e->ctx);
  if (!e->y || !e->tmp) goto fail;
  if (y0)
    memcpy(N_VGetArrayPointer(e->y), y0, (size_t)e->n * sizeof(double));
  else
    N_VConst(0.0, e->y);
  step = "CVodeCreate";
  if (!(e->mem = CVodeCreate(lmm, e->ctx))) goto fail;
  CVodeSetErrHandlerFn(e->mem, cv_errh, e);

#define TRY(call)                                                              \
  do {                                                                         \
    step = #call;                                                              \
    if ((flag = (call)) < 0) goto fail;                                        \
  } while (0)
  TRY(CVodeInit(e->mem, cv_rhs, t0, e->y));
  TRY(CVodeSStolerances(e->mem, s ? s->rtol : 1e-6, s ? s->atol : 1e-8));
  TRY(CVodeSetUserData(e->mem, e));
  TRY(CVodeSetMaxOrd(e->mem, (int)v[P_MAX_ORDER].i));
  TRY(CVodeSetMaxNumSteps(e->mem, v[P_MAX_STEPS].i));
  if (v[P_INIT_STEP].r > 0) TRY(CVodeSetInitStep(e->mem, v[P_INIT_STEP].r));
  if (v[P_MAX_STEP].r > 0) TRY(CVodeSetMaxStep(e->mem, v[P_MAX_STEP].r));
  if (v[P_MIN_STEP].r > 0) TRY(CVodeSetMinStep(e->mem, v[P_MIN_STEP].r));
  TRY(make_solvers(e, v));
  if (e->ng > 0) {
    TRY(CVodeRootInit(e->mem, e->ng, cv_roots));
    if (p->gdir) {
      int *dir = malloc((size_t)e->ng * sizeof *dir);
      if (!dir) {
        flag = CV_MEM_FAIL;
        goto fail;
      }
      memcpy(dir, p->gdir, (size_t)e->ng * sizeof *dir);
      flag = CVodeSetRootDirection(e->mem, dir); /* CVODE copies it */
      free(dir);
      if (flag < 0) goto fail;
    }
    CVodeSetNoInactiveRootWarn(e->mem);
  }
#undef TRY
  return e;

fail:;
  char *name = CVodeGetReturnFlagName(flag);
  snprintf(msg, msglen, "%s: setting up the solver failed in %s with %s%s%s%s",
           type->name, step, name ? name : "an unknown flag",
           e->sunmsg[0] ? " (" : "", e->sunmsg, e->sunmsg[0] ? ")" : "");
  free(name);
  cv_free(e);
  return NULL;
}

static bsim_engine *cvode_bdf_create(const bsim_problem *p,
                                     const bsim_engine_settings *s, double t0,
                                     const double *y0, const double *yp0,
                                     char *msg, size_t msglen) {
  return cv_create(&bsim_engine_cvode_bdf, CV_BDF, 5, p, s, t0, y0, msg,
                   msglen);
}

static bsim_engine *cvode_adams_create(const bsim_problem *p,
                                       const bsim_engine_settings *s, double t0,
                                       const double *y0, const double *yp0,
                                       char *msg, size_t msglen) {
  return cv_create(&bsim_engine_cvode_adams, CV_ADAMS, 12, p, s, t0, y0, msg,
                   msglen);
}

/* ---- statistics --------------------------------------------------------- */

static void current_stats(const bsim_engine *e, bsim_engine_stats *st) {
  long lrhs = 0;
  memset(st, 0, sizeof *st);
  CVodeGetNumSteps(e->mem, &st->steps);
  CVodeGetNumRhsEvals(e->mem, &st->residual_evals);
  if (e->newton) {
    CVodeGetNumLinRhsEvals(e->mem, &lrhs); /* finite-difference Jacobian */
    CVodeGetNumJacEvals(e->mem, &st->jacobian_evals);
  }
  st->residual_evals += lrhs;
  CVodeGetNumNonlinSolvIters(e->mem, &st->nonlinear_iterations);
  CVodeGetNumErrTestFails(e->mem, &st->error_test_failures);
  CVodeGetNumNonlinSolvConvFails(e->mem, &st->nonlinear_conv_failures);
  if (e->ng > 0) CVodeGetNumGEvals(e->mem, &st->root_evals);
}

static void add_stats(bsim_engine_stats *a, const bsim_engine_stats *b) {
  a->steps += b->steps;
  a->residual_evals += b->residual_evals;
  a->jacobian_evals += b->jacobian_evals;
  a->nonlinear_iterations += b->nonlinear_iterations;
  a->error_test_failures += b->error_test_failures;
  a->nonlinear_conv_failures += b->nonlinear_conv_failures;
  a->root_evals += b->root_evals;
}

/* Totals since create: CVodeReInit zeroes CVODE's counters, and the linear
 * solver's only at the next solve, so they are banked once per run. */
static void cv_stats(const bsim_engine *e, bsim_engine_stats *st) {
  *st = e->before;
  if (!e->banked) {
    bsim_engine_stats cur;
    current_stats(e, &cur);
    add_stats(st, &cur);
  }
  st->residual_evals += e->extra_rhs;
}

/* ---- stop time ---------------------------------------------------------- */

static void release_cv_tstop(bsim_engine *e) {
  if (e->cv_tstop) {
    CVodeSetStopTime(e->mem, HUGE_VAL);
    e->cv_tstop = 0;
  }
}

static int cv_set_stop_time(bsim_engine *e, double tstop) {
  if (!(tstop > e->t)) {
    e->tstop_set = 0;
    release_cv_tstop(e);
    return 0;
  }
  double tn = e->t;
  if (e->stepped) CVodeGetCurrentTime(e->mem, &tn);
  e->tstop = tstop;
  e->tstop_set = 1;
  if (e->stepped && tstop <= tn) {
    release_cv_tstop(e); /* CVODE is past it: advance() stops there */
    return 0;
  }
  e->sunmsg[0] = '\0';
  int flag = CVodeSetStopTime(e->mem, tstop);
  if (flag < 0) {
    set_failure(e, "setting the stop time", flag, e->t);
    return -1;
  }
  e->cv_tstop = 1;
  return 0;
}

/* ---- integration -------------------------------------------------------- */

static int cv_reinit(bsim_engine *e, double t0, const double *y0,
                     const double *yp0) {
  if (!e->banked) {
    bsim_engine_stats cur;
    current_stats(e, &cur);
    add_stats(&e->before, &cur);
    e->banked = 1;
  }
  if (y0)
    memcpy(N_VGetArrayPointer(e->y), y0, (size_t)e->n * sizeof(double));
  else
    N_VConst(0.0, e->y);
  e->sunmsg[0] = '\0';
  int flag = CVodeReInit(e->mem, t0, e->y);
  if (flag < 0) {
    set_failure(e, "restarting", flag, t0);
    return -1;
  }
  e->t = t0;
  e->stepped = 0;
  e->last_adv = BSIM_ADV_OK;
  e->cv_tstop = 1; /* whatever CVODE holds, set it again or drop it */
  if (e->tstop_set && e->tstop > t0) return cv_set_stop_time(e, e->tstop);
  e->tstop_set = 0;
  release_cv_tstop(e);
  return 0;
}

/* Nothing to make consistent in an ODE: y' = f(t0, y0). */
static int cv_calc_ic(bsim_engine *e, double tout1, double *y, double *yp) {
  const double *yy = N_VGetArrayPointer(e->y);
  e->extra_rhs++;
  int rc = form_f(e, e->t, yy, e->f);
  if (rc != 0) {
    snprintf(e->err, sizeof e->err,
             "%s: the equations failed (%s) at the start t=%.17g; hint: "
             "check the initial values",
             e->type->name, rc < 0 ? "fatal" : "domain error or NaN", e->t);
    return -1;
  }
  if (y) memcpy(y, yy, (size_t)e->n * sizeof(double));
  if (yp) memcpy(yp, e->f, (size_t)e->n * sizeof(double));
  return 0;
}

/* y' at the values handed out: CVODE's own derivative of its interpolant
 * is one order less accurate than f itself. */
static void store_out(bsim_engine *e, double t, double *y, double *yp) {
  const double *yy = N_VGetArrayPointer(e->y);
  if (y) memcpy(y, yy, (size_t)e->n * sizeof(double));
  if (!yp) return;
  e->extra_rhs++;
  if (form_f(e, t, yy, yp) == 0) return;
  /* f failed here (the failure will show at the next step): fall back on
   * the derivative of CVODE's interpolant. */
  if (CVodeGetDky(e->mem, t, 1, e->tmp) >= 0)
    memcpy(yp, N_VGetArrayPointer(e->tmp), (size_t)e->n * sizeof(double));
  else
    memset(yp, 0, (size_t)e->n * sizeof(double));
}

static bsim_adv_status cv_advance(bsim_engine *e, double tout, double *tret,
                                  double *y, double *yp) {
  if (!(tout >= e->t)) {
    snprintf(e->err, sizeof e->err,
             "%s: asked to integrate back from t=%.17g to t=%.17g; hint: "
             "restart (reinit) to go back in time",
             e->type->name, e->t, tout);
    return e->last_adv = BSIM_ADV_ERROR;
  }
  bsim_adv_status st = BSIM_ADV_OK;
  if (tout == e->t) {
    *tret = e->t;
  } else {
    double target = tout;
    if (e->tstop_set && !e->cv_tstop && e->tstop <= tout)
      target = e->tstop; /* a stop time CVODE had already passed */
    double tr = e->t;
    e->sunmsg[0] = '\0';
    e->banked = 0;
    int flag = CVode(e->mem, target, e->y, &tr, CV_NORMAL);
    e->stepped = 1;
    *tret = tr;
    if (flag < 0) {
      set_failure(e, "integrating", flag, tr);
      e->t = tr;
      store_out(e, tr, y, yp);
      return e->last_adv = BSIM_ADV_ERROR;
    }
    st = flag == CV_ROOT_RETURN    ? BSIM_ADV_ROOT
         : flag == CV_TSTOP_RETURN ? BSIM_ADV_TSTOP
                                   : BSIM_ADV_OK;
    e->t = tr;
  }
  if (e->tstop_set && st != BSIM_ADV_ROOT && e->t >= e->tstop) {
    st = BSIM_ADV_TSTOP; /* reaching tout == tstop is reaching tstop */
    *tret = e->t = e->tstop;
    e->tstop_set = 0;
    release_cv_tstop(e);
  } else if (st == BSIM_ADV_TSTOP) {
    e->tstop_set = 0;
    release_cv_tstop(e);
  }
  store_out(e, e->t, y, yp);
  return e->last_adv = st;
}

static int cv_interpolate(bsim_engine *e, double t, int k, double *dky) {
  if (!e->stepped && t == e->t && (k == 0 || k == 1))
    return k == 0 ? cv_calc_ic(e, t, dky, NULL) : cv_calc_ic(e, t, NULL, dky);
  e->sunmsg[0] = '\0';
  int flag = CVodeGetDky(e->mem, t, k, e->tmp);
  if (flag < 0) {
    char *name = CVodeGetReturnFlagName(flag);
    snprintf(e->err, sizeof e->err,
             "%s: interpolating derivative %d at t=%.17g failed with %s%s%s%s;"
             " hint: t must lie inside the last step and k <= the current "
             "order",
             e->type->name, k, t, name ? name : "an unknown flag",
             e->sunmsg[0] ? " (" : "", e->sunmsg, e->sunmsg[0] ? ")" : "");
    free(name);
    return -1;
  }
  memcpy(dky, N_VGetArrayPointer(e->tmp), (size_t)e->n * sizeof(double));
  return 0;
}

static int cv_roots_found(bsim_engine *e, int *dirs) {
  if (e->ng == 0) return 0;
  if (e->last_adv != BSIM_ADV_ROOT) {
    memset(dirs, 0, (size_t)e->ng * sizeof *dirs);
    return 0;
  }
  int flag = CVodeGetRootInfo(e->mem, dirs);
  if (flag < 0) {
    set_failure(e, "reading which roots fired", flag, e->t);
    return -1;
  }
  return 0;
}

static const char *cv_last_error(const bsim_engine *e) {
  return e && e->err[0] ? e->err : "cvode: no error";
}

#define CVODE_ENGINE(id, label, table, text)                                   \
  const bsim_engine_type bsim_engine_##id = {                                  \
      .name = label,                                                           \
      .summary = text,                                                         \
      .params = table,                                                         \
      .nparams = P_COUNT,                                                      \
      .needs_ode = 1,                                                          \
      .create = id##_create,                                                   \
      .reinit = cv_reinit,                                                     \
      .calc_ic = cv_calc_ic,                                                   \
      .set_stop_time = cv_set_stop_time,                                       \
      .advance = cv_advance,                                                   \
      .interpolate = cv_interpolate,                                           \
      .roots_found = cv_roots_found,                                           \
      .stats = cv_stats,                                                       \
      .last_error = cv_last_error,                                             \
      .free = cv_free,                                                         \
  };

CVODE_ENGINE(cvode_bdf, "cvode-bdf", bdf_params,
             "SUNDIALS CVODE, variable-order BDF (1-5) with Newton iteration: "
             "stiff ODEs, with root finding")
CVODE_ENGINE(cvode_adams, "cvode-adams", adams_params,
             "SUNDIALS CVODE, variable-order Adams-Moulton (1-12) with "
             "fixed-point iteration: smooth non-stiff ODEs, with root finding")
