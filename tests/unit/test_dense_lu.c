/*
 * The engines' dense LU (solvers/dense_lu.c) as SUNDIALS calls it: setup
 * factors A in place, solve gives x with A x = b. Checked against matrices
 * whose solution is known (x chosen, b = A x formed before the factoring):
 * random dense ones of sizes 1 to 300 (row pivoting needed: the diagonal is
 * not dominant), the anti-diagonal permutation (zero pivots everywhere
 * but the middle), a tridiagonal
 * one (the zero multipliers the elimination skips), a lower-triangular
 * chain and a sparse "circuit": the rows of a matrix with a dominant
 * diagonal and two small entries per column, shuffled, so that most
 * diagonals are zero and the pivot row brings a zero into the column the
 * elimination walks (the rows it updates are listed, and that one must
 * leave the list). The relative error of x is held to 1e-10: the random
 * matrices' condition numbers stay below about 1e4, so partial pivoting leaves
 * errors near 1e-12 (unpivoted elimination of the permutation fails at
 * once). A singular matrix must fail as SUNDIALS' solver fails, a
 * recoverable SUNLS_LUFACT_FAIL naming the column (1-based). The matrix
 * operations it installs (zero, copy, A = cA + I, and the clone CVODE
 * keeps its saved Jacobian in) are checked entry by entry.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunmatrix/sunmatrix_dense.h>

#include "solvers/dense_lu.h"
#include "tests/unit/test_check.h"

static unsigned long long rng_state = 88172645463325252ULL;

/* uniform in (-1, 1), reproducible (xorshift64) */
static double urand(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return 2.0 * ((double)(rng_state >> 11) / 9007199254740992.0) - 1.0;
}

typedef enum { RANDOM, PERMUTATION, TRIDIAGONAL, CHAIN, CIRCUIT } shape;

/* in (-1, 1), a function of (i, j) only */
static double hash(long i, long j) {
  unsigned long long h =
      (unsigned long long)(i * 1000003 + j) * 0x9E3779B97F4A7C15ULL;
  h ^= h >> 29;
  return 2.0 * ((double)(h >> 11) / 9007199254740992.0) - 1.0;
}

/* Row r of the circuit is row i of the dominant matrix, r = 7 i + 3 mod
 * n (7 is prime to every size tried). */
static double circuit(long r, long j, long n) {
  long i = 0;
  while ((7 * i + 3) % n != r)
    i++;
  if (i == j) return 4.0 + 0.5 * hash(i, j);
  return (i * 31 + j * 17) % n < 2 ? 0.3 * hash(i, j) : 0.0;
}

static double entry(shape sh, long i, long j, long n) {
  switch (sh) {
  case RANDOM:
    return urand();
  case PERMUTATION:
    return j == n - 1 - i ? 1.0 : 0.0;
  case TRIDIAGONAL:
    return i == j ? 2.0 + 0.1 * (double)i : (labs(i - j) == 1 ? -1.0 : 0.0);
  case CHAIN:
    return i == j ? -1.0 : (i == j + 1 ? 1.0 : 0.0);
  case CIRCUIT:
    return circuit(i, j, n);
  }
  return 0;
}

/* Factor and solve one n x n system; the worst relative error of x. */
static double solve_one(SUNContext ctx, long n, shape sh) {
  SUNMatrix A = SUNDenseMatrix(n, n, ctx);
  N_Vector b = N_VNew_Serial(n, ctx), x = N_VNew_Serial(n, ctx);
  SUNLinearSolver S = A ? bsim_dense_lu_create(A, ctx) : NULL;
  double err = HUGE_VAL;
  if (!S || !b || !x) {
    CHECK(0, "n=%ld: could not create the solver", n);
    goto done;
  }
  double *bd = NV_DATA_S(b), *xd = NV_DATA_S(x);
  double *xs = malloc((size_t)n * sizeof *xs);
  for (long i = 0; i < n; i++)
    xs[i] = 1.0 + 0.5 * urand();
  for (long i = 0; i < n; i++)
    bd[i] = 0;
  for (long j = 0; j < n; j++)
    for (long i = 0; i < n; i++) {
      double a = entry(sh, i, j, n);
      SM_ELEMENT_D(A, i, j) = a;
      bd[i] += a * xs[j];
    }
  CHECK(SUNLinSolSetup(S, A) == SUNLS_SUCCESS, "n=%ld shape %d: setup failed",
        n, (int)sh);
  CHECK(SUNLinSolSolve(S, A, x, b, 0) == SUNLS_SUCCESS,
        "n=%ld shape %d: solve failed", n, (int)sh);
  err = 0;
  for (long i = 0; i < n; i++)
    err = fmax(err, fabs(xd[i] - xs[i]) / fabs(xs[i]));
  /* solving in place (x and b the same vector), as IDA and CVODE do */
  memcpy(xd, bd, (size_t)n * sizeof *xd);
  SUNLinSolSolve(S, A, x, x, 0);
  for (long i = 0; i < n; i++)
    err = fmax(err, fabs(xd[i] - xs[i]) / fabs(xs[i]));
  free(xs);
done:
  if (S) SUNLinSolFree(S);
  if (A) SUNMatDestroy(A);
  if (b) N_VDestroy(b);
  if (x) N_VDestroy(x);
  return err;
}

/* Row 1 is twice row 0: singular, found at the third column (in exact
 * arithmetic: every multiplier is a power of 2). */
static void singular(SUNContext ctx) {
  SUNMatrix A = SUNDenseMatrix(3, 3, ctx);
  SUNLinearSolver S = bsim_dense_lu_create(A, ctx);
  double rows[3][3] = {{1, 2, 3}, {2, 4, 6}, {1, 1, 1}};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      SM_ELEMENT_D(A, i, j) = rows[i][j];
  int rc = SUNLinSolSetup(S, A);
  CHECK(rc == SUNLS_LUFACT_FAIL, "singular matrix: setup returned %d", rc);
  CHECK(SUNLinSolLastFlag(S) == 3, "singular matrix: last flag %ld, not 3",
        (long)SUNLinSolLastFlag(S));
  /* a zero column is found at once */
  SUNMatZero(A);
  CHECK(SUNLinSolSetup(S, A) == SUNLS_LUFACT_FAIL && SUNLinSolLastFlag(S) == 1,
        "zero matrix: last flag %ld, not 1", (long)SUNLinSolLastFlag(S));
  SUNLinSolFree(S);
  SUNMatDestroy(A);
}

static void matrix_ops(SUNContext ctx) {
  SUNMatrix A = SUNDenseMatrix(3, 3, ctx);
  SUNLinearSolver S = bsim_dense_lu_create(A, ctx);
  for (int j = 0; j < 3; j++)
    for (int i = 0; i < 3; i++)
      SM_ELEMENT_D(A, i, j) = 10.0 * i + j;
  SUNMatrix B = SUNMatClone(A);
  CHECK(B && B->ops->copy == A->ops->copy && B->ops->clone == A->ops->clone,
        "the clone does not carry the solver's matrix operations");
  CHECK(SUNMatCopy(A, B) == SUNMAT_SUCCESS, "copy failed");
  CHECK(SUNMatScaleAddI(2.0, B) == SUNMAT_SUCCESS, "scale-add failed");
  int bad = 0;
  for (int j = 0; j < 3; j++)
    for (int i = 0; i < 3; i++)
      bad += SM_ELEMENT_D(B, i, j) != 2.0 * (10.0 * i + j) + (i == j);
  CHECK(bad == 0, "B = 2 A + I: %d entries wrong", bad);
  CHECK(SUNMatCopy(B, A) == SUNMAT_SUCCESS && SM_ELEMENT_D(A, 2, 1) == 42.0,
        "copy from the clone: A(2,1) = %g, not 42", SM_ELEMENT_D(A, 2, 1));
  SUNMatZero(B);
  bad = 0;
  for (int j = 0; j < 3; j++)
    for (int i = 0; i < 3; i++)
      bad += SM_ELEMENT_D(B, i, j) != 0.0;
  CHECK(bad == 0, "zero: %d entries left", bad);
  SUNMatDestroy(B);
  SUNLinSolFree(S);
  SUNMatDestroy(A);
}

int main(void) {
  SUNContext ctx;
  if (SUNContext_Create(NULL, &ctx) != 0) return 1;
  const long sizes[] = {1, 2, 3, 6, 17, 64, 300};
  const char *names[] = {"random", "permutation", "tridiagonal", "chain",
                         "circuit"};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
    for (int sh = RANDOM; sh <= CIRCUIT; sh++) {
      double err = solve_one(ctx, sizes[k], (shape)sh);
      CHECK(err <= 1e-10, "n=%ld %s: relative error of x %.3g > 1e-10",
            sizes[k], names[sh], err);
    }
  singular(ctx);
  matrix_ops(ctx);
  SUNContext_Free(&ctx);
  if (failures == 0) printf("test_dense_lu: all checks passed\n");
  return failures != 0;
}
