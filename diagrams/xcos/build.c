/*
 * From an Xcos level to the Diagram tree: blocks get names (their label
 * when it is a valid name unique among its siblings, else GUI_n), links
 * (resolved through split blocks by nets.c) join ports by number as the
 * native format does, an unconnected input of SUM_f / SOM_f reads zeros
 * (a ZEROS block), superblocks recurse with their context and, for masked
 * superblocks, the mask's parameters as statements before it. What a
 * block computes with (parameters or the stored model) is params.c's
 * business.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/xcos/xcos_int.h"

/* Letters, digits, '_' and '-', not starting with a digit or '-': safe in
 * paths, port references, -p targets and file names. */
static int valid_name(const char *s) {
  if (!s || !*s || isdigit((unsigned char)*s) || *s == '-') return 0;
  for (; *s; s++)
    if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-') return 0;
  return 1;
}

/* A label as Xcos shows it: Xcos stores some as HTML ("<html><body>
 * MScope </body></html>"); tags are dropped and blanks trimmed, as Scilab
 * does when it exports them. Into buf (size n). */
static const char *plain_label(const char *label, char *buf, size_t n) {
  size_t k = 0;
  int in_tag = 0;
  for (const char *p = label ? label : ""; *p && k + 1 < n; p++) {
    if (*p == '<')
      in_tag = 1;
    else if (*p == '>')
      in_tag = 0;
    else if (!in_tag)
      buf[k++] = *p;
  }
  buf[k] = '\0';
  while (k > 0 && isspace((unsigned char)buf[k - 1]))
    buf[--k] = '\0';
  char *start = buf;
  while (isspace((unsigned char)*start))
    start++;
  return start;
}

/* names[i] for every live non-split block i (NULL for the others). */
static char **block_names(xc_ctx *c, const xc_level *l, const char *alive) {
  int n = l->nblocks;
  char **names = calloc((size_t)(n ? n : 1), sizeof *names);
  if (!names) return NULL;
  for (int i = 0; i < n; i++) {
    const xc_block *b = &l->blocks[i];
    char bi[256], bk[256];
    const char *label = plain_label(b->label, bi, sizeof bi);
    if (b->kind == XB_SPLIT || !alive[i] || !valid_name(label)) continue;
    int count = 0;
    for (int k = 0; k < n; k++)
      count +=
          l->blocks[k].kind != XB_SPLIT && alive[k] &&
          strcmp(plain_label(l->blocks[k].label, bk, sizeof bk), label) == 0;
    if (count == 1 && !(names[i] = strdup(label))) goto nomem;
  }
  for (int i = 0; i < n; i++) {
    const xc_block *b = &l->blocks[i];
    if (b->kind == XB_SPLIT || !alive[i] || names[i]) continue;
    size_t len = strlen(b->gui) + 16;
    if (!(names[i] = malloc(len))) goto nomem;
    for (int k = 1;; k++) {
      snprintf(names[i], len, "%s_%d", valid_name(b->gui) ? b->gui : "block",
               k);
      int clash = 0;
      for (int j = 0; j < n && !clash; j++)
        clash = j != i && names[j] && strcmp(names[j], names[i]) == 0;
      if (!clash) break;
    }
  }
  return names;
nomem:
  for (int i = 0; i < n; i++)
    free(names[i]);
  free(names);
  xc_nomem(c);
  return NULL;
}

int xc_port_number(const xc_block *b, int p) {
  if (b->ports[p].ordering >= 1) return b->ports[p].ordering;
  int k = 1;
  for (int i = 0; i < p; i++)
    k += b->ports[i].kind == b->ports[p].kind;
  return k;
}

static char *join(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  char *s = malloc(la + lb + 2);
  if (!s) return NULL;
  memcpy(s, a, la);
  s[la] = la ? '/' : '\0';
  memcpy(s + la + (la ? 1 : 0), b, lb + 1);
  return s;
}

/* Scilab statements that are only separators need no interpreter. */
static int blank_script(const char *s) {
  for (; s && *s; s++)
    if (!isspace((unsigned char)*s) && *s != ';' && *s != ',') return 0;
  return 1;
}

/* A masked superblock's exprs: list(values, list(names, title, types)). */
static int mask_statements(xc_ctx *c, const xc_block *b, char **script) {
  const sciv *values = sciv_item(b->exprs, 0);
  const sciv *names = sciv_item(sciv_item(b->exprs, 1), 0);
  int n = values && values->kind == SCIV_STRING ? sciv_numel(values) : 0;
  if (!n) return 0;
  if (!names || names->kind != SCIV_STRING || sciv_numel(names) != n) {
    bsim_error_set(c->err, BSIM_ERR_INPUT,
                   "%s:%d: masked superblock %s: %d parameter values but %d "
                   "names (the file is damaged)",
                   c->file, b->line, b->gui, n, sciv_numel(names));
    return -1;
  }
  size_t len = *script ? strlen(*script) : 0;
  for (int i = 0; i < n; i++)
    len += strlen(names->str[i]) + strlen(values->str[i]) + 4;
  char *s = malloc(len + 1);
  if (!s) return xc_nomem(c);
  s[0] = '\0';
  for (int i = 0; i < n; i++) {
    strcat(s, names->str[i]);
    strcat(s, "=");
    strcat(s, values->str[i]);
    strcat(s, ";\n");
  }
  if (*script) strcat(s, *script);
  free(*script);
  *script = s;
  return 0;
}

/* A masked superblock: csuper with ipar = 1 (DSUPER). Xcos re-evaluates
 * its contents only through its mask's parameters; without any, never. */
static int frozen_mask(const xc_block *b) {
  const sciv *names = sciv_item(sciv_item(b->exprs, 1), 0);
  return sciv_is_list(b->exprs) && sciv_num(b->ipar, 0, 0) == 1 &&
         sciv_numel(names) == 0;
}

/* Scilab's link numbers of the block's data outputs, by output number. */
static int copy_link_numbers(xc_ctx *c, const xc_block *xb, dg_block *out) {
  int n = 0;
  for (int p = 0; p < xb->nports; p++)
    if (xb->ports[p].kind == XP_OUT && xc_data_port_number(xb, p) > n)
      n = xc_data_port_number(xb, p);
  if (n == 0) return 0;
  if (!(out->xcos_links = calloc((size_t)n, sizeof *out->xcos_links)))
    return xc_nomem(c);
  out->nxcos_links = n;
  for (int p = 0; p < xb->nports; p++)
    if (xb->ports[p].kind == XP_OUT)
      out->xcos_links[xc_data_port_number(xb, p) - 1] = xb->linknum[p];
  return 0;
}

static int build_block(xc_ctx *c, const xc_block *xb, const char *name,
                       const char *prefix, int frozen, int conrank,
                       dg_block *out) {
  char *path = join(prefix, name);
  if (!path || !(out->id = strdup(name))) {
    free(path);
    return xc_nomem(c);
  }
  out->line = xb->line;
  if (!(out->gui = strdup(xb->gui))) {
    free(path);
    return xc_nomem(c);
  }
  int rc = 0;
  if (conrank > 0) {
    /* a superblock connector port: its connector number, ranked */
    char num[32];
    snprintf(num, sizeof num, "%d", conrank);
    rc = (out->type = strdup(xb->port_role)) ? 0 : xc_nomem(c);
    if (rc == 0) rc = xc_add_param(c, out, "port", num, xb->line);
  } else if (xb->child) {
    out->sub = xc_build_level(c, xb->child, path, frozen || frozen_mask(xb));
    if (!out->sub) rc = -1;
    if (rc == 0 && !(out->sub->name = strdup(name))) rc = xc_nomem(c);
    if (rc == 0 && sciv_is_list(xb->exprs))
      rc = mask_statements(c, xb, &out->sub->script);
  } else if (rc == 0) {
    rc = xc_block_params(c, xb, path, frozen, out);
  }
  if (rc == 0 && !xb->child && xb->linknum) rc = copy_link_numbers(c, xb, out);
  free(path);
  return rc;
}

static int add_link(xc_ctx *c, dg_diagram *d, dg_link_kind kind,
                    const char *from, int fp, const char *to, int tp,
                    int line) {
  dg_link *g = realloc(d->links, (size_t)(d->nlinks + 1) * sizeof *g);
  if (!g) return xc_nomem(c);
  d->links = g;
  dg_link *dl = &g[d->nlinks];
  memset(dl, 0, sizeof *dl);
  dl->kind = kind;
  dl->line = line;
  dl->from.port = fp;
  dl->to.port = tp;
  if (!(dl->from.block = strdup(from)) || !(dl->to.block = strdup(to))) {
    free(dl->from.block);
    return xc_nomem(c);
  }
  d->nlinks++;
  return 0;
}

/* An implicit wire: a <connect> between the two connectors. */
static int add_connect(xc_ctx *c, const xc_level *l, char **names,
                       const xc_wire *w, dg_diagram *d) {
  char a[256], b[256];
  if (xc_con_ref(c, &l->blocks[w->from_block], w->from_port, a, sizeof a) ||
      xc_con_ref(c, &l->blocks[w->to_block], w->to_port, b, sizeof b))
    return -1;
  if (add_link(c, d, DG_LINK_CONNECT, names[w->from_block], 0,
               names[w->to_block], 0, w->line))
    return -1;
  dg_link *dl = &d->links[d->nlinks - 1];
  if (a[0] >= '0' && a[0] <= '9')
    dl->from.port = atoi(a);
  else if (!(dl->from.con = strdup(a)))
    return xc_nomem(c);
  if (b[0] >= '0' && b[0] <= '9')
    dl->to.port = atoi(b);
  else if (!(dl->to.con = strdup(b)))
    return xc_nomem(c);
  return 0;
}

static int build_links(xc_ctx *c, const xc_level *l, char **names,
                       const xc_wire *w, int nw, dg_diagram *d) {
  for (int i = 0; i < nw; i++) {
    const xc_block *from = &l->blocks[w[i].from_block];
    const xc_block *to = &l->blocks[w[i].to_block];
    if (w[i].kind == 2) {
      if (add_connect(c, l, names, &w[i], d)) return -1;
      continue;
    }
    int fk = from->ports[w[i].from_port].kind;
    int tk = to->ports[w[i].to_port].kind;
    int ev = fk == XP_EVOUT;
    if ((fk != XP_OUT && fk != XP_EVOUT) || tk != (ev ? XP_EVIN : XP_IN)) {
      bsim_error_set(c->err, BSIM_ERR_INPUT,
                     "%s:%d: a link from block '%s' to block '%s' does not "
                     "join an output to an input of the same kind (data or "
                     "event)",
                     c->file, w[i].line, names[w[i].from_block],
                     names[w[i].to_block]);
      return -1;
    }
    if (add_link(c, d, ev ? DG_LINK_ACTIVATION : DG_LINK_DATA,
                 names[w[i].from_block],
                 xc_data_port_number(from, w[i].from_port),
                 names[w[i].to_block], xc_data_port_number(to, w[i].to_port),
                 w[i].line))
      return -1;
  }
  return 0;
}

/* Each unconnected data input of a SUM_f / SOM_f (the blocks Xcos keeps
 * with such inputs) gets a ZEROS block of its own. */
static int zero_inputs(xc_ctx *c, const xc_level *l, char **names,
                       const char *alive, const xc_wire *w, int nw,
                       dg_diagram *d) {
  for (int b = 0; b < l->nblocks; b++) {
    const xc_block *xb = &l->blocks[b];
    if (!alive[b] || xb->kind == XB_SPLIT) continue;
    for (int p = 0; p < xb->nports; p++) {
      if (xb->ports[p].kind != XP_IN) continue;
      int fed = 0;
      for (int i = 0; i < nw && !fed; i++)
        fed = w[i].to_block == b && w[i].to_port == p;
      if (fed) continue;
      char id[600];
      snprintf(id, sizeof id, "%s_unconnected_%d", names[b],
               xc_data_port_number(xb, p));
      for (int i = 0; i < d->nblocks; i++)
        if (strcmp(d->blocks[i].id, id) == 0) strcat(id, "_");
      dg_block *g = realloc(d->blocks, (size_t)(d->nblocks + 1) * sizeof *g);
      if (!g) return xc_nomem(c);
      d->blocks = g;
      dg_block *z = &g[d->nblocks];
      memset(z, 0, sizeof *z);
      if (!(z->id = strdup(id)) || !(z->type = strdup("ZEROS")))
        return free(z->id), xc_nomem(c);
      z->line = xb->line;
      d->nblocks++;
      if (add_link(c, d, DG_LINK_DATA, id, 1, names[b],
                   xc_data_port_number(xb, p), xb->line))
        return -1;
    }
  }
  return 0;
}

dg_diagram *xc_build_level(xc_ctx *c, const xc_level *l, const char *path,
                           int frozen) {
  dg_diagram *d = calloc(1, sizeof *d);
  char *alive = malloc((size_t)(l->nblocks ? l->nblocks : 1));
  xc_wire *w = NULL;
  int nw = 0;
  char **names = NULL;
  int rc = d && alive ? 0 : xc_nomem(c);
  if (rc == 0) rc = xc_resolve_links(c, l, path, &w, &nw, alive, 1);
  if (rc == 0 && !(names = block_names(c, l, alive))) rc = -1;
  if (rc == 0) {
    d->line = l->line;
    d->script_line = 0; /* a context array has no lines of its own */
    if (l->context && !blank_script(l->context) &&
        !(d->script = strdup(l->context)))
      rc = xc_nomem(c);
    if (!(d->blocks =
              calloc((size_t)(l->nblocks ? l->nblocks : 1), sizeof *d->blocks)))
      rc = xc_nomem(c);
  }
  for (int i = 0; i < l->nblocks && rc == 0; i++) {
    const xc_block *b = &l->blocks[i];
    if (b->kind == XB_SPLIT || !alive[i]) continue;
    int conrank = b->port_role && strstr(b->port_role, "IMPL_f")
                      ? xc_conport_rank(l, i)
                      : 0;
    rc = build_block(c, b, names[i], path, frozen, conrank,
                     &d->blocks[d->nblocks++]);
  }
  if (rc == 0) rc = build_links(c, l, names, w, nw, d);
  if (rc == 0) rc = zero_inputs(c, l, names, alive, w, nw, d);
  for (int i = 0; names && i < l->nblocks; i++)
    free(names[i]);
  free(names);
  free(alive);
  free(w);
  if (rc) {
    dg_diagram_free(d);
    return NULL;
  }
  return d;
}
