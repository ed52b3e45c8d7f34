/*
 * One leaf block's run-time model while flattening: its parameters
 * evaluated along the scope chain and its type's define step run - or,
 * for an Xcos block, the model the file stores, used as is or as what the
 * block falls back on when its dialog fields do not evaluate (as Xcos
 * keeps a block's stored values then, with a note).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/define.h"
#include "diagrams/dg_util.h"
#include "diagrams/expr.h"
#include "diagrams/flatten_int.h"

int dg_fl_eval_params(fl *f, const dg_block *b, const char *path,
                      const bsim_block_type *t, const bsim_scope *scope,
                      bsim_value *values) {
  for (int i = 0; i < b->nparams; i++) {
    if (dg_param_find(t, b->params[i].name) < 0) {
      char names[512];
      dg_param_list(t, names, sizeof names);
      bsim_error_set(f->err, BSIM_ERR_INPUT,
                     "%s:%d: block '%s': unknown parameter '%s' for type %s "
                     "(its parameters: %s)",
                     f->file, b->params[i].line ? b->params[i].line : b->line,
                     path, b->params[i].name, t->name, names);
      return -1;
    }
  }
  for (int i = 0; i < t->nparams; i++) {
    const bsim_param_spec *s = &t->params[i];
    const dg_param *given = NULL;
    for (int k = 0; k < b->nparams; k++)
      if (strcmp(b->params[k].name, s->name) == 0) given = &b->params[k];
    const char *ovr = f->vary ? dg_vary_param(f->vary, b, s->name) : NULL;
    const char *text = ovr ? ovr : given ? given->expr : s->default_expr;
    int line = given && given->line && !ovr ? given->line : b->line;
    if (!text) {
      bsim_error_set(f->err, BSIM_ERR_INPUT,
                     "%s:%d: block '%s' (%s): missing required parameter '%s' "
                     "(hint: add <param name=\"%s\" value=\"...\"/>)",
                     f->file, b->line, path, t->name, s->name, s->name);
      return -1;
    }
    const char *origin = ovr || (given && !given->line) ? " (set by override)"
                         : given                        ? ""
                                                        : " (default)";
    char msg[1024];
    int rc =
        bsim_expr_eval_param(s->kind, text, scope, &values[i], msg, sizeof msg);
    if (rc != 0) {
      bsim_error_set(f->err, BSIM_ERR_INPUT,
                     "%s:%d: block '%s' parameter '%s'%s: %s (in '%s')",
                     f->file, line, path, s->name, origin, msg, text);
      /* BSIM_EXPR_UNKNOWN: the value depends on a context statement that
       * failed; an Xcos reader may use the model stored in the file. */
      return rc;
    }
    if (s->kind == BSIM_PARAM_STRING) continue;
    /* 0/0, 1/0, %nan, 10^400: no block means them, and they would come
     * out as rows of NaN with status 0 */
    long n = (long)values[i].rows * values[i].cols;
    for (long k = 0; k < n; k++) {
      double v = values[i].v[k];
      if (isfinite(v)) continue;
      char at[48] = "";
      if (n > 1) snprintf(at, sizeof at, " (element %ld)", k + 1);
      bsim_error_set(f->err, BSIM_ERR_INPUT,
                     "%s:%d: block '%s' parameter '%s'%s: '%s' gives %s%s "
                     "(hint: parameters must be finite numbers)",
                     f->file, line, path, s->name, origin, text,
                     isnan(v) ? "NaN"
                     : v > 0  ? "+inf"
                              : "-inf",
                     at);
      return -1;
    }
  }
  return 0;
}

/* An Xcos block whose type has no mapping of its dialog: its model is the
 * one the file stores, copied (the diagram may be flattened again). */
int dg_fl_stored_leaf(fl *f, const dg_block *b, node *n) {
  if (b->nparams > 0) {
    bsim_error_set(f->err, BSIM_ERR_INPUT,
                   "%s:%d: block '%s' (%s): unknown parameter '%s': this "
                   "block runs on the model data its file gives and has no "
                   "named parameters",
                   f->file, b->params[0].line ? b->params[0].line : b->line,
                   n->path, b->gui ? b->gui : n->type->name, b->params[0].name);
    return -1;
  }
  if (dg_model_copy(&n->model, b->stored) != 0) return dg_fl_nomem(f);
  n->stored = 1;
  return 0;
}

/* An Xcos block whose dialog fields do not evaluate keeps the model the
 * file stores, as Xcos keeps a block's values then - unless one of its
 * parameters was set by an override, which must not be lost silently. */
int dg_fl_can_fall_back(const dg_block *b) {
  if (!b->stored || !b->stored_is_fallback) return 0;
  for (int i = 0; i < b->nparams; i++)
    if (b->params[i].line == 0) return 0;
  return 1;
}

static int note(fl *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int note(fl *f, const char *fmt, ...) {
  if (!f->out) return 0;
  va_list ap;
  va_start(ap, fmt);
  int rc = dg_add_notev(&f->out->notes, &f->out->nnotes, fmt, ap);
  va_end(ap);
  return rc ? dg_fl_nomem(f) : 0;
}

/* Xcos keeps what a block's dialog does not set as the file stores it:
 * a block stored as time-dependent (dependsOnT, as older Scilab versions
 * saved their scopes) stays so, and is then also called at every other
 * event of the diagram (docs/scheduler.md, "Time includes all events") -
 * unless its dialog sets the time dependence itself (CFSCOPE, CLR, ...). */
static int keep_stored_time(fl *f, const dg_block *b, node *n) {
  if (b->dep_t && !n->model.dep_t) { /* native: as its file says */
    n->model.dep_t = 1;
    n->dep_t_stored = 1;
    return 0;
  }
  if (!b->stored || !b->stored->dep_t || n->model.dep_t || b->dialog_sets_dep_t)
    return 0;
  n->model.dep_t = 1;
  n->dep_t_stored = 1;
  return note(f,
              "%s:%d: block '%s' (%s): the file stores it as time-dependent "
              "(dependsOnT), as older Scilab versions saved it, so it is "
              "also called at the diagram's other events, as in Xcos",
              f->file, b->line, n->path, b->gui ? b->gui : n->type->name);
}

/* Evaluate the parameters and run the define step; for a block that may
 * fall back on its stored model, a failure does that instead (with a
 * note). n->values gets the evaluated parameters, NULL after a fall
 * back. */
int dg_fl_define_leaf(fl *f, const dg_block *b, node *n,
                      const bsim_block_type *t, const bsim_scope *scope) {
  bsim_value *values =
      t->nparams ? calloc((size_t)t->nparams, sizeof *values) : NULL;
  if (t->nparams && !values) return dg_fl_nomem(f);
  bsim_error scratch, *real = f->err;
  int fallback = dg_fl_can_fall_back(b);
  if (fallback) {
    bsim_error_clear(&scratch);
    f->err = &scratch;
  }
  int rc = dg_fl_eval_params(f, b, n->path, t, scope, values);
  if (rc == 0) {
    bsim_define_ctx ctx = {n->path, f->file, b->line, t, values, f->err, scope};
    rc = bsim_define_run(&ctx, &n->model);
  }
  f->err = real;
  if (rc == 0 || !fallback) {
    n->values = values;
    return rc == 0 ? keep_stored_time(f, b, n) : rc;
  }
  bsim_values_free(values, t->nparams);
  if (scratch.status == BSIM_ERR_NOMEM) return dg_fl_nomem(f);
  if (dg_model_copy(&n->model, b->stored) != 0) return dg_fl_nomem(f);
  n->stored = 1;
  return note(f,
              "%s (the block keeps the parameters stored in the file, as "
              "Xcos does)",
              scratch.message);
}
