/*
 * The second half of flattening: superblock boundaries disappear here. Each
 * leaf input is traced back through IN_f / OUT_f port blocks to the leaf
 * output that really produces its signal, which is also how observes that
 * name a superblock output or a nested path are resolved. Activations go the
 * other way: an event output may fan out, also through CLKINV_f / CLKOUTV_f
 * port blocks, so each one is followed forwards to every leaf event input
 * it reaches.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/flatten_int.h"

/* Data input slots of a node: event port blocks take no data. */
static int nslots(const node *n) {
  if (n->role == LEAF) return n->model.nin;
  return n->role == PORT_IN || n->role == PORT_OUT || n->role == TAG_DATA;
}

static void describe_input(const fl *f, int ni, int port, char *buf,
                           size_t len) {
  const node *n = &f->nodes[ni];
  if (n->role == LEAF || n->role == TAG_DATA)
    snprintf(buf, len, "block '%s' input %d", n->path, port + 1);
  else if (n->role == PORT_IN)
    snprintf(buf, len, "superblock '%s' input %d", f->insts[n->inst].path,
             n->portno);
  else
    snprintf(buf, len, "superblock '%s' output %d (inside, block '%s')",
             f->insts[n->inst].path, n->portno, n->path);
}

/* Which raw link feeds each input slot; an input fed twice is an error. */
static int index_feeds(fl *f) {
  int total = 0;
  for (int i = 0; i < f->nnodes; i++) {
    f->nodes[i].inbase = total;
    total += nslots(&f->nodes[i]);
  }
  f->feed = malloc((size_t)(total ? total : 1) * sizeof *f->feed);
  if (!f->feed) return dg_fl_nomem(f);
  for (int i = 0; i < total; i++)
    f->feed[i] = -1;
  for (int r = 0; r < f->nraw; r++) {
    const rawlink *l = &f->raw[r];
    int *slot = &f->feed[f->nodes[l->to_node].inbase + l->to_port];
    if (*slot >= 0) {
      char what[512];
      describe_input(f, l->to_node, l->to_port, what, sizeof what);
      bsim_error_set(f->err, BSIM_ERR_INPUT,
                     "%s:%d: %s is connected twice (also by the link at line "
                     "%d); an input takes exactly one link",
                     f->file, l->line, what, f->raw[*slot].line);
      return -1;
    }
    *slot = r;
  }
  return 0;
}

/* Follow a source (node, output port) back through port blocks to the leaf
 * output that produces the signal. 0, or -1 with err set. */
static int trace(fl *f, int *ni, int *port, const char *needed_by) {
  for (int steps = 0; f->nodes[*ni].role != LEAF; steps++) {
    const node *n = &f->nodes[*ni];
    int r = f->feed[n->inbase];
    if (r < 0 || steps > f->nnodes) {
      char what[512];
      describe_input(f, *ni, 0, what, sizeof what);
      bsim_error_set(
          f->err, BSIM_ERR_INPUT,
          "%s:%d: %s %s (needed by %s; hint: connect it)", f->file,
          r < 0 && n->role != TAG_DATA ? f->insts[n->inst].line : n->line, what,
          r < 0 ? "is not connected" : "only loops through superblock ports",
          needed_by);
      return -1;
    }
    *ni = f->raw[r].from_node;
    *port = f->raw[r].from_port;
  }
  return 0;
}

static int build_links(fl *f, bsim_flat *out, int **lines) {
  int cap = 0;
  for (int i = 0; i < f->nnodes; i++)
    if (f->nodes[i].role == LEAF) cap += f->nodes[i].model.nin;
  out->links = calloc((size_t)(cap ? cap : 1), sizeof *out->links);
  *lines = calloc((size_t)(cap ? cap : 1), sizeof **lines);
  if (!out->links || !*lines) return dg_fl_nomem(f);
  for (int i = 0; i < f->nnodes; i++) {
    const node *n = &f->nodes[i];
    if (n->role != LEAF) continue;
    for (int q = 0; q < n->model.nin; q++) {
      int r = f->feed[n->inbase + q];
      char what[512];
      describe_input(f, i, q, what, sizeof what);
      if (r < 0) {
        bsim_error_set(f->err, BSIM_ERR_INPUT,
                       "%s:%d: %s is not connected (hint: connect it or "
                       "remove the block)",
                       f->file, n->line, what);
        return -1;
      }
      int sn = f->raw[r].from_node, sp = f->raw[r].from_port;
      if (trace(f, &sn, &sp, what)) return -1;
      (*lines)[out->nlinks] = f->raw[r].line;
      out->links[out->nlinks++] =
          (bsim_flat_link){f->nodes[sn].flat, sp, n->flat, q};
    }
  }
  return 0;
}

typedef struct actset {
  bsim_flat_link *v;
  int n, cap;
} actset;

static int act_push(fl *f, actset *a, bsim_flat_link l) {
  if (a->n == a->cap) {
    int nc = a->cap ? 2 * a->cap : 16;
    bsim_flat_link *p = realloc(a->v, (size_t)nc * sizeof *p);
    if (!p) return dg_fl_nomem(f);
    a->v = p;
    a->cap = nc;
  }
  a->v[a->n++] = l;
  return 0;
}

/* Activations leaving each node, grouped by source node in file order:
 * (*first)[i] .. (*first)[i+1]-1 index into *list. */
static int index_activations(fl *f, int **first, int **list) {
  *first = calloc((size_t)f->nnodes + 1, sizeof **first);
  *list = malloc((size_t)(f->nact ? f->nact : 1) * sizeof **list);
  if (!*first || !*list) return dg_fl_nomem(f);
  for (int i = 0; i < f->nact; i++)
    (*first)[f->act[i].from_node + 1]++;
  for (int i = 0; i < f->nnodes; i++)
    (*first)[i + 1] += (*first)[i];
  int *fill = malloc((size_t)(f->nnodes ? f->nnodes : 1) * sizeof *fill);
  if (!fill) return dg_fl_nomem(f);
  memcpy(fill, *first, (size_t)f->nnodes * sizeof *fill);
  for (int i = 0; i < f->nact; i++)
    (*list)[fill[f->act[i].from_node]++] = i;
  free(fill);
  return 0;
}

/* From activation r, whose source is a leaf event output, reach every leaf
 * event input behind the port blocks it enters. Port blocks pass an event
 * through to all their outgoing activations; `seen` (stamped with r) stops
 * loops made only of port blocks, such as a superblock's event output
 * wired back to its own event input around a CLKINV_f -> CLKOUTV_f. */
static int follow(fl *f, int r, const int *first, const int *list, int *seen,
                  int *stack, actset *out) {
  const rawlink *l = &f->act[r];
  int src = f->nodes[l->from_node].flat, sport = l->from_port;
  if (f->nodes[l->to_node].role == LEAF)
    return act_push(
        f, out,
        (bsim_flat_link){src, sport, f->nodes[l->to_node].flat, l->to_port});
  int top = 0;
  stack[top++] = l->to_node;
  seen[l->to_node] = r;
  while (top > 0) {
    int p = stack[--top];
    for (int k = first[p]; k < first[p + 1]; k++) {
      const rawlink *e = &f->act[list[k]];
      const node *t = &f->nodes[e->to_node];
      if (t->role == LEAF) {
        if (act_push(f, out, (bsim_flat_link){src, sport, t->flat, e->to_port}))
          return -1;
      } else if (seen[e->to_node] != r) {
        seen[e->to_node] = r;
        stack[top++] = e->to_node;
      }
    }
  }
  return 0;
}

static int cmp_link(const bsim_flat_link *a, const bsim_flat_link *b) {
  if (a->from_block != b->from_block)
    return a->from_block < b->from_block ? -1 : 1;
  if (a->from_port != b->from_port) return a->from_port < b->from_port ? -1 : 1;
  if (a->to_block != b->to_block) return a->to_block < b->to_block ? -1 : 1;
  if (a->to_port != b->to_port) return a->to_port < b->to_port ? -1 : 1;
  return 0;
}

/* qsort takes no context, so each link carries its position with it. */
typedef struct keyed {
  bsim_flat_link l;
  int at;
} keyed;

static int cmp_keyed(const void *pa, const void *pb) {
  const keyed *a = pa, *b = pb;
  int c = cmp_link(&a->l, &b->l);
  return c ? c : (a->at > b->at) - (a->at < b->at);
}

/* Two paths through ports (or a written self-activation of a type that
 * gets one anyway) may join the same output to the same input; keep the
 * first of each, in order, so the scheduler sees a set. */
static int drop_repeats(fl *f, actset *a) {
  if (a->n < 2) return 0;
  keyed *k = malloc((size_t)a->n * sizeof *k);
  char *dup = calloc((size_t)a->n, 1);
  if (!k || !dup) {
    free(k);
    free(dup);
    return dg_fl_nomem(f);
  }
  for (int i = 0; i < a->n; i++)
    k[i] = (keyed){a->v[i], i};
  qsort(k, (size_t)a->n, sizeof *k, cmp_keyed);
  for (int i = 1; i < a->n; i++)
    if (cmp_link(&k[i].l, &k[i - 1].l) == 0) dup[k[i].at] = 1;
  int n = 0;
  for (int i = 0; i < a->n; i++)
    if (!dup[i]) a->v[n++] = a->v[i];
  a->n = n;
  free(k);
  free(dup);
  return 0;
}

static int build_activations(fl *f, bsim_flat *out) {
  actset a = {0};
  int *first = NULL, *list = NULL;
  int *seen = malloc((size_t)(f->nnodes ? f->nnodes : 1) * sizeof *seen);
  int *stack = malloc((size_t)(f->nnodes ? f->nnodes : 1) * sizeof *stack);
  int rc = seen && stack ? index_activations(f, &first, &list) : dg_fl_nomem(f);
  for (int i = 0; i < f->nnodes && rc == 0; i++)
    seen[i] = -1;
  /* Only activations leaving a leaf start a walk: one leaving a port block
   * carries whatever entered that port, and is reached from there. */
  for (int r = 0; r < f->nact && rc == 0; r++)
    if (f->nodes[f->act[r].from_node].role == LEAF)
      rc = follow(f, r, first, list, seen, stack, &a);
  for (int i = 0; i < f->nnodes && rc == 0; i++) {
    const node *nd = &f->nodes[i];
    if (nd->role != LEAF || !(nd->type->flags & BSIM_TYPE_SELF_ACTIVATED))
      continue;
    if (nd->model.nevout < 1 || nd->model.nevin < 1) {
      bsim_error_set(f->err, BSIM_ERR_INPUT,
                     "%s:%d: block '%s' (%s) is self-activated but lacks an "
                     "event input or output",
                     f->file, nd->line, nd->path, nd->type->name);
      rc = -1;
    } else {
      /* every event output (CLOCK_c has one, M_freq one per combination) */
      for (int k = 0; k < nd->model.nevout && rc == 0; k++)
        rc = act_push(f, &a, (bsim_flat_link){nd->flat, k, nd->flat, 0});
    }
  }
  if (rc == 0) rc = drop_repeats(f, &a);
  free(first);
  free(list);
  free(seen);
  free(stack);
  /* Readers may expect an array even when it is empty, as for links. */
  if (rc == 0 && !a.v && !(a.v = calloc(1, sizeof *a.v))) rc = dg_fl_nomem(f);
  if (rc) {
    free(a.v);
    return -1;
  }
  out->activations = a.v;
  out->nactivations = a.n;
  return 0;
}

/* "sb/inner/x:1" or "sb:1" -> the leaf output producing that signal. */
static int resolve_observe(fl *f, const dg_observe *o, bsim_flat_observe *fo) {
  int ni = -1, port = o->signal.port - 1, nports = -1;
  for (int i = 0; i < f->nnodes && nports < 0; i++)
    if (strcmp(f->nodes[i].path, o->signal.block) == 0) {
      nports = f->nodes[i].model.nout;
      if (port < nports) ni = i;
    }
  for (int i = 1; i < f->ninsts && nports < 0; i++)
    if (strcmp(f->insts[i].path, o->signal.block) == 0) {
      nports = f->insts[i].nout;
      if (port < nports) ni = f->insts[i].out_node[port];
      port = 0; /* the OUT_f's pass-through output */
    }
  /* An observe from the command line (--observe) has no line. */
  char where[64] = "";
  if (o->line > 0) snprintf(where, sizeof where, ":%d", o->line);
  const char *cli = o->line > 0 ? "" : " (--observe)";
  if (nports < 0) {
    bsim_error_set(f->err, BSIM_ERR_INPUT,
                   "%s%s: observe '%s'%s: no block or superblock '%s' (use a "
                   "path such as 'sb/inner/x:1')",
                   f->file, where, o->name, cli, o->signal.block);
    return -1;
  }
  if (ni < 0) {
    bsim_error_set(f->err, BSIM_ERR_INPUT,
                   "%s%s: observe '%s'%s: '%s' has %d output port(s), not %d",
                   f->file, where, o->name, cli, o->signal.block, nports,
                   o->signal.port);
    return -1;
  }
  char what[512];
  snprintf(what, sizeof what, "observe '%s'", o->name);
  if (trace(f, &ni, &port, what)) return -1;
  fo->block = f->nodes[ni].flat;
  fo->port = port;
  if (!(fo->name = strdup(o->name))) return dg_fl_nomem(f);
  return 0;
}

typedef struct numbered {
  int number, rank; /* Xcos's link number (0: none), native rank */
} numbered;

static int by_number(const void *a, const void *b) {
  const numbered *x = a, *y = b;
  /* the numbered ones first, by number; the others as natively */
  if ((x->number > 0) != (y->number > 0)) return x->number > 0 ? -1 : 1;
  if (x->number != y->number) return x->number < y->number ? -1 : 1;
  return (x->rank > y->rank) - (x->rank < y->rank);
}

/* Blocks read from an Xcos file carry the numbers Scilab's compiler gives
 * their outputs' link buffers, split points and superblock ports counted
 * (diagrams/xcos/linknum.c): then the signals follow those numbers, the
 * ports without one (blocks flattening or the reader made) last in native
 * order, which is kept in native_signals for the native writer. */
static int xcos_signal_order(fl *f, bsim_flat *out) {
  const int **links = calloc((size_t)out->nblocks + 1, sizeof *links);
  int *nlinks = calloc((size_t)out->nblocks + 1, sizeof *nlinks);
  numbered *key = calloc((size_t)out->nsignals + 1, sizeof *key);
  bsim_flat_port *sorted = calloc((size_t)out->nsignals + 1, sizeof *sorted);
  int any = 0, rc = 0;
  if (!links || !nlinks || !key || !sorted) {
    rc = dg_fl_nomem(f);
    goto done;
  }
  for (int i = 0; i < f->nnodes; i++) {
    const node *n = &f->nodes[i];
    if (n->role != LEAF || n->flat < 0 || !n->xlinks) continue;
    links[n->flat] = n->xlinks;
    nlinks[n->flat] = n->nxlinks;
    any = 1;
  }
  if (!any) goto done;
  for (int s = 0; s < out->nsignals; s++) {
    const bsim_flat_port *p = &out->signals[s];
    key[s].rank = s;
    if (p->port < nlinks[p->block]) key[s].number = links[p->block][p->port];
  }
  qsort(key, (size_t)out->nsignals, sizeof *key, by_number);
  for (int s = 0; s < out->nsignals; s++)
    sorted[s] = out->signals[key[s].rank];
  out->native_signals = out->signals;
  out->signals = sorted;
  sorted = NULL;
done:
  free(links);
  free(nlinks);
  free(key);
  free(sorted);
  return rc;
}

/*
 * Output ports in the order Xcos numbers its link buffers, for probes
 * (CFSCOPE): a port gets its number at the first data link that carries
 * its signal, links taken in the order the walk met them (a superblock's
 * links at its place among its level's blocks, then the level's own, each
 * level in file order), as Scilab's compiler numbers the links of a
 * diagram without split points; outputs that feed nothing follow, in
 * block order. Links leading nowhere (an unfed superblock port) are
 * skipped: the errors about them come from build_links.
 */
static int build_signal_order(fl *f, bsim_flat *out) {
  int *base = calloc((size_t)out->nblocks + 1, sizeof *base);
  if (!base) return dg_fl_nomem(f);
  for (int b = 0; b < out->nblocks; b++)
    base[b + 1] = base[b] + out->blocks[b].model.nout;
  char *seen = calloc((size_t)base[out->nblocks] + 1, 1);
  out->signals = calloc((size_t)base[out->nblocks] + 1, sizeof *out->signals);
  if (!seen || !out->signals) {
    free(base);
    free(seen);
    return dg_fl_nomem(f);
  }
  for (int r = 0; r < f->nraw; r++) {
    int ni = f->raw[r].from_node, port = f->raw[r].from_port, steps = 0;
    while (f->nodes[ni].role != LEAF && steps++ <= f->nnodes) {
      int feed = f->feed[f->nodes[ni].inbase];
      if (feed < 0) break;
      ni = f->raw[feed].from_node;
      port = f->raw[feed].from_port;
    }
    if (f->nodes[ni].role != LEAF) continue;
    int b = f->nodes[ni].flat;
    if (seen[base[b] + port]) continue;
    seen[base[b] + port] = 1;
    out->signals[out->nsignals++] = (bsim_flat_port){b, port};
  }
  for (int b = 0; b < out->nblocks; b++)
    for (int k = 0; k < out->blocks[b].model.nout; k++)
      if (!seen[base[b] + k])
        out->signals[out->nsignals++] = (bsim_flat_port){b, k};
  free(base);
  free(seen);
  return xcos_signal_order(f, out);
}

int dg_fl_join(fl *f, bsim_flat *out, int **lines) {
  const bsim_diagram *d = f->d;
  if (dg_fl_tags(f) || index_feeds(f) || build_links(f, out, lines) ||
      build_activations(f, out) || build_signal_order(f, out))
    return -1;
  if (d->nobserves == 0) return 0;
  out->observes = calloc((size_t)d->nobserves, sizeof *out->observes);
  if (!out->observes) return dg_fl_nomem(f);
  for (int i = 0; i < d->nobserves; i++) {
    if (resolve_observe(f, &d->observes[i], &out->observes[i])) return -1;
    out->nobserves++;
  }
  return 0;
}
