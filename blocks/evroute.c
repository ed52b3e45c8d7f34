/*
 * Event routing: blocks that pass an activation on to one of several event
 * outputs chosen by a data value (IFTHEL_f, ESELECT_f), or that combine
 * activations (CLKSOMV_f: union, ANDBLK: intersection). Split from events.c
 * to keep files short; events.c lists these types in the family table.
 */
#include <math.h>
#include <stdlib.h>

#include "blocks/std.h"

/* Defined here, listed in events.c's table. */
extern const bsim_block_type bsim_type_IFTHEL_f, bsim_type_ESELECT_f,
    bsim_type_CLKSOMV_f, bsim_type_CLKSOM_f, bsim_type_ANDBLK;

/* ----------------------------------------------------- IFTHEL_f, ESELECT_f */

/* Both route an activation to one event output chosen by their input, with
 * delay 0. With zero crossings they also fire when the input crosses a
 * boundary between two choices while the integrator runs (nevprt = -1):
 * the surface that fired and its direction tell which side was entered. */

/* Xcos's two dialogs read their "Inherit (1: no, 0: yes)" field
 * differently: IFTHEL_f has an event input only for 1, ESELECT_f for
 * anything but 0 (evin_only_one says which rule). Any nonzero
 * "Zero-crossing" means yes. */
static int router_io(bsim_define_ctx *ctx, bsim_model *m, int nevout,
                     int evin_only_one, int *zc) {
  double evin, z;
  if (bsim_std_scalar(ctx, "event-input", &evin) ||
      bsim_std_scalar(ctx, "zero-crossing", &z))
    return -1;
  int has_evin = evin_only_one ? evin == 1 : evin != 0;
  *zc = z != 0;
  if (bsim_model_set_inputs(m, 1, 1, 1, 1) != 0 ||
      bsim_model_set_events(m, has_evin, nevout) != 0)
    return bsim_define_error(ctx, "out of memory");
  return 0;
}

static const bsim_param_spec ifthel_params[] = {
    {"event-input", BSIM_PARAM_REAL, "1",
     "1: one event input activates the block; any other value: no event "
     "input, the block runs whenever the block feeding its input does "
     "(Xcos's 'Inherit (1: no, 0: yes)')"},
    {"zero-crossing", BSIM_PARAM_REAL, "1",
     "nonzero: also fire when u crosses 0 while the integrator runs (only "
     "without event input: a block that runs at events only is never "
     "watched during integration)"},
};

static int ifthel_define(bsim_define_ctx *ctx, bsim_model *m) {
  int zc;
  if (router_io(ctx, m, 2, 1, &zc) != 0) return -1;
  m->ng = m->nmode = zc;
  return 0;
}

/* Mode as Xcos's ifthel: 1 = then (u > 0), 2 = else (u <= 0). */
static void ifthel_fn(bsim_block *blk, int flag) {
  if (flag == BSIM_FLAG_INIT) {
    if (blk->nin < 1 || bsim_std_insize(blk, 0) < 1 || blk->nevout < 2)
      bsim_block_error(blk, "needs one input and two event outputs");
    return;
  }
  /* flag 5 comes also after a flag 4 that found no input */
  if (flag != BSIM_FLAG_ZCROSS && flag != BSIM_FLAG_EVENTS) return;
  double u = blk->inptr[0][0];
  if (flag == BSIM_FLAG_ZCROSS) {
    if (blk->ng > 0) blk->g[0] = u;
    if (blk->nmode > 0 && blk->phase == BSIM_PHASE_DISCRETE)
      blk->mode[0] = u > 0 ? 1 : 2;
    return;
  }
  if (flag != BSIM_FLAG_EVENTS || blk->nevprt == 0) return;
  int out;
  if (blk->nevprt < 0 && blk->ng > 0 && blk->jroot[0] != 0)
    out = blk->jroot[0] > 0 ? 1 : 2;
  else if (blk->phase == BSIM_PHASE_CONTINUOUS && blk->nmode > 0)
    out = blk->mode[0];
  else
    out = u > 0 ? 1 : 2;
  blk->evout[out == 1 ? 0 : 1] = 0;
}

const bsim_block_type bsim_type_IFTHEL_f = {
    "IFTHEL_f",
    "ifthel",
    "If-then-else on events: u > 0 fires output 1, else output 2.",
    "On each activation, fires event output 1 ('then') if its input u is\n"
    "> 0 and event output 2 ('else') otherwise (u = 0 goes to 'else'), with\n"
    "delay 0. With zero-crossing = 1 it has one surface g = u and one mode\n"
    "(1: then, 2: else) and also fires when u crosses 0 while integrating:\n"
    "output 1 on a rising crossing, output 2 on a falling one.\n"
    "Run-time layout: rpar and ipar empty, in = 1, in2 = 1, dep_u = 1,\n"
    "nevin = event-input == 1, nevout = 2, firing = [-1 -1],\n"
    "ng = nmode = zero-crossing.",
    ifthel_params,
    2,
    ifthel_define,
    ifthel_fn,
    BSIM_TYPE_SYNCHRONOUS,
    "event-input,zero-crossing"};

static const bsim_param_spec eselect_params[] = {
    {"outputs", BSIM_PARAM_REAL, "2",
     "number of event outputs (>= 2; a fraction is dropped, as Scilab's "
     "int())"},
    {"event-input", BSIM_PARAM_REAL, "1",
     "0: no event input, the block runs whenever the block feeding its "
     "input does; any other value: one event input activates it (Xcos's "
     "'Inherit (1: no, 0: yes)')"},
    {"zero-crossing", BSIM_PARAM_REAL, "0",
     "nonzero: also fire when u crosses 2, 3, ..., outputs while "
     "integrating (only without event input)"},
};

static int eselect_define(bsim_define_ctx *ctx, bsim_model *m) {
  int zc;
  double out;
  if (bsim_std_scalar(ctx, "outputs", &out) != 0) return -1;
  out = trunc(out);
  if (out < 2 || out > 31)
    return bsim_define_error(ctx, "'outputs' must be from 2 to 31, got %g",
                             out);
  int n = (int)out;
  if (router_io(ctx, m, n, 0, &zc) != 0) return -1;
  m->ng = zc ? n - 1 : 0;
  m->nmode = zc;
  return 0;
}

/* Output chosen by value, as Xcos's eselect: the integer part of u,
 * clamped to 1..n. */
static int eselect_pick(double u, int n) {
  if (!(u >= 1)) return 1;
  if (u >= n) return n;
  return (int)u;
}

static void eselect_fn(bsim_block *blk, int flag) {
  int n = blk->nevout;
  if (flag == BSIM_FLAG_INIT) {
    if (blk->nin < 1 || bsim_std_insize(blk, 0) < 1 || n < 2)
      bsim_block_error(blk, "needs one input and at least two event outputs");
    return;
  }
  /* flag 5 comes also after a flag 4 that found no input */
  if (flag != BSIM_FLAG_ZCROSS && flag != BSIM_FLAG_EVENTS) return;
  double u = blk->inptr[0][0];
  if (flag == BSIM_FLAG_ZCROSS) {
    /* Surface j lies on the boundary between outputs j+1 and j+2. */
    for (int j = 0; j < blk->ng && j < n - 1; j++)
      blk->g[j] = u - (double)(j + 2);
    if (blk->nmode > 0 && blk->phase == BSIM_PHASE_DISCRETE)
      blk->mode[0] = eselect_pick(u, n);
    return;
  }
  if (flag != BSIM_FLAG_EVENTS || blk->nevprt == 0) return;
  int out = 0;
  if (blk->nevprt < 0)
    for (int j = 0; j < blk->ng && j < n - 1 && !out; j++)
      if (blk->jroot[j] != 0) out = blk->jroot[j] > 0 ? j + 2 : j + 1;
  if (!out)
    out = blk->phase == BSIM_PHASE_CONTINUOUS && blk->nmode > 0
              ? blk->mode[0]
              : eselect_pick(u, n);
  if (out >= 1 && out <= n) blk->evout[out - 1] = 0;
}

const bsim_block_type bsim_type_ESELECT_f = {
    "ESELECT_f",
    "eselect",
    "Event select: an activation goes to the output chosen by u.",
    "On each activation, fires event output i with delay 0, where i is the\n"
    "integer part of the input u clamped to 1..outputs (u < 2 gives 1,\n"
    "u >= outputs gives the last). With zero-crossing = 1 it has outputs-1\n"
    "surfaces g_j = u - (j+1) (j = 1..outputs-1) and one mode (the chosen\n"
    "output), and also fires when u crosses one of them while integrating:\n"
    "the output entered (the upper one when rising, the lower one when\n"
    "falling).\n"
    "Run-time layout: rpar and ipar empty, in = 1, in2 = 1, dep_u = 1,\n"
    "nevin = event-input != 0, nevout = outputs, firing = -1 each,\n"
    "ng = outputs-1 and nmode = 1 with zero crossings, else 0.",
    eselect_params,
    3,
    eselect_define,
    eselect_fn,
    BSIM_TYPE_SYNCHRONOUS,
    "outputs,event-input,zero-crossing"};

/* ------------------------------------------------- CLKSOMV_f and CLKSOM_f */

static int clksom_define(bsim_define_ctx *ctx, bsim_model *m) {
  if (bsim_model_set_events(m, 3, 1) != 0)
    return bsim_define_error(ctx, "out of memory");
  return 0;
}

/* Any activation, whichever input it came through, passes on at once. */
static void clksom_fn(bsim_block *blk, int flag) {
  if (flag == BSIM_FLAG_EVENTS && blk->nevprt != 0 && blk->nevout >= 1)
    blk->evout[0] = 0;
}

#define CLKSOM_DOC                                                             \
  "Fires its event output (delay 0) whenever any of its three event\n"         \
  "inputs is activated; activations of several inputs at the same\n"           \
  "instant give one output event. Unused inputs may stay unconnected.\n"       \
  "Run-time layout: nevin = 3, nevout = 1, firing = [-1], no data ports.\n"    \
  "Xcos removes the block when compiling and merges the links; the\n"          \
  "activations reaching the blocks downstream are the same."

const bsim_block_type bsim_type_CLKSOMV_f = {
    "CLKSOMV_f",
    "sum",
    "Event union of three event inputs.",
    CLKSOM_DOC,
    NULL,
    0,
    clksom_define,
    clksom_fn,
    BSIM_TYPE_EVENT_UNION,
    ""};

const bsim_block_type bsim_type_CLKSOM_f = {
    "CLKSOM_f",
    "sum",
    "Event union (older drawing of CLKSOMV_f).",
    CLKSOM_DOC,
    NULL,
    0,
    clksom_define,
    clksom_fn,
    BSIM_TYPE_EVENT_UNION,
    ""};

/* ------------------------------------------------------------------ ANDBLK */

/* Xcos builds ANDBLK as a superblock: an ANDLOG_f (1 when both of its
 * event inputs come with one same event, else -1) feeding an IFTHEL_f
 * activated by input 2, whose 'then' output leaves the superblock. The
 * leaf does the same in one block: synchronous, it fires at once when
 * one activation carries both inputs. */
static int andblk_define(bsim_define_ctx *ctx, bsim_model *m) {
  if (bsim_model_set_events(m, 2, 1) != 0)
    return bsim_define_error(ctx, "out of memory");
  return 0;
}

static void andblk_fn(bsim_block *blk, int flag) {
  if (flag == BSIM_FLAG_EVENTS && blk->nevprt == 3 && blk->nevout >= 1)
    blk->evout[0] = 0;
}

const bsim_block_type bsim_type_ANDBLK = {
    "ANDBLK",
    "andblk",
    "Event intersection: fires when one event activates both inputs.",
    "Fires its event output, within the same activation (synchronously),\n"
    "when one event activates both of its event inputs: two inputs fed by\n"
    "one clock, or by SampleCLK blocks due together (the flattener merges\n"
    "them into one clock, as Xcos does). Two events at the same time from\n"
    "different sources are two activations, and fire nothing, as in\n"
    "Xcos, where ANDBLK is a superblock (ANDLOG_f feeding an IFTHEL_f that\n"
    "input 2 activates) that an .xcos reader dissolves.\n"
    "Run-time layout: nevin = 2, nevout = 1, firing = [-1], no data ports\n"
    "(the simulation-function name 'andblk' is ours).",
    NULL,
    0,
    andblk_define,
    andblk_fn,
    BSIM_TYPE_SYNCHRONOUS,
    ""};
