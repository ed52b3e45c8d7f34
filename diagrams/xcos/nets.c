/*
 * The links of an Xcos level as they run. Split blocks (SPLIT_f,
 * CLKSPLIT_f) join link ends into nets; Xcos lets a link enter a split by
 * any of its ports and stores some links drawn backwards, so a net is read
 * by what its real ends are - the one block output is its source, the
 * block inputs its destinations - not by which split port a link uses.
 * Then, as Xcos's own flattening does, a block with an unconnected regular
 * input is ignored (removed with its links, which may leave further blocks
 * unconnected), except SUM_f and SOM_f, whose unconnected inputs read
 * zero; IFTHEL_f and ESELECT_f are also ignored without their event input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/dg_util.h"
#include "diagrams/xcos/xcos_int.h"

static int is_output(int kind) {
  return kind == XP_OUT || kind == XP_EVOUT || kind == XP_IMPOUT;
}

typedef struct wires {
  xc_wire *v;
  int n, cap;
} wires;

static int push(xc_ctx *c, wires *w, xc_wire x) {
  if (w->n == w->cap) {
    int nc = w->cap ? 2 * w->cap : 16;
    xc_wire *g = realloc(w->v, (size_t)nc * sizeof *g);
    if (!g) return xc_nomem(c);
    w->v = g;
    w->cap = nc;
  }
  w->v[w->n++] = x;
  return 0;
}

static const char *who(const xc_block *b) {
  return b->label && b->label[0] ? b->label : b->gui;
}

/* One real end of a net: the block output or input a link touches. */
typedef struct end {
  int net, block, port, line;
} end;

static int resolve_nets(xc_ctx *c, const xc_level *l, wires *w) {
  int n = l->nblocks, rc = 0, nends = 0;
  int *parent = malloc((size_t)(n ? n : 1) * sizeof *parent);
  end *ends = malloc((size_t)(l->nlinks ? 2 * l->nlinks : 1) * sizeof *ends);
  if (!parent || !ends) {
    free(parent);
    free(ends);
    return xc_nomem(c);
  }
  for (int i = 0; i < n; i++)
    parent[i] = i;
  for (int i = 0; i < l->nlinks && rc == 0; i++) {
    const xc_link *k = &l->links[i];
    if (k->kind == 2) continue; /* implicit.c */
    int s0 = l->blocks[k->from_block].kind == XB_SPLIT;
    int s1 = l->blocks[k->to_block].kind == XB_SPLIT;
    if (s0 && s1) {
      parent[dg_set_root(parent, k->from_block)] =
          dg_set_root(parent, k->to_block);
    } else if (s0 || s1) {
      int split = s0 ? k->from_block : k->to_block;
      ends[nends++] = (end){split, s0 ? k->to_block : k->from_block,
                            s0 ? k->to_port : k->from_port, k->line};
    } else {
      int fk = l->blocks[k->from_block].ports[k->from_port].kind;
      int tk = l->blocks[k->to_block].ports[k->to_port].kind;
      if (is_output(fk) == is_output(tk)) {
        bsim_error_set(c->err, BSIM_ERR_INPUT,
                       "%s:%d: a link joins two %s of blocks '%s' and '%s' "
                       "(hint: reconnect it in Xcos)",
                       c->file, k->line, is_output(fk) ? "outputs" : "inputs",
                       who(&l->blocks[k->from_block]),
                       who(&l->blocks[k->to_block]));
        rc = -1;
        break;
      }
      int rev = !is_output(fk);
      rc = push(c, w,
                (xc_wire){k->kind, rev ? k->to_block : k->from_block,
                          rev ? k->to_port : k->from_port,
                          rev ? k->from_block : k->to_block,
                          rev ? k->from_port : k->to_port, k->line});
    }
  }
  /* each net: its one source feeds every destination */
  for (int i = 0; i < nends; i++)
    ends[i].net = dg_set_root(parent, ends[i].net);
  for (int i = 0; i < nends && rc == 0; i++) {
    const end *e = &ends[i];
    if (!is_output(l->blocks[e->block].ports[e->port].kind)) continue;
    for (int j = 0; j < nends && rc == 0; j++) {
      if (j == i || ends[j].net != e->net) continue;
      const end *d = &ends[j];
      if (is_output(l->blocks[d->block].ports[d->port].kind)) {
        if (j < i) continue; /* reported once, from the first */
        bsim_error_set(c->err, BSIM_ERR_INPUT,
                       "%s:%d: a split point joins the outputs of blocks "
                       "'%s' and '%s' (hint: reconnect it in Xcos)",
                       c->file, d->line, who(&l->blocks[e->block]),
                       who(&l->blocks[d->block]));
        rc = -1;
        break;
      }
      int kind = l->blocks[e->block].ports[e->port].kind == XP_EVOUT ? 1 : 0;
      rc = push(c, w,
                (xc_wire){kind, e->block, e->port, d->block, d->port, d->line});
    }
  }
  free(parent);
  free(ends);
  return rc;
}

static int push_any(xc_ctx *c, void *w, xc_wire x) {
  return push(c, w, x);
}

static int needs_all_inputs(const xc_block *b) {
  return b->kind != XB_SPLIT && strcmp(b->gui, "SUM_f") != 0 &&
         strcmp(b->gui, "SOM_f") != 0;
}

/* Is input port p of block b fed by a live wire? */
static int fed(const wires *w, const char *alive, int b, int p) {
  for (int i = 0; i < w->n; i++)
    if (w->v[i].to_block == b && w->v[i].to_port == p &&
        alive[w->v[i].from_block])
      return 1;
  return 0;
}

static int ignore_unconnected(xc_ctx *c, const xc_level *l, const wires *w,
                              char *alive, const char *path, int notes) {
  for (int changed = 1; changed;) {
    changed = 0;
    for (int b = 0; b < l->nblocks; b++) {
      const xc_block *xb = &l->blocks[b];
      if (!alive[b] || !needs_all_inputs(xb)) continue;
      int sync =
          strcmp(xb->gui, "IFTHEL_f") == 0 || strcmp(xb->gui, "ESELECT_f") == 0;
      int missing = 0;
      for (int p = 0; p < xb->nports && !missing; p++) {
        int k = xb->ports[p].kind;
        if ((k == XP_IN || (sync && k == XP_EVIN)) && !fed(w, alive, b, p))
          missing = 1;
      }
      if (!missing) continue;
      alive[b] = 0;
      changed = 1;
      if (notes &&
          xc_note(c,
                  "%s:%d: block '%s%s%s' (%s) is ignored because of "
                  "undefined input(s), as Xcos ignores it",
                  c->file, xb->line, path, *path ? "/" : "", who(xb), xb->gui))
        return -1;
    }
  }
  return 0;
}

int xc_resolve_links(xc_ctx *c, const xc_level *l, const char *path,
                     xc_wire **out, int *nout, char *alive, int notes) {
  wires w = {0};
  for (int i = 0; i < l->nblocks; i++)
    alive[i] = 1;
  if (resolve_nets(c, l, &w) || xc_implicit_nets(c, l, push_any, &w) ||
      ignore_unconnected(c, l, &w, alive, path, notes)) {
    free(w.v);
    return -1;
  }
  int k = 0;
  for (int i = 0; i < w.n; i++)
    if (alive[w.v[i].from_block] && alive[w.v[i].to_block]) w.v[k++] = w.v[i];
  *out = w.v;
  *nout = k;
  return 0;
}
