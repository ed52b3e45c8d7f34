/*
 * A plugin engine, "test-heun": Heun's method (explicit trapezoidal rule,
 * order 2) with a fixed step, for ODE-form systems without zero crossings.
 * It exists to show, and test, that an engine registered by a plugin is
 * driven exactly like a built-in one: its parameter reaches it through
 * --solver-param, and its error, of order step^2, is what a test can
 * predict.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocksim/plugin.h"

static const bsim_engine_param heun_params[] = {
    {"step", "real", "0.01", NULL, "the fixed step, > 0"},
};

struct bsim_engine {
  bsim_problem p;
  double step, t, tstop;
  double *y, *f, *ys, *fs, *zero; /* n each */
  bsim_engine_stats st;
  char msg[256];
};

/* f(t, y) = -F(t, y, 0) for F = y' - f. */
static int rhs(bsim_engine *e, double t, const double *y, double *f) {
  e->st.residual_evals++;
  int rc = e->p.residual(t, y, e->zero, f, e->p.user);
  for (int i = 0; i < e->p.n; i++)
    f[i] = -f[i];
  if (rc != BSIM_CB_OK)
    snprintf(e->msg, sizeof e->msg,
             "test-heun: the equations failed at t=%.17g", t);
  return rc;
}

static void heun_free(bsim_engine *e) {
  if (!e) return;
  free(e->y);
  free(e);
}

static bsim_engine *heun_create(const bsim_problem *p,
                                const bsim_engine_settings *s, double t0,
                                const double *y0, const double *yp0, char *msg,
                                size_t msglen) {
  double step = 0.01;
  for (int i = 0; i < s->nparams; i++) {
    char *end;
    if (strcmp(s->param_names[i], "step") != 0) {
      snprintf(msg, msglen, "test-heun: unknown parameter '%s' (valid: step)",
               s->param_names[i]);
      return NULL;
    }
    step = strtod(s->param_values[i], &end);
    if (*end || !(step > 0)) {
      snprintf(msg, msglen, "test-heun: step must be > 0, not '%s'",
               s->param_values[i]);
      return NULL;
    }
  }
  if (!p->ode_form || p->ng > 0) {
    snprintf(msg, msglen,
             "test-heun: only ODE-form systems without zero crossings");
    return NULL;
  }
  bsim_engine *e = calloc(1, sizeof *e);
  double *mem = calloc(5 * (size_t)p->n + 1, sizeof *mem);
  if (!e || !mem) {
    free(e);
    free(mem);
    snprintf(msg, msglen, "test-heun: out of memory");
    return NULL;
  }
  e->p = *p;
  e->step = step;
  e->y = mem;
  e->f = e->y + p->n;
  e->ys = e->f + p->n;
  e->fs = e->ys + p->n;
  e->zero = e->fs + p->n;
  e->t = t0;
  e->tstop = t0;
  memcpy(e->y, y0, (size_t)p->n * sizeof *y0);
  return e;
}

static int heun_reinit(bsim_engine *e, double t0, const double *y0,
                       const double *yp0) {
  e->t = t0;
  memcpy(e->y, y0, (size_t)e->p.n * sizeof *y0);
  return 0;
}

/* An ODE has consistent values already; y' is f. */
static int heun_calc_ic(bsim_engine *e, double tout1, double *y, double *yp) {
  memcpy(e->y, y, (size_t)e->p.n * sizeof *y);
  if (rhs(e, e->t, e->y, e->f) != BSIM_CB_OK) return -1;
  memcpy(yp, e->f, (size_t)e->p.n * sizeof *yp);
  return 0;
}

static int heun_set_stop_time(bsim_engine *e, double tstop) {
  e->tstop = tstop;
  return 0;
}

/* Fixed steps, the last one shortened to land on tout: never past it, so
 * the stop time (never beyond tout) needs no care beyond saying it was
 * reached. */
static bsim_adv_status heun_advance(bsim_engine *e, double tout, double *tret,
                                    double *y, double *yp) {
  int n = e->p.n;
  while (e->t < tout) {
    int last = tout - e->t <= 1.000001 * e->step;
    double h = last ? tout - e->t : e->step;
    for (int i = 0; i < n; i++)
      e->ys[i] = e->y[i] + h * e->f[i];
    if (rhs(e, e->t + h, e->ys, e->fs) != BSIM_CB_OK) return BSIM_ADV_ERROR;
    for (int i = 0; i < n; i++)
      e->y[i] += 0.5 * h * (e->f[i] + e->fs[i]);
    e->t = last ? tout : e->t + h;
    if (rhs(e, e->t, e->y, e->f) != BSIM_CB_OK) return BSIM_ADV_ERROR;
    e->st.steps++;
  }
  *tret = e->t;
  memcpy(y, e->y, (size_t)n * sizeof *y);
  memcpy(yp, e->f, (size_t)n * sizeof *yp);
  return e->t == e->tstop ? BSIM_ADV_TSTOP : BSIM_ADV_OK;
}

/* Only the current point is known exactly; the scheduler asks for no
 * other (no zero crossings). */
static int heun_interpolate(bsim_engine *e, double t, int k, double *dky) {
  if (t != e->t || k > 1) return -1;
  memcpy(dky, k ? e->f : e->y, (size_t)e->p.n * sizeof *dky);
  return 0;
}

static int heun_roots_found(bsim_engine *e, int *dirs) {
  return 0;
}

static void heun_stats(const bsim_engine *e, bsim_engine_stats *st) {
  *st = e->st;
}

static const char *heun_last_error(const bsim_engine *e) {
  return e->msg;
}

const bsim_engine_type test_engine_heun = {
    "test-heun",
    "Heun's method with a fixed step (test plugin), for ODEs",
    heun_params,
    1,
    1,
    heun_create,
    heun_reinit,
    heun_calc_ic,
    heun_set_stop_time,
    heun_advance,
    heun_interpolate,
    heun_roots_found,
    heun_stats,
    heun_last_error,
    NULL,
    heun_free};
