/*
 * Zero-crossing event generators: ZCROSS_f, POSTONEG_f, NEGTOPOS_f and
 * GENERAL_f share Xcos's zcross function. Their surfaces are the input
 * elements; when some of them fire, the pattern of crossing directions
 * picks a column of a routing table (rpar) that says, for each event
 * output, after which delay it fires (negative: not at all). Keeping the
 * table as Xcos lays it out lets an .xcos file's rpar run unchanged.
 *
 * The blocks with modes (SATURATION, ...) live in modes.c; this file holds
 * the family's registry table for both.
 */
#include "blocks/zcross.h"
#include "blocks/std.h"

/* Above this many surfaces the 4^n-column table stops being reasonable. */
#define ZC_MAX_IN 8

/* Column of the routing table for a set of fired surfaces, as Xcos
 * numbers it: bit i of the high half says surface i+1 fired, bit i of the
 * low half says it fired downwards (jroot = -1). */
static int zc_column(const int *jroot, int ng) {
  int fired = 0, down = 0;
  for (int i = 0; i < ng; i++) {
    if (jroot[i] != 0) fired |= 1 << i;
    if (jroot[i] == -1) down |= 1 << i;
  }
  return (fired << ng) | down;
}

static void zcross_fn(bsim_block *blk, int flag) {
  int n = blk->nin > 0 ? bsim_std_insize(blk, 0) : 0;
  switch (flag) {
  case BSIM_FLAG_INIT: {
    if (blk->ng != n || n < 1 || n > ZC_MAX_IN) {
      bsim_block_error(blk,
                       "needs one surface per input element (1..%d): input "
                       "has %d elements, ng = %d",
                       ZC_MAX_IN, n, blk->ng);
      return;
    }
    long need = (long)blk->nevout << (2 * n);
    if (blk->nrpar != need)
      bsim_block_error(blk,
                       "the routing table (rpar) has %d entries; %d event "
                       "outputs and %d surfaces need %ld (outputs x 4^%d)",
                       blk->nrpar, blk->nevout, n, need, n);
    return;
  }
  case BSIM_FLAG_ZCROSS:
    for (int i = 0; i < blk->ng && i < n; i++)
      blk->g[i] = blk->inptr[0][i];
    return;
  case BSIM_FLAG_EVENTS: {
    /* Only the block's own roots schedule events. */
    if (blk->nevprt >= 0 || blk->ng < 1) return;
    int col = zc_column(blk->jroot, blk->ng);
    long base = (long)col * blk->nevout;
    for (int k = 0; k < blk->nevout; k++) {
      if (base + k >= blk->nrpar) break;
      double d = blk->rpar[base + k];
      if (d >= 0) blk->evout[k] = d;
    }
    return;
  }
  default:
    return;
  }
}

/* Ports and events every zcross block has: n data inputs with
 * feedthrough, one surface per element, nout event outputs that never
 * fire initially. rpar is left for the caller to fill. */
static double *zcross_model(bsim_define_ctx *ctx, bsim_model *m, int n,
                            int nout) {
  double *r = bsim_model_alloc_rpar(m, nout << (2 * n));
  if (!r || bsim_model_set_inputs(m, 1, n, 1, 1) != 0 ||
      bsim_model_set_events(m, 0, nout) != 0) {
    bsim_define_error(ctx, "out of memory");
    return NULL;
  }
  m->ng = n;
  return r;
}

static int input_count(bsim_define_ctx *ctx, int *n) {
  if (bsim_std_int(ctx, "in", 1, n) != 0) return -1;
  if (*n > ZC_MAX_IN)
    return bsim_define_error(ctx,
                             "'in' = %d surfaces would need a table of 4^%d "
                             "columns; at most %d are supported",
                             *n, *n, ZC_MAX_IN);
  return 0;
}

/* --------------------------------------------------------------- ZCROSS_f */

static const bsim_param_spec zcross_params[] = {
    {"in", BSIM_PARAM_REAL, "1",
     "input size: number of surfaces, which must all cross together"},
};

static int zcross_define(bsim_define_ctx *ctx, bsim_model *m) {
  int n;
  if (input_count(ctx, &n) != 0) return -1;
  double *r = zcross_model(ctx, m, n, 1);
  if (!r) return -1;
  /* Fire (delay 0) exactly in the columns where every surface fired,
   * whatever the directions: the last 2^n columns. */
  int ncol = 1 << (2 * n), all = ncol - (1 << n);
  for (int c = 0; c < ncol; c++)
    r[c] = c >= all ? 0.0 : -1.0;
  return 0;
}

#define ZCROSS_LAYOUT_DOC                                                      \
  "Run-time layout: rpar = the routing table, nevout x 4^n column-major;\n"    \
  "the column for a root is 2^n * F + D where bit i of F says surface\n"       \
  "i+1 fired and bit i of D that it fell (jroot = -1); a delay >= 0\n"         \
  "fires that event output after it. in = n, in2 = 1, dep_u = 1,\n"            \
  "ng = n, nmode = 0, firing = -1."

static const bsim_block_type type_ZCROSS_f = {
    "ZCROSS_f",
    "zcross",
    "Event when all input elements cross zero together.",
    "Each element of the input is a zero-crossing surface. When all of them\n"
    "cross zero at the same instant (in either direction; with one element,\n"
    "whenever it crosses), event output 1 fires at once.\n" ZCROSS_LAYOUT_DOC,
    zcross_params,
    1,
    zcross_define,
    zcross_fn,
    0,
    "in"};

/* ------------------------------------------------- POSTONEG_f, NEGTOPOS_f */

/* One surface: columns 0..3 = nothing, nothing, rose, fell. */
static int one_way_define(bsim_define_ctx *ctx, bsim_model *m, int rising) {
  double *r = zcross_model(ctx, m, 1, 1);
  if (!r) return -1;
  r[0] = r[1] = -1.0;
  r[2] = rising ? 0.0 : -1.0;
  r[3] = rising ? -1.0 : 0.0;
  m->zcdir = rising ? 1 : -1;
  return 0;
}

static int postoneg_define(bsim_define_ctx *ctx, bsim_model *m) {
  return one_way_define(ctx, m, 0);
}

static int negtopos_define(bsim_define_ctx *ctx, bsim_model *m) {
  return one_way_define(ctx, m, 1);
}

static const bsim_block_type type_POSTONEG_f = {
    "POSTONEG_f",
    "zcross",
    "Event when the input goes from positive to negative.",
    "Fires event output 1 at the instant its scalar input crosses zero\n"
    "downwards. No parameters.\n"
    "Run-time layout: rpar = [-1; -1; -1; 0] (the zcross routing table:\n"
    "fire only on a falling crossing), in = 1, in2 = 1, dep_u = 1, ng = 1,\n"
    "nmode = 0, firing = -1.",
    NULL,
    0,
    postoneg_define,
    zcross_fn,
    0,
    ""};

static const bsim_block_type type_NEGTOPOS_f = {
    "NEGTOPOS_f",
    "zcross",
    "Event when the input goes from negative to positive.",
    "Fires event output 1 at the instant its scalar input crosses zero\n"
    "upwards. No parameters.\n"
    "Run-time layout: rpar = [-1; -1; 0; -1] (the zcross routing table:\n"
    "fire only on a rising crossing), in = 1, in2 = 1, dep_u = 1, ng = 1,\n"
    "nmode = 0, firing = -1.",
    NULL,
    0,
    negtopos_define,
    zcross_fn,
    0,
    ""};

/* -------------------------------------------------------------- GENERAL_f */

static const bsim_param_spec general_params[] = {
    {"in", BSIM_PARAM_REAL, "1", "input size: number of surfaces (1..8)"},
    {"out", BSIM_PARAM_REAL, "1", "number of event outputs"},
    {"table", BSIM_PARAM_REAL, "0",
     "routing table, out x 4^in: entry (k, c) is the delay after which "
     "event output k fires for crossing pattern c (negative: it does not "
     "fire); a scalar fills the whole table"},
};

static int general_define(bsim_define_ctx *ctx, bsim_model *m) {
  int n, nout;
  if (input_count(ctx, &n) != 0 || bsim_std_int(ctx, "out", 1, &nout) != 0)
    return -1;
  if ((long)nout << (2 * n) > (1L << 20))
    return bsim_define_error(ctx,
                             "%d event outputs x 4^%d crossing patterns is "
                             "too large a table (at most 2^20 entries)",
                             nout, n);
  const bsim_value *tab = bsim_param(ctx, "table");
  int have = bsim_std_numel(tab), ncol = 1 << (2 * n);
  /* out x 4^in as the dialog shows it, or Xcos's rpar as a vector */
  int shaped = tab->rows == nout && tab->cols == ncol;
  int vector = (tab->rows == 1 || tab->cols == 1) && have == nout * ncol;
  if (have != 1 && !shaped && !vector)
    return bsim_define_error(ctx,
                             "'table' must be a scalar or an out x 4^in = "
                             "%dx%d matrix (one row per event output), got a "
                             "%dx%d matrix",
                             nout, ncol, tab->rows, tab->cols);
  double *r = zcross_model(ctx, m, n, nout);
  if (!r) return -1;
  for (int i = 0; i < nout * ncol; i++)
    r[i] = tab->v[have == 1 ? 0 : i];
  return 0;
}

static const bsim_block_type type_GENERAL_f = {
    "GENERAL_f",
    "zcross",
    "Zero crossings routed to event outputs by a table.",
    "Each element of the input is a zero-crossing surface. When some of\n"
    "them cross zero, the pattern of which crossed and in which direction\n"
    "selects a column of 'table'; each event output k fires after the\n"
    "delay in row k of that column, or not at all if it is negative. The\n"
    "column index (from 0) is 2^in * F + D: bit i of F is set when surface\n"
    "i+1 crossed, bit i of D when it crossed downwards. With in = 1 the\n"
    "columns are 2 (rose) and 3 (fell).\n" ZCROSS_LAYOUT_DOC,
    general_params,
    3,
    general_define,
    zcross_fn,
    0};

/* ------------------------------------------------------- family registry */

const bsim_block_type *const bsim_zc_types[] = {
    &type_ZCROSS_f,       &type_POSTONEG_f,      &type_NEGTOPOS_f,
    &type_GENERAL_f,      &bsim_type_SATURATION, &bsim_type_HYSTHERESIS,
    &bsim_type_SWITCH2_m, &bsim_type_SIGNUM,
};
const int bsim_zc_ntypes =
    (int)(sizeof bsim_zc_types / sizeof bsim_zc_types[0]);
