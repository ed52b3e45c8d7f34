/*
 * Glue between the flattener and the block types' define steps: parameter
 * lookup by name and error messages that carry the block's path and line.
 */
#include "diagrams/define.h"
#include "diagrams/expr.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const bsim_value *bsim_param(bsim_define_ctx *ctx, const char *name) {
  for (int i = 0; i < ctx->type->nparams; i++)
    if (strcmp(ctx->type->params[i].name, name) == 0) return &ctx->values[i];
  return NULL;
}

const bsim_value *bsim_define_lookup(bsim_define_ctx *ctx, const char *name) {
  return ctx->scope ? bsim_scope_get(ctx->scope, name) : NULL;
}

int bsim_define_error(bsim_define_ctx *ctx, const char *fmt, ...) {
  char what[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  if (ctx->file && ctx->line > 0)
    bsim_error_set(ctx->err, BSIM_ERR_INPUT, "%s:%d: block '%s' (%s): %s",
                   ctx->file, ctx->line, ctx->path, ctx->type->name, what);
  else
    bsim_error_set(ctx->err, BSIM_ERR_INPUT, "block '%s' (%s): %s", ctx->path,
                   ctx->type->name, what);
  return -1;
}

int bsim_define_run(bsim_define_ctx *ctx, bsim_model *m) {
  memset(m, 0, sizeof *m);
  if (ctx->type->define(ctx, m) != 0) {
    if (ctx->err->status == BSIM_OK)
      bsim_define_error(ctx, "invalid parameters");
    bsim_model_clear(m);
    return -1;
  }
  return 0;
}
