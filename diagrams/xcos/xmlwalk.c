/*
 * The mxGraph XML of an Xcos diagram, read into an xc_level. Under
 * <mxGraphModel><root> every cell is a sibling: blocks (BasicBlock and its
 * subclasses, SuperBlock, SplitBlock; TextBlock is ignored), ports naming
 * their block in `parent`, and links naming their ports by id - in
 * attributes (Scilab 6) or as nested <...Port as="source"/"target">
 * elements (Scilab 5.5). Superblock contents are a nested
 * <SuperBlockDiagram as="child">, or, for the "csuper" blocks of Scilab
 * 5.5 files, an scs_m diagram stored as the block's real parameters.
 * Attributes Scilab 5.5 leaves out take the defaults Scilab gives them on
 * import (port sizes -1 x -2, no initial firing).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/xcos/xcos.h"

static int is(xmlNodePtr n, const char *name) {
  return n->type == XML_ELEMENT_NODE &&
         strcmp((const char *)n->name, name) == 0;
}

static int line_of(xmlNodePtr n) {
  return (int)xmlGetLineNo(n);
}

/* ids -> (block, port) in an open-addressing table; port -1 = the block. */
typedef struct idslot {
  char *id;
  int block, port;
} idslot;

typedef struct idmap {
  idslot *slots;
  size_t cap, n;
} idmap;

static size_t hash(const char *s) {
  size_t h = 1469598103934665603u;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211u;
  return h;
}

static idslot *id_find(idmap *m, const char *id) {
  if (!m->cap || !id) return NULL;
  for (size_t i = hash(id) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
    if (!m->slots[i].id) return NULL;
    if (strcmp(m->slots[i].id, id) == 0) return &m->slots[i];
  }
}

/* 0, 1 when the id is already known, -1 out of memory. */
static int id_add(idmap *m, const char *id, int block, int port) {
  if (id_find(m, id)) return 1;
  if (2 * (m->n + 1) > m->cap) {
    size_t nc = m->cap ? 2 * m->cap : 64;
    idslot *s = calloc(nc, sizeof *s);
    if (!s) return -1;
    for (size_t i = 0; i < m->cap; i++) {
      if (!m->slots[i].id) continue;
      size_t k = hash(m->slots[i].id) & (nc - 1);
      while (s[k].id)
        k = (k + 1) & (nc - 1);
      s[k] = m->slots[i];
    }
    free(m->slots);
    m->slots = s;
    m->cap = nc;
  }
  size_t k = hash(id) & (m->cap - 1);
  while (m->slots[k].id)
    k = (k + 1) & (m->cap - 1);
  m->slots[k] = (idslot){(char *)id, block, port};
  m->n++;
  return 0;
}

typedef struct walk {
  xc_ctx *c;
  xc_level *l;
  idmap ids;
} walk;

static int port_kind(xmlNodePtr n) {
  static const char *const names[] = {
      "ExplicitInputPort", "ExplicitOutputPort", "ControlPort",
      "CommandPort",       "ImplicitInputPort",  "ImplicitOutputPort"};
  for (int k = 0; k < 6; k++)
    if (is(n, names[k])) return k;
  return -1;
}

static int link_kind(xmlNodePtr n) {
  if (is(n, "ExplicitLink")) return 0;
  if (is(n, "CommandControlLink")) return 1;
  if (is(n, "ImplicitLink")) return 2;
  return -1;
}

static int is_block(xmlNodePtr n) {
  if (n->type != XML_ELEMENT_NODE || is(n, "TextBlock")) return 0;
  if (xmlHasProp(n, (const xmlChar *)"interfaceFunctionName")) return 1;
  size_t len = strlen((const char *)n->name);
  return (len > 5 && strcmp((const char *)n->name + len - 5, "Block") == 0) ||
         is(n, "BigSom") || is(n, "Summation") || is(n, "Product");
}

static int add_port(walk *w, xmlNodePtr n, int block) {
  xc_block *b = &w->l->blocks[block];
  char *uid = xc_attr(n, "id");
  double ord = 0, rows = -1, cols = -2, firing = -1;
  xc_attr_num(n, "ordering", &ord);
  xc_attr_num(n, "dataLines", &rows);
  xc_attr_num(n, "dataColumns", &cols);
  xc_attr_num(n, "initialState", &firing);
  xc_port *p = uid ? xc_add_port(b) : NULL;
  if (!p) {
    free(uid);
    return uid ? xc_nomem(w->c) : 0; /* a port without id links nowhere */
  }
  p->uid = uid;
  p->kind = port_kind(n);
  p->ordering = ord >= 1 && ord < 1e6 ? (int)ord : 0;
  p->rows = xc_int_or(rows, -1);
  p->cols = xc_int_or(cols, -2);
  p->firing = firing;
  int rc = id_add(&w->ids, uid, block, b->nports - 1);
  if (rc < 0) return xc_nomem(w->c);
  if (rc > 0) b->nports--; /* a copy of a port already known */
  if (rc > 0) free(uid);
  return 0;
}

static int block_port(walk *w, xmlNodePtr n) {
  char *parent = xc_attr(n, "parent");
  idslot *s = id_find(&w->ids, parent);
  int rc = 0;
  if (!s || s->port >= 0) {
    bsim_error_set(w->c->err, BSIM_ERR_INPUT,
                   "%s:%d: <%s>: its block '%s' does not exist (the file is "
                   "damaged)",
                   w->c->file, line_of(n), (const char *)n->name,
                   parent ? parent : "(no parent)");
    rc = -1;
  } else {
    rc = add_port(w, n, s->block);
  }
  free(parent);
  return rc;
}

static const char *const port_guis[][2] = {{"ExplicitInBlock", "IN_f"},
                                           {"ExplicitOutBlock", "OUT_f"},
                                           {"EventInBlock", "CLKINV_f"},
                                           {"EventOutBlock", "CLKOUTV_f"},
                                           {"ImplicitInBlock", "INIMPL_f"},
                                           {"ImplicitOutBlock", "OUTIMPL_f"},
                                           {"IN_f", "IN_f"},
                                           {"OUT_f", "OUT_f"},
                                           {"CLKINV_f", "CLKINV_f"},
                                           {"CLKOUTV_f", "CLKOUTV_f"},
                                           {"CLKIN_f", "CLKINV_f"},
                                           {"CLKOUT_f", "CLKOUTV_f"},
                                           {"INIMPL_f", "INIMPL_f"},
                                           {"OUTIMPL_f", "OUTIMPL_f"}};

static char *port_role(xmlNodePtr n, const char *gui) {
  for (size_t i = 0; i < sizeof port_guis / sizeof port_guis[0]; i++)
    if (is(n, port_guis[i][0]) || (gui && strcmp(gui, port_guis[i][0]) == 0))
      return strdup(port_guis[i][1]);
  return NULL;
}

static int sim_type(const char *s) {
  static const struct {
    const char *name;
    int code;
  } types[] = {{"DEFAULT", 0},
               {"TYPE_1", 1},
               {"TYPE_2", 2},
               {"TYPE_3", 3},
               {"C_OR_FORTRAN", 4},
               {"SCILAB", 5},
               {"DEBUG", 99},
               {"DYNAMIC_FORTRAN_1", 1001},
               {"DYNAMIC_C_1", 2001},
               {"DYNAMIC_EXPLICIT_4", 2004},
               {"OLDBLOCKS", 10001},
               {"IMPLICIT_C_OR_FORTRAN", 10004},
               {"DYNAMIC_IMPLICIT_4", 12004},
               {"MODELICA", 30004},
               {"IFTHENELSE", -1},
               {"ESELECT", -2}};
  for (size_t i = 0; s && i < sizeof types / sizeof types[0]; i++)
    if (strcmp(s, types[i].name) == 0) return types[i].code;
  return 0;
}

static int flag_attr(xmlNodePtr n, const char *name) {
  char *s = xc_attr(n, name);
  int v = s && (strcmp(s, "1") == 0 || strcmp(s, "true") == 0);
  free(s);
  return v;
}

/* Model data and the superblock contents of a block element. */
static int block_children(walk *w, xmlNodePtr n, xc_block *b) {
  static const char *const fields[] = {
      "exprs", "realParameters", "integerParameters", "objectsParameters",
      "state", "dState",         "oDState",           "nbZerosCrossing",
      "nmode", "equations"};
  for (xmlNodePtr ch = n->children; ch; ch = ch->next) {
    if (ch->type != XML_ELEMENT_NODE) continue;
    char *as = xc_attr(ch, "as");
    if (!as) continue;
    sciv **slots[] = {&b->exprs, &b->rpar,     &b->ipar,    &b->opar,
                      &b->state, &b->dstate,   &b->odstate, &b->nzcross,
                      &b->nmode, &b->equations};
    int rc = 0;
    for (int k = 0; k < 10 && rc == 0; k++) {
      if (strcmp(as, fields[k]) != 0) continue;
      sciv_free(*slots[k]);
      *slots[k] = xc_value(w->c, ch, 0);
      if (!*slots[k]) rc = -1;
    }
    if (rc == 0 && strcmp(as, "child") == 0) {
      xmlNodePtr model = NULL, context = NULL;
      for (xmlNodePtr g = ch->children; g; g = g->next) {
        char *gas = g->type == XML_ELEMENT_NODE ? xc_attr(g, "as") : NULL;
        if (gas && strcmp(gas, "model") == 0) model = g;
        if (gas && strcmp(gas, "context") == 0) context = g;
        free(gas);
      }
      xc_level_free(b->child);
      b->child = model ? xc_level_from_xml(w->c, model, context) : NULL;
      if (!b->child) rc = -1;
      if (!model)
        bsim_error_set(w->c->err, BSIM_ERR_INPUT,
                       "%s:%d: superblock without a diagram (the file is "
                       "damaged)",
                       w->c->file, line_of(ch));
    }
    free(as);
    if (rc) return -1;
  }
  return 0;
}

static int add_block(walk *w, xmlNodePtr n) {
  xc_block *b = xc_add_block(w->l);
  if (!b) return xc_nomem(w->c);
  int bi = w->l->nblocks - 1;
  b->line = line_of(n);
  b->uid = xc_attr(n, "id");
  b->gui = xc_attr(n, "interfaceFunctionName");
  b->sim = xc_attr(n, "simulationFunctionName");
  b->label = xc_attr(n, "value");
  char *st = xc_attr(n, "simulationFunctionType");
  b->simtype = sim_type(st);
  free(st);
  b->dep_u = flag_attr(n, "dependsOnU");
  b->dep_t = flag_attr(n, "dependsOnT");
  if (is(n, "SplitBlock")) b->kind = XB_SPLIT;
  b->port_role = port_role(n, b->gui);
  /* Scilab 5.5 leaves out the interface names its element names imply. */
  if (!b->gui)
    b->gui = strdup(is(n, "SuperBlock")   ? "SUPER_f"
                    : is(n, "SplitBlock") ? "SPLIT_f"
                    : b->port_role        ? b->port_role
                                          : "");
  if (!b->sim && is(n, "SuperBlock")) b->sim = strdup("super");
  if (!b->gui || (b->gui[0] && !b->uid)) return xc_nomem(w->c);
  if (!b->gui[0]) {
    bsim_error_set(w->c->err, BSIM_ERR_INPUT,
                   "%s:%d: <%s> has no interfaceFunctionName (the file is "
                   "damaged)",
                   w->c->file, b->line, (const char *)n->name);
    return -1;
  }
  if (id_add(&w->ids, b->uid, bi, -1) < 0) return xc_nomem(w->c);
  /* Messages about its data name the block by label (or interface). */
  char who[256];
  snprintf(who, sizeof who,
           "block '%s' (%s): ", b->label && b->label[0] ? b->label : b->gui,
           b->gui);
  const char *outer = w->c->block;
  w->c->block = who;
  int rc = block_children(w, n, &w->l->blocks[bi]);
  w->c->block = outer;
  if (rc) return -1;
  b = &w->l->blocks[bi];
  /* Scilab 5.5: a csuper block keeps its contents as scs_m in rpar. */
  if (!b->child && b->rpar && sciv_type_name(b->rpar) &&
      strcmp(sciv_type_name(b->rpar), "diagram") == 0) {
    b->child = xc_level_from_scsm(w->c, b->rpar, b->gui, b->line);
    if (!b->child) return -1;
  }
  for (xmlNodePtr ch = n->children; ch; ch = ch->next)
    if (port_kind(ch) >= 0 && add_port(w, ch, bi)) return -1;
  return 0;
}

/* One end of a link: the port id in an attribute or a nested port. */
static idslot *link_end(walk *w, xmlNodePtr n, const char *which,
                        char **idout) {
  *idout = xc_attr(n, which);
  if (*idout) return id_find(&w->ids, *idout);
  for (xmlNodePtr ch = n->children; ch; ch = ch->next) {
    char *as = port_kind(ch) >= 0 ? xc_attr(ch, "as") : NULL;
    int match = as && strcmp(as, which) == 0;
    free(as);
    if (!match) continue;
    *idout = xc_attr(ch, "id");
    idslot *s = id_find(&w->ids, *idout);
    if (!s && *idout && block_port(w, ch) == 0) s = id_find(&w->ids, *idout);
    return s;
  }
  return NULL;
}

static const char *block_name(const walk *w, const idslot *s) {
  if (!s) return "?";
  const xc_block *b = &w->l->blocks[s->block];
  return b->label && b->label[0] ? b->label : b->gui;
}

static int add_link(walk *w, xmlNodePtr n) {
  char *from_id = NULL, *to_id = NULL;
  idslot *a = link_end(w, n, "source", &from_id);
  idslot *b = link_end(w, n, "target", &to_id);
  int rc = 0;
  if (!a || !b || a->port < 0 || b->port < 0) {
    const idslot *known = a && a->port >= 0 ? a : b && b->port >= 0 ? b : NULL;
    bsim_error_set(w->c->err, BSIM_ERR_INPUT,
                   "%s:%d: link to a missing port '%s'%s%s%s (the file is "
                   "damaged; hint: reconnect the link in Xcos)",
                   w->c->file, line_of(n),
                   !a || a->port < 0 ? (from_id ? from_id : "(none)")
                                     : (to_id ? to_id : "(none)"),
                   known ? " (its other end is block '" : "",
                   known ? block_name(w, known) : "", known ? "')" : "");
    rc = -1;
  } else {
    xc_link *l = xc_add_link(w->l);
    if (!l) {
      rc = xc_nomem(w->c);
    } else {
      l->kind = link_kind(n);
      l->from_block = a->block;
      l->from_port = a->port;
      l->to_block = b->block;
      l->to_port = b->port;
      l->line = line_of(n);
    }
  }
  free(from_id);
  free(to_id);
  return rc;
}

xc_level *xc_level_from_xml(xc_ctx *c, xmlNodePtr model, xmlNodePtr context) {
  xc_level *l = calloc(1, sizeof *l);
  walk w = {c, l, {0}};
  xmlNodePtr root = NULL;
  int rc = l ? 0 : xc_nomem(c);
  if (rc == 0) {
    l->line = line_of(model);
    for (xmlNodePtr ch = model->children; ch; ch = ch->next)
      if (is(ch, "root")) root = ch;
    if (context && !(l->context = xc_context(c, context))) rc = -1;
  }
  /* Blocks first, then the ports naming them, then links naming ports. */
  for (xmlNodePtr n = root ? root->children : NULL; n && rc == 0; n = n->next)
    if (is_block(n)) rc = add_block(&w, n);
  for (xmlNodePtr n = root ? root->children : NULL; n && rc == 0; n = n->next)
    if (port_kind(n) >= 0) rc = block_port(&w, n);
  for (xmlNodePtr n = root ? root->children : NULL; n && rc == 0; n = n->next)
    if (link_kind(n) >= 0) rc = add_link(&w, n);
  free(w.ids.slots);
  if (rc) {
    xc_level_free(l);
    return NULL;
  }
  return l;
}
