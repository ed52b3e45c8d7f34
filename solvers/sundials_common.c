/*
 * The logic solvers/ida.c and solvers/cvode.c share, written once so that
 * both engines keep the same stop-time rules, statistics and messages.
 *
 * Two quirks of SUNDIALS 6.4 shape the stop-time handling:
 * - a stop time cannot be cleared (IDAClearStopTime and CVodeClearStopTime
 *   came later) and survives a reinit; we "clear" it by moving it to
 *   +infinity.
 * - SUNDIALS refuses a stop time behind its internal time, which is usually
 *   ahead of the last output (the NORMAL mode steps past tout and
 *   interpolates). Such a stop time is kept here and honoured by
 *   integrating exactly to it: the solution up to SUNDIALS' internal time
 *   is already valid.
 */
#include "solvers/sundials_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void bsim_sun_init(bsim_sun *s, const bsim_sun_ops *ops, const char *name,
                   bsim_engine *self, double t0) {
  memset(s, 0, sizeof *s);
  s->ops = ops;
  s->name = name;
  s->self = self;
  s->t = t0;
  s->last_adv = BSIM_ADV_OK;
}

void bsim_sun_capture(int code, const char *module, const char *function,
                      char *msg, void *ud) {
  bsim_sun *s = ud;
  if (code == s->ops->warning)
    return; /* warnings are advice, not a cause of failure */
  snprintf(s->sunmsg, sizeof s->sunmsg, "%s: %s",
           function ? function : s->ops->module, msg ? msg : "");
}

/* ---- messages ----------------------------------------------------------- */

/* "<flag name> (<SUNDIALS' message>)", or without the parentheses when
 * SUNDIALS said nothing. */
static void flag_text(const bsim_sun *s, int flag, char *buf, size_t len) {
  char *name = s->ops->flag_name(flag);
  snprintf(buf, len, "%s%s%s%s", name ? name : "an unknown flag",
           s->sunmsg[0] ? " (" : "", s->sunmsg, s->sunmsg[0] ? ")" : "");
  free(name);
}

void bsim_sun_fail(bsim_sun *s, const char *op, int flag, double t) {
  char what[sizeof s->sunmsg + 128], hint[256];
  flag_text(s, flag, what, sizeof what);
  s->ops->hint(flag, t, hint, sizeof hint);
  snprintf(s->err, sizeof s->err, "%s: %s failed at t=%.17g with %s; hint: %s",
           s->name, op, t, what, hint);
}

void bsim_sun_setup_failed(const bsim_sun *s, const char *step, int flag,
                           char *msg, size_t msglen) {
  char what[sizeof s->sunmsg + 128];
  flag_text(s, flag, what, sizeof what);
  snprintf(msg, msglen, "%s: setting up the solver failed in %s with %s",
           s->name, step, what);
}

/* ---- vectors and roots -------------------------------------------------- */

void bsim_sun_load(N_Vector v, const double *src, int n) {
  double *d = N_VGetArrayPointer(v);
  if (src)
    memcpy(d, src, (size_t)n * sizeof *d);
  else
    memset(d, 0, (size_t)n * sizeof *d);
}

void bsim_sun_store(N_Vector v, double *dst, int n) {
  if (dst) memcpy(dst, N_VGetArrayPointer(v), (size_t)n * sizeof *dst);
}

/* SUNDIALS takes a non-const array (and copies it). */
int bsim_sun_root_direction(bsim_sun *s, const int *gdir, int ng) {
  if (!gdir) return 0;
  int *dir = malloc((size_t)ng * sizeof *dir);
  if (!dir) return s->ops->mem_fail;
  memcpy(dir, gdir, (size_t)ng * sizeof *dir);
  int flag = s->ops->root_direction(s->mem, dir);
  free(dir);
  return flag;
}

/* ---- statistics --------------------------------------------------------- */

static void add_stats(bsim_engine_stats *a, const bsim_engine_stats *b) {
  a->steps += b->steps;
  a->residual_evals += b->residual_evals;
  a->jacobian_evals += b->jacobian_evals;
  a->nonlinear_iterations += b->nonlinear_iterations;
  a->error_test_failures += b->error_test_failures;
  a->nonlinear_conv_failures += b->nonlinear_conv_failures;
  a->root_evals += b->root_evals;
  a->jacobian_residual_evals += b->jacobian_residual_evals;
}

/* A reinit zeroes the package's counters, and the linear solver's only at
 * the next setup, so they are banked once per run, not once per reinit. */
void bsim_sun_stats(const bsim_sun *s, bsim_engine_stats *st) {
  *st = s->before;
  if (!s->banked) {
    bsim_engine_stats cur;
    s->ops->counters(s->self, &cur);
    add_stats(st, &cur);
  }
}

void bsim_sun_before_restart(bsim_sun *s) {
  if (!s->banked) {
    bsim_engine_stats cur;
    s->ops->counters(s->self, &cur);
    add_stats(&s->before, &cur);
    s->banked = 1;
  }
  s->sunmsg[0] = '\0';
}

/* ---- stop time ---------------------------------------------------------- */

static void release_tstop(bsim_sun *s) {
  if (s->own_tstop) {
    s->ops->set_stop_time(s->mem, HUGE_VAL);
    s->own_tstop = 0;
  }
}

int bsim_sun_set_stop_time(bsim_sun *s, double tstop) {
  if (!(tstop > s->t)) {
    s->tstop_set = 0;
    release_tstop(s);
    return 0;
  }
  double tn = s->t;
  if (s->stepped) s->ops->current_time(s->mem, &tn);
  s->tstop = tstop;
  s->tstop_set = 1;
  if (s->stepped && tstop <= tn) {
    /* SUNDIALS is already past it: advance() stops there by interpolation. */
    release_tstop(s);
    return 0;
  }
  s->sunmsg[0] = '\0';
  int flag = s->ops->set_stop_time(s->mem, tstop);
  if (flag < 0) {
    bsim_sun_fail(s, "setting the stop time", flag, s->t);
    return -1;
  }
  s->own_tstop = 1;
  return 0;
}

int bsim_sun_restarted(bsim_sun *s, double t0) {
  s->t = t0;
  s->stepped = 0;
  s->last_adv = BSIM_ADV_OK;
  s->own_tstop = 1; /* whatever SUNDIALS holds, set it again or drop it */
  if (s->tstop_set && s->tstop > t0) return bsim_sun_set_stop_time(s, s->tstop);
  s->tstop_set = 0;
  release_tstop(s);
  return 0;
}

/* ---- integration -------------------------------------------------------- */

bsim_adv_status bsim_sun_advance(bsim_sun *s, double tout, double *tret,
                                 double *y, double *yp) {
  if (!(tout >= s->t)) {
    snprintf(s->err, sizeof s->err,
             "%s: asked to integrate back from t=%.17g to t=%.17g; hint: "
             "restart (reinit) to go back in time",
             s->name, s->t, tout);
    return s->last_adv = BSIM_ADV_ERROR;
  }
  bsim_adv_status st = BSIM_ADV_OK;
  if (tout == s->t) {
    *tret = s->t;
  } else {
    double target = tout;
    if (s->tstop_set && !s->own_tstop && s->tstop <= tout)
      target = s->tstop; /* a stop time SUNDIALS had already passed */
    double tr = s->t;
    s->sunmsg[0] = '\0';
    s->banked = 0;
    int flag = s->ops->solve(s->self, target, &tr);
    s->stepped = 1;
    *tret = tr;
    if (flag < 0) {
      bsim_sun_fail(s, "integrating", flag, tr);
      s->t = tr;
      s->ops->store(s->self, tr, y, yp);
      return s->last_adv = BSIM_ADV_ERROR;
    }
    st = (bsim_adv_status)flag;
    s->t = tr;
  }
  if (s->tstop_set && st != BSIM_ADV_ROOT && s->t >= s->tstop) {
    st = BSIM_ADV_TSTOP; /* reaching tout == tstop is reaching tstop */
    *tret = s->t = s->tstop;
    s->tstop_set = 0;
    release_tstop(s);
  } else if (st == BSIM_ADV_TSTOP) {
    s->tstop_set = 0;
    release_tstop(s);
  }
  s->ops->store(s->self, s->t, y, yp);
  return s->last_adv = st;
}

int bsim_sun_interpolate(bsim_sun *s, double t, int k, N_Vector tmp,
                         double *dky, int n) {
  s->sunmsg[0] = '\0';
  int flag = s->ops->dky(s->mem, t, k, tmp);
  if (flag < 0) {
    char what[sizeof s->sunmsg + 128];
    flag_text(s, flag, what, sizeof what);
    snprintf(s->err, sizeof s->err,
             "%s: interpolating derivative %d at t=%.17g failed with %s;"
             " hint: t must lie inside the last step and k <= the current "
             "order",
             s->name, k, t, what);
    return -1;
  }
  bsim_sun_store(tmp, dky, n);
  return 0;
}

int bsim_sun_roots_found(bsim_sun *s, int ng, int *dirs) {
  if (ng == 0) return 0;
  if (s->last_adv != BSIM_ADV_ROOT) {
    memset(dirs, 0, (size_t)ng * sizeof *dirs);
    return 0;
  }
  int flag = s->ops->root_info(s->mem, dirs);
  if (flag < 0) {
    bsim_sun_fail(s, "reading which roots fired", flag, s->t);
    return -1;
  }
  return 0;
}
