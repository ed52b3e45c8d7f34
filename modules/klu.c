/*
 * The klu module: SUNDIALS' KLU sparse linear solver behind a table
 * (klu.h), so that only a run with linear-solver=klu loads SuiteSparse.
 */
#include <sunlinsol/sunlinsol_klu.h>

#include "modules/klu.h"
#include "modules/module.h"

static const bsim_klu_module klu = {SUNLinSol_KLU};

const void *bsim_module_klu(void) {
  return &klu;
}
