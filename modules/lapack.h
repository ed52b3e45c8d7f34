/*
 * The two LAPACK routines MATEIG calls (blocks/matrix_la.c), in the lapack
 * module (lapack.c), so that LAPACK and its Fortran runtime load only for
 * a diagram that has a MATEIG. Fortran calling convention; liblapack ships
 * no C header.
 */
#ifndef BSIM_MODULE_LAPACK_H
#define BSIM_MODULE_LAPACK_H

typedef struct bsim_lapack_module {
  void (*dgeev)(const char *jobvl, const char *jobvr, const int *n, double *a,
                const int *lda, double *wr, double *wi, double *vl,
                const int *ldvl, double *vr, const int *ldvr, double *work,
                const int *lwork, int *info);
  void (*dsyev)(const char *jobz, const char *uplo, const int *n, double *a,
                const int *lda, double *w, double *work, const int *lwork,
                int *info);
} bsim_lapack_module;

#endif
