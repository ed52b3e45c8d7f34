/*
 * Shared by the block tests (test_blocks_fn.c, test_blocks_zc.c,
 * test_blocks_sinks.c; test_blocks_discrete.c and test_blocks_events.c
 * define BLOCK_HARNESS_FROM_DEFINE first for views built by a define
 * step instead): a block view built by hand around the scheduler's
 * rt_block (so that bsim_block_error records into a bsim_run_errors the
 * test can inspect, and sinks' rows land in rt_block.rec), a define step
 * run from named values, and the layout check that compares a define step
 * with the run-time data Scilab stored for a block of one of its demo
 * diagrams (tests/data/layout/, format in its README.md). Static inline
 * functions in a header, so that each test stays one translation unit and
 * need not use all of them, as test_e2e.h does.
 */
#ifndef BSIM_TEST_BLOCK_HARNESS_H
#define BSIM_TEST_BLOCK_HARNESS_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocksim/blocksim.h"
#include "diagrams/define.h"
#include "diagrams/expr.h"
#include "scheduler/plan.h"
#include "tests/unit/test_check.h"
#include "tests/unit/test_library.h"

#ifndef BSIM_TEST_DATA
#error "BSIM_TEST_DATA must name the tests/data folder"
#endif

/* The part of a block view every harness below sets up the same way: the
 * type, the path errors name, and the error record of the run. */
static inline bsim_block *bind_view(rt_block *rb, bsim_flat_block *fb,
                                    bsim_run_errors *errs, void **work,
                                    const char *type) {
  fb->type = fb->run_type = std_type(type);
  fb->path = "test/blk";
  rb->fb = fb;
  rb->fn = fb->type ? fb->type->fn : NULL;
  bsim_block *b = &rb->b;
  b->path = "test/blk";
  b->ctx_ = errs;
  b->work = work;
  b->phase = BSIM_PHASE_DISCRETE;
  return b;
}

#ifndef BLOCK_HARNESS_FROM_DEFINE

/* ------------------------------------------------- hand-built block views */

/* Every expected value is a parameter copied through, a difference of two
 * exact decimals, or an element chosen by a mode: at most one rounding,
 * so 1e-14 relative (absolute near 0) is ample. */
#define TOL 1e-14

static inline int near(double a, double b) {
  return fabs(a - b) <= TOL * fmax(1.0, fmax(fabs(a), fabs(b)));
}

#define CHECK_NEAR(got, want, what)                                            \
  CHECK(near((got), (want)), "%s: got %.17g, want %.17g", what, (double)(got), \
        (double)(want))

enum { MAXPORT = 4, MAXEL = 64, MAXEV = 4 };

typedef struct harness {
  rt_block rb;
  bsim_flat_block fb;
  bsim_run_errors errs;
  int insz[2 * MAXPORT], outsz[2 * MAXPORT];
  double in[MAXPORT][MAXEL], out[MAXPORT][MAXEL];
  double *inptr[MAXPORT], *outptr[MAXPORT];
  double x[MAXEL], xd[MAXEL], g[MAXEL], evout[MAXEV];
  int mode[MAXEL], jroot[MAXEL];
  void *work;
  bsim_model m; /* from the define step, when used */
  bsim_block *b;
} harness;

/* sizes: rows then cols for each input, then for each output. */
static inline bsim_block *mk(harness *h, const char *type, int nin, int nout,
                             const int *sizes) {
  memset(h, 0, sizeof *h);
  bsim_block *b = bind_view(&h->rb, &h->fb, &h->errs, &h->work, type);
  CHECK(h->fb.type != NULL, "type %s not found", type);
  b->nin = nin;
  b->nout = nout;
  for (int i = 0; i < nin; i++) {
    h->insz[i] = sizes[2 * i];
    h->insz[nin + i] = sizes[2 * i + 1];
    h->inptr[i] = h->in[i];
  }
  for (int i = 0; i < nout; i++) {
    h->outsz[i] = sizes[2 * (nin + i)];
    h->outsz[nout + i] = sizes[2 * (nin + i) + 1];
    h->outptr[i] = h->out[i];
  }
  b->insz = h->insz;
  b->outsz = h->outsz;
  b->inptr = h->inptr;
  b->outptr = h->outptr;
  b->x = h->x;
  b->xd = h->xd;
  b->g = h->g;
  b->mode = h->mode;
  b->jroot = h->jroot;
  b->evout = h->evout;
  h->b = b;
  return b;
}

static inline int insize(const bsim_block *b, int k) {
  return b->insz[k] * b->insz[b->nin + k];
}

/* Run the type's define step on the given (name, value) pairs (others
 * take their defaults) and copy rpar, ipar, x0, ng, nmode and the event
 * counts into the view. ng/nmode of -k become the size of input k. */
static inline int define_into(harness *h, int n, const char *const *names,
                              const bsim_value *given) {
  const bsim_block_type *t = h->fb.type;
  bsim_value vals[16];
  char msg[256];
  memset(vals, 0, sizeof vals);
  for (int i = 0; i < t->nparams && i < 16; i++) {
    const bsim_param_spec *ps = &t->params[i];
    int k;
    for (k = 0; k < n; k++)
      if (strcmp(names[k], ps->name) == 0) break;
    if (k < n) {
      vals[i] = given[k];
    } else if (ps->kind == BSIM_PARAM_STRING) {
      vals[i].str = (char *)ps->default_expr;
    } else if (bsim_expr_eval(ps->default_expr, NULL, &vals[i], msg,
                              sizeof msg) != 0) {
      CHECK(0, "default of %s: %s", ps->name, msg);
      return -1;
    }
  }
  bsim_error err;
  bsim_error_clear(&err);
  bsim_define_ctx ctx = {"test/blk", NULL, 0, t, vals, &err};
  int rc = bsim_define_run(&ctx, &h->m);
  for (int i = 0; i < t->nparams && i < 16; i++) {
    int k;
    for (k = 0; k < n; k++)
      if (strcmp(names[k], t->params[i].name) == 0) break;
    if (k == n && t->params[i].kind != BSIM_PARAM_STRING)
      bsim_value_clear(&vals[i]);
  }
  CHECK(rc == 0, "define %s: %s", t->name, err.message);
  if (rc != 0) return -1;
  bsim_block *b = h->b;
  b->rpar = h->m.rpar;
  b->nrpar = h->m.nrpar;
  b->ipar = h->m.ipar;
  b->nipar = h->m.nipar;
  b->nx = h->m.nx;
  if (h->m.nx) memcpy(h->x, h->m.x0, (size_t)h->m.nx * sizeof(double));
  b->ng = h->m.ng < 0 ? insize(b, -h->m.ng - 1) : h->m.ng;
  b->nmode = h->m.nmode < 0 ? insize(b, -h->m.nmode - 1) : h->m.nmode;
  b->nevout = h->m.nevout;
  return 0;
}

/* A define step that must fail, with a message containing `part`. */
static inline void define_fails(const char *type, int n,
                                const char *const *names,
                                const bsim_value *given, const char *part) {
  harness h;
  mk(&h, type, 0, 0, NULL);
  const bsim_block_type *t = h.fb.type;
  bsim_value vals[16];
  char msg[256];
  memset(vals, 0, sizeof vals);
  for (int i = 0; i < t->nparams && i < 16; i++) {
    int k;
    for (k = 0; k < n; k++)
      if (strcmp(names[k], t->params[i].name) == 0) break;
    if (k < n)
      vals[i] = given[k];
    else if (t->params[i].kind == BSIM_PARAM_STRING)
      vals[i].str = (char *)t->params[i].default_expr;
    else
      bsim_expr_eval(t->params[i].default_expr, NULL, &vals[i], msg,
                     sizeof msg);
  }
  bsim_error err;
  bsim_error_clear(&err);
  bsim_define_ctx ctx = {"plant/lim", NULL, 0, t, vals, &err};
  bsim_model m;
  int rc = bsim_define_run(&ctx, &m);
  CHECK(rc == -1 && err.status == BSIM_ERR_INPUT, "%s accepted bad values",
        type);
  CHECK(strstr(err.message, part) != NULL && strstr(err.message, "plant/lim"),
        "%s: message '%s' lacks '%s' or the path", type, err.message, part);
  for (int i = 0; i < t->nparams && i < 16; i++) {
    int k;
    for (k = 0; k < n; k++)
      if (strcmp(names[k], t->params[i].name) == 0) break;
    if (k == n && t->params[i].kind != BSIM_PARAM_STRING)
      bsim_value_clear(&vals[i]);
  }
}

/* Flag 5, then release what the test and the record took. */
static inline void done(harness *h) {
  if (h->rb.fn) h->rb.fn(h->b, BSIM_FLAG_END);
  bsim_model_clear(&h->m);
  free(h->rb.rec);
  h->rb.rec = NULL;
  free(h->rb.rec_names);
  h->rb.rec_names = NULL;
}

static inline void call(harness *h, int flag) {
  h->rb.fn(h->b, flag);
}

static inline void no_error(harness *h, const char *what) {
  CHECK(!h->errs.fatal && !h->errs.recoverable, "%s: unexpected error: %s%s",
        what, h->errs.err.message, h->errs.last_recoverable);
}

#define SCALAR(x) ((bsim_value){1, 1, (double[]){x}, NULL})

/* Row r of a sink's record must be (t, v[0..n-1]); recorded values are
 * copies, so the comparison is exact. */
static inline void check_row(harness *h, size_t r, double t, const double *v,
                             int n) {
  CHECK(h->rb.rec_cols == n, "row width %d, want %d", h->rb.rec_cols, n);
  CHECK(r < h->rb.rec_rows, "row %zu missing (%zu rows)", r, h->rb.rec_rows);
  if (r >= h->rb.rec_rows || h->rb.rec_cols != n) return;
  const double *row = h->rb.rec + r * (size_t)(n + 1);
  CHECK(row[0] == t, "row %zu: t = %g, want %g", r, row[0], t);
  for (int i = 0; i < n; i++)
    CHECK(row[1 + i] == v[i], "row %zu col %d: %g, want %g", r, i, row[1 + i],
          v[i]);
}

#else /* BLOCK_HARNESS_FROM_DEFINE */

/* ------------------------------------------ views built by a define step
 *
 * For the discrete and event blocks (test_blocks_discrete.c,
 * test_blocks_events.c), which run the type's define step first so that
 * the computational function sees the run-time data a diagram would give
 * it. Those tests state their own tolerance (TOL, CHECK_NEAR). */

enum { MAXP = 6, MAXEL = 16, MAXEV = 8 };

/* One block: its model (from define), the view and its buffers. Data
 * ports: one input and one output at most. */
typedef struct harness {
  rt_block rb;
  bsim_flat_block fb;
  bsim_run_errors errs;
  bsim_model m;
  int insz[2], outsz[2];
  double in[MAXEL], out[MAXEL];
  double *inptr[1], *outptr[1];
  double z[MAXEL], g[MAXEV], evout[MAXEV];
  int mode[MAXEV], jroot[MAXEV];
  void *work;
  bsim_block *b;
} harness;

/* Run TYPE's define with the parameters given by name, in any order;
 * every parameter of the type must be given. Errors name test.xml:LINE.
 * 0 on success, else -1 with the message in *err. */
static inline int define_named(const char *type, bsim_model *m, bsim_error *err,
                               int n, const char *const *names,
                               const bsim_value *vals, int line) {
  const bsim_block_type *t = std_type(type);
  CHECK(t != NULL, "type %s not registered", type);
  if (!t) return -1;
  bsim_value v[MAXP];
  memset(v, 0, sizeof v);
  for (int i = 0; i < t->nparams && i < MAXP; i++) {
    int k = 0;
    while (k < n && strcmp(names[k], t->params[i].name) != 0)
      k++;
    CHECK(k < n, "%s: test gives no value for '%s'", type, t->params[i].name);
    if (k < n) v[i] = vals[k];
  }
  bsim_error_clear(err);
  bsim_define_ctx ctx = {"test/blk", "test.xml", line, t, v, err};
  return bsim_define_run(&ctx, m);
}

/* The view of the block whose model define_named left in h->m: all but
 * the port sizes, which each test sets, and the event-side buffers. */
static inline bsim_block *view_of_model(harness *h, const char *type) {
  bsim_block *b = bind_view(&h->rb, &h->fb, &h->errs, &h->work, type);
  b->nin = h->m.nin;
  b->nout = h->m.nout;
  h->inptr[0] = h->in;
  h->outptr[0] = h->out;
  b->insz = h->insz;
  b->outsz = h->outsz;
  b->inptr = h->inptr;
  b->outptr = h->outptr;
  b->rpar = h->m.rpar;
  b->nrpar = h->m.nrpar;
  b->ipar = h->m.ipar;
  b->nipar = h->m.nipar;
  b->nz = h->m.nz;
  if (h->m.nz) memcpy(h->z, h->m.z0, (size_t)h->m.nz * sizeof(double));
  b->z = h->z;
  h->b = b;
  return b;
}

static inline void done(harness *h) {
  if (h->rb.fn) h->rb.fn(h->b, BSIM_FLAG_END);
  CHECK(h->work == NULL, "%s: work memory not released", h->fb.type->name);
  CHECK(!h->errs.fatal, "%s: unexpected error: %s", h->fb.type->name,
        h->errs.err.message);
  bsim_model_clear(&h->m);
}

/* Layout files (tests/data/layout/README.md) read key by key: the values
 * of one key, and whether the file gave it. */
typedef struct expect {
  int n, given;
  double v[32];
} expect;

static inline void numbers(char *s, expect *e) {
  e->given = 1;
  e->n = 0;
  for (char *tok = strtok(s, " \t\r\n"); tok && e->n < 32;
       tok = strtok(NULL, " \t\r\n"))
    e->v[e->n++] = strtod(tok, NULL);
}

static inline void cmp(const char *file, const char *what, const expect *e,
                       const double *got, int n) {
  if (!e->given) return;
  CHECK(e->n == n, "%s: %s has %d entries, Scilab %d", file, what, n, e->n);
  /* stored with 8 to 17 digits, copied or divided once by define: 1e-12
   * relative */
  for (int i = 0; i < n && i < e->n; i++)
    CHECK(fabs(got[i] - e->v[i]) <= 1e-12 * fmax(1, fabs(e->v[i])),
          "%s: %s[%d] = %.17g, Scilab %.17g", file, what, i, got[i], e->v[i]);
}

static inline void cmp_int(const char *file, const char *what, const expect *e,
                           const int *got, int n) {
  double d[32];
  for (int i = 0; i < n && i < 32; i++)
    d[i] = got[i];
  cmp(file, what, e, d, n < 32 ? n : 32);
}

#endif /* BLOCK_HARNESS_FROM_DEFINE */

/* ------------------------------------------------------------- layouts
 *
 * Comparisons are exact for integers and 1e-12 relative for reals: the
 * define steps copy or negate parameter values, so any difference beyond
 * the decimal printing of the .xcos file is a real layout error. */

enum { LC_MAXV = 128, LC_MAXP = 16 };

typedef struct lc_expect {
  int n, given;
  double v[LC_MAXV];
} lc_expect;

typedef struct lc_case {
  char type[64];
  int nparams;
  char pname[LC_MAXP][32];
  char pstr[LC_MAXP][64];
  double pdata[LC_MAXP][LC_MAXV];
  bsim_value pval[LC_MAXP];
  lc_expect rpar, ipar, x0, z0, firing, in, in2, out, out2, dep_u;
  lc_expect dep_t, ng, nmode, nevin, nevout;
} lc_case;

static inline int lc_numbers(char *text, double *v, int max) {
  int n = 0;
  for (char *tok = strtok(text, " \t\r\n"); tok && n < max;
       tok = strtok(NULL, " \t\r\n"))
    v[n++] = strtod(tok, NULL);
  return n;
}

static inline int lc_load(const char *file, lc_case *c) {
  char path[1024], line[8192];
  snprintf(path, sizeof path, "%s/layout/%s", BSIM_TEST_DATA, file);
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "FAILED: cannot open %s\n", path);
    return -1;
  }
  memset(c, 0, sizeof *c);
  while (fgets(line, sizeof line, f)) {
    char *hash = strchr(line, '#');
    if (hash) *hash = '\0';
    char key[32];
    int used = 0;
    if (sscanf(line, "%31s%n", key, &used) != 1) continue;
    char *rest = line + used;
    if (strcmp(key, "type") == 0) {
      sscanf(rest, "%63s", c->type);
      continue;
    }
    if (strcmp(key, "param") == 0 || strcmp(key, "sparam") == 0) {
      if (c->nparams >= LC_MAXP) continue;
      int k = c->nparams, u2 = 0;
      if (sscanf(rest, "%31s%n", c->pname[k], &u2) != 1) continue;
      c->nparams++;
      bsim_value *v = &c->pval[k];
      if (key[0] == 's') {
        sscanf(rest + u2, "%63s", c->pstr[k]);
        v->str = c->pstr[k];
      } else {
        double tmp[LC_MAXV + 2];
        int n = lc_numbers(rest + u2, tmp, LC_MAXV + 2);
        v->rows = n > 0 ? (int)tmp[0] : 0;
        v->cols = n > 1 ? (int)tmp[1] : 0;
        if (n > 2) memcpy(c->pdata[k], tmp + 2, (size_t)(n - 2) * sizeof *tmp);
        v->v = c->pdata[k];
      }
      continue;
    }
    struct {
      const char *key;
      lc_expect *e;
    } keys[] = {
        {"rpar", &c->rpar},     {"ipar", &c->ipar},     {"x0", &c->x0},
        {"firing", &c->firing}, {"in", &c->in},         {"in2", &c->in2},
        {"out", &c->out},       {"out2", &c->out2},     {"dep_u", &c->dep_u},
        {"dep_t", &c->dep_t},   {"ng", &c->ng},         {"nmode", &c->nmode},
        {"nevin", &c->nevin},   {"nevout", &c->nevout}, {"z0", &c->z0}};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
      if (strcmp(key, keys[i].key) == 0) {
        keys[i].e->n = lc_numbers(rest, keys[i].e->v, LC_MAXV);
        keys[i].e->given = 1;
      }
  }
  fclose(f);
  return 0;
}

/* Returns the number of mismatches (each printed to stderr). */
static inline int lc_cmp(const char *file, const char *what, const lc_expect *e,
                         const double *gd, const int *gi, int n, int always) {
  if (!e->given && !always) return 0;
  int bad = 0;
  if (e->n != n) {
    fprintf(stderr, "FAILED %s: %s has %d entries, Scilab stored %d\n", file,
            what, n, e->n);
    return 1;
  }
  for (int i = 0; i < n; i++) {
    double got = gd ? gd[i] : gi[i], want = e->v[i];
    if (fabs(got - want) > 1e-12 * fmax(1.0, fabs(want))) {
      fprintf(stderr, "FAILED %s: %s[%d] = %.17g, Scilab %.17g\n", file, what,
              i, got, want);
      bad++;
    }
  }
  return bad;
}

static inline int lc_scalar(const char *file, const char *what,
                            const lc_expect *e, int got) {
  return lc_cmp(file, what, e, NULL, &got, 1, 0);
}

/* Runs one data file; returns the number of failures. */
static inline int layout_check(const char *file) {
  lc_case *c = calloc(1, sizeof *c);
  if (!c || lc_load(file, c) != 0) {
    free(c);
    return 1;
  }
  int bad = 0;
  const bsim_block_type *t = std_type(c->type);
  if (!t) {
    fprintf(stderr, "FAILED %s: type %s not registered\n", file, c->type);
    free(c);
    return 1;
  }
  bsim_value values[LC_MAXP];
  memset(values, 0, sizeof values);
  for (int i = 0; i < t->nparams && i < LC_MAXP; i++) {
    int found = 0;
    for (int k = 0; k < c->nparams; k++)
      if (strcmp(c->pname[k], t->params[i].name) == 0) {
        values[i] = c->pval[k];
        found = 1;
      }
    if (!found) {
      fprintf(stderr, "FAILED %s: lacks parameter '%s' of %s\n", file,
              t->params[i].name, t->name);
      bad++;
    }
  }
  bsim_error err;
  bsim_error_clear(&err);
  bsim_define_ctx ctx = {file, NULL, 0, t, values, &err};
  bsim_model m;
  if (bad || bsim_define_run(&ctx, &m) != 0) {
    fprintf(stderr, "FAILED %s: define failed: %s\n", file, err.message);
    free(c);
    return bad + 1;
  }
  bad += lc_cmp(file, "rpar", &c->rpar, m.rpar, NULL, m.nrpar, 1);
  bad += lc_cmp(file, "ipar", &c->ipar, NULL, m.ipar, m.nipar, 1);
  bad += lc_cmp(file, "x0", &c->x0, m.x0, NULL, m.nx, 1);
  bad += lc_cmp(file, "z0", &c->z0, m.z0, NULL, m.nz, 0);
  bad += lc_cmp(file, "firing", &c->firing, m.firing, NULL, m.nevout, 0);
  bad += lc_cmp(file, "in", &c->in, NULL, m.in, m.nin, 0);
  bad += lc_cmp(file, "in2", &c->in2, NULL, m.in2, m.nin, 0);
  bad += lc_cmp(file, "dep_u", &c->dep_u, NULL, m.dep_u, m.nin, 0);
  bad += lc_cmp(file, "out", &c->out, NULL, m.out, m.nout, 0);
  bad += lc_cmp(file, "out2", &c->out2, NULL, m.out2, m.nout, 0);
  bad += lc_scalar(file, "dep_t", &c->dep_t, m.dep_t);
  bad += lc_scalar(file, "ng", &c->ng, m.ng);
  bad += lc_scalar(file, "nmode", &c->nmode, m.nmode);
  bad += lc_scalar(file, "nevin", &c->nevin, m.nevin);
  bad += lc_scalar(file, "nevout", &c->nevout, m.nevout);
  bsim_model_clear(&m);
  free(c);
  return bad;
}

#endif
