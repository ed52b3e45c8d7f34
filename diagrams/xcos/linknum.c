/*
 * Xcos's numbering of its link buffers, which a CFSCOPE reads by number.
 * Scilab's compiler numbers them from the whole diagram, split points and
 * superblock ports included, and the order it produces is not the order
 * of the links in the file; this file reproduces it on the reader's levels
 * so that a CFSCOPE of an Xcos file reads in blocksim what it reads in
 * Scilab:
 *
 * 1. The flattening walks the blocks of a level in file order, a
 *    superblock's contents at its place, and gives a node number, from one
 *    counter, to every split point, GOTO, FROM, visibility block and
 *    sample clock, and to every port of a superblock (its data inputs,
 *    data outputs, event inputs, event outputs, each kind numbered from
 *    the counter before the superblock's contents). The links of a level
 *    follow its superblocks' links in the one table, in file order, and a
 *    link's end on such a block names its node (a port block inside names
 *    its superblock's port); the links out of a FROM name the node of its
 *    GOTO.
 * 2. The nodes are then dissolved in the order of their numbers: the nets
 *    (sets of link ends) touching a node become one new net, numbered
 *    before every net so far; a net left with a single end disappears.
 * 3. The nets are taken in the order of their numbers; each output port
 *    gets the next link number at the first net that joins it to an
 *    input. Outputs that feed nothing follow, in the order of the blocks.
 *
 * Not reproduced: Scilab's own dissolving of a split point left with two
 * links when it deletes a block whose inputs are not all connected, and
 * "asuper" blocks, which Scilab compiles as one block (blocksim dissolves
 * them like superblocks).
 */
#include <stdlib.h>
#include <string.h>

#include "diagrams/xcos/xcos_int.h"

/* One end of a data link: a block port (real >= 0, the block's number in
 * Scilab's order) or a node (fict >= 1). */
typedef struct lend {
  int real, port; /* port index in the xc_block */
  int fict;
  int out; /* the end is an output */
  int net; /* the link's number, then its net's */
  int dead;
} lend;

enum { T_GOTO, T_FROM, T_VIS };

typedef struct tagblk {
  int kind, level, fict;
  const char *tag, *vis; /* GOTO: its visibility "1", "2", "3" */
  int taken;
} tagblk;

typedef struct numbering {
  xc_ctx *c;
  int fict;   /* last node number given */
  int nlinks; /* links met so far */
  lend *ends;
  int nends, capends;
  xc_block **blocks; /* real blocks in Scilab's order */
  int nblocks, capblocks;
  tagblk *tags;
  int ntags, captags;
  int *parent; /* each level's enclosing level (-1 for the top) */
  int nlevels, caplevels;
} numbering;

static int grow(void **p, int n, int *cap, size_t size) {
  if (n < *cap) return 0;
  int nc = *cap ? 2 * *cap : 64;
  void *g = realloc(*p, (size_t)nc * size);
  if (!g) return -1;
  *p = g;
  *cap = nc;
  return 0;
}

static int is_gui(const xc_block *b, const char *const *names) {
  for (; *names; names++)
    if (b->gui && strcmp(b->gui, *names) == 0) return 1;
  return 0;
}

/* Blocks the flattening turns into nodes (scicos_flat's "blocks to
 * remove" and its clocks). */
static int node_block(const xc_block *b) {
  static const char *const guis[] = {"CLKSPLIT_f",
                                     "SPLIT_f",
                                     "IMPSPLIT_f",
                                     "CLKSOM_f",
                                     "CLKSOMV_f",
                                     "NRMSOM_f",
                                     "PAL_f",
                                     "xcos_block",
                                     "SampleCLK",
                                     "VirtualCLK0",
                                     "CLKGOTO",
                                     "CLKFROM",
                                     "CLKGotoTagVisibility",
                                     "GOTOMO",
                                     "FROMMO",
                                     "GotoTagVisibilityMO",
                                     NULL};
  return b->kind == XB_SPLIT || is_gui(b, guis);
}

static int port_kind_index(int kind) {
  return kind == XP_IN ? 0 : kind == XP_OUT ? 1 : kind == XP_EVIN ? 2 : 3;
}

/* Per block of a level: its node (fict), its real number, or for a
 * superblock the node before each kind of its ports (pind[0..3]) and how
 * many ports of each kind it has (pind[4..7]: a port number beyond them,
 * which only a damaged file holds, names no node). */
typedef struct where {
  int fict, real;
  int pind[8];
} where;

static int number_level(numbering *nb, xc_level *l, const char *path,
                        const int *pind, int parent);

static int add_tag(numbering *nb, const xc_block *b, int kind, int level,
                   int fict) {
  if (grow((void **)&nb->tags, nb->ntags, &nb->captags, sizeof *nb->tags))
    return -1;
  const char *tag = sciv_str(b->exprs, 0);
  const char *vis = sciv_str(b->exprs, 1);
  nb->tags[nb->ntags++] =
      (tagblk){kind, level, fict, tag ? tag : "", vis ? vis : "", 0};
  return 0;
}

/* The node or block port a link end names; 0 when it names none
 * (event ports are never numbered, links to them are skipped). */
static int link_end(const xc_level *l, const where *w, const int *pind, int b,
                    int p, lend *e) {
  const xc_block *xb = &l->blocks[b];
  int kind = xb->ports[p].kind;
  memset(e, 0, sizeof *e);
  e->real = -1;
  e->out = kind == XP_OUT || kind == XP_EVOUT;
  if (xb->port_role && pind) {
    /* inside: the port block stands for its superblock's port */
    int k = strcmp(xb->port_role, "IN_f") == 0    ? 0
            : strcmp(xb->port_role, "OUT_f") == 0 ? 1
                                                  : -1;
    if (k < 0) return 0;
    int no = xc_int_or(sciv_num(xb->ipar, 0, -1), -1);
    if (no < 1) no = atoi(sciv_str(xb->exprs, 0) ? sciv_str(xb->exprs, 0) : "");
    e->fict = pind[k] + no;
    return no >= 1 && no <= pind[4 + k];
  }
  if (xb->child) {
    int k = port_kind_index(kind), no = xc_port_number(xb, p);
    e->fict = w[b].pind[k] + no;
    return no >= 1 && no <= w[b].pind[4 + k];
  }
  if (w[b].fict) {
    e->fict = w[b].fict;
    return 1;
  }
  if (w[b].real < 0) return 0;
  e->real = w[b].real;
  e->port = p;
  return 1;
}

static int add_links(numbering *nb, const xc_level *l, const where *w,
                     const int *pind, const char *alive) {
  for (int i = 0; i < l->nlinks; i++) {
    const xc_link *k = &l->links[i];
    nb->nlinks++;
    if (k->kind != 0 || !alive[k->from_block] || !alive[k->to_block]) continue;
    lend a, b;
    if (!link_end(l, w, pind, k->from_block, k->from_port, &a) ||
        !link_end(l, w, pind, k->to_block, k->to_port, &b))
      continue;
    if (grow((void **)&nb->ends, nb->nends + 1, &nb->capends, sizeof *nb->ends))
      return -1;
    a.net = b.net = nb->nlinks;
    nb->ends[nb->nends++] = a;
    nb->ends[nb->nends++] = b;
  }
  return 0;
}

static int number_level(numbering *nb, xc_level *l, const char *path,
                        const int *pind, int parent) {
  if (grow((void **)&nb->parent, nb->nlevels, &nb->caplevels,
           sizeof *nb->parent))
    return xc_nomem(nb->c);
  int level = nb->nlevels++;
  nb->parent[level] = parent;
  char *alive = malloc((size_t)(l->nblocks ? l->nblocks : 1));
  where *w = calloc((size_t)(l->nblocks ? l->nblocks : 1), sizeof *w);
  xc_wire *wires = NULL;
  int nwires = 0, rc = alive && w ? 0 : xc_nomem(nb->c);
  if (rc == 0) rc = xc_resolve_links(nb->c, l, path, &wires, &nwires, alive, 0);
  free(wires);
  for (int i = 0; i < l->nblocks && rc == 0; i++) {
    xc_block *b = &l->blocks[i];
    w[i].real = -1;
    if (!alive[i] || (b->port_role && pind)) continue;
    static const char *const tags[] = {"GOTO", "FROM", "GotoTagVisibility",
                                       NULL};
    if (node_block(b) || is_gui(b, tags)) {
      w[i].fict = ++nb->fict;
      for (int k = 0; tags[k]; k++)
        if (strcmp(b->gui, tags[k]) == 0 && add_tag(nb, b, k, level, w[i].fict))
          rc = xc_nomem(nb->c);
    } else if (b->child) {
      int count[4] = {0, 0, 0, 0};
      for (int p = 0; p < b->nports; p++)
        if (b->ports[p].kind <= XP_EVOUT)
          count[port_kind_index(b->ports[p].kind)]++;
      for (int k = 0; k < 4; k++) {
        w[i].pind[k] = nb->fict;
        w[i].pind[4 + k] = count[k];
        nb->fict += count[k];
      }
      rc = number_level(nb, b->child, path, w[i].pind, level);
    } else {
      if (grow((void **)&nb->blocks, nb->nblocks, &nb->capblocks,
               sizeof *nb->blocks))
        rc = xc_nomem(nb->c);
      else {
        w[i].real = nb->nblocks;
        nb->blocks[nb->nblocks++] = b;
      }
    }
  }
  if (rc == 0 && add_links(nb, l, w, pind, alive)) rc = xc_nomem(nb->c);
  free(alive);
  free(w);
  return rc;
}

static int encloses(const numbering *nb, int outer, int level) {
  for (; level >= 0; level = nb->parent[level])
    if (level == outer) return 1;
  return 0;
}

/* The GOTO a FROM reads (as tags.c pairs them): a local GOTO of its level;
 * else the scoped GOTO under the innermost visibility block of the tag
 * enclosing it; else the global GOTO. Its node, or 0. */
static int goto_of(numbering *nb, const tagblk *from) {
  for (int i = 0; i < nb->ntags; i++) {
    const tagblk *g = &nb->tags[i];
    if (g->kind == T_GOTO && !strcmp(g->vis, "1") && g->level == from->level &&
        !strcmp(g->tag, from->tag))
      return g->fict;
  }
  for (int lv = from->level; lv >= 0; lv = nb->parent[lv])
    for (int v = 0; v < nb->ntags; v++) {
      const tagblk *vb = &nb->tags[v];
      if (vb->kind != T_VIS || vb->level != lv || strcmp(vb->tag, from->tag))
        continue;
      for (int i = 0; i < nb->ntags; i++) {
        const tagblk *g = &nb->tags[i];
        if (g->kind == T_GOTO && !strcmp(g->vis, "2") &&
            !strcmp(g->tag, from->tag) && encloses(nb, lv, g->level))
          return g->fict;
      }
    }
  for (int i = 0; i < nb->ntags; i++) {
    const tagblk *g = &nb->tags[i];
    if (g->kind == T_GOTO && !strcmp(g->vis, "3") && !strcmp(g->tag, from->tag))
      return g->fict;
  }
  return 0;
}

static int find(int *up, int i) {
  while (up[i] != i)
    i = up[i] = up[up[i]];
  return i;
}

/* Step 2: dissolve the nodes in order. Nets are union-find sets over the
 * link numbers 1..nlinks and the merged nets made here (after them);
 * label[] is each set's number (merged nets: 0, -1, -2, ...). */
static int dissolve(numbering *nb, int **label_out, int **up_out) {
  int nsets = nb->nlinks + nb->fict + 1;
  int *up = malloc((size_t)nsets * sizeof *up);
  int *label = malloc((size_t)nsets * sizeof *label);
  int *live = calloc((size_t)nsets, sizeof *live);
  int *first = malloc((size_t)(nb->fict + 1) * sizeof *first);
  int *next = malloc((size_t)(nb->nends ? nb->nends : 1) * sizeof *next);
  if (!up || !label || !live || !first || !next) {
    free(up), free(label), free(live), free(first), free(next);
    return -1;
  }
  for (int i = 0; i < nsets; i++)
    up[i] = i, label[i] = i;
  for (int f = 0; f <= nb->fict; f++)
    first[f] = -1;
  for (int e = nb->nends - 1; e >= 0; e--) {
    live[nb->ends[e].net]++;
    if (nb->ends[e].fict) {
      next[e] = first[nb->ends[e].fict];
      first[nb->ends[e].fict] = e;
    }
  }
  int sets = nb->nlinks + 1, count = 0;
  for (int f = 1; f <= nb->fict; f++) {
    if (first[f] < 0) continue;
    int root = -1, total = 0;
    for (int e = first[f]; e >= 0; e = next[e]) {
      int r = find(up, nb->ends[e].net);
      nb->ends[e].dead = 1;
      live[r]--;
    }
    /* the nets touching the node, joined */
    for (int e = first[f]; e >= 0; e = next[e]) {
      int r = find(up, nb->ends[e].net);
      if (r == root) continue;
      if (root < 0) {
        root = sets++;
        up[root] = root;
        live[root] = 0;
      }
      total += live[r];
      live[r] = 0;
      up[r] = root;
    }
    live[root] = total;
    if (total > 1) {
      label[root] = count--;
    } else {
      /* a net with a single end left disappears with it */
      for (int e = 0; e < nb->nends; e++)
        if (!nb->ends[e].dead && find(up, nb->ends[e].net) == root)
          nb->ends[e].dead = 1;
      live[root] = 0;
      label[root] = count; /* never read: no live end */
    }
  }
  free(live);
  free(first);
  free(next);
  *label_out = label;
  *up_out = up;
  return 0;
}

typedef struct netend {
  int label, index;
} netend;

static int by_net(const void *a, const void *b) {
  const netend *x = a, *y = b;
  if (x->label != y->label) return x->label < y->label ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index);
}

/* Step 3: link numbers into each real block's linknum. */
static int assign(numbering *nb, const int *label, int *up) {
  netend *order = malloc((size_t)(nb->nends ? nb->nends : 1) * sizeof *order);
  if (!order) return -1;
  int n = 0;
  for (int e = 0; e < nb->nends; e++)
    if (!nb->ends[e].dead && nb->ends[e].real >= 0)
      order[n++] = (netend){label[find(up, nb->ends[e].net)], e};
  qsort(order, (size_t)n, sizeof *order, by_net);
  int next = 0;
  for (int i = 0; i < n;) {
    int j = i, inputs = 0;
    while (j < n && order[j].label == order[i].label)
      inputs += !nb->ends[order[j++].index].out;
    for (int k = i; inputs && k < j; k++) {
      const lend *e = &nb->ends[order[k].index];
      xc_block *b = nb->blocks[e->real];
      if (e->out && b->ports[e->port].kind == XP_OUT && !b->linknum[e->port])
        b->linknum[e->port] = ++next;
    }
    i = j;
  }
  for (int r = 0; r < nb->nblocks; r++) {
    xc_block *b = nb->blocks[r];
    for (int p = 0; p < b->nports; p++)
      if (b->ports[p].kind == XP_OUT && !b->linknum[p]) b->linknum[p] = ++next;
  }
  free(order);
  return 0;
}

int xc_number_links(xc_ctx *c, xc_level *top) {
  numbering nb = {0};
  nb.c = c;
  int rc = number_level(&nb, top, "", NULL, -1);
  /* the links out of a FROM leave from its GOTO */
  for (int t = 0; rc == 0 && t < nb.ntags; t++) {
    if (nb.tags[t].kind != T_FROM) continue;
    int g = goto_of(&nb, &nb.tags[t]);
    for (int e = 0; g && e < nb.nends; e++)
      if (nb.ends[e].fict == nb.tags[t].fict) nb.ends[e].fict = g;
  }
  for (int r = 0; rc == 0 && r < nb.nblocks; r++) {
    xc_block *b = nb.blocks[r];
    free(b->linknum);
    if (!(b->linknum =
              calloc((size_t)(b->nports ? b->nports : 1), sizeof *b->linknum)))
      rc = xc_nomem(c);
  }
  int *label = NULL, *up = NULL;
  if (rc == 0 && (dissolve(&nb, &label, &up) || assign(&nb, label, up)))
    rc = xc_nomem(c);
  free(label);
  free(up);
  free(nb.ends);
  free(nb.blocks);
  free(nb.tags);
  free(nb.parent);
  return rc;
}
