/*
 * The serial vector kernels of nvec_fast.h. Each computes element by
 * element in the order and with the same operations as SUNDIALS' serial
 * vector (including its special cases of N_VLinearSum, whose roundings
 * differ), so results do not change with the table, only their cost.
 * Every kernel reads element i of its inputs before writing element i of
 * its output, so outputs may alias inputs as SUNDIALS allows.
 */
#include "solvers/nvec_fast.h"

#include <math.h>

#include <nvector/nvector_serial.h>

#define LEN(v) NV_LENGTH_S(v)
#define DATA(v) NV_DATA_S(v)

static void linear_sum(realtype a, N_Vector x, realtype b, N_Vector y,
                       N_Vector z) {
  const double *xd = DATA(x), *yd = DATA(y);
  double *zd = DATA(z);
  sunindextype n = LEN(x);
  /* the sum alone: CVODE's prediction adds history rows pairwise, q (q +
   * 1) / 2 times a step (78 at Adams' order 12) */
  if (a == 1.0 && b == 1.0)
    for (sunindextype i = 0; i < n; i++)
      zd[i] = xd[i] + yd[i];
  /* SUNDIALS computes a (x + y) and a (x - y) for b = a and b = -a */
  else if (a == b)
    for (sunindextype i = 0; i < n; i++)
      zd[i] = a * (xd[i] + yd[i]);
  else if (a == -b && a != 1.0 && a != -1.0)
    for (sunindextype i = 0; i < n; i++)
      zd[i] = a * (xd[i] - yd[i]);
  else if (n < 4) /* a handful of states: no vector loop's set-up */
    for (sunindextype i = 0; i < n; i++)
      zd[i] = a * xd[i] + b * yd[i];
  else
    for (sunindextype i = 0; i < n; i++)
      zd[i] = a * xd[i] + b * yd[i];
}

static void scale(realtype c, N_Vector x, N_Vector z) {
  const double *xd = DATA(x);
  double *zd = DATA(z);
  sunindextype n = LEN(x);
  for (sunindextype i = 0; i < n; i++)
    zd[i] = c * xd[i];
}

static void vconst(realtype c, N_Vector z) {
  double *zd = DATA(z);
  sunindextype n = LEN(z);
  for (sunindextype i = 0; i < n; i++)
    zd[i] = c;
}

static void prod(N_Vector x, N_Vector y, N_Vector z) {
  const double *xd = DATA(x), *yd = DATA(y);
  double *zd = DATA(z);
  sunindextype n = LEN(x);
  for (sunindextype i = 0; i < n; i++)
    zd[i] = xd[i] * yd[i];
}

static void vdiv(N_Vector x, N_Vector y, N_Vector z) {
  const double *xd = DATA(x), *yd = DATA(y);
  double *zd = DATA(z);
  sunindextype n = LEN(x);
  for (sunindextype i = 0; i < n; i++)
    zd[i] = xd[i] / yd[i];
}

static void vabs(N_Vector x, N_Vector z) {
  const double *xd = DATA(x);
  double *zd = DATA(z);
  sunindextype n = LEN(x);
  for (sunindextype i = 0; i < n; i++)
    zd[i] = fabs(xd[i]);
}

static void inv(N_Vector x, N_Vector z) {
  const double *xd = DATA(x);
  double *zd = DATA(z);
  sunindextype n = LEN(x);
  for (sunindextype i = 0; i < n; i++)
    zd[i] = 1.0 / xd[i];
}

static void add_const(N_Vector x, realtype b, N_Vector z) {
  const double *xd = DATA(x);
  double *zd = DATA(z);
  sunindextype n = LEN(x);
  for (sunindextype i = 0; i < n; i++)
    zd[i] = xd[i] + b;
}

static realtype wsqr_sum(N_Vector x, N_Vector w) {
  const double *xd = DATA(x), *wd = DATA(w);
  sunindextype n = LEN(x);
  double sum = 0.0;
  for (sunindextype i = 0; i < n; i++) {
    double p = xd[i] * wd[i];
    sum += p * p;
  }
  return sum;
}

static realtype wrms_norm(N_Vector x, N_Vector w) {
  return sqrt(wsqr_sum(x, w) / (double)LEN(x));
}

static realtype max_norm(N_Vector x) {
  const double *xd = DATA(x);
  sunindextype n = LEN(x);
  double m = 0.0;
  for (sunindextype i = 0; i < n; i++)
    if (fabs(xd[i]) > m) m = fabs(xd[i]);
  return m;
}

/* z = sum c[j] X[j], summed as SUNDIALS' fallback does: c[0] X[0] first,
 * then each further term added in turn. That fallback writes z before
 * reading X[1] ..., so callers never pass z as one of those; IDA passes
 * it as X[0]. The first four terms are summed in one pass, the others two
 * at a time, in the same order, so that z is read and written once per
 * pass: IDA interpolates y and y' this way at every output time, a quarter
 * of a run whose scopes sample often. */
static int linear_combination(int nvec, realtype *c, N_Vector *X, N_Vector z) {
  double *zd = DATA(z);
  sunindextype n = LEN(z);
  if (nvec < 1) return -1;
  for (int j = 1; j < nvec; j++)
    if (X[j] == z) return -1;
  double c0 = c[0];
  const double *x0 = DATA(X[0]);
  int j = 1;
  if (nvec >= 4) {
    const double *x1 = DATA(X[1]), *x2 = DATA(X[2]), *x3 = DATA(X[3]);
    double c1 = c[1], c2 = c[2], c3 = c[3];
    for (sunindextype i = 0; i < n; i++)
      zd[i] = c3 * x3[i] + (c2 * x2[i] + (c1 * x1[i] + c0 * x0[i]));
    j = 4;
  } else {
    scale(c0, X[0], z);
  }
  for (; j + 2 <= nvec; j += 2) {
    const double *x1 = DATA(X[j]), *x2 = DATA(X[j + 1]);
    double c1 = c[j], c2 = c[j + 1];
    for (sunindextype i = 0; i < n; i++)
      zd[i] = c2 * x2[i] + (c1 * x1[i] + zd[i]);
  }
  for (; j < nvec; j++) {
    const double *xd = DATA(X[j]);
    double cj = c[j];
    for (sunindextype i = 0; i < n; i++)
      zd[i] = cj * xd[i] + zd[i];
  }
  return 0;
}

/* Z[j] = a[j] x + Y[j] */
static int scale_add_multi(int nvec, realtype *a, N_Vector x, N_Vector *Y,
                           N_Vector *Z) {
  for (int j = 0; j < nvec; j++)
    linear_sum(a[j], x, 1.0, Y[j], Z[j]);
  return 0;
}

/* Z[j] = a X[j] + b Y[j] */
static int linear_sum_array(int nvec, realtype a, N_Vector *X, realtype b,
                            N_Vector *Y, N_Vector *Z) {
  for (int j = 0; j < nvec; j++)
    linear_sum(a, X[j], b, Y[j], Z[j]);
  return 0;
}

void bsim_nvec_fast(N_Vector v) {
  N_Vector_Ops o = v->ops;
  o->nvlinearsum = linear_sum;
  o->nvconst = vconst;
  o->nvprod = prod;
  o->nvdiv = vdiv;
  o->nvscale = scale;
  o->nvabs = vabs;
  o->nvinv = inv;
  o->nvaddconst = add_const;
  o->nvwrmsnorm = wrms_norm;
  o->nvwsqrsumlocal = wsqr_sum;
  o->nvmaxnorm = max_norm;
  o->nvmaxnormlocal = max_norm;
  o->nvlinearcombination = linear_combination;
  o->nvscaleaddmulti = scale_add_multi;
  o->nvlinearsumvectorarray = linear_sum_array;
}
