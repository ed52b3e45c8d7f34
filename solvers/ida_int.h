/*
 * The "ida" engine's instance, shared by solvers/ida.c (life cycle and
 * integration) and solvers/ida_linsol.c (the choice of linear solver and
 * the sparse Jacobian), which would not fit in one readable file.
 *
 * Internal to solvers/: not part of the public API.
 */
#ifndef BSIM_SOLVERS_IDA_INT_H
#define BSIM_SOLVERS_IDA_INT_H

#include <stddef.h>

#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>

#include "solvers/colored_fd.h"
#include "solvers/engine.h"
#include "solvers/params.h"
#include "solvers/sundials_common.h"

/* Indices into ida_params (ida.c); keep both in the same order. */
enum {
  P_LINSOL,
  P_BAND_UPPER,
  P_BAND_LOWER,
  P_MAX_ORDER,
  P_MAX_STEPS,
  P_INIT_STEP,
  P_MAX_STEP,
  P_CALCIC,
  P_SUPPRESS_ALG,
  P_MAX_NONLIN_ITERS,
  P_JACOBIAN,
  P_KRYLOV_DIM,
  P_PRECOND,
  P_COUNT
};
enum { LS_DENSE, LS_BAND, LS_KLU, LS_SPGMR };
enum { JAC_AUTO, JAC_FD };
enum { PC_BLOCK_JACOBI, PC_DIAGONAL, PC_NONE };

/* Block-Jacobi preconditioner (precond.c): dense LU factors of the diagonal
 * blocks of J, one block per group of consecutive unknowns; the diagonal
 * preconditioner is the case of groups of one. */
typedef struct bsim_prec bsim_prec;
/* groups: n entries as bsim_problem.groups, or NULL for groups of one.
 * NULL when out of memory. */
bsim_prec *bsim_prec_create(int n, const int *groups);
void bsim_prec_free(bsim_prec *pc);
/* Factor from J's values in a pattern's order (colptr, rowidx), or, when
 * colptr is NULL, from the n diagonal entries in values. 0, or 1 when a
 * block is singular (IDA then retries with a fresh setup). */
int bsim_prec_setup(bsim_prec *pc, const int *colptr, const int *rowidx,
                    const double *values);
/* z = P^-1 r (z may be r). */
void bsim_prec_solve(const bsim_prec *pc, const double *r, double *z);
enum { IC_YA_YDP, IC_Y, IC_NONE };

struct bsim_engine {
  bsim_sun sun; /* times, stop time, statistics and messages */
  SUNContext ctx;
  void *mem;
  N_Vector y, yp, id, tmp;
  SUNMatrix A;
  SUNLinearSolver ls;
  /* klu: the pattern, its column groups, and the residual calls spent on
   * Jacobians (IDA does not count those made by a user Jacobian) */
  int *colptr, *rowidx;
  bsim_cfd *cfd;
  long jac_res_evals;
  /* the problem's analytic Jacobian when used (else NULL), its values in
   * the pattern's order, and the preconditioner of spgmr */
  int (*jac)(double, const double *, const double *, double, double *, void *);
  double *jvals;
  bsim_prec *prec;
  N_Vector ptmp1, ptmp2; /* scratch of the preconditioner setup */
  int n, ng;
  int (*residual)(double, const double *, const double *, double *, void *);
  int (*roots)(double, const double *, const double *, double *, void *);
  void *user;
  int calcic;
};

/* klu and automatic bandwidths need the problem's pattern: -1 with a
 * message when it is missing or malformed (ida_linsol.c). */
int bsim_ida_check_pattern(const bsim_problem *p, const bsim_param_value *v,
                           char *msg, size_t msglen);
/* Create e->A and e->ls as v asks and attach them to e->mem; an IDA flag
 * (< 0 on failure). */
int bsim_ida_linear_solver(bsim_engine *e, const bsim_problem *p,
                           const bsim_param_value *v);

#endif
