/*
 * The MAT and HDF5 files, written and read back: each format is an
 * optional module (modules/module.h) with its library (matio, HDF5), so
 * the rest of output/ reaches them only through these tables. The writers
 * take a run's data (run_data.h) and write to the path given, which the
 * caller has made a temporary. Private to output/.
 */
#ifndef BSIM_WRITERS_H
#define BSIM_WRITERS_H

#include "blocksim/batch.h"
#include "blocksim/plot.h"
#include "modules/module.h"
#include "output/run_data.h"

struct out_member;

/* How a reader hands a table to bsim_tables (tables.c): values(r, c) =
 * values[r * rstride + c * cstride], time(r) = time[r * tstride]; names
 * NULL gives u1..un. 0, or -1 out of memory. */
typedef int (*out_tables_add)(bsim_tables *T, const char *name, size_t rows,
                              size_t cols, const double *time, size_t tstride,
                              const double *values, size_t rstride,
                              size_t cstride, const char *const *names);

typedef struct out_h5_module {
  /* A whole file for one run: the run at the root, attributes format,
   * version and diagram. 0 or -1. */
  int (*file)(const char *path, const out_run *o, const char *diagram);
  /* One record alone (--scopes DIR): time, values, names. 0 or -1. */
  int (*record)(const char *path, const out_record *r);
  /* The tables of a result file (run >= 0: that run of a study file),
   * the signals' table named `name`. 0, or -1 with err set. */
  int (*tables)(bsim_tables *T, out_tables_add add, const char *path,
                const char *name, long run, bsim_error *err);
  /* The format hooks of a study (study.h). */
  int (*study_open)(bsim_study *st, bsim_error *err);
  int (*study_member)(bsim_study *st, const struct out_member *m);
  int (*study_finish)(bsim_study *st, bsim_error *err);
  void (*study_close)(bsim_study *st);
  int (*study_merge)(const char *out, const char *const *in, int n,
                     bsim_error *err);
} out_h5_module;

typedef struct out_mat_module {
  /* A MAT 5 file for one run: time, values, names, and scope_names,
   * scope_columns, scope_data when it recorded. 0 or -1. */
  int (*file)(const char *path, const out_run *o);
  /* One record alone: time, values, names. 0 or -1. */
  int (*record)(const char *path, const out_record *r);
  /* As out_h5_module's (no runs). */
  int (*tables)(bsim_tables *T, out_tables_add add, const char *path,
                const char *name, bsim_error *err);
} out_mat_module;

/* The modules, loaded on first use; NULL with err set (status 2). */
static inline const out_h5_module *out_h5(bsim_error *err) {
  return bsim_module("hdf5", "the HDF5 format", err);
}
static inline const out_mat_module *out_mat(bsim_error *err) {
  return bsim_module("mat", "the MAT format", err);
}

#endif
