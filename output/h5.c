/*
 * HDF5 result files, written and read back as tables; with the study files
 * (study_h5.c), blocksim's optional hdf5 module. A run's layout
 * (out_h5_write_run) is the same at the root of a single-run file and in
 * each run group of a study file, so that one reader serves both
 * (docs/batch.md documents it).
 */
#include <stdio.h>
#include <stdlib.h>

#include "output/h5util.h"
#include "output/study.h"
#include "output/writers.h"

/* time, values and names of a record below loc; z: compress whatever the
 * size. */
static int record_datasets(hid_t loc, const out_record *r, int z) {
  double *t = NULL, *v = NULL;
  char **names = NULL;
  int rc = out_record_split(r, &t, &v) == 0 &&
                   out_record_columns(r, &names) == 0 &&
                   bsim_h5_vector(loc, "time", r->rows, t) == 0 &&
                   (z ? bsim_h5_matrix_z : bsim_h5_matrix)(
                       loc, "values", r->rows, (size_t)r->cols, v) == 0 &&
                   bsim_h5_strings(loc, "names", (size_t)r->cols,
                                   (const char *const *)names) == 0
               ? 0
               : -1;
  free(t);
  free(v);
  free(names);
  return rc;
}

int out_h5_write_run(hid_t loc, const out_run *o, int study) {
  if (study ? bsim_h5_matrix_z(loc, "values", o->rows, o->cols, o->values) != 0
            : bsim_h5_vector(loc, "time", o->rows, o->times) != 0 ||
                  bsim_h5_matrix(loc, "values", o->rows, o->cols, o->values) !=
                      0 ||
                  bsim_h5_strings(loc, "names", o->cols, o->names) != 0)
    return -1;
  if (o->nrec == 0) return 0;
  const char **paths = calloc(o->nrec, sizeof(char *));
  if (!paths) return -1;
  for (size_t i = 0; i < o->nrec; i++)
    paths[i] = o->rec[i].path;
  int rc = bsim_h5_strings(loc, "scope_names", o->nrec, paths);
  free(paths);
  hid_t scopes = rc == 0 ? bsim_h5_group(loc, "scopes") : -1;
  for (size_t i = 0; scopes >= 0 && rc == 0 && i < o->nrec; i++) {
    hid_t g = bsim_h5_group(scopes, o->rec[i].path);
    rc = g >= 0 ? record_datasets(g, &o->rec[i], study) : -1;
    if (g >= 0) H5Gclose(g);
  }
  if (scopes >= 0) H5Gclose(scopes);
  return scopes >= 0 ? rc : -1;
}

/* Create a file (truncating the temporary the caller made). */
static hid_t create(const char *path) {
  hid_t f = -1;
  H5E_BEGIN_TRY {
    f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  }
  H5E_END_TRY;
  return f;
}

static int close_file(hid_t f) {
  herr_t rc;
  H5E_BEGIN_TRY {
    rc = H5Fclose(f);
  }
  H5E_END_TRY;
  return rc < 0 ? -1 : 0;
}

static int h5_file(const char *path, const out_run *o, const char *diagram) {
  hid_t f = create(path);
  int ok = f >= 0 && bsim_h5_attr_string(f, "format", "blocksim-result") == 0 &&
           bsim_h5_attr_long(f, "version", 1) == 0 &&
           bsim_h5_attr_string(f, "diagram", diagram ? diagram : "") == 0 &&
           out_h5_write_run(f, o, 0) == 0;
  if (f >= 0 && close_file(f) != 0) ok = 0;
  return ok ? 0 : -1;
}

static int h5_record(const char *path, const out_record *r) {
  hid_t f = create(path);
  int ok = f >= 0 && bsim_h5_attr_string(f, "block", r->path) == 0 &&
           record_datasets(f, r, 0) == 0;
  if (f >= 0 && close_file(f) != 0) ok = 0;
  return ok ? 0 : -1;
}

/* ------------------------------------------------------------------ */
/* Reading back                                                        */
/* ------------------------------------------------------------------ */

/* time, values and names below loc as a table; a study's run keeps only
 * its values, its times and names being the file's (`shared`, the root):
 * the first rows of them. */
static int h5_table(bsim_tables *T, out_tables_add add, hid_t loc, hid_t shared,
                    const char *name) {
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

static int h5_run(bsim_tables *T, out_tables_add add, hid_t loc, hid_t shared,
                  const char *name) {
  if (h5_table(T, add, loc, shared, name) != 0) return -1;
  size_t k = 0;
  char **paths = bsim_h5_exists(loc, "scope_names")
                     ? bsim_h5_read_strings(loc, "scope_names", &k)
                     : NULL;
  hid_t scopes = k ? bsim_h5_group(loc, "scopes") : -1;
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < k; i++) {
    hid_t g = bsim_h5_group(scopes, paths[i]);
    rc = g >= 0 ? h5_table(T, add, g, -1, paths[i]) : -1;
    if (g >= 0) H5Gclose(g);
  }
  if (scopes >= 0) H5Gclose(scopes);
  bsim_h5_free_strings(paths, k);
  return rc;
}

static int h5_tables(bsim_tables *T, out_tables_add add, const char *path,
                     const char *name, long run, bsim_error *err) {
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
  int rc;
  if (run >= 0) {
    char group[64], runname[64];
    snprintf(group, sizeof group, "runs/%06ld", run);
    hid_t g = bsim_h5_exists(f, group) ? bsim_h5_group(f, group) : -1;
    if (g < 0) {
      bsim_error_set(err, BSIM_ERR_INPUT,
                     "'%s' has no run %ld (hint: its summary table lists the "
                     "runs; failed runs have no data)",
                     path, run);
      close_file(f);
      return -1;
    }
    snprintf(runname, sizeof runname, "run %ld", run);
    rc = h5_run(T, add, g, f, runname);
    H5Gclose(g);
  } else if (bsim_h5_exists(f, "runs") && !bsim_h5_exists(f, "values")) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "'%s' is a sweep's study file: choose a run (hint: "
                   "blocksim plot --run N)",
                   path);
    rc = 1;
  } else {
    rc = h5_run(T, add, f, -1, name);
  }
  close_file(f);
  if (rc < 0)
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "'%s' lacks the datasets of a blocksim result (/time, "
                   "/values; docs/batch.md)",
                   path);
  return rc ? -1 : 0;
}

static const out_h5_module h5_module = {h5_file,
                                        h5_record,
                                        h5_tables,
                                        out_study_h5_open,
                                        out_study_h5_member,
                                        out_study_h5_finish,
                                        out_study_h5_close,
                                        out_study_h5_merge};

const void *bsim_module_hdf5(void) {
  return &h5_module;
}
