/*
 * The context of one level while flattening: overrides pinned before the
 * script, the level's Scilab script, then its <var>s, with a batch run's
 * variations applied. Apart from the walk (flatten.c) because the order
 * of these steps is what makes -p win over a script, and deserves to be
 * read in one place.
 */
#include <string.h>

#include "diagrams/expr.h"
#include "diagrams/flatten_int.h"

/* One variable (a <var>, or a value pinned by an override) into scope;
 * line 0 marks an override. A value that depends on a failed script
 * statement makes the variable unknown in turn: only its users fail, with
 * the original cause. */
static int context_var(fl *f, const dg_diagram *dg, const char *prefix,
                       bsim_scope *scope, const char *name, const char *expr,
                       int line, int pin) {
  bsim_value val = {0};
  char msg[1024];
  int rc = bsim_expr_eval(expr, scope, &val, msg, sizeof msg);
  if (rc == BSIM_EXPR_UNKNOWN) {
    rc = bsim_scope_set_unknown(scope, name, msg) ? dg_fl_nomem(f) : 0;
  } else if (rc != 0) {
    bsim_error_set(
        f->err, BSIM_ERR_INPUT,
        "%s:%d: context variable '%s'%s%s%s%s: %s (in '%s')", f->file,
        line ? line : dg->line, name, *prefix ? " of superblock '" : "", prefix,
        *prefix ? "'" : "", line ? "" : " (set by override)", msg, expr);
    rc = -1;
  } else if ((pin ? bsim_scope_pin : bsim_scope_set)(scope, name, &val)) {
    rc = dg_fl_nomem(f);
  }
  bsim_value_clear(&val);
  return rc;
}

static int pinned_by_override(const dg_diagram *dg, const char *name) {
  for (int i = 0; i < dg->npinned; i++)
    if (strcmp(dg->pinned[i].name, name) == 0) return 1;
  return 0;
}

static int run_script(fl *f, const dg_diagram *dg, bsim_scope *scope,
                      const char *prefix) {
  char msg[1024];
  int first = dg->script_line > 0 ? dg->script_line : 1;
  if (bsim_script_run(dg->script, first, scope, msg, sizeof msg, NULL) == 0)
    return 0;
  bsim_error_set(f->err, BSIM_ERR_INPUT,
                 "%s:%d: context script%s%s%s: %s (hint: contexts take "
                 "assignments, if, for and while; docs/format.md lists the "
                 "supported Scilab)",
                 f->file, dg->script_line > 0 ? dg->script_line : dg->line,
                 *prefix ? " of superblock '" : "", prefix, *prefix ? "'" : "",
                 msg);
  return -1;
}

/* A level's context. Values given from outside (overrides, a batch run's
 * variations) for names that are not <var>s are pinned before the script
 * runs, so that they win over its assignments; then the script; then the
 * <var>s in order, each possibly replaced by a variation. Without a
 * script, new names come after the <var>s, as appended overrides do. */
int dg_fl_context(fl *f, const dg_diagram *dg, bsim_scope *scope,
                  const char *prefix) {
  int rc = 0;
  for (int i = 0; i < dg->npinned && rc == 0; i++) {
    const dg_param *v = &dg->pinned[i];
    const char *ovr = f->vary ? dg_vary_context(f->vary, dg, v->name) : NULL;
    rc = context_var(f, dg, prefix, scope, v->name, ovr ? ovr : v->expr, 0, 1);
  }
  const char *extra, *expr;
  for (int k = 0; dg->script && f->vary && rc == 0 &&
                  (extra = dg_vary_extra(f->vary, dg, k, &expr)) != NULL;
       k++)
    if (!pinned_by_override(dg, extra))
      rc = context_var(f, dg, prefix, scope, extra, expr, 0, 1);
  if (rc == 0 && dg->script) rc = run_script(f, dg, scope, prefix);
  for (int i = 0; i < dg->ncontext && rc == 0; i++) {
    const dg_param *v = &dg->context[i];
    const char *ovr = f->vary ? dg_vary_context(f->vary, dg, v->name) : NULL;
    rc = context_var(f, dg, prefix, scope, v->name, ovr ? ovr : v->expr,
                     ovr ? 0 : v->line, 0);
  }
  for (int k = 0; !dg->script && f->vary && rc == 0 &&
                  (extra = dg_vary_extra(f->vary, dg, k, &expr)) != NULL;
       k++)
    rc = context_var(f, dg, prefix, scope, extra, expr, 0, 0);
  return rc;
}
