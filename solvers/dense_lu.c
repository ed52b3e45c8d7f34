/*
 * The dense LU solver of dense_lu.h: Gaussian elimination with partial
 * pivoting on SUNDIALS' column-major storage, in place (L below the
 * diagonal with a unit diagonal, U on and above it). Rows are swapped in
 * the columns not yet eliminated only, and the solve applies each swap
 * before its column (LINPACK's order rather than LAPACK's): the rows of a
 * column of L are then those of its step, so each step lists the nonzero
 * rows of its pivot column once, and the elimination, which skips a column
 * whose multiplier is zero, updates only those rows; the solves walk the
 * same lists and those of U, made on the way. So the structural zeros of a
 * circuit's or a chain's Jacobian cost nothing: the 35 unknowns of the
 * switched-capacitor demo have a few nonzeros per column, and the dense
 * factorisations and solves were a third of its run. The arithmetic is
 * the dense algorithm's, term for term (what is skipped is a zero times a
 * finite number). A zero pivot is reported as SUNDIALS' own dense solver
 * reports it, a recoverable failure of the setup (the integrator retries
 * with a smaller step).
 */
#include "solvers/dense_lu.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <nvector/nvector_serial.h>
#include <sunmatrix/sunmatrix_dense.h>

typedef struct lu {
  sunindextype *piv; /* row k was swapped with row piv[k] at step k */
  sunindextype last_flag;
  /* Nonzeros by column: of L, lc[k] rows after step k's swap from
   * li + loff(k); of U above the diagonal, uc[j] rows from ui + uoff(j).
   * Each column has room for its strict triangle. */
  sunindextype *lc, *uc, *li, *ui;
} lu;

static size_t loff(sunindextype n, sunindextype k) {
  return (size_t)k * (size_t)(n - 1) - (size_t)k * (size_t)(k - 1) / 2;
}

static size_t uoff(sunindextype j) {
  return (size_t)j * (size_t)(j - 1) / 2;
}

#define LU(S) ((lu *)(S)->content)

static SUNLinearSolver_Type get_type(SUNLinearSolver S) {
  (void)S;
  return SUNLINEARSOLVER_DIRECT;
}

static SUNLinearSolver_ID get_id(SUNLinearSolver S) {
  (void)S;
  return SUNLINEARSOLVER_CUSTOM;
}

static int initialize(SUNLinearSolver S) {
  LU(S)->last_flag = SUNLS_SUCCESS;
  return SUNLS_SUCCESS;
}

static int setup(SUNLinearSolver S, SUNMatrix A) {
  lu *c = LU(S);
  sunindextype n = SUNDenseMatrix_Columns(A), *piv = c->piv;
  double *a = SUNDenseMatrix_Data(A);
  memset(c->uc, 0, (size_t)n * sizeof *c->uc);
  for (sunindextype k = 0; k < n; k++) {
    double *ck = a + k * n;
    sunindextype *rows = c->li + loff(n, k), nr = 0, p = k, at = 0;
    double big = fabs(ck[k]);
    for (sunindextype i = k + 1; i < n; i++)
      if (ck[i] != 0.0) {
        if (fabs(ck[i]) > big) {
          big = fabs(ck[i]);
          p = i;
          at = nr;
        }
        rows[nr++] = i;
      }
    piv[k] = p;
    if (ck[p] == 0.0) {
      c->last_flag = k + 1; /* as SUNDIALS: the column */
      return SUNLS_LUFACT_FAIL;
    }
    if (p != k) {
      for (sunindextype j = k; j < n; j++) {
        double t = a[j * n + k];
        a[j * n + k] = a[j * n + p];
        a[j * n + p] = t;
      }
      if (ck[p] == 0.0) rows[at] = rows[--nr]; /* the old diagonal: 0 */
    }
    c->lc[k] = nr;
    double r = 1.0 / ck[k];
    for (sunindextype q = 0; q < nr; q++)
      ck[rows[q]] *= r;
    for (sunindextype j = k + 1; j < n; j++) {
      double *cj = a + j * n, m = cj[k];
      if (m == 0.0) continue;
      c->ui[uoff(j) + (size_t)c->uc[j]++] = k;
      for (sunindextype q = 0; q < nr; q++)
        cj[rows[q]] -= m * ck[rows[q]];
    }
  }
  c->last_flag = SUNLS_SUCCESS;
  return SUNLS_SUCCESS;
}

/* x = U^-1 L_n-1^-1 P_n-1 ... L_0^-1 P_0 b, by columns. */
static int solve(SUNLinearSolver S, SUNMatrix A, N_Vector x, N_Vector b,
                 realtype tol) {
  (void)tol;
  const lu *c = LU(S);
  sunindextype n = SUNDenseMatrix_Columns(A);
  const double *a = SUNDenseMatrix_Data(A);
  double *xd = NV_DATA_S(x);
  if (xd != NV_DATA_S(b)) memcpy(xd, NV_DATA_S(b), (size_t)n * sizeof *xd);
  for (sunindextype k = 0; k < n; k++) {
    const double *ck = a + k * n;
    sunindextype p = c->piv[k];
    double v = xd[p];
    xd[p] = xd[k];
    xd[k] = v;
    if (v == 0.0) continue;
    const sunindextype *rows = c->li + loff(n, k);
    for (sunindextype q = 0; q < c->lc[k]; q++)
      xd[rows[q]] -= v * ck[rows[q]];
  }
  for (sunindextype k = n - 1; k >= 0; k--) {
    const double *ck = a + k * n;
    double v = xd[k] /= ck[k];
    if (v == 0.0) continue;
    const sunindextype *rows = c->ui + uoff(k);
    for (sunindextype q = 0; q < c->uc[k]; q++)
      xd[rows[q]] -= v * ck[rows[q]];
  }
  LU(S)->last_flag = SUNLS_SUCCESS;
  return SUNLS_SUCCESS;
}

static sunindextype last_flag(SUNLinearSolver S) {
  return LU(S)->last_flag;
}

static int lu_free(SUNLinearSolver S) {
  if (!S) return SUNLS_SUCCESS;
  if (S->content) {
    free(LU(S)->piv);
    free(LU(S)->lc);
    free(LU(S)->li);
  }
  free(S->content);
  S->content = NULL;
  SUNLinSolFreeEmpty(S);
  return SUNLS_SUCCESS;
}

/* The matrix operations the integrators call at each Jacobian, replaced
 * for the same reason as the factorisation: A = 0, B = A, A = c A + I. */
static int mat_zero(SUNMatrix A) {
  sunindextype n = SUNDenseMatrix_LData(A);
  memset(SUNDenseMatrix_Data(A), 0, (size_t)n * sizeof(double));
  return SUNMAT_SUCCESS;
}

static int mat_copy(SUNMatrix A, SUNMatrix B) {
  if (SUNDenseMatrix_LData(A) != SUNDenseMatrix_LData(B))
    return SUNMAT_ILL_INPUT;
  memcpy(SUNDenseMatrix_Data(B), SUNDenseMatrix_Data(A),
         (size_t)SUNDenseMatrix_LData(A) * sizeof(double));
  return SUNMAT_SUCCESS;
}

static int mat_scale_add_i(realtype c, SUNMatrix A) {
  sunindextype n = SUNDenseMatrix_Columns(A), m = SUNDenseMatrix_Rows(A);
  double *a = SUNDenseMatrix_Data(A);
  for (sunindextype j = 0; j < n; j++) {
    double *col = a + j * m;
    for (sunindextype i = 0; i < m; i++)
      col[i] *= c;
    if (j < m) col[j] += 1.0;
  }
  return SUNMAT_SUCCESS;
}

static void install_ops(SUNMatrix A);

/* CVODE keeps its saved Jacobian in a clone of A and copies it back into A
 * at each setup that reuses it: the clone gets the same operations. */
static SUNMatrix mat_clone(SUNMatrix A) {
  SUNMatrix B = SUNDenseMatrix(SUNDenseMatrix_Rows(A),
                               SUNDenseMatrix_Columns(A), A->sunctx);
  if (B) install_ops(B);
  return B;
}

static void install_ops(SUNMatrix A) {
  A->ops->zero = mat_zero;
  A->ops->copy = mat_copy;
  A->ops->scaleaddi = mat_scale_add_i;
  A->ops->clone = mat_clone;
}

SUNLinearSolver bsim_dense_lu_create(SUNMatrix A, SUNContext ctx) {
  sunindextype n = SUNDenseMatrix_Columns(A);
  if (SUNMatGetID(A) != SUNMATRIX_DENSE || n != SUNDenseMatrix_Rows(A) || n < 1)
    return NULL;
  SUNLinearSolver S = SUNLinSolNewEmpty(ctx);
  if (!S) return NULL;
  S->ops->gettype = get_type;
  S->ops->getid = get_id;
  S->ops->initialize = initialize;
  S->ops->setup = setup;
  S->ops->solve = solve;
  S->ops->lastflag = last_flag;
  S->ops->free = lu_free;
  lu *c = calloc(1, sizeof *c);
  S->content = c;
  if (c) {
    size_t tri = (size_t)n * (size_t)(n - 1) / 2 + 1; /* a strict triangle */
    c->piv = malloc((size_t)n * sizeof *c->piv);
    c->lc = malloc(2 * (size_t)n * sizeof *c->lc);
    c->li = malloc(2 * tri * sizeof *c->li);
    if (c->lc) c->uc = c->lc + n;
    if (c->li) c->ui = c->li + tri;
  }
  if (!c || !c->piv || !c->lc || !c->li) {
    lu_free(S);
    return NULL;
  }
  install_ops(A);
  return S;
}
