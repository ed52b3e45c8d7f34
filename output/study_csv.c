/*
 * CSV studies: a folder with one CSV file per member (runs/NNNNNN.csv:
 * time and signals), its sink records (scopes/NNNNNN/<block path>.csv),
 * summary.csv (one row per member) and sweep.txt (what sweep made it).
 * Every file is written under a temporary name and renamed; summary.csv
 * and sweep.txt come last, at finish, so their presence without a journal
 * means the study is complete.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/atomic.h"
#include "output/csvsplit.h"
#include "output/dtoa.h"
#include "output/output.h"
#include "output/study.h"

static char *join(const char *a, const char *b) {
  size_t n = strlen(a) + strlen(b) + 2;
  char *s = malloc(n);
  if (s) snprintf(s, n, "%s/%s", a, b);
  return s;
}

/* mkdir -p of the folders of path below base (not its last component). */
static int make_parents(char *path, size_t base) {
  for (char *p = path + base + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    int rc = mkdir(path, 0777);
    *p = '/';
    if (rc != 0 && errno != EEXIST) return -1;
  }
  return 0;
}

/* The value of "key: value" in sweep.txt, malloc'ed, or NULL. */
static char *info_value(const char *text, const char *key) {
  size_t k = strlen(key);
  for (const char *p = text; p && *p;
       p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
    if (strncmp(p, key, k) == 0 && p[k] == ':' && p[k + 1] == ' ')
      return strndup(p + k + 2, strcspn(p + k + 2, "\n"));
  return NULL;
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) return NULL;
  char *s = NULL;
  size_t n = 0;
  ssize_t k = getdelim(&s, &n, '\0', f);
  fclose(f);
  if (k < 0) {
    free(s);
    return NULL;
  }
  return s;
}

static int existing(bsim_study *st, const char *info, bsim_error *err) {
  char *text = slurp(info);
  char *fp = text ? info_value(text, "fingerprint") : NULL;
  char *sh = text ? info_value(text, "shard") : NULL;
  char want[32];
  out_study_shard_text(st, want);
  int same =
      fp && sh && strcmp(fp, st->fingerprint) == 0 && strcmp(sh, want) == 0;
  free(text);
  free(fp);
  free(sh);
  char *summary = join(st->path, "summary.csv");
  FILE *f = same && summary ? fopen(summary, "r") : NULL;
  free(summary);
  char *line = NULL;
  size_t cap = 0;
  if (f && getline(&line, &cap, f) < 0) same = 0; /* the header */
  while (f && same && getline(&line, &cap, f) >= 0) {
    long index, status;
    if (sscanf(line, "%ld,%ld", &index, &status) != 2) continue;
    if (index < 0 || index >= st->nmembers) continue;
    st->has[index] = 1;
    st->ndone++;
    st->nfailed += status != 0;
  }
  free(line);
  if (f) fclose(f);
  if (!same || !f) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "'%s' holds the output of another sweep (another "
                   "diagram, other arguments or shard) (hint: remove it, or "
                   "choose another -o)",
                   st->path);
    return -1;
  }
  st->complete = 1;
  return 0;
}

int out_study_csv_open(bsim_study *st, bsim_error *err) {
  if (mkdir(st->path, 0777) != 0 && errno != EEXIST) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "cannot create the folder '%s': %s (hint: does its parent "
                   "exist?)",
                   st->path, strerror(errno));
    return -1;
  }
  char *journal = join(st->path, "journal"),
       *info = join(st->path, "sweep.txt");
  int rc = journal && info ? 0 : -1;
  if (rc == 0 && access(journal, F_OK) != 0 && access(info, F_OK) == 0)
    rc = existing(st, info, err);
  free(journal);
  free(info);
  return rc;
}

/* One file through a temporary: fill writes it. 0 or -1. */
static int write_file(const char *path, int (*fill)(FILE *f, const void *ctx),
                      const void *ctx) {
  bsim_atomic a;
  if (bsim_atomic_open(&a, path, NULL) != 0) return -1;
  return bsim_atomic_close(&a, fill(a.f, ctx) == 0 && !ferror(a.f));
}

typedef struct run_ctx {
  const bsim_study *st;
  const out_member *m;
} run_ctx;

static int fill_run(FILE *f, const void *ctx) {
  const run_ctx *c = ctx;
  fputs("time", f);
  for (size_t k = 0; k < c->st->cols; k++)
    fprintf(f, ",%s", c->st->names[k]);
  fputc('\n', f);
  return out_csv_rows(f, c->m->rows, c->st->times, 1, c->m->values, c->m->cols,
                      c->m->cols, NULL);
}

static int fill_record(FILE *f, const void *ctx) {
  const out_record *r = ctx;
  return bsim_out_record(f, r->rows, r->cols, r->names, r->data, NULL);
}

int out_study_csv_member(bsim_study *st, const out_member *m) {
  if (m->status != 0) return 0;
  char name[64];
  snprintf(name, sizeof name, "runs/%06ld.csv", m->index);
  char *path = join(st->path, name);
  run_ctx ctx = {st, m};
  int rc = path && make_parents(path, strlen(st->path)) == 0 &&
                   write_file(path, fill_run, &ctx) == 0
               ? 0
               : -1;
  free(path);
  snprintf(name, sizeof name, "scopes/%06ld", m->index);
  char *dir = rc == 0 && m->nrec ? join(st->path, name) : NULL;
  if (rc == 0 && m->nrec && !dir) rc = -1;
  for (size_t i = 0; rc == 0 && i < m->nrec; i++) {
    char *p = bsim_out_record_path(dir, m->rec[i].path, "csv");
    rc = p && make_parents(p, strlen(st->path)) == 0 &&
                 write_file(p, fill_record, &m->rec[i]) == 0
             ? 0
             : -1;
    free(p);
  }
  free(dir);
  return rc;
}

/* A CSV field: quoted when it holds a comma, a quote or a line break. */
static void field(FILE *f, const char *s) {
  if (!strpbrk(s, ",\"\n\r")) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
  }
  fputc('"', f);
}

static int fill_summary(FILE *f, const void *ctx) {
  const bsim_study *st = ctx;
  int np = bsim_design_params(st->design);
  static const char *const what[4] = {"final", "min", "max", "mean"};
  fputs("index,status,message", f);
  for (int j = 0; j < np; j++) {
    fputc(',', f);
    field(f, bsim_design_target(st->design, j));
  }
  for (int k = 0; k < 4; k++)
    for (size_t c = 0; c < st->cols; c++) {
      char name[512];
      snprintf(name, sizeof name, "%s:%s", what[k], st->names[c]);
      fputc(',', f);
      field(f, name);
    }
  for (int k = 0; k < st->nstats; k++)
    fprintf(f, ",%s", st->stat_names[k]);
  fputs(",wall_seconds\n", f);
  for (long i = 0; i < st->nrows; i++) {
    const srow *r = &st->row[i];
    fprintf(f, "%ld,%d,", r->index, r->status);
    field(f, r->message);
    for (int j = 0; j < np; j++) {
      fputc(',', f);
      field(f, bsim_design_value(st->design, r->index, j));
    }
    char num[OUT_DTOA_MAX];
    for (size_t k = 0; k < 4 * st->cols; k++) {
      out_dtoa(r->final[k], num);
      fprintf(f, ",%s", num);
    }
    for (int k = 0; k < st->nstats; k++) {
      out_dtoa(r->stats[k], num);
      fprintf(f, ",%s", num);
    }
    fprintf(f, ",%.6g\n", r->wall);
  }
  return 0;
}

static int fill_info(FILE *f, const void *ctx) {
  const bsim_study *st = ctx;
  char shard[32];
  fprintf(f,
          "format: blocksim-study-csv\nversion: 1\ndiagram: %s\n"
          "fingerprint: %s\nshard: %s\nmembers: %ld\n",
          st->diagram, st->fingerprint, out_study_shard_text(st, shard),
          st->nmembers);
  return 0;
}

int out_study_csv_finish(bsim_study *st, bsim_error *err) {
  char *summary = join(st->path, "summary.csv"),
       *info = join(st->path, "sweep.txt");
  int rc = summary && info && write_file(summary, fill_summary, st) == 0 &&
                   write_file(info, fill_info, st) == 0
               ? 0
               : -1;
  if (rc != 0)
    bsim_error_set(err, BSIM_ERR_SIM, "cannot complete '%s': %s", st->path,
                   strerror(errno));
  free(summary);
  free(info);
  return rc;
}

/* ------------------------------------------------------------------ */
/* Merging shards                                                      */
/* ------------------------------------------------------------------ */

/* A summary.csv read whole: its header and its rows, as fields. */
typedef struct table {
  char **head;
  int nhead;
  char ***rows;
  int *nf;
  long n;
} table;

static void table_free(table *t) {
  out_csv_free(t->head, t->nhead);
  for (long i = 0; i < t->n; i++)
    out_csv_free(t->rows[i], t->nf[i]);
  free(t->rows);
  free(t->nf);
}

static int read_table(const char *path, table *t) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  char *line = NULL;
  size_t cap = 0;
  long rcap = 0;
  int rc = getline(&line, &cap, f) >= 0 ? 0 : -1;
  if (rc == 0) {
    line[strcspn(line, "\r\n")] = '\0';
    rc = out_csv_split(line, &t->head, &t->nhead);
  }
  while (rc == 0 && getline(&line, &cap, f) >= 0) {
    line[strcspn(line, "\r\n")] = '\0';
    if (!*line) continue;
    if (t->n == rcap) {
      rcap = rcap ? 2 * rcap : 64;
      char ***g = realloc(t->rows, sizeof(char **) * (size_t)rcap);
      int *h = realloc(t->nf, sizeof(int) * (size_t)rcap);
      if (g) t->rows = g;
      if (h) t->nf = h;
      if (!g || !h) rc = -1;
    }
    if (rc == 0) rc = out_csv_split(line, &t->rows[t->n], &t->nf[t->n]);
    if (rc == 0) t->n++;
  }
  free(line);
  fclose(f);
  return rc;
}

static int copy_file(const char *src, const char *dst) {
  FILE *in = fopen(src, "rb");
  bsim_atomic a;
  if (!in) return -1;
  if (bsim_atomic_open(&a, dst, NULL) != 0) {
    fclose(in);
    return -1;
  }
  char buf[65536];
  size_t k;
  while ((k = fread(buf, 1, sizeof buf, in)) > 0)
    fwrite(buf, 1, k, a.f);
  int ok = !ferror(in);
  fclose(in);
  return bsim_atomic_close(&a, ok);
}

/* Copy the tree below from/sub to to/sub (runs/, scopes/). */
static int copy_tree(const char *from, const char *to, const char *sub) {
  char *src = join(from, sub), *dst = join(to, sub);
  struct stat sb;
  int rc = src && dst ? 0 : -1;
  if (rc == 0 && lstat(src, &sb) != 0)
    rc = errno == ENOENT ? 0 : -1;
  else if (rc == 0 && S_ISDIR(sb.st_mode)) {
    DIR *d = opendir(src);
    struct dirent *e;
    rc = d && (mkdir(dst, 0777) == 0 || errno == EEXIST) ? 0 : -1;
    while (rc == 0 && (e = readdir(d)) != NULL) {
      if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
      char *next = join(sub, e->d_name);
      rc = next ? copy_tree(from, to, next) : -1;
      free(next);
    }
    if (d) closedir(d);
  } else if (rc == 0 && S_ISREG(sb.st_mode)) {
    rc = copy_file(src, dst);
  }
  free(src);
  free(dst);
  return rc;
}

/* The merged header: every column of every input in first-seen order,
 * wall_seconds last as in a sweep's own summary. */
static int merged_head(table *t, int n, char ***head, int *nh) {
  *head = NULL;
  *nh = 0;
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < n; i++)
      for (int c = 0; c < t[i].nhead; c++) {
        const char *name = t[i].head[c];
        if ((strcmp(name, "wall_seconds") == 0) != pass) continue;
        int k = 0;
        while (k < *nh && strcmp((*head)[k], name) != 0)
          k++;
        if (k < *nh) continue;
        char **g = realloc(*head, sizeof(char *) * (size_t)(*nh + 1));
        if (!g) return -1;
        *head = g;
        g[(*nh)++] = (char *)name;
      }
  return 0;
}

typedef struct merge_ctx {
  table *t;
  int n;
  char **head;
  int nh;
} merge_ctx;

typedef struct mrow {
  long index;
  int table;
  long row;
} mrow;

static int cmp_mrow(const void *a, const void *b) {
  long x = ((const mrow *)a)->index, y = ((const mrow *)b)->index;
  return (x > y) - (x < y);
}

static int fill_merged(FILE *f, const void *ctx) {
  const merge_ctx *c = ctx;
  long m = 0;
  for (int i = 0; i < c->n; i++)
    m += c->t[i].n;
  mrow *r = malloc(sizeof(mrow) * (size_t)(m + 1));
  if (!r) return -1;
  long k = 0;
  for (int i = 0; i < c->n; i++)
    for (long j = 0; j < c->t[i].n; j++)
      r[k++] = (mrow){strtol(c->t[i].rows[j][0], NULL, 10), i, j};
  qsort(r, (size_t)m, sizeof(mrow), cmp_mrow);
  for (int h = 0; h < c->nh; h++) {
    if (h) fputc(',', f);
    field(f, c->head[h]);
  }
  fputc('\n', f);
  for (long q = 0; q < m; q++) {
    const table *t = &c->t[r[q].table];
    char **row = t->rows[r[q].row];
    for (int h = 0; h < c->nh; h++) {
      const char *v = "nan";
      for (int col = 0; col < t->nhead && col < t->nf[r[q].row]; col++)
        if (strcmp(t->head[col], c->head[h]) == 0) v = row[col];
      if (h) fputc(',', f);
      field(f, v);
    }
    fputc('\n', f);
  }
  free(r);
  return 0;
}

typedef struct info_ctx {
  const char *text;
} info_ctx;

static int fill_text(FILE *f, const void *ctx) {
  fputs(((const info_ctx *)ctx)->text, f);
  return 0;
}

/* sweep.txt of the merged study: the first shard's with "shard: ". */
static char *merged_info(const char *text) {
  char *s = malloc(strlen(text) + 16), *w = s;
  if (!s) return NULL;
  for (const char *p = text; *p;) {
    size_t len = strcspn(p, "\n");
    if (strncmp(p, "shard: ", 7) == 0)
      w += sprintf(w, "shard: \n");
    else
      w += sprintf(w, "%.*s\n", (int)len, p);
    p += len + (p[len] == '\n');
  }
  *w = '\0';
  return s;
}

int out_study_csv_merge(const char *out, const char *const *in, int n,
                        bsim_error *err) {
  table *t = calloc((size_t)n, sizeof *t);
  char **texts = calloc((size_t)n, sizeof(char *));
  char *fp0 = NULL;
  long total = -1;
  int rc = t && texts ? 0 : -1;
  int *seen = NULL;
  for (int i = 0; rc == 0 && i < n; i++) {
    char *info = join(in[i], "sweep.txt"), *sum = join(in[i], "summary.csv");
    texts[i] = info ? slurp(info) : NULL;
    char *fp = texts[i] ? info_value(texts[i], "fingerprint") : NULL;
    char *sh = texts[i] ? info_value(texts[i], "shard") : NULL;
    long I = 0, N = 0;
    if (!fp || !sh || sscanf(sh, "%ld/%ld", &I, &N) != 2 || N < 1 || I < 1 ||
        I > N || read_table(sum, &t[i]) != 0) {
      bsim_error_set(err, BSIM_ERR_INPUT,
                     "merge: '%s' is not a complete shard of a sweep (hint: "
                     "its sweep.txt names the shard; finish it first)",
                     in[i]);
      rc = -1;
    } else if (i == 0) {
      fp0 = strdup(fp);
      total = N;
      seen = calloc((size_t)N + 1, sizeof(int));
      if (!fp0 || !seen) rc = -1;
    } else if (strcmp(fp, fp0) != 0 || N != total) {
      bsim_error_set(err, BSIM_ERR_INPUT,
                     "merge: '%s' is not a shard of the same sweep as '%s'",
                     in[i], in[0]);
      rc = -1;
    }
    if (rc == 0 && seen[I]++) {
      bsim_error_set(err, BSIM_ERR_INPUT, "merge: shard %ld/%ld given twice", I,
                     N);
      rc = -1;
    }
    free(fp);
    free(sh);
    free(info);
    free(sum);
  }
  if (rc == 0 && n != total) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "merge: %d of %ld shards given (hint: every --shard I/%ld "
                   "must be complete and given)",
                   n, total, total);
    rc = -1;
  }
  if (rc == 0 && mkdir(out, 0777) != 0 && errno != EEXIST) {
    bsim_error_set(err, BSIM_ERR_INPUT, "merge: cannot create '%s': %s", out,
                   strerror(errno));
    rc = -1;
  }
  for (int i = 0; rc == 0 && i < n; i++)
    if (copy_tree(in[i], out, "runs") != 0 ||
        copy_tree(in[i], out, "scopes") != 0) {
      bsim_error_set(err, BSIM_ERR_SIM, "merge: cannot copy the runs of '%s'",
                     in[i]);
      rc = -1;
    }
  merge_ctx mc = {t, n, NULL, 0};
  char *sum = rc == 0 ? join(out, "summary.csv") : NULL;
  char *info = rc == 0 ? join(out, "sweep.txt") : NULL;
  char *text = rc == 0 ? merged_info(texts[0]) : NULL;
  info_ctx ic = {text};
  if (rc == 0 && (merged_head(t, n, &mc.head, &mc.nh) != 0 || !sum || !info ||
                  !text || write_file(sum, fill_merged, &mc) != 0 ||
                  write_file(info, fill_text, &ic) != 0)) {
    bsim_error_set(err, BSIM_ERR_SIM, "merge: cannot write '%s'", out);
    rc = -1;
  }
  free(mc.head);
  free(sum);
  free(info);
  free(text);
  for (int i = 0; t && i < n; i++)
    table_free(&t[i]);
  for (int i = 0; texts && i < n; i++)
    free(texts[i]);
  free(t);
  free(texts);
  free(fp0);
  free(seen);
  return rc;
}
