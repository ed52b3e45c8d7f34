/*
 * Spline data of CURVE_c (blocks/spline.c), private to the block library:
 * the methods are numbered as CURVE_c's dialog numbers them.
 */
#ifndef BSIM_BLOCKS_SPLINE_H
#define BSIM_BLOCKS_SPLINE_H

enum {
  BSIM_SPLINE_ZERO_ORDER = 0,
  BSIM_SPLINE_LINEAR = 1,
  BSIM_SPLINE_ORDER2 = 2,
  BSIM_SPLINE_NOT_A_KNOT = 3,
  BSIM_SPLINE_PERIODIC = 4,
  BSIM_SPLINE_MONOTONE = 5,
  BSIM_SPLINE_FAST = 6,
  BSIM_SPLINE_CLAMPED = 7
};

/* The knot derivatives d[0..n-1] of Scilab's splin(x, y, method) for the
 * cubic methods (3..7); x strictly increasing, n >= 2; periodic needs
 * y(n) = y(1); clamped takes d[0] and d[n-1] as given. 0, or -1 on bad
 * data or a singular system. */
int bsim_spline_derivatives(int method, const double *x, const double *y, int n,
                            double *d);
/* CURVE_c's "order 2" quadratic: z = [a; b; c], n-1 entries each, for
 * n >= 3 points. 0, or -1. */
int bsim_spline_order2(const double *x, const double *y, int n, double *z);
/* The cubic Hermite interpolant on [xa, xb] at t. */
void bsim_spline_hermite(double t, double xa, double xb, double ya, double yb,
                         double da, double db, double *y);

#endif
