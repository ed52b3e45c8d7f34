/*
 * A block that one event activates both directly and through a synchronous
 * router (IFTHEL_f, ESELECT_f, ...) the same event activates runs once in
 * Xcos: its compiler (c_pass2's paksazi) moves the direct activation
 * behind the router, onto every output of it, so that the block runs after
 * the router's choice, in whichever branch the router takes, with the
 * event bits of both ways. When the router is activated by other events
 * too, the compiler makes a copy of it for this event only; here the copy
 * is a set of virtual event outputs: the router's entry in this event's
 * targets reads its outputs' targets from them (tgt_evmap). Applied to the
 * targets activation.c found, before ordering; two routers that share
 * activated blocks go one behind the other, the one reaching the other
 * first, else the first in the diagram.
 */
#include <stdlib.h>
#include <string.h>

#include "scheduler/plan.h"

typedef struct target {
  int block, bits, map; /* map: where a router's outputs are (event index) */
} target;

typedef struct tlist {
  target *v;
  int n, cap;
} tlist;

typedef struct rr {
  bsim_plan *p;
  tlist *ev;         /* per event: its targets */
  int *owner, *port; /* per event: its block and output number */
  int nev, cap;
  char *mark, *mark2; /* scratch per block */
} rr;

static int push(tlist *l, target t) {
  for (int i = 0; i < l->n; i++)
    if (l->v[i].block == t.block) {
      l->v[i].bits |= t.bits;
      return 0;
    }
  if (l->n == l->cap) {
    int nc = l->cap ? 2 * l->cap : 4;
    target *g = realloc(l->v, (size_t)nc * sizeof *g);
    if (!g) return -1;
    l->v = g;
    l->cap = nc;
  }
  l->v[l->n++] = t;
  return 0;
}

static int nevout(const rr *x, int b) {
  return x->p->flat->blocks[b].model.nevout;
}

/* mark[] = 1 for every block reachable through router entry t's outputs,
 * routers among them followed on. 0, or -1 out of memory. */
static int reach(rr *x, const target *t, char *mark) {
  int n = x->p->nblocks, sp = 0;
  /* each router is marked once, so each event output is pushed once */
  int *stack =
      malloc((size_t)(x->nev + nevout(x, t->block) + 1) * sizeof *stack);
  if (!stack) return -1;
  memset(mark, 0, (size_t)n);
  for (int k = 0; k < nevout(x, t->block); k++)
    stack[sp++] = t->map + k;
  while (sp > 0) {
    const tlist *l = &x->ev[stack[--sp]];
    for (int i = 0; i < l->n; i++) {
      const target *c = &l->v[i];
      if (mark[c->block]) continue;
      mark[c->block] = 1;
      if (x->p->synchronous[c->block])
        for (int k = 0; k < nevout(x, c->block); k++)
          stack[sp++] = c->map + k;
    }
  }
  free(stack);
  return 0;
}

/* How entry u of an event relates to router entry t, whose reach is in
 * x->mark: 0 apart; 1 when u goes behind t (t reaches u, or both are
 * routers that share activated blocks and neither reaches the other, u
 * the later in the diagram); 2 when t goes behind u; -1 out of memory. */
static int relation(rr *x, const target *t, const target *u) {
  if (x->mark[u->block]) return 1;
  if (!x->p->synchronous[u->block]) return 0;
  if (reach(x, u, x->mark2) != 0) return -1;
  if (x->mark2[t->block]) return 2;
  int shared = 0;
  for (int b = 0; b < x->p->nblocks && !shared; b++)
    shared = x->mark[b] && x->mark2[b];
  return !shared ? 0 : u->block > t->block ? 1 : 2;
}

/* Entries of any event that name router r with outputs at map. */
static int sources(const rr *x, int r, int map) {
  int n = 0;
  for (int e = 0; e < x->nev; e++)
    for (int i = 0; i < x->ev[e].n; i++)
      n += x->ev[e].v[i].block == r && x->ev[e].v[i].map == map;
  return n;
}

/* New virtual outputs copying router entry t's: its index. */
static int copy_outputs(rr *x, const target *t) {
  int k = nevout(x, t->block), base = x->nev;
  if (x->nev + k > x->cap) {
    int nc = 2 * (x->nev + k);
    tlist *ev = realloc(x->ev, (size_t)nc * sizeof *ev);
    if (ev) x->ev = ev;
    int *ow = ev ? realloc(x->owner, (size_t)nc * sizeof *ow) : NULL;
    if (ow) x->owner = ow;
    int *po = ow ? realloc(x->port, (size_t)nc * sizeof *po) : NULL;
    if (!po) return -1;
    x->port = po;
    x->cap = nc;
  }
  for (int j = 0; j < k; j++) {
    tlist *l = &x->ev[base + j];
    const tlist *src = &x->ev[t->map + j];
    memset(l, 0, sizeof *l);
    for (int i = 0; i < src->n; i++)
      if (push(l, src->v[i])) return -1;
    x->owner[base + j] = t->block;
    x->port[base + j] = j;
  }
  x->nev += k;
  return base;
}

/* One step on event e: the first pair (router, other entry) sharing
 * activated blocks is resolved. 1 when something moved, 0 when e is done,
 * -1 out of memory. */
static int reroute_one(rr *x, int e) {
  for (int i = 0; i < x->ev[e].n; i++) {
    target t = x->ev[e].v[i];
    if (!x->p->synchronous[t.block]) continue;
    if (reach(x, &t, x->mark) != 0) return -1;
    for (int j = 0; j < x->ev[e].n; j++) {
      if (j == i) continue;
      target u = x->ev[e].v[j];
      int rel = relation(x, &t, &u);
      if (rel < 0) return -1;
      if (rel != 1) continue; /* apart, or resolved from u's side */
      if (sources(x, t.block, t.map) > 1) {
        int map = copy_outputs(x, &t);
        if (map < 0) return -1;
        x->ev[e].v[i].map = map;
        t.map = map;
      }
      for (int k = 0; k < nevout(x, t.block); k++)
        if (push(&x->ev[t.map + k], u)) return -1;
      memmove(&x->ev[e].v[j], &x->ev[e].v[j + 1],
              (size_t)(x->ev[e].n - j - 1) * sizeof(target));
      x->ev[e].n--;
      return 1;
    }
  }
  return 0;
}

/* The lists back into the plan's arrays. */
static int store(rr *x) {
  bsim_plan *p = x->p;
  int total = 0;
  for (int e = 0; e < x->nev; e++)
    total += x->ev[e].n;
  int *start = calloc((size_t)x->nev + 1, sizeof *start);
  int *block = calloc((size_t)total + 1, sizeof *block);
  int *bits = calloc((size_t)total + 1, sizeof *bits);
  int *map = calloc((size_t)total + 1, sizeof *map);
  if (!start || !block || !bits || !map) {
    free(start), free(block), free(bits), free(map);
    return -1;
  }
  for (int e = 0, k = 0; e < x->nev; e++) {
    for (int i = 0; i < x->ev[e].n; i++, k++) {
      block[k] = x->ev[e].v[i].block;
      bits[k] = x->ev[e].v[i].bits;
      map[k] = x->ev[e].v[i].map;
    }
    start[e + 1] = k;
  }
  free(p->tgt_start), free(p->tgt_block), free(p->tgt_bits);
  p->tgt_start = start;
  p->tgt_block = block;
  p->tgt_bits = bits;
  p->tgt_evmap = map;
  p->evowner = x->owner;
  x->owner = NULL;
  p->nevents = x->nev;
  return 0;
}

int bsim_plan_reroute(bsim_plan *p, bsim_error *err) {
  int n = p->nblocks, nev = p->evbase[n], rc = -1;
  rr x = {0};
  x.p = p;
  x.nev = nev;
  x.cap = nev + 1;
  x.ev = calloc((size_t)x.cap, sizeof *x.ev);
  x.owner = calloc((size_t)x.cap, sizeof *x.owner);
  x.port = calloc((size_t)x.cap, sizeof *x.port);
  x.mark = calloc((size_t)n + 1, 1);
  x.mark2 = calloc((size_t)n + 1, 1);
  if (!x.ev || !x.owner || !x.port || !x.mark || !x.mark2) goto done;
  for (int b = 0; b < n; b++)
    for (int k = 0; k < nevout(&x, b); k++) {
      int e = p->evbase[b] + k;
      x.owner[e] = b;
      x.port[e] = k;
      for (int t = p->tgt_start[e]; t < p->tgt_start[e + 1]; t++) {
        int c = p->tgt_block[t];
        if (push(&x.ev[e], (target){c, p->tgt_bits[t], p->evbase[c]}))
          goto done;
      }
    }
  for (int changed = 1; changed;) {
    changed = 0;
    for (int e = 0; e < x.nev; e++) {
      int r;
      while ((r = reroute_one(&x, e)) == 1)
        changed = 1;
      if (r < 0) goto done;
    }
  }
  rc = store(&x);
done:
  if (rc != 0)
    bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory while compiling");
  for (int e = 0; x.ev && e < x.nev; e++)
    free(x.ev[e].v);
  free(x.ev);
  free(x.owner);
  free(x.port);
  free(x.mark);
  free(x.mark2);
  return rc;
}
