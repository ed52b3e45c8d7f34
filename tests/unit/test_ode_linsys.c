/*
 * The Newton matrices of the ODE engines at scale (issue 13): cvode-bdf,
 * cvode-adams with Newton and msbdf take the diagram's sparsity pattern as
 * IDA does. On a chain of lags (a band pattern) and a 2-D diffusion grid
 * (sparse, not band-shaped inside its band), every linear solver must give
 * the dense solution and the closed form, and each finite-difference
 * Jacobian must cost at most one residual call per color plus one — the
 * figures `--stats` prints (jacobian-evals, jacobian-residual-evals,
 * jacobian-colors), read here through bsim_stat_at. First, the shared
 * Newton Jacobian itself: the sign and form each engine gets.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "solvers/newton_jac.h"
#include "tests/unit/linsol_harness.h"

/* ---- the Newton Jacobian (solvers/newton_jac.c) ------------------------- */

enum { NJ = 6 };

/* F = y' - f with f_i = -y_i^3 + sin(y_{i-1}) - 2 y_{i+1}: tridiagonal. */
static double f_of(const double *y, int i) {
  double v = -y[i] * y[i] * y[i];
  if (i > 0) v += sin(y[i - 1]);
  if (i + 1 < NJ) v -= 2 * y[i + 1];
  return v;
}

static int nj_res(double t, const double *y, const double *yp, double *r,
                  void *user) {
  for (int i = 0; i < NJ; i++)
    r[i] = yp[i] - f_of(y, i);
  return 0;
}

/* df/dy entry (i, j), exact. */
static double dfdy(const double *y, int i, int j) {
  return i == j ? -3 * y[i] * y[i] : i == j + 1 ? cos(y[j]) : -2.0;
}

/* The analytic dF/dy + cj dF/dy', in the pattern's order (as the scheduler
 * gives it). */
static int nj_jac(double t, const double *y, const double *yp, double cj,
                  double *v, void *user) {
  const int *cp = user;
  for (int j = 0, q = 0; j < NJ; j++)
    for (int i = j - 1; i <= j + 1; i++)
      if (i >= 0 && i < NJ) v[q++] = -dfdy(y, i, j) + (i == j ? cj : 0);
  return cp[NJ] == 3 * NJ - 2 ? 0 : -1;
}

static void test_newton_jac(void) {
  int cp[NJ + 1], ri[3 * NJ], nnz = 0;
  for (int j = 0; j < NJ; j++) {
    cp[j] = nnz;
    for (int i = j - 1; i <= j + 1; i++)
      if (i >= 0 && i < NJ) ri[nnz++] = i;
  }
  cp[NJ] = nnz;
  double y[NJ], yp[NJ], f[NJ], F[NJ], y0[NJ], ewt[NJ];
  for (int i = 0; i < NJ; i++)
    y[i] = y0[i] = 0.4 + 0.3 * cos(2.0 * i);
  for (int i = 0; i < NJ; i++) {
    f[i] = f_of(y, i);
    yp[i] = 0.5 * i;
    F[i] = yp[i] - f[i];
    ewt[i] = 1e6;
  }
  bsim_problem p = {.n = NJ,
                    .residual = nj_res,
                    .ode_form = 1,
                    .pattern_colptr = cp,
                    .pattern_rowidx = ri,
                    .jacobian = nj_jac,
                    .user = cp};
  const double cj = 4.0;
  /* Forward differences with increments ~1e-8 |y|: truncation ~ 3|y| 1e-8
   * and rounding ~ 1e-16 / 1e-8 leave 1e-6 absolute. */
  for (int form = 0; form < 2; form++)
    for (int analytic = 0; analytic < 2; analytic++) {
      int ode = form == BSIM_NJAC_ODE;
      bsim_njac *j = bsim_njac_create(&p, form, analytic);
      CHECK(j != NULL, "create");
      if (!j) continue;
      int rc = ode ? bsim_njac_ode(j, 0, y, f, 0.01, ewt)
                   : bsim_njac_dae(j, 0, y, yp, cj, F, 0.01, ewt);
      CHECK(rc == 0, "eval %d", rc);
      CHECK(memcmp(y, y0, sizeof y) == 0, "y not restored");
      const double *v = bsim_njac_values(j);
      double worst = 0;
      for (int c = 0; c < NJ; c++)
        for (int q = cp[c]; q < cp[c + 1]; q++) {
          int i = ri[q];
          double want =
              ode ? dfdy(y, i, c) : -dfdy(y, i, c) + (i == c ? cj : 0);
          worst = fmax(worst, fabs(v[q] - want));
        }
      CHECK(worst < 1e-6, "%s %s: max |J - exact| %.3g", ode ? "ode" : "dae",
            analytic ? "analytic" : "fd", worst);
      /* tridiagonal: three colors, one call each, none when analytic */
      CHECK(bsim_njac_colors(j) == (analytic ? 0 : 3) &&
                bsim_njac_residual_evals(j) == (analytic ? 0 : 3) &&
                bsim_njac_evals(j) == 1,
            "%d colors, %ld calls, %ld evaluations", bsim_njac_colors(j),
            bsim_njac_residual_evals(j), bsim_njac_evals(j));
      bsim_njac_free(j);
    }
  /* Without a pattern: the diagonal alone, one call per unknown. */
  p.pattern_colptr = p.pattern_rowidx = NULL;
  bsim_njac *j = bsim_njac_create(&p, BSIM_NJAC_ODE, 1);
  CHECK(j && bsim_njac_ode(j, 0, y, f, 0.01, ewt) == 0, "diagonal");
  if (j) {
    double worst = 0;
    for (int i = 0; i < NJ; i++)
      worst = fmax(worst, fabs(bsim_njac_values(j)[i] - dfdy(y, i, i)));
    CHECK(worst < 1e-6 && bsim_njac_residual_evals(j) == NJ,
          "diagonal: %.3g, %ld calls", worst, bsim_njac_residual_evals(j));
  }
  bsim_njac_free(j);
}

/* One run with solver and up to 4 "key=value" parameters (NULL-ended). */
static bsim_sim *run(const bsim_diagram *d, const char *solver,
                     const char *const *kv) {
  const char *names[4], *values[4];
  char buf[4][64];
  int np = 0;
  for (; np < 4 && kv[np]; np++) {
    snprintf(buf[np], sizeof buf[np], "%s", kv[np]);
    char *eq = strchr(buf[np], '=');
    *eq = '\0';
    names[np] = buf[np];
    values[np] = eq + 1;
  }
  return run_params(d, solver, np, names, values);
}

/* The cost of the Jacobians a run formed by finite differences: at most
 * one residual call per color, plus one when the engine is not handed
 * F(t, y) (msbdf); none at all with the blocks' analytic Jacobian. */
static void check_cost(const bsim_sim *s, const char *what, int analytic,
                       int max_colors) {
  double nj = sim_stat(s, "jacobian-evals");
  double nr = sim_stat(s, "jacobian-residual-evals");
  double nc = sim_stat(s, "jacobian-colors");
  double total = sim_stat(s, "residual-evals");
  CHECK(nj > 0, "%s: no Jacobian formed", what);
  CHECK(nr >= 0 && nr <= total, "%s: %g Jacobian calls of %g", what, nr, total);
  if (analytic) {
    CHECK(nr == 0 && nc == 0, "%s: analytic, yet %g calls, %g colors", what, nr,
          nc);
  } else {
    CHECK(nc >= 1 && nc <= max_colors, "%s: %g colors, want 1..%d", what, nc,
          max_colors);
    CHECK(nr <= (nc + 1) * nj, "%s: %g calls for %g Jacobians of %g colors",
          what, nr, nj, nc);
  }
  fprintf(stderr,
          "  %-34s steps %5g, residual calls %6g, Jacobians %4g, their "
          "calls %5g, colors %g\n",
          what, sim_stat(s, "steps"), total, nj, nr, nc);
}

/* A solver and its parameters; analytic: the blocks' Jacobian is used. */
typedef struct {
  const char *solver, *kv[5];
  int analytic;
} ode_case;

/* Each case against the reference run: the same solution within tol, and
 * Jacobians of at most max_colors colors costing what check_cost allows. */
static void run_cases(const bsim_diagram *d, const bsim_sim *ref,
                      const char *label, const ode_case *cases, size_t n,
                      double tol, int max_colors) {
  for (size_t k = 0; k < n && ref; k++) {
    bsim_sim *s = run(d, cases[k].solver, cases[k].kv);
    if (!s) continue;
    char what[160];
    snprintf(what, sizeof what, "%s %s %s %s", label, cases[k].solver,
             cases[k].kv[0] ? cases[k].kv[0] : "",
             cases[k].kv[0] && cases[k].kv[1] ? cases[k].kv[1] : "");
    double diff = max_diff(s, ref);
    CHECK(diff <= tol, "%s vs dense: %.3g", what, diff);
    check_cost(s, what, cases[k].analytic, max_colors);
    bsim_sim_free(s);
  }
}

/* ---- a chain of lags 1/(s+1) ------------------------------------------- */

enum { NCHAIN = 200 };

static void test_chain(void) {
  bsim_diagram *d = load_generated(write_chain, NCHAIN);
  if (!d) return;
  const char *fd_dense[] = {"linear-solver=dense", "jacobian=fd", NULL};
  bsim_sim *ref = run(d, "cvode-bdf", fd_dense);
  if (ref) {
    /* rtol 1e-10, atol 1e-12 on values <= 1: the global error of this
     * smooth linear chain stays far below 1e-7. */
    double worst = chain_error(ref);
    CHECK(worst < 1e-7, "cvode-bdf dense vs closed form: %.3g", worst);
    /* The dense Jacobian is CVODE's own, one call per column. */
    CHECK(sim_stat(ref, "jacobian-residual-evals") >=
              NCHAIN * sim_stat(ref, "jacobian-evals"),
          "dense: %g calls for %g Jacobians",
          sim_stat(ref, "jacobian-residual-evals"),
          sim_stat(ref, "jacobian-evals"));
  }
  const ode_case cases[] = {
      {"cvode-bdf", {"linear-solver=band", "jacobian=fd"}, 0},
      {"cvode-bdf", {"linear-solver=klu", "jacobian=fd"}, 0},
      {"cvode-bdf", {"linear-solver=klu"}, 1},
      {"cvode-bdf", {"linear-solver=band"}, 1},
      {"cvode-bdf", {"linear-solver=spgmr", "jacobian=fd"}, 0},
      {"cvode-adams",
       {"iteration=newton", "linear-solver=klu", "jacobian=fd"},
       0},
      {"ida", {"linear-solver=band", "jacobian=fd"}, 0},
  };
  /* Another Jacobian changes the step sequence, not the solution beyond
   * the tolerances: 1e-8 at rtol 1e-10 (as IDA's solvers agree). The
   * pattern is lower bidiagonal: two colors (band widths (0, 1)). */
  run_cases(d, ref, "chain", cases, sizeof cases / sizeof cases[0], 1e-8, 2);
  bsim_sim_free(ref);
  bsim_diagram_free(d);
}

/* ---- a 2-D diffusion grid ---------------------------------------------- */

/* u' = D (sum of the 4 neighbours - 4 u) on an m x m grid with zero
 * boundary, each cell an integrator fed by a weighted sum of its
 * neighbours and itself. Started on the lowest mode sin(pi i/(m+1))
 * sin(pi j/(m+1)), it decays as exp(-lambda t) with lambda = 8 D
 * sin^2(pi / (2 (m+1))). */
enum { M = 10 };
static const double DIFF = 10.0;
static const double PI = 3.14159265358979323846;

static int write_grid(FILE *fp, int m) {
  fprintf(fp, "<?xml version=\"1.0\"?>\n<diagram name=\"grid\">\n"
              "  <simulation final-time=\"1\" rtol=\"1e-10\" "
              "atol=\"1e-12\"/>\n  <output samples=\"11\"/>\n");
  for (int i = 1; i <= m; i++)
    for (int j = 1; j <= m; j++) {
      double x0 = sin(PI * i / (m + 1)) * sin(PI * j / (m + 1));
      int nb = (i > 1) + (i < m) + (j > 1) + (j < m);
      fprintf(fp,
              "  <block id=\"c%d_%d\" type=\"INTEGRAL_m\"><param name=\"x0\" "
              "value=\"%.17g\"/></block>\n"
              "  <block id=\"s%d_%d\" type=\"BIGSOM_f\"><param name=\"gains\" "
              "value=\"[",
              i, j, x0, i, j);
      for (int k = 0; k < nb; k++)
        fprintf(fp, "%g;", DIFF);
      fprintf(fp, "%g]\"/></block>\n", -4 * DIFF);
      int port = 1;
      const int di[] = {-1, 1, 0, 0}, dj[] = {0, 0, -1, 1};
      for (int k = 0; k < 4; k++) {
        int a = i + di[k], b = j + dj[k];
        if (a >= 1 && a <= m && b >= 1 && b <= m)
          fprintf(fp, "  <link from=\"c%d_%d:1\" to=\"s%d_%d:%d\"/>\n", a, b, i,
                  j, port++);
      }
      fprintf(fp,
              "  <link from=\"c%d_%d:1\" to=\"s%d_%d:%d\"/>\n"
              "  <link from=\"s%d_%d:1\" to=\"c%d_%d:1\"/>\n",
              i, j, i, j, port, i, j, i, j);
    }
  fprintf(fp,
          "  <observe name=\"corner\" signal=\"c1_1:1\"/>\n"
          "  <observe name=\"centre\" signal=\"c%d_%d:1\"/>\n"
          "  <observe name=\"edge\" signal=\"c%d_%d:1\"/>\n</diagram>\n",
          m / 2, m / 2, m, m / 2);
  return ferror(fp) ? -1 : 0;
}

static double grid_exact(int i, int j, double t) {
  double s = sin(PI / (2.0 * (M + 1)));
  return sin(PI * i / (M + 1)) * sin(PI * j / (M + 1)) *
         exp(-8 * DIFF * s * s * t);
}

static void test_grid(void) {
  bsim_diagram *d = load_generated(write_grid, M);
  if (!d) return;
  const char *fd_dense[] = {"linear-solver=dense", "jacobian=fd", NULL};
  bsim_sim *ref = run(d, "cvode-bdf", fd_dense);
  if (ref) {
    const double *t = bsim_result_times(ref), *v = bsim_result_data(ref);
    size_t rows = bsim_result_rows(ref);
    double worst = 0;
    for (size_t r = 0; r < rows; r++) {
      worst = fmax(worst, fabs(v[r * 3] - grid_exact(1, 1, t[r])));
      worst = fmax(worst, fabs(v[r * 3 + 1] - grid_exact(M / 2, M / 2, t[r])));
      worst = fmax(worst, fabs(v[r * 3 + 2] - grid_exact(M, M / 2, t[r])));
    }
    /* rtol 1e-10 on values <= 1 decaying smoothly: 1e-7 is ample. */
    CHECK(worst < 1e-7, "grid: dense vs closed form %.3g", worst);
  }
  const ode_case cases[] = {
      {"cvode-bdf", {"linear-solver=band", "jacobian=fd"}, 0},
      {"cvode-bdf", {"linear-solver=klu", "jacobian=fd"}, 0},
      {"cvode-bdf", {"linear-solver=klu"}, 1},
      {"cvode-bdf", {"linear-solver=dense"}, 1},
      {"cvode-bdf", {"linear-solver=spgmr"}, 1},
      {"cvode-bdf",
       {"linear-solver=spgmr", "preconditioner=diagonal", "jacobian=fd"},
       0},
      {"ida", {"linear-solver=klu", "jacobian=fd"}, 0},
  };
  /* As for the chain. Greedy coloring never uses more colors than a
   * column has neighbours (columns sharing a row) plus one: 12 + 1 for a
   * 5-point stencil, far below the n = 100 calls of a column-by-column
   * Jacobian or the 21 of the band's own quotients (widths (10, 10)). */
  run_cases(d, ref, "grid", cases, sizeof cases / sizeof cases[0], 1e-8, 13);
  /* msbdf controls its error its own way; 1e-7 is still the closed
   * form's bound. */
  const ode_case gsl[] = {{"msbdf", {"jacobian=fd"}, 0}, {"msbdf", {NULL}, 1}};
  run_cases(d, ref, "grid", gsl, 2, 1e-7, 13);
  bsim_sim_free(ref);
  bsim_diagram_free(d);
}

int main(void) {
  test_newton_jac();
  test_chain();
  test_grid();
  if (failures) fprintf(stderr, "test_ode_linsys: %d failure(s)\n", failures);
  return failures ? 1 : 0;
}
