/*
 * A study being written (bsim_study of blocksim/batch.h): what study.c
 * keeps for both formats — the journal, which members are done, the rows of
 * the summary — and the hooks of each format (study_h5.c, study_csv.c).
 * Private to output/.
 */
#ifndef BSIM_STUDY_H
#define BSIM_STUDY_H

#include <stdint.h>

#include "blocksim/batch.h"
#include "output/journal.h"
#include "output/member.h"
#include "output/writers.h"

/* One row of the summary: a member's outcome and the statistics of its
 * signals (NaN when it failed). */
typedef struct srow {
  long index;
  int status;
  char *message;
  double wall;
  double *final, *min, *max, *mean; /* cols each, one allocation */
  double *stats;                    /* nstats (the study's names) */
} srow;

struct bsim_study {
  bsim_format fmt;
  char *path;              /* the final file or folder */
  char *part;              /* HDF5: the file being written, renamed at finish */
  const out_h5_module *h5; /* HDF5: the module writing it */
  int64_t file, runs;      /* HDF5: hid_t of the .part and its runs */
  out_journal *j;          /* NULL when opened complete */
  int complete;            /* nothing left to write */
  char *fingerprint;       /* the sweep's, without the shard */
  char *diagram;
  int shard, shards;
  /* shared by every member */
  size_t rows, cols;
  double *times;
  char **names;
  const bsim_design *design;
  long nmembers;       /* of the design */
  unsigned char *has;  /* nmembers flags */
  long ndone, nfailed; /* members in the output, of which failed */
  /* summary rows of the members added here (none when opened complete) */
  srow *row;
  long nrows, caprows;
  int nstats;
  char *stat_names[OUT_MAX_STATS];
};

/* Format hooks (those of HDF5 in the hdf5 module, through st->h5). open: start
 * writing (a fresh .part / the folders), or detect a complete output
 * (st->complete set, has[] filled). 0 or -1. */
int out_study_h5_open(bsim_study *st, bsim_error *err);
int out_study_h5_member(bsim_study *st, const out_member *m);
int out_study_h5_finish(bsim_study *st, bsim_error *err);
void out_study_h5_close(bsim_study *st);
int out_study_csv_open(bsim_study *st, bsim_error *err);
int out_study_csv_member(bsim_study *st, const out_member *m);
int out_study_csv_finish(bsim_study *st, bsim_error *err);

/* The summary rows sorted by member index. */
void out_study_sort(bsim_study *st);
/* "I/N" of a shard, or "" for a whole sweep (buf of 32 bytes). */
const char *out_study_shard_text(const bsim_study *st, char *buf);

/* Merging the shards of one sweep, per format. */
int out_study_h5_merge(const char *out, const char *const *in, int n,
                       bsim_error *err);
int out_study_csv_merge(const char *out, const char *const *in, int n,
                        bsim_error *err);

#endif
