/*
 * Implicit (acausal) ports of an Xcos level. ImplicitLinks have no
 * direction and may enter a split (IMPSPLIT_f, or a SPLIT_f Xcos drew on
 * an implicit link) by any port, so the ports they touch are grouped into
 * nets by union-find, and each net becomes connects from its first port to
 * the others: the native tree's connection sets are the same.
 *
 * Port numbers change on the way. Xcos numbers a block's inputs together,
 * explicit and implicit (a VoltageSensor's data output is output 2, after
 * its pin n); blocksim numbers data ports apart from connectors. A
 * component's implicit port is named by its Modelica model (the
 * equations' inputs and outputs lists: "p", "n", "B" ...), which are the
 * component types' connector names. A superblock's connectors are its
 * implicit inputs in order, then its implicit outputs, and inside, the
 * INIMPL_f blocks by their number, then the OUTIMPL_f blocks: both sides
 * rank them the same way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/dg_util.h"
#include "diagrams/xcos/xcos_int.h"

static int is_implicit(int kind) {
  return kind == XP_IMPIN || kind == XP_IMPOUT;
}

int xc_has_implicit(const xc_block *b) {
  for (int i = 0; i < b->nports; i++)
    if (is_implicit(b->ports[i].kind)) return 1;
  return 0;
}

/* Rank of port p among the block's ports of the kinds listed, by kind
 * (in the list's order), then ordering. */
static int rank_of(const xc_block *b, int p, const int *kinds, int nkinds) {
  int r = 1, pk = -1;
  for (int k = 0; k < nkinds; k++)
    if (kinds[k] == b->ports[p].kind) pk = k;
  for (int i = 0; i < b->nports; i++) {
    int ik = -1;
    for (int k = 0; k < nkinds; k++)
      if (kinds[k] == b->ports[i].kind) ik = k;
    if (ik < 0 || i == p) continue;
    if (ik < pk || (ik == pk && xc_port_number(b, i) < xc_port_number(b, p)))
      r++;
  }
  return r;
}

int xc_data_port_number(const xc_block *b, int p) {
  if (!xc_has_implicit(b)) return xc_port_number(b, p);
  int kind = b->ports[p].kind;
  return rank_of(b, p, &kind, 1);
}

/* The number a superblock connector port (INIMPL_f, OUTIMPL_f) stands
 * for in Xcos: ipar(1), else its dialog field. */
static int conport_number(const xc_block *b) {
  double n = sciv_num(b->ipar, 0, -1);
  if (n < 1 && sciv_str(b->exprs, 0)) n = atof(sciv_str(b->exprs, 0));
  return n >= 1 ? (int)n : 0;
}

static int conport_side(const xc_block *b) {
  return b->port_role && strcmp(b->port_role, "OUTIMPL_f") == 0;
}

int xc_conport_rank(const xc_level *l, int bi) {
  const xc_block *me = &l->blocks[bi];
  int r = 1, side = conport_side(me), num = conport_number(me);
  for (int i = 0; i < l->nblocks; i++) {
    const xc_block *b = &l->blocks[i];
    if (i == bi || !b->port_role || strstr(b->port_role, "IMPL_f") == NULL)
      continue;
    int s = conport_side(b), n = conport_number(b);
    if (s < side || (s == side && (n < num || (n == num && i < bi)))) r++;
  }
  return r;
}

int xc_con_ref(xc_ctx *c, const xc_block *b, int p, char *buf, size_t len) {
  static const int kinds[] = {XP_IMPIN, XP_IMPOUT};
  if (b->child || (b->port_role && strstr(b->port_role, "IMPL_f"))) {
    /* a superblock's connector by rank; a connector port's own is 1 */
    snprintf(buf, len, "%d", b->child ? rank_of(b, p, kinds, 2) : 1);
    return 0;
  }
  const sciv *names = sciv_field(
      b->equations, b->ports[p].kind == XP_IMPIN ? "inputs" : "outputs");
  const char *name = sciv_str(names, xc_port_number(b, p) - 1);
  if (!name || !*name) {
    bsim_error_set(c->err, BSIM_ERR_INPUT,
                   "%s:%d: block %s: implicit %s %d has no name in the "
                   "block's Modelica model (its 'equations'; the file is "
                   "damaged or the block is not a Modelica component)",
                   c->file, b->line, b->gui,
                   b->ports[p].kind == XP_IMPIN ? "input" : "output",
                   xc_port_number(b, p));
    return -1;
  }
  snprintf(buf, len, "%s", name);
  return 0;
}

/* One block port an implicit link touches (splits are not ends). */
typedef struct iend {
  int block, port, line;
} iend;

static int end_id(iend *ends, int *n, int block, int port, int line) {
  for (int i = 0; i < *n; i++)
    if (ends[i].block == block && ends[i].port == port) return i;
  ends[*n] = (iend){block, port, line};
  return (*n)++;
}

int xc_implicit_nets(xc_ctx *c, const xc_level *l,
                     int (*push)(xc_ctx *c, void *w, xc_wire x), void *w) {
  int nb = l->nblocks, nl = 0;
  for (int i = 0; i < l->nlinks; i++)
    nl += l->links[i].kind == 2;
  if (nl == 0) return 0;
  iend *ends = malloc(sizeof(iend) * (size_t)(2 * nl));
  int *parent = malloc(sizeof(int) * (size_t)(nb + 2 * nl));
  int *anchor = malloc(sizeof(int) * (size_t)(nb + 2 * nl));
  int nends = 0, rc = 0;
  if (!ends || !parent || !anchor) rc = xc_nomem(c);
  for (int i = 0; rc == 0 && i < nb + 2 * nl; i++)
    parent[i] = i;
  for (int i = 0; rc == 0 && i < l->nlinks; i++) {
    const xc_link *k = &l->links[i];
    if (k->kind != 2) continue;
    int a =
        l->blocks[k->from_block].kind == XB_SPLIT
            ? k->from_block
            : nb + end_id(ends, &nends, k->from_block, k->from_port, k->line);
    int b = l->blocks[k->to_block].kind == XB_SPLIT
                ? k->to_block
                : nb + end_id(ends, &nends, k->to_block, k->to_port, k->line);
    a = dg_set_root(parent, a);
    b = dg_set_root(parent, b);
    if (a != b) parent[b] = a;
  }
  for (int i = 0; rc == 0 && i < nb + 2 * nl; i++)
    anchor[i] = -1;
  for (int e = 0; rc == 0 && e < nends; e++) {
    int r = dg_set_root(parent, nb + e);
    if (anchor[r] < 0) {
      anchor[r] = e;
      continue;
    }
    const iend *a = &ends[anchor[r]], *d = &ends[e];
    rc =
        push(c, w, (xc_wire){2, a->block, a->port, d->block, d->port, d->line});
  }
  free(ends);
  free(parent);
  free(anchor);
  return rc;
}
