/*
 * Curtis–Powell–Reid column grouping and the finite-difference Jacobian
 * built on it. Grouping is greedy in column order: a column takes the
 * smallest group none of whose columns touches one of its rows. That is not
 * optimal in general but gives two or three groups for the chains and
 * banded couplings that flattened diagrams produce, whatever their size.
 */
#include "solvers/colored_fd.h"

#include <stdlib.h>
#include <string.h>

struct bsim_cfd {
  int n, nnz, ncolors;
  int *colptr, *rowidx; /* the pattern (copied) */
  int *color;           /* per column */
  int *gstart, *gcols;  /* columns of each group (CSR) */
  double *fp;           /* perturbed residual */
  double *sy, *syp;     /* unperturbed values of one group's columns */
};

void bsim_cfd_free(bsim_cfd *c) {
  if (!c) return;
  free(c->colptr);
  free(c->rowidx);
  free(c->color);
  free(c->gstart);
  free(c->gcols);
  free(c->fp);
  free(c->sy);
  free(c->syp);
  free(c);
}

/* Greedy grouping; needs the rows' columns (the transposed pattern). */
static int group_columns(bsim_cfd *c) {
  int n = c->n, rc = -1;
  int *rptr = calloc((size_t)n + 1, sizeof(int));
  int *rcol = malloc(sizeof(int) * (size_t)(c->nnz ? c->nnz : 1));
  int *fill = calloc((size_t)n + 1, sizeof(int));
  int *stamp = malloc(sizeof(int) * (size_t)(n + 1));
  if (!rptr || !rcol || !fill || !stamp) goto done;
  for (int q = 0; q < c->nnz; q++)
    rptr[c->rowidx[q] + 1]++;
  for (int i = 0; i < n; i++)
    rptr[i + 1] += rptr[i];
  for (int j = 0; j < n; j++)
    for (int q = c->colptr[j]; q < c->colptr[j + 1]; q++) {
      int i = c->rowidx[q];
      rcol[rptr[i] + fill[i]++] = j;
    }
  for (int k = 0; k <= n; k++)
    stamp[k] = -1;
  /* a full matrix needs a group per column; the search would cost n^3 */
  int full = (long long)c->nnz == (long long)n * n;
  for (int j = 0; full && j < n; j++)
    c->color[j] = j;
  c->ncolors = full ? n : 0;
  for (int j = 0; !full && j < n; j++) {
    /* stamp[g] == j: group g already touches one of column j's rows */
    for (int q = c->colptr[j]; q < c->colptr[j + 1]; q++) {
      int i = c->rowidx[q];
      for (int r = rptr[i]; r < rptr[i + 1]; r++) {
        int k = rcol[r];
        if (k < j) stamp[c->color[k]] = j;
      }
    }
    int g = 0;
    while (stamp[g] == j)
      g++;
    c->color[j] = g;
    if (g + 1 > c->ncolors) c->ncolors = g + 1;
  }
  c->gstart = calloc((size_t)c->ncolors + 1, sizeof(int));
  c->gcols = malloc(sizeof(int) * (size_t)(n ? n : 1));
  if (!c->gstart || !c->gcols) goto done;
  for (int j = 0; j < n; j++)
    c->gstart[c->color[j] + 1]++;
  for (int g = 0; g < c->ncolors; g++)
    c->gstart[g + 1] += c->gstart[g];
  memset(fill, 0, sizeof(int) * (size_t)(n + 1));
  for (int j = 0; j < n; j++)
    c->gcols[c->gstart[c->color[j]] + fill[c->color[j]]++] = j;
  rc = 0;
done:
  free(rptr);
  free(rcol);
  free(fill);
  free(stamp);
  return rc;
}

bsim_cfd *bsim_cfd_create(int n, const int *colptr, const int *rowidx) {
  if (n < 1 || !colptr || !rowidx || colptr[0] != 0) return NULL;
  for (int j = 0; j < n; j++)
    if (colptr[j + 1] < colptr[j]) return NULL;
  int nnz = colptr[n];
  for (int q = 0; q < nnz; q++)
    if (rowidx[q] < 0 || rowidx[q] >= n) return NULL;
  bsim_cfd *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  c->n = n;
  c->nnz = nnz;
  c->colptr = malloc(sizeof(int) * (size_t)(n + 1));
  c->rowidx = malloc(sizeof(int) * (size_t)(nnz ? nnz : 1));
  c->color = malloc(sizeof(int) * (size_t)n);
  c->fp = malloc(sizeof(double) * (size_t)n);
  c->sy = malloc(sizeof(double) * (size_t)n);
  c->syp = malloc(sizeof(double) * (size_t)n);
  if (!c->colptr || !c->rowidx || !c->color || !c->fp || !c->sy || !c->syp) {
    bsim_cfd_free(c);
    return NULL;
  }
  memcpy(c->colptr, colptr, sizeof(int) * (size_t)(n + 1));
  memcpy(c->rowidx, rowidx, sizeof(int) * (size_t)nnz);
  if (group_columns(c) != 0) {
    bsim_cfd_free(c);
    return NULL;
  }
  return c;
}

int bsim_cfd_ncolors(const bsim_cfd *c) {
  return c->ncolors;
}

int bsim_cfd_color(const bsim_cfd *c, int j) {
  return j >= 0 && j < c->n ? c->color[j] : -1;
}

int bsim_cfd_eval(bsim_cfd *c, bsim_cfd_residual f, void *user, double t,
                  double *y, double *yp, const double *f0, double cj,
                  const double *inc, double *values) {
  for (int g = 0; g < c->ncolors; g++) {
    const int *cols = c->gcols + c->gstart[g];
    int ncols = c->gstart[g + 1] - c->gstart[g];
    /* Saved values come back exactly, which y + inc - inc may not. */
    for (int k = 0; k < ncols; k++) {
      int j = cols[k];
      c->sy[k] = y[j];
      c->syp[k] = yp[j];
      y[j] += inc[j];
      yp[j] += cj * inc[j];
    }
    int rc = f(t, y, yp, c->fp, user);
    for (int k = 0; k < ncols; k++) {
      y[cols[k]] = c->sy[k];
      yp[cols[k]] = c->syp[k];
    }
    if (rc != 0) return rc;
    /* Columns of one group share no row: each row's change is due to the
     * one column of the group that touches it. */
    for (int k = 0; k < ncols; k++) {
      int j = cols[k];
      double inv = 1.0 / inc[j];
      for (int q = c->colptr[j]; q < c->colptr[j + 1]; q++) {
        int i = c->rowidx[q];
        values[q] = (c->fp[i] - f0[i]) * inv;
      }
    }
  }
  return 0;
}
