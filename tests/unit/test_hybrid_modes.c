/*
 * End-to-end tests of blocks with modes in feedback loops: a thermostat
 * (HYSTHERESIS) whose switching instants follow a log formula, and a
 * saturated proportional controller (SATURATION) whose trajectory is a
 * ramp then an exponential. Modes must switch exactly at the located
 * crossings, each switch costing one cold restart and nothing more.
 */
#include <stdlib.h>

#include "test_hybrid_common.h"

typedef struct thermo {
  double Ta, T0, P, tau, Tl, Th;
  double sw[16]; /* switching instants: off, on, off, ... */
  int nsw;
} thermo;

/* Switching instants from T0 (< Tl, heater on) up to tf. While on, T
 * relaxes towards Ta + P, while off towards Ta, with time constant tau;
 * going from T1 to T2 towards T* takes tau ln((T1 - T*)/(T2 - T*)). */
static void thermo_times(thermo *th, double tf) {
  double t =
      th->tau * log((th->T0 - th->Ta - th->P) / (th->Th - th->Ta - th->P));
  double d_off = th->tau * log((th->Th - th->Ta) / (th->Tl - th->Ta));
  double d_on =
      th->tau * log((th->Tl - th->Ta - th->P) / (th->Th - th->Ta - th->P));
  th->nsw = 0;
  for (int k = 0; t <= tf && th->nsw < 16; k++) {
    th->sw[th->nsw++] = t;
    t += k % 2 == 0 ? d_off : d_on;
  }
}

/* T(t) piece by piece from the switching instants. */
static double thermo_exact(double t, const void *arg) {
  const thermo *th = arg;
  double t0 = 0.0, T = th->T0;
  int on = 1;
  for (int k = 0; k < th->nsw && th->sw[k] <= t; k++) {
    t0 = th->sw[k];
    T = on ? th->Th : th->Tl;
    on = !on;
  }
  double target = th->Ta + (on ? th->P : 0.0);
  return target + (T - target) * exp(-(t - t0) / th->tau);
}

/* 3. Thermostat, Ta = T0 = 10, P = 20, tau = 5, Tl = 18, Th = 22, on
 * [0, 20]: off at 5 ln 2.5 = 4.5815, then every 5 ln 1.5 = 2.0273 s
 * alternately on and off, 8 switches in all. Roots are located to ~100
 * ulp of t and the pieces integrated with rtol = atol = 1e-10 over a few
 * time constants, so the recorded crossings (and with them the
 * switching instants) are within 1e-6 with a wide margin (we see ~2e-9);
 * a switch decided at the wrong threshold or a step late would be off by
 * far more. T itself is compared with the piecewise closed form to 1e-6
 * relative: a switching instant off by dt shifts T by |T'| dt <= 4 dt. */
static void test_thermostat(void) {
  bsim_diagram *d;
  bsim_sim *s = hy_run("thermostat.xml", NULL, &d);
  if (s) {
    thermo th = {10, 10, 20, 5, 18, 22, {0}, 0};
    thermo_times(&th, 20.0);
    E2E_CHECK(th.nsw == 8, "thermostat: closed form has %d switches", th.nsw);
    size_t ron, roff;
    int con, coff;
    const double *off = hy_record(s, "off_at", &roff, &coff);
    const double *on = hy_record(s, "on_at", &ron, &con);
    E2E_CHECK(off && on && roff == 4 && ron == 4 && coff == 1 && con == 1,
              "thermostat: %zu off and %zu on crossings recorded, want 4 each",
              roff, ron);
    double worst = 0.0;
    for (size_t k = 0; off && on && k < 4 && k < roff && k < ron; k++) {
      double toff = hy_rec(off, coff, k, 0), ton = hy_rec(on, con, k, 0);
      worst = fmax(
          worst, fmax(fabs(toff - th.sw[2 * k]), fabs(ton - th.sw[2 * k + 1])));
      E2E_CHECK(fabs(toff - th.sw[2 * k]) <= 1e-6,
                "thermostat: switch off %zu at %.17g, want %.17g", k + 1, toff,
                th.sw[2 * k]);
      E2E_CHECK(fabs(ton - th.sw[2 * k + 1]) <= 1e-6,
                "thermostat: switch on %zu at %.17g, want %.17g", k + 1, ton,
                th.sw[2 * k + 1]);
      /* at the crossing T is the threshold (same argument: 1e-6) */
      E2E_CHECK(fabs(hy_rec(off, coff, k, 1) - th.Th) <= 1e-6 &&
                    fabs(hy_rec(on, con, k, 1) - th.Tl) <= 1e-6,
                "thermostat: T at switch %zu is %.17g / %.17g", k + 1,
                hy_rec(off, coff, k, 1), hy_rec(on, con, k, 1));
    }
    fprintf(stderr, "  thermostat switching: max |t - exact| = %.3g\n", worst);
    e2e_compare(s, "T", thermo_exact, &th, 1e-6, 0.0, "thermostat T");

    /* The heater signal is P while on and 0 while off: exact values,
     * checked away from the switches (a sample within 1e-3 s of one could
     * legitimately be on either side if the instant is off by rounding). */
    long cq = e2e_col(s, "q");
    const double *t = bsim_result_times(s);
    for (size_t r = 0; cq >= 0 && r < bsim_result_rows(s); r++) {
      int on_now = 1, near = 0;
      for (int k = 0; k < th.nsw; k++) {
        if (fabs(t[r] - th.sw[k]) < 1e-3) near = 1;
        if (th.sw[k] <= t[r]) on_now = k % 2 == 1;
      }
      if (near) continue;
      double q = e2e_value(s, r, cq);
      E2E_CHECK(q == (on_now ? th.P : 0.0), "thermostat: q(%.6g) = %g, want %g",
                t[r], q, on_now ? th.P : 0.0);
      if (q != (on_now ? th.P : 0.0)) break;
    }

    /* One cold restart per switch plus the start; any other root (the
     * surfaces re-crossed right after a switch) changes nothing and is
     * downgraded. No event here is non-critical. */
    hy_print_stats(s, "thermostat");
    double roots = hy_stat(s, "roots"), down = hy_stat(s, "downgrades");
    E2E_CHECK(hy_stat(s, "cold-restarts") == th.nsw + 1,
              "thermostat: %g cold restarts, want %d",
              hy_stat(s, "cold-restarts"), th.nsw + 1);
    E2E_CHECK(hy_stat(s, "events") == th.nsw, "thermostat: %g events, want %d",
              hy_stat(s, "events"), th.nsw);
    E2E_CHECK(roots == th.nsw + down,
              "thermostat: %g roots, %g downgrades: want roots = %d + "
              "downgrades",
              roots, down, th.nsw);
    bsim_sim_free(s);
  }
  if (d) bsim_diagram_free(d);
}

typedef struct satloop {
  double K, r, umax, ts;
} satloop;

static double sat_x(double t, const void *arg) {
  const satloop *c = arg;
  if (t <= c->ts) return c->umax * t;
  return c->r - c->umax / c->K * exp(-c->K * (t - c->ts));
}

static double sat_u(double t, const void *arg) {
  const satloop *c = arg;
  return t <= c->ts ? c->umax : c->umax * exp(-c->K * (t - c->ts));
}

/* 5. x' = sat(K (r - x)), r = 1, umax = 0.5, x0 = 0, on [0, 5]: a ramp
 * 0.5 t until the corner ts = (r - umax/K)/umax, then an exponential.
 * Ramp and exponential are integrated to rtol 1e-10 and the corner is
 * located to ~100 ulp, so 1e-6 (absolute: x and u are O(1) and u tends
 * to 0) leaves a wide margin, while a corner missed by even 1e-5 s, or a
 * controller stuck at its limit, fails. Exactly two cold restarts: the
 * start and the corner (the mode changes once; nothing chatters).
 * Run with K = 3 (the corner at 5/3, not a binary fraction) and K = 2
 * (the corner at exactly 1.5, where x = 0.75 and u = umax hold exactly in
 * floating point: the surface u - umax is exactly 0 at the root, and the
 * mode must still leave the limit, because u is falling). */
static void test_saturation(const char *K) {
  bsim_diagram *d = hy_load("sat_loop.xml");
  if (!d) return;
  bsim_error err;
  bsim_error_clear(&err);
  if (bsim_diagram_override(d, "K", K, &err) != 0) {
    E2E_CHECK(0, "override K=%s: %s", K, err.message);
    bsim_diagram_free(d);
    return;
  }
  char what[64];
  snprintf(what, sizeof what, "saturation K=%s", K);
  bsim_sim *s = e2e_run_diagram(d, NULL, what);
  if (s) {
    satloop c = {atof(K), 1.0, 0.5, 0.0};
    c.ts = (c.r - c.umax / c.K) / c.umax;
    e2e_compare(s, "x", sat_x, &c, 0.0, 1e-6, what);
    e2e_compare(s, "u", sat_u, &c, 0.0, 1e-6, what);
    size_t rows;
    int cols;
    const double *rec = hy_record(s, "corner_at", &rows, &cols);
    E2E_CHECK(rec && rows == 1, "%s: %zu corners recorded, want 1", what, rows);
    if (rec && rows >= 1) {
      double t = hy_rec(rec, cols, 0, 0);
      E2E_CHECK(fabs(t - c.ts) <= 1e-6, "%s: corner at %.17g, want %.17g", what,
                t, c.ts);
      fprintf(stderr, "  %s: corner at %.17g (exact %.17g)\n", what, t, c.ts);
    }
    hy_print_stats(s, what);
    E2E_CHECK(hy_stat(s, "cold-restarts") == 2,
              "%s: %g cold restarts, want 2 (start and corner)", what,
              hy_stat(s, "cold-restarts"));
    E2E_CHECK(hy_stat(s, "roots") == 1, "%s: %g roots, want 1", what,
              hy_stat(s, "roots"));
    bsim_sim_free(s);
  }
  bsim_diagram_free(d);
}

int main(void) {
  test_thermostat();
  test_saturation("3");
  test_saturation("2");
  return e2e_finish("test_hybrid_modes");
}
