/*
 * Checks the "cvode-bdf" and "cvode-adams" engines through the engine
 * interface only: accuracy on an oscillator and on stiff problems (against
 * IDA at a tight tolerance), root finding with directions, exact stop
 * times, interpolation, statistics across restarts, failures and
 * parameter checking.
 */
#include "tests/unit/engine_harness.h"

static const char *const engines[] = {"cvode-bdf", "cvode-adams"};

/* Robertson's kinetics, stiff with rates over nine decades. */
static int robertson_res(double t, const double *y, const double *yp, double *r,
                         void *u) {
  double a = 0.04 * y[0], b = 1e4 * y[1] * y[2], c = 3e7 * y[1] * y[1];
  r[0] = yp[0] - (-a + b);
  r[1] = yp[1] - (a - b - c);
  r[2] = yp[2] - c;
  return BSIM_CB_OK;
}

/* g = y - 0.5, and y' itself through the root function's y' argument,
 * which must be f (= 1): g2 = y' - 1 + (y - 0.25) crosses at 0.25 only if
 * y' is passed right. */
static int ramp_roots2(double t, const double *y, const double *yp, double *g,
                       void *u) {
  g[0] = y[0] - 0.5;
  g[1] = (yp[0] - 1.0) + (y[0] - 0.25);
  return BSIM_CB_OK;
}

static bsim_engine *make(const char *name, bsim_problem *p, double rtol,
                         double atol, const char *const *names,
                         const char *const *values, int np, double t0,
                         const double *y0, char *msg, size_t len) {
  return make_engine(name, p, rtol, atol, names, values, np, t0, y0, NULL, msg,
                     len);
}

/* 10 periods, outputs every 0.05, rtol 1e-8: the global error of CVODE
 * stays near 1e-7 over ~63 radians, 1e-5 absolute is a safe bound. */
static void test_oscillator(const char *name, const char *const *pn,
                            const char *const *pv, int np) {
  const bsim_engine_type *t = bsim_engine_find(name);
  bsim_problem p = {.n = 2, .id = ones, .residual = osc_res, .ode_form = 1};
  double y[2] = {1, 0}, yp[2] = {0, 0}, tret;
  char err[512];
  bsim_engine *e =
      make(name, &p, 1e-8, 1e-10, pn, pv, np, 0, y, err, sizeof err);
  CHECK(e != NULL, "%s: %s", name, err);
  if (!e) return;
  CHECK(t->calc_ic(e, 0.05, y, yp) == 0, "%s", t->last_error(e));
  CHECK(yp[0] == 0 && yp[1] == -W * W, "%s y'(0) = %g %g", name, yp[0], yp[1]);
  double worst = 0;
  for (int k = 1; k <= 200; k++) {
    double tout = 0.05 * k;
    bsim_adv_status st = t->advance(e, tout, &tret, y, yp);
    CHECK(st == BSIM_ADV_OK && tret == tout, "%s %d t %.17g: %s", name, st,
          tret, t->last_error(e));
    if (st != BSIM_ADV_OK) break;
    worst = fmax(worst, fabs(y[0] - cos(W * tout)));
    worst = fmax(worst, fabs(y[1] / W + sin(W * tout)));
  }
  CHECK(worst <= 1e-5, "%s worst %.3g", name, worst);
  /* y' handed out is the derivative of CVODE's interpolant, as accurate
   * as the solution it differentiates: 1e-5 on a scale of 1 at frequency W
   * is W 1e-5 on y' and W^2 1e-5 on y''. */
  CHECK(fabs(yp[0] - y[1]) <= 1e-5 * W &&
            fabs(yp[1] + W * W * y[0]) <= 1e-5 * W * W,
        "%s y' %g %g against f %g %g", name, yp[0], yp[1], y[1], -W * W * y[0]);
  /* CVODE usually steps past tout: 10 - 1e-3 is inside its last step, and
   * its interpolant is as accurate as the steps (same 1e-5). */
  double d[2];
  CHECK(t->interpolate(e, 10 - 1e-3, 0, d) == 0, "%s", t->last_error(e));
  CHECK(fabs(d[0] - cos(W * (10 - 1e-3))) <= 1e-5, "%s interp %.12g", name,
        d[0]);
  CHECK(t->interpolate(e, 2.0, 0, d) == -1 &&
            strstr(t->last_error(e), "t=2") != NULL,
        "%s: %s", name, t->last_error(e));
  bsim_engine_stats s;
  t->stats(e, &s);
  CHECK(s.steps > 100 && s.residual_evals > s.steps &&
            s.nonlinear_iterations > 0,
        "%s steps %ld evals %ld nni %ld", name, s.steps, s.residual_evals,
        s.nonlinear_iterations);
  fprintf(stderr, "%s oscillator: worst %.2e, %ld steps, %ld f evals\n", name,
          worst, s.steps, s.residual_evals);
  t->free(e);
}

/* Reference solutions from IDA at rtol 1e-10 through the same interface. */
static void reference(bsim_problem *p, const double *y0, const double *touts,
                      int nt, double *ref) {
  const bsim_engine_type *t = bsim_engine_find("ida");
  double y[3], yp[3] = {0, 0, 0}, tret;
  memcpy(y, y0, (size_t)p->n * sizeof *y);
  char err[512];
  bsim_engine_settings s = {1e-10, 1e-14, NULL, NULL, 0};
  bsim_engine *e = t->create(p, &s, 0, y, yp, err, sizeof err);
  CHECK(e != NULL, "ida: %s", err);
  if (!e) return;
  CHECK(t->calc_ic(e, touts[0], y, yp) == 0, "ida: %s", t->last_error(e));
  for (int k = 0; k < nt; k++) {
    CHECK(t->advance(e, touts[k], &tret, y, yp) == BSIM_ADV_OK, "ida: %s",
          t->last_error(e));
    memcpy(ref + k * p->n, y, (size_t)p->n * sizeof *y);
  }
  t->free(e);
}

/* cvode-bdf at rtol 1e-8 (atol far below the smallest component) agrees
 * with IDA at 1e-10 to 1e-6 relative on every component. */
/* Both stiff problems with each linear solver: dense (CVODE's own
 * quotients), and band, klu and spgmr on the problems' sparsity patterns
 * with colored finite differences (issue 13). Robertson's pattern: f0 and
 * f1 read all three, f2 reads y1 only. */
static void test_stiff(void) {
  const bsim_engine_type *t = bsim_engine_find("cvode-bdf");
  const double tl[] = {0.01, 0.1, 0.5, 1.0, 2.0};
  const double tr[] = {0.4, 4.0, 40.0, 400.0};
  static const int cp1[] = {0, 1}, ri1[] = {0};
  static const int cp3[] = {0, 2, 5, 7}, ri3[] = {0, 1, 0, 1, 2, 0, 1};
  struct {
    bsim_problem p;
    double y0[3], atol;
    const double *touts;
    int nt;
  } cases[] = {
      {{.n = 1,
        .id = ones,
        .residual = stiff_res,
        .ode_form = 1,
        .pattern_colptr = cp1,
        .pattern_rowidx = ri1},
       {0, 0, 0},
       1e-12,
       tl,
       5},
      {{.n = 3,
        .id = ones,
        .residual = robertson_res,
        .ode_form = 1,
        .pattern_colptr = cp3,
        .pattern_rowidx = ri3},
       {1, 0, 0},
       1e-14,
       tr,
       4},
  };
  const char *solvers[] = {"dense", "band", "klu", "spgmr"};
  const char *pn[] = {"linear-solver"};
  for (int c = 0; c < 2; c++) {
    double ref[15] = {0};
    reference(&cases[c].p, cases[c].y0, cases[c].touts, cases[c].nt, ref);
    for (int ls = 0; ls < 4; ls++) {
      double y[3], yp[3], tret;
      memcpy(y, cases[c].y0, sizeof y);
      char err[512];
      bsim_engine *e = make("cvode-bdf", &cases[c].p, 1e-8, cases[c].atol, pn,
                            solvers + ls, 1, 0, y, err, sizeof err);
      CHECK(e != NULL, "%s", err);
      if (!e) continue;
      for (int k = 0; k < cases[c].nt; k++) {
        double to = cases[c].touts[k];
        CHECK(t->advance(e, to, &tret, y, yp) == BSIM_ADV_OK, "%s",
              t->last_error(e));
        for (int i = 0; i < cases[c].p.n; i++) {
          double r = ref[k * cases[c].p.n + i];
          /* spgmr stops at CVODE's linear tolerance (0.05 of the Newton
           * tolerance), so its Newton corrections carry a little more of
           * the local error than a direct solve's */
          double rel = ls == 3 ? 1e-5 : 1e-6;
          CHECK(fabs(y[i] - r) <= rel * fabs(r),
                "case %d %s y%d(%g) %.12g, ida %.12g", c, solvers[ls], i, to,
                y[i], r);
        }
      }
      bsim_engine_stats s;
      t->stats(e, &s);
      CHECK(s.jacobian_evals > 0, "jacobian evals %ld", s.jacobian_evals);
      /* colored: Robertson's columns 0 and 2 share rows, as do all
       * others: one color per column, three calls per Jacobian */
      if (ls > 0)
        CHECK(s.jacobian_colors == cases[c].p.n &&
                  s.jacobian_residual_evals ==
                      s.jacobian_colors * s.jacobian_evals,
              "%s: %ld colors, %ld calls for %ld Jacobians", solvers[ls],
              s.jacobian_colors, s.jacobian_residual_evals, s.jacobian_evals);
      fprintf(stderr, "stiff case %d: cvode-bdf %s %ld steps\n", c, solvers[ls],
              s.steps);
      t->free(e);
    }
  }
}

/* Restarts keep the Jacobian: Robertson restarted 100 times to t = 20
 * (reinit with y as it stands, as the scheduler's cold restart does) with
 * klu (colored differences over the pattern). A fresh J at each restart
 * makes 100 or more; the J of before the event, marked stale, serves
 * until it is 50 steps old (over restarts, as CVODE's own rule) or Newton
 * fails on it: 31 seen. The answers keep test_stiff's accuracy against
 * IDA at rtol 1e-10. */
static void test_restart_keeps_jacobian(void) {
  const bsim_engine_type *t = bsim_engine_find("cvode-bdf");
  static const int cp[] = {0, 2, 5, 7}, ri[] = {0, 1, 0, 1, 2, 0, 1};
  bsim_problem p = {.n = 3,
                    .id = ones,
                    .residual = robertson_res,
                    .ode_form = 1,
                    .pattern_colptr = cp,
                    .pattern_rowidx = ri};
  enum { N = 100 };
  double touts[N], ref[3 * N], y[3] = {1, 0, 0}, yp[3], tret;
  for (int k = 0; k < N; k++)
    touts[k] = 0.2 * (k + 1);
  reference(&p, y, touts, N, ref);
  const char *pn[] = {"linear-solver"}, *pv[] = {"klu"};
  char err[512];
  bsim_engine *e =
      make("cvode-bdf", &p, 1e-8, 1e-14, pn, pv, 1, 0, y, err, sizeof err);
  CHECK(e != NULL, "%s", err);
  if (!e) return;
  double worst = 0;
  for (int k = 0; k < N; k++) {
    CHECK(t->advance(e, touts[k], &tret, y, yp) == BSIM_ADV_OK, "%s",
          t->last_error(e));
    for (int i = 0; i < 3; i++)
      worst = fmax(worst, fabs(y[i] - ref[3 * k + i]) / fabs(ref[3 * k + i]));
    CHECK(t->reinit(e, tret, y, yp) == 0, "%s", t->last_error(e));
  }
  bsim_engine_stats s;
  t->stats(e, &s);
  CHECK(worst <= 1e-6, "restarted Robertson: worst relative %.3g", worst);
  CHECK(s.jacobian_evals < N / 2, "%ld Jacobians over %d restarts",
        s.jacobian_evals, N);
  fprintf(stderr,
          "restarted Robertson: %ld Jacobians, %ld steps, %ld f, %ld nni, "
          "%ld ncf, %ld etf, %.2e\n",
          s.jacobian_evals, s.steps, s.residual_evals, s.nonlinear_iterations,
          s.nonlinear_conv_failures, s.error_test_failures, worst);
  t->free(e);
}

/* CVODE locates roots to ~100 * unit roundoff * (|t| + |h|): 1e-10 is far
 * looser. The second function only crosses at 0.25 if y' = f reaches it. */
static void test_roots(const char *name) {
  const bsim_engine_type *t = bsim_engine_find(name);
  int gdir[2] = {0, 1};
  bsim_problem p = {.n = 1,
                    .id = ones,
                    .ng = 2,
                    .gdir = gdir,
                    .residual = ramp_res,
                    .roots = ramp_roots2,
                    .ode_form = 1};
  double y = 0, yp = 1, tret;
  char err[512];
  bsim_engine *e =
      make(name, &p, 1e-8, 1e-10, NULL, NULL, 0, 0, &y, err, sizeof err);
  CHECK(e != NULL, "%s: %s", name, err);
  if (!e) return;
  CHECK(t->calc_ic(e, 1.0, &y, &yp) == 0 && yp == 1.0, "%s", t->last_error(e));
  bsim_adv_status st = t->advance(e, 1.0, &tret, &y, &yp);
  int dir[2] = {9, 9};
  CHECK(st == BSIM_ADV_ROOT && fabs(tret - 0.25) <= 1e-10, "%s %d t %.17g",
        name, st, tret);
  CHECK(t->roots_found(e, dir) == 0 && dir[0] == 0 && dir[1] == 1,
        "%s dirs %d %d", name, dir[0], dir[1]);
  st = t->advance(e, 1.0, &tret, &y, &yp);
  CHECK(st == BSIM_ADV_ROOT && fabs(tret - 0.5) <= 1e-10, "%s %d t %.17g", name,
        st, tret);
  CHECK(fabs(y - 0.5) <= 1e-10, "%s y %.17g", name, y);
  CHECK(t->roots_found(e, dir) == 0 && dir[0] == 1 && dir[1] == 0,
        "%s dirs %d %d", name, dir[0], dir[1]);
  /* Cold restart at the root; statistics keep counting across it. */
  bsim_engine_stats before, after;
  t->stats(e, &before);
  CHECK(t->reinit(e, tret, &y, &yp) == 0, "%s", t->last_error(e));
  CHECK(t->calc_ic(e, 1.0, &y, &yp) == 0, "%s", t->last_error(e));
  st = t->advance(e, 1.0, &tret, &y, &yp);
  CHECK(st == BSIM_ADV_OK && tret == 1.0 && fabs(y - 1) <= 1e-8,
        "%s %d t %.17g y %.17g", name, st, tret, y);
  CHECK(t->roots_found(e, dir) == 0 && dir[0] == 0 && dir[1] == 0, "%s", name);
  t->stats(e, &after);
  CHECK(after.steps > before.steps && after.root_evals > before.root_evals,
        "%s steps %ld -> %ld", name, before.steps, after.steps);
  t->free(e);
}

static void test_stop_time(const char *name) {
  const bsim_engine_type *t = bsim_engine_find(name);
  bsim_problem p = {.n = 2, .id = ones, .residual = osc_res, .ode_form = 1};
  double y[2] = {1, 0}, yp[2], tret;
  char err[512];
  bsim_engine *e =
      make(name, &p, 1e-8, 1e-10, NULL, NULL, 0, 0, y, err, sizeof err);
  CHECK(e != NULL, "%s: %s", name, err);
  if (!e) return;
  CHECK(t->set_stop_time(e, 0.3) == 0, "%s", t->last_error(e));
  bsim_adv_status st = t->advance(e, 1.0, &tret, y, yp);
  CHECK(st == BSIM_ADV_TSTOP && tret == 0.3, "%s %d t %.17g: %s", name, st,
        tret, t->last_error(e));
  CHECK(fabs(y[0] - cos(W * 0.3)) <= 1e-6, "%s x %.12g", name, y[0]);
  st = t->advance(e, 0.4, &tret, y, yp);
  CHECK(st == BSIM_ADV_OK && tret == 0.4, "%s %d t %.17g", name, st, tret);
  /* Behind CVODE's internal time but after the last output: still exact. */
  double ts = 0.4 + 1e-9;
  CHECK(t->set_stop_time(e, ts) == 0, "%s", t->last_error(e));
  st = t->advance(e, 1.0, &tret, y, yp);
  CHECK(st == BSIM_ADV_TSTOP && tret == ts, "%s %d t %.17g", name, st, tret);
  CHECK(t->set_stop_time(e, 0.1) == 0, "clear");
  st = t->advance(e, 0.6, &tret, y, yp);
  CHECK(st == BSIM_ADV_OK && tret == 0.6, "%s %d t %.17g", name, st, tret);
  CHECK(t->set_stop_time(e, 0.65) == 0, "%s", t->last_error(e));
  CHECK(t->reinit(e, 0.6, y, yp) == 0, "%s", t->last_error(e));
  st = t->advance(e, 1.0, &tret, y, yp);
  CHECK(st == BSIM_ADV_TSTOP && tret == 0.65, "%s %d t %.17g: %s", name, st,
        tret, t->last_error(e));
  st = t->advance(e, 0.5, &tret, y, yp);
  CHECK(st == BSIM_ADV_ERROR && strstr(t->last_error(e), "back"), "%s %d", name,
        st);
  t->free(e);
}

static void test_failures_and_params(void) {
  char err[512];
  double y[2] = {1, 0}, yp[2], tret;
  bsim_problem p = {.n = 2, .id = ones, .residual = osc_res, .ode_form = 0};
  bsim_engine *e =
      make("cvode-bdf", &p, 1e-6, 1e-8, NULL, NULL, 0, 0, y, err, sizeof err);
  CHECK(e == NULL &&
            strcmp(err, "solver 'cvode-bdf' integrates ODEs only, but the "
                        "diagram has algebraic unknowns (algebraic loops) or "
                        "implicit blocks; use solver \"ida\"") == 0,
        "refusal: %s", err);
  p.ode_form = 1;
  const char *n1[] = {"max-ordr"}, *v1[] = {"3"};
  e = make("cvode-adams", &p, 1e-6, 1e-8, n1, v1, 1, 0, y, err, sizeof err);
  CHECK(e == NULL && strstr(err, "valid parameters: iteration, "
                                 "linear-solver, band-upper, band-lower, "
                                 "jacobian, krylov-dim, preconditioner, "
                                 "max-order, max-steps, init-step, max-step, "
                                 "min-step"),
        "%s", err);
  const char *n2[] = {"max-order"}, *v2[] = {"6"};
  e = make("cvode-bdf", &p, 1e-6, 1e-8, n2, v2, 1, 0, y, err, sizeof err);
  CHECK(e == NULL && strstr(err, "between 1 and 5, not 6"), "%s", err);
  const char *v3[] = {"13"};
  e = make("cvode-adams", &p, 1e-6, 1e-8, n2, v3, 1, 0, y, err, sizeof err);
  CHECK(e == NULL && strstr(err, "between 1 and 12, not 13"), "%s", err);
  const char *n4[] = {"iteration"}, *v4[] = {"functional"};
  e = make("cvode-bdf", &p, 1e-6, 1e-8, n4, v4, 1, 0, y, err, sizeof err);
  CHECK(e == NULL && strstr(err, "newton|fixed-point"), "%s", err);
  const char *n5[] = {"iteration", "linear-solver"},
             *v5[] = {"fixed-point", "band"};
  e = make("cvode-bdf", &p, 1e-6, 1e-8, n5, v5, 2, 0, y, err, sizeof err);
  CHECK(e == NULL && strstr(err, "iteration=newton only"), "%s", err);
  /* klu needs the problem's pattern, and so do automatic band widths */
  const char *n9[] = {"linear-solver"}, *v9[] = {"klu"}, *v10[] = {"band"};
  e = make("cvode-bdf", &p, 1e-6, 1e-8, n9, v9, 1, 0, y, err, sizeof err);
  CHECK(e == NULL && strstr(err, "cvode-bdf: linear-solver=klu needs the "
                                 "system's sparsity pattern"),
        "%s", err);
  e = make("cvode-bdf", &p, 1e-6, 1e-8, n9, v10, 1, 0, y, err, sizeof err);
  CHECK(e == NULL && strstr(err, "hint: set band-upper and band-lower"), "%s",
        err);
  const char *n6[] = {"min-step", "max-step"}, *v6[] = {"0.1", "0.01"};
  e = make("cvode-bdf", &p, 1e-6, 1e-8, n6, v6, 2, 0, y, err, sizeof err);
  CHECK(e == NULL && strstr(err, "min-step"), "%s", err);

  /* Fatal failure: error with CVODE's flag, the time and a hint. */
  bsim_problem f = {.n = 1, .id = ones, .residual = fatal_res, .ode_form = 1};
  e = make("cvode-bdf", &f, 1e-6, 1e-8, NULL, NULL, 0, 0, y, err, sizeof err);
  CHECK(e != NULL, "%s", err);
  if (e) {
    const bsim_engine_type *t = bsim_engine_find("cvode-bdf");
    bsim_adv_status st = t->advance(e, 1.0, &tret, y, yp);
    const char *m = t->last_error(e);
    CHECK(st == BSIM_ADV_ERROR && strstr(m, "CV_RHSFUNC_FAIL") &&
              strstr(m, "hint"),
          "%d: %s", st, m);
    t->free(e);
  }
  /* Too much work names the parameter to raise. */
  const char *n7[] = {"max-steps"}, *v7[] = {"5"};
  e = make("cvode-adams", &p, 1e-8, 1e-10, n7, v7, 1, 0, y, err, sizeof err);
  CHECK(e != NULL, "%s", err);
  if (e) {
    const bsim_engine_type *t = bsim_engine_find("cvode-adams");
    bsim_adv_status st = t->advance(e, 10.0, &tret, y, yp);
    CHECK(st == BSIM_ADV_ERROR && strstr(t->last_error(e), "max-steps"),
          "%d: %s", st, t->last_error(e));
    t->free(e);
  }
}

int main(void) {
  for (int i = 0; i < 2; i++) {
    const bsim_engine_type *t = bsim_engine_find(engines[i]);
    CHECK(t && t->needs_ode == 1 && t->nparams == 12, "%s registered",
          engines[i]);
    if (!t) return 1;
    test_oscillator(engines[i], NULL, NULL, 0);
    test_roots(engines[i]);
    test_stop_time(engines[i]);
  }
  /* The other iteration of each, and the band solver (widths given: the
   * problem has no pattern to read them from): same accuracy. */
  const char *nb[] = {"iteration"}, *vb[] = {"fixed-point"};
  test_oscillator("cvode-bdf", nb, vb, 1);
  const char *na[] = {"iteration", "linear-solver", "max-order", "band-upper",
                      "band-lower"},
             *va[] = {"newton", "band", "8", "1", "1"};
  test_oscillator("cvode-adams", na, va, 5);
  test_stiff();
  test_restart_keeps_jacobian();
  test_failures_and_params();
  if (failures) {
    fprintf(stderr, "test_engine_cvode: %d check(s) failed\n", failures);
    return 1;
  }
  return 0;
}
