/*
 * Source blocks: constants, the sine generator, the clock-free time signal
 * and the step. They have no data inputs, so they may write their outputs at
 * flag 4 already; the scheduler then sees sensible values before the first
 * output pass.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blocks/std.h"

/* ---------------------------------------------------------------- CONST_m */

static const bsim_param_spec const_m_params[] = {
    {"value", BSIM_PARAM_REAL, "1",
     "the constant: a scalar, vector or matrix (its size is the output's)"},
};

static int const_m_define(bsim_define_ctx *ctx, bsim_model *m) {
  const bsim_value *c = bsim_param(ctx, "value");
  if (bsim_std_numel(c) == 0)
    return bsim_define_error(ctx, "'value' must have at least one element");
  if (bsim_model_set_outputs(m, 1, c->rows, c->cols) != 0 ||
      bsim_model_add_opar(m, c) != 0)
    return bsim_define_error(ctx, "out of memory");
  return 0;
}

static void const_m_fn(bsim_block *blk, int flag) {
  if (flag != BSIM_FLAG_OUTPUTS && flag != BSIM_FLAG_INIT &&
      flag != BSIM_FLAG_REINIT)
    return;
  if (blk->nopar < 1 || blk->nout < 1) {
    bsim_block_error(blk, "expects one object parameter and one output");
    return;
  }
  int n = bsim_std_outsize(blk, 0);
  int have = blk->oparsz[0] * blk->oparsz[blk->nopar];
  if (have != n) {
    bsim_block_error(blk, "output has %d elements but the constant has %d", n,
                     have);
    return;
  }
  memcpy(blk->outptr[0], blk->oparptr[0], (size_t)n * sizeof(double));
}

const bsim_block_type bsim_type_CONST_m = {
    "CONST_m",
    "cstblk4_m",
    "Constant scalar, vector or matrix.",
    "Outputs the constant 'value' at all times; the output has the size of\n"
    "the value (rows x cols). No inputs, not time-dependent.\n"
    "Run-time layout: opar[0] = value (as Xcos: opar = list(C)), rpar and\n"
    "ipar empty, out = rows, out2 = cols.",
    const_m_params,
    1,
    const_m_define,
    const_m_fn,
    BSIM_TYPE_JACOBIAN,
    "value"};

/* ------------------------------------------------------ CONST and CONST_f */

static const bsim_param_spec const_params[] = {
    {"value", BSIM_PARAM_REAL, "1",
     "the constant: a scalar or a vector (output size = number of elements)"},
};

static int const_common(bsim_define_ctx *ctx, bsim_model *m, int vector_only) {
  const bsim_value *c = bsim_param(ctx, "value");
  int n = bsim_std_numel(c);
  if (n == 0)
    return bsim_define_error(ctx, "'value' must have at least one element");
  if (vector_only && c->rows > 1 && c->cols > 1)
    return bsim_define_error(ctx,
                             "'value' must be a scalar or a vector, got a "
                             "%dx%d matrix; use CONST_m for a matrix",
                             c->rows, c->cols);
  double *r = bsim_model_alloc_rpar(m, n);
  if (!r || bsim_model_set_outputs(m, 1, n, 1) != 0)
    return bsim_define_error(ctx, "out of memory");
  memcpy(r, c->v, (size_t)n * sizeof *r);
  return 0;
}

static int const_define(bsim_define_ctx *ctx, bsim_model *m) {
  return const_common(ctx, m, 1);
}

static int const_f_define(bsim_define_ctx *ctx, bsim_model *m) {
  return const_common(ctx, m, 0);
}

static void cstblk_fn(bsim_block *blk, int flag) {
  if (flag != BSIM_FLAG_OUTPUTS && flag != BSIM_FLAG_INIT &&
      flag != BSIM_FLAG_REINIT)
    return;
  /* a file's stored model may lack the output */
  if (flag == BSIM_FLAG_INIT && bsim_std_need_ports(blk, 0, 1) != 0) return;
  int n = bsim_std_outsize(blk, 0);
  if (n > blk->nrpar) {
    bsim_block_error(blk, "output has %d elements but rpar only %d", n,
                     blk->nrpar);
    return;
  }
  memcpy(blk->outptr[0], blk->rpar, (size_t)n * sizeof(double));
}

const bsim_block_type bsim_type_CONST = {
    "CONST",
    "cstblk4",
    "Constant scalar or vector.",
    "Outputs the constant 'value' (a scalar or a vector) at all times.\n"
    "Run-time layout: rpar = value(:), out = number of elements, out2 = 1.",
    const_params,
    1,
    const_define,
    cstblk_fn,
    BSIM_TYPE_JACOBIAN,
    "value"};

const bsim_block_type bsim_type_CONST_f = {
    "CONST_f",
    "cstblk",
    "Constant (old interface).",
    "Outputs the constant 'value' at all times, flattened to a vector.\n"
    "Run-time layout: rpar = value(:), out = number of elements, out2 = 1.",
    const_params,
    1,
    const_f_define,
    cstblk_fn,
    BSIM_TYPE_JACOBIAN,
    "value"};

/* --------------------------------------------------------------- GENSIN_f */

static const bsim_param_spec gensin_params[] = {
    {"amplitude", BSIM_PARAM_REAL, "1", "magnitude A"},
    {"frequency", BSIM_PARAM_REAL, "1", "angular frequency w in rad/s (>= 0)"},
    {"phase", BSIM_PARAM_REAL, "0", "phase p in rad"},
};

static int gensin_define(bsim_define_ctx *ctx, bsim_model *m) {
  double a, w, p;
  if (bsim_std_scalar(ctx, "amplitude", &a) ||
      bsim_std_scalar(ctx, "frequency", &w) ||
      bsim_std_scalar(ctx, "phase", &p))
    return -1;
  if (w < 0)
    return bsim_define_error(ctx, "'frequency' must be >= 0, got %g", w);
  double *r = bsim_model_alloc_rpar(m, 3);
  if (!r || bsim_model_set_outputs(m, 1, 1, 1) != 0)
    return bsim_define_error(ctx, "out of memory");
  r[0] = a;
  r[1] = w;
  r[2] = p;
  m->dep_t = 1;
  return 0;
}

static void gensin_fn(bsim_block *blk, int flag) {
  if (flag != BSIM_FLAG_OUTPUTS && flag != BSIM_FLAG_INIT &&
      flag != BSIM_FLAG_REINIT)
    return;
  if (blk->nrpar < 3) {
    bsim_block_error(blk, "rpar must hold [amplitude; frequency; phase]");
    return;
  }
  /* a file's stored model may lack the output */
  if (flag == BSIM_FLAG_INIT && bsim_std_need_ports(blk, 0, 1) != 0) return;
  double y = blk->rpar[0] * sin(blk->rpar[1] * blk->t + blk->rpar[2]);
  int n = bsim_std_outsize(blk, 0);
  for (int i = 0; i < n; i++)
    blk->outptr[0][i] = y;
}

const bsim_block_type bsim_type_GENSIN_f = {
    "GENSIN_f",
    "gensin",
    "Sine wave generator: y = A sin(w t + p).",
    "Outputs A sin(w t + p) with w in rad/s. One output of size 1, no\n"
    "inputs, always active (dep_t).\n"
    "Run-time layout: rpar = [A; w; p].",
    gensin_params,
    3,
    gensin_define,
    gensin_fn,
    BSIM_TYPE_JACOBIAN,
    "amplitude,frequency,phase"};

/* ----------------------------------------------------------------- TIME_f */

static int time_define(bsim_define_ctx *ctx, bsim_model *m) {
  if (bsim_model_set_outputs(m, 1, 1, 1) != 0)
    return bsim_define_error(ctx, "out of memory");
  m->dep_t = 1;
  return 0;
}

static void time_fn(bsim_block *blk, int flag) {
  /* a file's stored model may lack the output */
  if (flag == BSIM_FLAG_INIT &&
      (bsim_std_need_ports(blk, 0, 1) != 0 || bsim_std_outsize(blk, 0) < 1)) {
    if (blk->nout >= 1) bsim_block_error(blk, "its output has no element");
    return;
  }
  if (flag == BSIM_FLAG_OUTPUTS || flag == BSIM_FLAG_INIT ||
      flag == BSIM_FLAG_REINIT)
    blk->outptr[0][0] = blk->t;
}

const bsim_block_type bsim_type_TIME_f = {
    "TIME_f",
    "timblk",
    "Simulation time: y = t.",
    "Outputs the current simulation time. One output of size 1, always\n"
    "active (dep_t). No parameters; rpar and ipar empty.",
    NULL,
    0,
    time_define,
    time_fn,
    BSIM_TYPE_JACOBIAN,
    ""};

/* ------------------------------------------------- STEP and STEP_FUNCTION */

static const bsim_param_spec step_params[] = {
    {"time", BSIM_PARAM_REAL, "1", "step time (>= 0)"},
    {"initial", BSIM_PARAM_REAL, "0",
     "value before the step (scalar or vector)"},
    {"final", BSIM_PARAM_REAL, "1", "value from the step time on"},
};

static int step_define(bsim_define_ctx *ctx, bsim_model *m) {
  double t;
  if (bsim_std_scalar(ctx, "time", &t) != 0) return -1;
  if (t < 0) return bsim_define_error(ctx, "'time' must be >= 0, got %g", t);
  const bsim_value *in = bsim_param(ctx, "initial");
  const bsim_value *fi = bsim_param(ctx, "final");
  int nin = bsim_std_numel(in), nfi = bsim_std_numel(fi);
  if (nin == 0 || nfi == 0)
    return bsim_define_error(ctx, "'initial' and 'final' must not be empty");
  /* A scalar on one side is spread over the other side's size, as Xcos. */
  if (nin != nfi && nin != 1 && nfi != 1)
    return bsim_define_error(
        ctx, "'initial' and 'final' have incompatible sizes %d and %d", nin,
        nfi);
  int n = nin > nfi ? nin : nfi;
  double *r = bsim_model_alloc_rpar(m, 2 * n);
  if (!r || bsim_model_set_outputs(m, 1, n, 1) != 0 ||
      bsim_model_set_events(m, 1, 1) != 0)
    return bsim_define_error(ctx, "out of memory");
  for (int i = 0; i < n; i++) {
    double a = in->v[nin == 1 ? 0 : i], b = fi->v[nfi == 1 ? 0 : i];
    /* Xcos stores [final; final] for a step at t = 0, so that the output is
     * final from the very start. */
    r[i] = t == 0 ? b : a;
    r[n + i] = b;
  }
  m->firing[0] = t;
  /* The Xcos files store dependsOnT = 1 for STEP; keeping it makes the
   * scheduler refresh the output whenever it evaluates outputs. */
  m->dep_t = 1;
  return 0;
}

typedef struct step_work {
  int switched; /* the activation at the step time has been seen */
} step_work;

static void step_write(bsim_block *blk, int switched) {
  int n = bsim_std_outsize(blk, 0);
  const double *src = blk->rpar + (switched ? n : 0);
  memcpy(blk->outptr[0], src, (size_t)n * sizeof(double));
}

static void step_fn(bsim_block *blk, int flag) {
  step_work *w = (step_work *)*blk->work;
  switch (flag) {
  case BSIM_FLAG_INIT:
    if (blk->nout < 1 || blk->nrpar < 2 * bsim_std_outsize(blk, 0)) {
      bsim_block_error(blk, "rpar must hold [initial; final] for %d outputs",
                       blk->nout ? bsim_std_outsize(blk, 0) : 0);
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
    w->switched = 0;
    step_write(blk, 0);
    break;
  case BSIM_FLAG_OUTPUTS:
  case BSIM_FLAG_UPDATE:
  case BSIM_FLAG_REINIT:
    if (!w) return;
    /* The only activation a step receives is its own, at the step time;
     * remember it so that later calls without activation stay final. */
    if ((flag == BSIM_FLAG_OUTPUTS || flag == BSIM_FLAG_UPDATE) &&
        blk->nevprt > 0 && (blk->nevprt & 1))
      w->switched = 1;
    step_write(blk, w->switched);
    break;
  case BSIM_FLAG_END:
    free(w);
    *blk->work = NULL;
    break;
  default:
    break;
  }
}

#define STEP_DOC_COMMON                                                        \
  "Outputs 'initial' before the step time and 'final' from it on. 'initial'\n" \
  "and 'final' may be vectors (a scalar is spread over the other's size).\n"   \
  "One output of size n, one event input, one event output whose initial\n"    \
  "firing is the step time.\n"                                                 \
  "Run-time layout: rpar = [initial; final] ([final; final] when time = 0),\n" \
  "firing = [time], dep_t = 1. The switch is remembered in work memory."

const bsim_block_type bsim_type_STEP = {
    "STEP",
    "step_func",
    "Step from an initial to a final value at a given time.",
    STEP_DOC_COMMON "\nIts event output must be linked to its own event "
                    "input (STEP_FUNCTION does that).",
    step_params,
    3,
    step_define,
    step_fn,
    0,
    "time,initial,final"};

const bsim_block_type bsim_type_STEP_FUNCTION = {
    "STEP_FUNCTION",
    "step_func",
    "Step function (STEP with its activation loop built in).",
    STEP_DOC_COMMON "\nIn Xcos a superblock around STEP; here the same model "
                    "with the event\noutput fed back to the event input by the "
                    "flattener.",
    step_params,
    3,
    step_define,
    step_fn,
    BSIM_TYPE_SELF_ACTIVATED};
