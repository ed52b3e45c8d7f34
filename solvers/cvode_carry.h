/*
 * Correcting CVODE's history across a discontinuity of the derivatives
 * (solvers/cvode_carry.c); internal to solvers/cvode.c. Available when
 * BSIM_HAVE_CVODE_IMPL is defined (CVODE's private header at hand).
 */
#ifndef BSIM_SOLVERS_CVODE_CARRY_H
#define BSIM_SOLVERS_CVODE_CARRY_H

/* Most derivatives a history holds: Adams' highest order. */
enum { BSIM_CVODE_CARRY_MAX = 12 };

/* The number of derivative jumps bsim_cvode_carry needs at t (the order),
 * or 0 when the history cannot be carried there: no step yet, or the last
 * step did not end at t, unless root is set and t is the root CVODE
 * returned last, inside that step. */
int bsim_cvode_carry_terms(void *cvode_mem, double t, int root);

/* Add to the history the Taylor polynomial at t of the jumps (dy: the
 * jump of y itself, NULL for none; jumps[m]: the jump of the (m+1)-th
 * derivative, m < nterms). 0, or -1 when nterms is short of
 * bsim_cvode_carry_terms or the order is above the maximum. */
int bsim_cvode_carry(void *cvode_mem, double t, int nterms, const double *dy,
                     const double *const *jumps);

/* Then: the root functions' values at t when t ends the last step, from
 * the corrected history. 0, 1 when a watched surface is exactly zero there
 * (restart instead), -1 when they failed. */
int bsim_cvode_carry_roots(void *cvode_mem, double t);

#endif
