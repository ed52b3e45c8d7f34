/*
 * State of one run of the hybrid loop, shared by run.c (the loop, restarts)
 * and activate.c (serving events and roots). Private to the scheduler.
 */
#ifndef BSIM_RUN_H
#define BSIM_RUN_H

#include <stdint.h>

#include "scheduler/calendar.h"
#include "scheduler/sim.h"

typedef struct run_state {
  bsim_sim *s;
  const bsim_plan *p;
  bsim_run *run; /* the sim's run state: block views, buffers, errors */
  /* pending events: critical ones stop the integrator, hot ones are served
   * from interpolation; seq orders simultaneous events across both */
  bsim_calendar crit, hot;
  unsigned long seq;
  bsim_engine *eng;
  double t;
  /* the date of the last event or root served: the time tolerance
   * applies from there only (Xcos's told), not from a sample time */
  double t_event;
  double *y, *yp, *res;
  size_t next_sample;
  int stopped; /* a block ended the run (END_c, HALT_f) */
  int ninit;   /* blocks, in order, that flag 4 was called for */

  /* snapshot before a critical event, to downgrade it to hot when nothing
   * the continuous part sees has changed */
  double *snap_y, *snap_out;
  int *modes, *snap_modes;

  /* chattering guard */
  long max_events, max_fast_restarts, fast_restarts;
  double last_restart_t;
  const char *cause;   /* path of the block behind the last event or root */
  long piled;          /* gaps shorter than min_span between the last
                          events and roots, in a row */
  double last_event_t; /* time of the last of them (NAN: none yet) */
  /* surfaces watched for a missed return after a reset (zeno.c): crossing
   * direction (0 = not watched), value after the reset */
  int *watch_dir;
  double *watch_g;
  int watch_armed, watching;
  double watch_t;               /* time of the restart that armed the watch */
  double *gnow, *gnext, *ynext; /* scratch: ng, ng, ny */

  /* carrying the history across events (carry.c): the discrete states
   * of active blocks before an event, scratch */
  double *snap_z, *carry_buf;
  size_t nsnap_z;
  int *zblocks, nzblocks; /* the active blocks with discrete states */
  /* residual calls made outside the engine (carrying, choosing it) */
  long extra_res;

  /* settling after an event (activate.c): the places in the plan's order
   * of the blocks to call in the next walk, as bit sets (walk: this one,
   * found while walking or updating; next: the walk after, for readers
   * placed before a block that changed), nwords words each; each block's
   * place; the places of the blocks reading each one (those with outputs:
   * reader_pos[reader_start[b] ..]); a block's outputs before its call */
  uint64_t *walk, *walk_next;
  int nwords;
  int *order_pos, *reader_start, *reader_pos;
  double *oldout;

  /* solver "auto": events the engine could not carry across, and the
   * statistics of the engine it left */
  long auto_carriable;
  bsim_engine_stats banked;

  long events, roots, hot_continues, cold_restarts, downgrades, carries;
} run_state;

/* consistent.c (dense, small systems only; others are left to IDA):
 * before IDACalcIC, Newton's method on the algebraic unknowns and the
 * derivatives of the differential ones, updating r->y, r->yp when it
 * converges; after it, y' of the algebraic unknowns from the derivative
 * of the residual along the solution. 0, or -1 out of memory. */
int bsim_run_consistent(run_state *r);
int bsim_run_algebraic_slopes(run_state *r);

/* activate.c */
int bsim_run_settle(run_state *r, bsim_error *err);
/* Only the outputs that move with t and y (the others change at events). */
int bsim_run_settle_active(run_state *r, bsim_error *err);
int bsim_run_settle_alloc(run_state *r);
void bsim_run_settle_free(run_state *r);
int bsim_run_fail(run_state *r, bsim_error *err);
int bsim_run_update_modes(run_state *r, int *changed, bsim_error *err);
int bsim_run_schedule(run_state *r, int blk, bsim_error *err);
/* Serve the events due at r->t: all of them, or only hot ones. settled:
 * the outputs are settled at (t, y) (bsim_run_settle ran, nothing was
 * evaluated since). Returns the number served, or -1. */
int bsim_run_serve_events(run_state *r, int only_hot, int settled,
                          bsim_error *err);
/* Whether an event dated t is served at r->t (time tolerance included). */
int bsim_run_is_due(const run_state *r, double t);
/* After a root, with the outputs settled at (t, y) (bsim_run_settle). */
int bsim_run_serve_roots(run_state *r, bsim_error *err);
/* zeno.c: the chattering guard's accumulation checks (see there). */
double bsim_run_min_span(const run_state *r);
/* One more occurrence at r->t: the number of gaps in a row shorter than
 * min_span between occurrences, counted in *gaps; *last is the previous
 * occurrence's time (NAN for none), updated. */
long bsim_run_close_gaps(const run_state *r, long *gaps, double *last);
int bsim_run_zeno_alloc(run_state *r);
void bsim_run_zeno_free(run_state *r);
/* One event or root served at r->t: -1 (err set) past the pile-up bound. */
int bsim_run_pileup(run_state *r, bsim_error *err);
/* The surfaces that fired at a root (jroot, before it is cleared). */
void bsim_run_zeno_roots(run_state *r, const int *jroot);
/* After the restart (or downgrade) that follows roots: which of them to
 * watch (a surface that cannot be evaluated there is not). At each later
 * return of the engine but at roots: -1 (err set) when a watched
 * surface's return across was missed. */
void bsim_run_zeno_arm(run_state *r);
int bsim_run_zeno_check(run_state *r, bsim_error *err);
/* finite.c: every output buffer finite, or -1 with err naming the first
 * block whose output is NaN or infinite. */
int bsim_run_check_finite(run_state *r, bsim_error *err);
/* carry.c: after events served at a stop time, carry the engine's history
 * across them when the rule allows: 1 carried, 0 not (restart instead), 2
 * not because the engine cannot (the rule allowed it), -1 with err set. */
int bsim_run_carry_alloc(run_state *r);
/* f = -F(t, y, 0) on the differential rows (F = y' - f there), 0 on the
 * others; counted in extra_res. 0, or -1 when the residual failed. */
int bsim_run_rhs(run_state *r, const double *y, double *f);
void bsim_run_carry_free(run_state *r);
void bsim_run_carry_snapshot(run_state *r);
int bsim_run_try_carry(run_state *r, bsim_error *err);
/* auto.c: for solver "auto", the engine for this run, chosen at the start
 * (y consistent): ida for a DAE or when clocked inputs of linear parts can
 * be carried across, else cvode-bdf or cvode-adams by a stiffness test;
 * why says so. */
const bsim_engine_type *bsim_run_auto_engine(run_state *r, char *why,
                                             size_t len);
/* After an event its engine could not carry across: after a few, switch
 * to ida, which can (the next restart creates it). */
void bsim_run_auto_carriable(run_state *r);
/* Snapshot / compare what the continuous part sees. */
void bsim_run_snapshot(run_state *r);
int bsim_run_unchanged(const run_state *r);

#endif
