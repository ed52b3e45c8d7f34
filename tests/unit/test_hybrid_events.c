/*
 * End-to-end tests of event routing and of the end of a run: the order
 * in which simultaneous events are served (first scheduled, first
 * served), IFTHEL_f's choice of branch by the sign of its input, and runs
 * cut short by END_c and HALT_f (results stop there, with fewer rows).
 */
#include "test_hybrid_common.h"

/* 7a. Two clocks tick at 0.5, 1.5, 2.5, 3.5; clkA is first in the file,
 * so its first firing is scheduled first, and after that each clock
 * reschedules itself when served, which keeps A ahead of B at every
 * instant (FIFO). Counters start at 1 and count each activation. When A
 * is served, its scope sees its own counter already at k (outputs are
 * computed before state updates) and B's still at k - 1; when B is
 * served next, its scope sees both at k. Counts are exact integers. */
static void test_fifo(void) {
  bsim_diagram *d;
  bsim_sim *s = hy_run("fifo.xml", NULL, &d);
  if (s) {
    size_t ra, rb;
    int ca, cb;
    const double *a = hy_record(s, "seenA", &ra, &ca);
    const double *b = hy_record(s, "seenB", &rb, &cb);
    E2E_CHECK(a && b && ra == 4 && rb == 4 && ca == 2 && cb == 2,
              "fifo: scopes have %zu and %zu rows, want 4 each", ra, rb);
    for (size_t k = 0; a && b && k < 4 && k < ra && k < rb; k++) {
      double t = 0.5 + (double)k, n = (double)k + 1;
      E2E_CHECK(hy_rec(a, ca, k, 0) == t && hy_rec(b, cb, k, 0) == t,
                "fifo: row %zu at %g / %g, want %g", k, hy_rec(a, ca, k, 0),
                hy_rec(b, cb, k, 0), t);
      E2E_CHECK(hy_rec(a, ca, k, 1) == n && hy_rec(a, ca, k, 2) == n - 1,
                "fifo t=%g: clkA served with (A, B) = (%g, %g), want (%g, %g)"
                " (A before B)",
                t, hy_rec(a, ca, k, 1), hy_rec(a, ca, k, 2), n, n - 1);
      E2E_CHECK(hy_rec(b, cb, k, 1) == n && hy_rec(b, cb, k, 2) == n,
                "fifo t=%g: clkB served with (B, A) = (%g, %g), want (%g, %g)"
                " (B after A)",
                t, hy_rec(b, cb, k, 1), hy_rec(b, cb, k, 2), n, n);
    }
    /* Nothing continuous: every tick is hot, 2 events per instant. */
    hy_print_stats(s, "fifo");
    E2E_CHECK(hy_stat(s, "events") == 8, "fifo: %g events, want 8",
              hy_stat(s, "events"));
    E2E_CHECK(hy_stat(s, "cold-restarts") == 1, "fifo: %g cold restarts",
              hy_stat(s, "cold-restarts"));
    bsim_sim_free(s);
  }
  if (d) bsim_diagram_free(d);
}

/* 7b. IFTHEL_f on u = t - 1 at ticks 0.25 .. 2: u > 0 goes to the then
 * branch (1.25 .. 2), u <= 0 to the else branch (0.25 .. 1; at t = 1 u is
 * exactly 0 in floating point, since 0.25 k and 1 are exact). Each scope
 * records u, which must have the branch's sign; the times are exact
 * binary fractions summed, so compared exactly. */
static void test_ifthel(void) {
  bsim_diagram *d;
  bsim_sim *s = hy_run("ifthel.xml", NULL, &d);
  if (s) {
    size_t rt, re;
    int ct, ce;
    const double *th = hy_record(s, "then", &rt, &ct);
    const double *el = hy_record(s, "else", &re, &ce);
    E2E_CHECK(th && el && rt == 4 && re == 4,
              "ifthel: %zu then and %zu else activations, want 4 and 4", rt,
              re);
    for (size_t k = 0; th && k < rt && k < 4; k++) {
      E2E_CHECK(hy_rec(th, ct, k, 0) == 1.25 + 0.25 * (double)k &&
                    hy_rec(th, ct, k, 1) > 0,
                "ifthel: then row %zu: t=%.17g u=%g", k, hy_rec(th, ct, k, 0),
                hy_rec(th, ct, k, 1));
    }
    for (size_t k = 0; el && k < re && k < 4; k++) {
      E2E_CHECK(hy_rec(el, ce, k, 0) == 0.25 + 0.25 * (double)k &&
                    hy_rec(el, ce, k, 1) <= 0,
                "ifthel: else row %zu: t=%.17g u=%g", k, hy_rec(el, ce, k, 0),
                hy_rec(el, ce, k, 1));
    }
    bsim_sim_free(s);
  }
  if (d) bsim_diagram_free(d);
}

static double decay(double t, const void *arg) {
  (void)arg;
  return exp(-t);
}

/* 8. END_c at 2.5 with samples every 0.1 to 5: 26 rows, the last at 2.5
 * (a sample at the end time is kept, showing the value just before the
 * event). HALT_f activated when t crosses 1.234: 13 rows (0 .. 1.2).
 * The values are e^-t to 1e-6 (rtol 1e-8, as in test_e2e_linear). */
static void test_end(const char *file, size_t rows, double last) {
  bsim_diagram *d;
  bsim_sim *s = hy_run(file, NULL, &d);
  if (s) {
    size_t n = bsim_result_rows(s);
    const double *t = bsim_result_times(s);
    E2E_CHECK(n == rows, "%s: %zu rows, want %zu", file, n, rows);
    E2E_CHECK(n > 0 && fabs(t[n - 1] - last) <= 1e-12,
              "%s: last row at %.17g, want %g", file, n ? t[n - 1] : NAN, last);
    e2e_compare(s, "x", decay, NULL, 1e-6, 0.0, file);
    hy_print_stats(s, file);
    bsim_sim_free(s);
  }
  if (d) bsim_diagram_free(d);
}

int main(void) {
  test_fifo();
  test_ifthel();
  test_end("end_c.xml", 26, 2.5);
  test_end("halt.xml", 13, 1.2);
  return e2e_finish("test_hybrid_events");
}
