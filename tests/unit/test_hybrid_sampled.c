/*
 * End-to-end tests of clocked (sampled-data) diagrams: a discrete PI loop
 * around a continuous plant against its exact discretisation, and the
 * scheduler's choice between hot continuation, carrying the history and
 * cold restart: a scope on a fast clock must not disturb the integrator at
 * all, and a held input must stop it exactly at the ticks where the held
 * value changes.
 */
#include "test_hybrid_common.h"

/* 2. Sampled PI: T = 0.1, plant 1/(tau s + 1) with tau = 0.5, PI
 * C(z) = ((Kp + Ki T) z - Kp)/(z - 1) with Kp = 2, Ki = 3, r = 1. With
 * the input held over each period the plant is exactly
 * y_{k+1} = a y_k + (1 - a) u_k, a = e^(-T/tau), and the PI is
 * u_k = u_{k-1} + Kp (e_k - e_{k-1}) + Ki T e_k, e_k = r - y_k (zero
 * initial state). Each period is integrated with rtol 1e-11, atol 1e-13,
 * the history carried across each tick; the closed loop is stable (poles inside
 * the unit circle), so 30 periods accumulate at most a few 1e-10: 1e-8
 * leaves room while a tick applied a period late, or a controller that
 * reads the plant after its own update, is off by 1e-2 or more. */
static void test_sampled_pi(void) {
  bsim_diagram *d;
  bsim_sim *s = hy_run("sampled_pi.xml", NULL, &d);
  if (s) {
    const double T = 0.1, tau = 0.5, Kp = 2, Ki = 3, r = 1;
    const double a = exp(-T / tau);
    enum { N = 31 };
    double y[N + 1], u[N];
    double e_prev = 0.0, u_prev = 0.0;
    y[0] = 0.0;
    for (int k = 0; k < N; k++) {
      double e = r - y[k];
      u[k] = u_prev + Kp * (e - e_prev) + Ki * T * e;
      y[k + 1] = a * y[k] + (1 - a) * u[k];
      e_prev = e;
      u_prev = u[k];
    }
    size_t rows;
    int cols;
    const double *rec = hy_record(s, "log", &rows, &cols);
    /* ticks at 0, 0.1, ..., 2.9, and the one at 3.0 if the clock's sum
     * of periods lands before the final time (one due at it is not
     * served) */
    E2E_CHECK(rec && (rows == N || rows == N - 1) && cols == 2,
              "sampled_pi: scope has %zu rows x %d, want %d or %d x 2", rows,
              cols, N - 1, N);
    double worst = 0.0;
    for (size_t k = 0; rec && k < rows && k < N; k++) {
      double t = hy_rec(rec, cols, k, 0);
      double yk = hy_rec(rec, cols, k, 1), uk = hy_rec(rec, cols, k, 2);
      /* tick times are sums of periods: a few ulps */
      E2E_CHECK(fabs(t - (double)k * T) <= 1e-12, "tick %zu at %.17g", k, t);
      E2E_CHECK(fabs(yk - y[k]) <= 1e-8 && fabs(uk - u[k]) <= 1e-8,
                "sampled_pi k=%zu: y %.17g u %.17g, want %.17g %.17g", k, yk,
                uk, y[k], u[k]);
      worst = fmax(worst, fmax(fabs(yk - y[k]), fabs(uk - u[k])));
    }
    fprintf(stderr, "  sampled_pi: max |y_k, u_k - exact| = %.3g\n", worst);

    /* The observed columns on the 0.01 grid: y at every tick time, and
     * the held u in the middle of each period (the value at a tick itself
     * is the left limit, which rounding of the tick time could put on
     * either side). Same tolerance. */
    long cy = e2e_col(s, "y"), cu = e2e_col(s, "u");
    const double *t = bsim_result_times(s);
    for (size_t i = 0; cy >= 0 && cu >= 0 && i < bsim_result_rows(s); i++) {
      long k = lround(t[i] / T);
      double frac = t[i] / T - floor(t[i] / T + 1e-9);
      if (fabs(t[i] - (double)k * T) < 1e-9 && k <= N) {
        E2E_CHECK(fabs(e2e_value(s, i, cy) - y[k]) <= 1e-8,
                  "sampled_pi: y(%.3g) = %.17g, want %.17g", t[i],
                  e2e_value(s, i, cy), y[k]);
      } else if (fabs(frac - 0.5) < 1e-6) {
        long kk = (long)floor(t[i] / T);
        E2E_CHECK(kk < N && fabs(e2e_value(s, i, cu) - u[kk]) <= 1e-8,
                  "sampled_pi: u(%.3g) = %.17g, want held u_%ld = %.17g", t[i],
                  e2e_value(s, i, cu), kk, kk < N ? u[kk] : NAN);
      }
    }
    /* Every tick changes the held u, which the plant sees; the plant is
     * linear, so each tick but the one at t = 0 (served before the start,
     * the one cold restart) is carried across without a restart; the
     * tick due at the final time is not served (as in Xcos). Nothing is
     * hot. */
    hy_print_stats(s, "sampled_pi");
    double ev = hy_stat(s, "events");
    E2E_CHECK(ev == (double)rows, "sampled_pi: %g events for %zu ticks", ev,
              rows);
    E2E_CHECK(hy_stat(s, "cold-restarts") == 1 &&
                  hy_stat(s, "carried") == ev - 1,
              "sampled_pi: %g cold restarts and %g carried, want 1 and %g "
              "(ticks in (0, tf))",
              hy_stat(s, "cold-restarts"), hy_stat(s, "carried"), ev - 1);
    E2E_CHECK(hy_stat(s, "downgrades") == 0 && hy_stat(s, "hot-continues") == 0,
              "sampled_pi: %g downgrades, %g hot continues, want 0 and 0",
              hy_stat(s, "downgrades"), hy_stat(s, "hot-continues"));
    bsim_sim_free(s);
  }
  if (d) bsim_diagram_free(d);
}

static double decay(double t, const void *arg) {
  (void)arg;
  return exp(-t);
}

/* 4a. A scope on a 1 ms clock (ticks at 0.5 ms + k ms, 1000 of them in
 * [0, 1]) watching x' = -x. The tree of its clock reaches no continuous
 * block, so every tick is served hot from interpolation: one cold
 * restart (the start) and the same integration as without the scope.
 * "Within 2 steps" rather than equal: serving a tick may clip the
 * engine's output time, which IDA is free to treat differently; a solver
 * stopped at each tick would take >= 1000 steps. Scope rows vs e^-t:
 * IDA's interpolant at rtol 1e-8 is good to a few 1e-8 here; 1e-6
 * relative is the bound used for this system in test_e2e_linear. */
static void test_hot_scope(void) {
  bsim_diagram *d1, *d2;
  bsim_sim *s = hy_run("hot_scope.xml", NULL, &d1);
  bsim_sim *p = hy_run("hot_plain.xml", NULL, &d2);
  if (s && p) {
    hy_print_stats(s, "hot_scope");
    hy_print_stats(p, "hot_plain");
    double steps = hy_stat(s, "steps"), ref = hy_stat(p, "steps");
    E2E_CHECK(fabs(steps - ref) <= 2, "hot_scope: %g steps, %g without scope",
              steps, ref);
    E2E_CHECK(hy_stat(s, "cold-restarts") == 1,
              "hot_scope: %g cold restarts, want 1 (the start)",
              hy_stat(s, "cold-restarts"));
    E2E_CHECK(hy_stat(s, "events") == 1000, "hot_scope: %g events, want 1000",
              hy_stat(s, "events"));
    E2E_CHECK(hy_stat(s, "hot-continues") == 1000,
              "hot_scope: %g hot continues, want 1000",
              hy_stat(s, "hot-continues"));
    E2E_CHECK(hy_stat(s, "downgrades") == 0, "hot_scope: %g downgrades",
              hy_stat(s, "downgrades"));
    size_t rows;
    int cols;
    const double *rec = hy_record(s, "scope", &rows, &cols);
    E2E_CHECK(rec && rows == 1000 && cols == 1,
              "hot_scope: scope has %zu rows x %d, want 1000 x 1", rows, cols);
    double worst = 0.0;
    for (size_t k = 0; rec && k < rows; k++) {
      double t = hy_rec(rec, cols, k, 0), x = hy_rec(rec, cols, k, 1);
      double want_t = 0.0005 + 0.001 * (double)k;
      /* tick times accumulate one rounding per period: 1e-12 */
      E2E_CHECK(fabs(t - want_t) <= 1e-12, "hot_scope: row %zu at %.17g", k, t);
      worst = fmax(worst, fabs(x - exp(-t)) / exp(-t));
      if (fabs(t - want_t) > 1e-12) break;
    }
    E2E_CHECK(worst <= 1e-6, "hot_scope: scope rows off e^-t by %.3g", worst);
    fprintf(stderr, "  hot_scope: scope rows max rel err %.3g\n", worst);
    e2e_compare(s, "x", decay, NULL, 1e-6, 0.0, "hot_scope x");
  }
  if (s) bsim_sim_free(s);
  if (p) bsim_sim_free(p);
  if (d1) bsim_diagram_free(d1);
  if (d2) bsim_diagram_free(d2);
}

/* Plant output for the staircase: unit steps of u at 0.25, 0.45, 0.65,
 * 0.85 into 1/(s + 1). */
static double stairs_y(double t, const void *arg) {
  (void)arg;
  double y = 0.0;
  for (int j = 0; j < 4; j++) {
    double s = 0.25 + 0.2 * j;
    if (t > s) y += 1.0 - exp(-(t - s));
  }
  return y;
}

/* 4b. Ten ticks (0.05 .. 0.95); the held value 0,0,1,1,2,2,3,3,4,4
 * changes at ticks 3, 5, 7, 9: exactly 4 carried across (the plant is
 * linear), no cold restart besides the start, and 6 downgrades (the ticks
 * where it does not change). The clock's tree reaches the plant, so no
 * tick is hot. The plant output against its closed form: 1e-6 (rtol 1e-8,
 * the bound of test 4a). */
static void test_staircase(void) {
  bsim_diagram *d;
  bsim_sim *s = hy_run("staircase.xml", NULL, &d);
  if (s) {
    hy_print_stats(s, "staircase");
    E2E_CHECK(hy_stat(s, "events") == 10, "staircase: %g events, want 10",
              hy_stat(s, "events"));
    E2E_CHECK(hy_stat(s, "cold-restarts") == 1 && hy_stat(s, "carried") == 4,
              "staircase: %g cold restarts and %g carried, want 1 (the "
              "start) and 4 (the changes)",
              hy_stat(s, "cold-restarts"), hy_stat(s, "carried"));
    E2E_CHECK(hy_stat(s, "downgrades") == 6, "staircase: %g downgrades, want 6",
              hy_stat(s, "downgrades"));
    E2E_CHECK(hy_stat(s, "hot-continues") == 0,
              "staircase: %g hot continues, want 0",
              hy_stat(s, "hot-continues"));
    e2e_compare(s, "y", stairs_y, NULL, 0.0, 1e-6, "staircase y");
    bsim_sim_free(s);
  }
  if (d) bsim_diagram_free(d);
}

int main(void) {
  test_sampled_pi();
  test_hot_scope();
  test_staircase();
  return e2e_finish("test_hybrid_sampled");
}
