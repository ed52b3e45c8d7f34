/*
 * Writer of the native format (docs/format.md) from a diagram tree: what
 * `blocksim convert` makes of an Xcos file. Blocks keep their named
 * parameters as the reader mapped them from the dialogs; a block that runs
 * on the model its file stores (Xcos keeps no dialog for it, or its dialog
 * does not evaluate and Xcos keeps the stored values) is written with that
 * model as a <model> element, so that the native file runs the same. The
 * Scilab dialect, contexts, masks (as scripts), settings and observed
 * signals are kept; what the reader noted becomes comments.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlwriter.h>

#include "diagrams/dg_util.h"
#include "diagrams/write.h"

typedef struct wctx {
  const bsim_diagram *d;
  const bsim_flat *flat;
  xmlTextWriterPtr w;
  const char *solver;
  /* the flat blocks that run on their file's model, or on their define
   * step's made time-dependent as the file stores them; by path */
  const bsim_flat_block **stored;
  int nstored;
  bsim_error *err;
  int failed; /* a libxml2 call failed (out of memory) */
} wctx;

/* Shortest of %.15g..%.17g that reads back as x. */
static void fmt_num(double x, char *buf, size_t len) {
  for (int p = 15; p <= 17; p++) {
    snprintf(buf, len, "%.*g", p, x);
    if (strtod(buf, NULL) == x) return;
  }
}

static void check(wctx *c, int rc) {
  if (rc < 0) c->failed = 1;
}

static void start(wctx *c, const char *elem) {
  check(c, xmlTextWriterStartElement(c->w, (const xmlChar *)elem));
}

static void end(wctx *c) {
  check(c, xmlTextWriterEndElement(c->w));
}

static void attr(wctx *c, const char *name, const char *value) {
  check(c, xmlTextWriterWriteAttribute(c->w, (const xmlChar *)name,
                                       (const xmlChar *)value));
}

static void num_attr(wctx *c, const char *name, double x) {
  char buf[40];
  fmt_num(x, buf, sizeof buf);
  attr(c, name, buf);
}

static void comment(wctx *c, const char *text) {
  /* "--" may not appear inside a comment */
  char *t = strdup(text);
  if (!t) {
    c->failed = 1;
    return;
  }
  for (char *p = t; (p = strstr(p, "--")) != NULL;)
    p[1] = ' ';
  check(c, xmlTextWriterWriteComment(c->w, (const xmlChar *)t));
  free(t);
}

/* A list of numbers as blank-separated text; ints when iv is given. */
static void list_attr(wctx *c, const char *name, const double *dv,
                      const int *iv, int n) {
  if (n <= 0) return;
  char *buf = malloc((size_t)n * 26 + 1);
  if (!buf) {
    c->failed = 1;
    return;
  }
  size_t at = 0;
  for (int i = 0; i < n; i++) {
    if (i) buf[at++] = ' ';
    if (iv)
      at += (size_t)sprintf(buf + at, "%d", iv[i]);
    else
      fmt_num(dv[i], buf + at, 26), at += strlen(buf + at);
  }
  buf[at] = '\0';
  attr(c, name, buf);
  free(buf);
}

/* Whether v[0..n) is one bracketed group: "[...]" whose first '['
 * closes at the end ("[1] [2]" is not). */
static int one_group(const char *v, size_t n) {
  if (n < 2 || v[0] != '[' || v[n - 1] != ']') return 0;
  int depth = 0;
  for (size_t i = 0; i < n; i++) {
    if (v[i] == '[') depth++;
    if (v[i] == ']' && --depth == 0) return i == n - 1;
  }
  return 0;
}

/* A parameter's value, without the brackets the Xcos reader puts round a
 * numeric dialog field when they change nothing: "[0.5]" is written 0.5,
 * "[K]" K and "[[1;-1]]" [1;-1]. A string parameter is written as is. */
static void value_attr(wctx *c, const char *expr, int numeric) {
  size_t n = strlen(expr);
  char *v = strdup(expr);
  if (!v) {
    c->failed = 1;
    return;
  }
  static const char word[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV"
                             "WXYZ0123456789_.%";
  while (numeric && one_group(v, n)) {
    const char *in = v + 1;
    size_t m = n - 2;
    int simple =
        m > 0 &&
        (one_group(in, m) || strspn(in, word) == m ||
         (m > 1 && in[0] == '-' && strspn(in + 1, "0123456789.eE") == m - 1));
    if (!simple) break;
    memmove(v, v + 1, m);
    v[m] = '\0';
    n = m;
  }
  attr(c, "value", v);
  free(v);
}

static void int_attr(wctx *c, const char *name, int v) {
  if (v) list_attr(c, name, NULL, &v, 1);
}

static void write_model(wctx *c, const bsim_model *m) {
  start(c, "model");
  list_attr(c, "in", NULL, m->in, m->nin);
  list_attr(c, "in2", NULL, m->in2, m->nin);
  int dep = 0;
  for (int k = 0; k < m->nin; k++)
    dep |= m->dep_u[k];
  if (dep) list_attr(c, "dep-u", NULL, m->dep_u, m->nin);
  list_attr(c, "out", NULL, m->out, m->nout);
  list_attr(c, "out2", NULL, m->out2, m->nout);
  int_attr(c, "event-inputs", m->nevin);
  list_attr(c, "firing", m->firing, NULL, m->nevout);
  int_attr(c, "dep-t", m->dep_t);
  list_attr(c, "state", m->x0, NULL, m->nx);
  list_attr(c, "dstate", m->z0, NULL, m->nz);
  list_attr(c, "rpar", m->rpar, NULL, m->nrpar);
  list_attr(c, "ipar", NULL, m->ipar, m->nipar);
  int_attr(c, "zero-crossings", m->ng);
  int_attr(c, "modes", m->nmode);
  int_attr(c, "implicit", m->implicit);
  for (int k = 0; k < m->nopar; k++) {
    const bsim_value *o = &m->opar[k];
    start(c, "opar");
    list_attr(c, "rows", NULL, &o->rows, 1);
    list_attr(c, "cols", NULL, &o->cols, 1);
    int n = o->rows * o->cols;
    char *buf = n > 0 ? malloc((size_t)n * 26 + 1) : NULL;
    if (n > 0 && !buf) {
      c->failed = 1;
    } else if (n > 0) {
      size_t at = 0;
      for (int i = 0; i < n; i++) {
        if (i) buf[at++] = ' ';
        fmt_num(o->v[i], buf + at, 26);
        at += strlen(buf + at);
      }
      check(c, xmlTextWriterWriteString(c->w, (const xmlChar *)buf));
      free(buf);
    }
    end(c);
  }
  end(c);
}

static int cmp_path(const void *a, const void *b) {
  return strcmp((*(const bsim_flat_block *const *)a)->path,
                (*(const bsim_flat_block *const *)b)->path);
}

/* 0: the block runs on its parameters; 1: on the model its file stores;
 * 2: on its parameters, made time-dependent as the file stores it. */
static int runs_stored(const wctx *c, const dg_block *b, const char *path) {
  if (!b->stored) return 0;
  if (!b->stored_is_fallback) return 1;
  if (c->nstored == 0) return 0; /* stored may be NULL */
  bsim_flat_block key = {0};
  key.path = (char *)path;
  const bsim_flat_block *k = &key,
                        **hit = bsearch(&k, c->stored, (size_t)c->nstored,
                                        sizeof *c->stored, cmp_path);
  return !hit ? 0 : (*hit)->stored ? 1 : 2;
}

static int refuse(wctx *c, const dg_block *b, const char *path,
                  const char *why) {
  bsim_error_set(c->err, BSIM_ERR_INPUT,
                 "%s:%d: block '%s' (%s): %s, which the native format "
                 "cannot express yet",
                 c->d->file, b->line, path, b->gui ? b->gui : b->type, why);
  return -1;
}

/* Size of a port of the flat diagram's signal list. */
static int port_size(const bsim_flat *f, const bsim_flat_port *sp) {
  const bsim_model *m = &f->blocks[sp->block].model;
  return m->out[sp->port] * m->out2[sp->port];
}

/* Signal element n (from 1) of the Xcos numbering (flat->signals) as the
 * native numbering (native_signals) names it; 0 when there is none. */
static int native_element(const bsim_flat *f, int n) {
  int s = 0;
  for (; s < f->nsignals && n > port_size(f, &f->signals[s]); s++)
    n -= port_size(f, &f->signals[s]);
  if (s == f->nsignals || n < 1) return 0;
  for (int k = 0; k < f->nsignals; k++) {
    const bsim_flat_port *q = &f->native_signals[k];
    if (q->block == f->signals[s].block && q->port == f->signals[s].port)
      return n;
    n += port_size(f, q);
  }
  return 0;
}

/* An Xcos block reading signals by number (CFSCOPE's "links"): the native
 * format numbers signals otherwise (docs/blocks.md, "Floating probes"),
 * so the numbers are written as the native diagram numbers the same
 * elements. *text gets "[n1 n2 ...]" (malloc'ed) and *param the name of
 * the parameter holding them, or *text NULL when the block reads none.
 * 0, or -1 with the error set. */
static int probe_param(wctx *c, const dg_block *b, const char *path,
                       char **text, const char **param) {
  *text = NULL;
  const bsim_flat *f = c->flat;
  const bsim_flat_block *fb = NULL;
  for (int i = 0; f && f->native_signals && !fb && i < f->nblocks; i++)
    if (strcmp(f->blocks[i].path, path) == 0) fb = &f->blocks[i];
  if (!fb || fb->model.nprobes <= 0) return 0;
  int k = fb->values ? dg_param_find(fb->type, "links") : -1;
  const bsim_value *v = k >= 0 ? &fb->values[k] : NULL;
  int ok = v && v->v && v->rows * v->cols == fb->model.nprobes;
  for (int i = 0; ok && i < fb->model.nprobes; i++)
    ok = v->v[i] == fb->model.probes[i];
  if (!ok) return refuse(c, b, path, "it reads signals by Xcos's link numbers");
  char *t = malloc((size_t)fb->model.nprobes * 12 + 3);
  if (!t) return c->failed = 1, -1;
  strcpy(t, "[");
  for (int i = 0; i < fb->model.nprobes; i++) {
    int n = native_element(f, fb->model.probes[i]);
    if (n < 1) {
      free(t);
      return refuse(c, b, path, "it reads a signal element that is missing");
    }
    sprintf(t + strlen(t), "%s%d", i ? " " : "", n);
  }
  strcat(t, "]");
  *text = t;
  *param = fb->type->params[k].name;
  return 0;
}

static int is_numeric(const wctx *c, const char *type, const char *param) {
  const bsim_block_type *t = bsim_library_find(c->d->lib, type);
  int k = t ? dg_param_find(t, param) : -1;
  return k >= 0 && t->params[k].kind != BSIM_PARAM_STRING;
}

static int write_block(wctx *c, const dg_block *b, const char *path) {
  int stored = runs_stored(c, b, path);
  /* the stored model itself, or the parameters (made time-dependent as
   * the file stores the block when stored is 2: dep-t="1") */
  int model = stored == 1;
  if (b->gui && (!strcmp(b->gui, "CBLOCK") || !strcmp(b->gui, "CBLOCK4") ||
                 !strcmp(b->gui, "c_block")))
    return refuse(c, b, path, "a C block compiled from its source");
  if (model &&
      (b->stored->nprobes || b->stored->zcdirs || b->stored->no_jacobian ||
       b->stored->zcdir || (!b->stored_is_fallback && b->stored->sim)))
    return refuse(c, b, path, "its stored model has settings");
  const char *type = model && b->stored_is_fallback && b->stored->sim
                         ? b->stored->sim
                         : b->type;
  if (b->gui && strcmp(b->gui, type) != 0) {
    char note[256];
    snprintf(note, sizeof note, " Xcos block %s ", b->gui);
    comment(c, note);
  }
  if (model && b->stored_is_fallback) {
    /* the dialog, kept for whoever wants to fix what does not evaluate */
    const char *lead = " its Xcos dialog does not evaluate here (see the "
                       "notes above), so it runs on the model Xcos stored:";
    size_t n = strlen(lead) + 2; /* the closing space and the NUL */
    for (int i = 0; i < b->nparams; i++)
      n += strlen(b->params[i].name) + strlen(b->params[i].expr) + 2;
    char *note = malloc(n);
    if (!note) return c->failed = 1, -1;
    strcpy(note, lead);
    for (int i = 0; i < b->nparams; i++)
      strcat(strcat(strcat(strcat(note, " "), b->params[i].name), "="),
             b->params[i].expr);
    strcat(note, " ");
    comment(c, note);
    free(note);
  }
  char *probes = NULL;
  const char *probes_param = NULL;
  if (!model && probe_param(c, b, path, &probes, &probes_param)) return -1;
  if (probes) {
    char note[160];
    snprintf(note, sizeof note,
             " %s: Xcos's link numbers renumbered as this file numbers "
             "signals ",
             probes_param);
    comment(c, note);
  }
  start(c, "block");
  attr(c, "id", b->id);
  attr(c, "type", type);
  if (stored == 2) attr(c, "dep-t", "1");
  if (model) {
    write_model(c, b->stored);
  } else {
    for (int i = 0; i < b->nparams; i++) {
      const dg_param *p = &b->params[i];
      int renumbered =
          probes && probes_param && strcmp(p->name, probes_param) == 0;
      start(c, "param");
      attr(c, "name", p->name);
      /* an attribute would lose line breaks */
      if (renumbered)
        value_attr(c, probes, 1);
      else if (strchr(p->expr, '\n'))
        check(c, xmlTextWriterWriteString(c->w, (const xmlChar *)p->expr));
      else
        value_attr(c, p->expr, is_numeric(c, type, p->name));
      end(c);
      if (renumbered) probes_param = NULL;
    }
    if (probes && probes_param) { /* the dialog left it at its default */
      start(c, "param");
      attr(c, "name", probes_param);
      value_attr(c, probes, 1);
      end(c);
    }
  }
  free(probes);
  end(c);
  return 0;
}

static int write_level(wctx *c, const dg_diagram *d, const char *prefix);

static int write_node(wctx *c, const dg_block *b, const char *prefix) {
  size_t n = strlen(prefix) + strlen(b->id) + 2;
  char *path = malloc(n);
  if (!path) {
    c->failed = 1;
    return -1;
  }
  snprintf(path, n, "%s%s%s", prefix, *prefix ? "/" : "", b->id);
  int rc;
  if (b->sub) {
    if (b->gui) {
      char note[256];
      snprintf(note, sizeof note, " Xcos block %s ", b->gui);
      comment(c, note);
    }
    start(c, "superblock");
    attr(c, "id", b->id);
    rc = write_level(c, b->sub, path);
    end(c);
  } else {
    rc = write_block(c, b, path);
  }
  free(path);
  return rc;
}

/* block:port, or block:connector (by name when the link has one). */
static void write_ref(wctx *c, const char *name, const dg_portref *r) {
  size_t n = strlen(r->block) + (r->con ? strlen(r->con) : 0) + 16;
  char *s = malloc(n);
  if (!s) {
    c->failed = 1;
    return;
  }
  if (r->con)
    snprintf(s, n, "%s:%s", r->block, r->con);
  else
    snprintf(s, n, "%s:%d", r->block, r->port);
  attr(c, name, s);
  free(s);
}

/* <var name value/>, <solver-param name value/> */
static void name_value(wctx *c, const char *elem, const dg_param *p) {
  start(c, elem);
  attr(c, "name", p->name);
  attr(c, "value", p->expr);
  end(c);
}

static int write_level(wctx *c, const dg_diagram *d, const char *prefix) {
  if (d->npinned > 0) {
    bsim_error_set(c->err, BSIM_ERR_INPUT,
                   "%s: context variables set by overrides (%s, ...) cannot "
                   "be converted (hint: convert the file as it is)",
                   c->d->file, d->pinned[0].name);
    return -1;
  }
  if (d->script || d->ncontext) {
    start(c, "context");
    if (d->script) {
      start(c, "script");
      check(c, xmlTextWriterWriteString(c->w, (const xmlChar *)d->script));
      end(c);
    }
    for (int i = 0; i < d->ncontext; i++)
      name_value(c, "var", &d->context[i]);
    end(c);
  }
  for (int i = 0; i < d->nblocks; i++)
    if (write_node(c, &d->blocks[i], prefix)) return -1;
  for (int i = 0; i < d->nlinks; i++) {
    const dg_link *l = &d->links[i];
    int con = l->kind == DG_LINK_CONNECT;
    start(c, l->kind == DG_LINK_DATA ? "link" : con ? "connect" : "activation");
    write_ref(c, con ? "a" : "from", &l->from);
    write_ref(c, con ? "b" : "to", &l->to);
    end(c);
  }
  return 0;
}

static void write_settings(wctx *c) {
  const dg_settings *s = &c->d->settings;
  if (s->final_time > 0) {
    start(c, "simulation");
    num_attr(c, "final-time", s->final_time);
    if (c->solver) attr(c, "solver", c->solver);
    if (s->rtol > 0) num_attr(c, "rtol", s->rtol);
    if (s->atol > 0) num_attr(c, "atol", s->atol);
    if (s->ttol >= 0) num_attr(c, "time-tolerance", s->ttol);
    for (int i = 0; i < s->nsolver_params; i++)
      name_value(c, "solver-param", &s->solver_params[i]);
    end(c);
  }
  if (s->samples > 0 || s->spacing >= 0) {
    start(c, "output");
    if (s->samples > 0) {
      char buf[32];
      snprintf(buf, sizeof buf, "%ld", s->samples);
      attr(c, "samples", buf);
    }
    if (s->spacing >= 0)
      attr(c, "spacing", s->spacing == BSIM_SPACING_LOG ? "log" : "linear");
    end(c);
  }
}

static int write_doc(wctx *c) {
  const bsim_diagram *d = c->d;
  check(c, xmlTextWriterSetIndent(c->w, 1));
  check(c, xmlTextWriterSetIndentString(c->w, (const xmlChar *)"  "));
  check(c, xmlTextWriterStartDocument(c->w, "1.0", "UTF-8", NULL));
  char head[1200];
  snprintf(head, sizeof head,
           " Converted by `blocksim convert` from %s (%s); docs/xcos.md says "
           "what is read ",
           d->file, bsim_diagram_format(d));
  comment(c, head);
  for (int k = 0; k < 2; k++) {
    char **notes = k ? (c->flat ? c->flat->notes : NULL) : d->notes;
    int n = k ? (c->flat ? c->flat->nnotes : 0) : d->nnotes;
    for (int i = 0; i < n; i++) {
      char *note = malloc(strlen(notes[i]) + 16);
      if (!note) return c->failed = 1, -1;
      sprintf(note, " note: %s ", notes[i]);
      comment(c, note);
      free(note);
    }
  }
  start(c, "diagram");
  if (d->root->name) attr(c, "name", d->root->name);
  if (d->scilab) attr(c, "dialect", "scilab");
  write_settings(c);
  if (write_level(c, d->root, "")) return -1;
  for (int i = 0; i < d->nobserves; i++) {
    start(c, "observe");
    attr(c, "name", d->observes[i].name);
    write_ref(c, "signal", &d->observes[i].signal);
    end(c);
  }
  end(c);
  check(c, xmlTextWriterEndDocument(c->w));
  return 0;
}

int dg_write_native(const bsim_diagram *d, const bsim_flat *flat,
                    const char *solver, char **text, size_t *len,
                    bsim_error *err) {
  *text = NULL;
  *len = 0;
  wctx c = {d,    flat, NULL, solver ? solver : d->settings.solver,
            NULL, 0,    err,  0};
  int rc = -1;
  if (flat && flat->ntree > 0 &&
      !(c.stored = malloc((size_t)flat->ntree * sizeof *c.stored)))
    goto nomem;
  for (int i = 0; flat && i < flat->ntree; i++)
    if (flat->blocks[i].stored || flat->blocks[i].dep_t_stored)
      c.stored[c.nstored++] = &flat->blocks[i];
  if (c.nstored > 1) /* not NULL then */
    qsort(c.stored, (size_t)c.nstored, sizeof *c.stored, cmp_path);
  xmlBufferPtr buf = xmlBufferCreate();
  if (!buf) goto nomem;
  if (!(c.w = xmlNewTextWriterMemory(buf, 0))) {
    xmlBufferFree(buf);
    goto nomem;
  }
  rc = write_doc(&c);
  xmlFreeTextWriter(c.w); /* flushes into buf */
  if (rc == 0 && !c.failed) {
    *len = (size_t)xmlBufferLength(buf);
    *text = malloc(*len + 1);
    if (*text) {
      memcpy(*text, xmlBufferContent(buf), *len);
      (*text)[*len] = '\0';
    }
  }
  xmlBufferFree(buf);
  free(c.stored);
  if (rc == 0 && !*text) {
    *len = 0;
    bsim_error_set(err, BSIM_ERR_NOMEM, "%s: out of memory", d->file);
    return -1;
  }
  return rc;
nomem:
  free(c.stored);
  bsim_error_set(err, BSIM_ERR_NOMEM, "%s: out of memory", d->file);
  return -1;
}
