/*
 * Comparing a run with what Scilab's own simulator recorded for the same
 * diagram. The diagrams and their reference CSVs live in
 * tests/data/xcos/<topic>/ (made by the .sce scripts there and
 * /work/shared/xcos_ref/xcos_ref.sh: header "t,<columns>", one row per
 * activation of the sink, %.17g). A sink's record in blocksim (the rows
 * `--scopes` writes) must have Scilab's rows: the same times (1e-9
 * relative, the clocks accumulate their periods the same way) and values
 * within a tolerance relative to the column's peak, which each test gives
 * with its reason. Static functions in a header, as test_e2e.h.
 */
#ifndef BSIM_TEST_XCOS_REF_H
#define BSIM_TEST_XCOS_REF_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocksim/blocksim.h"
#include "tests/unit/test_check.h"
#include "tests/unit/test_library.h"

#ifndef BSIM_TEST_DATA
#error "BSIM_TEST_DATA must name the tests/data folder"
#endif

/* A reference CSV: rows x (1 + cols) numbers, row-major, time first. */
typedef struct xr_table {
  size_t rows;
  int cols;
  double *v;
} xr_table;

static int xr_read_csv(const char *path, xr_table *t) {
  memset(t, 0, sizeof *t);
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "FAILED: cannot open %s\n", path);
    failures++;
    return -1;
  }
  char line[65536];
  size_t cap = 0;
  int width = -1;
  while (fgets(line, sizeof line, f)) {
    if (width < 0) { /* header: count the names */
      width = 1;
      for (const char *c = line; *c; c++)
        width += *c == ',';
      t->cols = width - 1;
      continue;
    }
    if (t->rows + 1 > cap) {
      cap = cap ? 2 * cap : 256;
      double *nv = realloc(t->v, cap * (size_t)width * sizeof *nv);
      if (!nv) break;
      t->v = nv;
    }
    char *p = line;
    for (int j = 0; j < width; j++) {
      t->v[t->rows * (size_t)width + (size_t)j] = strtod(p, &p);
      if (*p == ',') p++;
    }
    t->rows++;
  }
  fclose(f);
  return 0;
}

/* The record of the sink at `path`; NULL (reported) when it has none. */
static const double *xr_record(const bsim_sim *s, const char *path,
                               size_t *rows, int *cols) {
  const double *data;
  const char *p;
  for (size_t i = 0; (p = bsim_record_at(s, i, rows, cols, &data)) != NULL; i++)
    if (strcmp(p, path) == 0) return data;
  fprintf(stderr, "FAILED: no record of sink '%s'\n", path);
  failures++;
  return NULL;
}

/* Loads tests/data/<file> and runs it with options o (NULL: the file's
 * settings); NULL (reported) on failure. The diagram is freed at once (a
 * sim does not need it). */
static bsim_sim *xr_run(const char *file, const bsim_options *o) {
  char path[1024];
  bsim_error err;
  bsim_error_clear(&err);
  snprintf(path, sizeof path, "%s/%s", BSIM_TEST_DATA, file);
  bsim_diagram *d = bsim_diagram_load(path, test_library(), &err);
  if (!d) {
    fprintf(stderr, "FAILED: loading %s: [%d] %s\n", path, (int)err.status,
            err.message);
    failures++;
    return NULL;
  }
  bsim_options defaults;
  bsim_options_init(&defaults);
  bsim_sim *s = bsim_sim_create(d, o ? o : &defaults, &err);
  bsim_diagram_free(d);
  if (s && bsim_sim_run(s, &err) != 0) {
    bsim_sim_free(s);
    s = NULL;
  }
  if (!s) {
    fprintf(stderr, "FAILED: running %s: [%d] %s\n", path, (int)err.status,
            err.message);
    failures++;
  }
  return s;
}

/* Compares the record of sink `sink` with tests/data/<csv>. Values may
 * differ by rel_peak times the largest |value| of their column in
 * Scilab's record (absolute floor 1e-300 for an all-zero column). Our
 * scheduler may also record at the final time, where Scilab stops just
 * before: one extra last row at tf is tolerated. Returns the worst ratio
 * error / allowed (<= 1 passes). */
static double xr_compare(const bsim_sim *s, const char *sink, const char *csv,
                         double tf, double rel_peak, const char *what) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", BSIM_TEST_DATA, csv);
  xr_table ref;
  if (xr_read_csv(path, &ref) != 0) return INFINITY;
  size_t rows = 0;
  int cols = 0;
  const double *rec = xr_record(s, sink, &rows, &cols);
  double worst = 0;
  if (rec) {
    CHECK(cols == ref.cols, "%s: %s records %d values a row, Scilab %d",
             what, sink, cols, ref.cols);
    int extra =
        rows == ref.rows + 1 && rec[(rows - 1) * (size_t)(cols + 1)] == tf;
    CHECK(rows == ref.rows || extra, "%s: %s has %zu rows, Scilab %zu", what,
             sink, rows, ref.rows);
    size_t n = rows < ref.rows ? rows : ref.rows;
    int w = ref.cols + 1;
    for (int j = 0; j < ref.cols && cols == ref.cols; j++) {
      double peak = 1e-300, bad = 0;
      size_t at = 0;
      for (size_t k = 0; k < ref.rows; k++)
        peak = fmax(peak, fabs(ref.v[k * (size_t)w + (size_t)(j + 1)]));
      for (size_t k = 0; k < n; k++) {
        double got = rec[k * (size_t)w + (size_t)(j + 1)];
        double want = ref.v[k * (size_t)w + (size_t)(j + 1)];
        double r = fabs(got - want) / (rel_peak * peak);
        if (!(r <= bad)) { /* NaN counts as worst */
          bad = isnan(r) ? INFINITY : r;
          at = k;
        }
      }
      if (bad > 1)
        fprintf(stderr,
                "FAILED: %s: %s column %d at t=%.17g: got %.17g, Scilab "
                "%.17g (peak %.3g)\n",
                what, sink, j + 1, ref.v[at * (size_t)w],
                rec[at * (size_t)w + (size_t)(j + 1)],
                ref.v[at * (size_t)w + (size_t)(j + 1)], peak);
      failures += bad > 1;
      worst = fmax(worst, bad);
    }
    for (size_t k = 0; k < n; k++) {
      double got = rec[k * (size_t)w], want = ref.v[k * (size_t)w];
      if (fabs(got - want) > 1e-9 * fmax(1.0, fabs(want))) {
        fprintf(stderr, "FAILED: %s: %s row %zu at t=%.17g, Scilab %.17g\n",
                what, sink, k, got, want);
        failures++;
        break;
      }
    }
  }
  fprintf(stderr, "  %-32s %-10s max err/allowed = %.3g\n", what, sink, worst);
  free(ref.v);
  return worst;
}

static int xr_finish(const char *program) {
  if (failures) {
    fprintf(stderr, "%s: %d failure(s)\n", program, failures);
    return 1;
  }
  fprintf(stderr, "%s: all passed\n", program);
  return 0;
}

#endif
