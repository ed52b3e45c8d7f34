/*
 * Life of the intermediate level (xc_level) that both Xcos sources are read
 * into: growing its arrays and freeing it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/xcos/xcos_int.h"

int xc_nomem(xc_ctx *c) {
  bsim_error_set(c->err, BSIM_ERR_NOMEM, "%s: out of memory", c->file);
  return -1;
}

int xc_note(xc_ctx *c, const char *fmt, ...) {
  if (!c->diagram) return 0;
  va_list ap;
  va_start(ap, fmt);
  int rc = dg_add_notev(&c->diagram->notes, &c->diagram->nnotes, fmt, ap);
  va_end(ap);
  return rc ? xc_nomem(c) : 0;
}

static void *grow(void *p, int n, int *cap, size_t size) {
  if (n < *cap) return p;
  int nc = *cap ? 2 * *cap : 16;
  void *q = realloc(p, (size_t)nc * size);
  if (q) *cap = nc;
  return q;
}

xc_block *xc_add_block(xc_level *l) {
  xc_block *g = grow(l->blocks, l->nblocks, &l->capblocks, sizeof *g);
  if (!g) return NULL;
  l->blocks = g;
  memset(&g[l->nblocks], 0, sizeof *g);
  return &g[l->nblocks++];
}

xc_link *xc_add_link(xc_level *l) {
  xc_link *g = grow(l->links, l->nlinks, &l->caplinks, sizeof *g);
  if (!g) return NULL;
  l->links = g;
  memset(&g[l->nlinks], 0, sizeof *g);
  return &g[l->nlinks++];
}

xc_port *xc_add_port(xc_block *b) {
  /* Blocks have few ports: grow by one. */
  xc_port *g = realloc(b->ports, (size_t)(b->nports + 1) * sizeof *g);
  if (!g) return NULL;
  b->ports = g;
  memset(&g[b->nports], 0, sizeof *g);
  return &g[b->nports++];
}

static void block_free(xc_block *b) {
  free(b->uid);
  free(b->gui);
  free(b->sim);
  free(b->label);
  free(b->port_role);
  sciv *vals[] = {b->exprs, b->rpar,   b->ipar,     b->opar,
                  b->state, b->dstate, b->odstate,  b->nzcross,
                  b->nmode, b->firing, b->equations};
  for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++)
    sciv_free(vals[i]);
  for (int i = 0; i < b->nports; i++)
    free(b->ports[i].uid);
  free(b->ports);
  free(b->linknum);
  xc_level_free(b->child);
}

void xc_level_free(xc_level *l) {
  if (!l) return;
  free(l->context);
  for (int i = 0; i < l->nblocks; i++)
    block_free(&l->blocks[i]);
  free(l->blocks);
  free(l->links);
  free(l);
}
