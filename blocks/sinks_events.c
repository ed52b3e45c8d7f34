/*
 * The event scope CEVENTSCOPE: it has event inputs only and records which
 * of them fired at each activation, in columns ev<k> as Scilab's recorder
 * names them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocks/std.h"

/* ------------------------------------------------------------ CEVENTSCOPE */

static const bsim_param_spec ceventscope_params[] = {
    {"inputs", BSIM_PARAM_REAL, "1", "number of event inputs (>= 1)"},
    BSIM_SINK_SETTING("colors", "1",
                      "one curve colour (> 0) or mark (< 0) per event input"),
    BSIM_SINK_WINDOW,
    BSIM_SINK_POSITION,
    BSIM_SINK_SIZE("[600;400]"),
    BSIM_SINK_SETTING("refresh-period", "30", "width of the time axis (> 0)"),
};

static int ceventscope_define(bsim_define_ctx *ctx, bsim_model *m) {
  int n, win, pos[2], dim[2];
  double per;
  if (bsim_std_int(ctx, "inputs", 1, &n) != 0 ||
      bsim_std_window(ctx, "window", &win) != 0 ||
      bsim_std_window_pair(ctx, "position", pos) != 0 ||
      bsim_std_window_pair(ctx, "size", dim) != 0 ||
      bsim_std_scalar(ctx, "refresh-period", &per) != 0)
    return -1;
  if (n > 30)
    return bsim_define_error(ctx, "'inputs' must be at most 30, got %d", n);
  if (!(per > 0))
    return bsim_define_error(ctx, "'refresh-period' must be > 0, got %g", per);
  const bsim_value *clr = bsim_param(ctx, "colors");
  if (bsim_std_numel(clr) != n)
    return bsim_define_error(ctx,
                             "'colors' needs one entry per event input (%d), "
                             "got %d",
                             n, bsim_std_numel(clr));
  if (bsim_std_check_ints(ctx, "colors", clr, n) != 0) return -1;
  double *r = bsim_model_alloc_rpar(m, 1);
  int *ip = bsim_model_alloc_ipar(m, 2 + n + 4);
  if (!r || !ip || bsim_model_set_events(m, n, 0) != 0)
    return bsim_define_error(ctx, "out of memory");
  r[0] = per;
  *ip++ = win;
  *ip++ = 1;
  for (int k = 0; k < n; k++)
    *ip++ = (int)clr->v[k];
  *ip++ = pos[0], *ip++ = pos[1];
  *ip++ = dim[0], *ip = dim[1];
  return 0;
}

static void ceventscope_fn(bsim_block *blk, int flag) {
  int n = blk->nipar - 6; /* ipar = [win; 1; colors; 4] */
  if (flag == BSIM_FLAG_INIT) {
    /* the define step makes n >= 1; a model kept from a file may not */
    if (!blk->ipar || n < 1) {
      bsim_block_error(blk,
                       "it has %d integer parameters, where CEVENTSCOPE "
                       "stores 6 plus a colour per event input (hint: open "
                       "and close the block's dialog in Xcos to store them "
                       "again, or fix its parameters so that blocksim "
                       "evaluates them)",
                       blk->ipar ? blk->nipar : 0);
      return;
    }
    bsim_std_record_numbered(blk, "ev", n, NULL);
  } else if (flag == BSIM_FLAG_UPDATE && blk->nevprt > 0) {
    double row[30];
    for (int k = 0; k < n && k < 30; k++)
      row[k] = (blk->nevprt >> k) & 1;
    bsim_block_record(blk, row, n < 30 ? n : 30);
  }
}

static const bsim_block_type type_CEVENTSCOPE = {
    "CEVENTSCOPE",
    "cevscpe",
    "Event scope: records which event inputs fired, at each activation.",
    "Xcos draws a vertical line at each event. Here each activation\n"
    "records one row: the time, then one column per event input, ev<k> = 1\n"
    "when input k fired in that activation and 0 otherwise (events that\n"
    "reach several inputs in one activation set several columns). The\n"
    "other parameters describe Xcos's plot window and are only stored.\n"
    "Run-time layout: rpar = refresh-period, ipar = [window; 1; colors(:);\n"
    "position (2); size (2)] ([] is stored as [-1; -1]); no data ports,\n"
    "nevin = inputs, dep_ut = [0 0].",
    ceventscope_params,
    6,
    ceventscope_define,
    ceventscope_fn,
    0,
    "inputs,colors,window,position,size,refresh-period"};

const bsim_block_type *const bsim_sink_event_types[] = {&type_CEVENTSCOPE};
const int bsim_sink_event_ntypes =
    (int)(sizeof bsim_sink_event_types / sizeof bsim_sink_event_types[0]);
