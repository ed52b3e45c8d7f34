/*
 * The linear solvers of the SUNDIALS engines. dense uses the package's own
 * difference quotients (n residual calls per Jacobian) unless the problem
 * has an analytic Jacobian; band and klu take their Jacobian from the
 * analytic callback or from colored finite differences over the sparsity
 * pattern the scheduler computed (a few residual calls per Jacobian where a
 * dense one costs n, and never more than the band's own quotients, whose
 * groups of columns are one coloring of a band); band falls back on the
 * package's quotients only when there is no pattern. spgmr is matrix-free
 * (the package's difference quotients for J v) and preconditioned by the
 * diagonal blocks of the same Jacobian (precond.c). Band widths left
 * automatic are read off the pattern. klu comes from the klu module, so
 * that only a run that asks for it loads SuiteSparse.
 */
#include "solvers/linsys.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <sunlinsol/sunlinsol_band.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_spgmr.h>
#include <sunmatrix/sunmatrix_band.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include "modules/klu.h"
#include "modules/module.h"
#include "solvers/dense_lu.h"

static int have_pattern(const bsim_problem *p) {
  return p->pattern_colptr && p->pattern_rowidx;
}

/* The klu module; NULL with its message in msg. */
static const bsim_klu_module *klu_module(char *msg, size_t msglen) {
  bsim_error err;
  bsim_error_clear(&err);
  const bsim_klu_module *m = bsim_module("klu", "linear-solver=klu", &err);
  if (!m) snprintf(msg, msglen, "%s", err.message);
  return m;
}

int bsim_linsys_check(const bsim_engine_type *t, int first,
                      const bsim_param_value *v, const bsim_problem *p,
                      char *msg, size_t msglen) {
  const bsim_param_value *w = v + first;
  if (bsim_engine_param_range(t, first + LP_BAND_UPPER, v, -1, HUGE_VAL, msg,
                              msglen) ||
      bsim_engine_param_range(t, first + LP_BAND_LOWER, v, -1, HUGE_VAL, msg,
                              msglen) ||
      bsim_engine_param_range(t, first + LP_KRYLOV_DIM, v, 1, 500, msg, msglen))
    return -1;
  int have = have_pattern(p);
  if (w[LP_LINSOL].choice == LS_KLU && !have) {
    snprintf(msg, msglen,
             "%s: linear-solver=klu needs the system's sparsity pattern, "
             "which is not available yet for this problem (none was given); "
             "hint: use linear-solver=dense, or band with band-upper and "
             "band-lower",
             t->name);
    return -1;
  }
  if (w[LP_LINSOL].choice == LS_KLU && !klu_module(msg, msglen)) return -1;
  if (w[LP_LINSOL].choice == LS_BAND && !have &&
      (w[LP_BAND_UPPER].i < 0 || w[LP_BAND_LOWER].i < 0)) {
    snprintf(msg, msglen,
             "%s: linear-solver=band with automatic bandwidths needs the "
             "system's sparsity pattern, and none was given; hint: set "
             "band-upper and band-lower",
             t->name);
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
               "%s: the sparsity pattern given is malformed (column pointers "
               "must grow from 0, row indices lie in 0..n-1)",
               t->name);
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

static int make_band(bsim_linsys *L, const bsim_problem *p,
                     const bsim_param_value *w, N_Vector y, SUNContext ctx) {
  sunindextype n = p->n, mu = w[LP_BAND_UPPER].i, ml = w[LP_BAND_LOWER].i;
  sunindextype pmu = n - 1, pml = n - 1;
  if (have_pattern(p)) pattern_bands(p, &pmu, &pml);
  if (mu < 0) mu = pmu;
  if (ml < 0) ml = pml;
  if (mu > n - 1) mu = n - 1;
  if (ml > n - 1) ml = n - 1;
  L->A = SUNBandMatrix(n, mu, ml, ctx);
  L->ls = L->A ? SUNLinSol_Band(y, L->A, ctx) : NULL;
  return L->ls ? 0 : -1;
}

static int make_spgmr(bsim_linsys *L, const bsim_problem *p, int form,
                      const bsim_param_value *w, N_Vector y, SUNContext ctx) {
  int pc = w[LP_PRECOND].choice;
  L->ls = SUNLinSol_SPGMR(y, pc == PC_NONE ? SUN_PREC_NONE : SUN_PREC_LEFT,
                          (int)w[LP_KRYLOV_DIM].i, ctx);
  if (!L->ls) return -1;
  if (pc == PC_NONE) return 0;
  /* block-Jacobi needs the pattern (without one it is the diagonal) */
  int blocks = have_pattern(p) && pc == PC_BLOCK_JACOBI;
  L->jac = bsim_njac_create(p, form, w[LP_JACOBIAN].choice == JAC_AUTO);
  L->prec = bsim_prec_create(p->n, blocks ? p->groups : NULL);
  return L->jac && L->prec ? 0 : -1;
}

int bsim_linsys_create(bsim_linsys *L, const bsim_problem *p, int form,
                       const bsim_param_value *v, int first, N_Vector y,
                       SUNContext ctx) {
  const bsim_param_value *w = v + first;
  int analytic = w[LP_JACOBIAN].choice == JAC_AUTO;
  int have = have_pattern(p);
  L->kind = w[LP_LINSOL].choice;
  if (L->kind == LS_SPGMR) return make_spgmr(L, p, form, w, y, ctx);
  int rc;
  if (L->kind == LS_KLU) {
    /* bsim_linsys_check made sure there is one */
    char msg[8];
    const bsim_klu_module *klu = klu_module(msg, sizeof msg);
    int nnz = p->pattern_colptr[p->n];
    L->A = klu ? SUNSparseMatrix(p->n, p->n, nnz > 0 ? nnz : 1, CSC_MAT, ctx)
               : NULL;
    L->ls = L->A ? klu->create(y, L->A, ctx) : NULL;
    rc = L->ls ? 0 : -1;
  } else if (L->kind == LS_BAND) {
    rc = make_band(L, p, w, y, ctx);
  } else {
    L->A = SUNDenseMatrix(p->n, p->n, ctx);
    L->dense_failed = !L->A;
    L->ls = L->A ? bsim_dense_lu_create(L->A, ctx) : NULL;
    rc = L->ls ? 0 : -1;
  }
  /* dense keeps the package's own quotients unless the blocks give the
   * Jacobian: they make no assumption on the pattern */
  int own = have && (L->kind != LS_DENSE || (analytic && p->jacobian));
  if (rc == 0 && own && !(L->jac = bsim_njac_create(p, form, analytic)))
    rc = -1;
  return rc;
}

void bsim_linsys_free(bsim_linsys *L) {
  if (L->ls) SUNLinSolFree(L->ls);
  if (L->A) SUNMatDestroy(L->A);
  bsim_njac_free(L->jac);
  bsim_prec_free(L->prec);
  L->ls = NULL;
  L->A = NULL;
  L->jac = NULL;
  L->prec = NULL;
}

int bsim_linsys_explain_failure(const bsim_linsys *L, const char *engine, int n,
                                char *msg, size_t msglen) {
  if (!L->dense_failed) return 0;
  snprintf(msg, msglen,
           "%s: no memory for the dense linear solver's %ld x %ld matrix "
           "(%.3g GB) (hint: --solver-param linear-solver=klu, the sparse "
           "solver, for large systems)",
           engine, (long)n, (long)n, 8e-9 * (double)n * (double)n);
  return 1;
}

void bsim_linsys_fill(const bsim_linsys *L, SUNMatrix J) {
  const int *colptr = bsim_njac_colptr(L->jac);
  const int *rowidx = bsim_njac_rowidx(L->jac);
  const double *val = bsim_njac_values(L->jac);
  sunindextype n =
      SUNMatGetID(J) == SUNMATRIX_SPARSE ? SUNSparseMatrix_Columns(J)
      : SUNMatGetID(J) == SUNMATRIX_BAND ? SUNBandMatrix_Columns(J)
                                         : SUNDenseMatrix_Columns(J);
  if (SUNMatGetID(J) == SUNMATRIX_SPARSE) {
    sunindextype *ptr = SUNSparseMatrix_IndexPointers(J);
    sunindextype *idx = SUNSparseMatrix_IndexValues(J);
    double *data = SUNSparseMatrix_Data(J);
    for (sunindextype j = 0; j <= n; j++)
      ptr[j] = colptr[j];
    for (int q = 0; q < colptr[n]; q++) {
      idx[q] = rowidx[q];
      data[q] = val[q];
    }
    return;
  }
  /* a full pattern (an index-reduced system's, index.h), its rows sorted
   * as patterns are: the values are the dense matrix's, column by column */
  if (SUNMatGetID(J) == SUNMATRIX_DENSE && colptr[n] == n * n &&
      SUNDenseMatrix_Rows(J) == n) {
    memcpy(SUNDenseMatrix_Data(J), val, sizeof(double) * (size_t)(n * n));
    return;
  }
  SUNMatZero(J);
  int band = SUNMatGetID(J) == SUNMATRIX_BAND;
  sunindextype mu = band ? SUNBandMatrix_UpperBandwidth(J) : 0;
  sunindextype ml = band ? SUNBandMatrix_LowerBandwidth(J) : 0;
  for (sunindextype j = 0; j < n; j++)
    for (int q = colptr[j]; q < colptr[j + 1]; q++) {
      sunindextype i = rowidx[q];
      if (!band)
        SM_ELEMENT_D(J, i, j) = val[q];
      else if (j - i <= mu && i - j <= ml)
        SM_ELEMENT_B(J, i, j) = val[q];
    }
}

int bsim_linsys_prec_setup(bsim_linsys *L, double a, double b) {
  return bsim_prec_setup(L->prec, bsim_njac_colptr(L->jac),
                         bsim_njac_rowidx(L->jac), bsim_njac_values(L->jac), a,
                         b);
}

void bsim_linsys_prec_solve(const bsim_linsys *L, N_Vector r, N_Vector z) {
  bsim_prec_solve(L->prec, N_VGetArrayPointer(r), N_VGetArrayPointer(z));
}

void bsim_linsys_stats(const bsim_linsys *L, bsim_engine_stats *st) {
  long fd = bsim_njac_residual_evals(L->jac);
  if (L->kind == LS_SPGMR) st->jacobian_evals += bsim_njac_evals(L->jac);
  st->residual_evals += fd;
  st->jacobian_residual_evals += fd;
  st->jacobian_colors = bsim_njac_colors(L->jac);
}
