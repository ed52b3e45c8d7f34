/*
 * IDA's spgmr linear solver and its preconditioners (solvers/precond.c):
 * the 200-lag chain gives the dense trajectory with every preconditioner,
 * and on the engine alone coupled 2 x 2 oscillator blocks exercise the
 * block-Jacobi LU, the analytic-Jacobian path and the fallback to the
 * diagonal without a pattern.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blocksim/blocksim.h"
#include "solvers/engine.h"

#include "tests/unit/linsol_harness.h"

/* ---- the chain through the whole library -------------------------------- */

enum { NCHAIN = 200 };

static void test_chain(void) {
  bsim_diagram *d = load_generated(write_chain, NCHAIN);
  if (!d) return;
  const char *dn[] = {"linear-solver"}, *dv[] = {"dense"};
  bsim_sim *ref = run_params(d, NULL, 1, dn, dv);
  const char *pcs[] = {"none", "diagonal", "block-jacobi"};
  const char *jacs[] = {"auto", "fd"};
  for (int k = 0; k < 3 && ref; k++)
    for (int a = 0; a < 2; a++) {
      const char *nm[] = {"linear-solver", "preconditioner", "jacobian"};
      const char *val[] = {"spgmr", pcs[k], jacs[a]};
      bsim_sim *s = run_params(d, NULL, 3, nm, val);
      if (!s) continue;
      double worst = max_diff(s, ref);
      /* GMRES stops at IDA's default linear tolerance (0.05 of the Newton
       * tolerance), so Newton corrections differ from a direct solve by a
       * fraction of the local error test; at rtol 1e-10 on values <= 1 the
       * trajectories stay within 1e-7 of each other. */
      CHECK(worst <= 1e-7, "spgmr/%s/%s vs dense: %.3g", pcs[k], jacs[a],
            worst);
      fprintf(stderr,
              "  chain %d, spgmr/%-12s jacobian=%-4s: max |diff to dense| "
              "%.2g, steps %g, residual evals %g, jacobian evals %g\n",
              NCHAIN, pcs[k], jacs[a], worst, sim_stat(s, "steps"),
              sim_stat(s, "residual-evals"), sim_stat(s, "jacobian-evals"));
      if (k > 0)
        CHECK(sim_stat(s, "jacobian-evals") > 0,
              "%s: no preconditioner setup counted", pcs[k]);
      bsim_sim_free(s);
    }
  bsim_sim_free(ref);
  bsim_diagram_free(d);
}

/* ---- the engine alone: 2 x 2 blocks ------------------------------------- */

enum { NOSC = 20, N = 2 * NOSC };

/* Oscillator k: p' = q, q' = -w_k^2 p - 0.2 q + 0.5 p_{k-1}; coupled to its
 * predecessor only, so the 2 x 2 diagonal blocks carry the stiff part. */
static double w2(int k) {
  return 4.0 + k;
}

static int osc_res(double t, const double *y, const double *yp, double *r,
                   void *user) {
  for (int k = 0; k < NOSC; k++) {
    double p = y[2 * k], q = y[2 * k + 1];
    r[2 * k] = yp[2 * k] - q;
    r[2 * k + 1] = yp[2 * k + 1] + w2(k) * p + 0.2 * q;
    if (k > 0) r[2 * k + 1] -= 0.5 * y[2 * k - 2];
  }
  return 0;
}

/* The pattern (column by column, rows sorted) and its exact values. */
static int colptr[N + 1], rowidx[4 * N];

static void osc_pattern(void) {
  int nnz = 0;
  for (int j = 0; j < N; j++) {
    colptr[j] = nnz;
    int k = j / 2;
    rowidx[nnz++] = 2 * k; /* both rows of the own block */
    rowidx[nnz++] = 2 * k + 1;
    if (j % 2 == 0 && k + 1 < NOSC) rowidx[nnz++] = 2 * k + 3;
  }
  colptr[N] = nnz;
}

static int osc_jac(double t, const double *y, const double *yp, double cj,
                   double *v, void *user) {
  (*(int *)user)++;
  for (int j = 0; j < N; j++) {
    int k = j / 2, q = colptr[j];
    if (j % 2 == 0) {
      v[q] = cj;
      v[q + 1] = w2(k);
      if (k + 1 < NOSC) v[q + 2] = -0.5;
    } else {
      v[q] = -1.0;
      v[q + 1] = cj + 0.2;
    }
  }
  return 0;
}

static void test_blocks(void) {
  const bsim_engine_type *ida = bsim_engine_find("ida");
  osc_pattern();
  double id[N], y0[N], yp0[N];
  int groups[N];
  for (int i = 0; i < N; i++) {
    id[i] = 1;
    groups[i] = i / 2;
    y0[i] = i % 2 == 0 ? 1.0 / (1 + i) : 0;
  }
  osc_res(0, y0, (double[N]){0}, yp0, NULL);
  for (int i = 0; i < N; i++)
    yp0[i] = -yp0[i]; /* F(y0, 0) = -f: y'0 = f */
  int jcalls = 0;
  bsim_problem p = {.n = N, .id = id, .residual = osc_res, .user = &jcalls};
  double ref[N], got[N], yp[N], tret;
  /* reference: dense, finite differences */
  const char *n1[] = {"linear-solver"}, *v1[] = {"dense"};
  bsim_engine_settings s1 = {1e-10, 1e-12, n1, v1, 1};
  char msg[1024];
  bsim_engine *e = ida->create(&p, &s1, 0, y0, yp0, msg, sizeof msg);
  CHECK(e != NULL, "dense: %s", msg);
  if (!e) return;
  CHECK(ida->advance(e, 5.0, &tret, ref, yp) == BSIM_ADV_OK, "%s",
        ida->last_error(e));
  ida->free(e);
  /* with the pattern and groups, analytic or FD; without a pattern (the
   * diagonal fallback) */
  for (int c = 0; c < 3; c++) {
    p.pattern_colptr = c < 2 ? colptr : NULL;
    p.pattern_rowidx = c < 2 ? rowidx : NULL;
    p.groups = c < 2 ? groups : NULL;
    p.jacobian = c == 0 ? osc_jac : NULL;
    jcalls = 0;
    const char *n2[] = {"linear-solver", "preconditioner", "krylov-dim"};
    const char *v2[] = {"spgmr", "block-jacobi", "10"};
    bsim_engine_settings s2 = {1e-10, 1e-12, n2, v2, 3};
    e = ida->create(&p, &s2, 0, y0, yp0, msg, sizeof msg);
    CHECK(e != NULL, "spgmr case %d: %s", c, msg);
    if (!e) continue;
    CHECK(ida->advance(e, 5.0, &tret, got, yp) == BSIM_ADV_OK, "case %d: %s", c,
          ida->last_error(e));
    double worst = 0;
    for (int i = 0; i < N; i++)
      worst = fmax(worst, fabs(got[i] - ref[i]));
    bsim_engine_stats st;
    ida->stats(e, &st);
    /* as for the chain: iterative solves at rtol 1e-10, values <= 1 */
    CHECK(worst <= 1e-7, "case %d: max diff to dense %.3g", c, worst);
    CHECK(c != 0 || (jcalls > 0 && jcalls == st.jacobian_evals),
          "analytic Jacobian calls %d, jacobian evals %ld", jcalls,
          st.jacobian_evals);
    fprintf(stderr,
            "  oscillators, spgmr/block-jacobi %s: max diff %.2g, steps %ld, "
            "residual evals %ld, setups %ld\n",
            c == 0   ? "analytic"
            : c == 1 ? "colored FD"
                     : "no pattern",
            worst, st.steps, st.residual_evals, st.jacobian_evals);
    ida->free(e);
  }
}

int main(void) {
  test_chain();
  test_blocks();
  if (failures) fprintf(stderr, "test_spgmr: %d failure(s)\n", failures);
  return failures ? 1 : 0;
}
