/*
 * The dense LU solver of dense_lu.h. SUNDIALS stores the matrix by
 * columns; GSL reads row-major arrays, so it sees the transpose A' and
 * factors P A' = L U. Then A = U' L' P, and A x = b is solved as U' v = b,
 * L' w = v, x = P^-1 w. A zero pivot is reported as SUNDIALS' own dense
 * solver reports it, a recoverable failure of the setup (the integrator
 * retries with a smaller step).
 */
#include "solvers/dense_lu.h"

#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_permutation.h>
#include <gsl/gsl_permute_vector.h>
#include <nvector/nvector_serial.h>
#include <sunmatrix/sunmatrix_dense.h>

typedef struct lu {
  gsl_permutation *perm;
  sunindextype last_flag;
} lu;

#define LU(S) ((lu *)(S)->content)

static gsl_matrix_view transposed(SUNMatrix A) {
  size_t n = (size_t)SUNDenseMatrix_Columns(A);
  return gsl_matrix_view_array(SUNDenseMatrix_Data(A), n, n);
}

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
  gsl_matrix_view m = transposed(A);
  int signum;
  gsl_linalg_LU_decomp(&m.matrix, LU(S)->perm, &signum);
  size_t n = m.matrix.size1;
  for (size_t i = 0; i < n; i++)
    if (gsl_matrix_get(&m.matrix, i, i) == 0.0) {
      LU(S)->last_flag = (sunindextype)i + 1; /* as SUNDIALS: the column */
      return SUNLS_LUFACT_FAIL;
    }
  LU(S)->last_flag = SUNLS_SUCCESS;
  return SUNLS_SUCCESS;
}

static int solve(SUNLinearSolver S, SUNMatrix A, N_Vector x, N_Vector b,
                 realtype tol) {
  (void)tol;
  gsl_matrix_view m = transposed(A);
  size_t n = m.matrix.size1;
  double *xd = NV_DATA_S(x);
  if (xd != NV_DATA_S(b)) memcpy(xd, NV_DATA_S(b), n * sizeof *xd);
  gsl_vector_view v = gsl_vector_view_array(xd, n);
  gsl_blas_dtrsv(CblasUpper, CblasTrans, CblasNonUnit, &m.matrix, &v.vector);
  gsl_blas_dtrsv(CblasLower, CblasTrans, CblasUnit, &m.matrix, &v.vector);
  gsl_permute_vector_inverse(LU(S)->perm, &v.vector);
  LU(S)->last_flag = SUNLS_SUCCESS;
  return SUNLS_SUCCESS;
}

static sunindextype last_flag(SUNLinearSolver S) {
  return LU(S)->last_flag;
}

static int lu_free(SUNLinearSolver S) {
  if (!S) return SUNLS_SUCCESS;
  if (S->content) gsl_permutation_free(LU(S)->perm);
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
  if (c) c->perm = gsl_permutation_alloc((size_t)n);
  if (!c || !c->perm) {
    lu_free(S);
    return NULL;
  }
  A->ops->zero = mat_zero;
  A->ops->copy = mat_copy;
  A->ops->scaleaddi = mat_scale_add_i;
  return S;
}
