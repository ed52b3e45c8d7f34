/*
 * The constant Jacobian (scheduler/carry_plan.c classifies, jacobian.c
 * keeps it): a diagram whose integrated part is linear with constant
 * coefficients (hybrid/sampled_pi.xml: a CLR plant fed by a held sampled
 * PI; hybrid/sampled_loop.xml, the same with a sine source and a block
 * watching a surface) is classified constant, and its analytic dF/dy
 * evaluated afresh at two unrelated points is the same matrix bit for
 * bit, so keeping the first one is exact; a nonlinear plant
 * (hybrid/sampled_loop_nl.xml, x' = u - x - x^3) is not classified constant,
 * and its matrix does change between the points (the comparison can fail). A
 * run of cvode-bdf restarting at every sample (carrying off) gives
 * bit-identical records with the kept matrix and with the classification
 * switched off. Carrying, the kept matrix also gives the carry's higher terms
 * J^m d as products instead of differences of f: the records agree with the
 * differences' within rounding.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocksim/blocksim.h"
#include "scheduler/sim.h"

#ifndef BSIM_TEST_DATA
#error "BSIM_TEST_DATA must name the tests/data folder"
#endif

#include "tests/unit/test_check.h"
#include "tests/unit/test_library.h"

static bsim_sim *load(const char *file, const char *solver, int keep, int carry,
                      bsim_diagram **d) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", BSIM_TEST_DATA, file);
  bsim_error err;
  bsim_error_clear(&err);
  *d = bsim_diagram_load(path, test_library(), &err);
  bsim_options o;
  bsim_options_init(&o);
  o.solver = solver;
  o.no_carry = !carry;
  bsim_sim *s = *d ? bsim_sim_create(*d, &o, &err) : NULL;
  CHECK(s != NULL, "%s: %s", file, err.message);
  /* the plan is the sim's own: switching the classification off here
   * affects this run only */
  if (s && !keep) ((bsim_plan *)s->plan)->jac_constant = 0;
  if (s) CHECK(bsim_sim_run(s, &err) == 0, "%s: %s", file, err.message);
  return s;
}

/* dF/dy (cj = 0) at a point made from seed, evaluated afresh */
static int jacobian_at(bsim_sim *s, double seed, double *values) {
  const bsim_plan *p = s->plan;
  double *y = calloc((size_t)p->ny + 1, sizeof(double));
  double *yp = calloc((size_t)p->ny + 1, sizeof(double));
  for (int i = 0; i < p->ny; i++)
    y[i] = seed * (1.0 + 0.5 * i);
  bsim_run_jacobian_forget(s->run);
  int rc = bsim_run_jacobian(0.3 * seed, y, yp, 0.0, values, s->run);
  free(y);
  free(yp);
  return rc;
}

static void check_matrix(const char *file, int want_constant) {
  bsim_diagram *d = NULL;
  bsim_sim *s = load(file, "cvode-bdf", 1, 1, &d);
  if (!s) {
    bsim_diagram_free(d);
    return;
  }
  const bsim_plan *p = s->plan;
  CHECK(p->jac_constant == want_constant, "%s: classified %s", file,
        p->jac_constant ? "constant" : "not constant");
  size_t nnz = (size_t)p->pat_colptr[p->ny];
  double *a = calloc(nnz + 1, sizeof(double));
  double *b = calloc(nnz + 1, sizeof(double));
  CHECK(jacobian_at(s, 0.7, a) == BSIM_CB_OK &&
            jacobian_at(s, -2.9, b) == BSIM_CB_OK,
        "%s: Jacobian failed", file);
  int same = memcmp(a, b, sizeof(double) * nnz) == 0;
  CHECK(same == want_constant, "%s: the matrix %s between two points", file,
        same ? "stays the same" : "changes");
  free(a);
  free(b);
  bsim_sim_free(s);
  bsim_diagram_free(d);
}

/* The records of a run with the kept matrix and of one with the
 * classification switched off: bit-identical when tol is 0, else within
 * tol of each column's peak. */
static void compare_runs(const char *file, int carry, double tol) {
  bsim_diagram *d1 = NULL, *d2 = NULL;
  bsim_sim *kept = load(file, "cvode-bdf", 1, carry, &d1);
  bsim_sim *fresh = load(file, "cvode-bdf", 0, carry, &d2);
  if (kept && fresh) {
    size_t rows = bsim_result_rows(kept), cols = bsim_result_cols(kept);
    CHECK(rows > 10 && rows == bsim_result_rows(fresh) &&
              cols == bsim_result_cols(fresh),
          "%s: results of %zu x %zu and %zu x %zu", file, rows, cols,
          bsim_result_rows(fresh), bsim_result_cols(fresh));
    if (rows == bsim_result_rows(fresh) && cols == bsim_result_cols(fresh)) {
      const double *a = bsim_result_data(kept), *b = bsim_result_data(fresh);
      CHECK(memcmp(bsim_result_times(kept), bsim_result_times(fresh),
                   sizeof(double) * rows) == 0,
            "%s: the kept Jacobian changes the times", file);
      for (size_t c = 0; c < cols; c++) {
        double peak = 0, diff = 0;
        for (size_t i = 0; i < rows; i++) {
          peak = fmax(peak, fabs(a[i * cols + c]));
          diff = fmax(diff, fabs(a[i * cols + c] - b[i * cols + c]));
        }
        CHECK(tol == 0 ? diff == 0 : diff <= tol * peak,
              "%s (carry %d): the kept Jacobian moves column %zu by %.3g of "
              "its peak %.3g",
              file, carry, c, diff / (peak > 0 ? peak : 1), peak);
      }
    }
  }
  bsim_sim_free(kept);
  bsim_sim_free(fresh);
  bsim_diagram_free(d1);
  bsim_diagram_free(d2);
}

int main(void) {
  check_matrix("hybrid/sampled_pi.xml", 1);
  /* the same with a sine, and a surface watched by NEGTOPOS_f, which
   * has no outputs: still constant */
  check_matrix("hybrid/sampled_loop.xml", 1);
  check_matrix("hybrid/sampled_loop_nl.xml", 0);

  /* the run: kept matrix against evaluations at every restart */
  compare_runs("hybrid/sampled_pi.xml", 0, 0.0);
  /* carried: products against differences. They differ by rounding in
   * the carried terms, which moves the step-size controller's choices a
   * little: the runs then differ by about their global errors, a few
   * times rtol (1e-10 of the peak at rtol 1e-11 seen). 100 rtol. */
  compare_runs("hybrid/sampled_pi.xml", 1, 100 * 1e-11);
  compare_runs("hybrid/sampled_loop.xml", 1, 100 * 1e-8);
  return failures ? 1 : 0;
}
