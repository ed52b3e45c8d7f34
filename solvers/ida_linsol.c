/*
 * The linear solvers of the "ida" engine: dense and band use IDA's own
 * difference-quotient Jacobians; klu (sparse LU) gets its Jacobian from
 * colored finite differences over the sparsity pattern the scheduler
 * computed, which costs a few residual calls per Jacobian where a dense one
 * costs n. Band widths left automatic are read off the same pattern.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ida/ida.h>
#include <sunlinsol/sunlinsol_band.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_band.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include "solvers/ida_int.h"

/* The residual as colored finite differences call it: IDA's conventions
 * (a NaN is a recoverable failure), counted. */
static int fd_residual(double t, const double *y, const double *yp, double *res,
                       void *ud) {
  bsim_engine *e = ud;
  e->jac_res_evals++;
  int rc = e->residual(t, y, yp, res, e->user);
  if (rc != 0) return rc < 0 ? -1 : 1;
  for (int i = 0; i < e->n; i++)
    if (!isfinite(res[i])) return 1;
  return 0;
}

/* J = dF/dy + cj dF/dy' for KLU, by colored finite differences. The
 * increments follow the usual choice for BDF Newton matrices: a square
 * root of the unit roundoff times the larger of |y_j|, |h y'_j| and the
 * size the error weights call negligible. */
static int ida_jac_sparse(realtype t, realtype cj, N_Vector yy, N_Vector yp,
                          N_Vector rr, SUNMatrix J, void *ud, N_Vector t1,
                          N_Vector t2, N_Vector t3) {
  bsim_engine *e = ud;
  double *y = N_VGetArrayPointer(yy), *ypd = N_VGetArrayPointer(yp);
  double *ewt = N_VGetArrayPointer(t1), *inc = N_VGetArrayPointer(t2);
  realtype hh = 0;
  IDAGetErrWeights(e->mem, t1);
  IDAGetCurrentStep(e->mem, &hh);
  const double srur = sqrt(DBL_EPSILON);
  for (int j = 0; j < e->n; j++) {
    double scale = fmax(fabs(y[j]), fabs(hh * ypd[j]));
    if (ewt[j] > 0) scale = fmax(scale, 1.0 / ewt[j]);
    if (!(scale > 0)) scale = 1.0;
    double d = srur * scale;
    if (hh * ypd[j] < 0) d = -d;
    inc[j] = (y[j] + d) - y[j]; /* exactly representable */
    if (inc[j] == 0) inc[j] = d;
  }
  sunindextype *ptr = SUNSparseMatrix_IndexPointers(J);
  sunindextype *idx = SUNSparseMatrix_IndexValues(J);
  for (int j = 0; j <= e->n; j++)
    ptr[j] = e->colptr[j];
  for (int q = 0; q < e->colptr[e->n]; q++)
    idx[q] = e->rowidx[q];
  int rc =
      bsim_cfd_eval(e->cfd, fd_residual, e, t, y, ypd, N_VGetArrayPointer(rr),
                    cj, inc, SUNSparseMatrix_Data(J));
  return rc == 0 ? 0 : rc < 0 ? -1 : 1;
}

/* klu and automatic bandwidths read the problem's sparsity pattern. */
int bsim_ida_check_pattern(const bsim_problem *p, const bsim_param_value *v,
                           char *msg, size_t msglen) {
  int have = p->pattern_colptr && p->pattern_rowidx;
  if (v[P_LINSOL].choice == LS_KLU && !have) {
    snprintf(msg, msglen,
             "ida: linear-solver=klu needs the system's sparsity pattern, "
             "which is not available yet for this problem (none was given); "
             "hint: use linear-solver=dense, or band with band-upper and "
             "band-lower");
    return -1;
  }
  if (v[P_LINSOL].choice == LS_BAND && !have &&
      (v[P_BAND_UPPER].i < 0 || v[P_BAND_LOWER].i < 0)) {
    snprintf(msg, msglen,
             "ida: linear-solver=band with automatic bandwidths needs the "
             "system's sparsity pattern, and none was given; hint: set "
             "band-upper and band-lower");
    return -1;
  }
  if (have) {
    const int *cp = p->pattern_colptr;
    int ok = cp[0] == 0;
    for (int j = 0; ok && j < p->n; j++)
      ok = cp[j + 1] >= cp[j];
    for (int q = 0; ok && q < cp[p->n]; q++)
      ok = p->pattern_rowidx[q] >= 0 && p->pattern_rowidx[q] < p->n;
    if (!ok) {
      snprintf(msg, msglen,
               "ida: the sparsity pattern given is malformed "
               "(column pointers must grow from 0, row indices "
               "lie in 0..n-1)");
      return -1;
    }
  }
  return 0;
}

/* Half-bandwidths covering every entry of the pattern. */
static void pattern_bands(const bsim_problem *p, sunindextype *mu,
                          sunindextype *ml) {
  *mu = *ml = 0;
  for (int j = 0; j < p->n; j++)
    for (int q = p->pattern_colptr[j]; q < p->pattern_colptr[j + 1]; q++) {
      int i = p->pattern_rowidx[q];
      if (j - i > *mu) *mu = j - i;
      if (i - j > *ml) *ml = i - j;
    }
}

static int make_sparse(bsim_engine *e, const bsim_problem *p) {
  int nnz = p->pattern_colptr[p->n];
  e->colptr = malloc(sizeof(int) * (size_t)(p->n + 1));
  e->rowidx = malloc(sizeof(int) * (size_t)(nnz ? nnz : 1));
  if (!e->colptr || !e->rowidx) return IDA_MEM_FAIL;
  memcpy(e->colptr, p->pattern_colptr, sizeof(int) * (size_t)(p->n + 1));
  memcpy(e->rowidx, p->pattern_rowidx, sizeof(int) * (size_t)nnz);
  e->cfd = bsim_cfd_create(p->n, e->colptr, e->rowidx);
  if (!e->cfd) return IDA_MEM_FAIL;
  e->A = SUNSparseMatrix(p->n, p->n, nnz > 0 ? nnz : 1, CSC_MAT, e->ctx);
  e->ls = e->A ? SUNLinSol_KLU(e->y, e->A, e->ctx) : NULL;
  if (!e->ls) return IDA_MEM_FAIL;
  int flag = IDASetLinearSolver(e->mem, e->ls, e->A);
  return flag < 0 ? flag : IDASetJacFn(e->mem, ida_jac_sparse);
}

int bsim_ida_linear_solver(bsim_engine *e, const bsim_problem *p,
                           const bsim_param_value *v) {
  sunindextype n = e->n;
  if (v[P_LINSOL].choice == LS_KLU) return make_sparse(e, p);
  if (v[P_LINSOL].choice == LS_BAND) {
    sunindextype mu = v[P_BAND_UPPER].i, ml = v[P_BAND_LOWER].i, pmu = n - 1,
                 pml = n - 1;
    if (p->pattern_colptr && p->pattern_rowidx) pattern_bands(p, &pmu, &pml);
    if (mu < 0) mu = pmu;
    if (ml < 0) ml = pml;
    if (mu > n - 1) mu = n - 1;
    if (ml > n - 1) ml = n - 1;
    e->A = SUNBandMatrix(n, mu, ml, e->ctx);
    e->ls = e->A ? SUNLinSol_Band(e->y, e->A, e->ctx) : NULL;
  } else {
    e->A = SUNDenseMatrix(n, n, e->ctx);
    e->ls = e->A ? SUNLinSol_Dense(e->y, e->A, e->ctx) : NULL;
  }
  return e->ls ? IDASetLinearSolver(e->mem, e->ls, e->A) : IDA_MEM_FAIL;
}
