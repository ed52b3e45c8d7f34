/*
 * The "cvode-bdf" and "cvode-adams" engines: SUNDIALS CVODE behind the
 * engine interface, for diagrams whose system is an ODE y' = f(t, y) (no
 * algebraic loops, no implicit blocks). BDF suits stiff systems, Adams
 * smooth non-stiff ones; both are variable order and variable step.
 *
 * f comes from the diagram's residual: F = y' - f, so f = -F(t, y, 0).
 * Root functions g(t, y, y') are called with y' = f(t, y).
 *
 * Each instance owns its SUNContext and SUNDIALS objects. Messages, the
 * stop time, statistics across restarts and the advance loop are shared
 * with solvers/ida.c through solvers/sundials_common.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include "solvers/cvode_carry.h"
#include "solvers/engine.h"
#include "solvers/linsys.h"
#include "solvers/nvec_fast.h"
#include "solvers/ode_events.h"
#include "solvers/params.h"
#include "solvers/sundials_common.h"

extern const bsim_engine_type bsim_engine_cvode_bdf, bsim_engine_cvode_adams;

/* Indices into both parameter tables; keep them in this order (the linear
 * solver's block in linsys.h's order). */
enum {
  P_ITERATION,
  P_LINSYS,
  P_MAX_ORDER = P_LINSYS + LP_COUNT,
  P_MAX_STEPS,
  P_INIT_STEP,
  P_MAX_STEP,
  P_MIN_STEP,
  P_COUNT
};
enum { IT_NEWTON, IT_FIXED_POINT };

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
     "need) or fixed-point (no Jacobian; the linear-solver parameters then "
     "do not apply)"},
    BSIM_LINSYS_PARAMS,
    {"max-order", "int", "5", NULL, "highest BDF order, 1..5"},
    STEP_PARAMS,
};

static const bsim_engine_param adams_params[P_COUNT] = {
    {"iteration", "choice", "fixed-point", "newton|fixed-point",
     "nonlinear iteration: fixed-point (no Jacobian; right for the non-stiff "
     "systems Adams is meant for; the linear-solver parameters then do not "
     "apply) or newton"},
    BSIM_LINSYS_PARAMS,
    {"max-order", "int", "12", NULL, "highest Adams order, 1..12"},
    STEP_PARAMS,
};

struct bsim_engine {
  bsim_sun sun; /* times, stop time, statistics and messages */
  const bsim_engine_type *type;
  SUNContext ctx;
  void *mem;
  N_Vector y, tmp;
  bsim_linsys lin; /* iteration=newton */
  SUNNonlinearSolver nls;
  int n, ng, newton;
  int (*residual)(double, const double *, const double *, double *, void *);
  int (*roots)(double, const double *, const double *, double *, void *);
  void *user;
  double *zero, *res, *f; /* to form f = -F(t, y, 0) outside CVODE's count */
  long extra_rhs; /* f evaluations CVODE does not count (roots, calc_ic) */
  int jac_formed; /* lin's values hold a J of this run, formed at */
  long jac_step;  /* this step (counted over restarts) */
  int jac_kept;   /* the next setup after a restart uses it (cv_linsys) */
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
  /* serial vectors (as in ida.c): their data directly */
  return form_f(e, t, NV_DATA_S(y), NV_DATA_S(ydot));
}

/* CVODE has no recoverable root failure: anything but OK ends the solve. */
static int cv_roots(realtype t, N_Vector y, realtype *g, void *ud) {
  bsim_engine *e = ud;
  const double *yy = N_VGetArrayPointer(y);
  e->extra_rhs++;
  if (form_f(e, t, yy, e->f) != 0) return -1;
  return e->roots(t, yy, e->f, g, e->user) == BSIM_CB_OK ? 0 : -1;
}

/* df/dy at (t, y), fy = f(t, y) (solvers/linsys.c computes it); CVODE
 * forms I - gamma J itself. */
static int jac_values(bsim_engine *e, realtype t, N_Vector y, N_Vector fy,
                      N_Vector ewt) {
  realtype h = 0;
  CVodeGetErrWeights(e->mem, ewt);
  CVodeGetCurrentStep(e->mem, &h);
  return bsim_njac_ode(e->lin.jac, t, N_VGetArrayPointer(y),
                       N_VGetArrayPointer(fy), h, N_VGetArrayPointer(ewt));
}

/* A = I - gamma J, J formed again when CVODE says the one kept is stale
 * (jok false), except once after a restart: CVODE then always asks for a
 * fresh J, but an event leaves y continuous and most of the diagram as it
 * was, and a J from before the event that is younger than JAC_AGE steps
 * is no staler than the ones CVODE itself keeps. Saying so (*jcur false)
 * keeps CVODE's own remedy: should Newton fail on it, J is formed and the
 * step tried again. On a sampled-data diagram that cannot carry its
 * history (Kalman: the noise enters through a product with a state) the
 * Jacobians at restarts were a quarter of the run. */
enum { JAC_AGE = 50 };

static int cv_linsys(realtype t, N_Vector y, N_Vector fy, SUNMatrix A,
                     booleantype jok, booleantype *jcur, realtype gamma,
                     void *ud, N_Vector t1, N_Vector t2, N_Vector t3) {
  bsim_engine *e = ud;
  if (e->jac_kept) jok = 1;
  e->jac_kept = 0;
  *jcur = !jok;
  if (!jok) {
    int rc = jac_values(e, t, y, fy, t1);
    if (rc != 0) return rc;
    long nst = 0;
    CVodeGetNumSteps(e->mem, &nst);
    e->jac_formed = 1;
    e->jac_step = e->sun.before.steps + nst;
  }
  bsim_linsys_fill(&e->lin, A);
  return SUNMatScaleAddI(-gamma, A) == SUNMAT_SUCCESS ? 0 : -1;
}

/* P ~ I - gamma J from the diagonal blocks of J; J is formed again only
 * when CVODE says the saved one is stale (jok false), as it does for its
 * own Jacobians. */
static int cv_prec_setup(realtype t, N_Vector y, N_Vector fy, booleantype jok,
                         booleantype *jcur, realtype gamma, void *ud) {
  bsim_engine *e = ud;
  *jcur = !jok;
  if (!jok) {
    int rc = jac_values(e, t, y, fy, e->tmp);
    if (rc != 0) return rc;
  }
  return bsim_linsys_prec_setup(&e->lin, 1.0, -gamma);
}

static int cv_prec_solve(realtype t, N_Vector y, N_Vector fy, N_Vector r,
                         N_Vector z, realtype gamma, realtype delta, int lr,
                         void *ud) {
  bsim_linsys_prec_solve(&((bsim_engine *)ud)->lin, r, z);
  return 0;
}

/* ---- messages ----------------------------------------------------------- */

static void hint_for(int flag, double t, char *buf, size_t len) {
  const char *h = "check the model, the engine settings and the times given";
  switch (flag) {
  case CV_TOO_MUCH_WORK:
    h = "raise max-steps, or the model may be stiff: try cvode-bdf with "
        "iteration=newton";
    break;
  case CV_TOO_MUCH_ACC:
    h = "tolerances too tight: raise rtol/atol";
    break;
  case CV_ERR_FAILURE:
  case CV_CONV_FAILURE:
    h = "the model may be stiff or discontinuous here: use cvode-bdf with "
        "iteration=newton, check for unhandled discontinuities, or "
        "tighten rtol";
    break;
  case CV_LSETUP_FAIL:
  case CV_LSOLVE_FAIL:
    h = "the Jacobian looks singular; check the model";
    break;
  case CV_RHSFUNC_FAIL:
  case CV_UNREC_RHSFUNC_ERR:
    h = "a block's equations failed (fatal); see the block's message";
    break;
  case CV_REPTD_RHSFUNC_ERR:
  case CV_FIRST_RHSFUNC_ERR:
    h = "the equations kept failing (domain error or NaN); check the "
        "initial values and the model's domain";
    break;
  case CV_RTFUNC_FAIL:
    h = "a zero-crossing function failed";
    break;
  }
  snprintf(buf, len, "%s", h);
}

/* ---- what sundials_common.c asks of CVODE ------------------------------ */

static void current_stats(const bsim_engine *e, bsim_engine_stats *st) {
  long lrhs = 0;
  memset(st, 0, sizeof *st);
  CVodeGetNumSteps(e->mem, &st->steps);
  CVodeGetNumRhsEvals(e->mem, &st->residual_evals);
  if (e->newton) {
    /* CVODE's difference quotients: the Jacobian's (dense, band), or J v's */
    CVodeGetNumLinRhsEvals(e->mem, &lrhs);
    CVodeGetNumJacEvals(e->mem, &st->jacobian_evals);
    if (e->lin.A) st->jacobian_residual_evals = lrhs;
  }
  st->residual_evals += lrhs;
  CVodeGetNumNonlinSolvIters(e->mem, &st->nonlinear_iterations);
  CVodeGetNumErrTestFails(e->mem, &st->error_test_failures);
  CVodeGetNumNonlinSolvConvFails(e->mem, &st->nonlinear_conv_failures);
  if (e->ng > 0) CVodeGetNumGEvals(e->mem, &st->root_evals);
}

static int cv_solve(bsim_engine *e, double tout, double *tret) {
  int flag = CVode(e->mem, tout, e->y, tret, CV_NORMAL);
  if (flag < 0) return flag;
  return flag == CV_ROOT_RETURN    ? BSIM_ADV_ROOT
         : flag == CV_TSTOP_RETURN ? BSIM_ADV_TSTOP
                                   : BSIM_ADV_OK;
}

/* y' is the derivative of CVODE's interpolant, as IDA's engine gives its
 * own: evaluating f after every advance cost a residual per step on
 * event-dense diagrams (Cont.Disc-Observer stops every 0.003 s), and what
 * needs f itself forms it (a restart's guess, a carry). */
static void store_out(bsim_engine *e, double t, double *y, double *yp) {
  const double *yy = N_VGetArrayPointer(e->y);
  if (y) memcpy(y, yy, (size_t)e->n * sizeof(double));
  if (!yp) return;
  if (CVodeGetDky(e->mem, t, 1, e->tmp) >= 0) {
    memcpy(yp, N_VGetArrayPointer(e->tmp), (size_t)e->n * sizeof(double));
    return;
  }
  /* no step to interpolate (a failure before the first) */
  e->extra_rhs++;
  if (form_f(e, t, yy, yp) != 0) memset(yp, 0, (size_t)e->n * sizeof(double));
}

static const bsim_sun_ops cv_ops = {
    .module = "CVODE",
    .warning = CV_WARNING,
    .mem_fail = CV_MEM_FAIL,
    .flag_name = CVodeGetReturnFlagName,
    .set_stop_time = CVodeSetStopTime,
    .current_time = CVodeGetCurrentTime,
    .dky = CVodeGetDky,
    .root_info = CVodeGetRootInfo,
    .root_direction = CVodeSetRootDirection,
    .hint = hint_for,
    .counters = current_stats,
    .solve = cv_solve,
    .store = store_out,
};

/* ---- life cycle --------------------------------------------------------- */

static void cv_free(bsim_engine *e) {
  if (!e) return;
  if (e->mem) CVodeFree(&e->mem);
  if (e->nls) SUNNonlinSolFree(e->nls);
  bsim_linsys_free(&e->lin);
  N_Vector vs[] = {e->y, e->tmp};
  for (size_t i = 0; i < 2; i++)
    if (vs[i]) N_VDestroy(vs[i]);
  if (e->ctx) SUNContext_Free(&e->ctx);
  free(e->zero);
  free(e->res);
  free(e->f);
  free(e);
}

static int check_ranges(const bsim_engine_type *t, const bsim_problem *p,
                        const bsim_param_value *v, int max_order, char *msg,
                        size_t msglen) {
  if (bsim_engine_param_range(t, P_MAX_ORDER, v, 1, max_order, msg, msglen) ||
      bsim_engine_param_range(t, P_MAX_STEPS, v, 1, HUGE_VAL, msg, msglen) ||
      bsim_engine_param_range(t, P_INIT_STEP, v, 0, HUGE_VAL, msg, msglen) ||
      bsim_engine_param_range(t, P_MAX_STEP, v, 0, HUGE_VAL, msg, msglen) ||
      bsim_engine_param_range(t, P_MIN_STEP, v, 0, HUGE_VAL, msg, msglen))
    return -1;
  if (v[P_ITERATION].choice == IT_FIXED_POINT) {
    for (int k = P_LINSYS; k < P_LINSYS + LP_COUNT; k++)
      if (v[k].given) {
        snprintf(msg, msglen,
                 "%s: %s applies to iteration=newton only, not fixed-point "
                 "(which uses no Jacobian); hint: add iteration=newton",
                 t->name, t->params[k].name);
        return -1;
      }
  } else if (bsim_linsys_check(t, P_LINSYS, v, p, msg, msglen)) {
    return -1;
  }
  if (v[P_MAX_STEP].r > 0 && v[P_MIN_STEP].r > v[P_MAX_STEP].r) {
    snprintf(msg, msglen, "%s: min-step (%s) must not exceed max-step (%s)",
             t->name, v[P_MIN_STEP].text, v[P_MAX_STEP].text);
    return -1;
  }
  return 0;
}

/* The nonlinear solver, and for Newton the linear one: a CVODE flag. */
static int make_solvers(bsim_engine *e, const bsim_problem *p,
                        const bsim_param_value *v) {
  if (!e->newton) {
    e->nls = SUNNonlinSol_FixedPoint(e->y, 0, e->ctx);
    return e->nls ? CVodeSetNonlinearSolver(e->mem, e->nls) : CV_MEM_FAIL;
  }
  if (bsim_linsys_create(&e->lin, p, BSIM_NJAC_ODE, v, P_LINSYS, e->y,
                         e->ctx) != 0)
    return CV_MEM_FAIL;
  int flag = CVodeSetLinearSolver(e->mem, e->lin.ls, e->lin.A);
  if (flag >= 0 && e->lin.A && e->lin.jac)
    flag = CVodeSetLinSysFn(e->mem, cv_linsys);
  if (flag >= 0 && e->lin.prec)
    flag = CVodeSetPreconditioner(e->mem, cv_prec_setup, cv_prec_solve);
  return flag;
}

static bsim_engine *cv_create(const bsim_engine_type *type, int lmm,
                              int max_order, const bsim_problem *p,
                              const bsim_engine_settings *s, double t0,
                              const double *y0, char *msg, size_t msglen) {
  bsim_param_value v[P_COUNT];
  if (bsim_ode_check_params(type, p, s, t0, v, msg, msglen) ||
      check_ranges(type, p, v, max_order, msg, msglen))
    return NULL;
  bsim_engine *e = calloc(1, sizeof *e);
  if (!e) {
    snprintf(msg, msglen, "%s: out of memory", type->name);
    return NULL;
  }
  bsim_sun_init(&e->sun, &cv_ops, type->name, e, t0);
  e->type = type;
  e->n = p->n;
  e->ng = p->ng;
  e->residual = p->residual;
  e->roots = p->roots;
  e->user = p->user;
  e->newton = v[P_ITERATION].choice == IT_NEWTON;

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
  bsim_nvec_fast(e->y);
  bsim_nvec_fast(e->tmp);
  bsim_sun_load(e->y, y0, e->n);
  step = "CVodeCreate";
  if (!(e->sun.mem = e->mem = CVodeCreate(lmm, e->ctx))) goto fail;
  CVodeSetErrHandlerFn(e->mem, bsim_sun_capture, &e->sun);

#define TRY BSIM_SUN_TRY
  TRY(CVodeInit(e->mem, cv_rhs, t0, e->y));
  TRY(CVodeSStolerances(e->mem, s ? s->rtol : 1e-6, s ? s->atol : 1e-8));
  TRY(CVodeSetUserData(e->mem, e));
  TRY(CVodeSetMaxOrd(e->mem, (int)v[P_MAX_ORDER].i));
  TRY(CVodeSetMaxNumSteps(e->mem, v[P_MAX_STEPS].i));
  if (v[P_INIT_STEP].r > 0) TRY(CVodeSetInitStep(e->mem, v[P_INIT_STEP].r));
  if (v[P_MAX_STEP].r > 0) TRY(CVodeSetMaxStep(e->mem, v[P_MAX_STEP].r));
  if (v[P_MIN_STEP].r > 0) TRY(CVodeSetMinStep(e->mem, v[P_MIN_STEP].r));
  TRY(make_solvers(e, p, v));
  if (e->ng > 0) {
    TRY(CVodeRootInit(e->mem, e->ng, cv_roots));
    if ((flag = bsim_sun_root_direction(&e->sun, p->gdir, e->ng)) < 0)
      goto fail;
    CVodeSetNoInactiveRootWarn(e->mem);
  }
#undef TRY
  return e;

fail:
  if (!bsim_linsys_explain_failure(&e->lin, type->name, p->n, msg, msglen))
    bsim_sun_setup_failed(&e->sun, step, flag, msg, msglen);
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

/* ---- engine operations -------------------------------------------------- */

/* Totals since create, with the f evaluations CVODE does not count (the
 * linear solver's own are never reset, so not banked). */
static void cv_stats(const bsim_engine *e, bsim_engine_stats *st) {
  bsim_sun_stats(&e->sun, st);
  st->residual_evals += e->extra_rhs;
  bsim_linsys_stats(&e->lin, st);
}

static int cv_set_stop_time(bsim_engine *e, double tstop) {
  return bsim_sun_set_stop_time(&e->sun, tstop);
}

static int cv_reinit(bsim_engine *e, double t0, const double *y0,
                     const double *yp0) {
  bsim_sun_before_restart(&e->sun);
  bsim_sun_load(e->y, y0, e->n);
  int flag = CVodeReInit(e->mem, t0, e->y);
  if (flag < 0) {
    bsim_sun_fail(&e->sun, "restarting", flag, t0);
    return -1;
  }
  /* CVODE's own age limit (a J serves at most JAC_AGE steps), which its
   * count, reset with each restart, no longer sees */
  e->jac_kept = e->jac_formed && e->sun.before.steps - e->jac_step < JAC_AGE;
  return bsim_sun_restarted(&e->sun, t0);
}

/* Nothing to make consistent in an ODE: y' = f(t0, y0). */
static int cv_calc_ic(bsim_engine *e, double tout1, double *y, double *yp) {
  const double *yy = N_VGetArrayPointer(e->y);
  e->extra_rhs++;
  int rc = form_f(e, e->sun.t, yy, e->f);
  if (rc != 0) {
    snprintf(e->sun.err, sizeof e->sun.err,
             "%s: the equations failed (%s) at the start t=%.17g; hint: "
             "check the initial values",
             e->type->name, rc < 0 ? "fatal" : "domain error or NaN", e->sun.t);
    return -1;
  }
  if (y) memcpy(y, yy, (size_t)e->n * sizeof(double));
  if (yp) memcpy(yp, e->f, (size_t)e->n * sizeof(double));
  return 0;
}

static bsim_adv_status cv_advance(bsim_engine *e, double tout, double *tret,
                                  double *y, double *yp) {
  return bsim_sun_advance(&e->sun, tout, tret, y, yp);
}

static int cv_interpolate(bsim_engine *e, double t, int k, double *dky) {
  if (!e->sun.stepped && t == e->sun.t && (k == 0 || k == 1))
    return k == 0 ? cv_calc_ic(e, t, dky, NULL) : cv_calc_ic(e, t, NULL, dky);
  return bsim_sun_interpolate(&e->sun, t, k, e->tmp, dky, e->n);
}

static int cv_roots_found(bsim_engine *e, int *dirs) {
  return bsim_sun_roots_found(&e->sun, e->ng, dirs);
}

#ifdef BSIM_HAVE_CVODE_IMPL
/* A root just returned: the time handed out, inside the last step. */
static int at_root(const bsim_engine *e, double t) {
  return e->sun.last_adv == BSIM_ADV_ROOT && t == e->sun.t;
}

static int cv_carry_terms(const bsim_engine *e, double t, double *h) {
  realtype hh = 0, tn = t;
  if (!e->sun.stepped || t != e->sun.t) return 0;
  /* the polynomial spans the rest of the last step too after a root */
  CVodeGetCurrentTime(e->mem, &tn);
  if (h)
    *h = CVodeGetCurrentStep(e->mem, &hh) == CV_SUCCESS
             ? fabs(hh) + fabs(tn - t)
             : 0;
  return bsim_cvode_carry_terms(e->mem, t, at_root(e, t));
}

static int cv_carry_jump(bsim_engine *e, double t, int nterms, const double *dy,
                         const double *const *jumps) {
  if (cv_carry_terms(e, t, NULL) == 0 ||
      bsim_cvode_carry(e->mem, t, nterms, dy, jumps) != 0)
    return 1;
  int rc = bsim_cvode_carry_roots(e->mem, t);
  if (rc < 0)
    snprintf(e->sun.err, sizeof e->sun.err,
             "%s: the zero-crossing functions failed at t=%.17g after an "
             "event",
             e->type->name, t);
  return rc;
}

static int cv_carry(bsim_engine *e, double t, int nterms,
                    const double *const *jumps) {
  return cv_carry_jump(e, t, nterms, NULL, jumps);
}
#define CV_CARRY_TERMS cv_carry_terms
#define CV_CARRY_OP cv_carry
#define CV_CARRY_JUMP cv_carry_jump
#else /* CVODE's private header missing: every discontinuity restarts */
#define CV_CARRY_TERMS NULL
#define CV_CARRY_OP NULL
#define CV_CARRY_JUMP NULL
#endif

static const char *cv_last_error(const bsim_engine *e) {
  return e && e->sun.err[0] ? e->sun.err : "cvode: no error";
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
      .carry_terms = CV_CARRY_TERMS,                                           \
      .carry = CV_CARRY_OP,                                                    \
      .carry_jump = CV_CARRY_JUMP,                                             \
  };

CVODE_ENGINE(cvode_bdf, "cvode-bdf", bdf_params,
             "SUNDIALS CVODE, variable-order BDF (1-5) with Newton iteration "
             "(dense, band, klu or spgmr linear solver): stiff ODEs, with "
             "root finding")
CVODE_ENGINE(cvode_adams, "cvode-adams", adams_params,
             "SUNDIALS CVODE, variable-order Adams-Moulton (1-12) with "
             "fixed-point iteration: smooth non-stiff ODEs, with root finding")
