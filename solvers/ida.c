/*
 * The "ida" engine: SUNDIALS IDA (variable-order BDF for F(t,y,y') = 0)
 * behind the engine interface. It is the default engine because a flattened
 * diagram is in general a DAE (torn algebraic loops, implicit blocks).
 *
 * Each instance owns its SUNContext, vectors, matrix and linear solver, so
 * instances are independent and the library keeps no global state. SUNDIALS'
 * messages are captured into the instance instead of being printed.
 *
 * Two quirks of SUNDIALS 6.4 shape this file:
 * - a stop time cannot be cleared (IDAClearStopTime came later) and survives
 *   IDAReInit; we "clear" it by moving it to +infinity.
 * - IDA refuses a stop time behind its internal time, which is usually ahead
 *   of the last output (IDA_NORMAL steps past tout and interpolates). Such a
 *   stop time is kept here and honoured by integrating exactly to it: the
 *   solution up to IDA's internal time is already valid.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>

#include "solvers/ida_int.h"

extern const bsim_engine_type bsim_engine_ida;

static const bsim_engine_param ida_params[P_COUNT] = {
    {"linear-solver", "choice", "dense", "dense|band|klu",
     "linear solver for the Newton iteration: dense (small systems), band "
     "(unknowns coupled only to near neighbours), klu (sparse LU with a "
     "colored finite-difference Jacobian; large diagrams)"},
    {"band-upper", "int", "-1", NULL,
     "upper half-bandwidth for linear-solver=band; -1 = from the system's "
     "sparsity pattern"},
    {"band-lower", "int", "-1", NULL,
     "lower half-bandwidth for linear-solver=band; -1 = from the system's "
     "sparsity pattern"},
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

static int ida_residual(realtype t, N_Vector yy, N_Vector yp, N_Vector rr,
                        void *ud) {
  bsim_engine *e = ud;
  double *r = N_VGetArrayPointer(rr);
  int rc = e->residual(t, N_VGetArrayPointer(yy), N_VGetArrayPointer(yp), r,
                       e->user);
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

static void ida_errh(int code, const char *module, const char *function,
                     char *msg, void *ud) {
  bsim_engine *e = ud;
  if (code == IDA_WARNING)
    return; /* warnings are advice, not a cause of failure */
  snprintf(e->sunmsg, sizeof e->sunmsg, "%s: %s", function ? function : "IDA",
           msg ? msg : "");
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

static void set_failure(bsim_engine *e, const char *op, int flag, double t) {
  char *name = IDAGetReturnFlagName(flag); /* malloc'ed by SUNDIALS */
  char hint[256];
  hint_for(flag, t, hint, sizeof hint);
  snprintf(e->err, sizeof e->err,
           "ida: %s failed at t=%.17g with %s%s%s%s; "
           "hint: %s",
           op, t, name ? name : "an unknown flag", e->sunmsg[0] ? " (" : "",
           e->sunmsg, e->sunmsg[0] ? ")" : "", hint);
  free(name);
}

/* ---- life cycle --------------------------------------------------------- */

static void load(N_Vector v, const double *src, int n) {
  double *d = N_VGetArrayPointer(v);
  if (src)
    memcpy(d, src, (size_t)n * sizeof *d);
  else
    memset(d, 0, (size_t)n * sizeof *d);
}

static void store(N_Vector v, double *dst, int n) {
  if (dst) memcpy(dst, N_VGetArrayPointer(v), (size_t)n * sizeof *dst);
}

static void ida_free(bsim_engine *e) {
  if (!e) return;
  if (e->mem) IDAFree(&e->mem);
  if (e->ls) SUNLinSolFree(e->ls);
  if (e->A) SUNMatDestroy(e->A);
  bsim_cfd_free(e->cfd);
  free(e->colptr);
  free(e->rowidx);
  N_Vector *vs[] = {&e->y, &e->yp, &e->id, &e->tmp};
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
      bsim_engine_param_range(t, P_MAX_NONLIN_ITERS, v, 1, 1000, msg, msglen) ||
      bsim_engine_param_range(t, P_BAND_UPPER, v, -1, HUGE_VAL, msg, msglen) ||
      bsim_engine_param_range(t, P_BAND_LOWER, v, -1, HUGE_VAL, msg, msglen))
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
      check_ranges(v, msg, msglen) || bsim_ida_check_pattern(p, v, msg, msglen))
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
  e->n = p->n;
  e->ng = p->ng;
  e->residual = p->residual;
  e->roots = p->roots;
  e->user = p->user;
  e->calcic = v[P_CALCIC].choice;
  e->t = t0;
  e->last_adv = BSIM_ADV_OK;

  const char *step = "SUNContext_Create";
  int flag = SUNContext_Create(NULL, &e->ctx);
  if (flag != 0) goto fail;
  step = "N_VNew_Serial";
  flag = IDA_MEM_FAIL;
  e->y = N_VNew_Serial(e->n, e->ctx);
  e->yp = N_VNew_Serial(e->n, e->ctx);
  e->id = N_VNew_Serial(e->n, e->ctx);
  e->tmp = N_VNew_Serial(e->n, e->ctx);
  if (!e->y || !e->yp || !e->id || !e->tmp) goto fail;
  load(e->y, y0, e->n);
  load(e->yp, yp0, e->n);
  double *id = N_VGetArrayPointer(e->id);
  for (int i = 0; i < e->n; i++)
    id[i] = (p->id && p->id[i] == 0.0) ? 0.0 : 1.0;

  step = "IDACreate";
  e->mem = IDACreate(e->ctx);
  if (!e->mem) goto fail;
  IDASetErrHandlerFn(e->mem, ida_errh, e);

#define TRY(call)                                                              \
  do {                                                                         \
    step = #call;                                                              \
    if ((flag = (call)) < 0) goto fail;                                        \
  } while (0)
  TRY(IDAInit(e->mem, ida_residual, t0, e->y, e->yp));
  TRY(IDASStolerances(e->mem, s ? s->rtol : 1e-6, s ? s->atol : 1e-8));
  TRY(IDASetUserData(e->mem, e));
  TRY(IDASetId(e->mem, e->id));
  TRY(IDASetSuppressAlg(e->mem, v[P_SUPPRESS_ALG].choice == 0));
  TRY(IDASetMaxOrd(e->mem, (int)v[P_MAX_ORDER].i));
  TRY(IDASetMaxNumSteps(e->mem, v[P_MAX_STEPS].i));
  if (v[P_INIT_STEP].r > 0) TRY(IDASetInitStep(e->mem, v[P_INIT_STEP].r));
  if (v[P_MAX_STEP].r > 0) TRY(IDASetMaxStep(e->mem, v[P_MAX_STEP].r));
  TRY(IDASetMaxNonlinIters(e->mem, (int)v[P_MAX_NONLIN_ITERS].i));
  TRY(bsim_ida_linear_solver(e, p, v));
  if (e->ng > 0) {
    TRY(IDARootInit(e->mem, e->ng, ida_roots));
    if (p->gdir) {
      int *dir = malloc((size_t)e->ng * sizeof *dir);
      if (!dir) {
        flag = IDA_MEM_FAIL;
        goto fail;
      }
      memcpy(dir, p->gdir, (size_t)e->ng * sizeof *dir);
      flag = IDASetRootDirection(e->mem, dir); /* IDA copies it */
      free(dir);
      if (flag < 0) goto fail;
    }
    IDASetNoInactiveRootWarn(e->mem);
  }
#undef TRY
  return e;

fail:;
  char *name = IDAGetReturnFlagName(flag);
  snprintf(msg, msglen, "ida: setting up the solver failed in %s with %s%s%s%s",
           step, name ? name : "an unknown flag", e->sunmsg[0] ? " (" : "",
           e->sunmsg, e->sunmsg[0] ? ")" : "");
  free(name);
  ida_free(e);
  return NULL;
}

/* ---- statistics --------------------------------------------------------- */

static void current_stats(const bsim_engine *e, bsim_engine_stats *st) {
  long lres = 0;
  memset(st, 0, sizeof *st);
  IDAGetNumSteps(e->mem, &st->steps);
  IDAGetNumResEvals(e->mem, &st->residual_evals);
  IDAGetNumLinResEvals(e->mem, &lres); /* finite-difference Jacobian calls */
  st->residual_evals += lres;
  IDAGetNumJacEvals(e->mem, &st->jacobian_evals);
  IDAGetNumNonlinSolvIters(e->mem, &st->nonlinear_iterations);
  IDAGetNumErrTestFails(e->mem, &st->error_test_failures);
  IDAGetNumNonlinSolvConvFails(e->mem, &st->nonlinear_conv_failures);
  if (e->ng > 0) IDAGetNumGEvals(e->mem, &st->root_evals);
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

/* Totals since create: IDAReInit zeroes IDA's own counters. */
static void ida_stats(const bsim_engine *e, bsim_engine_stats *st) {
  *st = e->before;
  if (!e->banked) {
    bsim_engine_stats cur;
    current_stats(e, &cur);
    add_stats(st, &cur);
  }
  st->residual_evals += e->jac_res_evals; /* never reset: not banked */
}

/* ---- stop time ---------------------------------------------------------- */

/* Take IDA's own stop time away (SUNDIALS 6.4 has no IDAClearStopTime). */
static void release_ida_tstop(bsim_engine *e) {
  if (e->ida_tstop) {
    IDASetStopTime(e->mem, HUGE_VAL);
    e->ida_tstop = 0;
  }
}

static int ida_set_stop_time(bsim_engine *e, double tstop) {
  if (!(tstop > e->t)) {
    e->tstop_set = 0;
    release_ida_tstop(e);
    return 0;
  }
  double tn = e->t;
  if (e->stepped) IDAGetCurrentTime(e->mem, &tn);
  e->tstop = tstop;
  e->tstop_set = 1;
  if (e->stepped && tstop <= tn) {
    /* IDA is already past it: advance() stops there by interpolation. */
    release_ida_tstop(e);
    return 0;
  }
  e->sunmsg[0] = '\0';
  int flag = IDASetStopTime(e->mem, tstop);
  if (flag < 0) {
    set_failure(e, "setting the stop time", flag, e->t);
    return -1;
  }
  e->ida_tstop = 1;
  return 0;
}

/* ---- integration -------------------------------------------------------- */

static int ida_reinit(bsim_engine *e, double t0, const double *y0,
                      const double *yp0) {
  /* The linear solver's counters are only zeroed at IDA's next setup, so
   * bank once per run, not once per reinit. */
  if (!e->banked) {
    bsim_engine_stats cur;
    current_stats(e, &cur);
    add_stats(&e->before, &cur);
    e->banked = 1;
  }
  load(e->y, y0, e->n);
  load(e->yp, yp0, e->n);
  e->sunmsg[0] = '\0';
  int flag = IDAReInit(e->mem, t0, e->y, e->yp);
  if (flag < 0) {
    set_failure(e, "restarting", flag, t0);
    return -1;
  }
  e->t = t0;
  e->stepped = 0;
  e->last_adv = BSIM_ADV_OK;
  /* The stop time survives IDAReInit in 6.4: set it again or drop it. */
  e->ida_tstop = 1;
  if (e->tstop_set && e->tstop > t0) return ida_set_stop_time(e, e->tstop);
  e->tstop_set = 0;
  release_ida_tstop(e);
  return 0;
}

/* The guesses are those given to create/reinit; y and yp are outputs. */
static int ida_calc_ic(bsim_engine *e, double tout1, double *y, double *yp) {
  if (e->calcic != IC_NONE) {
    if (!(tout1 > e->t)) {
      snprintf(e->err, sizeof e->err,
               "ida: consistent initial values need tout1 > t0 (t0=%.17g, "
               "tout1=%.17g); hint: pass the first output time",
               e->t, tout1);
      return -1;
    }
    e->sunmsg[0] = '\0';
    int opt = e->calcic == IC_Y ? IDA_Y_INIT : IDA_YA_YDP_INIT;
    e->banked = 0;
    int flag = IDACalcIC(e->mem, opt, tout1);
    if (flag < 0) {
      set_failure(e, "computing consistent initial values", flag, e->t);
      return -1;
    }
    IDAGetConsistentIC(e->mem, e->y, e->yp);
  }
  store(e->y, y, e->n);
  store(e->yp, yp, e->n);
  return 0;
}

static bsim_adv_status ida_advance(bsim_engine *e, double tout, double *tret,
                                   double *y, double *yp) {
  if (!(tout >= e->t)) {
    snprintf(e->err, sizeof e->err,
             "ida: asked to integrate back from t=%.17g to t=%.17g; hint: "
             "restart (reinit) to go back in time",
             e->t, tout);
    return e->last_adv = BSIM_ADV_ERROR;
  }
  bsim_adv_status st = BSIM_ADV_OK;
  if (tout == e->t) {
    *tret = e->t;
  } else {
    double target = tout;
    if (e->tstop_set && !e->ida_tstop && e->tstop <= tout)
      target = e->tstop; /* a stop time IDA had already passed */
    double tr = e->t;
    e->sunmsg[0] = '\0';
    e->banked = 0;
    int flag = IDASolve(e->mem, target, &tr, e->y, e->yp, IDA_NORMAL);
    e->stepped = 1;
    *tret = tr;
    if (flag < 0) {
      set_failure(e, "integrating", flag, tr);
      e->t = tr;
      store(e->y, y, e->n);
      store(e->yp, yp, e->n);
      return e->last_adv = BSIM_ADV_ERROR;
    }
    st = flag == IDA_ROOT_RETURN    ? BSIM_ADV_ROOT
         : flag == IDA_TSTOP_RETURN ? BSIM_ADV_TSTOP
                                    : BSIM_ADV_OK;
    e->t = tr;
  }
  if (e->tstop_set && st != BSIM_ADV_ROOT && e->t >= e->tstop) {
    /* Reaching tout == tstop is reaching the stop time too. */
    st = BSIM_ADV_TSTOP;
    *tret = e->t = e->tstop;
    e->tstop_set = 0;
    release_ida_tstop(e);
  } else if (st == BSIM_ADV_TSTOP) {
    e->tstop_set = 0;
    release_ida_tstop(e);
  }
  store(e->y, y, e->n);
  store(e->yp, yp, e->n);
  return e->last_adv = st;
}

static int ida_interpolate(bsim_engine *e, double t, int k, double *dky) {
  if (!e->stepped && t == e->t && (k == 0 || k == 1)) {
    store(k == 0 ? e->y : e->yp, dky, e->n);
    return 0;
  }
  e->sunmsg[0] = '\0';
  int flag = IDAGetDky(e->mem, t, k, e->tmp);
  if (flag < 0) {
    char *name = IDAGetReturnFlagName(flag);
    snprintf(e->err, sizeof e->err,
             "ida: interpolating derivative %d at t=%.17g failed with %s%s%s%s;"
             " hint: t must lie inside the last step and k <= the current "
             "order",
             k, t, name ? name : "an unknown flag", e->sunmsg[0] ? " (" : "",
             e->sunmsg, e->sunmsg[0] ? ")" : "");
    free(name);
    return -1;
  }
  store(e->tmp, dky, e->n);
  return 0;
}

static int ida_roots_found(bsim_engine *e, int *dirs) {
  if (e->ng == 0) return 0;
  if (e->last_adv != BSIM_ADV_ROOT) {
    memset(dirs, 0, (size_t)e->ng * sizeof *dirs);
    return 0;
  }
  int flag = IDAGetRootInfo(e->mem, dirs);
  if (flag < 0) {
    set_failure(e, "reading which roots fired", flag, e->t);
    return -1;
  }
  return 0;
}

static const char *ida_last_error(const bsim_engine *e) {
  return e && e->err[0] ? e->err : "ida: no error";
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
};
