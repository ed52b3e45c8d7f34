/*
 * HDF5 result files. A run's layout (out_h5_write_run) is the same at the
 * root of a single-run file and in each run group of a study file, so that
 * one reader serves both (docs/batch.md documents it).
 */
#include <stdlib.h>

#include "output/h5util.h"
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

int out_h5_file(const char *path, const out_run *o, const char *diagram) {
  hid_t f = create(path);
  int ok = f >= 0 && bsim_h5_attr_string(f, "format", "blocksim-result") == 0 &&
           bsim_h5_attr_long(f, "version", 1) == 0 &&
           bsim_h5_attr_string(f, "diagram", diagram ? diagram : "") == 0 &&
           out_h5_write_run(f, o, 0) == 0;
  if (f >= 0 && close_file(f) != 0) ok = 0;
  return ok ? 0 : -1;
}

int out_record_h5(const char *path, const out_record *r) {
  hid_t f = create(path);
  int ok = f >= 0 && bsim_h5_attr_string(f, "block", r->path) == 0 &&
           record_datasets(f, r, 0) == 0;
  if (f >= 0 && close_file(f) != 0) ok = 0;
  return ok ? 0 : -1;
}
