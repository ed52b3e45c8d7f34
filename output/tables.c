/*
 * Result files read back as tables (time plus named columns), for plots
 * and for merging: CSV through stdio, MAT and HDF5 through their modules
 * (mat.c, h5.c), which hand their tables over through add(). Every format
 * gives the same tables for the same run, so a plot does not depend on
 * the format the run was saved in.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocksim/plot.h"
#include "output/writers.h"

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

/* Append a table (out_tables_add). */
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

static int read_csv(bsim_tables *T, const char *path, const char *name,
                    bsim_error *err) {
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
  char name[256];
  base_name(path, name, sizeof name);
  int rc = -1;
  if (fmt == BSIM_FORMAT_CSV) {
    rc = read_csv(T, path, name, err);
  } else if (fmt == BSIM_FORMAT_MAT) {
    const out_mat_module *mat = out_mat(err);
    rc = mat ? mat->tables(T, add, path, name, err) : -1;
  } else {
    const out_h5_module *h5 = out_h5(err);
    rc = h5 ? h5->tables(T, add, path, name, run, err) : -1;
  }
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
