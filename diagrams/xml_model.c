/*
 * A native block's <model>: its run-time model given as data (port sizes,
 * states, rpar, ipar, opar, ...), which flattening then uses instead of
 * the type's define step, as it uses the model an Xcos file stores. What
 * `blocksim convert` writes for the blocks Xcos keeps as a model only.
 * The schema has checked the element's shape; this checks the numbers.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/load.h"

typedef struct mreader {
  const char *file;
  int line;
  bsim_error *err;
} mreader;

static int m_nomem(mreader *r) {
  bsim_error_set(r->err, BSIM_ERR_NOMEM, "%s: out of memory", r->file);
  return -1;
}

/* The numbers of a blank-separated list into *v (malloc'ed, NULL when
 * empty), their count in *n. Integers in [lo, hi] when integral. */
static int parse_list(mreader *r, const char *what, const char *text,
                      int integral, double lo, double hi, double **v, int *n) {
  *v = NULL;
  *n = 0;
  size_t cap = 0;
  const char *p = text;
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
      p++;
    if (!*p) return 0;
    char *end;
    double x = strtod(p, &end);
    const char *bad = NULL;
    if (end == p || (*end && !strchr(" \t\n\r", *end)))
      bad = "not a number";
    else if (!isfinite(x))
      bad = "not finite";
    else if (integral && (x != floor(x) || x < lo || x > hi))
      bad = "out of range";
    if (bad) {
      int len = (int)strcspn(p, " \t\n\r");
      bsim_error_set(r->err, BSIM_ERR_INPUT,
                     "%s:%d: <model %s>: '%.*s' is %s (expected %s%s)", r->file,
                     r->line, what, len > 40 ? 40 : len, p, bad,
                     integral ? "integers" : "finite numbers",
                     integral && lo >= 0 ? " >= 0" : "");
      free(*v);
      *v = NULL;
      return -1;
    }
    if ((size_t)*n == cap) {
      if (cap >= (size_t)INT_MAX / 2) return free(*v), m_nomem(r);
      cap = cap ? 2 * cap : 8;
      double *g = realloc(*v, cap * sizeof *g);
      if (!g) return free(*v), *v = NULL, m_nomem(r);
      *v = g;
    }
    (*v)[(*n)++] = x;
    p = end;
  }
}

/* Attribute `what` of n as a list; absent = empty. */
static int list_attr(mreader *r, xmlNodePtr n, const char *what, int integral,
                     double lo, double hi, double **v, int *count) {
  xmlChar *text = xmlGetProp(n, (const xmlChar *)what);
  *v = NULL;
  *count = 0;
  if (!text) return 0;
  int rc = parse_list(r, what, (const char *)text, integral, lo, hi, v, count);
  xmlFree(text);
  return rc;
}

/* A flag or count attribute: one integer in [lo, hi]; absent = 0. */
static int int_attr(mreader *r, xmlNodePtr n, const char *what, int lo, int hi,
                    int *out) {
  double *v;
  int k;
  *out = 0;
  if (list_attr(r, n, what, 1, lo, hi, &v, &k)) return -1;
  if (k > 1) {
    free(v);
    bsim_error_set(r->err, BSIM_ERR_INPUT,
                   "%s:%d: <model %s>: expected one integer from %d to %d",
                   r->file, r->line, what, lo, hi);
    return -1;
  }
  if (k == 1) *out = (int)v[0];
  free(v);
  return 0;
}

/* in/in2/dep-u or out/out2: sizes per port; the second list and dep-u
 * default to 1 and 0 per port, and must match the first's count. */
static int ports(mreader *r, xmlNodePtr n, int input, bsim_model *m) {
  const char *a = input ? "in" : "out", *b = input ? "in2" : "out2";
  double *rows = NULL, *cols = NULL, *dep = NULL;
  int nr, nc, nd = 0, rc = -1;
  const double big = 1e9;
  if (list_attr(r, n, a, 1, -big, big, &rows, &nr) ||
      list_attr(r, n, b, 1, -big, big, &cols, &nc) ||
      (input && list_attr(r, n, "dep-u", 1, 0, 1, &dep, &nd)))
    goto done;
  if ((nc && nc != nr) || (nd && nd != nr)) {
    bsim_error_set(r->err, BSIM_ERR_INPUT,
                   "%s:%d: <model>: %s has %d entries but %s %d (one per "
                   "%s port)",
                   r->file, r->line, a, nr, nc && nc != nr ? b : "dep-u",
                   nc && nc != nr ? nc : nd, input ? "input" : "output");
    goto done;
  }
  if (input ? bsim_model_set_inputs(m, nr, 1, 1, 0)
            : bsim_model_set_outputs(m, nr, 1, 1)) {
    m_nomem(r);
    goto done;
  }
  for (int k = 0; k < nr; k++) {
    (input ? m->in : m->out)[k] = (int)rows[k];
    (input ? m->in2 : m->out2)[k] = nc ? (int)cols[k] : 1;
    if (input) m->dep_u[k] = nd ? (int)dep[k] : 0;
  }
  rc = 0;
done:
  free(rows);
  free(cols);
  free(dep);
  return rc;
}

static int reals(mreader *r, xmlNodePtr n, const char *what,
                 double *(*alloc)(bsim_model *, int), bsim_model *m) {
  double *v;
  int k;
  if (list_attr(r, n, what, 0, 0, 0, &v, &k)) return -1;
  double *dst = alloc(m, k);
  if (!dst) return free(v), m_nomem(r);
  if (k) memcpy(dst, v, (size_t)k * sizeof *v);
  free(v);
  return 0;
}

static int read_opar(mreader *r, xmlNodePtr o, bsim_model *m) {
  int rows, cols;
  r->line = (int)xmlGetLineNo(o);
  if (int_attr(r, o, "rows", 0, 1 << 24, &rows) ||
      int_attr(r, o, "cols", 0, 1 << 24, &cols))
    return -1;
  xmlChar *text = xmlNodeGetContent(o);
  if (!text) return m_nomem(r);
  double *v;
  int k;
  int rc = parse_list(r, "opar", (const char *)text, 0, 0, 0, &v, &k);
  xmlFree(text);
  if (rc) return -1;
  if ((long)k != (long)rows * cols) {
    free(v);
    bsim_error_set(
        r->err, BSIM_ERR_INPUT,
        "%s:%d: <opar rows=\"%d\" cols=\"%d\">: %d numbers (expected "
        "rows x cols, column by column)",
        r->file, r->line, rows, cols, k);
    return -1;
  }
  bsim_value bv = {rows, cols, v, NULL};
  rc = bsim_model_add_opar(m, &bv) ? m_nomem(r) : 0;
  free(v);
  return rc;
}

int dg_xml_read_model(const char *file, xmlNodePtr n, bsim_model **out,
                      bsim_error *err) {
  mreader r = {file, (int)xmlGetLineNo(n), err};
  bsim_model *m = calloc(1, sizeof *m);
  if (!m) return m_nomem(&r);
  double *firing = NULL, *ipar = NULL;
  int nfiring = 0, nipar = 0, nevin = 0, rc = -1;
  if (ports(&r, n, 1, m) || ports(&r, n, 0, m) ||
      int_attr(&r, n, "event-inputs", 0, 1 << 20, &nevin) ||
      list_attr(&r, n, "firing", 0, 0, 0, &firing, &nfiring) ||
      int_attr(&r, n, "dep-t", 0, 1, &m->dep_t) ||
      int_attr(&r, n, "implicit", 0, 1, &m->implicit) ||
      int_attr(&r, n, "zero-crossings", 0, 1 << 20, &m->ng) ||
      int_attr(&r, n, "modes", 0, 1 << 20, &m->nmode) ||
      reals(&r, n, "state", bsim_model_alloc_x0, m) ||
      reals(&r, n, "dstate", bsim_model_alloc_z0, m) ||
      reals(&r, n, "rpar", bsim_model_alloc_rpar, m) ||
      list_attr(&r, n, "ipar", 1, INT_MIN, INT_MAX, &ipar, &nipar))
    goto done;
  if (bsim_model_set_events(m, nevin, nfiring) ||
      !bsim_model_alloc_ipar(m, nipar)) {
    m_nomem(&r);
    goto done;
  }
  for (int k = 0; k < nfiring; k++)
    m->firing[k] = firing[k];
  for (int k = 0; k < nipar; k++)
    m->ipar[k] = (int)ipar[k];
  for (xmlNodePtr c = n->children; c; c = c->next)
    if (c->type == XML_ELEMENT_NODE && read_opar(&r, c, m)) goto done;
  rc = 0;
done:
  free(firing);
  free(ipar);
  if (rc) {
    bsim_model_clear(m);
    free(m);
    m = NULL;
  }
  *out = m;
  return rc;
}
