/*
 * The MAT and HDF5 writers, on a run's data (run_data.h), shared by the
 * single-run outputs (write.c commits them with the other files of a run)
 * and the sweep's study files. They write to the path given, which the
 * caller has made a temporary. Private to output/.
 */
#ifndef BSIM_WRITERS_H
#define BSIM_WRITERS_H

#include <hdf5.h>

#include "output/run_data.h"

/* A run's datasets below loc (docs/batch.md): time, values, names, and
 * scope_names plus scopes/<block path>/{time,values,names} when it
 * recorded. In a study (study = 1) time and names are the file's, at its
 * root, and every values dataset is chunked and compressed. 0 or -1. */
int out_h5_write_run(hid_t loc, const out_run *o, int study);
/* A whole HDF5 file for one run: the run at the root, attributes format,
 * version and diagram. 0 or -1. */
int out_h5_file(const char *path, const out_run *o, const char *diagram);
/* A MAT 5 file for one run: time, values, names, and scope_names,
 * scope_columns, scope_data when it recorded. 0 or -1. */
int out_mat_file(const char *path, const out_run *o);

/* One record alone (--scopes DIR): time, values, names. 0 or -1. */
int out_record_mat(const char *path, const out_record *r);
int out_record_h5(const char *path, const out_record *r);

#endif
