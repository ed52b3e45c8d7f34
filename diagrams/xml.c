/*
 * Reader of the native XML format: parse with libxml2, validate against the
 * embedded RELAX NG schema (diagrams/schema.rng), then build the Diagram tree
 * with the source line of every element and check what a schema cannot:
 * unique ids, port references, known block types and parameter names.
 *
 * libxml2 reports through callbacks attached to the parser and validation
 * contexts only (never its global handlers), so that loads in several threads
 * do not race and nothing is printed.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/relaxng.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include "blocks/library_int.h"
#include "diagrams/dg_util.h"
#include "diagrams/load.h"
#include "schema_rng.h" /* generated from diagrams/schema.rng by CMake */

/* Attributes of each element, required ones first: libxml2 reports a
 * missing attribute without a line, so the reader finds it itself. */
typedef struct attr_rule {
  const char *elem;
  int nrequired;
  const char *attrs[16];
} attr_rule;

static const attr_rule attr_rules[] = {
    {"diagram", 0, {"name", "dialect"}},
    {"var", 2, {"name", "value"}},
    {"simulation",
     1,
     {"final-time", "solver", "rtol", "atol", "time-tolerance"}},
    {"solver-param", 2, {"name", "value"}},
    {"output", 0, {"samples", "spacing"}},
    {"block", 2, {"id", "type", "dep-t"}},
    {"param", 1, {"name", "value"}},
    {"superblock", 1, {"id"}},
    {"link", 2, {"from", "to"}},
    {"activation", 2, {"from", "to"}},
    {"observe", 2, {"name", "signal"}},
    {"library", 1, {"path"}},
    {"model",
     0,
     {"in", "in2", "dep-u", "out", "out2", "event-inputs", "firing", "dep-t",
      "state", "dstate", "rpar", "ipar", "zero-crossings", "modes",
      "implicit"}},
    {"opar", 2, {"rows", "cols"}},
};

typedef struct reader {
  const char *file;
  const bsim_library *lib;
  bsim_error *err;
} reader;

static void on_schema_error(void *data, xmlErrorPtr e) {
  dg_xml_keep_first(data, e);
}

static void *nomem(reader *r) {
  bsim_error_set(r->err, BSIM_ERR_NOMEM, "%s: out of memory", r->file);
  return NULL;
}

/* A copy of an attribute (NULL if absent or out of memory: callers only ask
 * for attributes the schema guarantees, so NULL means out of memory). */
static char *attr(xmlNodePtr n, const char *name) {
  xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
  if (!v) return NULL;
  char *s = strdup((const char *)v);
  xmlFree(v);
  return s;
}

static int is_elem(xmlNodePtr n, const char *name) {
  return n->type == XML_ELEMENT_NODE &&
         strcmp((const char *)n->name, name) == 0;
}

static int line_of(xmlNodePtr n) {
  return (int)xmlGetLineNo(n);
}

/* ------------------------------------------------------------------ */
/* Pieces                                                              */
/* ------------------------------------------------------------------ */

/* "block:port", port counted from 1; the block part may be a path. */
static int parse_portref(reader *r, xmlNodePtr n, const char *which,
                         dg_portref *out) {
  char *text = attr(n, which);
  if (!text) return nomem(r), -1;
  int rc = dg_parse_portref(text, out);
  if (rc == -1)
    bsim_error_set(r->err, BSIM_ERR_INPUT,
                   "%s:%d: bad port reference '%s' in <%s %s>: expected "
                   "block:port with the port counted from 1 (e.g. 'x:1')",
                   r->file, line_of(n), text, (const char *)n->name, which);
  else if (rc)
    nomem(r);
  free(text);
  return rc ? -1 : 0;
}

static int read_params(reader *r, xmlNodePtr parent, const char *child,
                       dg_param **out, int *nout) {
  int n = 0;
  for (xmlNodePtr c = parent->children; c; c = c->next)
    n += is_elem(c, child);
  *out = NULL;
  *nout = 0;
  if (n == 0) return 0;
  dg_param *p = calloc((size_t)n, sizeof *p);
  if (!p) return nomem(r), -1;
  *out = p;
  for (xmlNodePtr c = parent->children; c; c = c->next) {
    if (!is_elem(c, child)) continue;
    dg_param *q = &p[(*nout)++];
    q->name = attr(c, "name");
    q->line = line_of(c);
    if (xmlHasProp(c, (const xmlChar *)"value")) {
      q->expr = attr(c, "value");
    } else { /* <param name="code">text</param>: a C block's source */
      xmlChar *text = xmlNodeGetContent(c);
      q->expr = text ? strdup((const char *)text) : NULL;
      xmlFree(text);
    }
    if (!q->name || !q->expr) return nomem(r), -1;
  }
  return 0;
}

/* Checks a leaf block against its type: known type, known and unique
 * parameter names. (Required parameters are checked when flattening, since
 * an override may still supply them.) */
static int check_block(reader *r, const dg_block *b) {
  const bsim_block_type *t = bsim_library_find(r->lib, b->type);
  if (!t) {
    bsim_error_set(r->err, BSIM_ERR_INPUT,
                   "%s:%d: block '%s': unknown block type '%s' (hint: run "
                   "`blocksim blocks` to list the known types; a plugin's "
                   "types need --blocks PLUGIN.so or <library path>)",
                   r->file, b->line, b->id, b->type);
    return -1;
  }
  for (int i = 0; i < b->nparams; i++) {
    if (dg_param_find(t, b->params[i].name) < 0) {
      char names[512];
      dg_param_list(t, names, sizeof names);
      bsim_error_set(r->err, BSIM_ERR_INPUT,
                     "%s:%d: block '%s': unknown parameter '%s' for type %s "
                     "(its parameters: %s)",
                     r->file, b->params[i].line, b->id, b->params[i].name,
                     t->name, names);
      return -1;
    }
    for (int j = 0; j < i; j++) {
      if (strcmp(b->params[i].name, b->params[j].name) == 0) {
        bsim_error_set(r->err, BSIM_ERR_INPUT,
                       "%s:%d: block '%s': parameter '%s' given twice (first "
                       "at line %d)",
                       r->file, b->params[i].line, b->id, b->params[i].name,
                       b->params[j].line);
        return -1;
      }
    }
  }
  return 0;
}

static int check_id(reader *r, const dg_block *b) {
  if (b->id[0] == '\0' || strpbrk(b->id, "/:")) {
    bsim_error_set(r->err, BSIM_ERR_INPUT,
                   "%s:%d: bad block id '%s': ids must be non-empty and "
                   "contain neither '/' nor ':' (they build paths and port "
                   "references)",
                   r->file, b->line, b->id);
    return -1;
  }
  return 0;
}

/* Unique ids, and every link end names a block of this level. */
static int check_level(reader *r, dg_diagram *d, const char *sbid) {
  int *idx = dg_block_index(d);
  if (d->nblocks > 0 && !idx) return nomem(r), -1;
  int rc = 0;
  for (int i = 1; i < d->nblocks && rc == 0; i++) {
    const dg_block *a = &d->blocks[idx[i - 1]], *b = &d->blocks[idx[i]];
    if (strcmp(a->id, b->id) == 0) {
      bsim_error_set(r->err, BSIM_ERR_INPUT,
                     "%s:%d: duplicate block id '%s' (first at line %d)",
                     r->file, b->line, b->id, a->line);
      rc = -1;
    }
  }
  for (int i = 0; i < d->nlinks && rc == 0; i++) {
    const dg_link *l = &d->links[i];
    const dg_portref *ends[2] = {&l->from, &l->to};
    for (int k = 0; k < 2 && rc == 0; k++) {
      if (dg_block_lookup(d, idx, ends[k]->block, SIZE_MAX) >= 0) continue;
      char port[64];
      snprintf(port, sizeof port, "%.40s", ends[k]->con ? ends[k]->con : "");
      if (!ends[k]->con) snprintf(port, sizeof port, "%d", ends[k]->port);
      bsim_error_set(r->err, BSIM_ERR_INPUT,
                     "%s:%d: %s %s '%s:%s': no block '%s' %s%s%s (links join "
                     "blocks of the same level)",
                     r->file, l->line,
                     l->kind == DG_LINK_DATA         ? "link"
                     : l->kind == DG_LINK_ACTIVATION ? "activation"
                                                     : "connect",
                     l->kind == DG_LINK_CONNECT ? (k ? "b" : "a")
                                                : (k ? "to" : "from"),
                     ends[k]->block, port, ends[k]->block,
                     sbid ? "in superblock '" : "at the top level",
                     sbid ? sbid : "", sbid ? "'" : "");
      rc = -1;
    }
  }
  free(idx);
  return rc;
}

static double read_number(reader *r, xmlNodePtr n, const char *name,
                          int positive, int *bad) {
  char *s = attr(n, name);
  if (!s) return -1.0;
  char *end;
  double v = strtod(s, &end);
  while (*end == ' ' || *end == '\t')
    end++;
  if (end == s || *end || !isfinite(v) || (positive && v <= 0.0)) {
    bsim_error_set(r->err, BSIM_ERR_INPUT,
                   "%s:%d: <%s %s=\"%s\">: expected a finite %snumber", r->file,
                   line_of(n), (const char *)n->name, name, s,
                   positive ? "positive " : "");
    *bad = 1;
  }
  free(s);
  return v;
}

static int read_settings(reader *r, xmlNodePtr n, dg_settings *s) {
  int bad = 0;
  if (is_elem(n, "simulation")) {
    s->final_time = read_number(r, n, "final-time", 1, &bad);
    if (xmlHasProp(n, (const xmlChar *)"rtol"))
      s->rtol = read_number(r, n, "rtol", 1, &bad);
    if (xmlHasProp(n, (const xmlChar *)"atol"))
      s->atol = read_number(r, n, "atol", 1, &bad);
    if (xmlHasProp(n, (const xmlChar *)"time-tolerance")) {
      s->ttol = read_number(r, n, "time-tolerance", 0, &bad);
      if (!bad && s->ttol < 0) {
        bsim_error_set(r->err, BSIM_ERR_INPUT,
                       "%s:%d: <simulation time-tolerance>: expected a "
                       "number >= 0 (seconds)",
                       r->file, line_of(n));
        bad = 1;
      }
    }
    if (xmlHasProp(n, (const xmlChar *)"solver") &&
        !(s->solver = attr(n, "solver")))
      return nomem(r), -1;
    if (bad || read_params(r, n, "solver-param", &s->solver_params,
                           &s->nsolver_params))
      return -1;
    /* Names and values are checked against the engine when the run is
     * created (the engine may still change from the command line); a
     * repeated name is a mistake in the file whatever the engine. */
    for (int i = 0; i < s->nsolver_params; i++)
      for (int j = 0; j < i; j++)
        if (strcmp(s->solver_params[i].name, s->solver_params[j].name) == 0) {
          bsim_error_set(r->err, BSIM_ERR_INPUT,
                         "%s:%d: solver parameter '%s' given twice (first at "
                         "line %d)",
                         r->file, s->solver_params[i].line,
                         s->solver_params[i].name, s->solver_params[j].line);
          return -1;
        }
    return 0;
  }
  if (xmlHasProp(n, (const xmlChar *)"samples")) {
    double v = read_number(r, n, "samples", 1, &bad);
    if (!bad &&
        (v < BSIM_MIN_SAMPLES || v != floor(v) || v > BSIM_MAX_SAMPLES)) {
      bsim_error_set(r->err, BSIM_ERR_INPUT,
                     "%s:%d: <output samples>: expected an integer from %ld "
                     "to %ld (the first sample is at time 0, the last at "
                     "final-time)",
                     r->file, line_of(n), BSIM_MIN_SAMPLES, BSIM_MAX_SAMPLES);
      bad = 1;
    }
    s->samples = (long)v;
  }
  char *sp = attr(n, "spacing");
  if (sp)
    s->spacing =
        strcmp(sp, "log") == 0 ? BSIM_SPACING_LOG : BSIM_SPACING_LINEAR;
  free(sp);
  return bad ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* Levels                                                              */
/* ------------------------------------------------------------------ */

static dg_diagram *read_level(reader *r, xmlNodePtr node, bsim_diagram *top,
                              const char *sbid);

static int read_block(reader *r, xmlNodePtr c, dg_block *b) {
  b->line = line_of(c);
  if (!(b->id = attr(c, "id"))) return nomem(r), -1;
  if (check_id(r, b)) return -1;
  if (is_elem(c, "superblock")) {
    b->sub = read_level(r, c, NULL, b->id);
    return b->sub ? 0 : -1;
  }
  if (!(b->type = attr(c, "type"))) return nomem(r), -1;
  xmlChar *dt = xmlGetProp(c, (const xmlChar *)"dep-t");
  if (dt) {
    int ok = !strcmp((const char *)dt, "0") || !strcmp((const char *)dt, "1");
    b->dep_t = ok && dt[0] == '1';
    if (!ok)
      bsim_error_set(r->err, BSIM_ERR_INPUT,
                     "%s:%d: block '%s': dep-t=\"%s\" must be 0 or 1 (1: "
                     "called at every event, as an Xcos block stored as "
                     "time-dependent)",
                     r->file, b->line, b->id, (const char *)dt);
    xmlFree(dt);
    if (!ok) return -1;
  }
  if (read_params(r, c, "param", &b->params, &b->nparams)) return -1;
  for (xmlNodePtr m = c->children; m; m = m->next) {
    if (!is_elem(m, "model")) continue;
    if (b->nparams > 0) {
      bsim_error_set(r->err, BSIM_ERR_INPUT,
                     "%s:%d: block '%s': a block given by its <model> has no "
                     "<param> (its type's define step does not run)",
                     r->file, b->params[0].line, b->id);
      return -1;
    }
    if (dg_xml_read_model(r->file, m, &b->stored, r->err)) return -1;
  }
  return check_block(r, b);
}

/* <connect a="r1:p" b="c1:n"/>: connectors of blocks of this level, by
 * name or number. */
static int read_connect(reader *r, xmlNodePtr c, dg_link *l) {
  static const char *const which[2] = {"a", "b"};
  l->kind = DG_LINK_CONNECT;
  l->line = line_of(c);
  for (int k = 0; k < 2; k++) {
    dg_portref *end = k ? &l->to : &l->from;
    char *text = attr(c, which[k]);
    if (!text) return nomem(r), -1;
    int rc = dg_parse_conref(text, end);
    if (rc == -1)
      bsim_error_set(r->err, BSIM_ERR_INPUT,
                     "%s:%d: bad connector reference '%s' in <connect %s>: "
                     "expected block:connector, the connector by name or "
                     "counted from 1 (e.g. 'r1:p' or 'r1:1')",
                     r->file, l->line, text, which[k]);
    else if (rc == -2)
      nomem(r);
    else if (strchr(end->block, '/')) {
      bsim_error_set(r->err, BSIM_ERR_INPUT,
                     "%s:%d: <connect> joins blocks of one level; use the "
                     "superblock's connector rather than a path (e.g. "
                     "'sb:1')",
                     r->file, l->line);
      rc = -1;
    }
    free(text);
    if (rc) return -1;
  }
  return 0;
}

static int read_observe(reader *r, xmlNodePtr c, bsim_diagram *top) {
  dg_observe *o = &top->observes[top->nobserves++];
  o->line = line_of(c);
  if (!(o->name = attr(c, "name"))) return nomem(r), -1;
  if (parse_portref(r, c, "signal", &o->signal)) return -1;
  for (int i = 0; i < top->nobserves - 1; i++) {
    if (strcmp(top->observes[i].name, o->name) == 0) {
      bsim_error_set(r->err, BSIM_ERR_INPUT,
                     "%s:%d: observe name '%s' used twice (first at line %d)",
                     r->file, o->line, o->name, top->observes[i].line);
      return -1;
    }
  }
  return 0;
}

/* One <diagram> or <superblock> (then sbid is its id); top is non-NULL for
 * the root, whose settings and observes it fills. */
static dg_diagram *read_level(reader *r, xmlNodePtr node, bsim_diagram *top,
                              const char *sbid) {
  dg_diagram *d = calloc(1, sizeof *d);
  if (!d) return nomem(r);
  d->line = line_of(node);
  int nb = 0, nl = 0, no = 0;
  static const char *const once[] = {"context", "simulation", "output"};
  int first[3] = {0, 0, 0};
  for (xmlNodePtr c = node->children; c; c = c->next) {
    nb += is_elem(c, "block") || is_elem(c, "superblock");
    nl +=
        is_elem(c, "link") || is_elem(c, "activation") || is_elem(c, "connect");
    no += is_elem(c, "observe");
    for (int k = 0; k < 3; k++) {
      if (!is_elem(c, once[k])) continue;
      if (first[k]) {
        bsim_error_set(r->err, BSIM_ERR_INPUT,
                       "%s:%d: a second <%s> (the first is at line %d; one "
                       "per level)",
                       r->file, line_of(c), once[k], first[k]);
        free(d);
        return NULL;
      }
      first[k] = line_of(c);
    }
  }
  if ((nb && !(d->blocks = calloc((size_t)nb, sizeof *d->blocks))) ||
      (nl && !(d->links = calloc((size_t)nl, sizeof *d->links))) ||
      (no && top &&
       !(top->observes = calloc((size_t)no, sizeof *top->observes)))) {
    dg_diagram_free(d);
    return nomem(r);
  }
  if (sbid ? !(d->name = strdup(sbid))
           : xmlHasProp(node, (const xmlChar *)"name") &&
                 !(d->name = attr(node, "name"))) {
    dg_diagram_free(d);
    return nomem(r);
  }
  int rc = 0;
  for (xmlNodePtr c = node->children; c && rc == 0; c = c->next) {
    if (c->type != XML_ELEMENT_NODE) continue;
    if (is_elem(c, "context")) {
      rc = read_params(r, c, "var", &d->context, &d->ncontext);
      for (int i = 0; rc == 0 && i < d->ncontext; i++)
        if (!dg_valid_name(d->context[i].name)) {
          bsim_error_set(r->err, BSIM_ERR_INPUT,
                         "%s:%d: <var name=\"%s\">: not a variable name (a "
                         "letter, '_' or '%%' followed by letters, digits "
                         "and '_')",
                         r->file, d->context[i].line, d->context[i].name);
          rc = -1;
        }
      /* The schema allows one <script>, first; its text starts on the
       * element's line, so script line k is file line script_line+k-1. */
      xmlNodePtr sc = xmlFirstElementChild(c);
      if (rc == 0 && sc && is_elem(sc, "script")) {
        xmlChar *text = xmlNodeGetContent(sc);
        d->script = text ? strdup((const char *)text) : NULL;
        xmlFree(text);
        d->script_line = line_of(sc);
        rc = d->script ? 0 : (nomem(r), -1);
      }
    } else if (is_elem(c, "block") || is_elem(c, "superblock")) {
      rc = read_block(r, c, &d->blocks[d->nblocks++]);
    } else if (is_elem(c, "link") || is_elem(c, "activation")) {
      dg_link *l = &d->links[d->nlinks++];
      l->kind = is_elem(c, "link") ? DG_LINK_DATA : DG_LINK_ACTIVATION;
      l->line = line_of(c);
      rc = parse_portref(r, c, "from", &l->from);
      if (rc == 0) rc = parse_portref(r, c, "to", &l->to);
      if (rc == 0 && (strchr(l->from.block, '/') || strchr(l->to.block, '/'))) {
        bsim_error_set(r->err, BSIM_ERR_INPUT,
                       "%s:%d: links join blocks of one level; use the "
                       "superblock's ports rather than a path (e.g. 'sb:1')",
                       r->file, l->line);
        rc = -1;
      }
    } else if (is_elem(c, "connect")) {
      rc = read_connect(r, c, &d->links[d->nlinks++]);
    } else if (is_elem(c, "observe") && top) {
      rc = read_observe(r, c, top);
    } else if (top) {
      rc = read_settings(r, c, &top->settings);
    }
  }
  if (rc == 0) rc = check_level(r, d, sbid);
  if (rc) {
    dg_diagram_free(d);
    return NULL;
  }
  return d;
}

/* ------------------------------------------------------------------ */
/* Entry point                                                         */
/* ------------------------------------------------------------------ */

/* The first element, in document order, that lacks a required attribute or
 * carries an unknown one: 1 with a message, else 0. */
static int diagnose(xmlNodePtr n, char *msg, size_t len, int *line) {
  for (; n; n = n->next) {
    if (n->type != XML_ELEMENT_NODE) continue;
    const attr_rule *rule = NULL;
    for (size_t i = 0; i < sizeof attr_rules / sizeof attr_rules[0]; i++)
      if (strcmp((const char *)n->name, attr_rules[i].elem) == 0)
        rule = &attr_rules[i];
    if (rule) {
      for (int i = 0; i < rule->nrequired; i++) {
        if (!xmlHasProp(n, (const xmlChar *)rule->attrs[i])) {
          snprintf(msg, len, "<%s> lacks the required attribute '%s'",
                   rule->elem, rule->attrs[i]);
          *line = line_of(n);
          return 1;
        }
      }
      for (xmlAttrPtr a = n->properties; a; a = a->next) {
        int known = 0;
        for (int i = 0; i < 16 && rule->attrs[i]; i++)
          known |= strcmp((const char *)a->name, rule->attrs[i]) == 0;
        if (!known) {
          snprintf(msg, len, "<%s> has an unknown attribute '%s'", rule->elem,
                   (const char *)a->name);
          *line = line_of(n);
          return 1;
        }
      }
    }
    if (diagnose(n->children, msg, len, line)) return 1;
  }
  return 0;
}

static void free_schema(void *schema) {
  xmlRelaxNGFree(schema);
}

/* Schema validation; 0 if valid. The compiled schema is the library's
 * (blocks/library_int.h), validation under its lock. */
static int validate(const char *file, xmlDocPtr doc, const bsim_library *lib,
                    bsim_error *err) {
  dg_xml_error fe = {0};
  int rc = -1;
  xmlRelaxNGPtr schema = lib ? bsim_lib_schema_lock(lib) : NULL;
  xmlRelaxNGValidCtxtPtr vc = NULL;
  if (!schema) {
    xmlRelaxNGParserCtxtPtr pc = xmlRelaxNGNewMemParserCtxt(
        (const char *)bsim_schema_rng, (int)sizeof bsim_schema_rng - 1);
    if (pc) {
      xmlRelaxNGSetParserStructuredErrors(pc, on_schema_error, &fe);
      schema = xmlRelaxNGParse(pc);
      xmlRelaxNGFreeParserCtxt(pc);
    }
  }
  if (schema) vc = xmlRelaxNGNewValidCtxt(schema);
  if (!vc) {
    bsim_error_set(err, BSIM_ERR_NOMEM,
                   "%s: cannot prepare the diagram schema (%s)", file,
                   fe.have ? fe.msg : "out of memory");
  } else {
    xmlRelaxNGSetValidStructuredErrors(vc, on_schema_error, &fe);
    int v = xmlRelaxNGValidateDoc(vc, doc);
    if (v == 0) {
      rc = 0;
    } else if (fe.have) {
      char why[512];
      int line = fe.line;
      /* libxml2 reports an unknown attribute of an element with optional
       * children as a missing child ("Expecting an element opar, got
       * nothing") */
      if ((line <= 0 || strstr(fe.msg, "failed to validate attributes") ||
           strstr(fe.msg, "Expecting an element")) &&
          diagnose(xmlDocGetRootElement(doc), why, sizeof why, &line))
        bsim_error_set(err, BSIM_ERR_INPUT,
                       "%s:%d: %s (schema: %s; hint: docs/format.md describes "
                       "the format)",
                       file, line, why, fe.msg);
      else
        bsim_error_set(err, BSIM_ERR_INPUT,
                       "%s:%d: %s (hint: docs/format.md describes the format)",
                       file, line, fe.msg);
    } else {
      bsim_error_set(err, BSIM_ERR_INPUT,
                     "%s: the document does not follow the diagram schema",
                     file);
    }
  }
  xmlRelaxNGFreeValidCtxt(vc);
  if (lib)
    bsim_lib_schema_unlock(lib, schema, free_schema);
  else
    xmlRelaxNGFree(schema);
  return rc;
}

/* The diagram's own plugins (<library path>, at the top level) go into a
 * child of the caller's library, which they must not change. The result
 * is a reference the diagram owns, NULL on error. */
static const bsim_library *read_libraries(reader *r, xmlNodePtr root,
                                          const bsim_library *lib) {
  bsim_library *own = NULL;
  for (xmlNodePtr c = root->children; c; c = c->next) {
    if (!is_elem(c, "library")) continue;
    char *p = attr(c, "path");
    if (!own && p) own = bsim_library_create_child(lib, r->err);
    int rc = p && own ? dg_load_plugin(own, r->file, line_of(c), p, r->err)
                      : (p ? -1 : (nomem(r), -1));
    free(p);
    if (rc) {
      bsim_library_free(own);
      return NULL;
    }
  }
  return own ? own : bsim_library_retain(lib);
}

static void init_settings(dg_settings *s) {
  s->final_time = -1.0;
  s->rtol = -1.0;
  s->atol = -1.0;
  s->ttol = -1.0;
  s->solver = NULL;
  s->solver_params = NULL;
  s->nsolver_params = 0;
  s->samples = -1;
  s->spacing = -1;
}

bsim_diagram *dg_native_read(const char *path, xmlDocPtr doc,
                             const bsim_library *lib, bsim_error *err) {
  if (validate(path, doc, lib, err)) return NULL;
  reader r = {path, lib, err};
  bsim_diagram *d = calloc(1, sizeof *d);
  if (!d || !(d->file = strdup(path))) {
    free(d);
    nomem(&r);
    return NULL;
  }
  init_settings(&d->settings);
  xmlChar *dialect =
      xmlGetProp(xmlDocGetRootElement(doc), (const xmlChar *)"dialect");
  d->scilab = dialect && strcmp((const char *)dialect, "scilab") == 0;
  xmlFree(dialect);
  d->lib = r.lib = read_libraries(&r, xmlDocGetRootElement(doc), lib);
  if (d->lib) d->root = read_level(&r, xmlDocGetRootElement(doc), d, NULL);
  if (d->root && dg_compile_cblocks(d, err) != 0) {
    dg_diagram_free(d->root);
    d->root = NULL;
  }
  if (!d->root) {
    bsim_diagram_free(d);
    d = NULL;
  }
  return d;
}
