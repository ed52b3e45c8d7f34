/*
 * Scopes: CSCOPE and CMSCOPE, their autoscaling variants SCALE_CSCOPE
 * and SCALE_CMSCOPE, and the floating scope CFSCOPE, which has CSCOPE's
 * dialog but no input: it reads signals by number (model.probes). Without a
 * screen, a scope is a recorder: each activation appends (t, inputs) to the
 * block's record, which the scheduler writes out (`blocksim run --scopes DIR`).
 * The display settings (colours, window, axes, refresh period, buffer,
 * autoscaling) are still accepted and stored in rpar/ipar exactly as Xcos
 * stores them, so that diagrams move between the two tools unchanged.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blocks/std.h"

/* The settings both scopes share, checked as Xcos's dialogs check them. */
typedef struct scope_common {
  int win, buffer, heritance;
  int pos[2], dim[2];
} scope_common;

/* CFSCOPE's dialog has no heritance: floating is 1 for it. */
static int scope_common_read(bsim_define_ctx *ctx, scope_common *c,
                             int floating) {
  c->heritance = 0;
  return bsim_std_int(ctx, "buffer-size", 2, &c->buffer) != 0 ||
                 (!floating &&
                  bsim_std_switch(ctx, "heritance", &c->heritance) != 0) ||
                 bsim_std_window_pair(ctx, "position", c->pos) != 0 ||
                 bsim_std_window_pair(ctx, "size", c->dim) != 0 ||
                 bsim_std_window(ctx, "window", &c->win) != 0
             ? -1
             : 0;
}

/* Range and refresh period of one curve group. */
static int check_axis(bsim_define_ctx *ctx, double lo, double hi, double per) {
  if (bsim_std_ordered(ctx, "ymin", lo, "ymax", hi) != 0) return -1;
  if (!(per > 0) || !isfinite(per))
    return bsim_define_error(ctx, "'refresh-period' must be > 0, got %g", per);
  return 0;
}

/* The SCALE_ variants rescale their y axes to the data: one flag more,
 * stored where the plain scopes keep a 0. */
#define AUTOSCALE_PARAM                                                        \
  {                                                                            \
    "autoscale", BSIM_PARAM_REAL, "1",                                         \
        "1: the y axes follow the data, 0: fixed by ymin and ymax; display "   \
        "only"                                                                 \
  }

/* ----------------------------------------------------------------- CSCOPE */

/* CSCOPE's dialog up to its buffer size; CFSCOPE's starts the same. */
#define SCOPE_PARAMS(buffer)                                                   \
  BSIM_SINK_SETTING("colors", "[1 3 5 7 9 11 13 15]",                          \
                    "8 curve colours (> 0) or marks (< 0)"),                   \
      BSIM_SINK_WINDOW, BSIM_SINK_POSITION, BSIM_SINK_SIZE("[600;400]"),       \
      BSIM_SINK_SETTING("ymin", "-15", "lower end of the y axis"),             \
      BSIM_SINK_SETTING("ymax", "15", "upper end of the y axis"),              \
      BSIM_SINK_SETTING("refresh-period", "30",                                \
                        "width of the time axis (> 0)"),                       \
      BSIM_SINK_SETTING("buffer-size", buffer, "points drawn at once (>= 2)")

static const bsim_param_spec cscope_params[] = {
    SCOPE_PARAMS("20"),
    {"heritance", BSIM_PARAM_REAL, "0",
     "0: one event input activates the scope; 1: no event input, the scope "
     "records whenever the blocks feeding it are activated"},
    {"name", BSIM_PARAM_STRING, "", "label of the scope; display only"},
    AUTOSCALE_PARAM, /* SCALE_CSCOPE only: it lists one more parameter */
};

/* CSCOPE keeps 0 in rpar(1) (once the dt of the old scope), SCALE_CSCOPE
 * its autoscale flag. */
static int cscope_build(bsim_define_ctx *ctx, bsim_model *m, double r0,
                        int floating) {
  scope_common c;
  double lo, hi, per;
  if (scope_common_read(ctx, &c, floating) != 0 ||
      bsim_std_scalar(ctx, "ymin", &lo) || bsim_std_scalar(ctx, "ymax", &hi) ||
      bsim_std_scalar(ctx, "refresh-period", &per) ||
      check_axis(ctx, lo, hi, per) != 0)
    return -1;
  const bsim_value *clr = bsim_param(ctx, "colors");
  if (bsim_std_numel(clr) != 8)
    return bsim_define_error(ctx, "'colors' must have 8 entries, got %d",
                             bsim_std_numel(clr));
  if (bsim_std_check_ints(ctx, "colors", clr, 8) != 0) return -1;
  const bsim_value *wu = floating ? bsim_param(ctx, "links") : NULL;
  int nwu = wu ? bsim_std_numel(wu) : 0;
  for (int k = 0; k < nwu; k++)
    if (!(wu->v[k] >= 1) || wu->v[k] != floor(wu->v[k]) || wu->v[k] > 1e9)
      return bsim_define_error(ctx,
                               "'links': entry %d (%g) is not a signal "
                               "element number (an integer >= 1)",
                               k + 1, wu->v[k]);
  double *r = bsim_model_alloc_rpar(m, 4);
  int *ip = bsim_model_alloc_ipar(m, floating ? 16 + nwu : 15);
  int *probes = bsim_model_alloc_probes(m, nwu);
  if (!r || !ip || !probes ||
      bsim_model_set_inputs(m, floating ? 0 : 1, -1, 1, 1) != 0 ||
      bsim_model_set_events(m, 1 - c.heritance, 0) != 0)
    return bsim_define_error(ctx, "out of memory");
  r[0] = r0;
  r[1] = lo;
  r[2] = hi;
  r[3] = per;
  ip[0] = c.win;
  ip[1] = 1;
  ip[2] = c.buffer;
  for (int i = 0; i < 8; i++)
    ip[3 + i] = (int)clr->v[i];
  ip[11] = c.pos[0], ip[12] = c.pos[1];
  ip[13] = c.dim[0], ip[14] = c.dim[1];
  if (floating) ip[15] = nwu;
  for (int k = 0; k < nwu; k++)
    ip[16 + k] = probes[k] = (int)wu->v[k];
  return 0;
}

static int cscope_define(bsim_define_ctx *ctx, bsim_model *m) {
  return cscope_build(ctx, m, 0, 0);
}

static int scale_cscope_define(bsim_define_ctx *ctx, bsim_model *m) {
  int a;
  return bsim_std_switch(ctx, "autoscale", &a) != 0
             ? -1
             : cscope_build(ctx, m, a, 0);
}

static const bsim_block_type type_CSCOPE = {
    "CSCOPE",
    "cscope",
    "Scope: records its input at each activation.",
    "Each time the scope is activated (by its event input, or with\n"
    "heritance = 1 whenever the blocks feeding it are) it records one row:\n"
    "the time and the elements of its input (a vector of any size).\n"
    "`blocksim run --scopes DIR` writes the rows to DIR/<block path>.csv.\n"
    "The other parameters describe Xcos's plot window and are only stored.\n"
    "Run-time layout: rpar = [0; ymin; ymax; refresh-period],\n"
    "ipar = [window; 1; buffer-size; colors (8); position (2); size (2)]\n"
    "([] is stored as [-1; -1]), in = -1, in2 = 1, dep_u = 1,\n"
    "nevin = 1 - heritance.",
    cscope_params,
    10,
    cscope_define,
    bsim_std_record_fn,
    0,
    "colors,window,position,size,ymin,ymax,refresh-period,buffer-size,"
    "heritance,name"};

/* ---------------------------------------------------------------- CMSCOPE */

static const bsim_param_spec cmscope_params[] = {
    {"in", BSIM_PARAM_REAL, "[1 1]",
     "size of each input port (one port per entry)"},
    {"colors", BSIM_PARAM_REAL, "[1 3 5 7 9 11 13 15]",
     "curve colours (> 0) or marks (< 0), at least one per input element; "
     "display only"},
    BSIM_SINK_WINDOW,
    BSIM_SINK_POSITION,
    BSIM_SINK_SIZE("[]"),
    BSIM_SINK_SETTING("ymin", "[-1 -5]", "lower end of each input's y axis"),
    BSIM_SINK_SETTING("ymax", "[1 5]", "upper end of each input's y axis"),
    BSIM_SINK_SETTING("refresh-period", "[30 30]",
                      "width of each input's time axis (> 0)"),
    BSIM_SINK_SETTING("buffer-size", "20", "points drawn at once (>= 2)"),
    {"heritance", BSIM_PARAM_REAL, "0",
     "0: one event input activates the scope; 1: no event input, the scope "
     "records whenever the blocks feeding it are activated"},
    {"name", BSIM_PARAM_STRING, "", "label of the scope; display only"},
    AUTOSCALE_PARAM, /* SCALE_CMSCOPE only */
};

/* rpar(1): 0 for CMSCOPE, the autoscale flag for SCALE_CMSCOPE. */
static int cmscope_build(bsim_define_ctx *ctx, bsim_model *m, double r0) {
  scope_common c;
  if (scope_common_read(ctx, &c, 0) != 0) return -1;
  const bsim_value *in = bsim_param(ctx, "in");
  const bsim_value *lo = bsim_param(ctx, "ymin"), *hi = bsim_param(ctx, "ymax");
  const bsim_value *per = bsim_param(ctx, "refresh-period");
  const bsim_value *clr = bsim_param(ctx, "colors");
  int nin = bsim_std_numel(in), total = 0;
  if (nin == 0 || nin > 1000)
    return bsim_define_error(ctx, "'in' must list 1..1000 port sizes, got %d",
                             nin);
  for (int k = 0; k < nin; k++) {
    double s = in->v[k];
    if (s < 1 || s != floor(s) || s > 1e6)
      return bsim_define_error(ctx,
                               "'in': port sizes must be integers >= 1, "
                               "entry %d is %g",
                               k + 1, s);
    total += (int)s;
  }
  if (bsim_std_numel(lo) != nin || bsim_std_numel(hi) != nin ||
      bsim_std_numel(per) != nin)
    return bsim_define_error(ctx,
                             "'ymin', 'ymax' and 'refresh-period' need one "
                             "entry per input (%d), got %d, %d and %d",
                             nin, bsim_std_numel(lo), bsim_std_numel(hi),
                             bsim_std_numel(per));
  for (int k = 0; k < nin; k++)
    if (check_axis(ctx, lo->v[k], hi->v[k], per->v[k]) != 0) return -1;
  if (bsim_std_numel(clr) < total)
    return bsim_define_error(ctx,
                             "'colors' needs at least one entry per input "
                             "element (%d), got %d",
                             total, bsim_std_numel(clr));
  if (bsim_std_check_ints(ctx, "colors", clr, total) != 0) return -1;
  double *r = bsim_model_alloc_rpar(m, 1 + 3 * nin);
  int *ip = bsim_model_alloc_ipar(m, 7 + nin + total + 1);
  if (!r || !ip || bsim_model_set_inputs(m, nin, 1, 1, 1) != 0 ||
      bsim_model_set_events(m, 1 - c.heritance, 0) != 0)
    return bsim_define_error(ctx, "out of memory");
  /* rpar = [r0; periods; ymin1; ymax1; ymin2; ymax2; ...] */
  r[0] = r0;
  for (int k = 0; k < nin; k++) {
    m->in[k] = (int)in->v[k];
    r[1 + k] = per->v[k];
    r[1 + nin + 2 * k] = lo->v[k];
    r[2 + nin + 2 * k] = hi->v[k];
  }
  int *p = ip;
  *p++ = c.win;
  *p++ = nin;
  *p++ = c.buffer;
  *p++ = c.pos[0], *p++ = c.pos[1];
  *p++ = c.dim[0], *p++ = c.dim[1];
  for (int k = 0; k < nin; k++)
    *p++ = (int)in->v[k];
  for (int k = 0; k < total; k++)
    *p++ = (int)clr->v[k];
  *p = c.heritance;
  return 0;
}

static int cmscope_define(bsim_define_ctx *ctx, bsim_model *m) {
  return cmscope_build(ctx, m, 0);
}

static int scale_cmscope_define(bsim_define_ctx *ctx, bsim_model *m) {
  int a;
  return bsim_std_switch(ctx, "autoscale", &a) != 0 ? -1
                                                    : cmscope_build(ctx, m, a);
}

static const bsim_block_type type_CMSCOPE = {
    "CMSCOPE",
    "cmscope",
    "Multi-input scope: records all its inputs at each activation.",
    "Like CSCOPE with several inputs, of the sizes listed in 'in'. Each\n"
    "activation records one row: the time, then the elements of input 1,\n"
    "input 2, ... side by side. 'ymin', 'ymax' and 'refresh-period' have\n"
    "one entry per input; they and the other display settings are only\n"
    "stored.\n"
    "Run-time layout: rpar = [0; refresh-period(:); ymin1; ymax1; ymin2;\n"
    "ymax2; ...], ipar = [window; number of inputs; buffer-size;\n"
    "position (2); size (2); in(:); colors(1:sum(in)); heritance] ([] is\n"
    "stored as [-1; -1]), in = in(:), in2 = 1, dep_u = 1,\n"
    "nevin = 1 - heritance.",
    cmscope_params,
    11,
    cmscope_define,
    bsim_std_record_fn,
    0,
    "in,colors,window,position,size,ymin,ymax,refresh-period,buffer-size,"
    "heritance,name"};

/* ---------------------------------------------------- autoscaling scopes */

static const bsim_block_type type_SCALE_CSCOPE = {
    "SCALE_CSCOPE",
    "scale_cscope",
    "Scope with autoscaling: records its input at each activation.",
    "CSCOPE with one more display setting, 'autoscale' (Xcos redraws the\n"
    "y axis to fit the data). What it records is exactly what CSCOPE\n"
    "records: one row per activation, the time and the input's elements.\n"
    "Run-time layout: as CSCOPE, with rpar = [autoscale; ymin; ymax;\n"
    "refresh-period].",
    cscope_params,
    11,
    scale_cscope_define,
    bsim_std_record_fn,
    0,
    "colors,window,position,size,ymin,ymax,refresh-period,buffer-size,"
    "heritance,name,autoscale"};

static const bsim_block_type type_SCALE_CMSCOPE = {
    "SCALE_CMSCOPE",
    "scale_cmscope",
    "Multi-input scope with autoscaling: records all its inputs.",
    "CMSCOPE with one more display setting, 'autoscale'. What it records\n"
    "is exactly what CMSCOPE records: one row per activation, the time and\n"
    "the elements of input 1, input 2, ... side by side.\n"
    "Run-time layout: as CMSCOPE, with rpar = [autoscale;\n"
    "refresh-period(:); ymin1; ymax1; ymin2; ymax2; ...].",
    cmscope_params,
    12,
    scale_cmscope_define,
    bsim_std_record_fn,
    0,
    "in,colors,window,position,size,ymin,ymax,refresh-period,buffer-size,"
    "heritance,name,autoscale"};

/* ---------------------------------------------------------------- CFSCOPE */

static const bsim_param_spec cfscope_params[] = {
    SCOPE_PARAMS("2"),
    {"links", BSIM_PARAM_REAL, "1",
     "the signal elements to record, by number (>= 1) in Xcos's link "
     "numbering (docs/blocks.md, \"Floating probes\")"},
};

static int cfscope_define(bsim_define_ctx *ctx, bsim_model *m) {
  return cscope_build(ctx, m, 0, 1);
}

static void cfscope_fn(bsim_block *blk, int flag) {
  int n = blk->nprobe;
  double *row = (double *)*blk->work;
  switch (flag) {
  case BSIM_FLAG_INIT:
    free(row);
    *blk->work = row = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    if (!row) {
      bsim_block_error(blk, "out of memory");
      return;
    }
    /* ipar(17:16+n) are the link numbers, as the probes */
    bsim_std_record_numbered(blk, "link", n,
                             blk->nipar >= 16 + n ? blk->ipar + 16 : NULL);
    break;
  case BSIM_FLAG_UPDATE:
    /* at every update, as Xcos's cfscope draws at every flag 2 */
    if (!row) return;
    for (int k = 0; k < n; k++)
      row[k] = *blk->probe[k];
    bsim_block_record(blk, row, n);
    break;
  case BSIM_FLAG_END:
    free(row);
    *blk->work = NULL;
    break;
  default:
    break;
  }
}

static const bsim_block_type type_CFSCOPE = {
    "CFSCOPE",
    "cfscope",
    "Floating scope: records signals chosen by number, without links.",
    "The block has no data inputs. 'links' lists signal elements by\n"
    "number: the output ports of the diagram laid end to end element by\n"
    "element (matrices column-major), in a native diagram ordered by the\n"
    "first data link that carries each (links in file order, a\n"
    "superblock's links at the place of the superblock), then the outputs\n"
    "that feed nothing; in an Xcos file as Scilab's compiler numbers its\n"
    "link buffers (split points, superblock ports and GOTO/FROM pairs\n"
    "counted); see docs/blocks.md, \"Floating probes\". A number beyond\n"
    "the last element is bad input. Each\n"
    "activation records one row: the time, then the value of each listed\n"
    "element, in columns named link<n>.\n"
    "Run-time layout: rpar = [0; ymin; ymax; refresh-period],\n"
    "ipar = [window; 1; buffer-size; colors (8); position (2); size (2);\n"
    "number of links; links(:)] ([] is stored as [-1; -1]), probes =\n"
    "links, no data ports, nevin = 1.",
    cfscope_params,
    9,
    cfscope_define,
    cfscope_fn,
    0,
    "colors,window,position,size,ymin,ymax,refresh-period,buffer-size,"
    "links"};

const bsim_block_type *const bsim_sink_types[] = {
    &type_CSCOPE, &type_CMSCOPE, &type_SCALE_CSCOPE, &type_SCALE_CMSCOPE,
    &type_CFSCOPE};
const int bsim_sink_ntypes =
    (int)(sizeof bsim_sink_types / sizeof bsim_sink_types[0]);
