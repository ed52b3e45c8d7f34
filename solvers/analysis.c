/*
 * Dense matrix tools for system analysis (see analysis.h): Hopcroft-Karp
 * matching for the structural check, GSL's SVD for numerical rank, a small
 * pivoted elimination for the reduced Jacobian, GSL's nonsymmetric
 * eigensolver for stability, and a MatrixMarket writer.
 *
 * Matrices are wrapped in GSL views over our own memory rather than
 * allocated by GSL, so that running out of memory is an error we report,
 * not GSL's default handler aborting the process.
 */
#include "solvers/analysis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

/* ------------------------------------------------------------------ */
/* Hopcroft-Karp                                                       */
/* ------------------------------------------------------------------ */

typedef struct hk {
  int nr, nc;
  const char *pat;
  int *rm, *cm; /* row_match, col_match */
  int *dist;    /* BFS layer of each row; nr entries */
  int *queue;
  int *it; /* next column to try per row, for the non-recursive DFS */
  int *stack;
} hk;

enum { HK_INF = 1 << 30 };

/* Layer the free rows and the rows reachable by alternating paths; true
 * when some free column is reachable (an augmenting path exists). */
static int hk_bfs(hk *h) {
  int head = 0, tail = 0, found = 0;
  for (int i = 0; i < h->nr; i++) {
    if (h->rm[i] < 0) {
      h->dist[i] = 0;
      h->queue[tail++] = i;
    } else {
      h->dist[i] = HK_INF;
    }
  }
  while (head < tail) {
    int i = h->queue[head++];
    for (int j = 0; j < h->nc; j++) {
      if (!h->pat[(size_t)i * (size_t)h->nc + (size_t)j]) continue;
      int r = h->cm[j];
      if (r < 0)
        found = 1;
      else if (h->dist[r] == HK_INF) {
        h->dist[r] = h->dist[i] + 1;
        h->queue[tail++] = r;
      }
    }
  }
  return found;
}

/* Follow the layers from free row `root` to a free column and flip the
 * path. Explicit stack: long alternating paths must not overflow C's. */
static int hk_dfs(hk *h, int root) {
  int sp = 0;
  h->stack[sp++] = root;
  while (sp > 0) {
    int i = h->stack[sp - 1];
    int advanced = 0;
    while (h->it[i] < h->nc) {
      int j = h->it[i]++;
      if (!h->pat[(size_t)i * (size_t)h->nc + (size_t)j]) continue;
      int r = h->cm[j];
      if (r < 0) {
        /* augment along the stack: each row takes the column it tried */
        for (int k = sp - 1; k >= 0; k--) {
          int row = h->stack[k];
          int col = h->it[row] - 1;
          h->rm[row] = col;
          h->cm[col] = row;
        }
        return 1;
      }
      if (h->dist[r] == h->dist[i] + 1) {
        h->stack[sp++] = r;
        advanced = 1;
        break;
      }
    }
    if (!advanced) {
      h->dist[i] = HK_INF; /* dead end for this phase */
      sp--;
    }
  }
  return 0;
}

int bsim_match_max(int nrows, int ncols, const char *pattern, int *row_match,
                   int *col_match) {
  hk h = {nrows, ncols, pattern, row_match, col_match, NULL, NULL, NULL, NULL};
  size_t nr = (size_t)(nrows > 0 ? nrows : 1);
  h.dist = malloc(sizeof(int) * nr);
  h.queue = malloc(sizeof(int) * nr);
  h.it = malloc(sizeof(int) * nr);
  h.stack = malloc(sizeof(int) * nr);
  int size = -1;
  if (!h.dist || !h.queue || !h.it || !h.stack) goto done;
  for (int i = 0; i < nrows; i++)
    row_match[i] = -1;
  for (int j = 0; j < ncols; j++)
    col_match[j] = -1;
  size = 0;
  while (hk_bfs(&h)) {
    memset(h.it, 0, sizeof(int) * nr);
    for (int i = 0; i < nrows; i++)
      if (row_match[i] < 0 && hk_dfs(&h, i)) size++;
  }
done:
  free(h.dist);
  free(h.queue);
  free(h.it);
  free(h.stack);
  return size;
}

/* ------------------------------------------------------------------ */
/* Rank, solve, eigenvalues                                            */
/* ------------------------------------------------------------------ */

int bsim_svd_rank(int m, int n, const double *a, double rel, double floor,
                  double *sigma, double *v) {
  if (m < n) return -1;
  if (n == 0) return 0;
  size_t mm = (size_t)m, nn = (size_t)n;
  double *u = malloc(sizeof(double) * mm * nn);
  double *vv = malloc(sizeof(double) * nn * nn);
  double *work = malloc(sizeof(double) * nn);
  int rank = -1;
  if (!u || !vv || !work) goto done;
  memcpy(u, a, sizeof(double) * mm * nn);
  gsl_matrix_view U = gsl_matrix_view_array(u, mm, nn);
  gsl_matrix_view V = gsl_matrix_view_array(vv, nn, nn);
  gsl_vector_view S = gsl_vector_view_array(sigma, nn);
  gsl_vector_view W = gsl_vector_view_array(work, nn);
  gsl_linalg_SV_decomp(&U.matrix, &V.matrix, &S.vector, &W.vector);
  double tol = fmax(rel * sigma[0], floor);
  rank = 0;
  for (int i = 0; i < n; i++)
    if (sigma[i] > tol) rank++;
  if (v) memcpy(v, vv, sizeof(double) * nn * nn);
done:
  free(u);
  free(vv);
  free(work);
  return rank;
}

int bsim_dense_lu(int n, double *lu, int *piv) {
  size_t nn = (size_t)n;
  for (size_t c = 0; c < nn; c++) {
    size_t p = c;
    for (size_t r = c + 1; r < nn; r++)
      if (fabs(lu[r * nn + c]) > fabs(lu[p * nn + c])) p = r;
    piv[c] = (int)p;
    if (lu[p * nn + c] == 0.0) return -1;
    if (p != c)
      for (size_t j = 0; j < nn; j++) {
        double t = lu[c * nn + j];
        lu[c * nn + j] = lu[p * nn + j];
        lu[p * nn + j] = t;
      }
    for (size_t r = c + 1; r < nn; r++) {
      double f = lu[r * nn + c] / lu[c * nn + c];
      lu[r * nn + c] = f;
      if (f == 0.0) continue;
      for (size_t j = c + 1; j < nn; j++)
        lu[r * nn + j] -= f * lu[c * nn + j];
    }
  }
  return 0;
}

void bsim_dense_lu_solve(int n, const double *lu, const int *piv, int k,
                         double *b) {
  size_t nn = (size_t)n, kk = (size_t)k;
  for (size_t c = 0; c < nn; c++) {
    size_t p = (size_t)piv[c];
    if (p != c)
      for (size_t j = 0; j < kk; j++) {
        double t = b[c * kk + j];
        b[c * kk + j] = b[p * kk + j];
        b[p * kk + j] = t;
      }
  }
  for (size_t c = 0; c < nn; c++)
    for (size_t r = c + 1; r < nn; r++) {
      double f = lu[r * nn + c];
      if (f == 0.0) continue;
      for (size_t j = 0; j < kk; j++)
        b[r * kk + j] -= f * b[c * kk + j];
    }
  for (size_t c = nn; c-- > 0;) {
    for (size_t j = 0; j < kk; j++) {
      double s = b[c * kk + j];
      for (size_t r = c + 1; r < nn; r++)
        s -= lu[c * nn + r] * b[r * kk + j];
      b[c * kk + j] = s / lu[c * nn + c];
    }
  }
}

int bsim_dense_solve(int n, const double *m, int k, const double *b,
                     double *x) {
  size_t nn = (size_t)n, kk = (size_t)k;
  double *lu = malloc(sizeof(double) * (nn ? nn * nn : 1));
  int *piv = malloc(sizeof(int) * (nn ? nn : 1));
  int rc = -1;
  if (lu && piv) {
    memcpy(lu, m, sizeof(double) * nn * nn);
    rc = bsim_dense_lu(n, lu, piv);
  }
  if (rc == 0) {
    if (x != b) memmove(x, b, sizeof(double) * nn * kk);
    bsim_dense_lu_solve(n, lu, piv, k, x);
  }
  free(lu);
  free(piv);
  return rc;
}

typedef struct eig {
  double re, im;
} eig;

static int eig_cmp(const void *pa, const void *pb) {
  const eig *a = pa, *b = pb;
  if (a->re != b->re) return a->re < b->re ? -1 : 1;
  if (a->im != b->im) return a->im < b->im ? -1 : 1;
  return 0;
}

int bsim_eigenvalues(int n, const double *a, double *re, double *im) {
  if (n == 0) return 0;
  size_t nn = (size_t)n;
  double *m = malloc(sizeof(double) * nn * nn);
  double *ev = malloc(sizeof(double) * 2 * nn);
  eig *list = malloc(sizeof(eig) * nn);
  gsl_eigen_nonsymm_workspace *w = gsl_eigen_nonsymm_alloc(nn);
  int rc = -1;
  if (!m || !ev || !list || !w) goto done;
  memcpy(m, a, sizeof(double) * nn * nn);
  gsl_matrix_view M = gsl_matrix_view_array(m, nn, nn);
  gsl_vector_complex_view E = gsl_vector_complex_view_array(ev, nn);
  /* balancing helps the diagonal-heavy matrices block diagrams give */
  gsl_eigen_nonsymm_params(0, 1, w);
  if (gsl_eigen_nonsymm(&M.matrix, &E.vector, w) != 0) goto done;
  for (size_t i = 0; i < nn; i++) {
    list[i].re = ev[2 * i];
    list[i].im = ev[2 * i + 1];
  }
  qsort(list, nn, sizeof *list, eig_cmp);
  for (size_t i = 0; i < nn; i++) {
    re[i] = list[i].re;
    im[i] = list[i].im;
  }
  rc = 0;
done:
  if (w) gsl_eigen_nonsymm_free(w);
  free(m);
  free(ev);
  free(list);
  return rc;
}

bsim_stability bsim_stability_of(int n, const double *re, const double *im,
                                 double *stiffness) {
  *stiffness = 0.0;
  if (n == 0) return BSIM_STABILITY_UNKNOWN;
  double scale = 1.0, maxre = -INFINITY;
  for (int i = 0; i < n; i++) {
    scale = fmax(scale, hypot(re[i], im[i]));
    maxre = fmax(maxre, re[i]);
  }
  double tol = 1e-9 * scale;
  double lo = INFINITY, hi = 0.0;
  for (int i = 0; i < n; i++) {
    if (re[i] < -tol) {
      lo = fmin(lo, -re[i]);
      hi = fmax(hi, -re[i]);
    }
  }
  if (hi > 0.0) *stiffness = hi / lo;
  if (maxre < -tol) return BSIM_STABLE;
  return maxre <= tol ? BSIM_MARGINAL : BSIM_UNSTABLE;
}

long bsim_mm_write(FILE *f, int m, int n, const double *a) {
  long nnz = 0;
  for (size_t i = 0; i < (size_t)m * (size_t)n; i++)
    nnz += a[i] != 0.0;
  if (fprintf(f,
              "%%%%MatrixMarket matrix coordinate real general\n"
              "%d %d %ld\n",
              m, n, nnz) < 0)
    return -1;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      double v = a[(size_t)i * (size_t)n + (size_t)j];
      if (v != 0.0 && fprintf(f, "%d %d %.17g\n", i + 1, j + 1, v) < 0)
        return -1;
    }
  return nnz;
}
