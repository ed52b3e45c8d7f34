/*
 * The dense linear solver of the SUNDIALS engines (linear-solver=dense):
 * SUNDIALS' dense matrix with an LU factorisation of blocksim's own.
 * Debian's libsundials 6.4.1 is compiled without optimisation, and for the
 * few dozen unknowns of an electrical circuit its denseGETRF/denseGETRS
 * took half of a run (about 28 instructions per multiply-add). GSL's LU
 * (used up to 200 unknowns before) is optimised but made for large
 * matrices: its blocked recursion and CBLAS calls cost 3 600 instructions
 * to factor the 6 x 6 matrix of a sampled controller's plant (150
 * multiply-adds), 470 for each solve with it, and it does all n^3 / 3
 * multiply-adds where elimination by columns skips zero multipliers (a
 * chain or a sparse circuit: most of them).
 *
 * Internal to solvers/: not part of the public API.
 */
#ifndef BSIM_SOLVERS_DENSE_LU_H
#define BSIM_SOLVERS_DENSE_LU_H

#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>

/* A direct solver for the n x n dense matrix A (made by SUNDenseMatrix),
 * whose zero, copy and scale-add-identity operations it also replaces;
 * NULL when out of memory. */
SUNLinearSolver bsim_dense_lu_create(SUNMatrix A, SUNContext ctx);

#endif
