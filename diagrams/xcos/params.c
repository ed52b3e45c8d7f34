/*
 * What an Xcos block computes with. Scilab re-evaluates every block's
 * dialog fields (exprs) in the context before each run, so the model data
 * stored in a file can be stale; blocksim does the same for every type
 * that maps its dialog fields to its native parameters
 * (bsim_block_type.xcos_exprs): each field's text becomes the parameter's
 * expression and the type's define step builds the model. A type without
 * that mapping runs on the model stored in the file, provided the stored
 * simulation function is one blocksim has. Superblock port blocks take
 * their port number from ipar(1), as Scilab does.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocksim/scicos_type1.h"
#include "diagrams/dg_util.h"
#include "diagrams/xcos/xcos_int.h"

static int set_type(xc_ctx *c, dg_block *out, const char *name) {
  if (!(out->type = strdup(name))) return xc_nomem(c);
  return 0;
}

int xc_add_param(xc_ctx *c, dg_block *out, const char *name, const char *text,
                 int line) {
  dg_param *g =
      realloc(out->params, (size_t)(out->nparams + 1) * sizeof *out->params);
  if (!g) return xc_nomem(c);
  out->params = g;
  dg_param *p = &g[out->nparams];
  p->name = strdup(name);
  p->expr = strdup(text ? text : "");
  p->line = line;
  if (!p->name || !p->expr) {
    free(p->name);
    free(p->expr);
    return xc_nomem(c);
  }
  out->nparams++;
  return 0;
}

static int port_block(xc_ctx *c, const xc_block *xb, const char *path,
                      dg_block *out) {
  double port = sciv_num(xb->ipar, 0, -1);
  const char *text = sciv_str(xb->exprs, 0);
  char buf[32];
  if (port >= 1) {
    snprintf(buf, sizeof buf, "%.0f", port);
    text = buf;
  }
  if (set_type(c, out, xb->port_role)) return -1;
  return text ? xc_add_param(c, out, "port", text, xb->line) : 0;
}

/* Length of the mapping text up to the first of `stops` outside
 * parentheses, brackets and quotes (conversions may hold commas). */
static size_t span(const char *s, const char *stops) {
  int depth = 0;
  char quote = 0;
  size_t i = 0;
  for (; s[i]; i++) {
    char ch = s[i];
    if (quote) {
      quote = ch == quote ? 0 : quote;
    } else if (ch == '\'' || ch == '"') {
      quote = ch;
    } else if (ch == '(' || ch == '[') {
      depth++;
    } else if ((ch == ')' || ch == ']') && depth > 0) {
      depth--;
    } else if (depth == 0 && strchr(stops, ch)) {
      break;
    }
  }
  return i;
}

/* Entries of one alternative of a mapping (0 for an empty one); a final
 * "*" (any further fields ignored) gives INT_MAX. */
static int count_entries(const char *alt, size_t len) {
  if (len == 0) return 0;
  int n = 0;
  for (size_t at = 0; at <= len;) {
    size_t l = span(alt + at, ",|");
    if (l == 1 && alt[at] == '*') return INT_MAX;
    n++;
    at += l + 1;
  }
  return n;
}

/* The alternative of t->xcos_exprs for n dialog fields: the one with
 * exactly n entries, else the first with at least n (older dialogs had
 * fewer trailing fields). NULL when none fits. */
static const char *pick_alternative(const char *map, int n, size_t *len) {
  const char *fit = NULL;
  size_t fit_len = 0;
  for (const char *a = map;;) {
    size_t l = span(a, "|");
    int k = count_entries(a, l);
    if (k == n) {
      *len = l;
      return a;
    }
    if (k > n && !fit) fit = a, fit_len = l;
    if (!a[l]) break;
    a += l + 1;
  }
  *len = fit_len;
  return fit;
}

static int same_value(const char *field, const char *want) {
  char *e1, *e2;
  double a = strtod(field, &e1), b = strtod(want, &e2);
  while (*e1 == ' ')
    e1++;
  if (e1 != field && !*e1 && e2 != want && !*e2) return a == b;
  while (*field == ' ')
    field++;
  return strcmp(field, want) == 0;
}

/* One entry applied to one field's text: "-" ignores it, "=V" requires the
 * value V, "name" sets a parameter, "name(T)" sets it to T with each '$'
 * replaced by the field in parentheses (a conversion). */
static int apply_entry(xc_ctx *c, const xc_block *xb, const char *path,
                       const bsim_block_type *t, const char *entry, size_t len,
                       int k, const char *text, dg_block *out) {
  char e[128];
  snprintf(e, sizeof e, "%.*s", (int)(len < 127 ? len : 127), entry);
  if (strcmp(e, "-") == 0) return 0;
  if (e[0] == '=') {
    if (same_value(text, e + 1)) return 0;
    bsim_error_set(c->err, BSIM_ERR_INPUT,
                   "%s:%d: block '%s' (%s): dialog field %d is '%s'; "
                   "blocksim supports only %s there",
                   c->file, xb->line, path, xb->gui, k + 1, text, e + 1);
    return -1;
  }
  char *paren = strchr(e, '(');
  if (paren) *paren = '\0';
  /* Scilab's dialogs evaluate a numeric field as "[" text "]", so that
   * "1 3 5" is a vector and "" the empty matrix; text fields are taken as
   * they are. */
  int k_param = dg_param_find(t, e);
  int numeric = k_param < 0 || t->params[k_param].kind == BSIM_PARAM_REAL;
  size_t fl0 = strlen(text);
  char *value = malloc(fl0 + 3);
  if (!value) return xc_nomem(c);
  snprintf(value, fl0 + 3, numeric ? "[%s]" : "%s", text);
  if (!paren) {
    int rc = xc_add_param(c, out, e, value, xb->line);
    free(value);
    return rc;
  }
  text = value;
  size_t tl = strlen(paren + 1), fl = strlen(text), need = 1;
  for (size_t i = 0; i < tl; i++)
    need += paren[1 + i] == '$' ? fl : 1;
  char *expr = malloc(need);
  if (!expr) {
    free(value);
    return xc_nomem(c);
  }
  char *w = expr;
  for (size_t i = 0; i + 1 < tl; i++) { /* drop the closing ')' */
    if (paren[1 + i] == '$') {
      memcpy(w, text, fl);
      w += fl;
    } else {
      *w++ = paren[1 + i];
    }
  }
  *w = '\0';
  int rc = xc_add_param(c, out, e, expr, xb->line);
  free(expr);
  free(value);
  return rc;
}

/* The dialog fields `exprs` (a string matrix) as the named parameters of
 * `t`, through `mapping` (the type's, or its part before ';'). */
static int from_fields(xc_ctx *c, const xc_block *xb, const char *path,
                       const bsim_block_type *t, const sciv *exprs,
                       const char *mapping, dg_block *out) {
  int n = exprs && exprs->kind == SCIV_STRING ? sciv_numel(exprs) : 0;
  if (exprs && sciv_numel(exprs) > 0 && exprs->kind != SCIV_STRING) {
    bsim_error_set(c->err, BSIM_ERR_INPUT,
                   "%s:%d: block '%s' (%s): its dialog fields are not "
                   "strings (the file is damaged or the block is of a "
                   "newer kind)",
                   c->file, xb->line, path, xb->gui);
    return -1;
  }
  if (set_type(c, out, t->name)) return -1;
  size_t len;
  const char *map = pick_alternative(mapping, n, &len);
  if (!map) {
    bsim_error_set(c->err, BSIM_ERR_INPUT,
                   "%s:%d: block '%s' (%s): its dialog has %d fields, more "
                   "than blocksim knows for this block (a newer version of "
                   "the block?)",
                   c->file, xb->line, path, xb->gui, n);
    return -1;
  }
  for (int i = 0; i < n; i++) {
    size_t el = span(map, ",|");
    if (el == 1 && map[0] == '*') break; /* the rest is ignored */
    const char *text = sciv_str(exprs, i);
    if (apply_entry(c, xb, path, t, map, el, i, text ? text : "", out))
      return -1;
    map += el + 1;
  }
  return 0;
}

/* Lines of a string matrix joined by newlines (a malloc'ed string). */
static char *joined_lines(const sciv *v) {
  size_t len = 1;
  int n = v && v->kind == SCIV_STRING ? sciv_numel(v) : 0;
  for (int i = 0; i < n; i++)
    len += strlen(sciv_str(v, i) ? sciv_str(v, i) : "") + 1;
  char *s = malloc(len);
  if (!s) return NULL;
  s[0] = '\0';
  for (int i = 0; i < n; i++) {
    if (i) strcat(s, "\n");
    strcat(s, sciv_str(v, i) ? sciv_str(v, i) : "");
  }
  return s;
}

/* A dialog of list form, list(fields, texts) (scifunc_block_m: its
 * fields, then its code, one text per flag): the type's mapping is
 * FIELDS;TEXTS, TEXTS naming the parameter each text sets, its lines
 * joined by newlines (texts the file lacks keep their defaults). */
static int from_list(xc_ctx *c, const xc_block *xb, const char *path,
                     const bsim_block_type *t, dg_block *out) {
  const char *semi = strchr(t->xcos_exprs, ';');
  const sciv *fields = sciv_item(xb->exprs, 0),
             *texts = sciv_item(xb->exprs, 1);
  if (!sciv_is_list(xb->exprs) || !fields || fields->kind != SCIV_STRING ||
      (texts && !sciv_is_list(texts))) {
    bsim_error_set(c->err, BSIM_ERR_INPUT,
                   "%s:%d: block '%s' (%s): its dialog is not the list of "
                   "fields and code Xcos stores for this block (the file is "
                   "damaged)",
                   c->file, xb->line, path, xb->gui);
    return -1;
  }
  char *fmap = malloc((size_t)(semi - t->xcos_exprs) + 1);
  if (!fmap) return xc_nomem(c);
  memcpy(fmap, t->xcos_exprs, (size_t)(semi - t->xcos_exprs));
  fmap[semi - t->xcos_exprs] = '\0';
  int rc = from_fields(c, xb, path, t, fields, fmap, out);
  free(fmap);
  const char *name = semi + 1;
  for (int k = 0; rc == 0 && *name; k++) {
    size_t nl = span(name, ",");
    const sciv *text = texts ? sciv_item(texts, k) : NULL;
    if (text) {
      char pname[64], *value = joined_lines(text);
      snprintf(pname, sizeof pname, "%.*s", (int)(nl < 63 ? nl : 63), name);
      rc = value ? xc_add_param(c, out, pname, value, xb->line) : xc_nomem(c);
      free(value);
    }
    name += nl + (name[nl] ? 1 : 0);
  }
  return rc;
}

/* The dialog fields as the named parameters of `t`. */
static int from_exprs(xc_ctx *c, const xc_block *xb, const char *path,
                      const bsim_block_type *t, dg_block *out) {
  if (strchr(t->xcos_exprs, ';')) return from_list(c, xb, path, t, out);
  return from_fields(c, xb, path, t, xb->exprs, t->xcos_exprs, out);
}

/* A real vector from a stored value into *out (n elements); 0, or -1
 * (reported) when the value is not real. */
static int real_vector(xc_ctx *c, const xc_block *xb, const char *path,
                       const sciv *v, const char *what, double **out, int *n) {
  *n = v ? sciv_numel(v) : 0;
  if (*n && !sciv_is_real(v)) {
    bsim_error_set(c->err, BSIM_ERR_INPUT,
                   "%s:%d: block '%s' (%s): its stored %s is not a real "
                   "matrix, which blocksim cannot use",
                   c->file, xb->line, path, xb->gui, what);
    return -1;
  }
  *out = v ? v->re : NULL;
  return 0;
}

static int ports_of(const xc_block *xb, int kind) {
  int n = 0;
  for (int i = 0; i < xb->nports; i++)
    n += xb->ports[i].kind == kind;
  return n;
}

/* The port of `kind` numbered k (from 1), by ordering else position. */
static const xc_port *port_at(const xc_block *xb, int kind, int k) {
  int pos = 0;
  for (int i = 0; i < xb->nports; i++) {
    const xc_port *p = &xb->ports[i];
    if (p->kind != kind) continue;
    pos++;
    if (p->ordering >= 1 ? p->ordering == k : pos == k) return p;
  }
  return NULL;
}

/* The model the file stores, for a block running type t (the type its
 * simulation function names): what the block runs on (primary), or what
 * it falls back on (the block's type is then its interface's, and the
 * model names t as its simulation function). */
static int stored_model(xc_ctx *c, const xc_block *xb, const char *path,
                        const bsim_block_type *t, int primary, dg_block *out) {
  bsim_model *m = calloc(1, sizeof *m);
  if (!m) return xc_nomem(c);
  out->stored = m;
  out->stored_is_fallback = !primary;
  if (primary && set_type(c, out, t->name)) return -1;
  if (!primary) m->sim = t->name;
  int nin = ports_of(xb, XP_IN), nout = ports_of(xb, XP_OUT);
  if (bsim_model_set_inputs(m, nin, -1, -2, xb->dep_u) ||
      bsim_model_set_outputs(m, nout, -1, -2) ||
      bsim_model_set_events(m, ports_of(xb, XP_EVIN), ports_of(xb, XP_EVOUT)))
    return xc_nomem(c);
  for (int k = 0; k < nin; k++) {
    const xc_port *p = port_at(xb, XP_IN, k + 1);
    if (p) m->in[k] = p->rows, m->in2[k] = p->cols;
  }
  for (int k = 0; k < nout; k++) {
    const xc_port *p = port_at(xb, XP_OUT, k + 1);
    if (p) m->out[k] = p->rows, m->out2[k] = p->cols;
  }
  for (int k = 0; k < m->nevout; k++) {
    const xc_port *p = port_at(xb, XP_EVOUT, k + 1);
    double f = xb->firing ? sciv_num(xb->firing, k, -1) : p ? p->firing : -1;
    m->firing[k] = f;
  }
  m->dep_t = xb->dep_t;
  double *v;
  int n;
  if (real_vector(c, xb, path, xb->rpar, "rpar", &v, &n)) return -1;
  if (!bsim_model_alloc_rpar(m, n)) return xc_nomem(c);
  if (n) memcpy(m->rpar, v, (size_t)n * sizeof *v);
  if (real_vector(c, xb, path, xb->state, "state", &v, &n)) return -1;
  if (!bsim_model_alloc_x0(m, n)) return xc_nomem(c);
  if (n) memcpy(m->x0, v, (size_t)n * sizeof *v);
  if (real_vector(c, xb, path, xb->dstate, "dstate", &v, &n)) return -1;
  if (!bsim_model_alloc_z0(m, n)) return xc_nomem(c);
  if (n) memcpy(m->z0, v, (size_t)n * sizeof *v);
  if (real_vector(c, xb, path, xb->ipar, "ipar", &v, &n)) return -1;
  if (!bsim_model_alloc_ipar(m, n)) return xc_nomem(c);
  for (int i = 0; i < n; i++)
    m->ipar[i] = fabs(v[i]) < 2e9 ? (int)v[i] : 0;
  for (int i = 0; sciv_is_list(xb->opar) && i < xb->opar->nitems; i++) {
    const sciv *o = xb->opar->items[i];
    if (!sciv_is_real(o)) {
      bsim_error_set(c->err, BSIM_ERR_INPUT,
                     "%s:%d: block '%s' (%s): object parameter %d is not a "
                     "real matrix, which blocksim cannot use",
                     c->file, xb->line, path, xb->gui, i + 1);
      return -1;
    }
    bsim_value bv = {o->rows, o->cols, o->re, NULL};
    if (bsim_model_add_opar(m, &bv)) return xc_nomem(c);
  }
  if (sciv_numel(xb->odstate) > 0) {
    bsim_error_set(c->err, BSIM_ERR_INPUT,
                   "%s:%d: block '%s' (%s) has object states (odstate), "
                   "which blocksim does not support",
                   c->file, xb->line, path, xb->gui);
    return -1;
  }
  double ng = sciv_num(xb->nzcross, 0, 0), nmode = sciv_num(xb->nmode, 0, 0);
  if (xc_int_or(ng, INT_MIN) == INT_MIN ||
      xc_int_or(nmode, INT_MIN) == INT_MIN) {
    bsim_error_set(c->err, BSIM_ERR_INPUT,
                   "%s:%d: block '%s' (%s) stores %g zero crossings and %g "
                   "modes, which are not counts (hint: the file is damaged)",
                   c->file, xb->line, path, xb->gui, ng, nmode);
    return -1;
  }
  m->ng = (int)ng;
  m->nmode = (int)nmode;
  /* Xcos's implicit type-4 functions (10004, and 12004 for a CBLOCK):
   * flag 0 writes residuals */
  m->implicit = xb->simtype == 10004 || xb->simtype == 12004;
  return 0;
}

/* A C block carrying its source (CBLOCK, CBLOCK4, c_block): the model
 * stored in the file, and the code (the dialog's second item, one string
 * per line) for dg_compile_cblocks, which compiles it once the tree is
 * read. */
static int c_block(xc_ctx *c, const xc_block *xb, const char *path,
                   const bsim_block_type *t, dg_block *out) {
  const sciv *lines = sciv_is_list(xb->exprs) ? sciv_item(xb->exprs, 1) : NULL;
  if (!lines || lines->kind != SCIV_STRING || !xb->sim || !xb->sim[0]) {
    bsim_error_set(c->err, BSIM_ERR_INPUT,
                   "%s:%d: block '%s' (%s): its C code or function name is "
                   "missing (the file is damaged)",
                   c->file, xb->line, path, xb->gui);
    return -1;
  }
  size_t len = 1;
  for (int i = 0; i < sciv_numel(lines); i++)
    len += strlen(sciv_str(lines, i) ? sciv_str(lines, i) : "") + 1;
  char *code = malloc(len);
  if (!code) return xc_nomem(c);
  code[0] = '\0';
  for (int i = 0; i < sciv_numel(lines); i++) {
    strcat(code, sciv_str(lines, i) ? sciv_str(lines, i) : "");
    strcat(code, "\n");
  }
  int rc = stored_model(c, xb, path, t, 1, out);
  if (rc == 0) rc = xc_add_param(c, out, "function", xb->sim, xb->line);
  if (rc == 0) rc = xc_add_param(c, out, "code", code, xb->line);
  if (rc == 0 && strcmp(t->name, "c_block") != 0)
    rc = xc_add_param(c, out, "implicit", out->stored->implicit ? "y" : "n",
                      xb->line);
  free(code);
  return rc;
}

/* Interface functions whose dialog (Scilab's "set" of Scilab 6.1) sets
 * model.dep_ut itself: a time dependence the file stores is not kept for
 * them when their dialog evaluates. Every other block keeps it (the
 * scopes, which older Scilab versions saved time-dependent). */
static int dialog_sets_dep_t(const char *gui) {
  static const char *const guis[] = {"CBLOCK",
                                     "CBLOCK4",
                                     "CFSCOPE",
                                     "CLR",
                                     "CLR_f",
                                     "CLSS",
                                     "CLSS_f",
                                     "DLR",
                                     "DLR_f",
                                     "DLSS",
                                     "DLSS_f",
                                     "IFTHEL_f",
                                     "TCLSS",
                                     "TCLSS_f",
                                     "TIME_DELAY",
                                     "generic_block",
                                     "generic_block2",
                                     "generic_block3",
                                     "scifunc_block",
                                     "scifunc_block_m",
                                     NULL};
  for (int i = 0; guis[i]; i++)
    if (strcmp(gui, guis[i]) == 0) return 1;
  return 0;
}

/* A plugin's Xcos function called with the other argument list would
 * crash: the function type the file gives (1, or 2001 for C; 4 and its
 * variants) must be the one the function was registered with. */
static int check_fn_type(xc_ctx *c, const xc_block *xb, const char *path,
                         const bsim_block_type *ts) {
  int st = xb->simtype;
  int file1 = st == 1 || st == 1001 || st == 2001;
  int file4 = st == 4 || st == 2004 || st == 10004 || st == 12004;
  int reg1 = ts->define == bsim_scicos1_define;
  int reg4 = ts->define == bsim_scicos4_define ||
             ts->define == bsim_scicos4_define_implicit;
  if ((file1 && reg4) || (file4 && reg1)) {
    bsim_error_set(c->err, BSIM_ERR_INPUT,
                   "%s:%d: block '%s' (%s): the file calls '%s' as a "
                   "function of type %d, but it is registered as a type-%d "
                   "function (hint: register it with BSIM_SCICOS%d_TYPE, or "
                   "correct the block's function type)",
                   c->file, xb->line, path, xb->gui, xb->sim, st, reg1 ? 1 : 4,
                   file1 ? 1 : 4);
    return -1;
  }
  return 0;
}

int xc_block_params(xc_ctx *c, const xc_block *xb, const char *path, int frozen,
                    dg_block *out) {
  if (xb->port_role) return port_block(c, xb, path, out);
  out->dialog_sets_dep_t = dialog_sets_dep_t(xb->gui);
  const bsim_block_type *t = bsim_library_find(c->lib, xb->gui);
  if (t && (strcmp(t->name, "CBLOCK") == 0 || strcmp(t->name, "CBLOCK4") == 0 ||
            strcmp(t->name, "c_block") == 0))
    return c_block(c, xb, path, t, out);
  const bsim_block_type *ts =
      xb->sim && xb->sim[0] ? bsim_library_find(c->lib, xb->sim) : NULL;
  int mapped = t && strcmp(t->name, xb->gui) == 0 && t->xcos_exprs;
  /* a dialog of list form carries what its stored model cannot hold
   * (scifunc_block_m's code: strings in opar) */
  if (mapped && strchr(t->xcos_exprs, ';'))
    return from_exprs(c, xb, path, t, out);
  if (ts && check_fn_type(c, xb, path, ts) != 0) return -1;
  if (ts && (frozen || !mapped)) return stored_model(c, xb, path, ts, 1, out);
  if (mapped) {
    if (from_exprs(c, xb, path, t, out)) return -1;
    if (!ts) return 0;
    /* What Xcos keeps when the dialog fields cannot be evaluated; a file
     * whose stored model blocksim cannot use simply has no fallback. */
    bsim_error scratch;
    bsim_error_clear(&scratch);
    xc_ctx quiet = *c;
    quiet.err = &scratch;
    if (stored_model(&quiet, xb, path, ts, 0, out) != 0) {
      if (scratch.status == BSIM_ERR_NOMEM) return xc_nomem(c);
      if (out->stored) bsim_model_clear(out->stored);
      free(out->stored);
      out->stored = NULL;
    }
    return 0;
  }
  bsim_error_set(c->err, BSIM_ERR_INPUT,
                 "%s:%d: block '%s': blocksim has no block %s (simulation "
                 "function '%s') (hint: `blocksim blocks` lists the "
                 "supported blocks; docs/xcos.md compares them with Xcos's "
                 "palettes)",
                 c->file, xb->line, path, xb->gui, xb->sim ? xb->sim : "");
  return -1;
}
