/*
 * The engine interface: one ops table per integrator, as SUNDIALS builds its
 * vectors and linear solvers, so that the scheduler drives IDA, CVODE, GSL's
 * steppers, a fixed-step method or a plugin's own integrator the same way.
 * Public so that a plugin can register an engine (bsim_library_add_engine)
 * exactly as the built-in ones are written; docs/extending.md explains the
 * contract of each operation.
 *
 * Engines know equations, not blocks: the problem is F(t, y, y') = 0 with an
 * id vector (1 differential, 0 algebraic) and optional root functions
 * g(t,y,y'). An ODE-only engine forms y' from the same residual (F = y' - f
 * with y' = 0 gives -f).
 */
#ifndef BLOCKSIM_ENGINE_H
#define BLOCKSIM_ENGINE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Return codes of the problem's callbacks, as SUNDIALS signs them. */
enum { BSIM_CB_OK = 0, BSIM_CB_RECOVERABLE = 1, BSIM_CB_FATAL = -1 };

typedef struct bsim_problem {
  int n;            /* size of y */
  const double *id; /* n entries: 1.0 differential, 0.0 algebraic */
  int ng;           /* number of root functions */
  const int *gdir;  /* ng entries: +1 rising only, -1 falling only, 0 both; NULL
                       = both */
  /* F(t, y, y') -> res. Returns BSIM_CB_*. */
  int (*residual)(double t, const double *y, const double *yp, double *res,
                  void *user);
  int (*roots)(double t, const double *y, const double *yp, double *g,
               void *user);
  void *user;
  /* 1 when F = y' - f(t, y) exactly (no algebraic unknowns, no implicit
   * blocks): ODE engines then compute f = -F(t, y, 0). */
  int ode_form;
  /* Structure of dF/dy + dF/dy' in compressed sparse column form (n+1
   * column pointers, then row indices), or NULL when unknown. Sparse and
   * banded linear solvers and colored finite differences use it. */
  const int *pattern_colptr;
  const int *pattern_rowidx;
  /* Optional (NULL = each unknown alone): n entries, the group of each
   * unknown for block-Jacobi preconditioning, e.g. the states of one diagram
   * block. Members of a group are consecutive; ids start at 0 and grow by 1
   * from one group to the next. */
  const int *groups;
  /* Optional (NULL when unavailable, and always NULL without a pattern):
   * J = dF/dy + cj dF/dy' at (t, y, y') computed analytically, one value per
   * pattern entry in the pattern's order (column by column). Returns
   * BSIM_CB_*. Engines use it instead of finite differences. */
  int (*jacobian)(double t, const double *y, const double *yp, double cj,
                  double *values, void *user);
  /* Optional (NULL = all): n entries, 0 for an unknown left out of the
   * local error test because it is derived from the others (the dummy
   * derivatives of an index reduction: the exact derivative of a stiff
   * component is not smooth on the step's scale, and would hold the step
   * to it), 1 otherwise. */
  const char *error_test;
} bsim_problem;

/* Engine settings common to all engines; engine-specific ones come as
 * name=value pairs checked against the engine's parameter table. */
typedef struct bsim_engine_settings {
  double rtol, atol;
  const char *const *param_names; /* nparams entries */
  const char *const *param_values;
  int nparams;
} bsim_engine_settings;

typedef struct bsim_engine_stats {
  long steps, residual_evals, jacobian_evals, nonlinear_iterations,
      error_test_failures, nonlinear_conv_failures, root_evals;
  /* Residual (or right-hand-side) calls spent forming Jacobians by finite
   * differences, included in residual_evals; and the number of groups of
   * columns of a colored finite-difference Jacobian (calls per Jacobian),
   * 0 when none is used. */
  long jacobian_residual_evals, jacobian_colors;
} bsim_engine_stats;

/* Outcome of advance(). */
typedef enum {
  BSIM_ADV_OK = 0,    /* reached tout */
  BSIM_ADV_TSTOP = 1, /* reached the stop time */
  BSIM_ADV_ROOT = 2,  /* a root function crossed zero at *tret */
  BSIM_ADV_ERROR = -1 /* failed; last_error() says why */
} bsim_adv_status;

typedef struct bsim_engine_param {
  const char *name;
  const char *type; /* "int", "real", "choice" */
  const char *default_value;
  const char *choices; /* for "choice": "a|b|c" */
  const char *doc;
} bsim_engine_param;

typedef struct bsim_engine bsim_engine; /* an engine instance, opaque */

typedef struct bsim_engine_type {
  const char *name;
  const char *summary;
  const bsim_engine_param *params;
  int nparams;
  int needs_ode; /* refuses algebraic unknowns */

  /* Create for this problem, with y(t0), y'(t0) as first guess. NULL on error
   * with a message in msg. */
  bsim_engine *(*create)(const bsim_problem *p, const bsim_engine_settings *s,
                         double t0, const double *y0, const double *yp0,
                         char *msg, size_t msglen);
  /* Cold restart from (t0, y0, yp0): forget the history. */
  int (*reinit)(bsim_engine *e, double t0, const double *y0, const double *yp0);
  /* Consistent initial values at the current t0, towards tout1; y/yp updated
   * in place. 0 on success, -1 with last_error(). */
  int (*calc_ic)(bsim_engine *e, double tout1, double *y, double *yp);
  /* Do not step past tstop (next critical event); <= current t clears it. */
  int (*set_stop_time)(bsim_engine *e, double tstop);
  /* Integrate towards tout (one-step-at-a-time is the engine's business);
   * on return *tret, y and yp hold the solution there. */
  bsim_adv_status (*advance)(bsim_engine *e, double tout, double *tret,
                             double *y, double *yp);
  /* k-th derivative of the interpolant at t inside the last step. */
  int (*interpolate)(bsim_engine *e, double t, int k, double *dky);
  /* After BSIM_ADV_ROOT: which roots fired (+1 rising, -1 falling, 0). */
  int (*roots_found)(bsim_engine *e, int *dirs);
  /* Totals since create, across cold restarts. */
  void (*stats)(const bsim_engine *e, bsim_engine_stats *st);
  const char *(*last_error)(const bsim_engine *e);
  /* Optional (may be NULL): after a failure, the index of the unknown with
   * the largest weighted local error, or -1; lets messages name the block
   * where the integrator struggled. */
  int (*worst_component)(bsim_engine *e);
  void (*free)(bsim_engine *e);
  /* Optional, both or neither (NULL: every discontinuity is a reinit):
   * going on across a discontinuity of the derivatives of y at t, y itself
   * continuous, without a restart. carry_terms says how many derivatives
   * carry needs (the order of the engine's history), or 0 when it cannot
   * carry at t (its last step did not end exactly at t, or it has no
   * history), and in *h the size of its next step (0 if unknown), by which
   * the caller judges which terms are too small to matter. carry then
   * receives jumps[m], the jump of the (m+1)-th derivative of y at t (n
   * entries each; all zero for a term found negligible), for m < nterms,
   * and corrects its history by the Taylor polynomial they make. 0 on
   * success; otherwise the caller restarts (reinit) as usual. Appeared in
   * ABI 3. */
  int (*carry_terms)(const bsim_engine *e, double t, double *h);
  int (*carry)(bsim_engine *e, double t, int nterms,
               const double *const *jumps);
  /* Optional (ABI 5; needs the two above; NULL: y must be continuous and
   * the last step must end at t): carry, where y itself also jumps at t by
   * dy (n entries; NULL: it does not) and where t may be a root the engine
   * returned inside its last step (carry_terms then answers for that t
   * too). The scheduler offers it only where the part of the system the
   * jumps reach is linear, so that the solution starting from y + dy at t
   * extends backwards exactly: the engine's history becomes that solution
   * on both sides of t, and after a root its own root search goes on from
   * t along it. Same returns as carry. */
  int (*carry_jump)(bsim_engine *e, double t, int nterms, const double *dy,
                    const double *const *jumps);
} bsim_engine_type;

#ifdef __cplusplus
}
#endif
#endif
