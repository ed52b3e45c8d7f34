/*
 * From an Xcos level to the Diagram tree: blocks get names (their label
 * when it is a valid name unique among its siblings, else GUI_n), split
 * blocks (SPLIT_f, CLKSPLIT_f, IMPSPLIT_f) disappear into fan-outs, links
 * join ports by number as the native format does, superblocks recurse
 * with their context and, for masked superblocks, the mask's parameters
 * as statements before it. What a block computes with (parameters or the
 * stored model) is params.c's business.
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

/* names[i] for every non-split block i (NULL for splits). */
static char **block_names(xc_ctx *c, const xc_level *l) {
  int n = l->nblocks;
  char **names = calloc((size_t)(n ? n : 1), sizeof *names);
  if (!names) return NULL;
  for (int i = 0; i < n; i++) {
    const xc_block *b = &l->blocks[i];
    if (b->kind == XB_SPLIT || !valid_name(b->label)) continue;
    int count = 0;
    for (int k = 0; k < n; k++)
      count += l->blocks[k].kind != XB_SPLIT && l->blocks[k].label &&
               strcmp(l->blocks[k].label, b->label) == 0;
    if (count == 1 && !(names[i] = strdup(b->label))) goto nomem;
  }
  for (int i = 0; i < n; i++) {
    const xc_block *b = &l->blocks[i];
    if (b->kind == XB_SPLIT || names[i]) continue;
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

static int is_output(int kind) {
  return kind == XP_OUT || kind == XP_EVOUT || kind == XP_IMPOUT;
}

/* The port's number among the block's ports of its kind: its ordering when
 * given, else its position. */
static int port_number(const xc_block *b, int p) {
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

static int implicit_error(xc_ctx *c, const xc_block *b, const char *path) {
  bsim_error_set(c->err, BSIM_ERR_INPUT,
                 "%s:%d: block '%s' (%s) has implicit (acausal) ports: "
                 "Modelica and electrical blocks are not supported yet",
                 c->file, b->line, path, b->gui);
  return -1;
}

static int build_block(xc_ctx *c, const xc_block *xb, const char *name,
                       const char *prefix, dg_block *out) {
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
  for (int i = 0; i < xb->nports && rc == 0; i++)
    if (xb->ports[i].kind >= XP_IMPIN) rc = implicit_error(c, xb, path);
  if (rc == 0 && xb->child) {
    out->sub = xc_build_level(c, xb->child, path);
    if (!out->sub) rc = -1;
    if (rc == 0 && !(out->sub->name = strdup(name))) rc = xc_nomem(c);
    if (rc == 0 && sciv_is_list(xb->exprs))
      rc = mask_statements(c, xb, &out->sub->script);
  } else if (rc == 0) {
    rc = xc_block_params(c, xb, path, out);
  }
  free(path);
  return rc;
}

/* Follow a link's source back through split blocks to a real output. */
static int trace_source(xc_ctx *c, const xc_level *l, const xc_link *lk,
                        int *blk, int *port) {
  *blk = lk->from_block;
  *port = lk->from_port;
  for (int steps = 0; l->blocks[*blk].kind == XB_SPLIT; steps++) {
    int feed = -1;
    for (int i = 0; i < l->nlinks && feed < 0; i++)
      if (l->links[i].to_block == *blk) feed = i;
    if (feed < 0 || steps > l->nlinks) {
      bsim_error_set(c->err, BSIM_ERR_INPUT,
                     "%s:%d: link from a split point that nothing feeds "
                     "(hint: reconnect the link in Xcos)",
                     c->file, lk->line);
      return -1;
    }
    *blk = l->links[feed].from_block;
    *port = l->links[feed].from_port;
  }
  return 0;
}

static int build_links(xc_ctx *c, const xc_level *l, char **names,
                       dg_diagram *d) {
  d->links = calloc((size_t)(l->nlinks ? l->nlinks : 1), sizeof *d->links);
  if (!d->links) return xc_nomem(c);
  for (int i = 0; i < l->nlinks; i++) {
    const xc_link *lk = &l->links[i];
    if (l->blocks[lk->to_block].kind == XB_SPLIT) continue;
    int fb, fp;
    if (trace_source(c, l, lk, &fb, &fp)) return -1;
    const xc_block *from = &l->blocks[fb], *to = &l->blocks[lk->to_block];
    int fk = from->ports[fp].kind, tk = to->ports[lk->to_port].kind;
    int ev = fk == XP_EVOUT;
    if ((fk != XP_OUT && fk != XP_EVOUT) || tk != (ev ? XP_EVIN : XP_IN)) {
      bsim_error_set(c->err, BSIM_ERR_INPUT,
                     "%s:%d: a link from block '%s' to block '%s' does not "
                     "join an output to an input of the same kind (data or "
                     "event)",
                     c->file, lk->line, names[fb], names[lk->to_block]);
      return -1;
    }
    dg_link *dl = &d->links[d->nlinks++];
    dl->kind = ev ? DG_LINK_ACTIVATION : DG_LINK_DATA;
    dl->line = lk->line;
    dl->from.port = port_number(from, fp);
    dl->to.port = port_number(to, lk->to_port);
    if (!(dl->from.block = strdup(names[fb])) ||
        !(dl->to.block = strdup(names[lk->to_block])))
      return xc_nomem(c);
  }
  return 0;
}

/* Links are stored in drawing direction; make each run output -> input. */
static void orient_links(xc_level *l) {
  for (int i = 0; i < l->nlinks; i++) {
    xc_link *lk = &l->links[i];
    int fk = l->blocks[lk->from_block].ports[lk->from_port].kind;
    int tk = l->blocks[lk->to_block].ports[lk->to_port].kind;
    if (!is_output(fk) && is_output(tk)) {
      int b = lk->from_block, p = lk->from_port;
      lk->from_block = lk->to_block;
      lk->from_port = lk->to_port;
      lk->to_block = b;
      lk->to_port = p;
    }
  }
}

dg_diagram *xc_build_level(xc_ctx *c, const xc_level *l, const char *path) {
  orient_links((xc_level *)l);
  dg_diagram *d = calloc(1, sizeof *d);
  char **names = d ? block_names(c, l) : NULL;
  int rc = names ? 0 : (d ? -1 : xc_nomem(c));
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
    if (l->blocks[i].kind == XB_SPLIT) continue;
    rc =
        build_block(c, &l->blocks[i], names[i], path, &d->blocks[d->nblocks++]);
  }
  if (rc == 0) {
    for (int i = 0; i < l->nblocks && rc == 0; i++)
      if (l->blocks[i].kind == XB_SPLIT)
        for (int p = 0; p < l->blocks[i].nports && rc == 0; p++)
          if (l->blocks[i].ports[p].kind >= XP_IMPIN)
            rc = implicit_error(c, &l->blocks[i], l->blocks[i].gui);
  }
  if (rc == 0) rc = build_links(c, l, names, d);
  for (int i = 0; names && i < l->nblocks; i++)
    free(names[i]);
  free(names);
  if (rc) {
    dg_diagram_free(d);
    return NULL;
  }
  return d;
}
