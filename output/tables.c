/*
 * Result files read back as tables (time plus named columns), for plots
 * and for merging: CSV through stdio, MAT through libmatio, HDF5 through
 * h5util.c. Every format gives the same tables for the same run, so a
 * plot does not depend on the format the run was saved in.
 */
#include <errno.h>
#include <matio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocksim/plot.h"
#include "output/h5util.h"

typedef struct table {
  char *name;
  size_t rows, cols;
  double *time;
  double *data; /* cols x rows: column c at data + c * rows */
  char **colnames;
} table;

struct bsim_tables {
  table *t;
  size_t n, cap;
};

static void table_clear(table *t) {
  for (size_t c = 0; t->colnames && c < t->cols; c++)
    free(t->colnames[c]);
  free(t->colnames);
  free(t->name);
  free(t->time);
  free(t->data);
}

void bsim_tables_free(bsim_tables *T) {
  if (!T) return;
  for (size_t i = 0; i < T->n; i++)
    table_clear(&T->t[i]);
  free(T->t);
  free(T);
}

/* Append a table; values(r, c) = values[r * rstride + c * cstride]; names
 * NULL gives u1..un. 0 or -1 out of memory. */
static int add(bsim_tables *T, const char *name, size_t rows, size_t cols,
               const double *time, size_t tstride, const double *values,
               size_t rstride, size_t cstride, const char *const *names) {
  if (T->n == T->cap) {
    size_t cap = T->cap ? 2 * T->cap : 4;
    table *g = realloc(T->t, cap * sizeof *g);
    if (!g) return -1;
    T->t = g;
    T->cap = cap;
  }
  table *t = &T->t[T->n];
  memset(t, 0, sizeof *t);
  t->rows = rows;
  t->cols = cols;
  t->name = strdup(name);
  t->time = malloc(sizeof(double) * (rows + 1));
  t->data = malloc(sizeof(double) * (rows * cols + 1));
  t->colnames = calloc(cols + 1, sizeof(char *));
  int ok = t->name && t->time && t->data && t->colnames;
  for (size_t c = 0; ok && c < cols; c++) {
    char buf[32];
    snprintf(buf, sizeof buf, "u%zu", c + 1);
    ok = (t->colnames[c] = strdup(names && names[c] ? names[c] : buf)) != NULL;
  }
  if (!ok) {
    table_clear(t);
    return -1;
  }
  for (size_t r = 0; r < rows; r++) {
    t->time[r] = time[r * tstride];
    for (size_t c = 0; c < cols; c++)
      t->data[c * rows + r] = values[r * rstride + c * cstride];
  }
  T->n++;
  return 0;
}

/* ------------------------------------------------------------------ */
/* CSV                                                                 */
/* ------------------------------------------------------------------ */

/* A line of any length (malloc'ed), or NULL at the end. */
static char *read_line(FILE *f) {
  size_t cap = 256, n = 0;
  char *s = malloc(cap);
  int ch;
  while (s && (ch = fgetc(f)) != EOF && ch != '\n') {
    if (n + 1 == cap) {
      char *g = realloc(s, cap *= 2);
      if (!g) {
        free(s);
        return NULL;
      }
      s = g;
    }
    s[n++] = (char)ch;
  }
  if (s && n == 0 && ch == EOF) {
    free(s);
    return NULL;
  }
  if (s) s[n] = '\0';
  return s;
}

static const char *base_name(const char *path, char *buf, size_t len) {
  const char *slash = strrchr(path, '/');
  snprintf(buf, len, "%s", slash ? slash + 1 : path);
  char *dot = strrchr(buf, '.');
  if (dot && dot != buf) *dot = '\0';
  return buf;
}

static int read_csv(bsim_tables *T, const char *path, bsim_error *err) {
  FILE *f = fopen(path, "r");
  if (!f) {
    bsim_error_set(err, BSIM_ERR_INPUT, "cannot open '%s': %s", path,
                   strerror(errno));
    return -1;
  }
  char *header = read_line(f);
  size_t width = 1, rows = 0, cap = 0;
  for (char *p = header; p && *p; p++)
    width += *p == ',';
  char **names = calloc(width, sizeof(char *));
  double *v = NULL;
  int rc = -1, lineno = 1;
  if (!header || strncmp(header, "time", 4) != 0 || !names) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "%s:1: not a blocksim CSV file (hint: its header starts "
                   "with \"time,\")",
                   path);
    goto done;
  }
  char *save = NULL, *tok = strtok_r(header, ",", &save);
  for (size_t c = 0; tok && c < width; c++, tok = strtok_r(NULL, ",", &save))
    names[c] = tok;
  for (char *line; (line = read_line(f)) != NULL; free(line)) {
    lineno++;
    if (!*line) continue;
    if (rows == cap) {
      cap = cap ? 2 * cap : 256;
      double *g = realloc(v, sizeof(double) * cap * width);
      if (!g) {
        free(line);
        bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
        goto done;
      }
      v = g;
    }
    char *p = line, *end;
    for (size_t c = 0; c < width; c++) {
      v[rows * width + c] = strtod(p, &end);
      if (end == p || (c + 1 < width ? *end != ',' : *end != '\0')) {
        bsim_error_set(err, BSIM_ERR_INPUT,
                       "%s:%d: field %zu is not a number (hint: a result "
                       "file has %zu numbers per row)",
                       path, lineno, c + 1, width);
        free(line);
        goto done;
      }
      p = end + 1;
    }
    rows++;
  }
  char name[256];
  base_name(path, name, sizeof name);
  rc = add(T, name, rows, width - 1, v ? v : (double[]){0}, width,
           v ? v + 1 : (double[]){0}, width, 1, (const char *const *)names + 1);
  if (rc != 0) bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
done:
  free(v);
  free(names);
  free(header);
  fclose(f);
  return rc;
}

/* ------------------------------------------------------------------ */
/* MAT                                                                 */
/* ------------------------------------------------------------------ */

static char *mat_text(matvar_t *v) {
  if (!v || v->class_type != MAT_C_CHAR || v->rank != 2) return NULL;
  size_t n = v->dims[0] * v->dims[1];
  char *s = malloc(n + 1);
  if (!s) return NULL;
  if (v->data) memcpy(s, v->data, n);
  s[n] = '\0';
  return s;
}

/* A cell of strings as an array (each malloc'ed), or NULL. */
static char **mat_strings(matvar_t *cell, size_t n) {
  char **s = calloc(n + 1, sizeof(char *));
  for (size_t i = 0; s && i < n; i++)
    if (!(s[i] = mat_text(Mat_VarGetCell(cell, (int)i)))) {
      bsim_h5_free_strings(s, n);
      return NULL;
    }
  return s;
}

static int is_matrix(const matvar_t *v) {
  return v && v->class_type == MAT_C_DOUBLE && v->rank == 2 && !v->isComplex &&
         v->data;
}

static int mat_tables(bsim_tables *T, mat_t *m, const char *name) {
  matvar_t *t = Mat_VarRead(m, "time"), *v = Mat_VarRead(m, "values"),
           *nm = Mat_VarRead(m, "names");
  matvar_t *sn = Mat_VarRead(m, "scope_names"),
           *sd = Mat_VarRead(m, "scope_data"),
           *sc = Mat_VarRead(m, "scope_columns");
  int rc = -1;
  if (!is_matrix(t) || !is_matrix(v) || t->dims[0] != v->dims[0]) goto done;
  size_t rows = v->dims[0], cols = v->dims[1];
  char **names =
      nm && nm->class_type == MAT_C_CELL && nm->dims[0] * nm->dims[1] == cols
          ? mat_strings(nm, cols)
          : NULL;
  rc = add(T, name, rows, cols, t->data, 1, v->data, 1, rows,
           (const char *const *)names);
  bsim_h5_free_strings(names, cols);
  size_t k = sn && sd ? sn->dims[0] * sn->dims[1] : 0;
  for (size_t i = 0; rc == 0 && i < k; i++) {
    matvar_t *e = Mat_VarGetCell(sd, (int)i);
    char *path = mat_text(Mat_VarGetCell(sn, (int)i));
    if (!is_matrix(e) || !path || e->dims[1] < 1) {
      free(path);
      rc = -1;
      break;
    }
    size_t r = e->dims[0], w = e->dims[1];
    matvar_t *cc = sc ? Mat_VarGetCell(sc, (int)i) : NULL;
    char **cn =
        cc && cc->class_type == MAT_C_CELL && cc->dims[0] * cc->dims[1] == w - 1
            ? mat_strings(cc, w - 1)
            : NULL;
    const double *d = e->data;
    rc = add(T, path, r, w - 1, d, 1, d + r, 1, r, (const char *const *)cn);
    bsim_h5_free_strings(cn, w - 1);
    free(path);
  }
done:
  Mat_VarFree(t);
  Mat_VarFree(v);
  Mat_VarFree(nm);
  Mat_VarFree(sn);
  Mat_VarFree(sd);
  Mat_VarFree(sc);
  return rc;
}

static int read_mat(bsim_tables *T, const char *path, bsim_error *err) {
  mat_t *m = Mat_Open(path, MAT_ACC_RDONLY);
  if (!m) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "cannot read '%s' as a MAT file (hint: is it one that "
                   "blocksim wrote?)",
                   path);
    return -1;
  }
  char name[256];
  int rc = mat_tables(T, m, base_name(path, name, sizeof name));
  Mat_Close(m);
  if (rc != 0)
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "'%s' lacks the variables of a blocksim result (time, "
                   "values, names; docs/batch.md)",
                   path);
  return rc;
}

/* ------------------------------------------------------------------ */
/* HDF5                                                                */
/* ------------------------------------------------------------------ */

/* time, values and names below loc as a table; a study's run keeps only
 * its values, its times and names being the file's (`shared`, the root):
 * the first rows of them. */
static int h5_table(bsim_tables *T, hid_t loc, hid_t shared, const char *name) {
  size_t rows, one, vr, cols, nn = 0;
  hid_t tl = bsim_h5_exists(loc, "time") ? loc : shared;
  hid_t nl = bsim_h5_exists(loc, "names") ? loc : shared;
  if (tl < 0 || bsim_h5_dims(tl, "time", &rows, &one) != 0 ||
      bsim_h5_dims(loc, "values", &vr, &cols) != 0 || vr > rows ||
      (tl == loc && vr != rows))
    return -1;
  double *t = malloc(sizeof(double) * (rows + 1)),
         *v = malloc(sizeof(double) * (vr * cols + 1));
  char **names = nl >= 0 && bsim_h5_exists(nl, "names")
                     ? bsim_h5_read_strings(nl, "names", &nn)
                     : NULL;
  int rc = -1;
  if (t && v && bsim_h5_read_doubles(tl, "time", t) == 0 &&
      bsim_h5_read_doubles(loc, "values", v) == 0)
    rc = add(T, name, vr, cols, t, 1, v, cols, 1,
             names && nn == cols ? (const char *const *)names : NULL);
  bsim_h5_free_strings(names, nn);
  free(t);
  free(v);
  return rc;
}

static int h5_run(bsim_tables *T, hid_t loc, hid_t shared, const char *name) {
  if (h5_table(T, loc, shared, name) != 0) return -1;
  size_t k = 0;
  char **paths = bsim_h5_exists(loc, "scope_names")
                     ? bsim_h5_read_strings(loc, "scope_names", &k)
                     : NULL;
  hid_t scopes = k ? bsim_h5_group(loc, "scopes") : -1;
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < k; i++) {
    hid_t g = bsim_h5_group(scopes, paths[i]);
    rc = g >= 0 ? h5_table(T, g, -1, paths[i]) : -1;
    if (g >= 0) H5Gclose(g);
  }
  if (scopes >= 0) H5Gclose(scopes);
  bsim_h5_free_strings(paths, k);
  return rc;
}

static int read_h5(bsim_tables *T, const char *path, long run,
                   bsim_error *err) {
  hid_t f = -1;
  H5E_BEGIN_TRY {
    f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  }
  H5E_END_TRY;
  if (f < 0) {
    bsim_error_set(err, BSIM_ERR_INPUT, "cannot read '%s' as an HDF5 file",
                   path);
    return -1;
  }
  char name[256];
  base_name(path, name, sizeof name);
  int rc;
  if (run >= 0) {
    char group[64];
    snprintf(group, sizeof group, "runs/%06ld", run);
    hid_t g = bsim_h5_exists(f, group) ? bsim_h5_group(f, group) : -1;
    if (g < 0) {
      bsim_error_set(err, BSIM_ERR_INPUT,
                     "'%s' has no run %ld (hint: its summary table lists the "
                     "runs; failed runs have no data)",
                     path, run);
      H5E_BEGIN_TRY {
        H5Fclose(f);
      }
      H5E_END_TRY;
      return -1;
    }
    snprintf(name, sizeof name, "run %ld", run);
    rc = h5_run(T, g, f, name);
    H5Gclose(g);
  } else if (bsim_h5_exists(f, "runs") && !bsim_h5_exists(f, "values")) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "'%s' is a sweep's study file: choose a run (hint: "
                   "blocksim plot --run N)",
                   path);
    rc = 1;
  } else {
    rc = h5_run(T, f, -1, name);
  }
  H5E_BEGIN_TRY {
    H5Fclose(f);
  }
  H5E_END_TRY;
  if (rc < 0)
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "'%s' lacks the datasets of a blocksim result (/time, "
                   "/values; docs/batch.md)",
                   path);
  return rc ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* Entry points                                                        */
/* ------------------------------------------------------------------ */

/* The format of an existing file: its extension, else its first bytes.
 * -1 (errno set) when it cannot be opened. */
static int sniff(const char *path, bsim_format *fmt) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  if (bsim_format_of_path(path, fmt) == 0) {
    fclose(f);
    return 0;
  }
  unsigned char head[8] = {0};
  size_t n = fread(head, 1, sizeof head, f);
  fclose(f);
  if (n >= 4 && memcmp(head, "\211HDF", 4) == 0)
    *fmt = BSIM_FORMAT_H5;
  else if (n >= 6 && memcmp(head, "MATLAB", 6) == 0)
    *fmt = BSIM_FORMAT_MAT;
  else
    *fmt = BSIM_FORMAT_CSV;
  return 0;
}

bsim_tables *bsim_tables_read(const char *path, long run, bsim_error *err) {
  bsim_tables *T = calloc(1, sizeof *T);
  bsim_format fmt;
  if (!T) {
    bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
    return NULL;
  }
  if (sniff(path, &fmt) != 0) {
    bsim_error_set(err, BSIM_ERR_INPUT, "cannot open '%s': %s", path,
                   strerror(errno));
    free(T);
    return NULL;
  }
  if (run >= 0 && fmt != BSIM_FORMAT_H5) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "'%s': a run number needs a sweep's HDF5 study file (a "
                   "CSV study keeps run N in runs/N.csv)",
                   path);
    free(T);
    return NULL;
  }
  int rc = fmt == BSIM_FORMAT_CSV   ? read_csv(T, path, err)
           : fmt == BSIM_FORMAT_MAT ? read_mat(T, path, err)
                                    : read_h5(T, path, run, err);
  if (rc != 0) {
    bsim_tables_free(T);
    return NULL;
  }
  return T;
}

bsim_tables *bsim_tables_of_sim(const bsim_sim *s, bsim_error *err) {
  bsim_tables *T = calloc(1, sizeof *T);
  size_t cols = bsim_result_cols(s);
  const char **names = calloc(cols + 1, sizeof(char *));
  int rc = T && names ? 0 : -1;
  for (size_t c = 0; rc == 0 && c < cols; c++)
    names[c] = bsim_result_name(s, c);
  if (rc == 0)
    rc = add(T, "signals", bsim_result_rows(s), cols, bsim_result_times(s), 1,
             bsim_result_data(s), cols, 1, names);
  free(names);
  size_t rows;
  int rcols;
  const double *data;
  const char *path;
  for (size_t i = 0;
       rc == 0 && (path = bsim_record_at(s, i, &rows, &rcols, &data)); i++) {
    if (rcols <= 0) continue;
    /* the sink's column names: "a,b,c" */
    const char *given = bsim_record_names(s, i);
    char *copy = given ? strdup(given) : NULL;
    char **cn = calloc((size_t)rcols + 1, sizeof(char *));
    int k = 0;
    char *save = NULL;
    for (char *tok = copy ? strtok_r(copy, ",", &save) : NULL;
         tok && cn && k < rcols; tok = strtok_r(NULL, ",", &save))
      cn[k++] = tok;
    size_t w = (size_t)rcols + 1;
    rc = cn ? add(T, path, rows, (size_t)rcols, data, w, data + 1, w, 1,
                  k == rcols ? (const char *const *)cn : NULL)
            : -1;
    free(cn);
    free(copy);
  }
  if (rc != 0) {
    bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
    bsim_tables_free(T);
    return NULL;
  }
  return T;
}

size_t bsim_tables_count(const bsim_tables *T) {
  return T->n;
}
const char *bsim_table_name(const bsim_tables *T, size_t i) {
  return i < T->n ? T->t[i].name : NULL;
}
size_t bsim_table_rows(const bsim_tables *T, size_t i) {
  return i < T->n ? T->t[i].rows : 0;
}
size_t bsim_table_cols(const bsim_tables *T, size_t i) {
  return i < T->n ? T->t[i].cols : 0;
}
const char *bsim_table_column_name(const bsim_tables *T, size_t i, size_t c) {
  return i < T->n && c < T->t[i].cols ? T->t[i].colnames[c] : NULL;
}
const double *bsim_table_time(const bsim_tables *T, size_t i) {
  return i < T->n ? T->t[i].time : NULL;
}
const double *bsim_table_column(const bsim_tables *T, size_t i, size_t c) {
  return i < T->n && c < T->t[i].cols ? T->t[i].data + c * T->t[i].rows : NULL;
}
