/*
 * Block types described for people: the model a type builds from its
 * default parameters, so that `blocksim blocks` can show ports and sizes
 * without a diagram.
 */
#include <stdlib.h>

#include "diagrams/define.h"
#include "diagrams/expr.h"

int bsim_block_type_default_model(const bsim_block_type *t, bsim_model *m,
                                  bsim_error *err) {
  bsim_value *vals =
      calloc((size_t)(t->nparams ? t->nparams : 1), sizeof *vals);
  int rc = -1;
  if (!vals) {
    bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
    return -1;
  }
  for (int i = 0; i < t->nparams; i++) {
    const bsim_param_spec *ps = &t->params[i];
    char msg[256];
    if (!ps->default_expr) {
      bsim_error_set(err, BSIM_ERR_INPUT, "%s: parameter '%s' has no default",
                     t->name, ps->name);
      goto done;
    }
    if (bsim_expr_eval_param(ps->kind, ps->default_expr, NULL, &vals[i], msg,
                             sizeof msg) != 0) {
      bsim_error_set(err, BSIM_ERR_INPUT, "%s: default of '%s': %s", t->name,
                     ps->name, msg);
      goto done;
    }
  }
  bsim_define_ctx ctx = {t->name, NULL, 0, t, vals, err};
  rc = bsim_define_run(&ctx, m);
done:
  for (int i = 0; i < t->nparams; i++)
    bsim_value_clear(&vals[i]);
  free(vals);
  return rc;
}
