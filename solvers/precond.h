/*
 * The block-Jacobi preconditioner of the spgmr linear solver (precond.c),
 * used by IDA and CVODE alike through solvers/linsys.c.
 *
 * Internal to solvers/: not part of the public API.
 */
#ifndef BSIM_SOLVERS_PRECOND_H
#define BSIM_SOLVERS_PRECOND_H

/* Dense LU factors of the diagonal blocks of a Newton matrix, one block per
 * group of consecutive unknowns; the diagonal preconditioner is the case of
 * groups of one. */
typedef struct bsim_prec bsim_prec;

/* groups: n entries as bsim_problem.groups, or NULL for groups of one.
 * NULL when out of memory. */
bsim_prec *bsim_prec_create(int n, const int *groups);
void bsim_prec_free(bsim_prec *pc);
/* Factor P = a I + b J from J's values in a pattern's order (colptr,
 * rowidx), or, when colptr is NULL, from the n diagonal entries in values.
 * IDA's matrix is J itself (a = 0, b = 1), CVODE's I - gamma J. 0, or 1
 * when a block is singular (the integrator then retries with a fresh
 * setup). */
int bsim_prec_setup(bsim_prec *pc, const int *colptr, const int *rowidx,
                    const double *values, double a, double b);
/* z = P^-1 r (z may be r). */
void bsim_prec_solve(const bsim_prec *pc, const double *r, double *z);

#endif
