/*
 * Shared helpers of the end-to-end tests (test_e2e_*.c): load a diagram from
 * tests/data/e2e, run it through the public embedding API only, and compare
 * observed columns against closed forms. Kept in a header of static functions
 * so each test program stays a single translation unit.
 */
#ifndef BSIM_TEST_E2E_H
#define BSIM_TEST_E2E_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "blocksim/blocksim.h"
#include "tests/unit/test_library.h"

#ifndef BSIM_TEST_DATA
#error "BSIM_TEST_DATA must name the tests/data folder"
#endif

/* M_PI is not in strict C11. */
#define E2E_PI 3.14159265358979323846

static int e2e_failures;

#define E2E_CHECK(cond, ...)                                                   \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: FAILED %s: ", __FILE__, __LINE__, #cond);        \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                     \
      e2e_failures++;                                                          \
    }                                                                          \
  } while (0)

typedef double (*e2e_exact_fn)(double t, const void *arg);

static void e2e_path(char *buf, size_t n, const char *file) {
  snprintf(buf, n, "%s/e2e/%s", BSIM_TEST_DATA, file);
}

/* Loads tests/data/e2e/<file>; reports and returns NULL on failure. */
static bsim_diagram *e2e_load(const char *file) {
  char path[1024];
  bsim_error err;
  bsim_error_clear(&err);
  e2e_path(path, sizeof path, file);
  bsim_diagram *d = bsim_diagram_load(path, test_library(), &err);
  if (!d) {
    fprintf(stderr, "FAILED: loading %s: [%d] %s\n", path, (int)err.status,
            err.message);
    e2e_failures++;
  }
  return d;
}

/* Flattens, compiles and runs d with o (NULL = the diagram's settings);
 * reports and returns NULL on any failure. */
static bsim_sim *e2e_run_diagram(const bsim_diagram *d, const bsim_options *o,
                                 const char *what) {
  bsim_options defaults;
  bsim_error err;
  bsim_error_clear(&err);
  if (!o) {
    bsim_options_init(&defaults);
    o = &defaults;
  }
  bsim_sim *s = bsim_sim_create(d, o, &err);
  if (!s) {
    fprintf(stderr, "FAILED: %s: sim_create: [%d] %s\n", what, (int)err.status,
            err.message);
    e2e_failures++;
    return NULL;
  }
  if (bsim_sim_run(s, &err) != 0) {
    fprintf(stderr, "FAILED: %s: sim_run: [%d] %s\n", what, (int)err.status,
            err.message);
    e2e_failures++;
    bsim_sim_free(s);
    return NULL;
  }
  return s;
}

/* Column index of an observed name, or -1 (reported). */
static long e2e_col(const bsim_sim *s, const char *name) {
  size_t n = bsim_result_cols(s);
  for (size_t c = 0; c < n; c++) {
    const char *got = bsim_result_name(s, c);
    if (got && strcmp(got, name) == 0) return (long)c;
  }
  fprintf(stderr, "FAILED: no result column named '%s' (have:", name);
  for (size_t c = 0; c < n; c++)
    fprintf(stderr, " '%s'", bsim_result_name(s, c));
  fprintf(stderr, ")\n");
  e2e_failures++;
  return -1;
}

static double e2e_value(const bsim_sim *s, size_t row, long col) {
  return bsim_result_data(s)[row * bsim_result_cols(s) + (size_t)col];
}

/* Compares a column with exact(t) at every sample: the error allowed at a
 * sample is abs_tol + rel_tol * |exact|. Returns the largest ratio
 * error / allowed seen (<= 1 means pass) and reports the worst sample. */
static double e2e_compare(const bsim_sim *s, const char *name,
                          e2e_exact_fn exact, const void *arg, double rel_tol,
                          double abs_tol, const char *what) {
  long c = e2e_col(s, name);
  if (c < 0) return INFINITY;
  const double *t = bsim_result_times(s);
  size_t rows = bsim_result_rows(s);
  double worst = 0.0, worst_err = 0.0;
  size_t worst_row = 0;
  for (size_t r = 0; r < rows; r++) {
    double want = exact(t[r], arg);
    double got = e2e_value(s, r, c);
    double e = fabs(got - want);
    /* An exact match passes even where the allowance is 0 (relative
     * tolerance at a zero of the reference). */
    double ratio = e == 0.0 ? 0.0 : e / (abs_tol + rel_tol * fabs(want));
    if (isnan(ratio))
      ratio = INFINITY; /* a NaN result is the worst possible answer */
    if (ratio > worst || (r == 0 && ratio == INFINITY)) {
      worst = ratio;
      worst_err = e;
      worst_row = r;
    }
  }
  if (!(worst <= 1.0)) {
    double tw = rows ? t[worst_row] : 0.0;
    fprintf(stderr,
            "FAILED: %s: column '%s' at t=%.17g: got %.17g, want %.17g "
            "(|err| %.3g > %.3g + %.3g*|want|)\n",
            what, name, tw, e2e_value(s, worst_row, c), exact(tw, arg),
            worst_err, abs_tol, rel_tol);
    e2e_failures++;
  }
  fprintf(stderr, "  %-40s %-8s max err/allowed = %.3g\n", what, name, worst);
  return worst;
}

/* Checks the linear sample grid: n rows, 0 .. tf inclusive, evenly spaced. */
static void e2e_check_linear_times(const bsim_sim *s, size_t n, double tf,
                                   const char *what) {
  size_t rows = bsim_result_rows(s);
  E2E_CHECK(rows == n, "%s: %zu rows, want %zu", what, rows, n);
  if (rows != n || n < 2) return;
  const double *t = bsim_result_times(s);
  /* The grid is computed, not integrated: a few ulps of tf at most. */
  for (size_t i = 0; i < n; i++) {
    double want = tf * (double)i / (double)(n - 1);
    E2E_CHECK(fabs(t[i] - want) <= 1e-12 * tf, "%s: t[%zu] = %.17g, want %.17g",
              what, i, t[i], want);
  }
  E2E_CHECK(t[0] == 0.0, "%s: first time %.17g", what, t[0]);
  E2E_CHECK(t[n - 1] == tf, "%s: last time %.17g, want %.17g", what, t[n - 1],
            tf);
}

static int e2e_finish(const char *program) {
  if (e2e_failures) {
    fprintf(stderr, "%s: %d failure(s)\n", program, e2e_failures);
    return 1;
  }
  fprintf(stderr, "%s: all passed\n", program);
  return 0;
}

#endif
