/*
 * Solver "auto" (scheduler/auto.c, docs/solvers.md): ida for a DAE,
 * cvode-adams for a non-stiff ODE, cvode-bdf for a stiff one, and, in a
 * build whose CVODE cannot carry its history across events, a switch to
 * ida once clocked events change only inputs of linear parts. Each choice is
 * checked by name and reason, each run's result against its closed form at the
 * e2e bound for rtol 1e-8 (1e-6 relative), and a parameter that not every
 * engine auto may choose takes is refused.
 */
#include "test_hybrid_common.h"

static bsim_sim *run_auto(const char *file, bsim_diagram **d) {
  bsim_options o;
  bsim_options_init(&o);
  o.solver = "auto";
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", BSIM_TEST_DATA, file);
  bsim_error err;
  bsim_error_clear(&err);
  *d = bsim_diagram_load(path, test_library(), &err);
  bsim_sim *s = *d ? e2e_run_diagram(*d, &o, file) : NULL;
  E2E_CHECK(s != NULL, "%s did not run", file);
  return s;
}

static void check_choice(const bsim_sim *s, const char *file,
                         const char *engine, const char *why) {
  const char *choice = bsim_sim_solver_choice(s);
  E2E_CHECK(strcmp(bsim_sim_solver(s), engine) == 0, "%s: solver %s, want %s",
            file, bsim_sim_solver(s), engine);
  E2E_CHECK(choice && strstr(choice, why), "%s: choice '%s', want '%s'", file,
            choice ? choice : "(none)", why);
  fprintf(stderr, "  %s: %s (%s)\n", file, bsim_sim_solver(s),
          choice ? choice : "");
}

static double decay(double t, const void *arg) {
  return exp(-t / *(const double *)arg);
}

int main(void) {
  bsim_diagram *d;
  /* a torn algebraic loop: ida */
  bsim_sim *s = run_auto("solvers/jac_nonlinear.xml", &d);
  if (s) check_choice(s, "jac_nonlinear", "ida", "algebraic unknowns");
  bsim_sim_free(s);
  bsim_diagram_free(d);

  /* x' = -x/2 over 10 s: the mode turns 5 times, not stiff */
  s = run_auto("e2e/decay.xml", &d);
  if (s) {
    check_choice(s, "decay", "cvode-adams", "not stiff");
    double tau = 2;
    e2e_compare(s, "x", decay, &tau, 1e-6, 0.0, "auto decay x");
  }
  bsim_sim_free(s);
  bsim_diagram_free(d);

  /* modes at 1/s and 1e4/s over 10 s: stiff */
  s = run_auto("solvers/stiff_pair.xml", &d);
  if (s) {
    check_choice(s, "stiff_pair", "cvode-bdf", "stiff: fastest mode 1e+04/s");
    double tau = 1;
    /* near e^-10 the absolute error counts: atol 1e-10, global 1e-8 */
    e2e_compare(s, "x1", decay, &tau, 1e-6, 1e-8, "auto stiff x1");
  }
  bsim_sim_free(s);
  bsim_diagram_free(d);

  /* the sampled loop: cvode-adams carries its history across the 999
   * ticks after the start when the build lets CVODE carry
   * (solvers/cvode_carry.c); else it restarts at the ticks at 0.01, 0.02
   * and 0.03, then ida from there on carries the 996 others (with the
   * start, four cold restarts) */
  const bsim_engine_type *adams =
      bsim_library_engine_find(test_library(), "cvode-adams");
  int cv_carries = adams && adams->carry;
  s = run_auto("hybrid/sampled_loop.xml", &d);
  if (s) {
    if (cv_carries)
      check_choice(s, "sampled_loop", "cvode-adams", "not stiff");
    else
      check_choice(s, "sampled_loop", "ida", "ida from t=0.03 on");
    double want_cold = cv_carries ? 1 : 4,
           want_carried = cv_carries ? 999 : 996;
    E2E_CHECK(hy_stat(s, "cold-restarts") == want_cold &&
                  hy_stat(s, "carried") == want_carried,
              "sampled_loop: %g cold restarts, %g carried, want %g and %g",
              hy_stat(s, "cold-restarts"), hy_stat(s, "carried"), want_cold,
              want_carried);
  }
  bsim_sim_free(s);
  bsim_diagram_free(d);

  /* a parameter ida takes but CVODE does not */
  char path[1024];
  snprintf(path, sizeof path, "%s/e2e/decay.xml", BSIM_TEST_DATA);
  bsim_error err;
  bsim_error_clear(&err);
  d = bsim_diagram_load(path, test_library(), &err);
  bsim_options o;
  bsim_options_init(&o);
  o.solver = "auto";
  const char *names[] = {"calcic"}, *values[] = {"y"};
  o.solver_param_names = names;
  o.solver_param_values = values;
  o.nsolver_params = 1;
  s = d ? bsim_sim_create(d, &o, &err) : NULL;
  E2E_CHECK(!s && err.status == BSIM_ERR_INPUT &&
                strstr(err.message, "solver 'auto' may choose 'cvode-bdf'"),
            "auto with calcic: status %d, '%s'", (int)err.status, err.message);
  bsim_sim_free(s);
  bsim_diagram_free(d);
  return e2e_finish("test_solver_auto");
}
