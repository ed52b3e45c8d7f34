/*
 * Helpers shared by the hybrid end-to-end tests (test_hybrid_*.c), on top
 * of test_e2e.h: diagrams come from tests/data/hybrid, and hybrid runs are
 * judged also by their statistics and sink records, so both are looked up
 * by name here. Static functions in a header keep each test program a
 * single translation unit; test_e2e.h's helpers that a program does not
 * use must not break -Werror, hence the pragma around it.
 */
#ifndef BSIM_TEST_HYBRID_COMMON_H
#define BSIM_TEST_HYBRID_COMMON_H

#include <time.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "test_e2e.h"

/* Loads tests/data/hybrid/<file>; reports and returns NULL on failure. */
static bsim_diagram *hy_load(const char *file) {
  char path[1024];
  bsim_error err;
  bsim_error_clear(&err);
  snprintf(path, sizeof path, "%s/hybrid/%s", BSIM_TEST_DATA, file);
  bsim_diagram *d = bsim_diagram_load(path, test_library(), &err);
  if (!d) {
    fprintf(stderr, "FAILED: loading %s: [%d] %s\n", path, (int)err.status,
            err.message);
    e2e_failures++;
  }
  return d;
}

/* Loads and runs tests/data/hybrid/<file> with o (NULL: the file's
 * settings). The diagram is returned through *d for the caller to free. */
static bsim_sim *hy_run(const char *file, const bsim_options *o,
                        bsim_diagram **d) {
  *d = hy_load(file);
  return *d ? e2e_run_diagram(*d, o, file) : NULL;
}

/* A run statistic by name; -1 (reported) when missing. */
static double hy_stat(const bsim_sim *s, const char *name) {
  double v;
  const char *n;
  for (size_t i = 0; (n = bsim_stat_at(s, i, &v)) != NULL; i++)
    if (strcmp(n, name) == 0) return v;
  fprintf(stderr, "FAILED: no statistic '%s'\n", name);
  e2e_failures++;
  return -1.0;
}

/* The record of the sink at `path` (rows of t then cols values), or NULL
 * with *rows = 0 when the sink recorded nothing or does not exist. */
static const double *hy_record(const bsim_sim *s, const char *path,
                               size_t *rows, int *cols) {
  const double *data;
  const char *p;
  for (size_t i = 0; (p = bsim_record_at(s, i, rows, cols, &data)) != NULL; i++)
    if (strcmp(p, path) == 0) return data;
  *rows = 0;
  *cols = 0;
  return NULL;
}

/* Value j (0 = time) of row k of a record with `cols` values per row. */
static double hy_rec(const double *rec, int cols, size_t k, int j) {
  return rec[k * (size_t)(cols + 1) + (size_t)j];
}

static double hy_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Prints the counters the hybrid tests talk about, for the log. */
static void hy_print_stats(const bsim_sim *s, const char *what) {
  fprintf(stderr,
          "  %s: steps %g events %g roots %g hot-continues %g "
          "cold-restarts %g downgrades %g\n",
          what, hy_stat(s, "steps"), hy_stat(s, "events"), hy_stat(s, "roots"),
          hy_stat(s, "hot-continues"), hy_stat(s, "cold-restarts"),
          hy_stat(s, "downgrades"));
}
#pragma GCC diagnostic pop

#endif
