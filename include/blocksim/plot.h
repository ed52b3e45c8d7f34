/*
 * Reading result files back and plotting them: what `blocksim plot` and
 * `blocksim run --plot` use, for programs that want the same.
 *
 * A result holds tables: time plus named columns. The observed signals of
 * a run are one table ("signals"); each sink record is another, named by
 * the sink's block path. Tables come from a sim in memory or from a result
 * file of any format blocksim writes (CSV, MAT, HDF5; docs/batch.md).
 * Everything follows the library's rules: reentrant, never prints, errors
 * in a bsim_error.
 */
#ifndef BLOCKSIM_PLOT_H
#define BLOCKSIM_PLOT_H

#include "export.h"

#include <stddef.h>

#include "blocksim.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bsim_tables bsim_tables;

/* The tables of a result file: a CSV file (one table named after the
 * file), or a MAT or HDF5 results file (signals, then its records), or a
 * --scopes record file of any format. `run` selects one run of a sweep's
 * HDF5 study file (its run index), or -1 for a single-run file. The format
 * comes from the extension (.csv, .mat, .h5, .hdf5), else from the file's
 * first bytes. NULL on error (status 2: missing, unreadable or not a
 * result file). */
BSIM_API bsim_tables *bsim_tables_read(const char *path, long run,
                                       bsim_error *err);
/* A sim's results after bsim_sim_run: its signals, then its records. */
BSIM_API bsim_tables *bsim_tables_of_sim(const bsim_sim *s, bsim_error *err);
BSIM_API void bsim_tables_free(bsim_tables *t);

BSIM_API size_t bsim_tables_count(const bsim_tables *t);
BSIM_API const char *bsim_table_name(const bsim_tables *t, size_t i);
BSIM_API size_t bsim_table_rows(const bsim_tables *t, size_t i);
BSIM_API size_t bsim_table_cols(const bsim_tables *t,
                                size_t i); /* time not counted */
BSIM_API const char *bsim_table_column_name(const bsim_tables *t, size_t i,
                                            size_t c);
BSIM_API const double *bsim_table_time(const bsim_tables *t, size_t i);
/* Column c of table i: rows values, contiguous. */
BSIM_API const double *bsim_table_column(const bsim_tables *t, size_t i,
                                         size_t c);

typedef enum {
  BSIM_PANELS_TABLE = 0, /* one panel per table (signals, each record) */
  BSIM_PANELS_ONE = 1,   /* every selected curve in one panel */
  BSIM_PANELS_EACH = 2   /* one panel per curve */
} bsim_panels;

typedef struct bsim_plot_options {
  /* Curves to draw, each a column name of the signals table ("y",
   * "x[2]"), a record's block path (all its columns) or "PATH.COLUMN"
   * for one column of a record; NULL / 0: every column of every table.
   * A name that matches nothing is an error (status 2) listing the
   * valid ones. */
  const char *const *signals;
  int nsignals;
  bsim_panels panels;
  int width, height; /* pixels (points for SVG and PDF); 0: defaults */
  const char *title; /* above the first panel; NULL: none */
} bsim_plot_options;

BSIM_API void bsim_plot_options_init(bsim_plot_options *o);

/* Draw time plots of the tables into path with cairo: a PNG, SVG or PDF
 * file chosen by the extension (.png, .svg, .pdf), written atomically.
 * Each panel has axes with ticks and tick labels, "time" under the x
 * axis, a title and a legend naming its curves. 0, or -1 with err set. */
BSIM_API int bsim_plot_write(const bsim_tables *t, const char *path,
                             const bsim_plot_options *o, bsim_error *err);

#ifdef __cplusplus
}
#endif
#endif
