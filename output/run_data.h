/*
 * One run's results as the file writers see them, whether they come from a
 * sim in memory (single runs) or from a sweep's journal: the observed
 * signals at the sample times and the sink records. The writers of every
 * format take this, so a run lays out the same in a single-run file and in
 * a study file. Private to output/.
 */
#ifndef BSIM_RUN_DATA_H
#define BSIM_RUN_DATA_H

#include <stddef.h>

#include "blocksim/blocksim.h"

typedef struct out_record {
  const char *path;   /* block path */
  const char *names;  /* column names, comma-separated; NULL: u1..un */
  size_t rows;        /* activations recorded */
  int cols;           /* values per row, time not counted */
  const double *data; /* rows x (1 + cols), row-major, time first */
} out_record;

typedef struct out_run {
  size_t rows, cols;    /* samples, observed scalar columns */
  const double *times;  /* rows */
  const double *values; /* rows x cols, row-major */
  const char **names;   /* cols */
  size_t nrec;
  out_record *rec;
} out_run;

/* A sim's results (pointers into the sim, arrays of names and records
 * allocated): 0, or -1 out of memory. Release with out_run_release. */
int out_run_of_sim(const bsim_sim *s, out_run *o);
void out_run_release(out_run *o);

/* One record's times (rows) and values (rows x cols) split out of its
 * rows, malloc'ed; 0 or -1. */
int out_record_split(const out_record *r, double **times, double **values);
/* Its cols column names as an array of strings (the sink's, else u1..un),
 * malloc'ed with the strings in one block: free(*names) alone. 0 or -1. */
int out_record_columns(const out_record *r, char ***names);

#endif
