/*
 * What the linear-solver tests (test_linear_solvers, test_spgmr,
 * test_ode_linsys) share: a generated diagram loaded from a temporary
 * file, the chain of lags 1/(s+1) they all run with its closed form, runs
 * with a solver and name=value parameters, and the statistics `--stats`
 * prints, read through bsim_stat_at. Static functions in a header so that
 * each test stays one translation unit.
 */
#ifndef BSIM_TEST_LINSOL_HARNESS_H
#define BSIM_TEST_LINSOL_HARNESS_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blocksim/blocksim.h"
#include "tests/unit/test_check.h"
#include "tests/unit/test_library.h"

/* A statistic of the last run, -1 when absent. */
static inline double sim_stat(const bsim_sim *s, const char *name) {
  double v;
  const char *n;
  for (size_t i = 0; (n = bsim_stat_at(s, i, &v)) != NULL; i++)
    if (strcmp(n, name) == 0) return v;
  return -1;
}

/* The diagram write(fp, size) produces, loaded; NULL after a failed CHECK. */
static inline bsim_diagram *load_generated(int (*write)(FILE *, int),
                                           int size) {
  char path[] = "/tmp/bsim_test_linsol_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0, "mkstemp");
  if (fd < 0) return NULL;
  FILE *fp = fdopen(fd, "w");
  int ok = fp && write(fp, size) == 0;
  if (fp) ok &= fclose(fp) == 0;
  bsim_error err;
  bsim_error_clear(&err);
  bsim_diagram *d = ok ? bsim_diagram_load(path, test_library(), &err) : NULL;
  remove(path);
  CHECK(d != NULL, "generated diagram: %s", err.message);
  return d;
}

/* The lags the chain observes (those <= its length), named "l<k>". */
static const int chain_lags[] = {1, 5, 20, 100, 200};

/* A unit step through n lags, t in [0, 10], rtol 1e-10, atol 1e-12, 21
 * samples. */
static inline int write_chain(FILE *fp, int n) {
  fprintf(fp, "<?xml version=\"1.0\"?>\n<diagram name=\"chain\">\n"
              "  <simulation final-time=\"10\" rtol=\"1e-10\" "
              "atol=\"1e-12\"/>\n  <output samples=\"21\"/>\n"
              "  <block id=\"u\" type=\"CONST_m\"/>\n");
  for (int k = 1; k <= n; k++)
    fprintf(fp,
            "  <block id=\"l%d\" type=\"CLR\"><param name=\"num\" "
            "value=\"1\"/><param name=\"den\" value=\"[1 1]\"/></block>\n",
            k);
  fprintf(fp, "  <link from=\"u:1\" to=\"l1:1\"/>\n");
  for (int k = 2; k <= n; k++)
    fprintf(fp, "  <link from=\"l%d:1\" to=\"l%d:1\"/>\n", k - 1, k);
  for (size_t i = 0; i < sizeof chain_lags / sizeof chain_lags[0]; i++)
    if (chain_lags[i] <= n)
      fprintf(fp, "  <observe name=\"l%d\" signal=\"l%d:1\"/>\n", chain_lags[i],
              chain_lags[i]);
  fprintf(fp, "</diagram>\n");
  return ferror(fp) ? -1 : 0;
}

/* Lag k of a unit step through k lags: the Erlang distribution function
 * 1 - e^-t sum_{i<k} t^i / i!. */
static inline double erlang(int k, double t) {
  double term = 1, sum = 0;
  for (int i = 0; i < k; i++) {
    sum += term;
    term *= t / (i + 1);
  }
  return 1 - exp(-t) * sum;
}

/* Largest |chain result - closed form| over all samples and columns. */
static inline double chain_error(const bsim_sim *s) {
  const double *t = bsim_result_times(s), *v = bsim_result_data(s);
  size_t rows = bsim_result_rows(s), cols = bsim_result_cols(s);
  double worst = 0;
  for (size_t r = 0; r < rows; r++)
    for (size_t c = 0; c < cols; c++)
      worst = fmax(worst, fabs(v[r * cols + c] - erlang(chain_lags[c], t[r])));
  return worst;
}

/* One run with solver (NULL: the diagram's) and n parameters; NULL after a
 * failed CHECK. */
static inline bsim_sim *run_params(const bsim_diagram *d, const char *solver,
                                   int n, const char *const *names,
                                   const char *const *values) {
  bsim_options o;
  bsim_options_init(&o);
  o.solver = solver;
  o.solver_param_names = names;
  o.solver_param_values = values;
  o.nsolver_params = n;
  bsim_error err;
  bsim_error_clear(&err);
  bsim_sim *s = bsim_sim_create(d, &o, &err);
  if (s && bsim_sim_run(s, &err) != 0) {
    bsim_sim_free(s);
    s = NULL;
  }
  CHECK(s != NULL, "%s %s=%s: %s", solver ? solver : "", n ? names[0] : "",
        n ? values[0] : "", err.message);
  return s;
}

/* Largest |a - b| over two results of the same shape (inf otherwise). */
static inline double max_diff(const bsim_sim *a, const bsim_sim *b) {
  size_t n = bsim_result_rows(a) * bsim_result_cols(a);
  if (bsim_result_rows(b) != bsim_result_rows(a) ||
      bsim_result_cols(b) != bsim_result_cols(a))
    return HUGE_VAL;
  const double *x = bsim_result_data(a), *y = bsim_result_data(b);
  double worst = 0;
  for (size_t i = 0; i < n; i++)
    worst = fmax(worst, fabs(x[i] - y[i]));
  return worst;
}

#endif
