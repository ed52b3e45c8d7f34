/*
 * Correcting IDA's history across a discontinuity of the derivatives
 * (solvers/ida_carry.c); internal to solvers/ida.c.
 */
#ifndef BSIM_SOLVERS_IDA_CARRY_H
#define BSIM_SOLVERS_IDA_CARRY_H

/* Most derivatives a history needs: IDA's highest order, 5, plus the
 * correction it keeps beyond it. */
enum { BSIM_IDA_CARRY_MAX = 6 };

/* The number of derivative jumps bsim_ida_carry needs at t, or 0 when the
 * history cannot be carried there (no step yet, or the last step did not
 * end at t). */
int bsim_ida_carry_terms(void *ida_mem, double t);

/* Add to the history the Taylor polynomial at t of the jumps (jumps[m]:
 * the jump of the (m+1)-th derivative, m < nterms). 0, or -1 when nterms
 * is short of bsim_ida_carry_terms. */
int bsim_ida_carry(void *ida_mem, double t, int nterms,
                   const double *const *jumps);

/* Then: the root functions' values at t, from the corrected history. 0,
 * 1 when a watched surface is exactly zero there (restart instead), -1
 * when they failed. */
int bsim_ida_carry_roots(void *ida_mem);

#endif
