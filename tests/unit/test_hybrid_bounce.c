/*
 * End-to-end tests of zero crossings that jump a state: the bouncing ball
 * (bounce times and energy against the analytic sequence, and the exact
 * counts of roots, cold restarts and downgrades the scheduler reports),
 * and the chattering guard on two deliberately Zeno diagrams, which must
 * stop quickly with status 1 and a message naming the time and the block.
 */
#include "test_hybrid_common.h"

/* 1. Bouncing ball, g = 9.81, e = 0.8, h0 = 10, v0 = 0, run to t = 11.5:
 * exactly 10 bounces (the 10th at 11.3175, the 11th would be at 11.6241).
 * Between bounces h is a parabola, which IDA's BDF integrates exactly once
 * its order reaches 2, and the root is located to ~100 ulp of t; what is
 * left is the start-up error of each cold restart (order 1 for a few tiny
 * steps, held to rtol = 1e-10). 1e-6 on the times is therefore a wide
 * margin (we see ~1e-13) while a bounce missed or taken at the wrong
 * height would be off by 0.1 s or more.
 * Run by ida and by cvode-bdf, which carry their history across the
 * bounces (CVODE where the build lets it, solvers/cvode_carry.c): the
 * reset of v is a jump of a linear part's state at a root, the same
 * bounce times and energies. */
static void test_bounce(const char *solver, int carries) {
  bsim_diagram *d = hy_load("bounce.xml");
  if (!d) return;
  bsim_options o;
  bsim_options_init(&o);
  o.solver = solver;
  fprintf(stderr, "  %s:\n", solver);
  bsim_sim *s = e2e_run_diagram(d, &o, "bounce");
  if (s) {
    const double g = 9.81, e = 0.8, h0 = 10.0;
    const double v1 = sqrt(2 * g * h0);
    enum { BOUNCES = 10 };
    double want[BOUNCES];
    want[0] = sqrt(2 * h0 / g);
    for (int k = 1; k < BOUNCES; k++)
      want[k] = want[k - 1] + 2 * pow(e, k) * v1 / g;

    /* The scope activated by the crossing event records each bounce. */
    size_t rows;
    int cols;
    const double *rec = hy_record(s, "log", &rows, &cols);
    E2E_CHECK(rec != NULL, "bounce: the scope 'log' recorded nothing");
    E2E_CHECK(rows == BOUNCES && cols == 1,
              "bounce: scope has %zu rows x %d values, want %d x 1", rows, cols,
              BOUNCES);
    double worst = 0.0;
    for (size_t k = 0; rec && k < rows && k < BOUNCES; k++) {
      double t = hy_rec(rec, cols, k, 0), hk = hy_rec(rec, cols, k, 1);
      worst = fmax(worst, fabs(t - want[k]));
      E2E_CHECK(fabs(t - want[k]) <= 1e-6, "bounce %zu at t=%.17g, want %.17g",
                k + 1, t, want[k]);
      /* h at the root is 0 up to the root-finding tolerance on a slope of
       * at most v1 = 14 m/s: 1e-9 is generous. */
      E2E_CHECK(fabs(hk) <= 1e-9, "bounce %zu: h = %.3g at the root", k + 1,
                hk);
    }
    fprintf(stderr, "  bounce times: max |t - exact| = %.3g\n", worst);

    /* Energy per unit mass E = g h + v^2/2 is constant in flight and
     * multiplied by e^2 at each bounce. Taking E at the middle sample of
     * each flight (no bounce nearby) and the ratio of successive flights:
     * 1e-6 relative again (integration error of order rtol per flight). */
    long ch = e2e_col(s, "h"), cv = e2e_col(s, "v");
    const double *tt = bsim_result_times(s);
    size_t n = bsim_result_rows(s);
    double prev_e = g * h0;
    for (int k = 0; ch >= 0 && cv >= 0 && k + 1 < BOUNCES; k++) {
      double mid = 0.5 * (want[k] + want[k + 1]);
      size_t r = 0;
      while (r + 1 < n && tt[r] < mid)
        r++;
      double h = e2e_value(s, r, ch), v = e2e_value(s, r, cv);
      double en = g * h + 0.5 * v * v;
      double ratio = en / prev_e;
      E2E_CHECK(fabs(ratio - e * e) <= 1e-6,
                "flight %d (t=%.4g): energy ratio %.12g, want e^2 = %.12g",
                k + 1, tt[r], ratio, e * e);
      prev_e = en;
    }

    /* Counts. Each bounce is one POSTONEG_f event that jumps v: one root
     * and one cold restart each (or one carried event), plus the cold
     * start. Right after a
     * bounce h sits on the far side of 0 by ~1e-13 (IDA returns the
     * bracketing point past the root) and crosses back upwards a moment
     * later: that root fires no event (POSTONEG_f ignores rising
     * crossings) and changes nothing, so it must be downgraded to a hot
     * continuation, never restart the solver. Whether such a re-crossing
     * is reported at all may change; the identity roots = bounces +
     * downgrades may not. */
    double roots = hy_stat(s, "roots"), cold = hy_stat(s, "cold-restarts");
    double events = hy_stat(s, "events"), down = hy_stat(s, "downgrades");
    hy_print_stats(s, "bounce");
    E2E_CHECK(events == BOUNCES, "bounce: %g events, want %d", events, BOUNCES);
    /* Carrying, a bounce whose root leaves h exactly 0 (the surface cannot
     * be classified without a step) restarts instead: 2 of the 10 here */
    double carried = hy_stat(s, "carried");
    E2E_CHECK(cold + carried == BOUNCES + 1 &&
                  (carries ? carried >= BOUNCES / 2 : carried == 0),
              "bounce: %g cold restarts and %g carried, want %d in all, %s",
              cold, carried, BOUNCES + 1,
              carries ? "most carried" : "none carried");
    E2E_CHECK(roots >= BOUNCES && roots <= 2 * BOUNCES,
              "bounce: %g roots, want %d..%d", roots, BOUNCES, 2 * BOUNCES);
    E2E_CHECK(roots == BOUNCES + down,
              "bounce: %g roots but %g downgrades: every root that is not a "
              "bounce should be downgraded",
              roots, down);
    E2E_CHECK(hy_stat(s, "hot-continues") == 0,
              "bounce: no hot (non-critical) event exists in this diagram");
    bsim_sim_free(s);
  }
  bsim_diagram_free(d);
}

/* Runs a diagram expected to chatter: status 1, a message naming the
 * block and the time, within a wall-time bound. */
static void expect_chatter(const char *file, long max_restarts,
                           const char *block, const char *want_text) {
  bsim_diagram *d = hy_load(file);
  if (!d) return;
  bsim_options o;
  bsim_options_init(&o);
  if (max_restarts > 0) o.max_fast_restarts = max_restarts;
  bsim_error err;
  bsim_error_clear(&err);
  double t0 = hy_now();
  bsim_sim *s = bsim_sim_create(d, &o, &err);
  E2E_CHECK(s != NULL, "%s: sim_create: %s", file, err.message);
  int rc = s ? bsim_sim_run(s, &err) : 0;
  double wall = hy_now() - t0;
  char quoted[64];
  snprintf(quoted, sizeof quoted, "'%s'", block);
  fprintf(stderr, "  %s: %.3g s: %s\n", file, wall, err.message);
  if (s) {
    E2E_CHECK(rc != 0 && err.status == BSIM_ERR_SIM,
              "%s: run returned %d status %d, want failure with status 1", file,
              rc, (int)err.status);
    E2E_CHECK(strstr(err.message, want_text) != NULL,
              "%s: message lacks '%s': %s", file, want_text, err.message);
    E2E_CHECK(strstr(err.message, quoted) != NULL,
              "%s: message does not name block %s: %s", file, quoted,
              err.message);
    /* The Zeno point is t = 1 in both diagrams. */
    E2E_CHECK(strstr(err.message, "t=1") != NULL ||
                  strstr(err.message, "t=0.99") != NULL,
              "%s: message does not give the time (t=1): %s", file,
              err.message);
    if (max_restarts > 0) {
      char count[64];
      snprintf(count, sizeof count, "%ld cold restarts", max_restarts);
      E2E_CHECK(strstr(err.message, count) != NULL,
                "%s: --max-restarts %ld not honoured: %s", file, max_restarts,
                err.message);
      E2E_CHECK(hy_stat(s, "cold-restarts") <= max_restarts + 2,
                "%s: %g cold restarts with a bound of %ld", file,
                hy_stat(s, "cold-restarts"), max_restarts);
    }
    bsim_sim_free(s);
  }
  /* A bound, not a benchmark: a guard that works stops after ~100 cheap
   * restarts (milliseconds); one that does not runs for a very long time. */
  E2E_CHECK(wall < 1.0, "%s: took %.3g s to stop, want < 1 s", file, wall);
  bsim_diagram_free(d);
}

/* 6. Chattering: a jump that re-arms its own crossing at once, and a relay
 * without hysteresis (sliding mode). Both must be stopped by a guard. */
static void test_chattering(void) {
  expect_chatter("zeno_jump.xml", 0, "up", "chatters");
  expect_chatter("zeno_jump.xml", 10, "up", "chatters");
  expect_chatter("zeno_relay.xml", 0, "s", "chatters");
}

int main(void) {
  const char *engines[] = {"ida", "cvode-bdf"};
  for (int i = 0; i < 2; i++) {
    const bsim_engine_type *et =
        bsim_library_engine_find(test_library(), engines[i]);
    test_bounce(engines[i], et && et->carry_jump != NULL);
  }
  test_chattering();
  return e2e_finish("test_hybrid_bounce");
}
