/*
 * End-to-end tests of the nonlinear and routing blocks in chains against
 * closed forms: steps into integrators (events), |sin t| integrated (zero
 * crossings), exp(sin t) and friends (TrigFun, EXPBLK_m, PRODUCT, TIME_f),
 * and vector routing (MUX, matrix GAINBLK, DEMUX, SUMMATION of a vector).
 */
#include "test_e2e.h"

static double ramp(double t, const void *arg) {
  (void)arg;
  return t > 1.0 ? t - 1.0 : 0.0;
}
static double ramp2(double t, const void *arg) {
  (void)arg;
  return t < 1.5 ? 0.5 * t : 0.75 + 2.0 * (t - 1.5);
}

/* 9a. Steps into integrators. Between events the integrand is constant, so
 * BDF integrates it exactly; if the step time is located exactly (it is a
 * scheduled event, not a detected root), the only error is rounding and the
 * nonlinear-solver tolerance: 1e-8 absolute on values up to 3.75. */
static void test_step_ramp(void) {
  bsim_diagram *d = e2e_load("step_ramp.xml");
  if (!d) return;
  bsim_sim *s = e2e_run_diagram(d, NULL, "step_ramp");
  if (s) {
    e2e_check_linear_times(s, 31, 3.0, "step_ramp");
    e2e_compare(s, "ramp", ramp, NULL, 0.0, 1e-8, "step 0->1 at 1, integral");
    e2e_compare(s, "ramp2", ramp2, NULL, 0.0, 1e-8,
                "step .5->2 at 1.5, integral");
    long c = e2e_col(s, "step");
    if (c >= 0) {
      const double *t = bsim_result_times(s);
      for (size_t r = 0; r < bsim_result_rows(s); r++) {
        /* At t == 1 either side is defensible; elsewhere it is exact. */
        if (fabs(t[r] - 1.0) < 1e-9) continue;
        double want = t[r] < 1.0 ? 0.0 : 1.0;
        E2E_CHECK(e2e_value(s, r, c) == want, "step at t=%g: %g, want %g", t[r],
                  e2e_value(s, r, c), want);
      }
    }
    bsim_sim_free(s);
  }
  bsim_diagram_free(d);
}

static double abs_sin(double t, const void *arg) {
  (void)arg;
  return fabs(sin(t));
}
static double int_abs_sin(double t, const void *arg) {
  (void)arg;
  double n = floor(t / 3.14159265358979323846);
  return 2.0 * n + 1.0 - cos(t - n * 3.14159265358979323846);
}

/* 9b. y = integral of |sin t| over [0, 10], rtol 1e-9, atol 1e-12. The
 * integrand is bounded and only its derivative jumps (at k pi, located as
 * zero crossings), so the error is the sum of local errors: a few hundred
 * rtol on values up to 6.2, bound 1e-6 absolute. The |sin t| output itself
 * depends on t only: 1e-12 (rounding of sin). */
static void test_abs_sin(void) {
  bsim_diagram *d = e2e_load("abs_sin.xml");
  if (!d) return;
  bsim_sim *s = e2e_run_diagram(d, NULL, "abs_sin");
  if (s) {
    e2e_compare(s, "abs", abs_sin, NULL, 0.0, 1e-12, "|sin t|");
    e2e_compare(s, "y", int_abs_sin, NULL, 0.0, 1e-6, "integral |sin t|");
    bsim_sim_free(s);
  }
  bsim_diagram_free(d);
}

static double ident(double t, const void *arg) {
  (void)arg;
  return t;
}
static double exp_sin(double t, const void *arg) {
  (void)arg;
  return exp(sin(t));
}
static double pow2(double t, const void *arg) {
  (void)arg;
  return pow(2.0, t);
}
static double exp_sin_m1(double t, const void *arg) {
  (void)arg;
  return exp(sin(t)) - 1.0;
}

/* 9c. Pure functions of t (TIME_f, TrigFun, EXPBLK_m) are exact up to libm
 * rounding: 1e-12 relative. The integral of exp(sin t) cos t, rtol 1e-10
 * on a smooth bounded integrand (values within [e^-1 - 1, e - 1]): 1e-7
 * absolute. */
static void test_exp_sin(void) {
  bsim_diagram *d = e2e_load("exp_sin.xml");
  if (!d) return;
  bsim_sim *s = e2e_run_diagram(d, NULL, "exp_sin");
  if (s) {
    e2e_compare(s, "t", ident, NULL, 1e-12, 0.0, "TIME_f");
    e2e_compare(s, "e", exp_sin, NULL, 1e-12, 0.0, "exp(sin t)");
    e2e_compare(s, "p2", pow2, NULL, 1e-12, 0.0, "2^t");
    e2e_compare(s, "ie", exp_sin_m1, NULL, 0.0, 1e-7,
                "integral exp(sin t) cos t");
    bsim_system_info info;
    bsim_sim_info(s, &info);
    E2E_CHECK(info.states == 1 && info.algebraic == 0,
              "exp_sin: states %d algebraic %d, want 1 0", info.states,
              info.algebraic);
    bsim_sim_free(s);
  }
  bsim_diagram_free(d);
}

static double f_sin(double t, const void *a) {
  (void)a;
  return sin(t);
}
static double f_cos(double t, const void *a) {
  (void)a;
  return cos(t);
}
static double f_spc(double t, const void *a) {
  (void)a;
  return sin(t) + cos(t);
}
static double f_smc(double t, const void *a) {
  (void)a;
  return sin(t) - cos(t);
}
static double f_sq(double t, const void *a) {
  (void)a;
  return -cos(2.0 * t);
}
static double f_half(double t, const void *a) {
  (void)a;
  return 0.5 * (sin(t) + cos(t));
}
static double f_isq(double t, const void *a) {
  (void)a;
  return -0.5 * sin(2.0 * t);
}

/* 9d. Vector routing. Every algebraic column is a function of t alone:
 * 1e-12 absolute (GENSIN_f with phase pi/2 for cos adds a rounding of the
 * phase, still ~1e-16). The integral of -cos 2t, rtol 1e-10 on a smooth
 * oscillating integrand over 10 s: 1e-7 absolute. */
static void test_mux_demux(void) {
  bsim_diagram *d = e2e_load("mux_demux.xml");
  if (!d) return;
  bsim_sim *s = e2e_run_diagram(d, NULL, "mux_demux");
  if (s) {
    e2e_compare(s, "v[1]", f_sin, NULL, 0.0, 1e-12, "MUX element 1");
    e2e_compare(s, "v[2]", f_cos, NULL, 0.0, 1e-12, "MUX element 2");
    e2e_compare(s, "gv[1]", f_spc, NULL, 0.0, 1e-12, "matrix gain row 1");
    e2e_compare(s, "gv[2]", f_smc, NULL, 0.0, 1e-12, "matrix gain row 2");
    e2e_compare(s, "sq", f_sq, NULL, 0.0, 1e-12, "DEMUX + PRODUCT [1 1]");
    e2e_compare(s, "half", f_half, NULL, 0.0, 1e-12, "PRODUCT [1 -1]");
    e2e_compare(s, "tot", f_spc, NULL, 0.0, 1e-12, "SUMMATION of a vector");
    e2e_compare(s, "isq", f_isq, NULL, 0.0, 1e-7, "integral of -cos 2t");
    E2E_CHECK(bsim_result_cols(s) == 8,
              "mux_demux: %zu columns, want 8 (v[1..2] gv[1..2] sq half isq "
              "tot)",
              bsim_result_cols(s));
    bsim_sim_free(s);
  }
  bsim_diagram_free(d);
}

int main(void) {
  test_step_ramp();
  test_abs_sin();
  test_exp_sin();
  test_mux_demux();
  return e2e_finish("test_e2e_nonlinear");
}
