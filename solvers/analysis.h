/*
 * Dense matrix tools behind `blocksim analyze` and `linearize`: matching,
 * numerical rank, linear solves, eigenvalues and MatrixMarket output. They
 * know matrices only (row-major, caller-owned), never blocks or diagrams, so
 * the scheduler's glue (scheduler/analyze.c) can be tested apart from them.
 *
 * None of these calls GSL's error handler on valid input: the default
 * handler aborts, and the library must never end the process.
 */
#ifndef BSIM_ANALYSIS_H
#define BSIM_ANALYSIS_H

#include <stdio.h>

/* Maximum bipartite matching of rows to columns over a boolean pattern
 * (pattern[i * ncols + j] != 0: row i may be matched to column j), by
 * Hopcroft-Karp. row_match[i] = column or -1, col_match[j] = row or -1.
 * Returns the matching's size (the structural rank), -1 out of memory. */
int bsim_match_max(int nrows, int ncols, const char *pattern, int *row_match,
                   int *col_match);

/* Singular value decomposition of the m x n matrix a (m >= n, not
 * modified): sigma gets the n singular values in decreasing order, v (n x n,
 * row-major, may be NULL) the right singular vectors as columns. Returns
 * the numerical rank, the count of singular values above
 * max(rel * sigma_max, floor); -1 out of memory or m < n. */
int bsim_svd_rank(int m, int n, const double *a, double rel, double floor,
                  double *sigma, double *v);

/* Solve M X = B for X (M n x n, B and X n x k, row-major; X may alias B)
 * by Gaussian elimination with partial pivoting. 0, or -1 when a pivot is
 * exactly zero or out of memory. */
int bsim_dense_solve(int n, const double *m, int k, const double *b, double *x);

/* The same in two steps, to solve with one matrix several times: lu (n x n,
 * row-major) is factored in place, P lu = L U, piv[c] the row swapped with
 * row c at step c (0, or -1 at an exactly zero pivot); then B (n x k) is
 * overwritten with the solution. */
int bsim_dense_lu(int n, double *lu, int *piv);
void bsim_dense_lu_solve(int n, const double *lu, const int *piv, int k,
                         double *b);

/* Eigenvalues of the n x n matrix a (not modified), sorted by real part,
 * then imaginary part. 0, or -1 when the QR iteration did not converge or
 * out of memory. */
int bsim_eigenvalues(int n, const double *a, double *re, double *im);

typedef enum {
  BSIM_STABLE = 0,   /* every Re < 0 */
  BSIM_MARGINAL = 1, /* the largest Re is zero within tolerance */
  BSIM_UNSTABLE = 2,
  BSIM_STABILITY_UNKNOWN = 3 /* no eigenvalues (n = 0) */
} bsim_stability;

/* Verdict on sorted eigenvalues: the largest real part is "zero" when
 * |Re| <= 1e-9 * max(1, max |lambda|). *stiffness gets max |Re| / min |Re|
 * over the eigenvalues with Re below that tolerance (0 when none). */
bsim_stability bsim_stability_of(int n, const double *re, const double *im,
                                 double *stiffness);

/* MatrixMarket "coordinate real general", %.17g, 1-based, the nonzero
 * entries of the m x n row-major a. Returns the number of entries written,
 * or -1 on a write error. */
long bsim_mm_write(FILE *f, int m, int n, const double *a);

#endif
