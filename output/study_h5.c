/*
 * HDF5 studies: one file holding every member (docs/batch.md gives the
 * layout). Members are written into "<file>.part" as they come; finish
 * adds the summary and renames it into place, so the study file is always
 * complete or absent. The file format is HDF5 1.10's (small datasets keep
 * their single chunk without a B-tree index): 10 000 runs take half the
 * space and time they would in the 1.8 format. Part of the hdf5 module.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/h5util.h"
#include "output/study.h"
#include "output/writers.h"

/* study.h keeps the ids as int64_t, which hid_t is since HDF5 1.10 */
_Static_assert(sizeof(hid_t) == sizeof(int64_t), "hid_t is not 64-bit");

static const char study_format[] = "blocksim-study";

static hid_t create_file(const char *path) {
  hid_t f = -1;
  H5E_BEGIN_TRY {
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl >= 0 &&
        H5Pset_libver_bounds(fapl, H5F_LIBVER_V110, H5F_LIBVER_LATEST) >= 0)
      f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    if (fapl >= 0) H5Pclose(fapl);
  }
  H5E_END_TRY;
  return f;
}

static hid_t open_file(const char *path) {
  hid_t f = -1;
  H5E_BEGIN_TRY {
    f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  }
  H5E_END_TRY;
  return f;
}

static void close_id(hid_t id, herr_t (*fn)(hid_t)) {
  if (id < 0) return;
  H5E_BEGIN_TRY {
    fn(id);
  }
  H5E_END_TRY;
}

static long long attr_long(hid_t obj, const char *name) {
  long long v = -1;
  H5E_BEGIN_TRY {
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    if (a >= 0) {
      if (H5Aread(a, H5T_NATIVE_LLONG, &v) < 0) v = -1;
      H5Aclose(a);
    }
  }
  H5E_END_TRY;
  return v;
}

/* An existing study file: the same sweep (complete), or refused. */
static int existing(bsim_study *st, bsim_error *err) {
  hid_t f = open_file(st->path);
  char *fmt = f >= 0 ? bsim_h5_attr_read_string(f, "format") : NULL;
  char *fp = f >= 0 ? bsim_h5_attr_read_string(f, "fingerprint") : NULL;
  int same = fmt && fp && strcmp(fmt, study_format) == 0 &&
             strcmp(fp, st->fingerprint) == 0 &&
             attr_long(f, "shard") == st->shard &&
             attr_long(f, "shards") == st->shards;
  size_t n = 0, one;
  long long *index = NULL, *status = NULL;
  if (same && bsim_h5_dims(f, "summary/index", &n, &one) == 0) {
    index = malloc(sizeof(long long) * (n + 1));
    status = malloc(sizeof(long long) * (n + 1));
    same = index && status &&
           bsim_h5_read_longs(f, "summary/index", index) == 0 &&
           bsim_h5_read_longs(f, "summary/status", status) == 0;
  }
  for (size_t i = 0; same && i < n; i++) {
    if (index[i] < 0 || index[i] >= st->nmembers) continue;
    st->has[index[i]] = 1;
    st->ndone++;
    st->nfailed += status[i] != 0;
  }
  free(index);
  free(status);
  free(fmt);
  free(fp);
  close_id(f, H5Fclose);
  if (!same) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "'%s' exists and is not the output of this sweep (another "
                   "diagram, other arguments or shard, or not a study) "
                   "(hint: remove it, or choose another -o)",
                   st->path);
    return -1;
  }
  st->complete = 1;
  return 0;
}

int out_study_h5_open(bsim_study *st, bsim_error *err) {
  size_t n = strlen(st->path) + 16;
  char *journal = malloc(n);
  if (!journal) return -1;
  snprintf(journal, n, "%s.journal", st->path);
  int resuming = access(journal, F_OK) == 0;
  free(journal);
  if (!resuming && access(st->path, F_OK) == 0) return existing(st, err);
  st->part = malloc(n);
  if (!st->part) return -1;
  snprintf(st->part, n, "%s.part", st->path);
  st->file = create_file(st->part);
  if (st->file >= 0) st->runs = bsim_h5_group(st->file, "runs");
  if (st->runs < 0) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "cannot create '%s' (hint: does the folder exist and is it "
                   "writable?)",
                   st->part);
    return -1;
  }
  return 0;
}

int out_study_h5_member(bsim_study *st, const out_member *m) {
  if (m->status != 0) return 0; /* its row in the summary says why */
  char name[32];
  snprintf(name, sizeof name, "%06ld", m->index);
  out_run run;
  if (out_member_run(m, st->times, (const char **)st->names, &run) != 0)
    return -1;
  hid_t g = bsim_h5_group(st->runs, name);
  int rc = g >= 0 && out_h5_write_run(g, &run, 1) == 0 ? 0 : -1;
  close_id(g, H5Gclose);
  free(run.rec);
  return rc;
}

/* "0.5" -> 0.5; an expression that is not a plain number -> NaN. */
static double number(const char *s) {
  char *end;
  double v = strtod(s, &end);
  return end != s && *end == '\0' ? v : NAN;
}

static int write_summary(bsim_study *st, hid_t f) {
  long m = st->nrows;
  int np = bsim_design_params(st->design);
  size_t cols = st->cols, ns = (size_t)st->nstats;
  long long *ll = malloc(sizeof(long long) * (size_t)(m + 1));
  double *d =
      malloc(sizeof(double) * ((size_t)m * (cols + ns + (size_t)np) + 1));
  const char **s = malloc(sizeof(char *) * ((size_t)m * (size_t)(np + 1) + 1));
  hid_t g = bsim_h5_group(f, "summary");
  int rc = ll && d && s && g >= 0 ? 0 : -1;
  for (long i = 0; rc == 0 && i < m; i++)
    ll[i] = st->row[i].index;
  if (rc == 0) rc = bsim_h5_longs(g, "index", (size_t)m, ll);
  for (long i = 0; rc == 0 && i < m; i++)
    ll[i] = st->row[i].status;
  if (rc == 0) rc = bsim_h5_longs(g, "status", (size_t)m, ll);
  for (long i = 0; rc == 0 && i < m; i++)
    s[i] = st->row[i].message;
  if (rc == 0) rc = bsim_h5_strings(g, "message", (size_t)m, s);
  for (long i = 0; rc == 0 && i < m; i++)
    for (int j = 0; j < np; j++) {
      s[i * np + j] = bsim_design_value(st->design, st->row[i].index, j);
      d[i * np + j] = number(s[i * np + j]);
    }
  if (rc == 0)
    rc = bsim_h5_strings2(g, "parameters", (size_t)m, (size_t)np, s) ||
         bsim_h5_matrix(g, "parameter_values", (size_t)m, (size_t)np, d);
  static const char *const what[4] = {"final", "min", "max", "mean"};
  for (int k = 0; rc == 0 && k < 4; k++) {
    for (long i = 0; i < m; i++)
      memcpy(d + (size_t)i * cols, st->row[i].final + (size_t)k * cols,
             sizeof(double) * cols);
    rc = bsim_h5_matrix(g, what[k], (size_t)m, cols, d);
  }
  for (long i = 0; rc == 0 && i < m; i++)
    memcpy(d + (size_t)i * ns, st->row[i].stats, sizeof(double) * ns);
  if (rc == 0) rc = bsim_h5_matrix(g, "stats", (size_t)m, ns, d);
  for (long i = 0; rc == 0 && i < m; i++)
    d[i] = st->row[i].wall;
  if (rc == 0) rc = bsim_h5_vector(g, "wall_seconds", (size_t)m, d);
  close_id(g, H5Gclose);
  free(ll);
  free(d);
  free(s);
  return rc ? -1 : 0;
}

static int write_root(bsim_study *st, hid_t f) {
  int np = bsim_design_params(st->design);
  const char **targets = malloc(sizeof(char *) * (size_t)(np + 1));
  int rc = targets ? 0 : -1;
  for (int j = 0; rc == 0 && j < np; j++)
    targets[j] = bsim_design_target(st->design, j);
  if (rc == 0)
    rc =
        bsim_h5_vector(f, "time", st->rows, st->times) ||
        bsim_h5_strings(f, "names", st->cols, (const char *const *)st->names) ||
        bsim_h5_strings(f, "parameter_names", (size_t)np, targets) ||
        bsim_h5_strings(f, "stat_names", (size_t)st->nstats,
                        (const char *const *)st->stat_names) ||
        bsim_h5_attr_string(f, "format", study_format) ||
        bsim_h5_attr_long(f, "version", 1) ||
        bsim_h5_attr_string(f, "diagram", st->diagram) ||
        bsim_h5_attr_string(f, "fingerprint", st->fingerprint) ||
        bsim_h5_attr_long(f, "shard", st->shard) ||
        bsim_h5_attr_long(f, "shards", st->shards) ||
        bsim_h5_attr_long(f, "members", st->nmembers);
  free(targets);
  return rc ? -1 : 0;
}

int out_study_h5_finish(bsim_study *st, bsim_error *err) {
  int rc = write_summary(st, st->file) == 0 && write_root(st, st->file) == 0
               ? 0
               : -1;
  close_id(st->runs, H5Gclose);
  st->runs = -1;
  herr_t closed;
  H5E_BEGIN_TRY {
    closed = H5Fclose(st->file);
  }
  H5E_END_TRY;
  st->file = -1;
  if (rc != 0 || closed < 0 || rename(st->part, st->path) != 0) {
    bsim_error_set(err, BSIM_ERR_SIM, "cannot complete '%s': %s", st->path,
                   rc || closed < 0 ? "writing the summary failed"
                                    : strerror(errno));
    return -1;
  }
  return 0;
}

void out_study_h5_close(bsim_study *st) {
  close_id(st->runs, H5Gclose);
  close_id(st->file, H5Fclose);
  st->runs = st->file = -1;
  /* an unfinished .part is rebuilt from the journal on resume */
  if (!st->complete && st->part) unlink(st->part);
}

/* ------------------------------------------------------------------ */
/* Merging shards                                                      */
/* ------------------------------------------------------------------ */

typedef struct shard_in {
  hid_t f;
  long long shard, shards;
  size_t m; /* summary rows */
  long long *index, *status;
  char **message, **params;          /* m, m x np */
  double *pv, *stat4, *stats, *wall; /* m x np, 4 x m x C, m x S, m */
  char **stat_names;
  size_t np, ns;
} shard_in;

static void shard_free(shard_in *s) {
  close_id(s->f, H5Fclose);
  free(s->index);
  free(s->status);
  bsim_h5_free_strings(s->message, s->m);
  bsim_h5_free_strings(s->params, s->m * s->np);
  bsim_h5_free_strings(s->stat_names, s->ns);
  free(s->pv);
  free(s->stat4);
  free(s->stats);
  free(s->wall);
}

/* A rows x cols dataset (vector: 1-D of rows) read whole, or NULL when
 * it has other dimensions. */
static double *read_matrix(hid_t f, const char *name, size_t rows, size_t cols,
                           int vector) {
  size_t r, c, n = rows * (vector ? 1 : cols);
  double *v = malloc(sizeof(double) * (n + 1));
  if (v &&
      (bsim_h5_dims(f, name, &r, &c) != 0 || r != rows ||
       c != (vector ? 0 : cols) || bsim_h5_read_doubles(f, name, v) != 0)) {
    free(v);
    v = NULL;
  }
  return v;
}

/* The summary of one shard, read whole. */
static int read_shard(shard_in *s, size_t cols) {
  size_t one, n = 0;
  s->shard = attr_long(s->f, "shard");
  s->shards = attr_long(s->f, "shards");
  if (bsim_h5_dims(s->f, "summary/index", &s->m, &one) != 0) return -1;
  s->index = malloc(sizeof(long long) * (s->m + 1));
  s->status = malloc(sizeof(long long) * (s->m + 1));
  if (!s->index || !s->status ||
      bsim_h5_read_longs(s->f, "summary/index", s->index) != 0 ||
      bsim_h5_read_longs(s->f, "summary/status", s->status) != 0)
    return -1;
  s->message = bsim_h5_read_strings(s->f, "summary/message", &n);
  if (!s->message || n != s->m) return -1;
  s->params = bsim_h5_read_strings(s->f, "parameter_names", &s->np);
  bsim_h5_free_strings(s->params, s->np);
  s->params = bsim_h5_read_strings(s->f, "summary/parameters", &n);
  if (!s->params || n != s->m * s->np) return -1;
  s->stat_names = bsim_h5_read_strings(s->f, "stat_names", &s->ns);
  if (!s->stat_names) return -1;
  s->pv = read_matrix(s->f, "summary/parameter_values", s->m, s->np, 0);
  s->stats = read_matrix(s->f, "summary/stats", s->m, s->ns, 0);
  s->wall = read_matrix(s->f, "summary/wall_seconds", s->m, 0, 1);
  s->stat4 = malloc(sizeof(double) * (4 * s->m * cols + 1));
  static const char *const what[4] = {"summary/final", "summary/min",
                                      "summary/max", "summary/mean"};
  for (int k = 0; s->stat4 && k < 4; k++) {
    double *v = read_matrix(s->f, what[k], s->m, cols, 0);
    if (!v) return -1;
    memcpy(s->stat4 + (size_t)k * s->m * cols, v, sizeof(double) * s->m * cols);
    free(v);
  }
  return s->pv && s->stats && s->wall && s->stat4 ? 0 : -1;
}

static herr_t copy_run(hid_t group, const char *name, const H5L_info_t *info,
                       void *dst) {
  (void)info;
  return H5Ocopy(group, name, *(hid_t *)dst, name, H5P_DEFAULT, H5P_DEFAULT);
}

/* Row r of the merged summary comes from shard src[r], row at[r]. */
typedef struct pick {
  long long index;
  int shard;
  size_t row;
} pick;

static int cmp_pick(const void *a, const void *b) {
  long long x = ((const pick *)a)->index, y = ((const pick *)b)->index;
  return (x > y) - (x < y);
}

/* The merged summary and the study's own datasets into f. */
static int merge_summary(hid_t f, shard_in *s, int n, size_t cols) {
  size_t m = 0, np = s[0].np;
  char **names = NULL; /* the union of the stat names, first seen first */
  size_t ns = 0;
  for (int i = 0; i < n; i++) {
    m += s[i].m;
    for (size_t k = 0; k < s[i].ns; k++) {
      size_t j = 0;
      while (j < ns && strcmp(names[j], s[i].stat_names[k]) != 0)
        j++;
      if (j < ns) continue;
      char **g = realloc(names, sizeof(char *) * (ns + 1));
      if (!g) return -1;
      names = g;
      names[ns++] = s[i].stat_names[k];
    }
  }
  pick *p = malloc(sizeof(pick) * (m + 1));
  long long *ll = malloc(sizeof(long long) * (m + 1));
  const char **str = malloc(sizeof(char *) * (m * (np + 1) + 1));
  double *d = malloc(sizeof(double) * (m * (cols + ns + np) + 1));
  hid_t g = bsim_h5_group(f, "summary");
  int rc = p && ll && str && d && g >= 0 ? 0 : -1;
  size_t k = 0;
  for (int i = 0; rc == 0 && i < n; i++)
    for (size_t r = 0; r < s[i].m; r++)
      p[k++] = (pick){s[i].index[r], i, r};
  if (rc == 0) qsort(p, m, sizeof(pick), cmp_pick);
#define EACH for (size_t r = 0; rc == 0 && r < m; r++)
#define SRC (&s[p[r].shard])
  EACH ll[r] = p[r].index;
  if (rc == 0) rc = bsim_h5_longs(g, "index", m, ll);
  EACH ll[r] = SRC->status[p[r].row];
  if (rc == 0) rc = bsim_h5_longs(g, "status", m, ll);
  EACH str[r] = SRC->message[p[r].row];
  if (rc == 0) rc = bsim_h5_strings(g, "message", m, str);
  EACH for (size_t j = 0; j < np; j++) {
    str[r * np + j] = SRC->params[p[r].row * np + j];
    d[r * np + j] = SRC->pv[p[r].row * np + j];
  }
  if (rc == 0)
    rc = bsim_h5_strings2(g, "parameters", m, np, str) ||
         bsim_h5_matrix(g, "parameter_values", m, np, d);
  static const char *const what[4] = {"final", "min", "max", "mean"};
  for (int q = 0; rc == 0 && q < 4; q++) {
    EACH memcpy(d + r * cols,
                SRC->stat4 + ((size_t)q * SRC->m + p[r].row) * cols,
                sizeof(double) * cols);
    if (rc == 0) rc = bsim_h5_matrix(g, what[q], m, cols, d);
  }
  EACH for (size_t j = 0; j < ns; j++) {
    d[r * ns + j] = NAN;
    for (size_t q = 0; q < SRC->ns; q++)
      if (strcmp(SRC->stat_names[q], names[j]) == 0)
        d[r * ns + j] = SRC->stats[p[r].row * SRC->ns + q];
  }
  if (rc == 0) rc = bsim_h5_matrix(g, "stats", m, ns, d);
  EACH d[r] = SRC->wall[p[r].row];
  if (rc == 0) rc = bsim_h5_vector(g, "wall_seconds", m, d);
#undef EACH
#undef SRC
  if (rc == 0)
    rc = bsim_h5_strings(f, "stat_names", ns, (const char *const *)names);
  close_id(g, H5Gclose);
  free(names);
  free(p);
  free(ll);
  free(str);
  free(d);
  return rc ? -1 : 0;
}

/* The inputs must be the N shards of one sweep, each once. */
static int check_shards(const char *const *in, shard_in *s, int n,
                        const char *fp0, hid_t first, bsim_error *err) {
  long long total = s[0].shards;
  for (int i = 0; i < n; i++) {
    char *fmt = bsim_h5_attr_read_string(s[i].f, "format");
    char *fp = bsim_h5_attr_read_string(s[i].f, "fingerprint");
    int ok =
        fmt && fp && strcmp(fmt, study_format) == 0 && strcmp(fp, fp0) == 0;
    free(fmt);
    free(fp);
    if (!ok) {
      bsim_error_set(err, BSIM_ERR_INPUT,
                     "merge: '%s' is not a shard of the same sweep as '%s' "
                     "(its diagram, arguments or design differ)",
                     in[i], in[0]);
      return -1;
    }
    if (s[i].shards != total || s[i].shard < 1 || s[i].shard > total) {
      bsim_error_set(err, BSIM_ERR_INPUT,
                     "merge: '%s' is %s, not one of %lld shards (hint: merge "
                     "the outputs of --shard I/%lld)",
                     in[i], s[i].shards > 0 ? "a shard" : "a whole sweep",
                     total > 0 ? total : 0, total > 0 ? total : 0);
      return -1;
    }
    for (int k = 0; k < i; k++)
      if (s[k].shard == s[i].shard) {
        bsim_error_set(err, BSIM_ERR_INPUT,
                       "merge: '%s' and '%s' are both shard %lld/%lld", in[k],
                       in[i], s[i].shard, total);
        return -1;
      }
  }
  if (n != total) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "merge: %d of %lld shards given (hint: every --shard "
                   "I/%lld must be complete and given)",
                   n, total, total);
    return -1;
  }
  (void)first;
  return 0;
}

int out_study_h5_merge(const char *out, const char *const *in, int n,
                       bsim_error *err) {
  shard_in *s = calloc((size_t)n, sizeof *s);
  if (!s) return -1;
  int rc = 0;
  for (int i = 0; i < n; i++)
    s[i].f = -1;
  for (int i = 0; rc == 0 && i < n; i++) {
    s[i].f = open_file(in[i]);
    if (s[i].f < 0) {
      bsim_error_set(err, BSIM_ERR_INPUT,
                     "merge: cannot read '%s' as an HDF5 study", in[i]);
      rc = -1;
    }
  }
  char *fp0 = rc == 0 ? bsim_h5_attr_read_string(s[0].f, "fingerprint") : NULL;
  size_t cols = 0, one;
  if (rc == 0 && (!fp0 || bsim_h5_dims(s[0].f, "names", &cols, &one) != 0)) {
    bsim_error_set(err, BSIM_ERR_INPUT, "merge: '%s' is not a study", in[0]);
    rc = -1;
  }
  for (int i = 0; rc == 0 && i < n; i++)
    if (read_shard(&s[i], cols) != 0) {
      bsim_error_set(err, BSIM_ERR_INPUT,
                     "merge: '%s' is not a complete study (its summary cannot "
                     "be read)",
                     in[i]);
      rc = -1;
    }
  if (rc == 0) rc = check_shards(in, s, n, fp0, s[0].f, err);
  size_t len = strlen(out) + 8;
  char *part = malloc(len);
  hid_t f = -1, runs = -1;
  if (rc == 0 && part) {
    snprintf(part, len, "%s.part", out);
    f = create_file(part);
    runs = f >= 0 ? bsim_h5_group(f, "runs") : -1;
  }
  if (rc == 0 && runs < 0) {
    bsim_error_set(err, BSIM_ERR_INPUT, "merge: cannot create '%s'",
                   part ? part : out);
    rc = -1;
  }
  static const char *const root[3] = {"time", "names", "parameter_names"};
  H5E_BEGIN_TRY {
    for (int k = 0; rc == 0 && k < 3; k++)
      if (H5Ocopy(s[0].f, root[k], f, root[k], H5P_DEFAULT, H5P_DEFAULT) < 0)
        rc = -1;
    for (int i = 0; rc == 0 && i < n; i++) {
      hid_t g = H5Gopen2(s[i].f, "runs", H5P_DEFAULT);
      if (g < 0 ||
          H5Literate(g, H5_INDEX_NAME, H5_ITER_INC, NULL, copy_run, &runs) < 0)
        rc = -1;
      if (g >= 0) H5Gclose(g);
    }
  }
  H5E_END_TRY;
  char *diagram = rc == 0 ? bsim_h5_attr_read_string(s[0].f, "diagram") : NULL;
  if (rc == 0)
    rc = merge_summary(f, s, n, cols) ||
         bsim_h5_attr_string(f, "format", study_format) ||
         bsim_h5_attr_long(f, "version", 1) ||
         bsim_h5_attr_string(f, "diagram", diagram ? diagram : "") ||
         bsim_h5_attr_string(f, "fingerprint", fp0) ||
         bsim_h5_attr_long(f, "shard", 0) ||
         bsim_h5_attr_long(f, "shards", 0) ||
         bsim_h5_attr_long(f, "members", attr_long(s[0].f, "members"));
  close_id(runs, H5Gclose);
  herr_t closed = 0;
  if (f >= 0) {
    H5E_BEGIN_TRY {
      closed = H5Fclose(f);
    }
    H5E_END_TRY;
  }
  if (rc == 0 && (closed < 0 || rename(part, out) != 0)) {
    bsim_error_set(err, BSIM_ERR_SIM, "merge: cannot write '%s'", out);
    rc = -1;
  }
  if (rc != 0 && err->status == BSIM_OK)
    bsim_error_set(err, BSIM_ERR_SIM, "merge: cannot write '%s'", out);
  if (rc != 0 && f >= 0) unlink(part);
  for (int i = 0; i < n; i++)
    shard_free(&s[i]);
  free(s);
  free(part);
  free(fp0);
  free(diagram);
  return rc ? -1 : 0;
}
