/*
 * IDA's linear solvers and the solver-parameter plumbing: colored finite
 * differences against an analytic Jacobian, the refusal of klu/band without
 * a pattern, the same trajectory of a 200-lag chain with dense, band and
 * klu, and solver parameters from the diagram file and from the options.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blocksim/blocksim.h"
#include "solvers/colored_fd.h"
#include "solvers/engine.h"

#ifndef BSIM_TEST_DATA
#error "BSIM_TEST_DATA must name the tests/data folder"
#endif

#include "tests/unit/linsol_harness.h"

/* ---- colored finite differences ---------------------------------------- */

enum { NT = 50 };

/* F_i = (1 + i/10) y'_i + y_i^3 - y_{i-1} + 2 y_{i+1}: tridiagonal. */
static int tri_res(double t, const double *y, const double *yp, double *r,
                   void *user) {
  int *calls = user;
  (*calls)++;
  for (int i = 0; i < NT; i++) {
    r[i] = (1 + i / 10.0) * yp[i] + y[i] * y[i] * y[i];
    if (i > 0) r[i] -= y[i - 1];
    if (i + 1 < NT) r[i] += 2 * y[i + 1];
  }
  return 0;
}

static void test_colored_fd(void) {
  int colptr[NT + 1], rowidx[3 * NT], nnz = 0;
  for (int j = 0; j < NT; j++) {
    colptr[j] = nnz;
    for (int i = j - 1; i <= j + 1; i++)
      if (i >= 0 && i < NT) rowidx[nnz++] = i;
  }
  colptr[NT] = nnz;
  bsim_cfd *c = bsim_cfd_create(NT, colptr, rowidx);
  CHECK(c != NULL, "create");
  if (!c) return;
  /* Tridiagonal: columns j and j+3 never share a row, j and j+1 or j+2 do. */
  CHECK(bsim_cfd_ncolors(c) == 3, "%d groups, want 3", bsim_cfd_ncolors(c));
  double y[NT], yp[NT], y0[NT], yp0[NT], f0[NT], inc[NT], val[3 * NT];
  for (int i = 0; i < NT; i++) {
    y[i] = y0[i] = 0.3 + 0.7 * sin(i);
    yp[i] = yp0[i] = cos(3.0 * i);
    inc[i] = 1e-8 * fmax(1.0, fabs(y[i]));
  }
  int calls = 0;
  tri_res(0, y, yp, f0, &calls);
  const double cj = 7.5;
  calls = 0;
  CHECK(bsim_cfd_eval(c, tri_res, &calls, 0, y, yp, f0, cj, inc, val) == 0,
        "eval");
  CHECK(calls == 3, "%d residual calls for one Jacobian, want 3", calls);
  CHECK(memcmp(y, y0, sizeof y) == 0 && memcmp(yp, yp0, sizeof yp) == 0,
        "y or y' not restored exactly");
  /* Forward differences with steps ~1e-8: truncation ~ 3|y| * 1e-8 and
   * roundoff ~ 1e-16 / 1e-8, so 1e-6 absolute is a safe bound. */
  double worst = 0;
  for (int j = 0; j < NT; j++)
    for (int q = colptr[j]; q < colptr[j + 1]; q++) {
      int i = rowidx[q];
      double want = i == j       ? 3 * y[j] * y[j] + cj * (1 + j / 10.0)
                    : i == j + 1 ? -1.0
                                 : 2.0;
      worst = fmax(worst, fabs(val[q] - want));
    }
  CHECK(worst < 1e-6, "max |J - exact| = %.3g", worst);
  bsim_cfd_free(c);

  /* An arrow (row 0 reads everything): every pair of columns shares row 0,
   * so each column needs its own group. */
  int acp[6], ari[11], an = 0;
  for (int j = 0; j < 5; j++) {
    acp[j] = an;
    ari[an++] = 0;
    if (j > 0) ari[an++] = j;
  }
  acp[5] = an;
  c = bsim_cfd_create(5, acp, ari);
  CHECK(c && bsim_cfd_ncolors(c) == 5, "arrow: %d groups, want 5",
        c ? bsim_cfd_ncolors(c) : -1);
  bsim_cfd_free(c);
  int badrow[] = {0, 7};
  int badptr[] = {0, 1, 2};
  CHECK(bsim_cfd_create(2, badptr, badrow) == NULL, "row 7 of 2 accepted");
}

/* ---- the engine without a pattern --------------------------------------- */

static int decay_res(double t, const double *y, const double *yp, double *r,
                     void *user) {
  r[0] = yp[0] + 0.5 * y[0];
  return 0;
}

static void test_needs_pattern(void) {
  const bsim_engine_type *ida = bsim_engine_find("ida");
  bsim_problem p = {.n = 1, .id = (const double[]){1}, .residual = decay_res};
  double y = 1, yp = -0.5;
  char msg[1024];
  const char *n1[] = {"linear-solver"}, *v1[] = {"klu"};
  bsim_engine_settings s1 = {1e-6, 1e-8, n1, v1, 1};
  bsim_engine *e = ida->create(&p, &s1, 0, &y, &yp, msg, sizeof msg);
  CHECK(e == NULL && strstr(msg, "pattern"), "klu without pattern: %s", msg);
  if (e) ida->free(e);
  const char *v2[] = {"band"};
  bsim_engine_settings s2 = {1e-6, 1e-8, n1, v2, 1};
  e = ida->create(&p, &s2, 0, &y, &yp, msg, sizeof msg);
  CHECK(e == NULL && strstr(msg, "band-upper"), "band without pattern: %s",
        msg);
  if (e) ida->free(e);
  /* With the 1x1 pattern both work. */
  const int cp[] = {0, 1}, ri[] = {0};
  p.pattern_colptr = cp;
  p.pattern_rowidx = ri;
  e = ida->create(&p, &s1, 0, &y, &yp, msg, sizeof msg);
  CHECK(e != NULL, "klu with pattern: %s", msg);
  if (e) {
    double tret;
    CHECK(ida->advance(e, 2.0, &tret, &y, &yp) == BSIM_ADV_OK, "%s",
          ida->last_error(e));
    /* rtol 1e-6 over one time constant: 1e-5 relative is ample */
    CHECK(fabs(y - exp(-1.0)) < 1e-5 * exp(-1.0), "y(2) = %.12g", y);
    ida->free(e);
  }
}

/* ---- a chain of 200 lags, three linear solvers -------------------------- */

enum { NCHAIN = 200 };

static void test_chain(void) {
  bsim_diagram *d = load_generated(write_chain, NCHAIN);
  if (!d) return;
  const char *which[3] = {"dense", "band", "klu"};
  bsim_sim *s[3];
  for (int k = 0; k < 3; k++) {
    /* finite differences: the comparison below is about their cost (the
     * analytic Jacobian has its own test, test_analytic_jacobian.c) */
    const char *names[] = {"linear-solver", "jacobian"},
               *values[] = {which[k], "fd"};
    s[k] = run_params(d, NULL, 2, names, values);
  }
  if (s[0] && s[1] && s[2]) {
    double worst_exact = chain_error(s[0]);
    /* rtol 1e-10, atol 1e-12 on values <= 1: the global error of a smooth
     * linear chain stays far below 1e-7. */
    CHECK(worst_exact < 1e-7, "dense vs closed form: %.3g", worst_exact);
    for (int k = 1; k < 3; k++) {
      double worst = max_diff(s[k], s[0]);
      /* Different Jacobian approximations change IDA's step sequence, not
       * the solution beyond the tolerances: 1e-8 at rtol 1e-10. */
      CHECK(worst <= 1e-8, "%s vs dense: max diff %.3g", which[k], worst);
      fprintf(stderr,
              "  chain %d, %-5s: max |diff to dense| %.2g, steps %g, "
              "residual evals %g\n",
              NCHAIN, which[k], worst, sim_stat(s[k], "steps"),
              sim_stat(s[k], "residual-evals"));
    }
    fprintf(stderr,
            "  chain %d, dense: max |err| %.2g, steps %g, residual "
            "evals %g\n",
            NCHAIN, worst_exact, sim_stat(s[0], "steps"),
            sim_stat(s[0], "residual-evals"));
    /* A dense finite-difference Jacobian costs 200 residual calls, the
     * colored one 2: klu must spend far fewer. */
    CHECK(sim_stat(s[2], "residual-evals") <
              0.5 * sim_stat(s[0], "residual-evals"),
          "klu %g residual evals, dense %g", sim_stat(s[2], "residual-evals"),
          sim_stat(s[0], "residual-evals"));
  }
  for (int k = 0; k < 3; k++)
    bsim_sim_free(s[k]);
  bsim_diagram_free(d);
}

/* ---- solver parameters from the file and from the options --------------- */

static bsim_diagram *load_data(const char *file) {
  char path[1024];
  bsim_error err;
  bsim_error_clear(&err);
  snprintf(path, sizeof path, "%s/solvers/%s", BSIM_TEST_DATA, file);
  bsim_diagram *d = bsim_diagram_load(path, test_library(), &err);
  CHECK(d != NULL, "%s: %s", file, err.message);
  return d;
}

static void test_params(void) {
  bsim_error err;
  bsim_error_clear(&err);
  bsim_diagram *d = load_data("klu_decay.xml");
  if (d) {
    bsim_sim *s = bsim_sim_create(d, NULL, &err);
    CHECK(s && bsim_sim_run(s, &err) == 0, "klu_decay: %s", err.message);
    if (s) {
      size_t rows = bsim_result_rows(s);
      double x = bsim_result_data(s)[rows - 1];
      /* x(2) = e^-1 at rtol 1e-10: 1e-8 relative allows for the global
       * error of 135 steps. */
      CHECK(fabs(x - exp(-1.0)) < 1e-8, "x(2) = %.15g", x);
    }
    bsim_sim_free(s);

    /* The options win per name; a bad name in the options is bad input
     * reported by sim_create, with the valid names. */
    bsim_options o;
    bsim_options_init(&o);
    const char *n[] = {"max-ordr"}, *v[] = {"2"};
    o.solver_param_names = n;
    o.solver_param_values = v;
    o.nsolver_params = 1;
    bsim_error_clear(&err);
    s = bsim_sim_create(d, &o, &err);
    CHECK(s == NULL && err.status == BSIM_ERR_INPUT &&
              strstr(err.message, "max-ordr") &&
              strstr(err.message, "max-order"),
          "[%d] %s", (int)err.status, err.message);
    bsim_sim_free(s);

    const char *n2[] = {"linear-solver"}, *v2[] = {"dense"};
    o.solver_param_names = n2;
    o.solver_param_values = v2;
    bsim_error_clear(&err);
    s = bsim_sim_create(d, &o, &err);
    CHECK(s != NULL, "override: %s", err.message);
    bsim_sim_free(s);

    o.nsolver_params = 0;
    o.solver = "nosuch";
    bsim_error_clear(&err);
    s = bsim_sim_create(d, &o, &err);
    CHECK(s == NULL && err.status == BSIM_ERR_INPUT &&
              strstr(err.message, "nosuch") && strstr(err.message, "ida"),
          "[%d] %s", (int)err.status, err.message);
    bsim_sim_free(s);
    bsim_diagram_free(d);
  }

  d = load_data("bad_param.xml");
  if (d) {
    bsim_error_clear(&err);
    bsim_sim *s = bsim_sim_create(d, NULL, &err);
    CHECK(s == NULL && err.status == BSIM_ERR_INPUT &&
              strstr(err.message, "bad_param.xml:6") &&
              strstr(err.message, "max-order"),
          "[%d] %s", (int)err.status, err.message);
    bsim_sim_free(s);
    bsim_diagram_free(d);
  }
  char path[1024];
  snprintf(path, sizeof path, "%s/solvers/twice.xml", BSIM_TEST_DATA);
  bsim_error_clear(&err);
  d = bsim_diagram_load(path, test_library(), &err);
  CHECK(d == NULL && err.status == BSIM_ERR_INPUT &&
            strstr(err.message, "twice.xml:6") && strstr(err.message, "line 5"),
        "[%d] %s", (int)err.status, err.message);
  bsim_diagram_free(d);

  /* The public listing agrees with the engine table. */
  const char *summary = NULL;
  CHECK(bsim_solver_at(NULL, 0, &summary) &&
            strcmp(bsim_solver_at(NULL, 0, NULL), "ida") == 0 && summary,
        "first solver");
  bsim_solver_param_doc doc;
  CHECK(bsim_solver_param_at(NULL, "ida", 0, &doc) == 0 &&
            strcmp(doc.name, "linear-solver") == 0 &&
            strstr(doc.choices, "klu"),
        "ida parameter 0");
  CHECK(bsim_solver_param_at(NULL, "nosuch", 0, &doc) == -1, "unknown solver");
}

int main(void) {
  test_colored_fd();
  test_needs_pattern();
  test_chain();
  test_params();
  if (failures)
    fprintf(stderr, "test_linear_solvers: %d failure(s)\n", failures);
  return failures ? 1 : 0;
}
