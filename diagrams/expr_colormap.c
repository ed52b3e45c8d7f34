/*
 * Scilab's colour maps, as functions of the evaluator: jetcolormap(n),
 * graycolormap(n) and hotcolormap(n), each an n x 3 matrix of RGB values
 * in [0, 1]. The matrix-view sinks (CMATVIEW, CMAT3D) take one in their
 * dialogs ("jetcolormap(25)") and store it in rpar, so a diagram written
 * by Xcos needs them to evaluate its blocks' parameters.
 */
#include <math.h>
#include <string.h>

#include "diagrams/expr_int.h"

/* Piecewise linear through the knots (x[k], y[k]), k = 0..5. */
static double knots(const double *x, const double *y, double t) {
  int k = 0;
  while (k < 4 && t > x[k + 1])
    k++;
  return y[k] + (t - x[k]) * (y[k + 1] - y[k]) / (x[k + 1] - x[k]);
}

/* Blue to red through cyan, green and yellow: each channel piecewise
 * linear in the colour's position (i + 1/2) / n. */
static void jet(double *c, long n) {
  static const double x[6] = {0, 0.125, 0.375, 0.625, 0.875, 1};
  static const double rgb[3][6] = {
      {0, 0, 0, 1, 1, 0.5}, {0, 0, 1, 1, 0, 0}, {0.5, 1, 1, 0, 0, 0}};
  double d = 0.5 / (double)(n > 1 ? n : 1);
  for (long i = 0; i < n; i++) {
    double t = n == 1 ? d : d + (1 - 2 * d) * (double)i / (double)(n - 1);
    for (int ch = 0; ch < 3; ch++)
      c[i + ch * n] = fmin(1, fmax(0, knots(x, rgb[ch], t)));
  }
}

static void gray(double *c, long n) {
  for (long i = 0; i < n; i++)
    c[i] = c[i + n] = c[i + 2 * n] = (double)i / (double)(n > 1 ? n - 1 : 1);
}

/* Black to white through red and yellow: the first 3n/8 colours ramp up
 * red, the next 3n/8 green, the rest blue. */
static void hot(double *c, long n) {
  long n1 = (long)(3.0 / 8.0 * (double)n), n3 = n - 2 * n1;
  for (long i = 0; i < n; i++) {
    double *r = &c[i], *g = &c[i + n], *b = &c[i + 2 * n];
    *r = i < n1 ? (double)(i + 1) / (double)n1 : 1;
    *g = i < n1 ? 0 : i < 2 * n1 ? (double)(i - n1 + 1) / (double)n1 : 1;
    *b = i < 2 * n1 ? 0 : (double)(i - 2 * n1 + 1) / (double)n3;
  }
}

static const struct {
  const char *name;
  void (*fill)(double *, long);
} maps[] = {{"jetcolormap", jet}, {"graycolormap", gray}, {"hotcolormap", hot}};

#define NMAPS (sizeof maps / sizeof maps[0])

int ex_is_colormap(const char *name) {
  for (size_t m = 0; m < NMAPS; m++)
    if (strcmp(name, maps[m].name) == 0) return 1;
  return 0;
}

int ex_call_colormap(parser *P, const char *name, size_t pos, mat *args, int n,
                     mat *out) {
  for (size_t m = 0; m < NMAPS; m++) {
    if (strcmp(name, maps[m].name) != 0) continue;
    const mat *a = n == 1 ? &args[0] : NULL;
    if (a && ex_need_real(P, a, name, pos) != 0) return -1;
    if (!a || !is_scalar(a) || !(a->v[0] >= 0) || a->v[0] != floor(a->v[0]) ||
        a->v[0] > 1e6)
      return ex_fail(P,
                     "function '%s' at column %zu takes one integer >= 0, "
                     "the number of colours",
                     name, col(pos));
    long k = (long)a->v[0];
    if (ex_mat_new(P, out, k, k ? 3 : 0)) return -1;
    if (k) maps[m].fill(out->v, k);
    return 0;
  }
  return 1;
}
