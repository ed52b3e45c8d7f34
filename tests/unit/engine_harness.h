/*
 * Shared by the engine tests (test_engine_ida.c, test_engine_cvode.c,
 * test_engine_gsl.c, test_engine_fixed.c): the small problems with known
 * solutions that several of them integrate, and one way to create an
 * engine by name through the interface the scheduler uses. Static inline
 * functions in a header, so that each test stays one translation unit and
 * need not use all of them.
 */
#ifndef BSIM_TEST_ENGINE_HARNESS_H
#define BSIM_TEST_ENGINE_HARNESS_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "solvers/engine.h"
#include "tests/unit/test_check.h"

static const double W = 2 * 3.14159265358979323846; /* one period per second */
static const double ones[3] = {1, 1, 1};

/* x'' = -W^2 x as y = (x, v): F = (x' - v, v' + W^2 x). */
static inline int osc_res(double t, const double *y, const double *yp,
                          double *r, void *u) {
  r[0] = yp[0] - y[1];
  r[1] = yp[1] + W * W * y[0];
  return BSIM_CB_OK;
}

static inline int osc_roots(double t, const double *y, const double *yp,
                            double *g, void *u) {
  g[0] = y[0];
  return BSIM_CB_OK;
}

/* Stiff: y' = -1000 (y - cos t). */
static inline int stiff_res(double t, const double *y, const double *yp,
                            double *r, void *u) {
  r[0] = yp[0] + 1000.0 * (y[0] - cos(t));
  return BSIM_CB_OK;
}

static inline int ramp_res(double t, const double *y, const double *yp,
                           double *r, void *u) {
  r[0] = yp[0] - 1.0;
  return BSIM_CB_OK;
}

static inline int ramp_roots(double t, const double *y, const double *yp,
                             double *g, void *u) {
  g[0] = y[0] - 0.5;
  return BSIM_CB_OK;
}

/* y' = -y, fatal once t passes 0.7. */
static inline int fatal_res(double t, const double *y, const double *yp,
                            double *r, void *u) {
  r[0] = yp[0] + y[0];
  return t > 0.7 ? BSIM_CB_FATAL : BSIM_CB_OK;
}

/* Creates engine NAME with the given tolerances and parameters; NULL with
 * the reason in msg (empty when the engine is not registered). */
static inline bsim_engine *
make_engine(const char *name, bsim_problem *p, double rtol, double atol,
            const char *const *names, const char *const *values, int np,
            double t0, const double *y0, const double *yp0, char *msg,
            size_t len) {
  const bsim_engine_type *t = bsim_engine_find(name);
  bsim_engine_settings s = {rtol, atol, names, values, np};
  msg[0] = '\0';
  return t ? t->create(p, &s, t0, y0, yp0, msg, len) : NULL;
}

#endif
