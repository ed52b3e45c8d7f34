/*
 * A configured run: the flat diagram, its plan, the resolved settings, the
 * run state and, once run, the results and statistics. Private to the
 * scheduler; users see it through include/blocksim/blocksim.h.
 *
 * What compile and the settings produce (flat .. names) is shared: a sim
 * derived from another (bsim_sim_derive) borrows it from its base and
 * owns only its run state, its parameter overrides and its results.
 */
#ifndef BSIM_SIM_H
#define BSIM_SIM_H

#include "blocksim/blocksim.h"
#include "diagrams/flat.h"
#include "scheduler/plan.h"
#include "solvers/engine.h"

enum { BSIM_MAX_STATS = 16 };

struct bsim_sim {
  const bsim_sim *base; /* NULL: this sim owns the shared part */
  bsim_flat *flat;
  bsim_plan *plan;
  const bsim_engine_type *engine;
  /* the engine the settings name, which a native diagram written from this
   * one names (convert.c); engine is "none" instead when there is nothing
   * to integrate (solvers/none.c) */
  const bsim_engine_type *named;
  /* solver "auto": the engine is chosen when a run starts (auto.c), and
   * why it was */
  int auto_solver;
  char solver_why[320];
  /* engine parameters: the diagram's merged with the options' (owned) */
  char **param_names, **param_values;
  int nparams;
  double t0, tf, rtol, atol;
  double ttol; /* events this close to the current time are served at it */
  long max_events, max_fast_restarts;  /* chattering guard, <= 0 = default */
  int allow_nonfinite;                 /* bsim_options.allow_nonfinite */
  int no_carry;                        /* bsim_options.no_carry */
  const volatile sig_atomic_t *cancel; /* bsim_options.cancel */
  size_t nrows;                        /* samples */
  int spacing;                         /* bsim_spacing */
  double *times;     /* made by the first run: `check` needs none */
  double *own_times; /* what this sim allocated for times (derived sims
                        made before their base ran make their own) */

  size_t ncols; /* observed scalar columns */
  char **names;
  size_t *colsrc; /* where each column's value lives in a run's outbufs */

  /* This sim's own */
  bsim_run *run;
  bsim_model **models;    /* flat->nblocks, each NULL or an override's model
                             (derive.c); NULL: no overrides */
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

/* The equations the engine integrates, for this sim's run state. */
void bsim_sim_problem(const bsim_sim *s, bsim_problem *prob);

/* The hybrid loop (run.c): fills data and statistics. */
int bsim_run_loop(bsim_sim *s, bsim_error *err);

/* The sim's own part: a run state for its plan with the models' data
 * (models: flat->nblocks entries, NULL entries for the flat's), and the
 * columns' sources in it. 0, or -1 with err set (sim.c). */
int bsim_sim_attach_run(bsim_sim *s, const bsim_model *const *models,
                        bsim_error *err);

#endif
