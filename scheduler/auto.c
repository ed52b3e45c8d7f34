/*
 * The engine `--solver auto` runs with, chosen when the run starts, as
 * Scilab's LSodar chooses between Adams and BDF, and changed once if the
 * run shows the choice was wrong. The rule (docs/solvers.md, "auto"):
 *   - algebraic unknowns or implicit blocks: ida, the one DAE engine;
 *   - an ODE: cvode-bdf when it is stiff, cvode-adams when not; and from
 *     the third event that only changed inputs of linear parts (which
 *     CVODE must restart at, docs/scheduler.md), ida, which carries its
 *     history across such events.
 * Stiff means that the fastest mode of the equations, the spectral radius
 * of df/dy at the start estimated by power iteration on differences of f,
 * decays or turns more than STIFF_MODES times over the run: a non-stiff
 * method (Adams) would then be held by stability to steps far below what
 * accuracy needs for the slow part of the solution. The figure was set on
 * the demos of bench/scilab: Adams ran faster up to some 1100 (Command_bode),
 * BDF faster at 3000 (Van der Pol, mu = 10).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scheduler/run.h"
#include "solvers/engine.h"

enum { POWER_ITERATIONS = 24 };
static const double STIFF_MODES = 2000;
/* events carried by ida that CVODE restarted at before auto switches */
enum { SWITCH_AFTER = 3 };

static double norm2(const double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += v[i] * v[i];
  return sqrt(s);
}

/* The spectral radius of df/dy at (t, y) by power iteration with
 * Jacobian-vector products taken by differences; the largest of the last
 * ratios, since a complex pair makes them oscillate. -1 when f failed. */
static double spectral_radius(run_state *r) {
  int n = r->p->ny;
  double *f0 = malloc(sizeof(double) * 4 * (size_t)n);
  if (!f0) return -1;
  double *v = f0 + n, *yv = v + n, *fv = yv + n, rho = 0;
  double ynorm = norm2(r->y, n);
  int rc = bsim_run_rhs(r, r->y, f0);
  for (int i = 0; i < n; i++)
    v[i] = 1.0 + 0.5 * sin(1.0 + i);
  for (int k = 0; rc == 0 && k < POWER_ITERATIONS; k++) {
    double vn = norm2(v, n);
    if (vn == 0) break;
    double eps = sqrt(DBL_EPSILON) * fmax(1.0, ynorm) / vn;
    for (int i = 0; i < n; i++)
      yv[i] = r->y[i] + eps * v[i];
    rc = bsim_run_rhs(r, yv, fv);
    for (int i = 0; i < n; i++)
      v[i] = (fv[i] - f0[i]) / eps; /* J v */
    double jn = norm2(v, n);
    if (k >= POWER_ITERATIONS - 8) rho = fmax(rho, jn / vn);
    for (int i = 0; jn > 0 && i < n; i++)
      v[i] /= jn; /* keep v of unit size */
  }
  free(f0);
  return rc == 0 ? rho : -1;
}

const bsim_engine_type *bsim_run_auto_engine(run_state *r, char *why,
                                             size_t len) {
  const bsim_plan *p = r->p;
  const bsim_library *lib = r->s->flat->lib;
  if (!p->ode_form) {
    snprintf(why, len, "algebraic unknowns or implicit blocks: a DAE");
    return bsim_library_engine_find(lib, "ida");
  }
  double rho = spectral_radius(r), span = r->s->tf - r->s->t0;
  if (rho < 0) {
    snprintf(why, len, "an ODE whose equations failed at the start");
    return bsim_library_engine_find(lib, "cvode-bdf");
  }
  int stiff = rho * span > STIFF_MODES;
  snprintf(why, len, "an ODE, %s: fastest mode %.3g/s over %.3g s",
           stiff ? "stiff" : "not stiff", rho, span);
  return bsim_library_engine_find(lib, stiff ? "cvode-bdf" : "cvode-adams");
}

void bsim_run_auto_carriable(run_state *r) {
  if (++r->auto_carriable < SWITCH_AFTER || !r->eng) return;
  const bsim_engine_type *ida =
      bsim_library_engine_find(r->s->flat->lib, "ida");
  if (!ida || r->s->engine == ida) return;
  bsim_engine_stats st = {0};
  r->s->engine->stats(r->eng, &st);
  r->banked.steps += st.steps;
  r->banked.residual_evals += st.residual_evals;
  r->banked.jacobian_evals += st.jacobian_evals;
  r->banked.jacobian_residual_evals += st.jacobian_residual_evals;
  r->banked.nonlinear_iterations += st.nonlinear_iterations;
  r->banked.error_test_failures += st.error_test_failures;
  r->s->engine->free(r->eng);
  r->eng = NULL; /* the restart that follows creates ida */
  size_t n = strlen(r->s->solver_why);
  snprintf(r->s->solver_why + n, sizeof r->s->solver_why - n,
           "; ida from t=%.6g on, to carry its history across events that "
           "change inputs of linear parts",
           r->t);
  r->s->engine = ida;
}
