/*
 * Newton Jacobians for every implicit engine, from the analytic callback or
 * from finite differences over the sparsity pattern. The ODE engines' df/dy
 * is -dF/dy at y' = 0 (F = y' - f), so both forms run the same residual
 * calls and differ by a sign and by which y' they pass: that keeps the
 * increments, the counting and the failure conventions in one place.
 */
#include "solvers/newton_jac.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solvers/colored_fd.h"

struct bsim_njac {
  int n, form;
  int *colptr, *rowidx; /* copy of the pattern, or NULL */
  bsim_cfd *cfd;        /* finite differences over it, or NULL */
  int (*analytic)(double, const double *, const double *, double, double *,
                  void *);
  int (*residual)(double, const double *, const double *, double *, void *);
  void *user;
  double *values;    /* nnz entries, or n without a pattern */
  double *inc;       /* increments, n */
  double *zero, *F0; /* ODE form: y' = 0 and F(t, y, 0) = -f; n each */
  double *fp;        /* perturbed residual for the diagonal, n */
  long evals, fd_evals;
};

void bsim_njac_free(bsim_njac *j) {
  if (!j) return;
  bsim_cfd_free(j->cfd);
  free(j->colptr);
  free(j->rowidx);
  free(j->values);
  free(j->inc);
  free(j->zero);
  free(j->F0);
  free(j->fp);
  free(j);
}

bsim_njac *bsim_njac_create(const bsim_problem *p, int form, int analytic) {
  int n = p->n;
  int have = p->pattern_colptr && p->pattern_rowidx;
  bsim_njac *j = calloc(1, sizeof *j);
  if (!j || n < 1) {
    free(j);
    return NULL;
  }
  j->n = n;
  j->form = form;
  j->residual = p->residual;
  j->user = p->user;
  j->analytic = have && analytic ? p->jacobian : NULL;
  int nnz = have ? p->pattern_colptr[n] : n;
  j->values = malloc(sizeof(double) * (size_t)(nnz ? nnz : 1));
  j->inc = malloc(sizeof(double) * (size_t)n);
  j->zero = calloc((size_t)n, sizeof(double));
  j->F0 = malloc(sizeof(double) * (size_t)n);
  j->fp = malloc(sizeof(double) * (size_t)n);
  if (!j->values || !j->inc || !j->zero || !j->F0 || !j->fp) goto fail;
  if (have) {
    j->colptr = malloc(sizeof(int) * (size_t)(n + 1));
    j->rowidx = malloc(sizeof(int) * (size_t)(nnz ? nnz : 1));
    if (!j->colptr || !j->rowidx) goto fail;
    memcpy(j->colptr, p->pattern_colptr, sizeof(int) * (size_t)(n + 1));
    memcpy(j->rowidx, p->pattern_rowidx, sizeof(int) * (size_t)nnz);
    if (!j->analytic && !(j->cfd = bsim_cfd_create(n, j->colptr, j->rowidx)))
      goto fail;
  }
  return j;
fail:
  bsim_njac_free(j);
  return NULL;
}

/* The residual as finite differences call it, counted; a NaN is a
 * recoverable failure, as the engines treat it in their own calls. */
static int fd_residual(double t, const double *y, const double *yp, double *res,
                       void *ud) {
  bsim_njac *j = ud;
  j->fd_evals++;
  int rc = j->residual(t, y, yp, res, j->user);
  if (rc != 0) return rc < 0 ? -1 : 1;
  for (int i = 0; i < j->n; i++)
    if (!isfinite(res[i])) return 1;
  return 0;
}

/* The usual increments for BDF Newton matrices: a square root of the unit
 * roundoff times the larger of |y_j|, |h y'_j| and the size the error
 * weights call negligible, signed as h y'_j so that the perturbed point
 * lies where the step goes. */
static void increments(bsim_njac *j, const double *y, const double *rate,
                       double h, const double *ewt) {
  const double srur = sqrt(DBL_EPSILON);
  for (int k = 0; k < j->n; k++) {
    double scale = fmax(fabs(y[k]), fabs(h * rate[k]));
    if (ewt && ewt[k] > 0) scale = fmax(scale, 1.0 / ewt[k]);
    if (!(scale > 0) || !isfinite(scale)) scale = 1.0;
    double d = srur * scale;
    if (h * rate[k] < 0) d = -d;
    j->inc[k] = (y[k] + d) - y[k]; /* exactly representable */
    if (j->inc[k] == 0) j->inc[k] = d;
  }
}

/* Without a pattern: the diagonal, one unknown at a time. */
static int diagonal(bsim_njac *j, double t, double *y, double *yp, double cj,
                    const double *F0) {
  for (int k = 0; k < j->n; k++) {
    double sy = y[k], syp = yp[k];
    y[k] += j->inc[k];
    yp[k] += cj * j->inc[k];
    int rc = fd_residual(t, y, yp, j->fp, j);
    y[k] = sy;
    yp[k] = syp;
    if (rc != 0) return rc;
    j->values[k] = (j->fp[k] - F0[k]) / j->inc[k];
  }
  return 0;
}

/* dF/dy + cj dF/dy' into j->values; rate sizes the increments. */
static int eval(bsim_njac *j, double t, double *y, double *yp, double cj,
                const double *F0, const double *rate, double h,
                const double *ewt) {
  int rc;
  j->evals++;
  if (j->analytic) {
    rc = j->analytic(t, y, yp, cj, j->values, j->user);
  } else {
    increments(j, y, rate, h, ewt);
    rc = j->cfd ? bsim_cfd_eval(j->cfd, fd_residual, j, t, y, yp, F0, cj,
                                j->inc, j->values)
                : diagonal(j, t, y, yp, cj, F0);
  }
  return rc == 0 ? 0 : rc < 0 ? -1 : 1;
}

int bsim_njac_dae(bsim_njac *j, double t, double *y, double *yp, double cj,
                  const double *F0, double h, const double *ewt) {
  return eval(j, t, y, yp, cj, F0, yp, h, ewt);
}

int bsim_njac_ode(bsim_njac *j, double t, double *y, const double *f, double h,
                  const double *ewt) {
  for (int k = 0; k < j->n; k++)
    j->F0[k] = -f[k];
  int rc = eval(j, t, y, j->zero, 0.0, j->F0, f, h, ewt);
  if (rc != 0) return rc;
  int nv = j->colptr ? j->colptr[j->n] : j->n;
  for (int q = 0; q < nv; q++)
    j->values[q] = -j->values[q];
  return 0;
}

const double *bsim_njac_values(const bsim_njac *j) {
  return j->values;
}

const int *bsim_njac_colptr(const bsim_njac *j) {
  return j->colptr;
}

const int *bsim_njac_rowidx(const bsim_njac *j) {
  return j->rowidx;
}

int bsim_njac_colors(const bsim_njac *j) {
  return j && j->cfd ? bsim_cfd_ncolors(j->cfd) : 0;
}

long bsim_njac_evals(const bsim_njac *j) {
  return j ? j->evals : 0;
}

long bsim_njac_residual_evals(const bsim_njac *j) {
  return j ? j->fd_evals : 0;
}

void bsim_njac_dense_rows(const bsim_njac *j, double s, double *a) {
  size_t n = (size_t)j->n;
  memset(a, 0, sizeof(double) * n * n);
  if (!j->colptr) {
    for (size_t k = 0; k < n; k++)
      a[k * n + k] = s * j->values[k];
    return;
  }
  for (int c = 0; c < j->n; c++)
    for (int q = j->colptr[c]; q < j->colptr[c + 1]; q++)
      a[(size_t)j->rowidx[q] * n + (size_t)c] = s * j->values[q];
}
