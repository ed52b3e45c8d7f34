/*
 * Event blocks: clocks and event delays, routing of an activation by a data
 * value (IFTHEL_f, ESELECT_f), union and intersection of activations, the
 * end of a run, and the event ports of superblocks. They carry no data; they
 * decide *when* the rest of a diagram runs, through flag 3 (evout delays)
 * and through the calendar's initial firings set by their define steps.
 * The routing blocks live in evroute.c; this file holds the family table.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "blocks/std.h"

/* ------------------------------------ evtdly4: EVTDLY_c, CLOCK_c, SampleCLK */

/* The next firing is computed as base + k * delay rather than t + delay, so
 * that a clock (a delay feeding itself) ticks at exact multiples of its
 * period instead of accumulating one rounding error per tick. An activation
 * that is not the one expected (a delay triggered from outside) restarts the
 * count from its own time, which gives t + delay. */
typedef struct delay_work {
  double base; /* time of tick 0 of the current run of ticks */
  long k;      /* ticks scheduled since base */
  int have;    /* base is meaningful */
} delay_work;

static void delay_fn(bsim_block *blk, int flag) {
  delay_work *w = (delay_work *)*blk->work;
  switch (flag) {
  case BSIM_FLAG_INIT:
    if (blk->nrpar < 2 || !(blk->rpar[0] > 0) || blk->nevout < 1) {
      bsim_block_error(blk, "rpar must hold [delay > 0; initial firing] and "
                            "the block needs one event output");
      return;
    }
    if (!w) {
      w = calloc(1, sizeof *w);
      if (!w) {
        bsim_block_error(blk, "out of memory");
        return;
      }
      *blk->work = w;
    }
    w->base = blk->rpar[1];
    w->k = 0;
    w->have = blk->rpar[1] >= 0;
    break;
  case BSIM_FLAG_EVENTS: {
    if (!w || blk->nevprt == 0) return;
    double dt = blk->rpar[0], t = blk->t;
    /* A tick served by the scheduler lands within rounding of the time we
     * asked for; 1e-9 of the period separates that from a real retrigger. */
    double tol = 1e-9 * dt + 8 * DBL_EPSILON * fabs(t);
    if (w->have && fabs(t - (w->base + (double)w->k * dt)) <= tol) {
      w->k++;
    } else {
      w->base = t;
      w->k = 1;
      w->have = 1;
    }
    double d = w->base + (double)w->k * dt - t;
    blk->evout[0] = d > 0 ? d : 0;
    break;
  }
  case BSIM_FLAG_END:
    free(w);
    *blk->work = NULL;
    break;
  default:
    break;
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
    "Each activation of the event input fires the event output 'delay'\n"
    "time units later. With 'init-time' >= 0 the output also fires once at\n"
    "that date without any activation. Activations that come exactly one\n"
    "delay after the previous firing (a delay wired to itself, as inside\n"
    "CLOCK_c) are scheduled at init-time + k delay, so a clock does not\n"
    "drift. One event input, one event output, no data ports.\n"
    "Run-time layout: rpar = [delay; init-time], firing = [init-time].",
    evtdly_params,
    2,
    evtdly_define,
    delay_fn,
    0};

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
    "whole run. In Xcos a superblock around EVTDLY_c whose output is split\n"
    "back to its input; here the same EVTDLY_c model with that loop added\n"
    "by the flattener (self-activated). One event output.\n"
    "Run-time layout (the inner EVTDLY_c's): rpar = [period; init-time],\n"
    "firing = [init-time], one event input (the loop), one event output.",
    clock_params,
    2,
    clock_define,
    delay_fn,
    BSIM_TYPE_SELF_ACTIVATED};

static const bsim_param_spec sampleclk_params[] = {
    {"period", BSIM_PARAM_REAL, "1", "sample time (> 0)"},
    {"offset", BSIM_PARAM_REAL, "0",
     "phase of the ticks, at most period in absolute value: ticks at offset + "
     "k period"},
};

static int sampleclk_define(bsim_define_ctx *ctx, bsim_model *m) {
  double dt, off;
  if (bsim_std_scalar(ctx, "period", &dt) ||
      bsim_std_scalar(ctx, "offset", &off))
    return -1;
  if (dt <= 0)
    return bsim_define_error(ctx, "'period' must be > 0, got %g", dt);
  if (fabs(off) > dt)
    return bsim_define_error(
        ctx, "|'offset'| must not exceed 'period' (%g), got %g", dt, off);
  /* A negative offset makes the first tick at t >= 0 the one of k = 1. */
  return delay_model(ctx, m, dt, off, off >= 0 ? off : off + dt);
}

static const bsim_block_type bsim_type_SampleCLK = {
    "SampleCLK",
    "sampleclk",
    "Sample clock: ticks at offset + k period.",
    "Fires its event output at offset + k period for k = 0, 1, ... (the\n"
    "first tick at t >= 0). Xcos merges all SampleCLK blocks of a diagram\n"
    "into one clock at compile time; here each is a self-activated leaf\n"
    "computed as EVTDLY_c, which gives the same tick times.\n"
    "Run-time layout: rpar = [period; offset] (as Xcos), firing = [offset]\n"
    "(offset + period if negative), one event input (the loop, added by the\n"
    "flattener), one event output. Xcos stores firing = -1 and no event\n"
    "input, since its compiler builds the clock itself.",
    sampleclk_params,
    2,
    sampleclk_define,
    delay_fn,
    BSIM_TYPE_SELF_ACTIVATED};

/* evroute.c */
extern const bsim_block_type bsim_type_IFTHEL_f, bsim_type_ESELECT_f,
    bsim_type_CLKSOMV_f, bsim_type_CLKSOM_f, bsim_type_ANDBLK;

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
    BSIM_TYPE_SELF_ACTIVATED};

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
    0};

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

static const bsim_block_type bsim_type_CLKINV_f = {
    "CLKINV_f",
    "input",
    "Superblock event input port.",
    "Inside a superblock, stands for the superblock's event input number\n"
    "'port': its event output carries the activations reaching that input\n"
    "outside. Dissolved by flattening.\n"
    "Run-time layout: ipar = [port], nevin = 0, nevout = 1.",
    evport_params,
    1,
    clkinv_define,
    evport_fn,
    BSIM_TYPE_PORT};

static const bsim_block_type bsim_type_CLKOUTV_f = {
    "CLKOUTV_f",
    "output",
    "Superblock event output port.",
    "Inside a superblock, stands for the superblock's event output number\n"
    "'port': what activates its event input leaves the superblock there.\n"
    "Dissolved by flattening.\n"
    "Run-time layout: ipar = [port], nevin = 1, nevout = 0.",
    evport_params,
    1,
    clkoutv_define,
    evport_fn,
    BSIM_TYPE_PORT};

/* EVTDLY_c before CLOCK_c so that "evtdly4" finds the plain delay. */
const bsim_block_type *const bsim_event_types[] = {
    &bsim_type_EVTDLY_c, &bsim_type_CLOCK_c,   &bsim_type_SampleCLK,
    &bsim_type_IFTHEL_f, &bsim_type_ESELECT_f, &bsim_type_CLKSOMV_f,
    &bsim_type_CLKSOM_f, &bsim_type_ANDBLK,    &bsim_type_END_c,
    &bsim_type_HALT_f,   &bsim_type_CLKINV_f,  &bsim_type_CLKOUTV_f,
};
const int bsim_event_ntypes =
    (int)(sizeof bsim_event_types / sizeof bsim_event_types[0]);
