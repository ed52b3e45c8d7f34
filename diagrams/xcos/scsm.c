/*
 * Scilab's own diagram structure (scs_m) read into an xc_level. Scilab 5.5
 * files store the contents of "csuper" blocks (CLOCK_c, freq_div,
 * STEP_FUNCTION, ...) this way, as the block's real parameters:
 *   diagram mlist: props (tlist, with the context), objs (list)
 *   Block mlist:   graphics (exprs, id = label, in_implicit, out_implicit),
 *                  model (sim, in, in2, out, out2, evtin, evtout, state,
 *                  dstate, odstate, rpar, ipar, opar, firing, dep_ut,
 *                  label, nzcross, nmode), gui
 *   Link mlist:    ct = [colour, kind (1 data, -1 event, 2 implicit)],
 *                  from / to = [object number, port number, 0 out / 1 in]
 * Ports are positional here: a block gets its inputs, outputs, event
 * inputs and event outputs in that order, numbered from 1 within each.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/xcos/xcos_int.h"

static int bad(xc_ctx *c, const char *where, const char *what) {
  bsim_error_set(c->err, BSIM_ERR_INPUT,
                 "%s: superblock '%s': %s (the stored diagram is damaged)",
                 c->file, where, what);
  return -1;
}

static sciv *dup_field(const sciv *m, const char *name) {
  const sciv *f = sciv_field(m, name);
  return f ? sciv_copy(f) : NULL;
}

static char *dup_str(const sciv *v) {
  const char *s = sciv_str(v, 0);
  return strdup(s ? s : "");
}

/* Ports of one side from a size vector and the implicit flags. */
static int add_ports(xc_block *b, const sciv *rows, const sciv *cols,
                     const sciv *implicit, int kind, int impkind) {
  int n = sciv_numel(rows);
  if (!sciv_is_real(rows)) n = 0;
  for (int i = 0; i < n; i++) {
    xc_port *p = xc_add_port(b);
    if (!p) return -1;
    const char *imp = sciv_str(implicit, i);
    p->kind = imp && strcmp(imp, "I") == 0 ? impkind : kind;
    p->ordering = i + 1;
    p->rows = xc_int_or(sciv_num(rows, i, -1), -1);
    p->cols = xc_int_or(sciv_num(cols, i, 1), -2);
    p->firing = -1;
  }
  return 0;
}

static int add_event_ports(xc_block *b, const sciv *ev, const sciv *firing,
                           int kind) {
  int n = sciv_is_real(ev) ? sciv_numel(ev) : 0;
  for (int i = 0; i < n; i++) {
    xc_port *p = xc_add_port(b);
    if (!p) return -1;
    p->kind = kind;
    p->ordering = i + 1;
    p->rows = p->cols = 1;
    p->firing = kind == XP_EVOUT ? sciv_num(firing, i, -1) : -1;
  }
  return 0;
}

static int read_block(xc_ctx *c, xc_level *l, const sciv *o, const char *where,
                      int line) {
  const sciv *g = sciv_field(o, "graphics"), *m = sciv_field(o, "model");
  if (!g || !m) return bad(c, where, "a block without graphics or model");
  xc_block *b = xc_add_block(l);
  if (!b) return xc_nomem(c);
  b->line = line; /* the stored diagram has no lines: its superblock's */
  b->gui = dup_str(sciv_field(o, "gui"));
  const sciv *sim = sciv_field(m, "sim");
  if (sciv_is_list(sim)) {
    b->sim = dup_str(sciv_item(sim, 0));
    b->simtype = xc_int_or(sciv_num(sciv_item(sim, 1), 0, 0), 0);
  } else {
    b->sim = dup_str(sim);
  }
  const char *id = sciv_str(sciv_field(g, "id"), 0);
  const char *label = sciv_str(sciv_field(m, "label"), 0);
  b->label = strdup(id && id[0] ? id : label ? label : "");
  if (!b->gui || !b->sim || !b->label) return xc_nomem(c);
  if (strcmp(b->gui, "SPLIT_f") == 0 || strcmp(b->gui, "CLKSPLIT_f") == 0 ||
      strcmp(b->gui, "IMPSPLIT_f") == 0)
    b->kind = XB_SPLIT;
  static const char *const roles[][2] = {
      {"IN_f", "IN_f"},         {"OUT_f", "OUT_f"},
      {"CLKINV_f", "CLKINV_f"}, {"CLKOUTV_f", "CLKOUTV_f"},
      {"CLKIN_f", "CLKINV_f"},  {"CLKOUT_f", "CLKOUTV_f"},
      {"INIMPL_f", "INIMPL_f"}, {"OUTIMPL_f", "OUTIMPL_f"}};
  for (size_t i = 0; i < sizeof roles / sizeof roles[0]; i++)
    if (strcmp(b->gui, roles[i][0]) == 0 &&
        !(b->port_role = strdup(roles[i][1])))
      return xc_nomem(c);
  const sciv *dep = sciv_field(m, "dep_ut");
  b->dep_u = sciv_num(dep, 0, 0) != 0;
  b->dep_t = sciv_num(dep, 1, 0) != 0;
  const char *names[] = {"rpar",    "ipar",    "opar",  "state",  "dstate",
                         "odstate", "nzcross", "nmode", "firing", "equations"};
  sciv **slots[] = {&b->rpar,   &b->ipar,     &b->opar,    &b->state,
                    &b->dstate, &b->odstate,  &b->nzcross, &b->nmode,
                    &b->firing, &b->equations};
  for (int k = 0; k < 10; k++)
    if (sciv_field(m, names[k]) && !(*slots[k] = dup_field(m, names[k])))
      return xc_nomem(c);
  if (sciv_field(g, "exprs") && !(b->exprs = dup_field(g, "exprs")))
    return xc_nomem(c);
  if (add_ports(b, sciv_field(m, "in"), sciv_field(m, "in2"),
                sciv_field(g, "in_implicit"), XP_IN, XP_IMPIN) ||
      add_ports(b, sciv_field(m, "out"), sciv_field(m, "out2"),
                sciv_field(g, "out_implicit"), XP_OUT, XP_IMPOUT) ||
      add_event_ports(b, sciv_field(m, "evtin"), NULL, XP_EVIN) ||
      add_event_ports(b, sciv_field(m, "evtout"), b->firing, XP_EVOUT))
    return xc_nomem(c);
  const char *tn = sciv_type_name(b->rpar);
  if (tn && strcmp(tn, "diagram") == 0) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", where, b->gui);
    b->child = xc_level_from_scsm(c, b->rpar, path, line);
    if (!b->child) return -1;
  }
  return 0;
}

/* Index of the port (kind, number) among a block's ports, or -1. */
static int find_port(const xc_block *b, int side_out, int event, int number) {
  for (int i = 0; i < b->nports; i++) {
    int k = b->ports[i].kind;
    int out = k == XP_OUT || k == XP_IMPOUT || k == XP_EVOUT;
    int ev = k == XP_EVIN || k == XP_EVOUT;
    if (out == side_out && ev == event && b->ports[i].ordering == number)
      return i;
  }
  return -1;
}

/* A link of the stored diagram with both ways it can be read: Scilab
 * marks each end as an output (0) or input (1) side, but Scilab 5.5 files
 * get the marks wrong on some event links, so the marks are only a
 * preference. */
typedef struct slink {
  int kind, block[2], way_port[2][2]; /* [way][end]: port index or -1 */
  int way;                            /* chosen way, -1 undecided */
} slink;

static int read_link(xc_ctx *c, xc_level *l, const sciv *o, const int *blockof,
                     int nobjs, const char *where, slink *sl) {
  const sciv *ct = sciv_field(o, "ct");
  const sciv *ends[2] = {sciv_field(o, "from"), sciv_field(o, "to")};
  int kind = xc_int_or(sciv_num(ct, 1, 1), 1), ev = kind == -1, num[2];
  for (int k = 0; k < 2; k++) {
    double ob = sciv_num(ends[k], 0, 0), port = sciv_num(ends[k], 1, 0);
    if (ob < 1 || ob > nobjs || ob != floor(ob) || blockof[(int)ob - 1] < 0)
      return bad(c, where, "a link to an object that is not a block");
    sl->block[k] = blockof[(int)ob - 1];
    num[k] = port >= 1 && port < 1e6 ? (int)port : 0;
  }
  sl->kind = ev ? 1 : kind == 2 ? 2 : 0;
  sl->way = -1;
  int from_out = sciv_num(ends[0], 2, 0) == 0;
  for (int w = 0; w < 2; w++) { /* way 0 as marked, way 1 reversed */
    int out0 = w ? !from_out : from_out;
    sl->way_port[w][0] = find_port(&l->blocks[sl->block[0]], out0, ev, num[0]);
    sl->way_port[w][1] = find_port(&l->blocks[sl->block[1]], !out0, ev, num[1]);
  }
  if ((sl->way_port[0][0] < 0 || sl->way_port[0][1] < 0) &&
      (sl->way_port[1][0] < 0 || sl->way_port[1][1] < 0)) {
    char what[256];
    snprintf(what, sizeof what,
             "link to a missing port: %s port %d of block %s to port %d of "
             "block %s",
             ev ? "event" : "data", num[0], l->blocks[sl->block[0]].gui, num[1],
             l->blocks[sl->block[1]].gui);
    return bad(c, where, what);
  }
  return 0;
}

/* Each port takes one link: decide the links that can be read one way
 * only given the ports already taken, repeatedly; the rest follow their
 * marks. */
static int place_links(xc_ctx *c, xc_level *l, slink *sl, int n) {
  int total = 0, *base = calloc((size_t)l->nblocks + 1, sizeof *base);
  if (!base) return xc_nomem(c);
  for (int b = 0; b < l->nblocks; b++)
    total += l->blocks[b].nports, base[b + 1] = total;
  char *used = calloc((size_t)(total ? total : 1), 1);
  if (!used) {
    free(base);
    return xc_nomem(c);
  }
  for (int pass = 0, progress = 1; progress; pass++) {
    progress = 0;
    for (int i = 0; i < n; i++) {
      if (sl[i].way >= 0) continue;
      int ok[2];
      for (int w = 0; w < 2; w++) {
        int p0 = sl[i].way_port[w][0], p1 = sl[i].way_port[w][1];
        ok[w] = p0 >= 0 && p1 >= 0 && !used[base[sl[i].block[0]] + p0] &&
                !used[base[sl[i].block[1]] + p1];
      }
      int way = ok[0] && !ok[1] ? 0 : ok[1] && !ok[0] ? 1 : -1;
      if (way < 0 && pass > 0 && !progress) way = ok[0] ? 0 : ok[1] ? 1 : -1;
      if (way < 0) continue;
      sl[i].way = way;
      used[base[sl[i].block[0]] + sl[i].way_port[way][0]] = 1;
      used[base[sl[i].block[1]] + sl[i].way_port[way][1]] = 1;
      progress = 1;
    }
  }
  int rc = 0;
  for (int i = 0; i < n && rc == 0; i++) {
    int w = sl[i].way >= 0 ? sl[i].way : sl[i].way_port[0][0] >= 0 ? 0 : 1;
    xc_link *x = xc_add_link(l);
    if (!x) {
      rc = xc_nomem(c);
      break;
    }
    x->kind = sl[i].kind;
    x->from_block = sl[i].block[0];
    x->from_port = sl[i].way_port[w][0];
    x->to_block = sl[i].block[1];
    x->to_port = sl[i].way_port[w][1];
  }
  free(base);
  free(used);
  return rc;
}

xc_level *xc_level_from_scsm(xc_ctx *c, const sciv *diagram, const char *where,
                             int line) {
  const sciv *objs = sciv_field(diagram, "objs");
  const sciv *props = sciv_field(diagram, "props");
  xc_level *l = calloc(1, sizeof *l);
  int n = sciv_is_list(objs) ? objs->nitems : 0;
  int *blockof = calloc((size_t)(n ? n : 1), sizeof *blockof);
  int rc = l && blockof ? 0 : xc_nomem(c);
  if (l) l->line = line;
  const sciv *ctx = sciv_field(props, "context");
  if (rc == 0 && ctx && ctx->kind == SCIV_STRING) {
    size_t len = 1;
    for (int i = 0; i < sciv_numel(ctx); i++)
      len += strlen(ctx->str[i] ? ctx->str[i] : "") + 1;
    if (!(l->context = calloc(len, 1))) rc = xc_nomem(c);
    for (int i = 0; rc == 0 && i < sciv_numel(ctx); i++) {
      strcat(l->context, ctx->str[i] ? ctx->str[i] : "");
      strcat(l->context, "\n");
    }
  }
  for (int i = 0; i < n && rc == 0; i++) {
    const char *t = sciv_type_name(objs->items[i]);
    blockof[i] = -1;
    if (t && strcmp(t, "Block") == 0) {
      blockof[i] = l->nblocks;
      rc = read_block(c, l, objs->items[i], where, line);
    }
  }
  slink *sl = calloc((size_t)(n ? n : 1), sizeof *sl);
  int nl = 0;
  if (rc == 0 && !sl) rc = xc_nomem(c);
  for (int i = 0; i < n && rc == 0; i++) {
    const char *t = sciv_type_name(objs->items[i]);
    if (t && strcmp(t, "Link") == 0)
      rc = read_link(c, l, objs->items[i], blockof, n, where, &sl[nl++]);
  }
  if (rc == 0) rc = place_links(c, l, sl, nl);
  free(sl);
  free(blockof);
  if (rc) {
    xc_level_free(l);
    return NULL;
  }
  return l;
}
