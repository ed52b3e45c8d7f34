/*
 * Comparing what a sink recorded with what Scilab recorded for it (a CSV
 * from ../shared/xcos_ref, header "t,<columns>", optionally gzipped): the
 * same number of rows, the same times (relative 1e-9), and every value
 * within a tolerance given as a fraction of the column's peak |value|
 * (absolute for a column that is all zeros). A long record may be kept
 * decimated: a first line "# rows N every K" says it had N rows, of which
 * every K-th (and the last) is kept; those are compared at their row
 * numbers. Shared by the Xcos reader's tests and the demo suite.
 */
#ifndef BSIM_XCOS_COMPARE_H
#define BSIM_XCOS_COMPARE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "blocksim/blocksim.h"
#include "tests/unit/test_library.h"

typedef struct ref_csv {
  size_t rows;  /* kept */
  size_t total; /* rows Scilab recorded */
  size_t every; /* kept row i is row i * every (the last: total - 1) */
  int cols;     /* values per row, time not counted */
  double *data; /* rows x (1 + cols), row-major, time first */
  int prefix;   /* ref_csv_before cut it: a record may hold more rows */
  size_t skip;  /* kept rows before this one are not compared (set by the
                   caller, with its reason) */
} ref_csv;

static inline void ref_csv_free(ref_csv *r) {
  if (r) free(r->data);
  free(r);
}

/* gzopen reads plain files too. NULL when unreadable or malformed. */
static inline ref_csv *ref_csv_load(const char *path) {
  gzFile f = gzopen(path, "rb");
  if (!f) return NULL;
  ref_csv *r = calloc(1, sizeof *r);
  char line[1 << 16];
  size_t cap = 0;
  int ok = r != NULL && gzgets(f, line, sizeof line) != NULL;
  unsigned long total = 0, every = 1;
  if (ok && line[0] == '#') {
    ok = sscanf(line, "# rows %lu every %lu", &total, &every) == 2 &&
         every >= 1 && gzgets(f, line, sizeof line) != NULL;
  }
  if (ok) {
    r->cols = 0;
    for (char *p = line; *p; p++)
      r->cols += *p == ',';
  }
  while (ok && gzgets(f, line, sizeof line)) {
    if (line[0] == '\n' || line[0] == '\0') continue;
    if (r->rows == cap) {
      cap = cap ? 2 * cap : 1024;
      double *g = realloc(r->data, cap * (size_t)(r->cols + 1) * sizeof *g);
      if (!g) {
        ok = 0;
        break;
      }
      r->data = g;
    }
    char *p = line;
    for (int k = 0; k <= r->cols && ok; k++) {
      char *end;
      r->data[r->rows * (size_t)(r->cols + 1) + (size_t)k] = strtod(p, &end);
      ok = end != p && (k == r->cols ? 1 : *end == ',');
      p = end + 1;
    }
    r->rows++;
  }
  gzclose(f);
  if (!ok) {
    ref_csv_free(r);
    return NULL;
  }
  r->every = every;
  r->total = total ? total : r->rows;
  return r;
}

/* A whole file, gunzipped when it is gzip (gzread passes other files
 * through): the .xcos.gz is the demo's .xcos, byte for byte. */
static inline char *ref_read_file(const char *path, size_t *len) {
  gzFile f = gzopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  int got;
  while (buf && (got = gzread(f, buf + n, (unsigned)(cap - n))) > 0) {
    n += (size_t)got;
    if (n == cap) {
      char *g = realloc(buf, cap *= 2);
      if (!g) {
        free(buf);
        buf = NULL;
      }
      buf = g;
    }
  }
  gzclose(f);
  *len = n;
  return buf;
}

/* Load the Xcos file at path (gzipped or not) as `name`, run it to its
 * final time (or tf > 0): the finished run, or NULL with err set. */
static inline bsim_sim *ref_run_xcos(const char *path, const char *name,
                                     double tf, bsim_error *err) {
  size_t len = 0;
  char *text = ref_read_file(path, &len);
  if (!text) {
    bsim_error_set(err, BSIM_ERR_INPUT, "%s: cannot read", path);
    return NULL;
  }
  bsim_diagram *d =
      bsim_diagram_load_memory(name, text, len, test_library(), err);
  free(text);
  if (!d) return NULL;
  bsim_options o;
  bsim_options_init(&o);
  if (tf > 0) o.final_time = tf;
  bsim_sim *s = bsim_sim_create(d, &o, err);
  bsim_diagram_free(d);
  if (s && bsim_sim_run(s, err) != 0) {
    bsim_sim_free(s);
    return NULL;
  }
  return s;
}

/* Keep only the rows before time tf (for a run stopped there). */
static inline void ref_csv_before(ref_csv *r, double tf) {
  size_t n = 0;
  while (n < r->rows && r->data[n * (size_t)(r->cols + 1)] < tf)
    n++;
  if (n == r->rows) return;
  size_t last = n ? n - 1 : 0;
  r->total = n ? last * r->every + 1 : 0;
  r->rows = n;
  r->prefix = 1;
}

/* The record of block `path` in a finished run, or NULL. */
static inline const double *record_of(const bsim_sim *s, const char *path,
                                      size_t *rows, int *cols) {
  const char *p;
  const double *data;
  for (size_t i = 0; (p = bsim_record_at(s, i, rows, cols, &data)); i++)
    if (strcmp(p, path) == 0) return data;
  return NULL;
}

/* The row of the full record that kept row i of ref stands for. */
static inline size_t ref_row(const ref_csv *ref, size_t i) {
  size_t k = i * ref->every;
  return k < ref->total ? k : ref->total - 1;
}

/* 0 when the record matches within frac of each column's peak; otherwise
 * a description of the first difference in msg. *worst gets the largest
 * difference relative to the column's peak. */
static inline int compare_record(const double *rec, size_t rows, int cols,
                                 const ref_csv *ref, double frac, double *worst,
                                 char *msg, size_t msglen) {
  *worst = 0;
  if ((ref->prefix ? rows < ref->total : rows != ref->total) ||
      cols != ref->cols) {
    snprintf(msg, msglen, "%zu rows x %d values, Scilab %zu x %d", rows, cols,
             ref->total, ref->cols);
    return -1;
  }
  int w = cols + 1;
  int bad = 0;
  for (int k = 0; k < cols && !bad; k++) {
    double peak = 0;
    for (size_t i = 0; i < ref->rows; i++)
      peak = fmax(peak, fabs(ref->data[i * (size_t)w + 1 + (size_t)k]));
    if (peak == 0) peak = 1;
    for (size_t i = ref->skip; i < ref->rows; i++) {
      size_t j = ref_row(ref, i);
      double t = rec[j * (size_t)w], tr = ref->data[i * (size_t)w];
      if (!(fabs(t - tr) <= 1e-9 * fmax(1, fabs(tr)))) {
        snprintf(msg, msglen, "row %zu: time %.17g, Scilab %.17g", j + 1, t,
                 tr);
        *worst = INFINITY;
        return -1;
      }
      double v = rec[j * (size_t)w + 1 + (size_t)k];
      double vr = ref->data[i * (size_t)w + 1 + (size_t)k];
      double d = fabs(v - vr) / peak;
      if (!(d <= *worst)) *worst = isnan(d) ? INFINITY : d;
      if (!(d <= frac) && !bad) {
        snprintf(msg, msglen,
                 "row %zu (t = %.9g), value %d: %.12g, Scilab %.12g "
                 "(difference %.3g of the peak %.4g, allowed %.3g)",
                 j + 1, t, k + 1, v, vr, d, peak, frac);
        bad = 1;
      }
    }
  }
  return bad ? -1 : 0;
}

/* One sink against Scilab's record in the file `ref_path`: the record of
 * block `record` in run s (NULL when the run failed: run_error says why),
 * compared before time `before` only when it is > 0 and from kept row
 * `skip` on, within frac of each column's peak. 1 when it matches; *worst
 * the largest difference found; msg why not. */
static inline int compare_sink(const bsim_sim *s, const char *run_error,
                               const char *ref_path, const char *record,
                               double before, size_t skip, double frac,
                               double *worst, char *msg, size_t msglen) {
  ref_csv *ref = ref_csv_load(ref_path);
  int ok = 0;
  *worst = INFINITY;
  if (!ref) {
    snprintf(msg, msglen, "cannot read %s", ref_path);
  } else if (!s) {
    snprintf(msg, msglen, "the run failed: %s", run_error);
  } else {
    if (before > 0) ref_csv_before(ref, before);
    ref->skip = skip;
    size_t rows = 0;
    int cols = 0;
    const double *rec = record_of(s, record, &rows, &cols);
    if (!rec)
      snprintf(msg, msglen, "no record of '%s'", record);
    else
      ok = compare_record(rec, rows, cols, ref, frac, worst, msg, msglen) == 0;
  }
  ref_csv_free(ref);
  return ok;
}

#endif
