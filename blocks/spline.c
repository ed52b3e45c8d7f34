/*
 * The spline data CURVE_c keeps in rpar, computed as Scilab computes them
 * when the block's dialog is evaluated: the derivatives at the knots of a
 * cubic Hermite interpolant (Scilab's splin: not-a-knot, periodic,
 * clamped, "fast" three-point and monotone Fritsch-Carlson slopes), and
 * the coefficients of CURVE_c's "order 2" piecewise quadratic. The linear
 * systems are solved with GSL (tridiagonal, cyclic, LU).
 */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_linalg.h>

#include "blocks/spline.h"

/* The derivative of the parabola through three successive points, at
 * each point (the weights are those of the divided differences). */
static void three_point(const double *x, const double *y, int n, double *d) {
  double hl = x[1] - x[0], sl = (y[1] - y[0]) / hl;
  double hr = x[2] - x[1], sr = (y[2] - y[1]) / hr;
  double wl = hr / (hl + hr), wr = 1.0 - wl;
  d[0] = (1.0 + wr) * sl - wr * sr;
  d[1] = wl * sl + wr * sr;
  for (int i = 2; i < n - 1; i++) {
    hl = hr;
    sl = sr;
    hr = x[i + 1] - x[i];
    sr = (y[i + 1] - y[i]) / hr;
    wl = hr / (hl + hr);
    wr = 1.0 - wl;
    d[i] = wl * sl + wr * sr;
  }
  d[n - 1] = (1.0 + wl) * sr - wl * sl;
}

/* Monotone slopes (Fritsch and Carlson; the weighted harmonic mean of
 * Fritsch and Butland inside, a three-point formula limited to keep the
 * shape at the ends), as SLATEC's PCHIM, which splin uses. */
static double end_slope(double h1, double h2, double s1, double s2) {
  double d = ((2 * h1 + h2) * s1 - h1 * s2) / (h1 + h2);
  if (d * s1 <= 0 || s1 == 0) return 0.0;
  if (s1 * s2 < 0 && fabs(d) > fabs(3 * s1)) return 3 * s1;
  return d;
}

static void monotone(const double *x, const double *y, int n, double *d) {
  double h1 = x[1] - x[0], h2 = x[2] - x[1];
  double s1 = (y[1] - y[0]) / h1, s2 = (y[2] - y[1]) / h2;
  d[0] = end_slope(h1, h2, s1, s2);
  for (int i = 1; i < n - 1; i++) {
    if (i > 1) {
      h1 = h2;
      h2 = x[i + 1] - x[i];
      s1 = s2;
      s2 = (y[i + 1] - y[i]) / h2;
    }
    d[i] = 0;
    if (s1 * s2 > 0) {
      double w1 = (2 * h1 + h2) / (3 * (h1 + h2));
      double w2 = (h1 + 2 * h2) / (3 * (h1 + h2));
      double big = fmax(fabs(s1), fabs(s2)), small = fmin(fabs(s1), fabs(s2));
      d[i] = small / (w1 * (s1 / big) + w2 * (s2 / big));
    }
  }
  d[n - 1] = end_slope(h2, h1, s2, s1);
}

/* The C2 cubic spline's knot derivatives: row i (inside) reads
 * s(i-1) d(i-1) + 2 (s(i-1) + s(i)) d(i) + s(i) d(i+1) = 3 (q(i-1) + q(i)),
 * with s = 1/h and q = (y(i+1) - y(i)) / h^2, plus the end conditions. */
static int cubic(int method, const double *x, const double *y, int n,
                 double *d) {
  int rc = -1;
  double *s = malloc((size_t)n * sizeof *s), *q = malloc((size_t)n * sizeof *q);
  double *diag = malloc((size_t)n * sizeof *diag);
  double *off = malloc((size_t)n * sizeof *off);
  double *rhs = malloc((size_t)n * sizeof *rhs);
  if (!s || !q || !diag || !off || !rhs) goto out;
  for (int i = 0; i < n - 1; i++) {
    s[i] = 1.0 / (x[i + 1] - x[i]);
    q[i] = (y[i + 1] - y[i]) * s[i] * s[i];
  }
  for (int i = 1; i < n - 1; i++) {
    diag[i] = 2.0 * (s[i - 1] + s[i]);
    rhs[i] = 3.0 * (q[i - 1] + q[i]);
  }
  for (int i = 0; i < n - 1; i++)
    off[i] = s[i];
  int first = 0, m = n; /* the unknowns solved for: d[first..first+m-1] */
  if (method == BSIM_SPLINE_NOT_A_KNOT) {
    /* third derivative continuous across the second and last-but-one
     * knots, eliminated into the first and last rows */
    double r = s[1] / s[0];
    diag[0] = s[0] / (1.0 + r);
    rhs[0] = ((3.0 * r + 2.0) * q[0] + r * q[1]) / ((1.0 + r) * (1.0 + r));
    r = s[n - 3] / s[n - 2];
    diag[n - 1] = s[n - 2] / (1.0 + r);
    rhs[n - 1] =
        ((3.0 * r + 2.0) * q[n - 2] + r * q[n - 3]) / ((1.0 + r) * (1.0 + r));
  } else if (method == BSIM_SPLINE_CLAMPED) {
    /* d[0] and d[n-1] given: move them to the right-hand side */
    rhs[1] -= d[0] * s[0];
    rhs[n - 2] -= d[n - 1] * s[n - 2];
    first = 1;
    m = n - 2;
  } else { /* periodic: d[n-1] = d[0]; n-1 unknowns, cyclic */
    diag[0] = 2.0 * (s[0] + s[n - 2]);
    rhs[0] = 3.0 * (q[0] + q[n - 2]);
    m = n - 1;
  }
  gsl_vector_view dv = gsl_vector_view_array(diag + first, (size_t)m);
  gsl_vector_view bv = gsl_vector_view_array(rhs + first, (size_t)m);
  gsl_vector_view xv = gsl_vector_view_array(d + first, (size_t)m);
  int err;
  if (method == BSIM_SPLINE_PERIODIC && m >= 3) {
    off[m - 1] = s[n - 2]; /* the corner: the last interval meets the first */
    gsl_vector_view ov = gsl_vector_view_array(off, (size_t)m);
    err = gsl_linalg_solve_symm_cyc_tridiag(&dv.vector, &ov.vector, &bv.vector,
                                            &xv.vector);
  } else if (m == 1) {
    d[first] = rhs[first] / diag[first];
    err = 0;
  } else {
    if (method == BSIM_SPLINE_PERIODIC) /* 2 unknowns: corner and offdiag */
      off[0] += s[n - 2];
    gsl_vector_view ov = gsl_vector_view_array(off + first, (size_t)m - 1);
    err = gsl_linalg_solve_symm_tridiag(&dv.vector, &ov.vector, &bv.vector,
                                        &xv.vector);
  }
  if (method == BSIM_SPLINE_PERIODIC) d[n - 1] = d[0];
  rc = err ? -1 : 0;
out:
  free(s);
  free(q);
  free(diag);
  free(off);
  free(rhs);
  return rc;
}

int bsim_spline_derivatives(int method, const double *x, const double *y, int n,
                            double *d) {
  if (n < 2) return -1;
  for (int i = 0; i + 1 < n; i++)
    if (!(x[i + 1] > x[i])) return -1;
  if (method == BSIM_SPLINE_PERIODIC && y[n - 1] != y[0]) return -1;
  if (n == 2) { /* a straight line (clamped keeps its given ends) */
    if (method != BSIM_SPLINE_CLAMPED)
      d[0] = d[1] = (y[1] - y[0]) / (x[1] - x[0]);
    return 0;
  }
  switch (method) {
  case BSIM_SPLINE_FAST:
    three_point(x, y, n, d);
    return 0;
  case BSIM_SPLINE_MONOTONE:
    monotone(x, y, n, d);
    return 0;
  case BSIM_SPLINE_NOT_A_KNOT:
    if (n == 3) { /* one cubic through three points: the parabola */
      three_point(x, y, n, d);
      return 0;
    }
    return cubic(method, x, y, n, d);
  case BSIM_SPLINE_CLAMPED:
  case BSIM_SPLINE_PERIODIC:
    return cubic(method, x, y, n, d);
  default:
    return -1;
  }
}

/* The piecewise quadratic a (x - x(i))^2 + b (x - x(i)) + c through the
 * points with a continuous derivative, as Scilab's CURVE_c defines it:
 * among those, the one with the least sum over the pieces of (2 a h + b)^2
 * (each piece's slope at its right end), found from the KKT system of
 * that quadratic program (LU with partial pivoting, as Scilab's backslash
 * does for a square system). */
int bsim_spline_order2(const double *x, const double *y, int n, double *z) {
  int m = n - 1, nu = 3 * m, nc = 3 * m - 1, N = nu + nc;
  if (m < 2) return -1;
  gsl_matrix *K = gsl_matrix_calloc((size_t)N, (size_t)N);
  gsl_vector *b = gsl_vector_calloc((size_t)N);
  gsl_vector *sol = gsl_vector_alloc((size_t)N);
  gsl_permutation *p = gsl_permutation_alloc((size_t)N);
  int rc = -1, sign;
  if (!K || !b || !sol || !p) goto out;
  /* unknowns: a_0..a_{m-1}, b_0.., c_0..; then the multipliers */
  for (int i = 0; i < m; i++) {
    double h = x[i + 1] - x[i];
    gsl_matrix_set(K, (size_t)i, (size_t)i, 4 * h * h);
    gsl_matrix_set(K, (size_t)i, (size_t)(i + m), 2 * h);
    gsl_matrix_set(K, (size_t)(i + m), (size_t)i, 2 * h);
    gsl_matrix_set(K, (size_t)(i + m), (size_t)(i + m), 1);
  }
  /* constraint rows (and their transposed columns) */
  for (int i = 0; i < m; i++) {
    double h = x[i + 1] - x[i];
    size_t r = (size_t)(nu + 3 * i);
    const struct {
      size_t row;
      int col;
      double v;
    } e[] = {{r, i + 2 * m, 1},     {r + 1, i, h * h}, {r + 1, i + m, h},
             {r + 1, i + 2 * m, 1}, {r + 2, i, 2 * h}, {r + 2, i + m, 1},
             {r + 2, i + m + 1, -1}};
    int ne = i < m - 1 ? 7 : 4; /* the last interval has no continuity row */
    for (int k = 0; k < ne; k++) {
      gsl_matrix_set(K, e[k].row, (size_t)e[k].col, e[k].v);
      gsl_matrix_set(K, (size_t)e[k].col, e[k].row, e[k].v);
    }
    gsl_vector_set(b, r, y[i]);
    gsl_vector_set(b, r + 1, y[i + 1]);
  }
  if (gsl_linalg_LU_decomp(K, p, &sign) == 0 &&
      gsl_linalg_LU_solve(K, p, b, sol) == 0) {
    for (int i = 0; i < nu; i++)
      z[i] = gsl_vector_get(sol, (size_t)i);
    rc = 0;
    for (int i = 0; i < nu; i++)
      if (!isfinite(z[i])) rc = -1;
  }
out:
  gsl_matrix_free(K);
  gsl_vector_free(b);
  gsl_vector_free(sol);
  gsl_permutation_free(p);
  return rc;
}

void bsim_spline_hermite(double t, double xa, double xb, double ya, double yb,
                         double da, double db, double *y) {
  /* the cubic with values ya, yb and slopes da, db at xa, xb, in Newton
   * form around xa */
  double h = 1.0 / (xb - xa), p = (yb - ya) * h;
  double c2 = (p - da) * h, c3 = ((db - p) + (da - p)) * (h * h);
  double u = t - xa;
  *y = ya + (da + (c2 + c3 * (t - xb)) * u) * u;
}
