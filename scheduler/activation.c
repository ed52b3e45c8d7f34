/*
 * Where each event output's activation goes, decided once at compile time
 * from the activation links: the blocks it reaches and the event-input bits
 * (nevprt) they get. Event unions (CLKSOM_f, CLKSOMV_f) are looked through
 * here, as Xcos removes them before simulating, so that an activation that
 * reaches one block through several of their inputs runs that block once,
 * with every bit set. Compile (ordering after synchronous routers) and
 * critical.c (activation lists, criticality) build on these targets.
 */
#include <stdlib.h>

#include "scheduler/plan.h"

static void *zalloc(size_t n, size_t size) {
  return calloc(n ? n : 1, size);
}

static unsigned type_flags(const bsim_plan *p, int b) {
  const bsim_flat_block *fb = &p->flat->blocks[b];
  return fb->run_type ? fb->run_type->flags : fb->type->flags;
}

/* Links grouped by source event output (CSR over evbase indices). */
typedef struct by_source {
  int *start, *block, *port;
} by_source;

static int group_links(const bsim_plan *p, by_source *g) {
  const bsim_flat *f = p->flat;
  int nev = p->evbase[p->nblocks], na = f->nactivations;
  g->start = zalloc((size_t)nev + 1, sizeof(int));
  g->block = zalloc((size_t)na, sizeof(int));
  g->port = zalloc((size_t)na, sizeof(int));
  int *fill = zalloc((size_t)nev, sizeof(int));
  int rc = -1;
  if (!g->start || !g->block || !g->port || !fill) goto done;
  for (int a = 0; a < na; a++) {
    const bsim_flat_link *l = &f->activations[a];
    g->start[p->evbase[l->from_block] + l->from_port + 1]++;
  }
  for (int e = 0; e < nev; e++)
    g->start[e + 1] += g->start[e];
  for (int a = 0; a < na; a++) {
    const bsim_flat_link *l = &f->activations[a];
    int e = p->evbase[l->from_block] + l->from_port;
    int slot = g->start[e] + fill[e]++;
    g->block[slot] = l->to_block;
    g->port[slot] = l->to_port;
  }
  rc = 0;
done:
  free(fill);
  return rc;
}

/* Scratch for the expansion of one event output. */
typedef struct expand {
  int *slot;      /* per block: its index among e's targets, or -1 */
  char *seen;     /* per block: event union already looked through */
  int *seen_list; /* those unions, to clear seen afterwards */
  int *stack, *out_block, *out_bits;
} expand;

/* The targets of event output e, unions looked through, in link order;
 * returns their number (in x->out_*). */
static int expand_one(const bsim_plan *p, const by_source *g, int e,
                      expand *x) {
  int sp = 0, n = 0, nseen = 0;
  x->stack[sp++] = e;
  while (sp > 0) {
    int s = x->stack[--sp];
    /* pushed in reverse so that links are taken in their order */
    for (int a = g->start[s + 1] - 1; a >= g->start[s]; a--) {
      int b = g->block[a];
      if (p->union_block[b]) {
        if (!x->seen[b] && p->flat->blocks[b].model.nevout > 0) {
          x->seen[b] = 1;
          x->seen_list[nseen++] = b;
          x->stack[sp++] = p->evbase[b];
        }
        continue;
      }
      if (x->slot[b] < 0) {
        x->slot[b] = n;
        x->out_block[n] = b;
        x->out_bits[n++] = 0;
      }
      x->out_bits[x->slot[b]] |= 1 << g->port[a];
    }
  }
  /* reset the scratch for the next output */
  for (int k = 0; k < n; k++)
    x->slot[x->out_block[k]] = -1;
  for (int k = 0; k < nseen; k++)
    x->seen[x->seen_list[k]] = 0;
  return n;
}

int bsim_plan_event_targets(bsim_plan *p, bsim_error *err) {
  const bsim_flat *f = p->flat;
  int n = p->nblocks, nev = 0, rc = 0;
  /* nevprt is a bit set in an int */
  for (int b = 0; b < n; b++)
    if (f->blocks[b].model.nevin > 31) {
      bsim_error_set(err, BSIM_ERR_INPUT,
                     "block '%s' has %d event inputs; at most 31 are "
                     "supported",
                     f->blocks[b].path, f->blocks[b].model.nevin);
      return -1;
    }
  by_source g = {0};
  expand x = {0};
  p->evbase = zalloc((size_t)n + 1, sizeof(int));
  p->synchronous = zalloc((size_t)n, 1);
  p->union_block = zalloc((size_t)n, 1);
  p->stateless = zalloc((size_t)n, 1);
  if (!p->evbase || !p->synchronous || !p->union_block || !p->stateless)
    goto done;
  for (int b = 0; b < n; b++) {
    unsigned fl = type_flags(p, b);
    const bsim_model *m = &f->blocks[b].model;
    p->synchronous[b] = (fl & BSIM_TYPE_SYNCHRONOUS) != 0;
    p->union_block[b] = (fl & BSIM_TYPE_EVENT_UNION) != 0;
    /* (a block without outputs lives for its flag 2: a sink records) */
    p->stateless[b] =
        (fl & BSIM_TYPE_LINEAR) != 0 && m->nx == 0 && m->nz == 0 && m->nout > 0;
    p->evbase[b] = nev;
    nev += f->blocks[b].model.nevout;
  }
  p->evbase[n] = nev;
  if (group_links(p, &g) != 0) goto done;
  /* A block is a target at most once per output and a union is looked
   * through at most once: n bounds every scratch list. */
  x.slot = zalloc((size_t)n, sizeof(int));
  x.seen = zalloc((size_t)n, 1);
  x.seen_list = zalloc((size_t)n, sizeof(int));
  x.stack = zalloc((size_t)n + 1, sizeof(int));
  x.out_block = zalloc((size_t)n, sizeof(int));
  x.out_bits = zalloc((size_t)n, sizeof(int));
  p->tgt_start = zalloc((size_t)nev + 1, sizeof(int));
  if (!x.slot || !x.seen || !x.seen_list || !x.stack || !x.out_block ||
      !x.out_bits || !p->tgt_start)
    goto done;
  for (int b = 0; b < n; b++)
    x.slot[b] = -1;
  /* first pass counts, second fills */
  for (int e = 0; e < nev; e++)
    p->tgt_start[e + 1] = p->tgt_start[e] + expand_one(p, &g, e, &x);
  int total = p->tgt_start[nev];
  p->tgt_block = zalloc((size_t)total, sizeof(int));
  p->tgt_bits = zalloc((size_t)total, sizeof(int));
  if (!p->tgt_block || !p->tgt_bits) goto done;
  for (int e = 0; e < nev; e++) {
    int k = expand_one(p, &g, e, &x), base = p->tgt_start[e];
    for (int i = 0; i < k; i++) {
      p->tgt_block[base + i] = x.out_block[i];
      p->tgt_bits[base + i] = x.out_bits[i];
    }
  }
  rc = 1;
done:
  if (rc == 0)
    bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory while compiling");
  free(g.start);
  free(g.block);
  free(g.port);
  free(x.slot);
  free(x.seen);
  free(x.seen_list);
  free(x.stack);
  free(x.out_block);
  free(x.out_bits);
  return rc == 1 ? bsim_plan_reroute(p, err) : -1;
}
