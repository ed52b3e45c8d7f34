/*
 * Comparing a run's sink records with the records Scilab's own simulator
 * made of the same diagram (tests/data/xcos/<topic>/: the .sce that built
 * the Xcos diagram, the .xcos, Scilab's CSVs from xcos_ref.sh, and a native
 * replica). Each sink of the replica is named after Scilab's CSV (block id
 * CSCOPE_5 <-> CSCOPE_5.csv), so a record and its reference pair up by
 * name. Static functions in a header so that each test program stays one
 * translation unit.
 */
#ifndef BSIM_TEST_SCILAB_REF_H
#define BSIM_TEST_SCILAB_REF_H

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

enum { REF_MAXCOLS = 16 };

typedef struct ref_table {
  int cols; /* values per row, time excluded */
  size_t rows;
  double *data; /* rows x (1 + cols): t, values */
} ref_table;

/* Reads a CSV of Scilab's recorder ("t,u1,..." then numbers). 0, or -1
 * (reported) when the file is missing or malformed. */
static int ref_read(const char *path, ref_table *t) {
  memset(t, 0, sizeof *t);
  FILE *f = fopen(path, "r");
  if (!f) {
    CHECK(0, "cannot open reference %s", path);
    return -1;
  }
  char line[4096];
  size_t cap = 0;
  int rc = 0;
  if (!fgets(line, sizeof line, f)) rc = -1;
  for (char *c = line; rc == 0 && *c && *c != '\n'; c++)
    t->cols += *c == ',';
  while (rc == 0 && fgets(line, sizeof line, f)) {
    if (t->rows == cap) {
      cap = cap ? 2 * cap : 64;
      double *d = realloc(t->data, cap * (size_t)(1 + t->cols) * sizeof *d);
      if (!d) {
        rc = -1;
        break;
      }
      t->data = d;
    }
    char *p = line, *end;
    for (int c = 0; c <= t->cols; c++) {
      t->data[t->rows * (size_t)(1 + t->cols) + (size_t)c] = strtod(p, &end);
      if (end == p) rc = -1;
      p = *end == ',' ? end + 1 : end;
    }
    t->rows++;
  }
  fclose(f);
  CHECK(rc == 0 && t->cols > 0, "malformed reference %s", path);
  return rc == 0 && t->cols > 0 ? 0 : -1;
}

/* Compares the record of sink `rec` (NULL: `name`) with dir/name.csv: same
 * number of rows, times within time_tol relative (Scilab's row times; 0 = the same
 * doubles), values within tol times the peak magnitude of the reference
 * column (absolute tol when the column is all zeros). */
static void ref_compare(const bsim_sim *s, const char *dir, const char *name,
                        const char *rec, double tol, double time_tol) {
  if (!rec) rec = name;
  char path[1024];
  snprintf(path, sizeof path, "%s/%s/%s.csv", BSIM_TEST_DATA, dir, name);
  ref_table ref;
  if (ref_read(path, &ref) != 0) return;
  const double *data = NULL;
  size_t rows = 0;
  int cols = 0;
  const char *p;
  for (size_t i = 0; (p = bsim_record_at(s, i, &rows, &cols, &data)); i++)
    if (strcmp(p, rec) == 0) break;
  CHECK(p != NULL, "%s: no record of sink '%s'", dir, rec);
  if (p) {
    CHECK(rows == ref.rows && cols == ref.cols,
          "%s/%s: %zu rows x %d values, Scilab %zu x %d", dir, name, rows, cols,
          ref.rows, ref.cols);
    int stride = 1 + ref.cols, bad = 0;
    for (int c = 1; c <= ref.cols && cols == ref.cols; c++) {
      double peak = 0;
      for (size_t r = 0; r < ref.rows; r++)
        peak = fmax(peak, fabs(ref.data[r * (size_t)stride + (size_t)c]));
      double lim = tol * (peak > 0 ? peak : 1);
      for (size_t r = 0; r < ref.rows && r < rows && bad < 5; r++) {
        double t = data[r * (size_t)stride], v = data[r * (size_t)stride + c];
        double rt = ref.data[r * (size_t)stride],
               rv = ref.data[r * (size_t)stride + (size_t)c];
        if (fabs(t - rt) > time_tol * fmax(1, fabs(rt)) ||
            !(fabs(v - rv) <= lim)) {
          CHECK(0,
                "%s/%s row %zu col %d: (t=%.17g, %.17g), Scilab (%.17g, "
                "%.17g), tolerance %.3g",
                dir, name, r + 1, c, t, v, rt, rv, lim);
          bad++;
        }
      }
    }
  }
  free(ref.data);
}

/* Loads and runs BSIM_TEST_DATA/dir/file; NULL (reported) on failure. */
static bsim_sim *ref_run(const char *dir, const char *file) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s/%s", BSIM_TEST_DATA, dir, file);
  bsim_error err;
  bsim_error_clear(&err);
  bsim_diagram *d = bsim_diagram_load(path, test_library(), &err);
  CHECK(d != NULL, "loading %s: %s", path, err.message);
  if (!d) return NULL;
  bsim_options o;
  bsim_options_init(&o);
  bsim_sim *s = bsim_sim_create(d, &o, &err);
  bsim_diagram_free(d);
  CHECK(s != NULL, "%s: %s", path, err.message);
  if (s && bsim_sim_run(s, &err) != 0) {
    CHECK(0, "%s: run failed: %s", path, err.message);
    bsim_sim_free(s);
    return NULL;
  }
  return s;
}

#endif
