/*
 * Checks GSL's engines "rk45", "rk8pd" and "msbdf" through the engine
 * interface only, as the scheduler drives them: accuracy on an oscillator
 * and a stiff problem (against IDA at a tight tolerance), zero crossings
 * located on the method's solution, exact stop times, interpolation,
 * statistics, failures and parameter checking.
 */
#include "tests/unit/engine_harness.h"

static const char *const engines[] = {"rk45", "rk8pd", "msbdf"};

/* ---- problems ----------------------------------------------------------- */

static bsim_engine *make(const char *name, bsim_problem *p, double rtol,
                         double atol, const char *const *names,
                         const char *const *values, int np, double t0,
                         const double *y0, char *msg, size_t len) {
  return make_engine(name, p, rtol, atol, names, values, np, t0, y0, NULL, msg,
                     len);
}

/* ---- tests -------------------------------------------------------------- */

static void test_registry(void) {
  for (size_t i = 0; i < sizeof engines / sizeof engines[0]; i++) {
    const bsim_engine_type *t = bsim_engine_find(engines[i]);
    CHECK(t != NULL, "%s not registered", engines[i]);
    /* msbdf has a fifth parameter, jacobian */
    int np = strcmp(engines[i], "msbdf") == 0 ? 5 : 4;
    if (t)
      CHECK(t->needs_ode == 1 && t->nparams == np,
            "%s: needs_ode %d, %d parameters", engines[i], t->needs_ode,
            t->nparams);
  }
}

/* 10 periods, outputs every 0.05: rtol 1e-8 keeps the global error of
 * these methods near 1e-7 over ~63 radians, so 1e-5 absolute is safe. */
static void test_oscillator(const char *name) {
  const bsim_engine_type *t = bsim_engine_find(name);
  bsim_problem p = {.n = 2, .id = ones, .residual = osc_res, .ode_form = 1};
  double y[2] = {1, 0}, yp[2];
  char err[512];
  bsim_engine *e =
      make(name, &p, 1e-8, 1e-10, NULL, NULL, 0, 0, y, err, sizeof err);
  CHECK(e != NULL, "%s create: %s", name, err);
  if (!e) return;
  CHECK(t->calc_ic(e, 0.05, y, yp) == 0, "%s", t->last_error(e));
  CHECK(fabs(yp[1] + W * W) < 1e-12, "%s y' at t0: %g", name, yp[1]);
  double worst = 0;
  for (int k = 1; k <= 200; k++) {
    double tout = 0.05 * k, tret = -1;
    bsim_adv_status st = t->advance(e, tout, &tret, y, yp);
    CHECK(st == BSIM_ADV_OK, "%s advance to %g: %s", name, tout,
          t->last_error(e));
    if (st != BSIM_ADV_OK) break;
    CHECK(tret == tout, "%s tret %.17g", name, tret);
    worst = fmax(worst, fabs(y[0] - cos(W * tout)));
    worst = fmax(worst, fabs(y[1] / W + sin(W * tout)));
  }
  /* msbdf is the exception: BDF damps an undamped oscillation, and at
   * rtol 1e-8 that error alone reaches ~1.1e-5 after 10 periods (measured
   * with a single output at t=10; ~1.3e-5 with outputs every 0.05), so its
   * bound is 5e-5. */
  double bound = strcmp(name, "msbdf") == 0 ? 5e-5 : 1e-5;
  CHECK(worst <= bound, "%s: worst error %.3g", name, worst);
  /* Hermite interpolation inside the last step, whose start the interface
   * does not tell: the first of 10 - 2^-k that is accepted lies inside it.
   * Third order in h (h <= 0.05 here): |error| <= h^4 W^4 / 384 ~ 2.5e-5. */
  double d[2], ti = 10;
  int k = 1;
  for (; k <= 40; k++)
    if (t->interpolate(e, ti = 10 - ldexp(1.0, -k), 0, d) == 0) break;
  CHECK(k <= 40, "%s: no interpolation inside the last step", name);
  CHECK(fabs(d[0] - cos(W * ti)) <= 5e-5, "%s interp at %.17g: %.12g vs %.12g",
        name, ti, d[0], cos(W * ti));
  CHECK(t->interpolate(e, ti, 1, d) == 0, "%s", t->last_error(e));
  CHECK(fabs(d[0] + W * sin(W * ti)) <= 1e-3 * W, "%s interp' %.12g", name,
        d[0]);
  CHECK(t->interpolate(e, 10.0, 0, d) == 0 && d[0] == y[0], "%s at tret", name);
  CHECK(t->interpolate(e, 5.0, 0, d) == -1, "%s outside the step", name);
  CHECK(strstr(t->last_error(e), "last step") != NULL, "%s", t->last_error(e));
  bsim_engine_stats s;
  t->stats(e, &s);
  CHECK(s.steps >= 200 && s.residual_evals > s.steps, "%s steps %ld evals %ld",
        name, s.steps, s.residual_evals);
  if (strcmp(name, "msbdf") == 0)
    CHECK(s.jacobian_evals > 0, "msbdf jacobian evals %ld", s.jacobian_evals);
  fprintf(stderr, "%s oscillator: worst error %.2e, %ld steps, %ld f evals\n",
          name, worst, s.steps, s.residual_evals);
  t->free(e);
}

/* Reference from IDA at rtol 1e-10, through the same interface. */
static void stiff_reference(const double *touts, int n, double *ref) {
  const bsim_engine_type *t = bsim_engine_find("ida");
  bsim_problem p = {.n = 1, .id = ones, .residual = stiff_res, .ode_form = 1};
  double y = 0, yp = 1000, tret;
  char err[512];
  bsim_engine_settings s = {1e-10, 1e-12, NULL, NULL, 0};
  bsim_engine *e = t->create(&p, &s, 0, &y, &yp, err, sizeof err);
  CHECK(e != NULL, "ida: %s", err);
  if (!e) return;
  for (int k = 0; k < n; k++) {
    CHECK(t->advance(e, touts[k], &tret, &y, &yp) == BSIM_ADV_OK, "ida: %s",
          t->last_error(e));
    ref[k] = y;
  }
  t->free(e);
}

/* msbdf at rtol 1e-8 against IDA at 1e-10, 1e-6 relative; the explicit
 * methods must agree too but need many more steps (stability, not
 * accuracy, limits them: h < ~2.8/1000 for rk45). */
static void test_stiff(void) {
  const double touts[] = {0.01, 0.1, 0.5, 1.0, 2.0};
  double ref[5] = {0};
  stiff_reference(touts, 5, ref);
  long steps[3] = {0};
  for (int m = 0; m < 3; m++) {
    const char *name = engines[m];
    const bsim_engine_type *t = bsim_engine_find(name);
    bsim_problem p = {.n = 1, .id = ones, .residual = stiff_res, .ode_form = 1};
    double y = 0, yp, tret;
    char err[512];
    bsim_engine *e =
        make(name, &p, 1e-8, 1e-10, NULL, NULL, 0, 0, &y, err, sizeof err);
    CHECK(e != NULL, "%s: %s", name, err);
    if (!e) continue;
    for (int k = 0; k < 5; k++) {
      bsim_adv_status st = t->advance(e, touts[k], &tret, &y, &yp);
      CHECK(st == BSIM_ADV_OK, "%s: %s", name, t->last_error(e));
      CHECK(fabs(y - ref[k]) <= 1e-6 * fabs(ref[k]),
            "%s stiff y(%g) = %.12g, ida %.12g", name, touts[k], y, ref[k]);
    }
    bsim_engine_stats s;
    t->stats(e, &s);
    steps[m] = s.steps;
    t->free(e);
  }
  /* The point of a BDF method: far fewer steps than the explicit ones. */
  CHECK(steps[2] * 3 < steps[0], "msbdf %ld steps vs rk45 %ld", steps[2],
        steps[0]);
  fprintf(stderr, "stiff: rk45 %ld, rk8pd %ld, msbdf %ld steps\n", steps[0],
          steps[1], steps[2]);
}

/* y' = 1 from 0, g = y - 0.5: the root is 0.5 exactly and every method is
 * exact on a linear solution, so the only error is the event tolerance
 * (default 1e-12 * max(1, |t|)) plus rounding. */
static void test_root_ramp(const char *name) {
  const bsim_engine_type *t = bsim_engine_find(name);
  bsim_problem p = {.n = 1,
                    .id = ones,
                    .ng = 1,
                    .residual = ramp_res,
                    .roots = ramp_roots,
                    .ode_form = 1};
  double y = 0, yp, tret = -1;
  char err[512];
  bsim_engine *e =
      make(name, &p, 1e-8, 1e-10, NULL, NULL, 0, 0, &y, err, sizeof err);
  CHECK(e != NULL, "%s: %s", name, err);
  if (!e) return;
  bsim_adv_status st = t->advance(e, 1.0, &tret, &y, &yp);
  CHECK(st == BSIM_ADV_ROOT, "%s status %d: %s", name, st, t->last_error(e));
  CHECK(tret >= 0.5 && tret - 0.5 <= 1e-12 + 1e-15, "%s root at %.17g", name,
        tret);
  CHECK(fabs(y - tret) <= 1e-14, "%s y at root %.17g", name, y);
  int dir = 0;
  CHECK(t->roots_found(e, &dir) == 0 && dir == 1, "%s dir %d", name, dir);
  /* Restart at the root: g only grows, no second root. */
  CHECK(t->reinit(e, tret, &y, &yp) == 0, "%s", t->last_error(e));
  CHECK(t->calc_ic(e, 1.0, &y, &yp) == 0, "%s", t->last_error(e));
  st = t->advance(e, 1.0, &tret, &y, &yp);
  CHECK(st == BSIM_ADV_OK && tret == 1.0 && fabs(y - 1) <= 1e-14,
        "%s status %d t %.17g y %.17g", name, st, tret, y);
  CHECK(t->roots_found(e, &dir) == 0 && dir == 0, "%s dir after OK %d", name,
        dir);
  bsim_engine_stats s;
  t->stats(e, &s);
  CHECK(s.root_evals > 0, "%s root evals %ld", name, s.root_evals);
  t->free(e);

  /* A looser event-tol is honoured: the root lies within it. */
  const char *pn[] = {"event-tol"}, *pv[] = {"1e-6"};
  y = 0;
  e = make(name, &p, 1e-8, 1e-10, pn, pv, 1, 0, &y, err, sizeof err);
  CHECK(e != NULL, "%s: %s", name, err);
  if (!e) return;
  st = t->advance(e, 1.0, &tret, &y, &yp);
  CHECK(st == BSIM_ADV_ROOT && tret >= 0.5 && tret - 0.5 <= 1e-6,
        "%s event-tol 1e-6: %d at %.17g", name, st, tret);
  t->free(e);
}

/* Roots of x = cos(W t), falling at 0.25 and rising at 0.75: located on
 * the method's own solution, so as accurate as the solution: an error dx
 * in x moves the root by dx / W. rk45/rk8pd (dx < 1e-7): 1e-7 in t is
 * generous; msbdf (dx up to ~1e-5, see above): 2e-6. */
static void test_root_oscillator(const char *name) {
  const bsim_engine_type *t = bsim_engine_find(name);
  double tol = strcmp(name, "msbdf") == 0 ? 2e-6 : 1e-7;
  for (int want = -1; want <= 1; want += 2) {
    int gdir = want;
    bsim_problem p = {.n = 2,
                      .id = ones,
                      .ng = 1,
                      .gdir = &gdir,
                      .residual = osc_res,
                      .roots = osc_roots,
                      .ode_form = 1};
    double y[2] = {1, 0}, yp[2], tret = -1;
    char err[512];
    bsim_engine *e =
        make(name, &p, 1e-8, 1e-10, NULL, NULL, 0, 0, y, err, sizeof err);
    CHECK(e != NULL, "%s: %s", name, err);
    if (!e) return;
    bsim_adv_status st = t->advance(e, 2.0, &tret, y, yp);
    double expect = want < 0 ? 0.25 : 0.75;
    CHECK(st == BSIM_ADV_ROOT, "%s status %d: %s", name, st, t->last_error(e));
    CHECK(fabs(tret - expect) <= tol, "%s dir %d root at %.12g", name, want,
          tret);
    CHECK(fabs(y[0]) <= 1e-9, "%s x at root %.3g", name, y[0]);
    int dir = 0;
    t->roots_found(e, &dir);
    CHECK(dir == want, "%s dir %d, wanted %d", name, dir, want);
    /* Going on without a restart finds the next crossing one period on. */
    st = t->advance(e, 2.0, &tret, y, yp);
    CHECK(st == BSIM_ADV_ROOT && fabs(tret - expect - 1) <= tol,
          "%s next root %d at %.12g", name, st, tret);
    t->free(e);
  }
}

static void test_stop_time(const char *name) {
  const bsim_engine_type *t = bsim_engine_find(name);
  bsim_problem p = {.n = 2, .id = ones, .residual = osc_res, .ode_form = 1};
  double y[2] = {1, 0}, yp[2], tret = -1;
  char err[512];
  bsim_engine *e =
      make(name, &p, 1e-8, 1e-10, NULL, NULL, 0, 0, y, err, sizeof err);
  CHECK(e != NULL, "%s: %s", name, err);
  if (!e) return;
  CHECK(t->set_stop_time(e, 0.3) == 0, "%s", t->last_error(e));
  bsim_adv_status st = t->advance(e, 1.0, &tret, y, yp);
  CHECK(st == BSIM_ADV_TSTOP && tret == 0.3, "%s status %d t %.17g", name, st,
        tret);
  CHECK(fabs(y[0] - cos(W * 0.3)) <= 1e-6, "%s x(0.3) %.12g", name, y[0]);
  /* Spent once reached: the next advance runs to tout. */
  st = t->advance(e, 0.4, &tret, y, yp);
  CHECK(st == BSIM_ADV_OK && tret == 0.4, "%s status %d t %.17g", name, st,
        tret);
  /* tout == tstop reports the stop time; a past stop time clears it. */
  CHECK(t->set_stop_time(e, 0.5) == 0, "set");
  st = t->advance(e, 0.5, &tret, y, yp);
  CHECK(st == BSIM_ADV_TSTOP && tret == 0.5, "%s status %d", name, st);
  CHECK(t->set_stop_time(e, 0.1) == 0, "clear");
  st = t->advance(e, 0.6, &tret, y, yp);
  CHECK(st == BSIM_ADV_OK && tret == 0.6, "%s status %d", name, st);
  /* Survives a reinit that starts before it. */
  CHECK(t->set_stop_time(e, 0.65) == 0, "set");
  CHECK(t->reinit(e, 0.6, y, yp) == 0, "%s", t->last_error(e));
  st = t->advance(e, 1.0, &tret, y, yp);
  CHECK(st == BSIM_ADV_TSTOP && tret == 0.65, "%s status %d t %.17g", name, st,
        tret);
  st = t->advance(e, 0.5, &tret, y, yp);
  CHECK(st == BSIM_ADV_ERROR && strstr(t->last_error(e), "back"),
        "%s backwards %d", name, st);
  t->free(e);
}

static void test_failures_and_params(const char *name) {
  const bsim_engine_type *t = bsim_engine_find(name);
  char err[512];
  double y[2] = {1, 0}, yp[2], tret;
  bsim_problem dae = {.n = 2, .id = ones, .residual = osc_res, .ode_form = 0};
  bsim_engine *e =
      make(name, &dae, 1e-6, 1e-8, NULL, NULL, 0, 0, y, err, sizeof err);
  char want[512];
  snprintf(want, sizeof want,
           "solver '%s' integrates ODEs only, but the diagram has algebraic "
           "unknowns (algebraic loops) or implicit blocks; use solver "
           "\"ida\"",
           name);
  CHECK(e == NULL && strcmp(err, want) == 0, "%s refusal: %s", name, err);

  bsim_problem p = {.n = 2, .id = ones, .residual = osc_res, .ode_form = 1};
  const char *n1[] = {"init-stp"}, *v1[] = {"0.1"};
  e = make(name, &p, 1e-6, 1e-8, n1, v1, 1, 0, y, err, sizeof err);
  CHECK(e == NULL && strstr(err, "init-stp") &&
            strstr(err, "init-step, max-step, max-steps, event-tol"),
        "%s: %s", name, err);
  const char *n2[] = {"event-tol"}, *v2[] = {"0.5"};
  e = make(name, &p, 1e-6, 1e-8, n2, v2, 1, 0, y, err, sizeof err);
  CHECK(e == NULL && strstr(err, "between 1e-15 and 0.001"), "%s: %s", name,
        err);
  const char *n3[] = {"max-step"}, *v3[] = {"-1"};
  e = make(name, &p, 1e-6, 1e-8, n3, v3, 1, 0, y, err, sizeof err);
  CHECK(e == NULL && strstr(err, "max-step must be >= 0"), "%s: %s", name, err);
  e = make(name, &p, 0, 0, NULL, NULL, 0, 0, y, err, sizeof err);
  CHECK(e == NULL && strstr(err, "rtol"), "%s: %s", name, err);

  /* max-steps bounds one advance, with the time in the message; max-step
   * is honoured (it forces >= 100 steps over one second). */
  const char *n4[] = {"max-steps", "max-step"}, *v4[] = {"50", "0.01"};
  e = make(name, &p, 1e-6, 1e-8, n4, v4, 2, 0, y, err, sizeof err);
  CHECK(e != NULL, "%s: %s", name, err);
  if (e) {
    bsim_adv_status st = t->advance(e, 1.0, &tret, y, yp);
    CHECK(st == BSIM_ADV_ERROR && strstr(t->last_error(e), "max-steps"),
          "%s status %d: %s", name, st, t->last_error(e));
    t->free(e);
  }
  /* A fatal block failure ends the run with the time and a hint. */
  bsim_problem f = {.n = 1, .id = ones, .residual = fatal_res, .ode_form = 1};
  y[0] = 1;
  e = make(name, &f, 1e-6, 1e-8, NULL, NULL, 0, 0, y, err, sizeof err);
  CHECK(e != NULL, "%s: %s", name, err);
  if (e) {
    bsim_adv_status st = t->advance(e, 1.0, &tret, y, yp);
    const char *m = t->last_error(e);
    CHECK(st == BSIM_ADV_ERROR && strstr(m, "fatal") && strstr(m, "hint") &&
              strstr(m, "t=0.") && tret <= 0.7,
          "%s status %d t %g: %s", name, st, tret, m);
    t->free(e);
  }
}

int main(void) {
  test_registry();
  for (size_t i = 0; i < sizeof engines / sizeof engines[0]; i++) {
    test_oscillator(engines[i]);
    test_root_ramp(engines[i]);
    test_root_oscillator(engines[i]);
    test_stop_time(engines[i]);
    test_failures_and_params(engines[i]);
  }
  test_stiff();
  if (failures) {
    fprintf(stderr, "test_engine_gsl: %d check(s) failed\n", failures);
    return 1;
  }
  return 0;
}
