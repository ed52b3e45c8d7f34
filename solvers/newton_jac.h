/*
 * The Jacobian a Newton iteration needs, computed the cheapest way the
 * problem allows: the blocks' analytic Jacobian (bsim_problem.jacobian), or
 * colored finite differences over the diagram's sparsity pattern, or,
 * without a pattern, the diagonal alone. One module for every implicit
 * engine (IDA, CVODE, GSL's msbdf), which differ only in the matrix they
 * want: IDA's dF/dy + cj dF/dy', and the ODE engines' df/dy of
 * f = -F(t, y, 0).
 *
 * Plain C (no SUNDIALS types), so that GSL's engine uses it too; the
 * SUNDIALS matrices and linear solvers built on it are in linsys.c.
 *
 * Internal to solvers/: not part of the public API.
 */
#ifndef BSIM_SOLVERS_NEWTON_JAC_H
#define BSIM_SOLVERS_NEWTON_JAC_H

#include "solvers/engine.h"

typedef struct bsim_njac bsim_njac;

/* Which matrix: IDA's J = dF/dy + cj dF/dy', or df/dy of an ODE whose
 * right-hand side is f = -F(t, y, 0) (bsim_problem.ode_form). */
enum { BSIM_NJAC_DAE, BSIM_NJAC_ODE };

/* For problem p (its pattern and residual are copied or referenced; p's
 * callbacks and user pointer must outlive the result). With a pattern the
 * values follow it, from p->jacobian when analytic is 1 and p gives one,
 * else from colored finite differences; without a pattern only the
 * diagonal is computed (one residual call per unknown). NULL when out of
 * memory or the pattern is malformed. */
bsim_njac *bsim_njac_create(const bsim_problem *p, int form, int analytic);
void bsim_njac_free(bsim_njac *j);

/* IDA's matrix at (t, y, yp) with F0 = F(t, y, yp); h is the current step
 * and ewt the error weights (NULL: none), which size the increments.
 * y and yp are perturbed and restored bit for bit. 0, 1 (recoverable: a
 * residual failed or gave NaN) or -1 (fatal). */
int bsim_njac_dae(bsim_njac *j, double t, double *y, double *yp, double cj,
                  const double *F0, double h, const double *ewt);
/* df/dy at (t, y) with f = f(t, y); the same conventions. */
int bsim_njac_ode(bsim_njac *j, double t, double *y, const double *f, double h,
                  const double *ewt);

/* The values of the last evaluation: one per pattern entry in the
 * pattern's order, or the n diagonal entries without a pattern. */
const double *bsim_njac_values(const bsim_njac *j);
/* The pattern (column pointers, row indices), NULL when there is none. */
const int *bsim_njac_colptr(const bsim_njac *j);
const int *bsim_njac_rowidx(const bsim_njac *j);

/* Residual calls per Jacobian of the colored finite differences (0 when
 * the analytic Jacobian is used or there is no pattern). */
int bsim_njac_colors(const bsim_njac *j);
/* Totals since create: evaluations, and residual calls spent on them. */
long bsim_njac_evals(const bsim_njac *j);
long bsim_njac_residual_evals(const bsim_njac *j);

/* The values scaled by s into a row-major n x n matrix (zeros elsewhere). */
void bsim_njac_dense_rows(const bsim_njac *j, double s, double *a);

#endif
