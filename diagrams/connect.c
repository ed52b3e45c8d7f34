/*
 * Connection sets of acausal connectors. A <connect> (an Xcos
 * ImplicitLink) joins two connectors without direction; superblock
 * boundaries are crossed through connector port blocks (INIMPL_f,
 * OUTIMPL_f), whose single connector is the same inside and outside. The
 * sets are the connected components of the graph of connectors and
 * connects (union-find), each becoming one node of the flat diagram with
 * one domain: the scheduler gives a node its shared across variables and
 * the zero sum of its through variables.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/dg_util.h"
#include "diagrams/flatten_int.h"

/* "p, n" — a block's connector names, for hints. */
static void con_names(const bsim_model *m, char *buf, size_t len) {
  buf[0] = '\0';
  size_t used = 0;
  for (int k = 0; k < m->ncon && used + 1 < len; k++) {
    int n = snprintf(buf + used, len - used, "%s%s", k ? ", " : "",
                     m->conname[k] ? m->conname[k] : "?");
    if (n < 0) break;
    used += (size_t)n;
  }
}

/* One end of a <connect>: (node, connector from 0). */
static int resolve(fl *f, const dg_link *l, const dg_portref *r,
                   const char *side, const int *where, const int *isinst,
                   int bi, int *ni, int *con) {
  if (isinst[bi]) {
    const inst *in = &f->insts[where[bi]];
    if (r->con || r->port > in->ncon) {
      bsim_error_set(f->err, BSIM_ERR_INPUT,
                     "%s:%d: <connect %s=\"%s:%s%.0d\">: superblock '%s' has "
                     "%d connector(s), counted from 1 (one INIMPL_f or "
                     "OUTIMPL_f block per connector inside it)",
                     f->file, l->line, side, r->block, r->con ? r->con : "",
                     r->con ? 0 : r->port, in->path, in->ncon);
      return -1;
    }
    *ni = in->con_node[r->port - 1];
    *con = 0;
    return 0;
  }
  const node *nd = &f->nodes[where[bi]];
  const bsim_model *m = &nd->model;
  int k = -1;
  if (r->con) {
    for (int i = 0; i < m->ncon && k < 0; i++)
      if (m->conname[i] && strcmp(m->conname[i], r->con) == 0) k = i;
  } else if (r->port <= m->ncon) {
    k = r->port - 1;
  }
  if (k < 0) {
    char names[256];
    con_names(m, names, sizeof names);
    bsim_error_set(f->err, BSIM_ERR_INPUT,
                   "%s:%d: <connect %s=\"%s:%s%.0d\">: block '%s' (%s) has "
                   "%s (%s)",
                   f->file, l->line, side, r->block, r->con ? r->con : "",
                   r->con ? 0 : r->port, nd->path, nd->type->name,
                   m->ncon ? "no such connector" : "no connectors",
                   m->ncon ? names : "only causal ports: use <link>");
    return -1;
  }
  *ni = where[bi];
  *con = k;
  return 0;
}

int dg_fl_connect_link(fl *f, const dg_link *l, const int *where,
                       const int *isinst, int a, int b) {
  rawcon c = {0, 0, 0, 0, l->line};
  if (resolve(f, l, &l->from, "a", where, isinst, a, &c.a_node, &c.a_con) ||
      resolve(f, l, &l->to, "b", where, isinst, b, &c.b_node, &c.b_con))
    return -1;
  if (f->ncon == f->capcon) {
    int nc = f->capcon ? 2 * f->capcon : 16;
    rawcon *p = realloc(f->con, (size_t)nc * sizeof *p);
    if (!p) return dg_fl_nomem(f);
    f->con = p;
    f->capcon = nc;
  }
  f->con[f->ncon++] = c;
  return 0;
}

static int same_domain(const bsim_domain *a, const bsim_domain *b) {
  return a == b || (a && b && strcmp(a->name, b->name) == 0 &&
                    a->npot == b->npot && a->nflow == b->nflow);
}

/* The first leaf connector met in each set, for messages. */
typedef struct member {
  int node, con;
} member;

static int mismatch(fl *f, const member *a, const member *b, int line) {
  const node *na = &f->nodes[a->node], *nb = &f->nodes[b->node];
  const bsim_domain *da = na->model.condom[a->con],
                    *db = nb->model.condom[b->con];
  char where[32] = "";
  if (line > 0) snprintf(where, sizeof where, ":%d", line);
  bsim_error_set(f->err, BSIM_ERR_INPUT,
                 "%s%s: connector '%s' of block '%s' (%s domain) is joined "
                 "to connector '%s' of block '%s' (%s domain): connectors "
                 "join only within one domain (hint: remove the link)",
                 f->file, where, na->model.conname[a->con], na->path,
                 da ? da->name : "no", nb->model.conname[b->con], nb->path,
                 db ? db->name : "no");
  return -1;
}

int dg_fl_connection_sets(fl *f, bsim_flat *out) {
  int *base = calloc((size_t)f->nnodes + 1, sizeof *base);
  int rc = base ? 0 : dg_fl_nomem(f);
  for (int i = 0; rc == 0 && i < f->nnodes; i++) {
    const node *nd = &f->nodes[i];
    base[i + 1] = base[i] + (nd->role == LEAF       ? nd->model.ncon
                             : nd->role == CON_PORT ? 1
                                                    : 0);
  }
  int nslots = rc == 0 ? base[f->nnodes] : 0;
  int *parent = malloc(sizeof(int) * (size_t)(nslots ? nslots : 1));
  int *id = malloc(sizeof(int) * (size_t)(nslots ? nslots : 1));
  int *line = calloc((size_t)(nslots ? nslots : 1), sizeof(int));
  member *first = malloc(sizeof(member) * (size_t)(nslots ? nslots : 1));
  if (rc == 0 && (!parent || !id || !line || !first)) rc = dg_fl_nomem(f);
  for (int i = 0; rc == 0 && i < nslots; i++) {
    parent[i] = i;
    id[i] = -1;
    first[i].node = -1;
  }
  for (int c = 0; rc == 0 && c < f->ncon; c++) {
    int x = dg_set_root(parent, base[f->con[c].a_node] + f->con[c].a_con);
    int y = dg_set_root(parent, base[f->con[c].b_node] + f->con[c].b_con);
    if (x != y) parent[y] = x;
    if (!line[x]) line[x] = f->con[c].line;
  }
  for (int c = 0; rc == 0 && c < f->ncon; c++) {
    int r = dg_set_root(parent, base[f->con[c].a_node] + f->con[c].a_con);
    if (!line[r]) line[r] = f->con[c].line;
  }
  /* Sets numbered in flat block order, connectors in order. */
  int nsets = 0;
  for (int i = 0; rc == 0 && i < f->nnodes; i++) {
    const node *nd = &f->nodes[i];
    if (nd->role != LEAF || nd->model.ncon == 0) continue;
    bsim_flat_block *fb = &out->blocks[nd->flat];
    if (!(fb->con_node = malloc(sizeof(int) * (size_t)nd->model.ncon))) {
      rc = dg_fl_nomem(f);
      break;
    }
    for (int k = 0; k < nd->model.ncon && rc == 0; k++) {
      int r = dg_set_root(parent, base[i] + k);
      if (first[r].node < 0) {
        first[r] = (member){i, k};
        id[r] = nsets++;
      } else if (!same_domain(
                     f->nodes[first[r].node].model.condom[first[r].con],
                     nd->model.condom[k])) {
        member me = {i, k};
        rc = mismatch(f, &first[r], &me, line[r]);
      }
      fb->con_node[k] = id[r];
    }
  }
  if (rc == 0 && nsets > 0) {
    out->nodes = calloc((size_t)nsets, sizeof *out->nodes);
    if (!out->nodes) rc = dg_fl_nomem(f);
    for (int s = 0; rc == 0 && s < nslots; s++)
      if (parent[s] == s && id[s] >= 0) {
        out->nodes[id[s]].dom =
            f->nodes[first[s].node].model.condom[first[s].con];
        out->nodes[id[s]].line = line[s];
      }
    if (rc == 0) out->nnodes = nsets;
  }
  free(base);
  free(parent);
  free(id);
  free(line);
  free(first);
  return rc;
}
