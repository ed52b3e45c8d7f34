/*
 * Entry of the Xcos reader: a parsed <XcosDiagram> document (from a .xcos,
 * or the content.xml of a .zcos with its decoded dictionary) becomes a
 * Diagram like the native reader's. The simulation settings of the
 * diagram's attributes map onto blocksim's: final time, tolerances, the
 * largest step (an engine parameter), and Xcos's solver code onto an
 * engine (docs/xcos.md has the table).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/dg_util.h"
#include "diagrams/xcos/xcos.h"

/* Xcos solver codes (scs_m.props.tol(6)) and the engines that stand for
 * them; iteration is the CVODE nonlinear iteration the code asks for. */
static const struct {
  int code;
  const char *engine, *iteration;
} solver_map[] = {
    {0, "auto", NULL},                 /* LSodar: Adams or BDF as needed */
    {1, "cvode-bdf", "newton"},        /* CVODE BDF / Newton */
    {2, "cvode-bdf", "fixed-point"},   /* CVODE BDF / functional */
    {3, "cvode-adams", "newton"},      /* CVODE Adams / Newton */
    {4, "cvode-adams", "fixed-point"}, /* CVODE Adams / functional */
    {5, "rk45", NULL},                 /* Dormand-Prince 4(5) */
    {6, "rk45", NULL},                 /* RK45 */
    {7, "ida", NULL},                  /* implicit RK45 */
    {8, "ida", NULL},                  /* Crank-Nicolson */
    {100, "ida", NULL},                /* IDA */
    {101, "ida", NULL},                /* DDaskr, Newton */
    {102, "ida", NULL},                /* DDaskr, GMRES */
};

static int add_solver_param(dg_settings *s, const char *name,
                            const char *value) {
  dg_param *g =
      realloc(s->solver_params, (size_t)(s->nsolver_params + 1) * sizeof *g);
  if (!g) return -1;
  s->solver_params = g;
  dg_param *p = &g[s->nsolver_params];
  p->name = strdup(name);
  p->expr = strdup(value);
  p->line = 0;
  if (!p->name || !p->expr) {
    free(p->name);
    free(p->expr);
    return -1;
  }
  s->nsolver_params++;
  return 0;
}

/* A numeric attribute of the root, or dflt when absent; bad text is bad
 * input. */
static int setting(xc_ctx *c, xmlNodePtr root, const char *name, double dflt,
                   double *out) {
  *out = dflt;
  int rc = xc_attr_num(root, name, out);
  if (rc < 0 || !isfinite(*out)) {
    bsim_error_set(c->err, BSIM_ERR_INPUT,
                   "%s:%ld: <XcosDiagram %s>: not a number", c->file,
                   (long)xmlGetLineNo(root), name);
    return -1;
  }
  return 0;
}

static int read_settings(xc_ctx *c, xmlNodePtr root, dg_settings *s) {
  double tf, atol, rtol, ttol, hmax, code;
  /* Defaults are those Scilab gives attributes a 5.5 file leaves out. */
  if (setting(c, root, "finalIntegrationTime", 30, &tf) ||
      setting(c, root, "integratorAbsoluteTolerance", 1e-6, &atol) ||
      setting(c, root, "integratorRelativeTolerance", 1e-6, &rtol) ||
      setting(c, root, "toleranceOnTime", 1e-10, &ttol) ||
      setting(c, root, "maximumStepSize", 0, &hmax) ||
      setting(c, root, "solver", 1, &code))
    return -1;
  s->final_time = tf;
  s->atol = atol;
  s->rtol = rtol;
  s->ttol = ttol >= 0 ? ttol : 0;
  int found = -1;
  for (size_t i = 0; i < sizeof solver_map / sizeof solver_map[0]; i++)
    if ((double)solver_map[i].code == code) found = (int)i;
  if (found < 0) {
    bsim_error_set(c->err, BSIM_ERR_INPUT,
                   "%s: unknown Xcos solver code %g (known: 0-8, 100-102; "
                   "hint: choose an engine with --solver)",
                   c->file, code);
    return -1;
  }
  if (!(s->solver = strdup(solver_map[found].engine)) ||
      !(s->solver_fallback = strdup("ida")))
    return xc_nomem(c);
  if (solver_map[found].iteration &&
      add_solver_param(s, "iteration", solver_map[found].iteration))
    return xc_nomem(c);
  if (hmax > 0) {
    char buf[64];
    snprintf(buf, sizeof buf, "%.17g", hmax);
    if (add_solver_param(s, "max-step", buf)) return xc_nomem(c);
  }
  return 0;
}

static xmlNodePtr child_as(xmlNodePtr n, const char *as) {
  for (xmlNodePtr ch = n->children; ch; ch = ch->next) {
    if (ch->type != XML_ELEMENT_NODE) continue;
    char *v = xc_attr(ch, "as");
    int match = v && strcmp(v, as) == 0;
    free(v);
    if (match) return ch;
  }
  return NULL;
}

bsim_diagram *dg_xcos_read(const char *file, xmlDocPtr doc,
                           const unsigned char *dict, size_t dict_len,
                           const bsim_library *lib, bsim_error *err) {
  xc_ctx c = {file, err, NULL, lib, NULL, NULL};
  xmlNodePtr root = xmlDocGetRootElement(doc);
  bsim_diagram *d = calloc(1, sizeof *d);
  sciv *decoded = NULL;
  xc_level *top = NULL;
  if (!d || !(d->file = strdup(file))) {
    free(d);
    xc_nomem(&c);
    return NULL;
  }
  c.diagram = d;
  d->format = "xcos";
  d->scilab = 1; /* expressions are Scilab's (eye(3) is 1x1, ...) */
  d->lib = bsim_library_retain(lib);
  d->settings.samples = -1;
  d->settings.spacing = -1;
  if (dict) {
    char msg[512];
    decoded = xc_dictionary_decode(dict, dict_len, msg, sizeof msg);
    if (!decoded) {
      bsim_error_set(err, BSIM_ERR_INPUT,
                     "%s: dictionary/dictionary.ser: %s (the .zcos is "
                     "damaged)",
                     file, msg);
      goto fail;
    }
    c.dict = decoded;
  }
  if (read_settings(&c, root, &d->settings)) goto fail;
  xmlNodePtr model = child_as(root, "model");
  if (!model) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "%s: <XcosDiagram> without its <mxGraphModel as=\"model\"> "
                   "(the file is damaged)",
                   file);
    goto fail;
  }
  top = xc_level_from_xml(&c, model, child_as(root, "context"));
  if (!top || xc_number_links(&c, top)) goto fail;
  d->root = xc_build_level(&c, top, "", 0);
  if (!d->root || dg_compile_cblocks(d, err) != 0) goto fail;
  d->root->line = (int)xmlGetLineNo(root);
  char *title = xc_attr(root, "title");
  d->root->name = title;
  xc_level_free(top);
  sciv_free(decoded);
  return d;
fail:
  xc_level_free(top);
  sciv_free(decoded);
  bsim_diagram_free(d);
  return NULL;
}
