/*
 * The residual's own program (kernel.h): inside the integrator only F is
 * wanted, so a chain of linear blocks need not store every intermediate
 * output. Each linear row is rewritten, once per run, in terms of states,
 * outputs of blocks that stay calls, and signals that do not move while
 * integrating (held values, torn copies): a gain after a sum after an
 * integrator becomes one row of the derivative that reads them all. Only
 * the outputs a called block, a torn signal or a row too large to compose
 * reads are still computed. Samples, surfaces and Jacobians use the full
 * program, which computes every output.
 */
#include <stdlib.h>
#include <string.h>

#include "scheduler/kernel.h"

/* A composed row may hold this many terms, or four times its own, before
 * composing stops paying (fan-in of matrix gains): it then stays a stored
 * output, read by pointer. */
enum { COMPOSED_MAX = 32 };

/* Composed terms of every full row: where in the pool each starts. */
typedef struct lean_ctx {
  bsim_run *x;
  const kprog *full;
  int *row_of; /* per output-buffer element: the full row writing it */
  int *start;  /* per full row: its composed terms, pool[start..start+len) */
  int *len;    /* -1: not composed (read its output instead) */
  kterm *pool; /* composed terms, p terms only on non-row signals */
  int npool, cappool;
  /* accumulators keyed by state index and by output-buffer element */
  double *acc_y, *acc_o;
  int *seen_y, *seen_o, *list_y, *list_o;
  char *need_o; /* per output-buffer element: F reads it (mark_needed) */
  int nlist_y, nlist_o;
  const double **other; /* terms on other signals (torn copies) */
  double *other_c;
  int nother, capother, capotherc;
} lean_ctx;

static int out_index(const lean_ctx *c, const double *p) {
  const double *base = c->x->outbufs;
  size_t n = c->x->plan->noutbuf;
  return p >= base && p < base + n ? (int)(p - base) : -1;
}

static int add_y(lean_ctx *c, int i, double a) {
  if (!c->seen_y[i]) {
    c->seen_y[i] = 1;
    c->acc_y[i] = 0;
    c->list_y[c->nlist_y++] = i;
  }
  c->acc_y[i] += a;
  return 0;
}

static int add_p(lean_ctx *c, const double *p, double a) {
  int o = out_index(c, p);
  if (o >= 0) {
    if (!c->seen_o[o]) {
      c->seen_o[o] = 1;
      c->acc_o[o] = 0;
      c->list_o[c->nlist_o++] = o;
    }
    c->acc_o[o] += a;
    return 0;
  }
  for (int k = 0; k < c->nother; k++)
    if (c->other[k] == p) {
      c->other_c[k] += a;
      return 0;
    }
  if (bsim_kprog_grow((void **)&c->other, &c->capother, c->nother + 1,
                      sizeof(double *)) ||
      bsim_kprog_grow((void **)&c->other_c, &c->capotherc, c->nother + 1,
                      sizeof(double)))
    return -1;
  c->other[c->nother] = p;
  c->other_c[c->nother++] = a;
  return 0;
}

/* Accumulates a times the row whose terms start at t (row r):
 * p terms on a composed earlier row are replaced by that row's terms. */
static int accumulate(lean_ctx *c, const krow *r, const kterm *t, double a) {
  for (int i = 0; i < r->n; i++, t++) {
    if (t->i >= 0) {
      add_y(c, t->i, a * t->c);
      continue;
    }
    int o = out_index(c, t->p), q = o >= 0 ? c->row_of[o] : -1;
    if (q < 0 || c->len[q] < 0) {
      if (add_p(c, t->p, a * t->c) != 0) return -1;
      continue;
    }
    for (int j = 0; j < c->len[q]; j++) {
      const kterm *u = &c->pool[c->start[q] + j];
      if (u->i < 0) {
        if (add_p(c, u->p, a * t->c * u->c) != 0) return -1;
      } else {
        add_y(c, u->i, a * t->c * u->c);
      }
    }
  }
  return 0;
}

static int pool_add(lean_ctx *c, double a, int i, const double *p) {
  if (a == 0) return 0;
  if (bsim_kprog_grow((void **)&c->pool, &c->cappool, c->npool + 1,
                      sizeof(kterm)))
    return -1;
  c->pool[c->npool++] = (kterm){a, p, p ? -1 : i};
  return 0;
}

/* Composes full row r into the pool (or marks it not composed). */
static int compose(lean_ctx *c, int r, const kterm *t) {
  const krow *row = &c->full->rows[r];
  c->nlist_y = c->nlist_o = c->nother = 0;
  if (accumulate(c, row, t, 1.0) != 0) return -1;
  int n = c->nlist_y + c->nlist_o + c->nother;
  int own = row->n;
  c->start[r] = c->npool;
  c->len[r] = -1;
  if (n <= COMPOSED_MAX || n <= 4 * own) {
    for (int k = 0; k < c->nlist_y; k++)
      if (pool_add(c, c->acc_y[c->list_y[k]], c->list_y[k], NULL)) return -1;
    for (int k = 0; k < c->nlist_o; k++)
      if (pool_add(c, c->acc_o[c->list_o[k]], 0, c->x->outbufs + c->list_o[k]))
        return -1;
    for (int k = 0; k < c->nother; k++)
      if (pool_add(c, c->other_c[k], 0, c->other[k])) return -1;
    c->len[r] = c->npool - c->start[r];
  }
  for (int k = 0; k < c->nlist_y; k++)
    c->seen_y[c->list_y[k]] = 0;
  for (int k = 0; k < c->nlist_o; k++)
    c->seen_o[c->list_o[k]] = 0;
  return 0;
}

/* Marks the output-buffer elements [p, p + n) as read (need_o). */
static void need_span(const lean_ctx *c, char *need_o, const double *p, int n) {
  for (int e = 0; e < n; e++) {
    int o = out_index(c, p + e);
    if (o >= 0) need_o[o] = 1;
  }
}

static void need_inputs(const lean_ctx *c, char *need_o, const rt_block *rb) {
  for (int i = 0; i < rb->b.nin; i++)
    need_span(c, need_o, rb->b.inptr[i],
              rb->b.insz[i] * rb->b.insz[rb->b.nin + i]);
}

/* Marks what row r reads, composed if it was. */
static void need_terms(const lean_ctx *c, char *need_o, int r,
                       const kterm *own) {
  int composed = c->len[r] >= 0;
  int n = composed ? c->len[r] : c->full->rows[r].n;
  if (n == 0) return; /* the pool (or own) may be NULL: no offset to it */
  const kterm *u = composed ? c->pool + c->start[r] : own;
  for (int j = 0; j < n; j++)
    if (u[j].i < 0) need_span(c, need_o, u[j].p, 1);
}

/* What F needs, walking back from its readers: the state blocks' flag 0,
 * the acausal blocks, the torn signals and the derivative rows read
 * outputs; a row is kept when its output is read, a called block when one
 * of its outputs is (or it is a state or acausal block itself), and what
 * those read is needed in turn. Blocks whose outputs F never reads are
 * not called while integrating, as Xcos's compiler leaves them out of the
 * continuous-time evaluation list (a sine feeding only a sampled
 * controller). Writers come before readers in compiled order (torn
 * signals aside, which are roots here), so one backward pass suffices. */
static void mark_needed(lean_ctx *c, struct bsim_run_kernel *k, char *need,
                        char *keep, const kterm *const *first) {
  const bsim_plan *p = c->x->plan;
  const kprog *g = c->full;
  size_t no = p->noutbuf ? p->noutbuf : 1;
  char *need_o = c->need_o;
  memset(need_o, 0, no);
  for (int s = 0; s < k->nfn_states; s++)
    need_inputs(c, need_o, k->fn_states[s]);
  for (int s = 0; s < p->ncomp; s++)
    need_inputs(c, need_o, &c->x->blocks[p->comp_blocks[s]]);
  for (int t = 0; t < p->ntorn; t++) {
    const rt_torn *tw = &p->torn[t];
    need_span(c, need_o, c->x->blocks[tw->block].b.outptr[tw->port], tw->n);
  }
  for (int r = g->nout_rows; r < g->nrows; r++)
    need_terms(c, need_o, r, first[r]);
  for (int s = g->nseg - 1; s >= 0; s--) {
    const kseg *sg = &g->seg[s];
    const rt_block *rb = sg->call;
    if (!rb) {
      for (int r = sg->r1 - 1; r >= sg->r0; r--) {
        int o = out_index(c, g->rows[r].out);
        if (o < 0 || !need_o[o]) continue;
        need[r] = 1;
        need_terms(c, need_o, r, first[r]);
      }
      continue;
    }
    int b = (int)(rb - c->x->blocks);
    int used = bsim_plan_is_comp(p, b);
    for (int i = 0; !used && i < k->nfn_states; i++)
      used = k->fn_states[i] == rb;
    for (int q = 0; !used && q < rb->b.nout; q++) {
      int o = out_index(c, rb->b.outptr[q]);
      int n = rb->b.outsz[q] * rb->b.outsz[rb->b.nout + q];
      for (int e = 0; o >= 0 && e < n && !used; e++)
        used = need_o[o + e];
    }
    keep[s] = (char)used;
    if (used) need_inputs(c, need_o, rb);
  }
}

/* Emits row r of the full program into the lean one, composed if it was. */
static int emit(lean_ctx *c, kprog *out, int r, const kterm *own) {
  const krow *row = &c->full->rows[r];
  if (bsim_kprog_add_row(out, row->out, row->row) != 0) return -1;
  int n = c->len[r] < 0 ? row->n : c->len[r];
  if (n == 0) return 0; /* the pool (or own) may be NULL */
  const kterm *u = c->len[r] < 0 ? own : c->pool + c->start[r];
  for (int j = 0; j < n; j++)
    if (bsim_kprog_add_term(out, u[j].c, u[j].i, u[j].i >= 0 ? NULL : u[j].p))
      return -1;
  return 0;
}

static int build(lean_ctx *c, struct bsim_run_kernel *k) {
  const kprog *g = c->full;
  kprog *out = &k->lean;
  const kterm *t = g->terms;
  const kterm **first = calloc((size_t)g->nrows + 1, sizeof(kterm *));
  char *need = calloc((size_t)g->nrows + 1, 1);
  char *keep = calloc((size_t)g->nseg + 1, 1);
  int rc = first && need && keep ? 0 : -1;
  for (int r = 0; rc == 0 && r < g->nrows; r++) {
    first[r] = t;
    if (compose(c, r, t) != 0) rc = -1;
    if (g->rows[r].n) t += g->rows[r].n; /* t may be NULL: no terms */
  }
  if (rc == 0) mark_needed(c, k, need, keep, first);
  for (int s = 0; rc == 0 && s < g->nseg; s++) {
    const kseg *sg = &g->seg[s];
    int r0 = out->nrows, t0 = out->nterms;
    for (int r = sg->r0; rc == 0 && !sg->call && r < sg->r1; r++)
      if (need[r]) rc = emit(c, out, r, first[r]);
    if (rc == 0 && (sg->call ? keep[s] : out->nrows > r0) &&
        bsim_kprog_add_seg(out, sg->call, r0, out->nrows, t0) != 0)
      rc = -1;
  }
  out->nout_rows = out->nrows;
  out->dt0 = out->nterms;
  for (int r = g->nout_rows; rc == 0 && r < g->nrows; r++)
    rc = emit(c, out, r, first[r]);
  free(first);
  free(need);
  free(keep);
  return rc;
}

int bsim_kernel_lean(bsim_run *x, struct bsim_run_kernel *k) {
  const bsim_plan *p = x->plan;
  size_t no = p->noutbuf ? p->noutbuf : 1, ny = (size_t)p->ny;
  size_t nr = (size_t)k->full.nrows + 1;
  lean_ctx c = {0};
  c.x = x;
  c.full = &k->full;
  c.row_of = malloc(sizeof(int) * no);
  c.start = calloc(nr, sizeof(int));
  c.len = calloc(nr, sizeof(int));
  c.acc_y = calloc(ny, sizeof(double));
  c.acc_o = calloc(no, sizeof(double));
  c.seen_y = calloc(ny, sizeof(int));
  c.seen_o = calloc(no, sizeof(int));
  c.list_y = calloc(ny, sizeof(int));
  c.list_o = calloc(no, sizeof(int));
  c.need_o = calloc(no, 1);
  int rc = -1;
  if (c.row_of && c.start && c.len && c.acc_y && c.acc_o && c.seen_y &&
      c.seen_o && c.list_y && c.list_o && c.need_o) {
    for (size_t i = 0; i < no; i++)
      c.row_of[i] = -1;
    for (int r = 0; r < k->full.nout_rows; r++)
      c.row_of[out_index(&c, k->full.rows[r].out)] = r;
    rc = build(&c, k);
  }
  free(c.row_of);
  free(c.start);
  free(c.len);
  free(c.pool);
  free(c.acc_y);
  free(c.acc_o);
  free(c.seen_y);
  free(c.seen_o);
  free(c.list_y);
  free(c.list_o);
  free(c.need_o);
  free(c.other);
  free(c.other_c);
  return rc;
}
