/*
 * One member of a sweep as it travels from the thread (or MPI rank) that
 * ran it to the study writer: its index, status and message, its observed
 * signals, statistics and sink records, as a self-contained byte string.
 * The same bytes go to the journal (resume after a kill) and over MPI, so
 * there is one encoding, checked by a CRC when read back. Private to
 * output/ and batch/.
 */
#ifndef BSIM_MEMBER_H
#define BSIM_MEMBER_H

#include <stddef.h>
#include <stdint.h>

#include "output/run_data.h"

enum { OUT_MAX_STATS = 32 };

typedef struct out_member {
  long index;
  int status;    /* 0 ok, 1 the simulation failed, 2 bad input */
  char *message; /* "" when ok */
  double wall;   /* seconds the member took */
  size_t rows, cols;
  double *values; /* rows x cols, row-major (times are the study's) */
  int nstats;
  char *stat_names[OUT_MAX_STATS];
  double stat_values[OUT_MAX_STATS];
  size_t nrec;
  out_record *rec; /* paths, names and data owned by the member */
} out_member;

/* A finished sim's results as member `index` (copied). 0 or -1. */
int out_member_of_sim(out_member *m, long index, const bsim_sim *s,
                      double wall);
/* A member without results: failed or refused with message. */
int out_member_failed(out_member *m, long index, int status,
                      const char *message, double wall);
void out_member_clear(out_member *m);

/* The bytes of a member (malloc'ed), NULL out of memory. */
void *out_member_encode(const out_member *m, size_t *len);
/* Read them back (allocating); 0, or -1 for malformed bytes. */
int out_member_decode(const void *buf, size_t len, out_member *m);

/* The run view of a member for the writers (pointers into m and names;
 * only o->rec is allocated: release with free(o->rec)): times has at
 * least m->rows entries. */
int out_member_run(const out_member *m, const double *times, const char **names,
                   out_run *o);

/* CRC-32 (zlib's) of n bytes. */
uint32_t out_crc32(const void *buf, size_t n);

#endif
