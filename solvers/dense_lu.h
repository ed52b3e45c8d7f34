/*
 * The dense linear solver of the SUNDIALS engines (linear-solver=dense)
 * for small systems: SUNDIALS' dense matrix with its LU factorisation by
 * GSL instead of SUNDIALS' own. Debian's libsundials 6.4.1 is compiled without
 * optimisation, and for the few dozen unknowns of an electrical circuit
 * its denseGETRF/denseGETRS took half of a run (about 28 instructions per
 * multiply-add); GSL, which every run loads anyway, is optimised.
 *
 * Internal to solvers/: not part of the public API.
 */
#ifndef BSIM_SOLVERS_DENSE_LU_H
#define BSIM_SOLVERS_DENSE_LU_H

#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>

/* Up to this many unknowns. GSL's blocked LU does all of the n^3 / 3
 * multiply-adds, SUNDIALS' skips those of zero multipliers: whole runs of
 * an RC ladder (callgrind) cost 25% fewer instructions with GSL's at 67
 * unknowns, 5% fewer at 187, 12% more at 367 and 48% more at 607. */
#define BSIM_DENSE_LU_MAX 200

/* A direct solver for the n x n dense matrix A (made by SUNDenseMatrix),
 * whose zero, copy and scale-add-identity operations it also replaces;
 * NULL when out of memory. */
SUNLinearSolver bsim_dense_lu_create(SUNMatrix A, SUNContext ctx);

#endif
