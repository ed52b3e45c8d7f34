/*
 * SUNDIALS' KLU linear solver (solvers/linsys.c, linear-solver=klu) in the
 * klu module (klu.c), so that SuiteSparse loads only for a run that asks
 * for it.
 */
#ifndef BSIM_MODULE_KLU_H
#define BSIM_MODULE_KLU_H

#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>
#include <sundials/sundials_nvector.h>

typedef struct bsim_klu_module {
  SUNLinearSolver (*create)(N_Vector y, SUNMatrix A, SUNContext ctx);
} bsim_klu_module;

#endif
