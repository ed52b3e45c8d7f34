/*
 * The "ida" engine: SUNDIALS IDA (variable-order BDF for F(t,y,y') = 0)
 * behind the engine interface. It is the default engine because a flattened
 * diagram is in general a DAE (torn algebraic loops, implicit blocks).
 *
 * Each instance owns its SUNContext, vectors, matrix and linear solver, so
 * instances are independent and the library keeps no global state. SUNDIALS'
 * messages are captured into the instance instead of being printed. The
 * stop time (and SUNDIALS 6.4's quirks about it), statistics across
 * restarts and the advance loop are shared with solvers/cvode.c through
 * solvers/sundials_common.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>

#include "solvers/engine.h"
#include "solvers/ida_carry.h"
#include "solvers/linsys.h"
#include "solvers/nvec_fast.h"
#include "solvers/params.h"
#include "solvers/sundials_common.h"

extern const bsim_engine_type bsim_engine_ida;

/* Indices into ida_params; the linear solver's block comes first, in
 * linsys.h's order. */
enum {
  P_LINSYS,
  P_MAX_ORDER = P_LINSYS + LP_COUNT,
  P_MAX_STEPS,
  P_INIT_STEP,
  P_MAX_STEP,
  P_CALCIC,
  P_SUPPRESS_ALG,
  P_MAX_NONLIN_ITERS,
  P_COUNT
};
enum { IC_YA_YDP, IC_Y, IC_NONE };
/* Weighted RMS residual below which given values count as consistent: a
 * thousandth of the tolerance, well under what IDACalcIC's own Newton
 * iteration accepts. */
static const double CONSISTENT_WRMS = 1e-3;

struct bsim_engine {
  bsim_sun sun; /* times, stop time, statistics and messages */
  SUNContext ctx;
  void *mem;
  N_Vector y, yp, id, tmp, ytmp, ztmp;
  bsim_linsys lin;
  int n, ng;
  int (*residual)(double, const double *, const double *, double *, void *);
  int (*roots)(double, const double *, const double *, double *, void *);
  void *user;
  int calcic, ode_form;
  double rtol, atol;
  double init_step; /* the init-step parameter, 0 = after a restart, the
                       step the history had reached */
  double restart_h; /* the first step chosen at the last reinit */
  long extra_res;   /* residual calls made outside IDA (consistency tests) */
};

static const bsim_engine_param ida_params[P_COUNT] = {
    BSIM_LINSYS_PARAMS,
    {"max-order", "int", "5", NULL, "highest BDF order, 1..5"},
    {"max-steps", "int", "100000", NULL,
     "most internal steps in one advance (between two outputs or events)"},
    {"init-step", "real", "0", NULL, "first step size; 0 = IDA chooses"},
    {"max-step", "real", "0", NULL, "largest step size; 0 = unlimited"},
    {"calcic", "choice", "ya_ydp", "ya_ydp|y|none",
     "consistent initial values: ya_ydp computes algebraic y and "
     "differential y' from the differential y; y computes all of y from y'; "
     "none trusts the given values"},
    {"suppress-alg", "choice", "off", "on|off",
     "leave algebraic unknowns out of the local error test (on helps "
     "index-2 systems; off keeps algebraic signals accurate)"},
    {"max-nonlin-iters", "int", "4", NULL,
     "Newton iterations per step before the step is retried smaller"},
};

/* ---- callbacks ---------------------------------------------------------- */

/* The vectors are serial ones (every vector here is made by N_VNew_Serial
 * or cloned from one): their data is read directly, not through the
 * vector's operation table, on this hottest of paths. */
static int ida_residual(realtype t, N_Vector yy, N_Vector yp, N_Vector rr,
                        void *ud) {
  bsim_engine *e = ud;
  double *r = NV_DATA_S(rr);
  int rc = e->residual(t, NV_DATA_S(yy), NV_DATA_S(yp), r, e->user);
  if (rc < 0) return -1;
  if (rc > 0) return 1;
  /* A NaN would poison the Newton iteration; a smaller step may avoid it. */
  for (int i = 0; i < e->n; i++)
    if (!isfinite(r[i])) return 1;
  return 0;
}

/* IDA has no recoverable root failure: any nonzero ends the solve. */
static int ida_roots(realtype t, N_Vector yy, N_Vector yp, realtype *g,
                     void *ud) {
  bsim_engine *e = ud;
  int rc =
      e->roots(t, N_VGetArrayPointer(yy), N_VGetArrayPointer(yp), g, e->user);
  return rc == BSIM_CB_OK ? 0 : -1;
}

/* The Newton matrix dF/dy + cj dF/dy' (solvers/linsys.c computes it). */
static int jac_values(bsim_engine *e, realtype t, realtype cj, N_Vector yy,
                      N_Vector yp, N_Vector rr, N_Vector ewt) {
  realtype h = 0;
  IDAGetErrWeights(e->mem, ewt);
  IDAGetCurrentStep(e->mem, &h);
  return bsim_njac_dae(e->lin.jac, t, N_VGetArrayPointer(yy),
                       N_VGetArrayPointer(yp), cj, N_VGetArrayPointer(rr), h,
                       N_VGetArrayPointer(ewt));
}

static int ida_jac(realtype t, realtype cj, N_Vector yy, N_Vector yp,
                   N_Vector rr, SUNMatrix J, void *ud, N_Vector t1, N_Vector t2,
                   N_Vector t3) {
  bsim_engine *e = ud;
  int rc = jac_values(e, t, cj, yy, yp, rr, t1);
  if (rc == 0) bsim_linsys_fill(&e->lin, J);
  return rc;
}

static int ida_prec_setup(realtype t, N_Vector yy, N_Vector yp, N_Vector rr,
                          realtype cj, void *ud) {
  bsim_engine *e = ud;
  int rc = jac_values(e, t, cj, yy, yp, rr, e->tmp);
  return rc != 0 ? rc : bsim_linsys_prec_setup(&e->lin, 0.0, 1.0);
}

static int ida_prec_solve(realtype t, N_Vector yy, N_Vector yp, N_Vector rr,
                          N_Vector rvec, N_Vector zvec, realtype cj,
                          realtype delta, void *ud) {
  bsim_linsys_prec_solve(&((bsim_engine *)ud)->lin, rvec, zvec);
  return 0;
}

/* Build the linear solver and hand it to IDA: an IDA flag. */
static int attach_linsys(bsim_engine *e, const bsim_problem *p,
                         const bsim_param_value *v) {
  if (bsim_linsys_create(&e->lin, p, BSIM_NJAC_DAE, v, P_LINSYS, e->y,
                         e->ctx) != 0)
    return IDA_MEM_FAIL;
  int flag = IDASetLinearSolver(e->mem, e->lin.ls, e->lin.A);
  if (flag >= 0 && e->lin.A && e->lin.jac) flag = IDASetJacFn(e->mem, ida_jac);
  if (flag >= 0 && e->lin.prec)
    flag = IDASetPreconditioner(e->mem, ida_prec_setup, ida_prec_solve);
  return flag;
}

/* ---- messages ----------------------------------------------------------- */

static void hint_for(int flag, double t, char *buf, size_t len) {
  switch (flag) {
  case IDA_TOO_MUCH_WORK:
    snprintf(buf, len, "raise max-steps or check the model");
    break;
  case IDA_TOO_MUCH_ACC:
    snprintf(buf, len, "tolerances too tight: raise rtol/atol");
    break;
  case IDA_ERR_FAIL:
  case IDA_CONV_FAIL:
    snprintf(buf, len,
             "the model may be stiff, discontinuous or singular at t=%.9g; "
             "check for unhandled discontinuities or tighten rtol",
             t);
    break;
  case IDA_LSETUP_FAIL:
  case IDA_LSOLVE_FAIL:
    snprintf(buf, len,
             "the Jacobian looks singular at t=%.9g: an algebraic loop without "
             "a unique solution, or a higher-index system",
             t);
    break;
  case IDA_RES_FAIL:
    snprintf(buf, len, "a block's equations failed (fatal) at t=%.9g", t);
    break;
  case IDA_REP_RES_ERR:
    snprintf(buf, len,
             "the equations kept failing (domain error or NaN) near t=%.9g", t);
    break;
  case IDA_RTFUNC_FAIL:
    snprintf(buf, len, "a zero-crossing function failed at t=%.9g", t);
    break;
  case IDA_FIRST_RES_FAIL:
  case IDA_NO_RECOVERY:
  case IDA_LINESEARCH_FAIL:
  case IDA_CONSTR_FAIL:
  case IDA_BAD_EWT:
    snprintf(buf, len,
             "initial values look inconsistent or out of the model's domain; "
             "give better initial guesses, or try calcic=y or calcic=none");
    break;
  case IDA_ILL_INPUT:
    snprintf(buf, len, "check the engine settings and times given");
    break;
  default:
    snprintf(buf, len, "check the model and the engine settings");
  }
}

/* ---- what sundials_common.c asks of IDA -------------------------------- */

static void current_stats(const bsim_engine *e, bsim_engine_stats *st) {
  long lres = 0;
  memset(st, 0, sizeof *st);
  IDAGetNumSteps(e->mem, &st->steps);
  IDAGetNumResEvals(e->mem, &st->residual_evals);
  /* IDA's difference quotients: the Jacobian's (dense, band), or J v's */
  IDAGetNumLinResEvals(e->mem, &lres);
  st->residual_evals += lres;
  if (e->lin.A) st->jacobian_residual_evals = lres;
  IDAGetNumJacEvals(e->mem, &st->jacobian_evals);
  IDAGetNumNonlinSolvIters(e->mem, &st->nonlinear_iterations);
  IDAGetNumErrTestFails(e->mem, &st->error_test_failures);
  IDAGetNumNonlinSolvConvFails(e->mem, &st->nonlinear_conv_failures);
  if (e->ng > 0) IDAGetNumGEvals(e->mem, &st->root_evals);
}

static int ida_solve(bsim_engine *e, double tout, double *tret) {
  int flag = IDASolve(e->mem, tout, tret, e->y, e->yp, IDA_NORMAL);
  if (flag < 0) return flag;
  return flag == IDA_ROOT_RETURN    ? BSIM_ADV_ROOT
         : flag == IDA_TSTOP_RETURN ? BSIM_ADV_TSTOP
                                    : BSIM_ADV_OK;
}

static void store_out(bsim_engine *e, double t, double *y, double *yp) {
  bsim_sun_store(e->y, y, e->n);
  bsim_sun_store(e->yp, yp, e->n);
}

static const bsim_sun_ops ida_ops = {
    .module = "IDA",
    .warning = IDA_WARNING,
    .mem_fail = IDA_MEM_FAIL,
    .flag_name = IDAGetReturnFlagName,
    .set_stop_time = IDASetStopTime,
    .current_time = IDAGetCurrentTime,
    .dky = IDAGetDky,
    .root_info = IDAGetRootInfo,
    .root_direction = IDASetRootDirection,
    .hint = hint_for,
    .counters = current_stats,
    .solve = ida_solve,
    .store = store_out,
};

/* ---- life cycle --------------------------------------------------------- */

static void ida_free(bsim_engine *e) {
  if (!e) return;
  if (e->mem) IDAFree(&e->mem);
  bsim_linsys_free(&e->lin);
  N_Vector *vs[] = {&e->y, &e->yp, &e->id, &e->tmp, &e->ytmp, &e->ztmp};
  for (size_t i = 0; i < sizeof vs / sizeof vs[0]; i++)
    if (*vs[i]) N_VDestroy(*vs[i]);
  if (e->ctx) SUNContext_Free(&e->ctx);
  free(e);
}

static int check_inputs(const bsim_problem *p, const bsim_engine_settings *s,
                        char *msg, size_t msglen) {
  if (!p || p->n < 1 || !p->residual) {
    snprintf(msg, msglen,
             "ida: the problem needs at least one unknown and a "
             "residual function");
    return -1;
  }
  if (p->ng < 0 || (p->ng > 0 && !p->roots)) {
    snprintf(msg, msglen,
             "ida: %d zero-crossing functions declared but no "
             "root function given",
             p->ng);
    return -1;
  }
  if (s && (!(s->rtol >= 0) || !(s->atol >= 0) || !isfinite(s->rtol) ||
            !isfinite(s->atol) || (s->rtol == 0 && s->atol == 0))) {
    snprintf(msg, msglen,
             "ida: rtol=%g and atol=%g must be finite, >= 0 and "
             "not both zero",
             s->rtol, s->atol);
    return -1;
  }
  return 0;
}

/* Range checks the table cannot express. */
static int check_ranges(const bsim_param_value *v, char *msg, size_t msglen) {
  const bsim_engine_type *t = &bsim_engine_ida;
  if (bsim_engine_param_range(t, P_MAX_ORDER, v, 1, 5, msg, msglen) ||
      bsim_engine_param_range(t, P_MAX_STEPS, v, 1, HUGE_VAL, msg, msglen) ||
      bsim_engine_param_range(t, P_INIT_STEP, v, 0, HUGE_VAL, msg, msglen) ||
      bsim_engine_param_range(t, P_MAX_STEP, v, 0, HUGE_VAL, msg, msglen) ||
      bsim_engine_param_range(t, P_MAX_NONLIN_ITERS, v, 1, 1000, msg, msglen))
    return -1;
  return 0;
}

static bsim_engine *ida_create(const bsim_problem *p,
                               const bsim_engine_settings *s, double t0,
                               const double *y0, const double *yp0, char *msg,
                               size_t msglen) {
  bsim_param_value v[P_COUNT];
  if (check_inputs(p, s, msg, msglen) ||
      bsim_engine_params_resolve(&bsim_engine_ida, s, v, msg, msglen) ||
      check_ranges(v, msg, msglen) ||
      bsim_linsys_check(&bsim_engine_ida, P_LINSYS, v, p, msg, msglen))
    return NULL;
  if (!isfinite(t0)) {
    snprintf(msg, msglen, "ida: the start time must be finite");
    return NULL;
  }

  bsim_engine *e = calloc(1, sizeof *e);
  if (!e) {
    snprintf(msg, msglen, "ida: out of memory");
    return NULL;
  }
  bsim_sun_init(&e->sun, &ida_ops, "ida", e, t0);
  e->n = p->n;
  e->ng = p->ng;
  e->residual = p->residual;
  e->roots = p->roots;
  e->user = p->user;
  e->calcic = v[P_CALCIC].choice;
  e->ode_form = p->ode_form;
  e->rtol = s ? s->rtol : 1e-6;
  e->atol = s ? s->atol : 1e-8;
  e->init_step = v[P_INIT_STEP].r;

  const char *step = "SUNContext_Create";
  int flag = SUNContext_Create(NULL, &e->ctx);
  if (flag != 0) goto fail;
  step = "N_VNew_Serial";
  flag = IDA_MEM_FAIL;
  e->y = N_VNew_Serial(e->n, e->ctx);
  e->yp = N_VNew_Serial(e->n, e->ctx);
  e->id = N_VNew_Serial(e->n, e->ctx);
  e->tmp = N_VNew_Serial(e->n, e->ctx);
  e->ytmp = N_VNew_Serial(e->n, e->ctx);
  e->ztmp = N_VNew_Serial(e->n, e->ctx);
  if (!e->y || !e->yp || !e->id || !e->tmp || !e->ytmp || !e->ztmp) goto fail;
  N_Vector mine[] = {e->y, e->yp, e->id, e->tmp, e->ytmp, e->ztmp};
  for (size_t i = 0; i < sizeof mine / sizeof mine[0]; i++)
    bsim_nvec_fast(mine[i]);
  bsim_sun_load(e->y, y0, e->n);
  bsim_sun_load(e->yp, yp0, e->n);
  double *id = N_VGetArrayPointer(e->id);
  for (int i = 0; i < e->n; i++)
    id[i] = (p->id && p->id[i] == 0.0) ? 0.0 : 1.0;

  step = "IDACreate";
  e->sun.mem = e->mem = IDACreate(e->ctx);
  if (!e->mem) goto fail;
  IDASetErrHandlerFn(e->mem, bsim_sun_capture, &e->sun);

#define TRY BSIM_SUN_TRY
  TRY(IDAInit(e->mem, ida_residual, t0, e->y, e->yp));
  if (p->error_test) {
    /* left out of the error test: an absolute tolerance no error reaches */
    double *a = N_VGetArrayPointer(e->tmp);
    for (int i = 0; i < e->n; i++)
      a[i] = p->error_test[i] ? (s ? s->atol : 1e-8) : 1e100;
    TRY(IDASVtolerances(e->mem, s ? s->rtol : 1e-6, e->tmp));
  } else {
    TRY(IDASStolerances(e->mem, s ? s->rtol : 1e-6, s ? s->atol : 1e-8));
  }
  TRY(IDASetUserData(e->mem, e));
  TRY(IDASetId(e->mem, e->id));
  TRY(IDASetSuppressAlg(e->mem, v[P_SUPPRESS_ALG].choice == 0));
  TRY(IDASetMaxOrd(e->mem, (int)v[P_MAX_ORDER].i));
  TRY(IDASetMaxNumSteps(e->mem, v[P_MAX_STEPS].i));
  if (v[P_INIT_STEP].r > 0) TRY(IDASetInitStep(e->mem, v[P_INIT_STEP].r));
  if (v[P_MAX_STEP].r > 0) TRY(IDASetMaxStep(e->mem, v[P_MAX_STEP].r));
  TRY(IDASetMaxNonlinIters(e->mem, (int)v[P_MAX_NONLIN_ITERS].i));
  TRY(attach_linsys(e, p, v));
  if (e->ng > 0) {
    TRY(IDARootInit(e->mem, e->ng, ida_roots));
    if ((flag = bsim_sun_root_direction(&e->sun, p->gdir, e->ng)) < 0)
      goto fail;
    IDASetNoInactiveRootWarn(e->mem);
  }
#undef TRY
  return e;

fail:
  if (!bsim_linsys_explain_failure(&e->lin, "ida", p->n, msg, msglen))
    bsim_sun_setup_failed(&e->sun, step, flag, msg, msglen);
  ida_free(e);
  return NULL;
}

/* ---- engine operations -------------------------------------------------- */

/* Totals since create, with what the linear solver counts itself (never
 * reset, so not banked). */
static void ida_stats(const bsim_engine *e, bsim_engine_stats *st) {
  bsim_sun_stats(&e->sun, st);
  st->residual_evals += e->extra_res;
  bsim_linsys_stats(&e->lin, st);
}

static int ida_set_stop_time(bsim_engine *e, double tstop) {
  return bsim_sun_set_stop_time(&e->sun, tstop);
}

/* A restart keeps the step size the history had reached as its first
 * step (IDA's own guess, a thousandth of the way to the first output, is
 * made for a start from nothing): what was resolved just before the event
 * is the scale of the solution just after it. IDA still shortens it to the
 * stop time, and the error test shortens it further if the event made the
 * solution rougher. */
static double restart_step(bsim_engine *e, double t0, const double *y0,
                           const double *yp0) {
  if (e->init_step > 0) return e->init_step;
  /* After a root IDA's own tiny first step: the reset of a zero crossing
   * often sets up the next one at any distance (a ball's bounces, ever
   * shorter), which a long first step would jump over unseen. */
  realtype h = 0;
  if (!e->sun.stepped || e->sun.last_adv == BSIM_ADV_ROOT ||
      IDAGetCurrentStep(e->mem, &h) != IDA_SUCCESS)
    return 0;
  h = fabs(h);
  /* A DAE (algebraic unknowns, acausal parts) restarts with IDA's own
   * first step: after a switch the fastest transient can be many orders
   * shorter than the history's step (a switch closing onto a capacitor,
   * 1e-15 s), and the error test would not shrink that far. */
  if (!e->ode_form || !yp0) return e->ode_form ? h : 0;
  /* The history restarts at order 1, whose error is about h^2/2 y'': a
   * kink that made y'' large needs a shorter first step than the history
   * had reached. For F = y' - f, y'' = (f(t + d, y + d y') - y') / d. */
  double d = 1e-3 * h, *r = N_VGetArrayPointer(e->tmp), sum = 0;
  double *yd = N_VGetArrayPointer(e->ytmp), *zero = N_VGetArrayPointer(e->ztmp);
  for (int i = 0; i < e->n; i++) {
    yd[i] = y0[i] + d * yp0[i];
    zero[i] = 0;
  }
  e->extra_res++;
  if (e->residual(t0 + d, yd, zero, r, e->user) != BSIM_CB_OK) return 0;
  for (int i = 0; i < e->n; i++) {
    double w = (-r[i] - yp0[i]) / d / (e->rtol * fabs(y0[i]) + e->atol);
    sum += w * w;
  }
  double ypp = sqrt(sum / e->n);
  return ypp > 0 ? fmin(h, 0.5 * sqrt(2.0 / ypp)) : h;
}

static int ida_reinit(bsim_engine *e, double t0, const double *y0,
                      const double *yp0) {
  /* a second reinit at the same point (better y' for the algebraic
   * unknowns) keeps the first one's step */
  double h0 = e->sun.stepped || t0 != e->sun.t ? restart_step(e, t0, y0, yp0)
                                               : e->restart_h;
  e->restart_h = h0;
  bsim_sun_before_restart(&e->sun);
  bsim_sun_load(e->y, y0, e->n);
  bsim_sun_load(e->yp, yp0, e->n);
  int flag = IDAReInit(e->mem, t0, e->y, e->yp);
  if (flag >= 0) flag = IDASetInitStep(e->mem, h0);
  if (flag < 0) {
    bsim_sun_fail(&e->sun, "restarting", flag, t0);
    return -1;
  }
  return bsim_sun_restarted(&e->sun, t0);
}

/* Given values consistent already: the residual there is below what IDA's
 * own Newton iteration would leave, weighted as its error test weighs y.
 * An ODE-form problem whose y' is f passes exactly, and so does a DAE
 * whose algebraic unknowns an event left as they were: no solve then. */
static int consistent(bsim_engine *e) {
  const double *y = N_VGetArrayPointer(e->y), *yp = N_VGetArrayPointer(e->yp);
  double *r = N_VGetArrayPointer(e->tmp), sum = 0;
  e->extra_res++;
  if (e->residual(e->sun.t, y, yp, r, e->user) != BSIM_CB_OK) return 0;
  for (int i = 0; i < e->n; i++) {
    double w = r[i] / (e->rtol * fabs(y[i]) + e->atol);
    sum += w * w;
  }
  return sqrt(sum / e->n) <= CONSISTENT_WRMS;
}

/* The guesses are those given to create/reinit; y and yp are outputs. */
static int ida_calc_ic(bsim_engine *e, double tout1, double *y, double *yp) {
  if (e->calcic != IC_NONE && !(e->calcic == IC_YA_YDP && consistent(e))) {
    if (!(tout1 > e->sun.t)) {
      snprintf(e->sun.err, sizeof e->sun.err,
               "ida: consistent initial values need tout1 > t0 (t0=%.17g, "
               "tout1=%.17g); hint: pass the first output time",
               e->sun.t, tout1);
      return -1;
    }
    e->sun.sunmsg[0] = '\0';
    int opt = e->calcic == IC_Y ? IDA_Y_INIT : IDA_YA_YDP_INIT;
    e->sun.banked = 0;
    int flag = IDACalcIC(e->mem, opt, tout1);
    if (flag < 0) {
      bsim_sun_fail(&e->sun, "computing consistent initial values", flag,
                    e->sun.t);
      return -1;
    }
    IDAGetConsistentIC(e->mem, e->y, e->yp);
  }
  bsim_sun_store(e->y, y, e->n);
  bsim_sun_store(e->yp, yp, e->n);
  return 0;
}

static bsim_adv_status ida_advance(bsim_engine *e, double tout, double *tret,
                                   double *y, double *yp) {
  return bsim_sun_advance(&e->sun, tout, tret, y, yp);
}

static int ida_interpolate(bsim_engine *e, double t, int k, double *dky) {
  if (!e->sun.stepped && t == e->sun.t && (k == 0 || k == 1)) {
    bsim_sun_store(k == 0 ? e->y : e->yp, dky, e->n);
    return 0;
  }
  return bsim_sun_interpolate(&e->sun, t, k, e->tmp, dky, e->n);
}

static int ida_roots_found(bsim_engine *e, int *dirs) {
  return bsim_sun_roots_found(&e->sun, e->ng, dirs);
}

static const char *ida_last_error(const bsim_engine *e) {
  return e && e->sun.err[0] ? e->sun.err : "ida: no error";
}

/* The unknown with the largest weighted local error estimate. */
static int ida_worst_component(bsim_engine *e) {
  N_Vector w = N_VClone(e->y), ele = N_VClone(e->y);
  int best = -1;
  if (w && ele && IDAGetErrWeights(e->mem, w) == IDA_SUCCESS &&
      IDAGetEstLocalErrors(e->mem, ele) == IDA_SUCCESS) {
    const double *pw = N_VGetArrayPointer(w), *pe = N_VGetArrayPointer(ele);
    double worst = -1.0;
    for (int i = 0; i < e->n; i++) {
      double v = fabs(pe[i] * pw[i]);
      if (v > worst) {
        worst = v;
        best = i;
      }
    }
  }
  if (w) N_VDestroy(w);
  if (ele) N_VDestroy(ele);
  return best;
}

static int ida_carry_terms(const bsim_engine *e, double t, double *h) {
  realtype hh = 0;
  if (h) *h = IDAGetCurrentStep(e->mem, &hh) == IDA_SUCCESS ? fabs(hh) : 0;
  return e->sun.stepped && t == e->sun.t ? bsim_ida_carry_terms(e->mem, t) : 0;
}

static int ida_carry(bsim_engine *e, double t, int nterms,
                     const double *const *jumps) {
  if (ida_carry_terms(e, t, NULL) == 0 ||
      bsim_ida_carry(e->mem, t, nterms, jumps) != 0)
    return 1;
  int rc = bsim_ida_carry_roots(e->mem);
  if (rc < 0)
    snprintf(e->sun.err, sizeof e->sun.err,
             "ida: the zero-crossing functions failed at t=%.17g after an "
             "event",
             t);
  return rc;
}

const bsim_engine_type bsim_engine_ida = {
    .name = "ida",
    .summary = "SUNDIALS IDA: variable-order, variable-step BDF for implicit "
               "DAEs F(t,y,y')=0 of index 1, with root finding",
    .params = ida_params,
    .nparams = P_COUNT,
    .needs_ode = 0,
    .create = ida_create,
    .reinit = ida_reinit,
    .calc_ic = ida_calc_ic,
    .set_stop_time = ida_set_stop_time,
    .advance = ida_advance,
    .interpolate = ida_interpolate,
    .roots_found = ida_roots_found,
    .stats = ida_stats,
    .last_error = ida_last_error,
    .worst_component = ida_worst_component,
    .free = ida_free,
    .carry_terms = ida_carry_terms,
    .carry = ida_carry,
};
