/*
 * Studies (blocksim/batch.h): the output of a sweep, written as members
 * finish, in any order, and resumable. Every member goes to the journal
 * first (journal.c); the format's writer (study_h5.c, study_csv.c) then
 * stores its data, and its summary row is kept here until finish writes
 * the summary sorted by member index — so the output does not depend on
 * the order members finished in, nor on how many threads or ranks ran
 * them.
 */
#include "output/study.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *out_study_shard_text(const bsim_study *st, char *buf) {
  if (st->shards > 0)
    snprintf(buf, 32, "%d/%d", st->shard, st->shards);
  else
    buf[0] = '\0';
  return buf;
}

static int stat_slot(bsim_study *st, const char *name) {
  for (int k = 0; k < st->nstats; k++)
    if (strcmp(st->stat_names[k], name) == 0) return k;
  if (st->nstats == OUT_MAX_STATS) return -1;
  if (!(st->stat_names[st->nstats] = strdup(name))) return -1;
  return st->nstats++;
}

/* The summary row of a member: outcome, then final value, minimum,
 * maximum and mean of each signal (over its samples). */
static int add_row(bsim_study *st, const out_member *m) {
  if (st->nrows == st->caprows) {
    long cap = st->caprows ? 2 * st->caprows : 256;
    srow *g = realloc(st->row, sizeof *g * (size_t)cap);
    if (!g) return -1;
    st->row = g;
    st->caprows = cap;
  }
  srow *r = &st->row[st->nrows];
  memset(r, 0, sizeof *r);
  r->index = m->index;
  r->status = m->status;
  r->wall = m->wall;
  r->message = strdup(m->message ? m->message : "");
  r->final = malloc(sizeof(double) * (4 * st->cols + OUT_MAX_STATS));
  if (!r->message || !r->final) {
    free(r->message);
    free(r->final);
    return -1;
  }
  r->min = r->final + st->cols;
  r->max = r->min + st->cols;
  r->mean = r->max + st->cols;
  r->stats = r->mean + st->cols;
  for (size_t k = 0; k < 4 * st->cols + OUT_MAX_STATS; k++)
    r->final[k] = NAN;
  int ok = m->status == 0 && m->rows > 0 && m->cols == st->cols;
  for (size_t c = 0; ok && c < st->cols; c++) {
    double lo = INFINITY, hi = -INFINITY, sum = 0;
    for (size_t i = 0; i < m->rows; i++) {
      double v = m->values[i * m->cols + c];
      lo = fmin(lo, v);
      hi = fmax(hi, v);
      sum += v;
    }
    r->final[c] = m->values[(m->rows - 1) * m->cols + c];
    r->min[c] = lo;
    r->max[c] = hi;
    r->mean[c] = sum / (double)m->rows;
  }
  for (int k = 0; k < m->nstats; k++) {
    int slot = stat_slot(st, m->stat_names[k]);
    if (slot >= 0) r->stats[slot] = m->stat_values[k];
  }
  st->nrows++;
  st->ndone++;
  if (m->status != 0) st->nfailed++;
  return 0;
}

static int cmp_row(const void *a, const void *b) {
  long x = ((const srow *)a)->index, y = ((const srow *)b)->index;
  return (x > y) - (x < y);
}

void out_study_sort(bsim_study *st) {
  qsort(st->row, (size_t)st->nrows, sizeof(srow), cmp_row);
}

/* A member into the output (journal aside). 1 when it was there already. */
static int apply(bsim_study *st, const out_member *m, int write_files) {
  if (m->index < 0 || m->index >= st->nmembers) return -1;
  if (st->has[m->index]) return 1;
  int rc = 0;
  if (st->fmt == BSIM_FORMAT_H5)
    rc = st->h5->study_member(st, m);
  else if (write_files)
    rc = out_study_csv_member(st, m);
  if (rc == 0) rc = add_row(st, m);
  if (rc == 0) st->has[m->index] = 1;
  return rc;
}

static char *journal_path(const char *path, bsim_format fmt) {
  size_t n = strlen(path) + 16;
  char *p = malloc(n);
  if (p)
    snprintf(p, n, fmt == BSIM_FORMAT_H5 ? "%s.journal" : "%s/journal", path);
  return p;
}

/* Members a killed sweep left in the journal. */
static int replay(bsim_study *st, bsim_error *err) {
  const void *buf;
  size_t len;
  while (out_journal_next(st->j, &buf, &len)) {
    out_member m;
    if (out_member_decode(buf, len, &m) != 0) {
      bsim_error_set(err, BSIM_ERR_INPUT,
                     "the journal of '%s' holds a record this version cannot "
                     "read (hint: remove the journal to start again)",
                     st->path);
      return -1;
    }
    long index = m.index;
    int rc = apply(st, &m, 0);
    out_member_clear(&m);
    if (rc < 0) {
      bsim_error_set(err, BSIM_ERR_SIM,
                     "cannot restore member %ld of '%s' from its journal",
                     index, st->path);
      return -1;
    }
  }
  return 0;
}

bsim_study *bsim_study_open(const char *path, bsim_format fmt,
                            const bsim_sweep *sw, const bsim_design *design,
                            const char *fingerprint, int shard, int shards,
                            bsim_error *err) {
  if (fmt != BSIM_FORMAT_H5 && fmt != BSIM_FORMAT_CSV) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "a study is an HDF5 file or a folder of CSV files (hint: "
                   "-o study.h5 or -o DIR)");
    return NULL;
  }
  const out_h5_module *h5 = fmt == BSIM_FORMAT_H5 ? out_h5(err) : NULL;
  if (fmt == BSIM_FORMAT_H5 && !h5) return NULL;
  bsim_study *st = calloc(1, sizeof *st);
  if (!st) {
    bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
    return NULL;
  }
  st->fmt = fmt;
  st->h5 = h5;
  st->file = st->runs = -1;
  st->shard = shard;
  st->shards = shards;
  st->design = design;
  st->nmembers = bsim_design_members(design);
  st->rows = bsim_sweep_rows(sw);
  st->cols = bsim_sweep_cols(sw);
  st->path = strdup(path);
  st->fingerprint = strdup(fingerprint);
  st->diagram = strdup(bsim_sweep_diagram(sw));
  st->times = malloc(sizeof(double) * (st->rows + 1));
  st->names = calloc(st->cols + 1, sizeof(char *));
  st->has = calloc((size_t)st->nmembers + 1, 1);
  int ok = st->path && st->fingerprint && st->diagram && st->times &&
           st->names && st->has;
  for (size_t c = 0; ok && c < st->cols; c++)
    ok = (st->names[c] = strdup(bsim_sweep_name(sw, c))) != NULL;
  if (!ok) {
    bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
    bsim_study_free(st);
    return NULL;
  }
  memcpy(st->times, bsim_sweep_times(sw), sizeof(double) * st->rows);
  int rc = fmt == BSIM_FORMAT_H5 ? h5->study_open(st, err)
                                 : out_study_csv_open(st, err);
  if (rc == 0 && !st->complete) {
    /* the journal knows the shard too: shards never share one */
    char shardtext[32];
    size_t n = strlen(fingerprint) + 64;
    char *jfp = malloc(n);
    char *jpath = journal_path(path, fmt);
    if (jfp && jpath) {
      snprintf(jfp, n, "%s shard=%s", fingerprint,
               out_study_shard_text(st, shardtext));
      st->j = out_journal_open(jpath, jfp, err);
    } else {
      bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
    }
    rc = st->j ? replay(st, err) : -1;
    free(jfp);
    free(jpath);
  }
  if (rc != 0) {
    bsim_study_free(st);
    return NULL;
  }
  return st;
}

int bsim_study_has(const bsim_study *st, long i) {
  return i >= 0 && i < st->nmembers && st->has[i];
}

long bsim_study_done(const bsim_study *st, long *failed) {
  if (failed) *failed = st->nfailed;
  return st->ndone;
}

int bsim_study_add(bsim_study *st, const void *rec, size_t len,
                   bsim_error *err) {
  out_member m;
  if (st->complete) return 0;
  if (out_member_decode(rec, len, &m) != 0) {
    bsim_error_set(err, BSIM_ERR_SIM, "study: a malformed member record");
    return -1;
  }
  int rc = 0;
  if (m.index < 0 || m.index >= st->nmembers) {
    bsim_error_set(err, BSIM_ERR_SIM, "study: member %ld is not in the design",
                   m.index);
    rc = -1;
  } else if (!st->has[m.index]) {
    errno = 0;
    /* CSV: files first, then the journal, so a journaled member always has
     * its files; HDF5 rebuilds its .part from the journal anyway */
    if (st->fmt == BSIM_FORMAT_CSV && out_study_csv_member(st, &m) != 0)
      rc = -1;
    if (rc == 0 && out_journal_append(st->j, rec, len) != 0) rc = -1;
    if (rc == 0 && apply(st, &m, 0) < 0) rc = -1;
    if (rc != 0)
      bsim_error_set(err, BSIM_ERR_SIM, "cannot write member %ld to '%s': %s",
                     m.index, st->path,
                     errno ? strerror(errno) : "the library failed");
  }
  out_member_clear(&m);
  return rc;
}

int bsim_study_finish(bsim_study *st, bsim_error *err) {
  if (st->complete) return 0;
  out_study_sort(st);
  int rc = st->fmt == BSIM_FORMAT_H5 ? st->h5->study_finish(st, err)
                                     : out_study_csv_finish(st, err);
  if (rc != 0) return -1;
  out_journal_close(st->j, 1);
  st->j = NULL;
  st->complete = 1;
  return 0;
}

void bsim_study_free(bsim_study *st) {
  if (!st) return;
  if (st->h5) st->h5->study_close(st);
  out_journal_close(st->j, 0);
  for (long i = 0; i < st->nrows; i++) {
    free(st->row[i].message);
    free(st->row[i].final);
  }
  free(st->row);
  for (int k = 0; k < st->nstats; k++)
    free(st->stat_names[k]);
  for (size_t c = 0; st->names && c < st->cols; c++)
    free(st->names[c]);
  free(st->names);
  free(st->times);
  free(st->has);
  free(st->path);
  free(st->part);
  free(st->fingerprint);
  free(st->diagram);
  free(st);
}

int bsim_study_merge(const char *out, const char *const *inputs, int n,
                     bsim_error *err) {
  bsim_format fmt;
  if (n < 1) {
    bsim_error_set(err, BSIM_ERR_INPUT, "merge: no input study");
    return -1;
  }
  fmt = bsim_format_of_path(out, &fmt) == 0 ? fmt : BSIM_FORMAT_CSV;
  for (int i = 0; i < n; i++) {
    bsim_format f;
    if (bsim_format_of_path(inputs[i], &f) != 0) f = BSIM_FORMAT_CSV;
    if (f != fmt) {
      bsim_error_set(err, BSIM_ERR_INPUT,
                     "merge: '%s' and '%s' are not of one format (hint: merge "
                     "HDF5 studies into a .h5 file, CSV folders into a "
                     "folder)",
                     inputs[i], out);
      return -1;
    }
  }
  if (fmt != BSIM_FORMAT_H5) return out_study_csv_merge(out, inputs, n, err);
  const out_h5_module *h5 = out_h5(err);
  return h5 ? h5->study_merge(out, inputs, n, err) : -1;
}
