/*
 * End-to-end tests of structure rather than of blocks: algebraic loops
 * (torn into algebraic unknowns of the DAE, alone and mixed with a state)
 * and superblocks (a two-level hierarchy must give exactly what its flat
 * twin gives). Through the embedding API only.
 */
#include "test_e2e.h"

static double constant(double t, const void *arg) {
  (void)t;
  return *(const double *)arg;
}

/* 5a. y = 1 - 2 y. The loop is linear, so the Newton iteration of IDA's
 * initial condition and of every step solves it exactly up to rounding and
 * the nonlinear-solver tolerance (a small fraction of rtol = 1e-10): 1e-10
 * absolute on 1/3. */
static void test_pure_loop(void) {
  bsim_diagram *d = e2e_load("alg_loop.xml");
  if (!d) return;
  bsim_sim *s = e2e_run_diagram(d, NULL, "alg_loop");
  if (s) {
    double third = 1.0 / 3.0, two_thirds = 2.0 / 3.0;
    e2e_check_linear_times(s, 11, 1.0, "alg_loop");
    e2e_compare(s, "y", constant, &third, 0.0, 1e-10, "pure loop y = 1/3");
    e2e_compare(s, "fb", constant, &two_thirds, 0.0, 2e-10,
                "pure loop 2y = 2/3");
    bsim_system_info info;
    bsim_sim_info(s, &info);
    E2E_CHECK(info.algebraic == 1, "pure loop: %d algebraic unknowns, want 1",
              info.algebraic);
    E2E_CHECK(info.states == 0, "pure loop: %d states, want 0", info.states);
    E2E_CHECK(info.blocks == 3, "pure loop: %d blocks, want 3", info.blocks);
    bsim_sim_free(s);
  }
  bsim_diagram_free(d);
}

static double loop_x(double t, const void *arg) {
  (void)arg;
  return 0.25 * (1.0 - exp(-4.0 * t / 3.0));
}
static double loop_w(double t, const void *arg) {
  return (1.0 - loop_x(t, arg)) / 3.0;
}

/* 5b. w = 1 - x - 2w, x' = -x + w: x = (1 - e^{-4t/3})/4. A stable linear
 * DAE of index 1, rtol 1e-10: global error a few hundred rtol at most
 * relative to values ~0.25, so 1e-8 absolute; w follows x algebraically,
 * with the same bound. */
static void test_mixed_loop(void) {
  bsim_diagram *d = e2e_load("alg_loop_dyn.xml");
  if (!d) return;
  bsim_sim *s = e2e_run_diagram(d, NULL, "alg_loop_dyn");
  if (s) {
    e2e_compare(s, "x", loop_x, NULL, 0.0, 1e-8, "mixed loop x");
    e2e_compare(s, "w", loop_w, NULL, 0.0, 1e-8, "mixed loop w");
    bsim_system_info info;
    bsim_sim_info(s, &info);
    E2E_CHECK(info.states == 1 && info.algebraic == 1,
              "mixed loop: states %d algebraic %d, want 1 1", info.states,
              info.algebraic);
    bsim_sim_free(s);
  }
  bsim_diagram_free(d);
}

struct second_order {
  double z, w;
};
static double step_2nd(double t, const void *arg) {
  const struct second_order *p = arg;
  double wd = p->w * sqrt(1.0 - p->z * p->z);
  return (1.0 - exp(-p->z * p->w * t) / sqrt(1.0 - p->z * p->z) *
                    sin(wd * t + acos(p->z))) /
         (p->w * p->w);
}

static double stat_value(const bsim_sim *s, const char *name) {
  double v;
  const char *n;
  for (size_t i = 0; (n = bsim_stat_at(s, i, &v)) != NULL; i++)
    if (strcmp(n, name) == 0) return v;
  return NAN;
}

/* 6. Nested superblocks vs the flat twin. The flattened nested diagram is
 * the same system with the same leaf blocks in the same order, so IDA must
 * follow the same path: same steps, and results equal to 1e-12 (we allow
 * rounding from a possibly different summation order in the residual, not
 * a different step sequence). Also checked against the closed form
 * (z = 0.5, w = 2; damped, 1e-7 absolute as for the CLR test), which proves
 * the inner context's kp = 4 shadowed the outer kp = 100. */
static void test_superblock(void) {
  bsim_diagram *dn = e2e_load("super_nested.xml");
  bsim_diagram *df = e2e_load("super_flat.xml");
  bsim_sim *sn = dn ? e2e_run_diagram(dn, NULL, "super_nested") : NULL;
  bsim_sim *sf = df ? e2e_run_diagram(df, NULL, "super_flat") : NULL;
  if (sn && sf) {
    struct second_order p = {0.5, 2.0};
    e2e_compare(sn, "y", step_2nd, &p, 0.0, 1e-7, "nested superblock y");
    e2e_compare(sf, "y", step_2nd, &p, 0.0, 1e-7, "flat twin y");

    bsim_system_info in, inf;
    bsim_sim_info(sn, &in);
    bsim_sim_info(sf, &inf);
    E2E_CHECK(in.blocks == 6 && inf.blocks == 6,
              "leaf blocks: nested %d flat %d, want 6 (ports dissolved)",
              in.blocks, inf.blocks);
    E2E_CHECK(in.states == 2 && inf.states == 2,
              "states: nested %d flat %d, want 2", in.states, inf.states);

    size_t rows = bsim_result_rows(sn);
    E2E_CHECK(rows == bsim_result_rows(sf) && rows == 201,
              "rows: nested %zu flat %zu, want 201", rows,
              bsim_result_rows(sf));
    static const char *const names[] = {"y", "v", "a"};
    for (size_t k = 0; k < 3 && rows == bsim_result_rows(sf); k++) {
      long cn = e2e_col(sn, names[k]), cf = e2e_col(sf, names[k]);
      if (cn < 0 || cf < 0) continue;
      double worst = 0.0;
      for (size_t r = 0; r < rows; r++) {
        double e = fabs(e2e_value(sn, r, cn) - e2e_value(sf, r, cf));
        if (!(e <= worst)) worst = isnan(e) ? INFINITY : e;
      }
      fprintf(stderr, "  nested vs flat %-4s max |diff| = %.3g\n", names[k],
              worst);
      E2E_CHECK(worst <= 1e-12, "nested vs flat '%s' differ by %.3g", names[k],
                worst);
    }
    double stn = stat_value(sn, "steps"), stf = stat_value(sf, "steps");
    E2E_CHECK(stn == stf, "steps: nested %g flat %g (same path expected)", stn,
              stf);
  }
  if (sn) bsim_sim_free(sn);
  if (sf) bsim_sim_free(sf);
  if (dn) bsim_diagram_free(dn);
  if (df) bsim_diagram_free(df);
}

/* An override reaching into a superblock by path, and a context variable
 * shadowed inside it: overriding the top-level kp must change nothing
 * (plant's own kp = 4 wins), overriding plant/kpg.gain must. */
static void test_superblock_override(void) {
  bsim_error err;
  bsim_diagram *d = e2e_load("super_nested.xml");
  if (!d) return;
  bsim_error_clear(&err);
  E2E_CHECK(bsim_diagram_override(d, "kp", "1", &err) == 0, "override kp: %s",
            err.message);
  bsim_sim *s = e2e_run_diagram(d, NULL, "super_nested kp=1 (shadowed)");
  if (s) {
    struct second_order p = {0.5, 2.0};
    e2e_compare(s, "y", step_2nd, &p, 0.0, 1e-7, "shadowed kp unchanged");
    bsim_sim_free(s);
  }
  bsim_error_clear(&err);
  E2E_CHECK(bsim_diagram_override(d, "plant/kpg.gain", "1", &err) == 0,
            "override plant/kpg.gain: %s", err.message);
  s = e2e_run_diagram(d, NULL, "super_nested plant/kpg.gain=1");
  if (s) {
    /* y'' + 2 y' + y = 1: critically damped, y = 1 - (1 + t) e^-t. */
    long c = e2e_col(s, "y");
    if (c >= 0) {
      const double *t = bsim_result_times(s);
      double worst = 0.0;
      for (size_t r = 0; r < bsim_result_rows(s); r++) {
        double e = fabs(e2e_value(s, r, c) - (1.0 - (1.0 + t[r]) * exp(-t[r])));
        if (!(e <= worst)) worst = isnan(e) ? INFINITY : e;
      }
      fprintf(stderr, "  plant/kpg.gain=1 max err %.3g\n", worst);
      E2E_CHECK(worst <= 1e-7, "plant/kpg.gain=1: error %.3g > 1e-7", worst);
    }
    bsim_sim_free(s);
  }
  bsim_diagram_free(d);
}

int main(void) {
  test_pure_loop();
  test_mixed_loop();
  test_superblock();
  test_superblock_override();
  return e2e_finish("test_e2e_loops");
}
