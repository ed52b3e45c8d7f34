/*
 * The analytic Jacobian assembled from the blocks' flag 10
 * (scheduler/jacobian.c): equal to colored finite differences entry by
 * entry on a nonlinear diagram with a torn loop, the same trajectories as
 * finite differences with dense and klu for fewer residual calls, and a
 * silent fallback to finite differences when a block cannot give flag 10,
 * and a switched circuit's Jacobian kept per mode.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blocksim/blocksim.h"
#include "scheduler/index.h"
#include "scheduler/sim.h"
#include "solvers/colored_fd.h"
#include "solvers/engine.h"

#ifndef BSIM_TEST_DATA
#error "BSIM_TEST_DATA must name the tests/data folder"
#endif

#include "tests/unit/test_check.h"
#include "tests/unit/test_library.h"

static char data_path[1024];

static bsim_diagram *load(const char *path) {
  bsim_error err;
  bsim_error_clear(&err);
  bsim_diagram *d = bsim_diagram_load(path, test_library(), &err);
  CHECK(d != NULL, "%s: %s", path, err.message);
  return d;
}

static double stat_of(const bsim_sim *s, const char *name) {
  double v;
  const char *n;
  for (size_t i = 0; (n = bsim_stat_at(s, i, &v)) != NULL; i++)
    if (strcmp(n, name) == 0) return v;
  return -1;
}

/* The sim of d with the default options; NULL (reported, d freed)
 * when it cannot be made. */
static bsim_sim *create(bsim_diagram *d) {
  bsim_error err;
  bsim_error_clear(&err);
  bsim_sim *s = bsim_sim_create(d, NULL, &err);
  CHECK(s != NULL, "create: %s", err.message);
  if (!s) bsim_diagram_free(d);
  return s;
}

/* ---- J through the plan against colored finite differences -------------- */

static void test_plan_jacobian(void) {
  bsim_diagram *d = load(data_path);
  if (!d) return;
  bsim_sim *s = create(d);
  if (!s) return;
  const bsim_plan *p = s->plan;
  bsim_run *x = s->run;
  CHECK(p->jac != NULL && p->pat_colptr != NULL,
        "every block has flag 10 but no analytic Jacobian was prepared");
  /* 2 CLSS states, z, v and the torn loop signal */
  CHECK(p->ny == 5 && p->ntorn == 1, "ny %d, ntorn %d", p->ny, p->ntorn);
  if (p->jac && p->ny == 5) {
    int n = p->ny, nnz = p->pat_colptr[n];
    double y[5], yp[5], f0[5], inc[5];
    double *fd = calloc((size_t)nnz, sizeof(double));
    double *an = calloc((size_t)nnz, sizeof(double));
    /* a point away from zeros, so that every product and sine matters */
    for (int i = 0; i < n; i++) {
      y[i] = 0.4 + 0.37 * sin(1.3 * i + 0.2);
      yp[i] = 0.1 * cos(2.1 * i);
      inc[i] = 1e-7 * fmax(1.0, fabs(y[i]));
    }
    const double t = 0.3, cj = 3.7;
    CHECK(bsim_run_residual(t, y, yp, f0, x) == BSIM_CB_OK, "residual");
    bsim_cfd *c = bsim_cfd_create(n, p->pat_colptr, p->pat_rowidx);
    CHECK(c && bsim_cfd_eval(c, bsim_run_residual, x, t, y, yp, f0, cj, inc,
                             fd) == 0,
          "colored FD");
    CHECK(bsim_run_jacobian(t, y, yp, cj, an, x) == BSIM_CB_OK, "analytic: %s",
          x->errs.err.message);
    /* Forward differences with steps 1e-7 on O(1) curvatures: truncation
     * ~5e-8, roundoff ~1e-9; 1e-6 relative (absolute below 1) is safe and
     * still far below any real mistake (a missing term is O(0.1)). */
    double worst = 0;
    int nonzero = 0;
    for (int j = 0; j < n; j++)
      for (int q = p->pat_colptr[j]; q < p->pat_colptr[j + 1]; q++) {
        double e = fabs(an[q] - fd[q]) / fmax(1.0, fabs(an[q]));
        if (e > worst) worst = e;
        if (an[q] != 0) nonzero++;
        CHECK(e <= 1e-6, "J(%d,%d): analytic %.12g, FD %.12g", p->pat_rowidx[q],
              j, an[q], fd[q]);
      }
    fprintf(stderr,
            "  plan Jacobian: %d entries (%d nonzero), max rel diff to FD "
            "%.2g\n",
            nnz, nonzero, worst);
    CHECK(nonzero >= 10, "only %d nonzero entries", nonzero);
    bsim_cfd_free(c);
    free(fd);
    free(an);
  }
  bsim_sim_free(s);
  bsim_diagram_free(d);
}

/* ---- trajectories: jacobian=auto against jacobian=fd --------------------- */

static bsim_sim *run_with(const bsim_diagram *d, const char *linsol,
                          const char *jac) {
  bsim_options o;
  bsim_options_init(&o);
  const char *names[] = {"linear-solver", "jacobian"},
             *values[] = {linsol, jac};
  o.solver_param_names = names;
  o.solver_param_values = values;
  o.nsolver_params = 2;
  bsim_error err;
  bsim_error_clear(&err);
  bsim_sim *s = bsim_sim_create(d, &o, &err);
  if (s && bsim_sim_run(s, &err) != 0) {
    bsim_sim_free(s);
    s = NULL;
  }
  CHECK(s != NULL, "%s/%s: %s", linsol, jac, err.message);
  return s;
}

static void test_trajectories(void) {
  bsim_diagram *d = load(data_path);
  if (!d) return;
  const char *ls[] = {"dense", "klu", "band"};
  for (int k = 0; k < 3; k++) {
    bsim_sim *a = run_with(d, ls[k], "auto"), *f = run_with(d, ls[k], "fd");
    if (a && f) {
      size_t rows = bsim_result_rows(a), cols = bsim_result_cols(a);
      CHECK(rows == bsim_result_rows(f) && cols == bsim_result_cols(f) &&
                rows == 51,
            "%s: shapes", ls[k]);
      const double *va = bsim_result_data(a), *vf = bsim_result_data(f);
      double worst = 0;
      for (size_t i = 0; i < rows * cols && rows == bsim_result_rows(f); i++)
        worst = fmax(worst, fabs(va[i] - vf[i]));
      /* Both solve the same equations at rtol 1e-10, atol 1e-12; only the
       * Newton matrices differ (by ~1e-7 relative), which changes steps,
       * not the solution beyond ~1e-9 on values of size 1. */
      CHECK(worst <= 1e-8, "%s: auto vs fd max diff %.3g", ls[k], worst);
      double ra = stat_of(a, "residual-evals"),
             rf = stat_of(f, "residual-evals");
      double ja = stat_of(a, "jacobian-evals");
      fprintf(stderr,
              "  %-5s: max |auto - fd| %.2g; residual evals auto %g, fd %g; "
              "jacobian evals auto %g\n",
              ls[k], worst, ra, rf, ja);
      CHECK(ra < rf, "%s: analytic run used %g residual calls, FD %g", ls[k],
            ra, rf);
      CHECK(ja > 0, "%s: no Jacobian evaluation counted", ls[k]);
    }
    bsim_sim_free(a);
    bsim_sim_free(f);
  }
  bsim_diagram_free(d);
}

/* The diagram of text, through a file as users give it; NULL (reported)
 * when it does not load. */
static bsim_diagram *load_text(const char *text) {
  char path[] = "/tmp/bsim_test_anjac_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0, "mkstemp");
  if (fd < 0) return NULL;
  FILE *fp = fdopen(fd, "w");
  fputs(text, fp);
  fclose(fp);
  bsim_diagram *d = load(path);
  remove(path);
  return d;
}

/* ---- a block without flag 10: finite differences, silently -------------- */

static void test_fallback(void) {
  /* x' = 1 - x saturated at 0.5 (INTEGRAL_m with satur = 1 opts out of
   * flag 10), then |x| (ABS_VALUE has no flag 10 at all). */
  bsim_diagram *d =
      load_text("<?xml version=\"1.0\"?>\n<diagram name=\"fb\">\n"
                "  <simulation final-time=\"3\" rtol=\"1e-8\"/>\n"
                "  <output samples=\"4\"/>\n"
                "  <block id=\"u\" type=\"CONST_m\"/>\n"
                "  <block id=\"e\" type=\"SUMMATION\"/>\n"
                "  <block id=\"x\" type=\"INTEGRAL_m\"><param name=\"satur\" "
                "value=\"1\"/><param name=\"max\" value=\"0.5\"/><param "
                "name=\"min\" value=\"-1\"/></block>\n"
                "  <link from=\"u:1\" to=\"e:1\"/>\n"
                "  <link from=\"x:1\" to=\"e:2\"/>\n"
                "  <link from=\"e:1\" to=\"x:1\"/>\n"
                "  <observe name=\"x\" signal=\"x:1\"/>\n</diagram>\n");
  if (!d) return;
  bsim_error err;
  bsim_error_clear(&err);
  bsim_sim *s = bsim_sim_create(d, NULL, &err);
  CHECK(s != NULL, "%s", err.message);
  if (s) {
    CHECK(s->plan->jac == NULL, "saturated integrator: analytic Jacobian used");
    CHECK(bsim_sim_run(s, &err) == 0, "run: %s", err.message);
    size_t rows = bsim_result_rows(s);
    /* x reaches 0.5 at ln 2 and is held there: exactly the limit */
    CHECK(rows == 4 && fabs(bsim_result_data(s)[rows - 1] - 0.5) < 1e-12,
          "x(3) = %.15g", rows ? bsim_result_data(s)[rows - 1] : NAN);
    bsim_sim_free(s);
  }
  bsim_diagram_free(d);
}

/* ---- a source of time alone needs no flag 10 ---------------------------- */

/* STEP (no flag 10 of its own) at t = 1 to 1, through SATURATION (upper
 * 0.5) into an integrator: the analytic Jacobian is used, and x(3) =
 * 0.5 (3 - 1) = 1, exact up to the integrator's tolerance (rtol 1e-8: a
 * linear ramp, so 1e-9). */
static void test_time_source(void) {
  bsim_diagram *d =
      load_text("<?xml version=\"1.0\"?>\n<diagram name=\"ts\">\n"
                "  <simulation final-time=\"3\" rtol=\"1e-8\"/>\n"
                "  <output samples=\"4\"/>\n"
                "  <block id=\"u\" type=\"STEP\"/>\n"
                "  <block id=\"s\" type=\"SATURATION\"><param name=\"upper\" "
                "value=\"0.5\"/><param name=\"lower\" value=\"-0.5\"/>"
                "</block>\n"
                "  <block id=\"x\" type=\"INTEGRAL_m\"/>\n"
                "  <link from=\"u:1\" to=\"s:1\"/>\n"
                "  <link from=\"s:1\" to=\"x:1\"/>\n"
                "  <activation from=\"u:1\" to=\"u:1\"/>\n"
                "  <observe name=\"x\" signal=\"x:1\"/>\n</diagram>\n");
  if (!d) return;
  bsim_error err;
  bsim_error_clear(&err);
  bsim_sim *s = bsim_sim_create(d, NULL, &err);
  CHECK(s != NULL, "%s", err.message);
  if (s) {
    CHECK(s->plan->jac != NULL, "STEP: no analytic Jacobian");
    CHECK(bsim_sim_run(s, &err) == 0, "run: %s", err.message);
    size_t rows = bsim_result_rows(s);
    double x3 = rows ? bsim_result_data(s)[rows - 1] : NAN;
    CHECK(rows == 4 && fabs(x3 - 1.0) < 1e-9, "x(3) = %.15g", x3);
    CHECK(stat_of(s, "jacobian-residual-evals") == 0,
          "STEP: %g residual calls for Jacobians",
          stat_of(s, "jacobian-residual-evals"));
    bsim_sim_free(s);
  }
  bsim_diagram_free(d);
}

/* ---- a circuit's Jacobian kept per mode --------------------------------- */

static int block_named(const bsim_plan *p, const char *name) {
  for (int b = 0; b < p->nblocks; b++)
    if (strcmp(p->blocks[b].fb->path, name) == 0) return b;
  return -1;
}

/* A 1 V source charging C = 0.5 F through R = 2 ohm and a Switch (Ron
 * 1e-5, Roff 1e5) that a STEP closes at t = 1. Every part is linear given
 * the switch's mode, so the plan keeps dF/dy and dF/dy' and forms
 * dF/dy + cj dF/dy' from them: the same numbers, bit for bit, as a fresh
 * evaluation, for any cj; another mode gives another matrix; and after
 * the run (the switch closed at t = 1) the kept matrix is the closed
 * one. v(3) against the closed form: 1 - (1 - v(1)) exp(-2 / tau_on),
 * v(1) = 1 - exp(-1 / tau_off) (tau = (R + Rsw) C), within 1e-6
 * (rtol 1e-8 over two decays). */
static void test_kept_per_mode(void) {
  bsim_diagram *d = load_text(
      "<?xml version=\"1.0\"?>\n<diagram name=\"sw\">\n"
      "  <simulation final-time=\"3\" rtol=\"1e-8\" atol=\"1e-10\"/>\n"
      "  <output samples=\"4\"/>\n"
      "  <block id=\"u\" type=\"STEP\"/>\n"
      "  <block id=\"src\" type=\"ConstantVoltage\"><param name=\"V\" "
      "value=\"1\"/></block>\n"
      "  <block id=\"sw\" type=\"Switch\"><param name=\"Ron\" "
      "value=\"1e-5\"/><param name=\"Roff\" value=\"1e5\"/></block>\n"
      "  <block id=\"r\" type=\"Resistor\"><param name=\"R\" "
      "value=\"2\"/></block>\n"
      "  <block id=\"c\" type=\"Capacitor\"><param name=\"C\" "
      "value=\"0.5\"/><param name=\"v\" value=\"0\"/></block>\n"
      "  <block id=\"gnd\" type=\"Ground\"/>\n"
      "  <block id=\"vm\" type=\"VoltageSensor\"/>\n"
      "  <link from=\"u:1\" to=\"sw:1\"/>\n"
      "  <activation from=\"u:1\" to=\"u:1\"/>\n"
      "  <connect a=\"src:p\" b=\"sw:p\"/>\n"
      "  <connect a=\"sw:n\" b=\"r:p\"/>\n"
      "  <connect a=\"r:n\" b=\"c:p\"/>\n"
      "  <connect a=\"c:n\" b=\"gnd:p\"/>\n"
      "  <connect a=\"src:n\" b=\"gnd:p\"/>\n"
      "  <connect a=\"vm:p\" b=\"c:p\"/>\n"
      "  <connect a=\"vm:n\" b=\"c:n\"/>\n"
      "  <observe name=\"v\" signal=\"vm:1\"/>\n</diagram>\n");
  if (!d) return;
  bsim_sim *s = create(d);
  if (!s) return;
  const bsim_plan *p = s->plan;
  bsim_run *x = s->run;
  int sw = block_named(p, "sw");
  CHECK(p->jac != NULL && p->jac_constant && sw >= 0,
        "jac %p, kept per mode %d, switch %d", (void *)p->jac, p->jac_constant,
        sw);
  if (p->jac && p->jac_constant && sw >= 0) {
    int n = p->ny, nnz = p->pat_colptr[n];
    double *y = calloc((size_t)n, sizeof(double));
    double *yp = calloc((size_t)n, sizeof(double));
    double *kept = calloc((size_t)nnz, sizeof(double));
    double *fresh = calloc((size_t)nnz, sizeof(double));
    for (int i = 0; i < n; i++) {
      y[i] = 0.3 + 0.2 * sin(1.7 * i);
      yp[i] = 0.05 * cos(0.9 * i);
    }
    const double cjs[] = {0.0, 3.7, 1e6};
    for (int mode = 0; mode < 2; mode++) {
      x->blocks[sw].b.mode[0] = mode;
      bsim_run_jacobian_forget(x);
      CHECK(bsim_run_jacobian(0.5, y, yp, 1.0, kept, x) == BSIM_CB_OK, "J");
      for (int k = 0; k < 3; k++) {
        CHECK(bsim_run_jacobian(0.5, y, yp, cjs[k], kept, x) == BSIM_CB_OK,
              "kept J");
        bsim_run_jacobian_forget(x);
        CHECK(bsim_run_jacobian(0.5, y, yp, cjs[k], fresh, x) == BSIM_CB_OK,
              "fresh J");
        CHECK(memcmp(kept, fresh, sizeof(double) * (size_t)nnz) == 0,
              "mode %d, cj %g: the kept Jacobian differs from a fresh one",
              mode, cjs[k]);
      }
    }
    double open_sum = 0, closed_sum = 0;
    x->blocks[sw].b.mode[0] = 0;
    bsim_run_jacobian_forget(x);
    bsim_run_jacobian(0.5, y, yp, 3.7, fresh, x);
    for (int q = 0; q < nnz; q++)
      open_sum += fabs(fresh[q]);
    x->blocks[sw].b.mode[0] = 1;
    bsim_run_jacobian(0.5, y, yp, 3.7, kept, x); /* still the open one */
    bsim_run_jacobian_forget(x);
    bsim_run_jacobian(0.5, y, yp, 3.7, fresh, x);
    for (int q = 0; q < nnz; q++)
      closed_sum += fabs(fresh[q]);
    CHECK(fabs(open_sum - closed_sum) > 1e4,
          "modes: |J| %g open, %g closed (Roff - Ron apart)", open_sum,
          closed_sum);
    bsim_error err;
    bsim_error_clear(&err);
    CHECK(bsim_sim_run(s, &err) == 0, "run: %s", err.message);
    /* the run closed the switch at t = 1: what is kept is the closed J */
    bsim_run_jacobian(3.0, y, yp, 3.7, kept, x);
    bsim_run_jacobian_forget(x);
    bsim_run_jacobian(3.0, y, yp, 3.7, fresh, x);
    CHECK(x->blocks[sw].b.mode[0] == 1 &&
              memcmp(kept, fresh, sizeof(double) * (size_t)nnz) == 0,
          "after the switch closed, a stale Jacobian was kept");
    size_t rows = bsim_result_rows(s);
    double toff = (2 + 1e5) * 0.5, ton = (2 + 1e-5) * 0.5;
    double v1 = 1 - exp(-1 / toff), v3 = 1 - (1 - v1) * exp(-2 / ton);
    double got = rows == 4 ? bsim_result_data(s)[3] : NAN;
    CHECK(fabs(got - v3) < 1e-6, "v(3) = %.12g, closed form %.12g", got, v3);
    free(y);
    free(yp);
    free(kept);
    free(fresh);
  }
  bsim_sim_free(s);
  bsim_diagram_free(d);
}

/* A diode rectifier with an RC load: the diode's matrix moves with y,
 * the other components' and the balances' do not. Only the diode's rows
 * are evaluated again (plan jac_nl); formed at one point and asked at
 * another, the matrix is bit for bit the one a fresh evaluation gives
 * there, and the one dF/dy + cj dF/dy' from the full evaluation of
 * bsim_run_jacobian_parts, for three cj. The diode's rows do move between
 * the two points (else the check would hold for a stale matrix too). */
static void test_kept_rows(void) {
  bsim_diagram *d = load_text(
      "<?xml version=\"1.0\"?>\n<diagram name=\"rect\">\n"
      "  <simulation final-time=\"0.02\" rtol=\"1e-8\" atol=\"1e-10\"/>\n"
      "  <output samples=\"3\"/>\n"
      "  <block id=\"src\" type=\"SineVoltage\"><param name=\"V\" "
      "value=\"5\"/><param name=\"freqHz\" value=\"50\"/></block>\n"
      "  <block id=\"dio\" type=\"Diode\"/>\n"
      "  <block id=\"r\" type=\"Resistor\"><param name=\"R\" "
      "value=\"100\"/></block>\n"
      "  <block id=\"c\" type=\"Capacitor\"><param name=\"C\" "
      "value=\"1e-4\"/><param name=\"v\" value=\"0\"/></block>\n"
      "  <block id=\"gnd\" type=\"Ground\"/>\n"
      "  <block id=\"vm\" type=\"VoltageSensor\"/>\n"
      "  <connect a=\"src:p\" b=\"dio:p\"/>\n"
      "  <connect a=\"dio:n\" b=\"r:p\"/>\n"
      "  <connect a=\"dio:n\" b=\"c:p\"/>\n"
      "  <connect a=\"r:n\" b=\"gnd:p\"/>\n"
      "  <connect a=\"c:n\" b=\"gnd:p\"/>\n"
      "  <connect a=\"src:n\" b=\"gnd:p\"/>\n"
      "  <connect a=\"vm:p\" b=\"c:p\"/>\n"
      "  <connect a=\"vm:n\" b=\"c:n\"/>\n"
      "  <observe name=\"v\" signal=\"vm:1\"/>\n</diagram>\n");
  if (!d) return;
  bsim_sim *s = create(d);
  if (!s) return;
  const bsim_plan *p = s->plan;
  bsim_run *x = s->run;
  int dio = block_named(p, "dio");
  CHECK(p->jac != NULL && !p->jac_constant && p->njac_nl == 1 &&
            p->jac_nl[0] == dio,
        "jac %p, constant %d, components evaluated again %d", (void *)p->jac,
        p->jac_constant, p->njac_nl);
  if (p->jac && p->njac_nl == 1) {
    int n = p->ny, nnz = p->pat_colptr[n];
    double *y1 = calloc((size_t)n, sizeof(double));
    double *y2 = calloc((size_t)n, sizeof(double));
    double *yp = calloc((size_t)n, sizeof(double));
    double *kept = calloc((size_t)nnz, sizeof(double));
    double *fresh = calloc((size_t)nnz, sizeof(double));
    double *at1 = calloc((size_t)nnz, sizeof(double));
    double *dfdy = calloc((size_t)nnz, sizeof(double));
    double *dfdyp = calloc((size_t)nnz, sizeof(double));
    for (int i = 0; i < n; i++) {
      y1[i] = 0.3 + 0.2 * sin(1.7 * i);
      y2[i] = 0.5 - 0.4 * cos(0.7 * i);
      yp[i] = 0.05 * cos(0.9 * i);
    }
    const double cjs[] = {0.0, 3.7, 1e6};
    for (int k = 0; k < 3; k++) {
      bsim_run_jacobian_forget(x);
      CHECK(bsim_run_jacobian(0.004, y1, yp, cjs[k], at1, x) == BSIM_CB_OK,
            "J at y1");
      CHECK(bsim_run_jacobian(0.004, y2, yp, cjs[k], kept, x) == BSIM_CB_OK,
            "kept J at y2");
      bsim_run_jacobian_forget(x);
      CHECK(bsim_run_jacobian(0.004, y2, yp, cjs[k], fresh, x) == BSIM_CB_OK,
            "fresh J at y2");
      CHECK(bsim_run_jacobian_parts(0.004, y2, yp, dfdy, dfdyp, x) ==
                BSIM_CB_OK,
            "parts at y2");
      int moved = 0, same = 1;
      for (int q = 0; q < nnz; q++) {
        double full = dfdy[q] + cjs[k] * dfdyp[q];
        same &= memcmp(&kept[q], &full, sizeof full) == 0;
        moved |= at1[q] != kept[q];
      }
      CHECK(memcmp(kept, fresh, sizeof(double) * (size_t)nnz) == 0,
            "cj %g: the kept rows differ from a fresh evaluation", cjs[k]);
      CHECK(same, "cj %g: differs from the full evaluation", cjs[k]);
      CHECK(moved, "cj %g: the diode's rows did not move with y", cjs[k]);
    }
    free(y1);
    free(y2);
    free(yp);
    free(kept);
    free(fresh);
    free(at1);
    free(dfdy);
    free(dfdyp);
  }
  bsim_sim_free(s);
  bsim_diagram_free(d);
}

/* After an index reduction (a capacitor across a voltage source) the
 * reduced system's Newton matrix takes its columns from the blocks'
 * analytic Jacobian of the system before it; the finite differences it
 * took them from before (x->ixjac NULL) agree with it to their own
 * accuracy: within 1e-8 of the matrix's largest entry (differences of
 * step sqrt(eps) are good to about that on linear equations; 1.6e-11
 * seen), at three points and three cj. */
static void test_index_columns(void) {
  char path[1100];
  snprintf(path, sizeof path, "%s/acausal/capacitor_source.xml",
           BSIM_TEST_DATA);
  bsim_diagram *d = load(path);
  if (!d) return;
  bsim_sim *s = create(d);
  if (!s) return;
  const bsim_plan *p = s->plan;
  bsim_run *x = s->run;
  CHECK(p->ix && p->jac && x->ixjac, "index %p, analytic %p, scratch %p",
        (void *)p->ix, (void *)p->jac, (void *)x->ixjac);
  if (p->ix && x->ixjac) {
    int N = p->ny;
    size_t nn = (size_t)N * (size_t)N;
    double *y = calloc((size_t)N, sizeof(double));
    double *yp = calloc((size_t)N, sizeof(double));
    double *an = calloc(nn, sizeof(double)), *fd = calloc(nn, sizeof(double));
    double *keep = x->ixjac, worst = 0, big = 0;
    const double cjs[] = {0.0, 3.7, 1e4};
    for (int pt = 0; pt < 3; pt++) {
      for (int i = 0; i < N; i++) {
        y[i] = 0.3 + 0.2 * sin(1.7 * i + pt);
        yp[i] = 0.05 * cos(0.9 * i - pt);
      }
      for (int k = 0; k < 3; k++) {
        x->ixjac = keep;
        CHECK(bsim_run_index_jacobian(0.01 * pt, y, yp, cjs[k], an, x) ==
                  BSIM_CB_OK,
              "analytic columns");
        x->ixjac = NULL;
        CHECK(bsim_run_index_jacobian(0.01 * pt, y, yp, cjs[k], fd, x) ==
                  BSIM_CB_OK,
              "differences");
        for (size_t e = 0; e < nn; e++) {
          worst = fmax(worst, fabs(an[e] - fd[e]));
          big = fmax(big, fabs(an[e]));
        }
      }
    }
    x->ixjac = keep;
    /* the differentiated rows' shifted evaluations (the source's and the
     * capacitor's rows) run only those components: the residual is bit
     * for bit the one of whole evaluations */
    struct bsim_plan_index *ix = (struct bsim_plan_index *)p->ix;
    CHECK(ix->partial && ix->npcomp > 0, "partial %d over %d components",
          ix->partial, ix->npcomp);
    double *r1 = calloc((size_t)N, sizeof(double));
    double *r2 = calloc((size_t)N, sizeof(double));
    x->tscale = 0.1; /* the run's span, which sets the rows' time step */
    for (int pt = 0; pt < 3; pt++) {
      for (int i = 0; i < N; i++) {
        y[i] = 0.1 - 0.3 * cos(1.1 * i + pt);
        yp[i] = 0.2 * sin(0.7 * i - pt);
      }
      ix->partial = 1;
      CHECK(bsim_run_index_residual(x, 0.013 * pt, y, yp, r1) == BSIM_CB_OK,
            "residual, rows alone");
      ix->partial = 0;
      CHECK(bsim_run_index_residual(x, 0.013 * pt, y, yp, r2) == BSIM_CB_OK,
            "residual, whole evaluations");
      ix->partial = 1;
      int finite = 1;
      for (int i = 0; i < N; i++)
        finite &= isfinite(r1[i]);
      CHECK(finite && memcmp(r1, r2, sizeof(double) * (size_t)N) == 0,
            "point %d: the differentiated rows alone differ", pt);
    }
    free(r1);
    free(r2);
    fprintf(stderr,
            "  index-2 columns: analytic - differences %.3g, largest %.3g\n",
            worst, big);
    CHECK(big > 0 && worst <= 1e-8 * big,
          "index-2 Newton matrix: analytic and differenced columns %.3g "
          "apart (largest entry %.3g)",
          worst, big);
    free(y);
    free(yp);
    free(an);
    free(fd);
  }
  bsim_sim_free(s);
  bsim_diagram_free(d);
}

int main(void) {
  snprintf(data_path, sizeof data_path, "%s/solvers/jac_nonlinear.xml",
           BSIM_TEST_DATA);
  test_plan_jacobian();
  test_trajectories();
  test_fallback();
  test_time_source();
  test_kept_per_mode();
  test_kept_rows();
  test_index_columns();
  if (failures)
    fprintf(stderr, "test_analytic_jacobian: %d failure(s)\n", failures);
  return failures ? 1 : 0;
}
