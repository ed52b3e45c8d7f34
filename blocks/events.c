/*
 * Event blocks: clocks and event delays, routing of an activation by a data
 * value (IFTHEL_f, ESELECT_f), union and intersection of activations, the
 * end of a run, and the event ports of superblocks. They carry no data; they
 * decide *when* the rest of a diagram runs, through flag 3 (evout delays)
 * and through the calendar's initial firings set by their define steps.
 * The routing blocks live in evroute.c; this file holds the family table.
 */
#include <math.h>
#include <stdlib.h>

#include "blocks/std.h"

/* ------------------------------------ evtdly4: EVTDLY_c, CLOCK_c, SampleCLK */

/* Xcos's evtdly4 counts its activations: the k-th one asks for the date
 * init-time + k delay (delay t + delay when init-time < 0). A clock (the
 * delay wired to itself, CLOCK_c) thus ticks at init-time + k period
 * without drift; an outside activation gets the same rule, as in Xcos, so
 * a date already past gives no event. */
typedef struct delay_work {
  long k; /* activations so far */
} delay_work;

static int delay_init(bsim_block *blk) {
  if (blk->nrpar < 2 || !(blk->rpar[0] > 0) || blk->nevout < 1) {
    bsim_block_error(blk, "rpar must hold [delay > 0; initial firing] and "
                          "the block needs one event output");
    return -1;
  }
  if (!*blk->work && !(*blk->work = calloc(1, sizeof(delay_work)))) {
    bsim_block_error(blk, "out of memory");
    return -1;
  }
  return 0;
}

static void evtdly4_fn(bsim_block *blk, int flag) {
  delay_work *w = (delay_work *)*blk->work;
  if (flag == BSIM_FLAG_INIT) {
    if (delay_init(blk) == 0) ((delay_work *)*blk->work)->k = 0;
  } else if (flag == BSIM_FLAG_EVENTS && w && blk->nevprt != 0) {
    double dt = blk->rpar[0], ff = blk->rpar[1];
    w->k++;
    /* the scheduler adds t back: the same two roundings as Xcos */
    blk->evout[0] = ff >= 0 ? ff + (double)w->k * dt - blk->t : dt;
  } else if (flag == BSIM_FLAG_END) {
    free(w);
    *blk->work = NULL;
  }
}

static const bsim_param_spec evtdly_params[] = {
    {"delay", BSIM_PARAM_REAL, "0.1",
     "time between an activation and the output event it causes (> 0)"},
    {"init-time", BSIM_PARAM_REAL, "0",
     "date of an output event fired without any activation; negative = none"},
};

/* The common layout of the three: rpar = [delay; first], firing = first. */
static int delay_model(bsim_define_ctx *ctx, bsim_model *m, double dt,
                       double first, double fire) {
  double *r = bsim_model_alloc_rpar(m, 2);
  if (!r || bsim_model_set_events(m, 1, 1) != 0)
    return bsim_define_error(ctx, "out of memory");
  r[0] = dt;
  r[1] = first;
  m->firing[0] = fire;
  return 0;
}

static int evtdly_define(bsim_define_ctx *ctx, bsim_model *m) {
  double dt, ff;
  if (bsim_std_scalar(ctx, "delay", &dt) ||
      bsim_std_scalar(ctx, "init-time", &ff))
    return -1;
  if (dt <= 0) return bsim_define_error(ctx, "'delay' must be > 0, got %g", dt);
  return delay_model(ctx, m, dt, ff, ff);
}

static const bsim_block_type bsim_type_EVTDLY_c = {
    "EVTDLY_c",
    "evtdly4",
    "Event delay: an activation fires the output 'delay' later.",
    "With 'init-time' >= 0 the output fires once at that date without any\n"
    "activation, and the k-th activation of the event input fires it at\n"
    "init-time + k delay, as Xcos's evtdly4 counts (a date already past\n"
    "fires nothing): wired to itself, as inside CLOCK_c, it ticks at\n"
    "init-time + k delay without drift. With 'init-time' < 0 each\n"
    "activation fires the output 'delay' later. One event input, one\n"
    "event output, no data ports.\n"
    "Run-time layout: rpar = [delay; init-time], firing = [init-time].",
    evtdly_params,
    2,
    evtdly_define,
    evtdly4_fn,
    0,
    "delay,init-time"};

static const bsim_param_spec clock_params[] = {
    {"period", BSIM_PARAM_REAL, "0.1", "time between two ticks (> 0)"},
    {"init-time", BSIM_PARAM_REAL, "0.1",
     "date of the first tick; negative = the clock never ticks"},
};

static int clock_define(bsim_define_ctx *ctx, bsim_model *m) {
  double dt, t0;
  if (bsim_std_scalar(ctx, "period", &dt) ||
      bsim_std_scalar(ctx, "init-time", &t0))
    return -1;
  if (dt <= 0)
    return bsim_define_error(ctx, "'period' must be > 0, got %g", dt);
  return delay_model(ctx, m, dt, t0, t0);
}

static const bsim_block_type bsim_type_CLOCK_c = {
    "CLOCK_c",
    "evtdly4",
    "Periodic clock: ticks at init-time + k period.",
    "Fires its event output at init-time, init-time + period, ... for the\n"
    "whole run, each date computed as init-time + k period (no drift). In\n"
    "Xcos a superblock around EVTDLY_c whose output is split back to its\n"
    "input; here the same EVTDLY_c model with that loop added by the\n"
    "flattener (self-activated). One event output.\n"
    "Run-time layout (the inner EVTDLY_c's): rpar = [period; init-time],\n"
    "firing = [init-time], one event input (the loop), one event output.",
    clock_params,
    2,
    clock_define,
    evtdly4_fn,
    BSIM_TYPE_SELF_ACTIVATED,
    "period,init-time"};

static const bsim_param_spec sampleclk_params[] = {
    {"period", BSIM_PARAM_REAL, "1", "sample time (> 0)"},
    {"offset", BSIM_PARAM_REAL, "0",
     "date of the first tick, from 0 to period: ticks at offset + k period"},
};

static int sampleclk_define(bsim_define_ctx *ctx, bsim_model *m) {
  double dt, off;
  if (bsim_std_scalar(ctx, "period", &dt) ||
      bsim_std_scalar(ctx, "offset", &off))
    return -1;
  if (dt <= 0)
    return bsim_define_error(ctx, "'period' must be > 0, got %g", dt);
  if (off < 0 || off > dt)
    return bsim_define_error(
        ctx, "'offset' must be from 0 to 'period' (%g), got %g", dt, off);
  double *r = bsim_model_alloc_rpar(m, 2);
  if (!r || bsim_model_set_events(m, 0, 1) != 0)
    return bsim_define_error(ctx, "out of memory");
  r[0] = dt;
  r[1] = off;
  return 0;
}

/* Never runs: the flattener replaces every SampleCLK by one M_freq. */
static void sampleclk_fn(bsim_block *blk, int flag) {}

static const bsim_block_type bsim_type_SampleCLK = {
    "SampleCLK",
    "sampleclk",
    "Sample clock: ticks at offset + k period.",
    "Fires its event output at offset + k period, k = 0, 1, ... As Xcos's\n"
    "compiler does, the flattener replaces all SampleCLK blocks of a\n"
    "diagram by one M_freq clock, wherever they are: clocks due at one\n"
    "date give one activation (a block fed by two of them gets both event\n"
    "bits at once), and dates are offset + integer / den, computed exactly\n"
    "as Scilab computes them.\n"
    "Run-time layout: rpar = [period; offset], nevin = 0, nevout = 1,\n"
    "firing = [-1] (as Xcos).",
    sampleclk_params,
    2,
    sampleclk_define,
    sampleclk_fn,
    BSIM_TYPE_SAMPLE_CLOCK,
    "period,offset"};

/* ------------------------------------------------ evtdly: EVTDLY_f, CLOCK_f */

/* Xcos's older delay adds the delay to the activation's date: a clock made
 * of it (CLOCK_f) ticks at t(k+1) = t(k) + period, accumulating one
 * rounding per tick, as Scilab's do. The date goes through evout as
 * (t + delay) - t, which the scheduler adds back to t: Xcos converts the
 * date the same way, so the ticks are Scilab's to the bit. */
static void evtdly_fn(bsim_block *blk, int flag) {
  if (flag == BSIM_FLAG_INIT &&
      (blk->nrpar < 1 || !(blk->rpar[0] > 0) || blk->nevout < 1))
    bsim_block_error(blk, "rpar must hold [delay > 0] and the block needs "
                          "one event output");
  else if (flag == BSIM_FLAG_EVENTS && blk->nevprt != 0)
    blk->evout[0] = (blk->t + blk->rpar[0]) - blk->t;
}

/* rpar = [delay], firing = [first] */
static int evtdly_f_model(bsim_define_ctx *ctx, bsim_model *m,
                          const char *delay_name) {
  double dt, ff;
  if (bsim_std_scalar(ctx, delay_name, &dt) ||
      bsim_std_scalar(ctx, "init-time", &ff))
    return -1;
  if (dt <= 0)
    return bsim_define_error(ctx, "'%s' must be > 0, got %g", delay_name, dt);
  double *r = bsim_model_alloc_rpar(m, 1);
  if (!r || bsim_model_set_events(m, 1, 1) != 0)
    return bsim_define_error(ctx, "out of memory");
  r[0] = dt;
  m->firing[0] = ff;
  return 0;
}

static int evtdly_f_define(bsim_define_ctx *ctx, bsim_model *m) {
  return evtdly_f_model(ctx, m, "delay");
}

static const bsim_param_spec evtdly_f_params[] = {
    {"delay", BSIM_PARAM_REAL, "0.1",
     "time between an activation and the output event it causes (> 0)"},
    {"init-time", BSIM_PARAM_REAL, "0.1",
     "date of an output event fired without any activation; negative = none"},
};

static const bsim_block_type bsim_type_EVTDLY_f = {
    "EVTDLY_f",
    "evtdly",
    "Event delay (older interface): an activation fires the output 'delay' "
    "later.",
    "Each activation at time t fires the event output at t + delay, the\n"
    "sum rounded as in Xcos: wired to itself it ticks at t(k+1) = t(k) +\n"
    "delay, accumulating rounding like Scilab's (EVTDLY_c counts from\n"
    "init-time instead). With 'init-time' >= 0 the output also fires once\n"
    "at that date. One event input, one event output, no data ports.\n"
    "Run-time layout: rpar = [delay], firing = [init-time].",
    evtdly_f_params,
    2,
    evtdly_f_define,
    evtdly_fn,
    0,
    "delay,init-time"};

static int clock_f_define(bsim_define_ctx *ctx, bsim_model *m) {
  return evtdly_f_model(ctx, m, "period");
}

static const bsim_block_type bsim_type_CLOCK_f = {
    "CLOCK_f",
    "evtdly",
    "Periodic clock (older interface): ticks every period from init-time.",
    "Fires its event output at init-time, then every 'period': t(k+1) =\n"
    "t(k) + period with the rounding of each sum, as Scilab's CLOCK_f does\n"
    "(after 1000 ticks of 0.1 the date differs from 100 by a few ulps;\n"
    "CLOCK_c computes init-time + k period instead). In Xcos a superblock\n"
    "around EVTDLY_f whose output is split back to its input (an .xcos\n"
    "reader dissolves it); here the same EVTDLY_f model with that loop\n"
    "added by the flattener (self-activated). One event output.\n"
    "Run-time layout (the inner EVTDLY_f's): rpar = [period], firing =\n"
    "[init-time], one event input (the loop), one event output.",
    clock_params,
    2,
    clock_f_define,
    evtdly_fn,
    BSIM_TYPE_SELF_ACTIVATED,
    "period,init-time"};

/* evroute.c */
extern const bsim_block_type bsim_type_IFTHEL_f, bsim_type_ESELECT_f,
    bsim_type_CLKSOMV_f, bsim_type_CLKSOM_f, bsim_type_ANDBLK;
/* mfreq.c */
extern const bsim_block_type bsim_type_M_freq;

/* ---------------------------------------------------------- END_c, HALT_f */

static const bsim_param_spec end_params[] = {
    {"time", BSIM_PARAM_REAL, "1e8",
     "final simulation time: the run ends there (negative = never)"},
};

static int end_define(bsim_define_ctx *ctx, bsim_model *m) {
  double tf;
  if (bsim_std_scalar(ctx, "time", &tf) != 0) return -1;
  if (bsim_model_set_events(m, 1, 1) != 0)
    return bsim_define_error(ctx, "out of memory");
  m->firing[0] = tf;
  return 0;
}

/* Stop at the activation; the scheduler ends the run once it is served. It
 * schedules nothing, so its loop never fires again. */
static void end_fn(bsim_block *blk, int flag) {
  if ((flag == BSIM_FLAG_EVENTS || flag == BSIM_FLAG_UPDATE) &&
      blk->nevprt != 0)
    bsim_block_stop(blk);
}

static const bsim_block_type bsim_type_END_c = {
    "END_c",
    "scicosexit",
    "End of the simulation at a given time.",
    "Ends the run at 'time' (results up to that time are kept). In Xcos a\n"
    "block whose event output is linked to its own input; here that loop is\n"
    "added by the flattener (self-activated).\n"
    "Run-time layout: rpar and ipar empty, nevin = 1, nevout = 1,\n"
    "firing = [time].",
    end_params,
    1,
    end_define,
    end_fn,
    BSIM_TYPE_SELF_ACTIVATED,
    "time"};

/* ENDBLK: in Xcos a superblock around END_c (an .xcos reader dissolves
 * it); natively the same block under Xcos's name. */
static const bsim_block_type bsim_type_ENDBLK = {
    "ENDBLK",
    "scicosexit",
    "End of the simulation at a given time (END_c under its palette name).",
    "Ends the run at 'time' (results up to that time are kept), as END_c,\n"
    "whose superblock this is in Xcos's palette.\n"
    "Run-time layout (the inner END_c's): rpar and ipar empty, nevin = 1,\n"
    "nevout = 1, firing = [time].",
    end_params,
    1,
    end_define,
    end_fn,
    BSIM_TYPE_SELF_ACTIVATED,
    "time"};

static const bsim_param_spec halt_params[] = {
    {"state", BSIM_PARAM_REAL, "0",
     "integer stored in the block's discrete state when it halts"},
};

static int halt_define(bsim_define_ctx *ctx, bsim_model *m) {
  double s;
  if (bsim_std_scalar(ctx, "state", &s) != 0) return -1;
  if (s != floor(s) || fabs(s) > 1e9)
    return bsim_define_error(ctx, "'state' must be an integer, got %g", s);
  int *ip = bsim_model_alloc_ipar(m, 1);
  if (!ip || !bsim_model_alloc_z0(m, 1) || bsim_model_set_events(m, 1, 0) != 0)
    return bsim_define_error(ctx, "out of memory");
  ip[0] = (int)s;
  return 0;
}

static void halt_fn(bsim_block *blk, int flag) {
  if (flag != BSIM_FLAG_UPDATE || blk->nevprt == 0) return;
  if (blk->nz > 0 && blk->nipar > 0) blk->z[0] = blk->ipar[0];
  bsim_block_stop(blk);
}

static const bsim_block_type bsim_type_HALT_f = {
    "HALT_f",
    "hltblk",
    "Stop the simulation when activated.",
    "Ends the run at its first activation (results up to then are kept),\n"
    "after storing 'state' in its discrete state.\n"
    "Run-time layout: ipar = [state], z0 = [0], nevin = 1, no outputs.",
    halt_params,
    1,
    halt_define,
    halt_fn,
    0,
    "state"};

/* ----------------------------------------------------- CLKINV_f, CLKOUTV_f */

static const bsim_param_spec evport_params[] = {
    {"port", BSIM_PARAM_REAL, "1",
     "number (from 1) of the superblock event port this block stands for"},
};

static int evport_define(bsim_define_ctx *ctx, bsim_model *m, int input) {
  int port;
  if (bsim_std_int(ctx, "port", 1, &port) != 0) return -1;
  int *ip = bsim_model_alloc_ipar(m, 1);
  if (!ip || bsim_model_set_events(m, input ? 0 : 1, input ? 1 : 0) != 0)
    return bsim_define_error(ctx, "out of memory");
  ip[0] = port;
  return 0;
}

static int clkinv_define(bsim_define_ctx *ctx, bsim_model *m) {
  return evport_define(ctx, m, 1);
}

static int clkoutv_define(bsim_define_ctx *ctx, bsim_model *m) {
  return evport_define(ctx, m, 0);
}

/* Ports never run: flattening replaces them by activation links. */
static void evport_fn(bsim_block *blk, int flag) {}

#define EVIN_DOC                                                               \
  "Inside a superblock, stands for the superblock's event input number\n"      \
  "'port': its event output carries the activations reaching that input\n"     \
  "outside. Dissolved by flattening.\n"                                        \
  "Run-time layout: ipar = [port], nevin = 0, nevout = 1, firing = [-1]."

#define EVOUT_DOC                                                              \
  "Inside a superblock, stands for the superblock's event output number\n"     \
  "'port': what activates its event input leaves the superblock there.\n"      \
  "Dissolved by flattening.\n"                                                 \
  "Run-time layout: ipar = [port], nevin = 1, nevout = 0."

static const bsim_block_type bsim_type_CLKINV_f = {
    "CLKINV_f",    "input",       "Superblock event input port.",
    EVIN_DOC,      evport_params, 1,
    clkinv_define, evport_fn,     BSIM_TYPE_PORT,
    "port"};

static const bsim_block_type bsim_type_CLKOUTV_f = {
    "CLKOUTV_f",    "output",      "Superblock event output port.",
    EVOUT_DOC,      evport_params, 1,
    clkoutv_define, evport_fn,     BSIM_TYPE_PORT,
    "port"};

/* Older drawings of the same ports. */
static const bsim_block_type bsim_type_CLKIN_f = {
    "CLKIN_f",
    "input",
    "Superblock event input port (older drawing).",
    EVIN_DOC,
    evport_params,
    1,
    clkinv_define,
    evport_fn,
    BSIM_TYPE_PORT,
    "port"};

static const bsim_block_type bsim_type_CLKOUT_f = {
    "CLKOUT_f",
    "output",
    "Superblock event output port (older drawing).",
    EVOUT_DOC,
    evport_params,
    1,
    clkoutv_define,
    evport_fn,
    BSIM_TYPE_PORT,
    "port"};

/* Plain delays before the clocks built on them, so that "evtdly4" and
 * "evtdly" find the delay; END_c before ENDBLK for "scicosexit". */
const bsim_block_type *const bsim_event_types[] = {
    &bsim_type_EVTDLY_c,  &bsim_type_CLOCK_c,   &bsim_type_EVTDLY_f,
    &bsim_type_CLOCK_f,   &bsim_type_SampleCLK, &bsim_type_IFTHEL_f,
    &bsim_type_ESELECT_f, &bsim_type_CLKSOMV_f, &bsim_type_CLKSOM_f,
    &bsim_type_ANDBLK,    &bsim_type_END_c,     &bsim_type_ENDBLK,
    &bsim_type_HALT_f,    &bsim_type_CLKINV_f,  &bsim_type_CLKOUTV_f,
    &bsim_type_CLKIN_f,   &bsim_type_CLKOUT_f,  &bsim_type_M_freq,
};
const int bsim_event_ntypes =
    (int)(sizeof bsim_event_types / sizeof bsim_event_types[0]);
