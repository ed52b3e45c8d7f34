/*
 * Sweep members as bytes (member.h). The encoding is native-endian and
 * native-sized: journals and MPI messages stay on one machine or among
 * identical nodes. Strings are length-prefixed; every count is checked
 * against the remaining bytes when decoding, so a torn or foreign record
 * is refused instead of read past its end.
 */
#include "output/member.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

uint32_t out_crc32(const void *buf, size_t n) {
  uLong c = crc32(0L, Z_NULL, 0);
  const unsigned char *p = buf;
  while (n > 0) { /* crc32 takes a uInt length */
    uInt k = n > (1u << 30) ? (1u << 30) : (uInt)n;
    c = crc32(c, p, k);
    p += k;
    n -= k;
  }
  return (uint32_t)c;
}

static char *dup_or_empty(const char *s) {
  return strdup(s ? s : "");
}

int out_member_failed(out_member *m, long index, int status,
                      const char *message, double wall) {
  memset(m, 0, sizeof *m);
  m->index = index;
  m->status = status;
  m->wall = wall;
  m->message = dup_or_empty(message);
  return m->message ? 0 : -1;
}

int out_member_of_sim(out_member *m, long index, const bsim_sim *s,
                      double wall) {
  if (out_member_failed(m, index, 0, "", wall) != 0) return -1;
  m->rows = bsim_result_rows(s);
  m->cols = bsim_result_cols(s);
  m->values = malloc(sizeof(double) * (m->rows * m->cols + 1));
  if (!m->values) goto fail;
  memcpy(m->values, bsim_result_data(s), sizeof(double) * m->rows * m->cols);
  double v;
  const char *name;
  for (size_t i = 0;
       m->nstats < OUT_MAX_STATS && (name = bsim_stat_at(s, i, &v)) != NULL;
       i++) {
    if (strcmp(name, "wall-seconds") == 0) continue; /* kept apart: m->wall */
    if (!(m->stat_names[m->nstats] = strdup(name))) goto fail;
    m->stat_values[m->nstats++] = v;
  }
  out_run run;
  if (out_run_of_sim(s, &run) != 0) goto fail;
  m->nrec = run.nrec;
  m->rec = calloc(run.nrec + 1, sizeof(out_record));
  int ok = m->rec != NULL;
  for (size_t i = 0; ok && i < run.nrec; i++) {
    const out_record *r = &run.rec[i];
    size_t n = r->rows * (size_t)(r->cols + 1);
    double *data = malloc(sizeof(double) * (n + 1));
    m->rec[i] =
        (out_record){dup_or_empty(r->path), r->names ? strdup(r->names) : NULL,
                     r->rows, r->cols, data};
    ok = data && m->rec[i].path && (!r->names || m->rec[i].names);
    if (data) memcpy(data, r->data, sizeof(double) * n);
  }
  out_run_release(&run);
  if (ok) return 0;
fail:
  out_member_clear(m);
  return -1;
}

void out_member_clear(out_member *m) {
  free(m->message);
  free(m->values);
  for (int i = 0; i < m->nstats; i++)
    free(m->stat_names[i]);
  for (size_t i = 0; m->rec && i < m->nrec; i++) {
    free((char *)m->rec[i].path);
    free((char *)m->rec[i].names);
    free((double *)m->rec[i].data);
  }
  free(m->rec);
  memset(m, 0, sizeof *m);
}

/* ------------------------------------------------------------------ */
/* Encoding                                                            */
/* ------------------------------------------------------------------ */

typedef struct wbuf {
  unsigned char *p;
  size_t n, cap;
  int bad;
} wbuf;

static void put(wbuf *w, const void *src, size_t n) {
  if (w->bad || n == 0) return; /* src may be NULL then */
  if (w->n + n > w->cap) {
    size_t cap = w->cap ? w->cap : 256;
    while (cap < w->n + n)
      cap *= 2;
    unsigned char *g = realloc(w->p, cap);
    if (!g) {
      w->bad = 1;
      return;
    }
    w->p = g;
    w->cap = cap;
  }
  memcpy(w->p + w->n, src, n);
  w->n += n;
}

static void put_u64(wbuf *w, uint64_t v) {
  put(w, &v, sizeof v);
}

static void put_str(wbuf *w, const char *s) {
  uint64_t n = s ? strlen(s) : 0;
  put_u64(w, s ? n : UINT64_MAX);
  if (s) put(w, s, n);
}

static void put_doubles(wbuf *w, const double *v, size_t n) {
  put(w, v, sizeof(double) * n);
}

void *out_member_encode(const out_member *m, size_t *len) {
  wbuf w = {0};
  put_u64(&w, (uint64_t)(int64_t)m->index);
  put_u64(&w, (uint64_t)(int64_t)m->status);
  put_str(&w, m->message);
  put_doubles(&w, &m->wall, 1);
  put_u64(&w, m->rows);
  put_u64(&w, m->cols);
  put_doubles(&w, m->values, m->rows * m->cols);
  put_u64(&w, (uint64_t)m->nstats);
  for (int i = 0; i < m->nstats; i++) {
    put_str(&w, m->stat_names[i]);
    put_doubles(&w, &m->stat_values[i], 1);
  }
  put_u64(&w, m->nrec);
  for (size_t i = 0; i < m->nrec; i++) {
    const out_record *r = &m->rec[i];
    put_str(&w, r->path);
    put_str(&w, r->names);
    put_u64(&w, r->rows);
    put_u64(&w, (uint64_t)(int64_t)r->cols);
    put_doubles(&w, r->data, r->rows * (size_t)(r->cols + 1));
  }
  if (w.bad) {
    free(w.p);
    return NULL;
  }
  *len = w.n;
  return w.p;
}

typedef struct rbuf {
  const unsigned char *p;
  size_t left;
  int bad;
} rbuf;

static void get(rbuf *r, void *dst, size_t n) {
  if (r->bad || n > r->left) {
    r->bad = 1;
    memset(dst, 0, n);
    return;
  }
  memcpy(dst, r->p, n);
  r->p += n;
  r->left -= n;
}

static uint64_t get_u64(rbuf *r) {
  uint64_t v;
  get(r, &v, sizeof v);
  return v;
}

/* A count of `size`-byte items that must fit in what is left. */
static size_t get_count(rbuf *r, size_t size) {
  uint64_t n = get_u64(r);
  if (r->bad || (size && n > r->left / size)) {
    r->bad = 1;
    return 0;
  }
  return (size_t)n;
}

static char *get_str(rbuf *r) {
  uint64_t n = get_u64(r);
  if (r->bad || n == UINT64_MAX) return NULL;
  if (n > r->left) {
    r->bad = 1;
    return NULL;
  }
  char *s = malloc((size_t)n + 1);
  if (!s) {
    r->bad = 1;
    return NULL;
  }
  get(r, s, (size_t)n);
  s[n] = '\0';
  return s;
}

static double *get_doubles(rbuf *r, size_t n) {
  if (r->bad || n > r->left / sizeof(double)) {
    r->bad = 1;
    return NULL;
  }
  double *v = malloc(sizeof(double) * (n + 1));
  if (!v) {
    r->bad = 1;
    return NULL;
  }
  get(r, v, sizeof(double) * n);
  return v;
}

int out_member_decode(const void *buf, size_t len, out_member *m) {
  rbuf r = {buf, len, 0};
  memset(m, 0, sizeof *m);
  m->index = (long)(int64_t)get_u64(&r);
  m->status = (int)(int64_t)get_u64(&r);
  m->message = get_str(&r);
  get(&r, &m->wall, sizeof m->wall);
  m->rows = get_count(&r, 0);
  m->cols = get_count(&r, 0);
  if (!r.bad && m->cols && m->rows > r.left / sizeof(double) / m->cols)
    r.bad = 1;
  if (!r.bad) m->values = get_doubles(&r, m->rows * m->cols);
  size_t ns = get_count(&r, 8);
  if (ns > OUT_MAX_STATS) r.bad = 1;
  for (size_t i = 0; !r.bad && i < ns; i++) {
    m->stat_names[i] = get_str(&r);
    get(&r, &m->stat_values[i], sizeof(double));
    m->nstats = (int)i + 1;
    if (!m->stat_names[i]) r.bad = 1;
  }
  size_t nrec = get_count(&r, 32);
  if (!r.bad) m->rec = calloc(nrec + 1, sizeof(out_record));
  if (!m->rec) r.bad = 1;
  for (size_t i = 0; !r.bad && i < nrec; i++) {
    out_record *rec = &m->rec[i];
    m->nrec = i + 1;
    rec->path = get_str(&r);
    rec->names = get_str(&r);
    rec->rows = get_count(&r, 0);
    int64_t cols = (int64_t)get_u64(&r);
    if (r.bad || !rec->path || cols < 0 || cols > INT32_MAX ||
        rec->rows > r.left / sizeof(double) / (size_t)(cols + 1)) {
      r.bad = 1;
      break;
    }
    rec->cols = (int)cols;
    rec->data = get_doubles(&r, rec->rows * (size_t)(cols + 1));
  }
  if (r.bad || r.left != 0 || !m->message) {
    out_member_clear(m);
    return -1;
  }
  return 0;
}

int out_member_run(const out_member *m, const double *times, const char **names,
                   out_run *o) {
  memset(o, 0, sizeof *o);
  o->rows = m->rows;
  o->cols = m->cols;
  o->times = times;
  o->values = m->values;
  o->names = names;
  o->nrec = m->nrec;
  o->rec = calloc(m->nrec + 1, sizeof(out_record));
  if (!o->rec) return -1;
  if (m->nrec) memcpy(o->rec, m->rec, sizeof(out_record) * m->nrec);
  return 0;
}
