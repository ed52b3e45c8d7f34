/*
 * The linear solvers of the "ida" engine. dense and band use IDA's own
 * difference-quotient Jacobians unless the problem has an analytic one;
 * klu (sparse LU) gets its Jacobian from the problem's analytic callback
 * or from colored finite differences over the sparsity pattern the
 * scheduler computed, which costs a few residual calls per Jacobian where a
 * dense one costs n. spgmr is matrix-free (IDA's difference quotients for
 * J v) and is preconditioned by the diagonal blocks of the same Jacobian
 * (precond.c). Band widths left automatic are read off the pattern.
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
#include <sunlinsol/sunlinsol_spgmr.h>
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

/* Increments of the finite differences, following the usual choice for
 * BDF Newton matrices: a square root of the unit roundoff times the larger
 * of |y_j|, |h y'_j| and the size the error weights call negligible. ewt
 * and inc may be the same vector. */
static void fd_increments(bsim_engine *e, const double *y, const double *ypd,
                          N_Vector ewtv, double *inc) {
  realtype hh = 0;
  IDAGetErrWeights(e->mem, ewtv);
  IDAGetCurrentStep(e->mem, &hh);
  const double *ewt = N_VGetArrayPointer(ewtv);
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
}

/* J = dF/dy + cj dF/dy' in the pattern's order: analytic when the problem
 * gave a Jacobian (and jacobian=auto), else colored finite differences. An
 * IDA return code. */
static int jac_values(bsim_engine *e, double t, double cj, N_Vector yy,
                      N_Vector yp, N_Vector rr, N_Vector t1, N_Vector t2,
                      double *values) {
  double *y = N_VGetArrayPointer(yy), *ypd = N_VGetArrayPointer(yp);
  int rc;
  if (e->jac) {
    rc = e->jac(t, y, ypd, cj, values, e->user);
  } else {
    double *inc = N_VGetArrayPointer(t2);
    fd_increments(e, y, ypd, t1, inc);
    rc = bsim_cfd_eval(e->cfd, fd_residual, e, t, y, ypd,
                       N_VGetArrayPointer(rr), cj, inc, values);
  }
  return rc == 0 ? 0 : rc < 0 ? -1 : 1;
}

/* klu's Jacobian: the pattern, then its values. */
static int ida_jac_sparse(realtype t, realtype cj, N_Vector yy, N_Vector yp,
                          N_Vector rr, SUNMatrix J, void *ud, N_Vector t1,
                          N_Vector t2, N_Vector t3) {
  bsim_engine *e = ud;
  sunindextype *ptr = SUNSparseMatrix_IndexPointers(J);
  sunindextype *idx = SUNSparseMatrix_IndexValues(J);
  for (int j = 0; j <= e->n; j++)
    ptr[j] = e->colptr[j];
  for (int q = 0; q < e->colptr[e->n]; q++)
    idx[q] = e->rowidx[q];
  return jac_values(e, t, cj, yy, yp, rr, t1, t2, SUNSparseMatrix_Data(J));
}

/* dense and band with an analytic Jacobian: its values scattered into the
 * matrix (entries outside a band narrower than the pattern are dropped, as
 * the band solver would not see them anyway). */
static int ida_jac_scatter(realtype t, realtype cj, N_Vector yy, N_Vector yp,
                           N_Vector rr, SUNMatrix J, void *ud, N_Vector t1,
                           N_Vector t2, N_Vector t3) {
  bsim_engine *e = ud;
  int rc = jac_values(e, t, cj, yy, yp, rr, t1, t2, e->jvals);
  if (rc != 0) return rc;
  SUNMatZero(J);
  int band = SUNMatGetID(J) == SUNMATRIX_BAND;
  sunindextype mu = band ? SUNBandMatrix_UpperBandwidth(J) : 0;
  sunindextype ml = band ? SUNBandMatrix_LowerBandwidth(J) : 0;
  for (int j = 0; j < e->n; j++)
    for (int q = e->colptr[j]; q < e->colptr[j + 1]; q++) {
      int i = e->rowidx[q];
      if (!band)
        SM_ELEMENT_D(J, i, j) = e->jvals[q];
      else if (j - i <= mu && i - j <= ml)
        SM_ELEMENT_B(J, i, j) = e->jvals[q];
    }
  return 0;
}

/* spgmr's preconditioner setup: the Jacobian's diagonal blocks, from the
 * pattern, or without one its diagonal by one residual call per unknown. */
static int ida_prec_setup(realtype t, N_Vector yy, N_Vector yp, N_Vector rr,
                          realtype cj, void *ud) {
  bsim_engine *e = ud;
  if (e->colptr) {
    int rc = jac_values(e, t, cj, yy, yp, rr, e->ptmp1, e->ptmp2, e->jvals);
    if (rc != 0) return rc;
    return bsim_prec_setup(e->prec, e->colptr, e->rowidx, e->jvals);
  }
  double *y = N_VGetArrayPointer(yy), *ypd = N_VGetArrayPointer(yp);
  double *inc = N_VGetArrayPointer(e->ptmp1),
         *fp = N_VGetArrayPointer(e->ptmp2);
  const double *f0 = N_VGetArrayPointer(rr);
  fd_increments(e, y, ypd, e->ptmp1, inc);
  for (int j = 0; j < e->n; j++) {
    double sy = y[j], syp = ypd[j];
    y[j] += inc[j];
    ypd[j] += cj * inc[j];
    int rc = fd_residual(t, y, ypd, fp, e);
    y[j] = sy;
    ypd[j] = syp;
    if (rc != 0) return rc;
    e->jvals[j] = (fp[j] - f0[j]) / inc[j];
  }
  return bsim_prec_setup(e->prec, NULL, NULL, e->jvals);
}

static int ida_prec_solve(realtype t, N_Vector yy, N_Vector yp, N_Vector rr,
                          N_Vector rvec, N_Vector zvec, realtype cj,
                          realtype delta, void *ud) {
  bsim_engine *e = ud;
  bsim_prec_solve(e->prec, N_VGetArrayPointer(rvec), N_VGetArrayPointer(zvec));
  return 0;
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

/* A copy of the pattern, and what finite differences over it need when
 * no analytic Jacobian is used; nvals values of scratch. */
static int keep_pattern(bsim_engine *e, const bsim_problem *p, int nvals) {
  int nnz = p->pattern_colptr[p->n];
  e->colptr = malloc(sizeof(int) * (size_t)(p->n + 1));
  e->rowidx = malloc(sizeof(int) * (size_t)(nnz ? nnz : 1));
  if (!e->colptr || !e->rowidx) return IDA_MEM_FAIL;
  memcpy(e->colptr, p->pattern_colptr, sizeof(int) * (size_t)(p->n + 1));
  memcpy(e->rowidx, p->pattern_rowidx, sizeof(int) * (size_t)nnz);
  if (!e->jac && !(e->cfd = bsim_cfd_create(p->n, e->colptr, e->rowidx)))
    return IDA_MEM_FAIL;
  if (nvals && !(e->jvals = malloc(sizeof(double) * (size_t)nvals)))
    return IDA_MEM_FAIL;
  return 0;
}

static int make_sparse(bsim_engine *e, const bsim_problem *p) {
  int nnz = p->pattern_colptr[p->n];
  int flag = keep_pattern(e, p, 0);
  if (flag < 0) return flag;
  e->A = SUNSparseMatrix(p->n, p->n, nnz > 0 ? nnz : 1, CSC_MAT, e->ctx);
  e->ls = e->A ? SUNLinSol_KLU(e->y, e->A, e->ctx) : NULL;
  if (!e->ls) return IDA_MEM_FAIL;
  flag = IDASetLinearSolver(e->mem, e->ls, e->A);
  return flag < 0 ? flag : IDASetJacFn(e->mem, ida_jac_sparse);
}

/* spgmr: block-Jacobi needs the pattern (else it is the diagonal). */
static int make_spgmr(bsim_engine *e, const bsim_problem *p,
                      const bsim_param_value *v) {
  int have = p->pattern_colptr && p->pattern_rowidx;
  int pc = (int)v[P_PRECOND].choice;
  e->ls = SUNLinSol_SPGMR(e->y, pc == PC_NONE ? SUN_PREC_NONE : SUN_PREC_LEFT,
                          (int)v[P_KRYLOV_DIM].i, e->ctx);
  if (!e->ls) return IDA_MEM_FAIL;
  int flag = IDASetLinearSolver(e->mem, e->ls, NULL);
  if (flag < 0 || pc == PC_NONE) return flag;
  if (have && (flag = keep_pattern(e, p, p->pattern_colptr[p->n])) < 0)
    return flag;
  if (!have && !(e->jvals = malloc(sizeof(double) * (size_t)p->n)))
    return IDA_MEM_FAIL;
  e->prec =
      bsim_prec_create(p->n, have && pc == PC_BLOCK_JACOBI ? p->groups : NULL);
  e->ptmp1 = N_VClone(e->y);
  e->ptmp2 = N_VClone(e->y);
  if (!e->prec || !e->ptmp1 || !e->ptmp2) return IDA_MEM_FAIL;
  return IDASetPreconditioner(e->mem, ida_prec_setup, ida_prec_solve);
}

int bsim_ida_linear_solver(bsim_engine *e, const bsim_problem *p,
                           const bsim_param_value *v) {
  sunindextype n = e->n;
  int have = p->pattern_colptr && p->pattern_rowidx;
  e->jac = have && v[P_JACOBIAN].choice == JAC_AUTO ? p->jacobian : NULL;
  if (v[P_LINSOL].choice == LS_KLU) return make_sparse(e, p);
  if (v[P_LINSOL].choice == LS_SPGMR) return make_spgmr(e, p, v);
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
  if (!e->ls) return IDA_MEM_FAIL;
  int flag = IDASetLinearSolver(e->mem, e->ls, e->A);
  if (flag < 0 || !e->jac) return flag;
  if ((flag = keep_pattern(e, p, p->pattern_colptr[p->n])) < 0) return flag;
  return IDASetJacFn(e->mem, ida_jac_scatter);
}
