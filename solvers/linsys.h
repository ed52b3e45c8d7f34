/*
 * The linear solver of a SUNDIALS engine's Newton iteration, shared by IDA
 * and CVODE: the parameters that choose it (one table fragment, so both
 * engines document and check them alike), the band widths read off the
 * diagram's sparsity pattern, the SUNMatrix and SUNLinearSolver, the
 * Jacobian values (solvers/newton_jac.c) copied into the matrix, and the
 * block-Jacobi preconditioner of spgmr. Each engine keeps only thin
 * adapters: its own callback signatures and its Set* calls.
 *
 * Internal to solvers/: not part of the public API.
 */
#ifndef BSIM_SOLVERS_LINSYS_H
#define BSIM_SOLVERS_LINSYS_H

#include <stddef.h>

#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>
#include <sundials/sundials_nvector.h>

#include "solvers/engine.h"
#include "solvers/newton_jac.h"
#include "solvers/params.h"
#include "solvers/precond.h"

enum { LS_DENSE, LS_BAND, LS_KLU, LS_SPGMR };
enum { JAC_AUTO, JAC_FD };
enum { PC_BLOCK_JACOBI, PC_DIAGONAL, PC_NONE };

/* The linear-solver parameters, in this order, consecutive in an engine's
 * table starting at the index it passes below as `first`. */
enum {
  LP_LINSOL,
  LP_BAND_UPPER,
  LP_BAND_LOWER,
  LP_JACOBIAN,
  LP_KRYLOV_DIM,
  LP_PRECOND,
  LP_COUNT
};

/* Their table entries (a brace-enclosed list for an initializer). */
#define BSIM_LINSYS_PARAMS                                                     \
  {"linear-solver", "choice", "dense", "dense|band|klu|spgmr",                 \
   "linear solver of the Newton iteration: dense (small systems), band "       \
   "(unknowns coupled only to near neighbours), klu (sparse LU; large "        \
   "diagrams), spgmr (matrix-free GMRES with a preconditioner; large "         \
   "diagrams whose Jacobian is expensive to factor)"},                         \
      {"band-upper", "int", "-1", NULL,                                        \
       "upper half-bandwidth for linear-solver=band; -1 = from the system's "  \
       "sparsity pattern"},                                                    \
      {"band-lower", "int", "-1", NULL,                                        \
       "lower half-bandwidth for linear-solver=band; -1 = from the system's "  \
       "sparsity pattern"},                                                    \
      {"jacobian", "choice", "auto", "auto|fd",                                \
       "auto: the blocks' analytic Jacobian (flag 10) when every block "       \
       "evaluated during integration provides one, else finite differences "   \
       "(colored over the sparsity pattern for band and klu); fd: always "     \
       "finite differences"},                                                  \
      {"krylov-dim", "int", "5", NULL,                                         \
       "largest Krylov subspace of linear-solver=spgmr (GMRES restarts "       \
       "after that many iterations)"},                                         \
  {                                                                            \
    "preconditioner", "choice", "block-jacobi", "block-jacobi|diagonal|none",  \
        "preconditioner of linear-solver=spgmr: block-jacobi (dense LU of "    \
        "the diagonal blocks of the Newton matrix, one block per diagram "     \
        "block's states or torn signal; diagonal without a sparsity "          \
        "pattern), diagonal (its diagonal), none"                              \
  }

/* Range checks of those parameters, and the pattern that klu and automatic
 * band widths need: 0, or -1 with a message naming the engine. */
int bsim_linsys_check(const bsim_engine_type *t, int first,
                      const bsim_param_value *v, const bsim_problem *p,
                      char *msg, size_t msglen);

typedef struct bsim_linsys {
  int kind; /* LS_* */
  SUNMatrix A;
  SUNLinearSolver ls;
  /* Jacobian values for the matrix or the preconditioner; NULL when the
   * package's own difference quotients fill the matrix */
  bsim_njac *jac;
  bsim_prec *prec;  /* spgmr with a preconditioner */
  int dense_failed; /* no memory for the dense solver's n x n matrix */
} bsim_linsys;

/* Build the matrix and linear solver v asks for (v is the engine's table
 * from `first`) for problem p in form BSIM_NJAC_DAE or _ODE, on vectors
 * like y. The engine then gives L->A and L->ls to its package, installs
 * its Jacobian adapter when L->jac is set and the matrix is not NULL, and
 * its preconditioner adapters when L->prec is set. 0, or -1 when out of
 * memory. */
int bsim_linsys_create(bsim_linsys *L, const bsim_problem *p, int form,
                       const bsim_param_value *v, int first, N_Vector y,
                       SUNContext ctx);
void bsim_linsys_free(bsim_linsys *L);

/* After the engine's setup failed: when it was for want of the dense
 * solver's n x n matrix, say so in msg with the sparse solver as a hint and
 * return 1 (n^2 doubles are what fails first on a large system); else 0. */
int bsim_linsys_explain_failure(const bsim_linsys *L, const char *engine, int n,
                                char *msg, size_t msglen);

/* The last Jacobian values into J: the pattern and values of a sparse
 * matrix, or scattered into a dense or band one (entries outside a band
 * narrower than the pattern are dropped: the band solver would not see
 * them). */
void bsim_linsys_fill(const bsim_linsys *L, SUNMatrix J);

/* Factor the preconditioner P = a I + b J from the last Jacobian values;
 * 0, or 1 when singular. */
int bsim_linsys_prec_setup(bsim_linsys *L, double a, double b);
void bsim_linsys_prec_solve(const bsim_linsys *L, N_Vector r, N_Vector z);

/* What the linear solver adds to an engine's statistics: its Jacobian
 * evaluations (when the package does not count them), the residual calls
 * spent on them, the number of colors. */
void bsim_linsys_stats(const bsim_linsys *L, bsim_engine_stats *st);

#endif
