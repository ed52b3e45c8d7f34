/*
 * Checks the fixed-step engines "rk4" and "euler" through the engine
 * interface: their known error on an oscillator (rk4 to its O(h^4) scale,
 * Euler to the exact growth of its amplitude), the deterministic grid,
 * zero crossings, exact stop times, failures and parameter checking.
 */
#include "tests/unit/engine_harness.h"

static int decay_res(double t, const double *y, const double *yp, double *r,
                     void *u) {
  r[0] = yp[0] + y[0];
  return BSIM_CB_OK;
}

static int nan_res(double t, const double *y, const double *yp, double *r,
                   void *u) {
  r[0] = yp[0] + (t > 0.25 ? NAN : y[0]);
  return BSIM_CB_OK;
}

static bsim_engine *make(const char *name, bsim_problem *p, const char *step,
                         double t0, const double *y0, char *msg, size_t len) {
  const char *names[] = {"step"}, *values[] = {step};
  return make_engine(name, p, 1e-6, 1e-8, names, values, step ? 1 : 0, t0, y0,
                     NULL, msg, len);
}

/* Runs the oscillator over 10 periods with outputs every 0.1; returns the
 * worst deviation from (cos, -sin) and the amplitude at t = 10. */
static double oscillate(const char *name, const char *step, double *amp,
                        long *steps) {
  const bsim_engine_type *t = bsim_engine_find(name);
  bsim_problem p = {.n = 2, .id = ones, .residual = osc_res, .ode_form = 1};
  double y[2] = {1, 0}, yp[2], tret, worst = 0;
  char err[512];
  bsim_engine *e = make(name, &p, step, 0, y, err, sizeof err);
  CHECK(e != NULL, "%s: %s", name, err);
  if (!e) return INFINITY;
  for (int k = 1; k <= 100; k++) {
    double tout = 0.1 * k;
    bsim_adv_status st = t->advance(e, tout, &tret, y, yp);
    CHECK(st == BSIM_ADV_OK && tret == tout, "%s %d t %.17g: %s", name, st,
          tret, t->last_error(e));
    worst = fmax(worst, fabs(y[0] - cos(W * tout)));
    worst = fmax(worst, fabs(y[1] / W + sin(W * tout)));
  }
  *amp = hypot(y[0], y[1] / W);
  bsim_engine_stats s;
  t->stats(e, &s);
  *steps = s.steps;
  t->free(e);
  return worst;
}

static void test_oscillator(void) {
  double amp;
  long steps;
  /* rk4, h = 1e-3, z = W h = 6.3e-3: per step the phase error is z^5/120
   * and the amplitude loss z^6/144, so after 1e4 steps the error is
   * ~1e4 * 8e-14 = 8e-10; 1e-6 leaves a wide margin. */
  double e4 = oscillate("rk4", "1e-3", &amp, &steps);
  CHECK(e4 <= 1e-6, "rk4 worst %.3g", e4);
  /* The grid t = k h lands on every output: exactly 1e4 steps. */
  CHECK(steps == 10000, "rk4 steps %ld", steps);
  fprintf(stderr, "rk4 oscillator: worst error %.2e\n", e4);

  /* Euler, h = 1e-4: each step multiplies the amplitude by exactly
   * sqrt(1 + z^2), z = W h, so after n = 1e5 steps it is
   * (1 + z^2)^(n/2) = 1.0199 (rounding: ~n eps = 1e-11 relative). The
   * phase lags by n (z - atan z) ~ n z^3 / 3 = 8.3e-3 rad. So the error
   * against (cos, -sin) is at most 0.0199 + 0.0083 < 0.03. */
  double z = W * 1e-4, grow = pow(1 + z * z, 0.5 * 1e5);
  double e1 = oscillate("euler", "1e-4", &amp, &steps);
  CHECK(fabs(amp - grow) <= 1e-9 * grow, "euler amplitude %.15g vs %.15g", amp,
        grow);
  CHECK(e1 <= 0.03 && e1 >= 0.01, "euler worst %.3g", e1);
  CHECK(steps == 100000, "euler steps %ld", steps);
  fprintf(stderr, "euler oscillator: worst error %.2e, amplitude %.6f\n", e1,
          amp);
}

/* Outputs off the grid shorten one step; the next step returns to the
 * grid. Euler on y' = -y with h = 0.25 and outputs at 0.375 and 0.75:
 * steps 0.25, 0.125 | 0.125, 0.25, so y is a product of (1 - h_i). */
static void test_grid(void) {
  const bsim_engine_type *t = bsim_engine_find("euler");
  bsim_problem p = {.n = 1, .id = ones, .residual = decay_res, .ode_form = 1};
  double y = 1, yp, tret;
  char err[512];
  bsim_engine *e = make("euler", &p, "0.25", 0, &y, err, sizeof err);
  CHECK(e != NULL, "%s", err);
  if (!e) return;
  CHECK(t->advance(e, 0.375, &tret, &y, &yp) == BSIM_ADV_OK && tret == 0.375,
        "t %.17g", tret);
  CHECK(y == 0.75 * 0.875, "y(0.375) %.17g", y);
  CHECK(yp == -y, "y' %.17g", yp);
  CHECK(t->advance(e, 0.75, &tret, &y, &yp) == BSIM_ADV_OK && tret == 0.75,
        "t %.17g", tret);
  /* All factors are exact binary fractions: equality is exact. */
  CHECK(y == 0.75 * 0.875 * 0.875 * 0.75, "y(0.75) %.17g", y);
  bsim_engine_stats s;
  t->stats(e, &s);
  CHECK(s.steps == 4, "steps %ld", s.steps);
  /* A restart moves the grid origin: from 0.8, steps end at 1.05, 1.3. */
  CHECK(t->reinit(e, 0.8, &y, &yp) == 0, "%s", t->last_error(e));
  double y0 = y;
  CHECK(t->advance(e, 1.3, &tret, &y, &yp) == BSIM_ADV_OK, "%s",
        t->last_error(e));
  CHECK(fabs(y - y0 * 0.75 * 0.75) <= 1e-15, "y(1.3) %.17g", y); /* h rounds */
  t->stats(e, &s);
  CHECK(s.steps == 6, "steps %ld", s.steps);
  t->free(e);
}

/* y' = 1, g = y - 0.5 with step 0.003 (0.5 is off the grid): both methods
 * are exact on a line, so the root is found to the event tolerance,
 * by default 1e-12 * max(1, |t|), plus rounding. */
static void test_roots(const char *name) {
  const bsim_engine_type *t = bsim_engine_find(name);
  bsim_problem p = {.n = 1,
                    .id = ones,
                    .ng = 1,
                    .residual = ramp_res,
                    .roots = ramp_roots,
                    .ode_form = 1};
  double y = 0, yp, tret;
  char err[512];
  bsim_engine *e = make(name, &p, "0.003", 0, &y, err, sizeof err);
  CHECK(e != NULL, "%s", err);
  if (!e) return;
  bsim_adv_status st = t->advance(e, 1.0, &tret, &y, &yp);
  CHECK(st == BSIM_ADV_ROOT, "%s status %d: %s", name, st, t->last_error(e));
  CHECK(tret >= 0.5 && tret - 0.5 <= 1e-12 + 1e-15, "%s root at %.17g", name,
        tret);
  int dir = 0;
  CHECK(t->roots_found(e, &dir) == 0 && dir == 1, "%s dir %d", name, dir);
  st = t->advance(e, 1.0, &tret, &y, &yp);
  CHECK(st == BSIM_ADV_OK && tret == 1.0 && fabs(y - 1) <= 1e-13,
        "%s status %d y %.17g", name, st, y);
  t->free(e);

  /* The oscillator's falling crossing at 0.25, rk4 only (Euler's phase
   * error would dominate): rk4's error ~1e-10 moves the root by < 1e-10,
   * so 1e-8 is a safe bound. */
  if (strcmp(name, "rk4") != 0) return;
  bsim_problem q = {.n = 2,
                    .id = ones,
                    .ng = 1,
                    .residual = osc_res,
                    .roots = osc_roots,
                    .ode_form = 1};
  double x[2] = {1, 0}, xp[2];
  e = make(name, &q, "1e-3", 0, x, err, sizeof err);
  CHECK(e != NULL, "%s", err);
  if (!e) return;
  st = t->advance(e, 1.0, &tret, x, xp);
  CHECK(st == BSIM_ADV_ROOT && fabs(tret - 0.25) <= 1e-8, "rk4 %d root %.17g",
        st, tret);
  t->roots_found(e, &dir);
  CHECK(dir == -1, "rk4 dir %d", dir);
  t->free(e);
}

static void test_stop_time(const char *name) {
  const bsim_engine_type *t = bsim_engine_find(name);
  bsim_problem p = {.n = 1, .id = ones, .residual = decay_res, .ode_form = 1};
  double y = 1, yp, tret;
  char err[512];
  bsim_engine *e = make(name, &p, "0.1", 0, &y, err, sizeof err);
  CHECK(e != NULL, "%s", err);
  if (!e) return;
  CHECK(t->set_stop_time(e, 0.33) == 0, "set");
  bsim_adv_status st = t->advance(e, 1.0, &tret, &y, &yp);
  CHECK(st == BSIM_ADV_TSTOP && tret == 0.33, "%s %d t %.17g", name, st, tret);
  st = t->advance(e, 0.5, &tret, &y, &yp);
  CHECK(st == BSIM_ADV_OK && tret == 0.5, "%s %d t %.17g", name, st, tret);
  CHECK(t->set_stop_time(e, 0.7) == 0, "set");
  st = t->advance(e, 0.7, &tret, &y, &yp);
  CHECK(st == BSIM_ADV_TSTOP && tret == 0.7, "%s tout == tstop %d", name, st);
  t->free(e);
}

static void test_failures_and_params(const char *name) {
  const bsim_engine_type *t = bsim_engine_find(name);
  bsim_problem p = {.n = 1, .id = ones, .residual = decay_res, .ode_form = 1};
  double y = 1, yp, tret;
  char err[512], want[512];
  bsim_engine *e = make(name, &p, "0", 0, &y, err, sizeof err);
  CHECK(e == NULL && strstr(err, "step must be > 0, not 0"), "%s: %s", name,
        err);
  e = make(name, &p, "-1e-3", 0, &y, err, sizeof err);
  CHECK(e == NULL && strstr(err, "step must be > 0"), "%s: %s", name, err);
  e = make(name, &p, "fast", 0, &y, err, sizeof err);
  CHECK(e == NULL && strstr(err, "real number"), "%s: %s", name, err);
  const char *n1[] = {"stepsize"}, *v1[] = {"1"};
  bsim_engine_settings s = {1e-6, 1e-8, n1, v1, 1};
  e = t->create(&p, &s, 0, &y, NULL, err, sizeof err);
  CHECK(e == NULL && strstr(err, "valid parameters: step, max-steps, "
                                 "event-tol"),
        "%s: %s", name, err);
  /* No parameter at all: the default step 1e-3 (exp(-1) to Euler's
   * O(h) = 1e-3 * e^-1 / 2 ~ 2e-4). */
  s.nparams = 0;
  e = t->create(&p, &s, 0, &y, NULL, err, sizeof err);
  CHECK(e != NULL, "%s: %s", name, err);
  if (e) {
    CHECK(t->advance(e, 1.0, &tret, &y, &yp) == BSIM_ADV_OK, "%s",
          t->last_error(e));
    CHECK(fabs(y - exp(-1.0)) <= 2.5e-4, "%s y(1) %.12g", name, y);
    bsim_engine_stats st;
    t->stats(e, &st);
    CHECK(st.steps == 1000, "%s default step: %ld steps", name, st.steps);
    t->free(e);
  }
  bsim_problem dae = p;
  dae.ode_form = 0;
  y = 1;
  e = make(name, &dae, "0.1", 0, &y, err, sizeof err);
  snprintf(want, sizeof want,
           "solver '%s' integrates ODEs only, but the diagram has algebraic "
           "unknowns (algebraic loops) or implicit blocks; use solver "
           "\"ida\"",
           name);
  CHECK(e == NULL && strcmp(err, want) == 0, "%s: %s", name, err);
  /* NaN from the equations: no smaller step to retry with. */
  bsim_problem bad = {.n = 1, .id = ones, .residual = nan_res, .ode_form = 1};
  y = 1;
  e = make(name, &bad, "0.1", 0, &y, err, sizeof err);
  CHECK(e != NULL, "%s", err);
  if (e) {
    bsim_adv_status st = t->advance(e, 1.0, &tret, &y, &yp);
    CHECK(st == BSIM_ADV_ERROR && strstr(t->last_error(e), "fixed-step") &&
              strstr(t->last_error(e), "hint"),
          "%s %d: %s", name, st, t->last_error(e));
    t->free(e);
  }
}

int main(void) {
  test_oscillator();
  test_grid();
  const char *names[] = {"rk4", "euler"};
  for (int i = 0; i < 2; i++) {
    CHECK(bsim_engine_find(names[i]) &&
              bsim_engine_find(names[i])->needs_ode == 1,
          "%s registered", names[i]);
    test_roots(names[i]);
    test_stop_time(names[i]);
    test_failures_and_params(names[i]);
  }
  if (failures) {
    fprintf(stderr, "test_engine_fixed: %d check(s) failed\n", failures);
    return 1;
  }
  return 0;
}
