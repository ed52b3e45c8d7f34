/*
 * MAT files (version 5, zlib-compressed variables) through libmatio, for
 * MATLAB, Octave, Scilab (loadmatfile) and SciPy (loadmat), written and
 * read back as tables: blocksim's optional mat module. Variables:
 * time (N x 1), values (N x C, one column per observed signal), names (1 x C
 * cell of strings) and, when sinks recorded, scope_names (1 x K cell),
 * scope_columns (1 x K cell of 1 x n cells of column names) and scope_data
 * (1 x K cell of R x (1 + n) matrices, time in column 1).
 */
#include <matio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/writers.h"

/* A rows x cols matrix given row-major (stride apart), stored column-major
 * as MAT wants; NULL out of memory. */
static matvar_t *matrix(const char *name, size_t rows, size_t cols,
                        const double *data, size_t stride) {
  size_t dims[2] = {rows, cols};
  double *cm = malloc(sizeof(double) * (rows * cols + 1));
  if (!cm) return NULL;
  for (size_t r = 0; r < rows; r++)
    for (size_t c = 0; c < cols; c++)
      cm[c * rows + r] = data[r * stride + c];
  matvar_t *v = Mat_VarCreate(name, MAT_C_DOUBLE, MAT_T_DOUBLE, 2, dims, cm, 0);
  free(cm); /* Mat_VarCreate copied it */
  return v;
}

static matvar_t *string(const char *s) {
  size_t dims[2] = {1, strlen(s)};
  return Mat_VarCreate(NULL, MAT_C_CHAR, MAT_T_UINT8, 2, dims, (void *)s, 0);
}

/* A 1 x n cell; each element from make(i), which the cell then owns. */
static matvar_t *cell(const char *name, size_t n,
                      matvar_t *(*make)(const void *ctx, size_t i),
                      const void *ctx) {
  size_t dims[2] = {1, n};
  matvar_t *c = Mat_VarCreate(name, MAT_C_CELL, MAT_T_CELL, 2, dims, NULL, 0);
  for (size_t i = 0; c && i < n; i++) {
    matvar_t *e = make(ctx, i);
    if (!e) {
      Mat_VarFree(c);
      return NULL;
    }
    /* returns the element it replaces (none here), not a status */
    Mat_VarSetCell(c, (int)i, e);
  }
  return c;
}

static matvar_t *name_at(const void *ctx, size_t i) {
  return string(((const out_run *)ctx)->names[i]);
}

static matvar_t *scope_name_at(const void *ctx, size_t i) {
  return string(((const out_run *)ctx)->rec[i].path);
}

static matvar_t *scope_data_at(const void *ctx, size_t i) {
  const out_record *r = &((const out_run *)ctx)->rec[i];
  size_t w = (size_t)r->cols + 1;
  return matrix(NULL, r->rows, w, r->data, w);
}

static matvar_t *column_at(const void *ctx, size_t i) {
  return string(((char *const *)ctx)[i]);
}

/* A record's column names as a 1 x n cell. */
static matvar_t *columns(const char *name, const out_record *r) {
  char **names;
  if (out_record_columns(r, &names) != 0) return NULL;
  matvar_t *c = cell(name, (size_t)r->cols, column_at, names);
  free(names);
  return c;
}

static matvar_t *scope_columns_at(const void *ctx, size_t i) {
  return columns(NULL, &((const out_run *)ctx)->rec[i]);
}

/* Write v (consumed); 0 or -1. */
static int put(mat_t *m, matvar_t *v) {
  int rc = v && Mat_VarWrite(m, v, MAT_COMPRESSION_ZLIB) == 0 ? 0 : -1;
  Mat_VarFree(v);
  return rc;
}

static int mat_file(const char *path, const out_run *o) {
  mat_t *m = Mat_CreateVer(path, NULL, MAT_FT_MAT5);
  int ok =
      m && put(m, matrix("time", o->rows, 1, o->times, 1)) == 0 &&
      put(m, matrix("values", o->rows, o->cols, o->values, o->cols)) == 0 &&
      put(m, cell("names", o->cols, name_at, o)) == 0;
  if (ok && o->nrec)
    ok = put(m, cell("scope_names", o->nrec, scope_name_at, o)) == 0 &&
         put(m, cell("scope_columns", o->nrec, scope_columns_at, o)) == 0 &&
         put(m, cell("scope_data", o->nrec, scope_data_at, o)) == 0;
  if (m && Mat_Close(m) != 0) ok = 0;
  return ok ? 0 : -1;
}

static int mat_record(const char *path, const out_record *r) {
  size_t w = (size_t)r->cols + 1;
  mat_t *m = Mat_CreateVer(path, NULL, MAT_FT_MAT5);
  int ok =
      m && put(m, matrix("time", r->rows, 1, r->data, w)) == 0 &&
      put(m, matrix("values", r->rows, (size_t)r->cols, r->data + 1, w)) == 0 &&
      put(m, columns("names", r)) == 0;
  if (m && Mat_Close(m) != 0) ok = 0;
  return ok ? 0 : -1;
}

/* ------------------------------------------------------------------ */
/* Reading back                                                        */
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

static void free_strings(char **s, size_t n) {
  for (size_t i = 0; s && i < n; i++)
    free(s[i]);
  free(s);
}

/* A cell of strings as an array (each malloc'ed), or NULL. */
static char **mat_strings(matvar_t *cell, size_t n) {
  char **s = calloc(n + 1, sizeof(char *));
  for (size_t i = 0; s && i < n; i++)
    if (!(s[i] = mat_text(Mat_VarGetCell(cell, (int)i)))) {
      free_strings(s, n);
      return NULL;
    }
  return s;
}

static int is_matrix(const matvar_t *v) {
  return v && v->class_type == MAT_C_DOUBLE && v->rank == 2 && !v->isComplex &&
         v->data;
}

static int read_tables(bsim_tables *T, out_tables_add add, mat_t *m,
                       const char *name) {
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
  free_strings(names, cols);
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
    free_strings(cn, w - 1);
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

static int mat_tables(bsim_tables *T, out_tables_add add, const char *path,
                      const char *name, bsim_error *err) {
  mat_t *m = Mat_Open(path, MAT_ACC_RDONLY);
  if (!m) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "cannot read '%s' as a MAT file (hint: is it one that "
                   "blocksim wrote?)",
                   path);
    return -1;
  }
  int rc = read_tables(T, add, m, name);
  Mat_Close(m);
  if (rc != 0)
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "'%s' lacks the variables of a blocksim result (time, "
                   "values, names; docs/batch.md)",
                   path);
  return rc;
}

static const out_mat_module mat_module = {mat_file, mat_record, mat_tables};

const void *bsim_module_mat(void) {
  return &mat_module;
}
