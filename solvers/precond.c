/*
 * The preconditioner of spgmr (IDA and CVODE): a block-Jacobi
 * approximation of the Newton matrix (IDA's dF/dy + cj dF/dy', CVODE's
 * I - gamma df/dy). Flattened diagrams couple the states
 * of one block tightly and blocks to each other through a few signals, so
 * inverting the diagonal blocks exactly removes most of what makes GMRES
 * converge slowly (the cj-scaled diagonal and each block's own dynamics),
 * for the price of small dense LU factorizations. The diagonal
 * preconditioner is the same code with groups of one unknown.
 *
 * The factorization is written out here (partial pivoting, a few lines)
 * rather than taken from GSL: blocks are tiny, and the matrices live in
 * one allocation made once.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solvers/precond.h"

struct bsim_prec {
  int n, ngroups;
  int *start;   /* first unknown of each group, ngroups + 1 entries */
  int *group;   /* group of each unknown */
  size_t *moff; /* offset of each group's matrix in lu */
  double *lu;   /* column-major LU factors, one s x s matrix per group */
  int *piv;     /* row swaps, n entries (group-local indices) */
};

void bsim_prec_free(bsim_prec *pc) {
  if (!pc) return;
  free(pc->start);
  free(pc->group);
  free(pc->moff);
  free(pc->lu);
  free(pc->piv);
  free(pc);
}

bsim_prec *bsim_prec_create(int n, const int *groups) {
  bsim_prec *pc = calloc(1, sizeof *pc);
  if (!pc || n < 1) {
    free(pc);
    return NULL;
  }
  pc->n = n;
  pc->group = malloc(sizeof(int) * (size_t)n);
  pc->start = malloc(sizeof(int) * (size_t)(n + 1));
  pc->piv = malloc(sizeof(int) * (size_t)n);
  if (!pc->group || !pc->start || !pc->piv) goto fail;
  /* Ids that do not follow the documented shape (consecutive members,
   * growing ids) start a new group wherever they change, which is still a
   * valid (if smaller-block) preconditioner. */
  int g = 0;
  pc->start[0] = 0;
  for (int i = 0; i < n; i++) {
    if (i > 0 && (!groups || groups[i] != groups[i - 1])) pc->start[++g] = i;
    pc->group[i] = g;
  }
  pc->ngroups = g + 1;
  pc->start[pc->ngroups] = n;
  pc->moff = malloc(sizeof(size_t) * (size_t)(pc->ngroups + 1));
  if (!pc->moff) goto fail;
  size_t off = 0;
  for (int k = 0; k < pc->ngroups; k++) {
    size_t s = (size_t)(pc->start[k + 1] - pc->start[k]);
    pc->moff[k] = off;
    off += s * s;
  }
  pc->moff[pc->ngroups] = off;
  pc->lu = malloc(sizeof(double) * off);
  if (!pc->lu) goto fail;
  return pc;
fail:
  bsim_prec_free(pc);
  return NULL;
}

/* In-place LU with partial pivoting of the s x s matrix a; 1 if singular. */
static int lu_factor(double *a, int s, int *piv) {
  for (int k = 0; k < s; k++) {
    int p = k;
    double best = fabs(a[k + s * k]);
    for (int i = k + 1; i < s; i++)
      if (fabs(a[i + s * k]) > best) {
        best = fabs(a[i + s * k]);
        p = i;
      }
    piv[k] = p;
    if (!(best > 0) || !isfinite(best)) return 1;
    if (p != k)
      for (int j = 0; j < s; j++) {
        double t = a[k + s * j];
        a[k + s * j] = a[p + s * j];
        a[p + s * j] = t;
      }
    double inv = 1.0 / a[k + s * k];
    for (int i = k + 1; i < s; i++)
      a[i + s * k] *= inv;
    for (int j = k + 1; j < s; j++) {
      double akj = a[k + s * j];
      if (akj == 0) continue;
      for (int i = k + 1; i < s; i++)
        a[i + s * j] -= a[i + s * k] * akj;
    }
  }
  return 0;
}

int bsim_prec_setup(bsim_prec *pc, const int *colptr, const int *rowidx,
                    const double *values, double a, double b) {
  memset(pc->lu, 0, sizeof(double) * pc->moff[pc->ngroups]);
  for (int j = 0; j < pc->n; j++) {
    int g = pc->group[j], s = pc->start[g + 1] - pc->start[g];
    int c = j - pc->start[g];
    double *col = pc->lu + pc->moff[g] + (size_t)(s * c);
    col[c] = a;
    if (!colptr) {
      col[c] += b * values[j];
      continue;
    }
    for (int q = colptr[j]; q < colptr[j + 1]; q++) {
      int i = rowidx[q];
      if (pc->group[i] == g) col[i - pc->start[g]] += b * values[q];
    }
  }
  for (int g = 0; g < pc->ngroups; g++) {
    int s = pc->start[g + 1] - pc->start[g];
    if (lu_factor(pc->lu + pc->moff[g], s, pc->piv + pc->start[g]) != 0)
      return 1;
  }
  return 0;
}

void bsim_prec_solve(const bsim_prec *pc, const double *r, double *z) {
  if (z != r) memcpy(z, r, sizeof(double) * (size_t)pc->n);
  for (int g = 0; g < pc->ngroups; g++) {
    int s = pc->start[g + 1] - pc->start[g];
    const double *a = pc->lu + pc->moff[g];
    const int *piv = pc->piv + pc->start[g];
    double *b = z + pc->start[g];
    if (s == 1) {
      b[0] /= a[0];
      continue;
    }
    /* Rows were swapped whole while factoring (P A = L U): apply every
     * swap before the forward substitution. */
    for (int k = 0; k < s; k++)
      if (piv[k] != k) {
        double t = b[k];
        b[k] = b[piv[k]];
        b[piv[k]] = t;
      }
    for (int k = 0; k < s; k++) {
      for (int i = k + 1; i < s; i++)
        b[i] -= a[i + s * k] * b[k];
    }
    for (int k = s - 1; k >= 0; k--) {
      b[k] /= a[k + s * k];
      for (int i = 0; i < k; i++)
        b[i] -= a[i + s * k] * b[k];
    }
  }
}
