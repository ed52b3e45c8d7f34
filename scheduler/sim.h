/*
 * A configured run: the flat diagram, its plan, the resolved settings and,
 * once run, the results and statistics. Private to the scheduler; users see
 * it through include/blocksim/blocksim.h.
 */
#ifndef BSIM_SIM_H
#define BSIM_SIM_H

#include "blocksim/blocksim.h"
#include "diagrams/flat.h"
#include "scheduler/plan.h"
#include "solvers/engine.h"

enum { BSIM_MAX_STATS = 16 };

struct bsim_sim {
  bsim_flat *flat;
  bsim_plan *plan;
  const bsim_engine_type *engine;
  /* engine parameters: the diagram's merged with the options' (owned) */
  char **param_names, **param_values;
  int nparams;
  double t0, tf, rtol, atol;
  long max_events, max_fast_restarts; /* chattering guard, <= 0 = default */
  size_t nrows;                       /* samples */
  double *times;

  size_t ncols; /* observed scalar columns */
  char **names;
  const double **sources; /* where each column's value lives after outputs */
  double *data;           /* nrows x ncols, row-major */
  size_t filled;          /* rows recorded so far */

  /* For analysis: stop once consistent initial values are known, and/or
   * receive the final y, y' (plan->ny entries each, caller-owned). */
  int stop_after_start;
  double *final_y, *final_yp;
  double final_t;

  int nstats;
  const char *stat_names[BSIM_MAX_STATS];
  double stat_values[BSIM_MAX_STATS];
};

/* The hybrid loop (run.c): fills data and statistics. */
int bsim_run_loop(bsim_sim *s, bsim_error *err);

#endif
