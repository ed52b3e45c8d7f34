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
  P_COUNT
};
enum { LS_DENSE, LS_BAND, LS_KLU };
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
