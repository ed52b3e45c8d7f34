/*
 * The flat residual (scheduler/kernel.c, kernel_lean.c) against the
 * blocks' own functions: at points away from any zero, the residual, the
 * outputs of the full program and the derivatives must equal what the
 * generic path (every block through its function) gives, up to rounding
 * (1e-13 relative: the rows sum the same products in another order). One
 * diagram with a torn loop, matrices, MUX/DEMUX and nonlinear blocks
 * (solvers/jac_nonlinear.xml: lean program plus the generic tail), one
 * without loops (hybrid/sampled_loop.xml: the one-function residual). In
 * the latter the sine reaches the plant only through the sampled PI and
 * the hold: the full program calls it, the residual's must not. And one
 * whose first rows have no terms (solvers/zero_rows.xml).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocksim/blocksim.h"
#include "scheduler/kernel.h"
#include "scheduler/sim.h"

#ifndef BSIM_TEST_DATA
#error "BSIM_TEST_DATA must name the tests/data folder"
#endif

#include "tests/unit/test_check.h"
#include "tests/unit/test_library.h"

static double rel_diff(const double *a, const double *b, size_t n) {
  double worst = 0;
  for (size_t i = 0; i < n; i++)
    worst = fmax(worst, fabs(a[i] - b[i]) / (1.0 + fabs(b[i])));
  return worst;
}

/* residual and outputs at (t, y, yp), with the run's flat program or
 * without it (every block through its function) */
static int eval(bsim_run *x, int flat, double t, const double *y,
                const double *yp, double *res, double *outs) {
  struct bsim_run_kernel *k = x->kern;
  if (!flat) x->kern = NULL;
  int rc = bsim_run_residual(t, y, yp, res, x);
  bsim_run_bind(x, t, y, yp, NULL, BSIM_PHASE_CONTINUOUS);
  if (rc == BSIM_CB_OK) rc = bsim_run_outputs(x, 0);
  memcpy(outs, x->outbufs, sizeof(double) * x->plan->noutbuf);
  x->kern = k;
  return rc;
}

/* Blocks the program evaluates through their function. */
static int calls(const kprog *g) {
  int n = 0;
  for (int s = 0; s < g->nseg; s++)
    n += g->seg[s].call != NULL;
  return n;
}

/* lean_calls: the calls the residual's program must make (-1: any). */
static void check_diagram(const char *file, int want_torn, int lean_calls) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", BSIM_TEST_DATA, file);
  bsim_error err;
  bsim_error_clear(&err);
  bsim_diagram *d = bsim_diagram_load(path, test_library(), &err);
  bsim_options o;
  bsim_options_init(&o);
  o.final_time = 0.5;
  bsim_sim *s = d ? bsim_sim_create(d, &o, &err) : NULL;
  CHECK(s && bsim_sim_run(s, &err) == 0, "%s: %s", file, err.message);
  if (!s) {
    bsim_diagram_free(d);
    return;
  }
  bsim_run *x = s->run;
  const bsim_plan *p = s->plan;
  CHECK(x->kern != NULL, "%s: no flat program after a run", file);
  CHECK((p->ntorn > 0) == want_torn, "%s: %d torn signals", file, p->ntorn);
  if (x->kern) {
    /* linear blocks became rows, and the residual's own program is no
     * larger than the full one */
    CHECK(x->kern->full.nrows > 0, "%s: no linear rows", file);
    CHECK(x->kern->lean.nterms <= x->kern->full.nterms + 4 * p->ny,
          "%s: lean program has %d terms, full %d", file, x->kern->lean.nterms,
          x->kern->full.nterms);
    CHECK(lean_calls < 0 || (calls(&x->kern->lean) == lean_calls &&
                             calls(&x->kern->full) > lean_calls),
          "%s: the residual calls %d blocks (want %d), the full program %d",
          file, calls(&x->kern->lean), lean_calls, calls(&x->kern->full));
  }
  int n = p->ny;
  size_t no = p->noutbuf;
  double *y = calloc((size_t)n, sizeof(double));
  double *yp = calloc((size_t)n, sizeof(double));
  double *r1 = calloc((size_t)n, sizeof(double));
  double *r2 = calloc((size_t)n, sizeof(double));
  double *o1 = calloc(no, sizeof(double)), *o2 = calloc(no, sizeof(double));
  for (int pt = 0; pt < 5 && x->kern; pt++) {
    for (int i = 0; i < n; i++) {
      y[i] = 0.4 + 0.37 * sin(1.3 * i + 0.7 * pt + 0.2);
      yp[i] = 0.1 * cos(2.1 * i + pt);
    }
    double t = 0.1 + 0.05 * pt;
    int a = eval(x, 1, t, y, yp, r1, o1), b = eval(x, 0, t, y, yp, r2, o2);
    CHECK(a == BSIM_CB_OK && b == BSIM_CB_OK, "%s: residual failed", file);
    double dr = rel_diff(r1, r2, (size_t)n), dout = rel_diff(o1, o2, no);
    CHECK(dr <= 1e-13, "%s point %d: residuals differ by %.3g", file, pt, dr);
    CHECK(dout <= 1e-13, "%s point %d: outputs differ by %.3g", file, pt, dout);
    /* the residual after the outputs alone (analysis evaluates those
     * itself): the full program's tail */
    bsim_run_bind(x, t, y, yp, r1, BSIM_PHASE_CONTINUOUS);
    bsim_run_outputs(x, 1);
    CHECK(bsim_run_residual_tail(x, yp, r1) == BSIM_CB_OK &&
              rel_diff(r1, r2, (size_t)n) <= 1e-13,
          "%s point %d: tail after all outputs differs", file, pt);
  }
  free(y);
  free(yp);
  free(r1);
  free(r2);
  free(o1);
  free(o2);
  bsim_sim_free(s);
  bsim_diagram_free(d);
}

int main(void) {
  check_diagram("solvers/jac_nonlinear.xml", 1, -1);
  check_diagram("hybrid/sampled_loop.xml", 0, 0);
  /* rows before any term (a zero output row): the term table still exists */
  check_diagram("solvers/zero_rows.xml", 0, -1);
  if (failures) fprintf(stderr, "test_kernel: %d failure(s)\n", failures);
  return failures ? 1 : 0;
}
