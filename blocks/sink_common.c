/*
 * What the sinks share: the recorder most of them are (one row of all
 * inputs per activation), and their display settings (windows, colours,
 * axis bounds, 0/1 switches), checked as Xcos's dialogs check them.
 * Nothing is drawn, but a diagram must be refused or accepted as Xcos
 * would, and the settings are stored in rpar/ipar as Xcos stores them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocks/std.h"

/* A row at every update, as Xcos's scopes draw at every flag 2: also when
 * called for time alone (nevprt 0), which happens to a scope an Xcos file
 * stores as time-dependent (docs/scheduler.md, "Time includes all
 * events"). */
void bsim_std_record_fn(bsim_block *blk, int flag) {
  if (flag == BSIM_FLAG_INIT)
    bsim_block_record_names(blk, NULL);
  else if (flag == BSIM_FLAG_UPDATE)
    bsim_block_record_inputs(blk);
}

int bsim_std_record_numbered(bsim_block *blk, const char *prefix, int n,
                             const int *numbers) {
  size_t len = (size_t)n * (strlen(prefix) + 12) + 1;
  char *names = malloc(len), *p = names;
  if (!names) {
    bsim_block_error(blk, "out of memory naming its record's columns");
    return -1;
  }
  *p = '\0';
  for (int k = 0; k < n; k++)
    p += sprintf(p, "%s%s%d", k ? "," : "", prefix,
                 numbers ? numbers[k] : k + 1);
  int rc = bsim_block_record_names(blk, names);
  free(names);
  return rc;
}

int bsim_std_check_ints(bsim_define_ctx *ctx, const char *name,
                        const bsim_value *v, int n) {
  for (int i = 0; i < n; i++)
    if (!isfinite(v->v[i]) || fabs(v->v[i]) > 1e9)
      return bsim_define_error(ctx,
                               "'%s': entry %d (%g) is not a usable "
                               "integer",
                               name, i + 1, v->v[i]);
  return 0;
}

int bsim_std_window_pair(bsim_define_ctx *ctx, const char *name, int *out) {
  const bsim_value *v = bsim_param(ctx, name);
  int n = bsim_std_numel(v);
  if (n == 0) {
    out[0] = out[1] = -1;
    return 0;
  }
  if (n != 2)
    return bsim_define_error(ctx, "'%s' must be [] or two numbers, got %d",
                             name, n);
  if (bsim_std_check_ints(ctx, name, v, 2) != 0) return -1;
  for (int i = 0; i < 2; i++)
    out[i] = (int)floor(v->v[i]);
  return 0;
}

int bsim_std_window(bsim_define_ctx *ctx, const char *name, int *out) {
  double w;
  if (bsim_std_scalar(ctx, name, &w) != 0) return -1;
  if (w < -1 || w != floor(w) || w > 1e9)
    return bsim_define_error(ctx,
                             "'%s' must be -1 (automatic) or a window "
                             "number >= 0, got %g",
                             name, w);
  *out = (int)w;
  return 0;
}

int bsim_std_ordered(bsim_define_ctx *ctx, const char *lo_name, double lo,
                     const char *hi_name, double hi) {
  if (!isfinite(lo) || !isfinite(hi) || lo >= hi)
    return bsim_define_error(ctx,
                             "'%s' must be greater than '%s' (got %g and %g)",
                             hi_name, lo_name, hi, lo);
  return 0;
}

int bsim_std_bounds(bsim_define_ctx *ctx, const char *name, double *out) {
  const bsim_value *v = bsim_param(ctx, name);
  if (bsim_std_numel(v) != 2)
    return bsim_define_error(ctx, "'%s' must be [min max], got %d entries",
                             name, bsim_std_numel(v));
  if (!isfinite(v->v[0]) || !isfinite(v->v[1]) || v->v[0] >= v->v[1])
    return bsim_define_error(ctx,
                             "'%s': the maximum must be greater than the "
                             "minimum (got [%g %g])",
                             name, v->v[0], v->v[1]);
  out[0] = v->v[0];
  out[1] = v->v[1];
  return 0;
}

int bsim_std_switch(bsim_define_ctx *ctx, const char *name, int *out) {
  double d;
  if (bsim_std_scalar(ctx, name, &d) != 0) return -1;
  if (d != 0 && d != 1)
    return bsim_define_error(ctx, "'%s' must be 0 or 1, got %g", name, d);
  *out = (int)d;
  return 0;
}
