/*
 * The lapack module: LAPACK's eigensolvers for MATEIG, behind a table
 * (lapack.h), so that only a diagram with a MATEIG loads LAPACK, BLAS and
 * the Fortran runtime.
 */
#include "modules/lapack.h"
#include "modules/module.h"

extern void dgeev_(const char *jobvl, const char *jobvr, const int *n,
                   double *a, const int *lda, double *wr, double *wi,
                   double *vl, const int *ldvl, double *vr, const int *ldvr,
                   double *work, const int *lwork, int *info);
extern void dsyev_(const char *jobz, const char *uplo, const int *n, double *a,
                   const int *lda, double *w, double *work, const int *lwork,
                   int *info);

static const bsim_lapack_module lapack = {dgeev_, dsyev_};

const void *bsim_module_lapack(void) {
  return &lapack;
}
