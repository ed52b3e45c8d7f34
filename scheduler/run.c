/*
 * The hybrid loop: integrate towards the next sample, the next hot event or
 * the next critical event (the engine's stop time), whichever comes first.
 * Hot events are served from the engine's interpolation without touching
 * it; critical events and roots stop it, are served, and restart it cold —
 * unless nothing the continuous part sees has changed, in which case the
 * restart is downgraded to a hot continuation. Sample values come from the
 * engine's interpolation (IDA_NORMAL), never from forced small steps.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "scheduler/run.h"

/* Bound on cold restarts while modes keep changing at one instant. */
enum { MAX_MODE_ITERATIONS = 20 };
static const long default_max_events = 1000, default_max_fast_restarts = 100;

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Torn signals start from what the loop computes from the current guess:
 * a few fixed-point passes give IDACalcIC a good starting point. */
static int init_torn(run_state *r, bsim_error *err) {
  for (int pass = 0; pass < 3; pass++) {
    if (bsim_run_settle(r, err) != 0) return -1;
    for (int t = 0; t < r->p->ntorn; t++) {
      const rt_torn *tw = &r->p->torn[t];
      memcpy(r->y + tw->yoff, r->run->blocks[tw->block].b.outptr[tw->port],
             sizeof(double) * (size_t)tw->n);
    }
  }
  return bsim_run_settle(r, err);
}

/* y' guess: f for explicit states (the residual at y' = 0 is -f). */
static int guess_yp(run_state *r, bsim_error *err) {
  memset(r->yp, 0, sizeof(double) * (size_t)r->p->ny);
  int rc = bsim_run_residual(r->t, r->y, r->yp, r->res, r->run);
  if (rc == BSIM_CB_FATAL) return bsim_run_fail(r, err);
  for (int i = 0; i < r->p->nx; i++)
    r->yp[i] = rc == BSIM_CB_OK ? -r->res[i] : 0.0;
  return 0;
}

static int chatter_guard(run_state *r, bsim_error *err) {
  if (bsim_run_close_gaps(r, &r->fast_restarts, &r->last_restart_t) <
      r->max_fast_restarts)
    return 0;
  bsim_error_set(err, BSIM_ERR_SIM,
                 "the diagram chatters: %ld cold restarts in a row closer "
                 "than %.3g s at t=%.17g, the last caused by block '%s' "
                 "(Zeno behaviour? hint: add hysteresis or a minimum delay; "
                 "the bound is --max-restarts)",
                 r->fast_restarts, bsim_run_min_span(r), r->t,
                 r->cause ? r->cause : "?");
  return -1;
}

static double horizon(const run_state *r) {
  double h =
      r->next_sample < r->s->nrows ? r->s->times[r->next_sample] : r->s->tf;
  return fmin(h,
              fmin(bsim_calendar_next(&r->crit), bsim_calendar_next(&r->hot)));
}

/* Cold restart: the engine forgets its history and recomputes consistent
 * y, y' at t; repeated while modes change. */
static int cold_restart(run_state *r, bsim_error *err) {
  const bsim_engine_type *et = r->s->engine;
  for (int it = 0;; it++) {
    if (chatter_guard(r, err) != 0 || guess_yp(r, err) != 0) return -1;
    if (bsim_run_consistent(r) != 0) {
      bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
      return -1;
    }
    if (r->eng) {
      if (et->reinit(r->eng, r->t, r->y, r->yp) != 0) {
        bsim_error_set(err, BSIM_ERR_SIM, "at t=%.17g: %s", r->t,
                       et->last_error(r->eng));
        return -1;
      }
    } else {
      bsim_problem prob;
      bsim_sim_problem(r->s, &prob);
      bsim_engine_settings set = {
          r->s->rtol, r->s->atol, (const char *const *)r->s->param_names,
          (const char *const *)r->s->param_values, r->s->nparams};
      char msg[1024] = "";
      r->eng = et->create(&prob, &set, r->t, r->y, r->yp, msg, sizeof msg);
      if (!r->eng) {
        bsim_error_set(err, BSIM_ERR_INPUT, "%s: solver '%s': %s",
                       r->s->flat->file, et->name, msg);
        return -1;
      }
    }
    r->cold_restarts++;
    r->run->errs.cold = 0;
    double h = horizon(r);
    double tout1 = h > r->t ? h : r->s->tf;
    if (et->calc_ic(r->eng, tout1, r->y, r->yp) != 0) {
      if (r->run->errs.fatal) return bsim_run_fail(r, err);
      bsim_error_set(err, BSIM_ERR_SIM,
                     "no consistent initial values at t=%.17g: %s (hint: "
                     "check that every algebraic loop has a solution, e.g. "
                     "no loop gain of exactly 1)",
                     r->t, et->last_error(r->eng));
      return -1;
    }
    if (bsim_run_algebraic_slopes(r) != 0) {
      bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
      return -1;
    }
    if (r->p->nw + r->p->na > 0 && et->reinit(r->eng, r->t, r->y, r->yp) != 0) {
      bsim_error_set(err, BSIM_ERR_SIM, "at t=%.17g: %s", r->t,
                     et->last_error(r->eng));
      return -1;
    }
    if (bsim_run_settle(r, err) != 0) return -1;
    int changed = 0;
    if (r->p->nmodes == 0) return 0;
    if (bsim_run_update_modes(r, &changed, err) != 0) return -1;
    if (!changed) return 0;
    if (it + 1 >= MAX_MODE_ITERATIONS) {
      bsim_error_set(err, BSIM_ERR_SIM,
                     "modes do not settle at t=%.17g after %d restarts "
                     "(sliding mode?); last event from block '%s' (hint: "
                     "add hysteresis, or set zero-crossing=0 on the block)",
                     r->t, MAX_MODE_ITERATIONS, r->cause ? r->cause : "?");
      return -1;
    }
  }
}

/* After events or roots served at a stop: continue hot if nothing the
 * continuous part sees has changed, carry the history across the event if
 * it only kinked the solution through linear blocks, else restart cold. */
static int after_discrete(run_state *r, int at_root, bsim_error *err) {
  int changed = 0;
  /* nothing to integrate (solvers/none.c): nothing to restart either */
  if (r->s->engine == &bsim_engine_none && r->p->nmodes == 0) return 0;
  if (r->p->nmodes && bsim_run_update_modes(r, &changed, err) != 0) return -1;
  if (!r->run->errs.cold && bsim_run_unchanged(r)) {
    r->downgrades++;
    return 0;
  }
  int carried = bsim_run_try_carry(r, err);
  if (carried < 0) return -1;
  if (carried == 1) return 0;
  /* only at a stop time can a step end at the event (not at a root) */
  if (carried == 2 && !at_root && r->s->auto_solver) bsim_run_auto_carriable(r);
  return cold_restart(r, err);
}

static void record_sample(run_state *r) {
  bsim_sim *s = r->s;
  double *row = s->data + s->filled * s->ncols;
  for (size_t c = 0; c < s->ncols; c++)
    row[c] = *s->sources[c];
  s->filled++;
  r->next_sample++;
}

/* Record samples due at r->t from the current solution. */
static int record_due(run_state *r, bsim_error *err) {
  const double eps = 1e-12 * fmax(1.0, fabs(r->s->tf));
  while (r->next_sample < r->s->nrows &&
         r->s->times[r->next_sample] <= r->t + eps) {
    bsim_run_bind_integrating(r->run, r->t, r->y, r->yp, NULL);
    if (bsim_run_outputs(r->run, 0) != BSIM_CB_OK) return bsim_run_fail(r, err);
    if (!r->s->allow_nonfinite && bsim_run_check_finite(r, err) != 0) return -1;
    record_sample(r);
  }
  return 0;
}

static int push_firings(run_state *r, bsim_error *err) {
  for (int i = 0; i < r->p->nblocks; i++) {
    const bsim_model *m = r->run->blocks[i].m;
    for (int k = 0; k < m->nevout; k++) {
      if (!m->firing || !(m->firing[k] >= 0)) continue;
      bsim_calendar *c = r->p->evcrit[r->p->evbase[i] + k] ? &r->crit : &r->hot;
      if (bsim_calendar_push(c, m->firing[k], i, k, r->seq++) != 0) {
        bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
        return -1;
      }
    }
  }
  return 0;
}

/* Solver "auto" picks its engine once the start's events are served. */
static int choose_engine(run_state *r, bsim_error *err) {
  if (!r->s->auto_solver) return 0;
  r->s->engine =
      bsim_run_auto_engine(r, r->s->solver_why, sizeof r->s->solver_why);
  if (r->s->engine) return 0;
  bsim_error_set(err, BSIM_ERR_INPUT, "solver 'auto': no engine");
  return -1;
}

static int start(run_state *r, bsim_error *err) {
  const bsim_plan *p = r->p;
  bsim_run *x = r->run;
  /* A sim run again starts as the first run did: a block that computes its
   * output only when activated (a hold, a counter) would otherwise show
   * the previous run's last value until its first activation. */
  if (p->noutbuf) memset(x->outbufs, 0, sizeof(double) * p->noutbuf);
  if (p->nw) memset(x->w, 0, sizeof(double) * (size_t)p->nw);
  if (p->ng) {
    memset(x->gbuf, 0, sizeof(double) * (size_t)p->ng);
    memset(x->jroot, 0, sizeof(int) * (size_t)p->ng);
  }
  for (int i = 0; i < p->nblocks; i++) {
    rt_block *rb = &x->blocks[i];
    if (p->blocks[i].xoff >= 0)
      memcpy(r->y + p->blocks[i].xoff, rb->m->x0,
             sizeof(double) * (size_t)rb->b.nx);
    if (rb->b.nz) memcpy(rb->b.z, rb->m->z0, sizeof(double) * (size_t)rb->b.nz);
    rb->rec_rows = 0;
    rb->rec_cols = 0;
    free(rb->rec_names); /* flag 4 names the columns again */
    rb->rec_names = NULL;
    rb->b.nevprt = 0;
  }
  /* Scilab code draws from its session generator anew, as in a fresh
   * Scilab (bsim_block_scilab_rand) */
  memset(&x->errs.scilab_rand, 0, sizeof x->errs.scilab_rand);
  if (push_firings(r, err) != 0) return -1;
  bsim_run_bind(x, r->t, r->y, r->yp, r->res, BSIM_PHASE_DISCRETE);
  for (int k = 0; k < p->nblocks; k++) {
    r->ninit = k + 1;
    if (bsim_run_call(x, p->order[k], BSIM_FLAG_INIT) != BSIM_CB_OK)
      return bsim_run_fail(r, err);
  }
  for (int k = 0; k < p->nblocks; k++)
    if (bsim_run_call(x, p->order[k], BSIM_FLAG_REINIT) != BSIM_CB_OK)
      return bsim_run_fail(r, err);
  if (init_torn(r, err) != 0) return -1;
  if (bsim_run_kernel_build(x, r->y) != 0) {
    bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
    return -1;
  }
  int changed;
  if (p->nmodes && bsim_run_update_modes(r, &changed, err) != 0) return -1;
  if (p->na > 0) {
    /* The acausal unknowns have no value before IDACalcIC: blocks
     * activated at the start (a scope's first sample) must see the
     * consistent ones, as in Scilab, so the first restart comes first. */
    if (choose_engine(r, err) != 0 || cold_restart(r, err) != 0 ||
        bsim_run_settle(r, err) != 0)
      return -1;
    bsim_run_snapshot(r);
    if (bsim_run_serve_events(r, 0, 1, err) < 0) return -1;
    return after_discrete(r, 0, err);
  }
  if (bsim_run_serve_events(r, 0, 0, err) < 0 || choose_engine(r, err) != 0)
    return -1;
  return cold_restart(r, err);
}

/* Name the block behind unknown i of y, for failure messages. */
static void describe_unknown(const bsim_plan *p, int i, char *buf, size_t len) {
  for (int k = 0; k < p->nstate_blocks; k++) {
    const plan_block *pb = &p->blocks[p->state_blocks[k]];
    if (i >= pb->xoff && i < pb->xoff + pb->fb->model.nx) {
      snprintf(buf, len, "'%s' (%s, state %d has the largest local error)",
               pb->fb->path, pb->fb->type->name, i - pb->xoff + 1);
      return;
    }
  }
  for (int t = 0; t < p->ntorn; t++) {
    const rt_torn *tw = &p->torn[t];
    if (i >= tw->yoff && i < tw->yoff + tw->n) {
      snprintf(buf, len,
               "'%s' (its output %d closes an algebraic loop and has the "
               "largest local error)",
               p->blocks[tw->block].fb->path, tw->port + 1);
      return;
    }
  }
}

/* One call of the engine towards the next time of interest. */
static int step(run_state *r, bsim_error *err) {
  const bsim_engine_type *et = r->s->engine;
  double tout = r->s->times[r->next_sample];
  double tcrit = bsim_calendar_next(&r->crit),
         thot = bsim_calendar_next(&r->hot);
  /* Events at or after the final time are never served (activate.c),
   * but the integrator still stops at the final time when one is due
   * then, as it did when it was served. */
  double stop = tcrit <= r->s->tf ? tcrit : r->t;
  if (tcrit >= r->s->tf) tcrit = INFINITY;
  if (thot >= r->s->tf) thot = INFINITY;
  double target = fmin(tout, fmin(tcrit, thot));
  et->set_stop_time(r->eng, stop);
  bsim_adv_status st = BSIM_ADV_OK;
  /* events within the time tolerance are served here, without a step */
  if (bsim_run_is_due(r, tcrit))
    target = tcrit = r->t;
  else if (bsim_run_is_due(r, thot))
    target = r->t;
  double tret = target;
  if (target - r->t > 4 * DBL_EPSILON * fmax(1.0, fabs(r->t)))
    st = et->advance(r->eng, target, &tret, r->y, r->yp);
  else if (target == tcrit)
    st = BSIM_ADV_TSTOP;
  if (st == BSIM_ADV_OK && tret == tcrit) st = BSIM_ADV_TSTOP;
  if (st == BSIM_ADV_ERROR) {
    if (r->run->errs.fatal) return bsim_run_fail(r, err);
    char where[600] = "";
    int worst = et->worst_component ? et->worst_component(r->eng) : -1;
    if (worst >= 0) describe_unknown(r->p, worst, where, sizeof where);
    bsim_error_set(err, BSIM_ERR_SIM, "%s%s%s%s%s", et->last_error(r->eng),
                   where[0] ? "; likely block: " : "", where,
                   r->run->errs.last_recoverable[0] ? "; last block failure: "
                                                    : "",
                   r->run->errs.last_recoverable);
    return -1;
  }
  r->t = tret;
  /* before samples are taken of a state that ran past a missed crossing */
  if (st != BSIM_ADV_ROOT && bsim_run_zeno_check(r, err) != 0) return -1;
  if (record_due(r, err) != 0) return -1;
  if (st == BSIM_ADV_OK) {
    /* hot events: the integrator runs on, values are its interpolation */
    int n = bsim_run_serve_events(r, 1, 0, err);
    if (n < 0) return -1;
    /* a block asked for a restart the scheduler saw no need for */
    if (r->run->errs.cold) return cold_restart(r, err);
    r->hot_continues += n > 0;
    return 0;
  }
  /* samples at the event's time show the value just before it; the
   * snapshot compares against outputs settled at (t, y), not against what
   * the last residual call left in the buffers. Only the active blocks'
   * outputs move with t and y: the others are as the last event left
   * them. */
  if (bsim_run_settle_active(r, err) != 0) return -1;
  bsim_run_snapshot(r);
  if (st == BSIM_ADV_ROOT && bsim_run_serve_roots(r, err) != 0) return -1;
  if (bsim_run_serve_events(r, 0, 1, err) < 0) return -1;
  /* at the final time nothing is left to integrate: a restart could only
   * fail (consistent values need a horizon beyond t) */
  if (r->stopped || r->next_sample >= r->s->nrows) return 0;
  if (after_discrete(r, st == BSIM_ADV_ROOT, err) != 0) return -1;
  bsim_run_zeno_arm(r);
  return 0;
}

static void finish_stats(run_state *r, double wall) {
  bsim_sim *s = r->s;
  bsim_engine_stats st = {0};
  if (r->eng) s->engine->stats(r->eng, &st);
  /* an engine solver "auto" left during the run */
  st.steps += r->banked.steps;
  st.residual_evals += r->banked.residual_evals;
  st.jacobian_evals += r->banked.jacobian_evals;
  st.jacobian_residual_evals += r->banked.jacobian_residual_evals;
  st.nonlinear_iterations += r->banked.nonlinear_iterations;
  st.error_test_failures += r->banked.error_test_failures;
  const struct {
    const char *name;
    double v;
  } rows[] = {
      {"steps", (double)st.steps},
      {"residual-evals", (double)(st.residual_evals + r->extra_res)},
      {"jacobian-evals", (double)st.jacobian_evals},
      {"jacobian-residual-evals", (double)st.jacobian_residual_evals},
      {"jacobian-colors", (double)st.jacobian_colors},
      {"nonlinear-iterations", (double)st.nonlinear_iterations},
      {"error-test-failures", (double)st.error_test_failures},
      {"events", (double)r->events},
      {"roots", (double)r->roots},
      {"hot-continues", (double)r->hot_continues},
      {"cold-restarts", (double)r->cold_restarts},
      {"downgrades", (double)r->downgrades},
      {"carried", (double)r->carries},
      {"dae-index", (double)r->p->index},
      {"wall-seconds", wall},
  };
  s->nstats = 0;
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    s->stat_names[s->nstats] = rows[i].name;
    s->stat_values[s->nstats++] = rows[i].v;
  }
}

static int alloc_state(run_state *r) {
  size_t ny = (size_t)r->p->ny, nm = (size_t)(r->p->nmodes ? r->p->nmodes : 1);
  r->y = calloc(ny, sizeof(double));
  r->yp = calloc(ny, sizeof(double));
  r->res = calloc(ny, sizeof(double));
  r->snap_y = calloc(ny, sizeof(double));
  r->snap_out = calloc(r->p->noutbuf ? r->p->noutbuf : 1, sizeof(double));
  r->modes = calloc(nm, sizeof(int));
  r->snap_modes = calloc(nm, sizeof(int));
  return r->y && r->yp && r->res && r->snap_y && r->snap_out && r->modes &&
                 r->snap_modes && bsim_run_zeno_alloc(r) == 0 &&
                 bsim_run_carry_alloc(r) == 0 && bsim_run_settle_alloc(r) == 0
             ? 0
             : -1;
}

static void free_state(run_state *r) {
  if (r->eng) r->s->engine->free(r->eng);
  bsim_calendar_clear(&r->crit);
  bsim_calendar_clear(&r->hot);
  free(r->y);
  free(r->yp);
  free(r->res);
  free(r->snap_y);
  free(r->snap_out);
  free(r->modes);
  free(r->snap_modes);
  bsim_run_zeno_free(r);
  bsim_run_carry_free(r);
  bsim_run_settle_free(r);
}

int bsim_run_loop(bsim_sim *s, bsim_error *err) {
  double t_start = now_seconds();
  run_state r;
  memset(&r, 0, sizeof r);
  r.s = s;
  r.p = s->plan;
  r.run = s->run;
  r.t = s->t0;
  s->run->tscale = fabs(s->tf - s->t0) > 0 ? fabs(s->tf - s->t0) : 1.0;
  r.t_event = -INFINITY;
  r.last_restart_t = r.last_event_t = NAN; /* none yet */
  r.max_events = s->max_events > 0 ? s->max_events : default_max_events;
  r.max_fast_restarts = s->max_fast_restarts > 0 ? s->max_fast_restarts
                                                 : default_max_fast_restarts;
  bsim_calendar_init(&r.crit);
  bsim_calendar_init(&r.hot);
  bsim_run_clear_messages(&s->run->errs); /* a previous run's */
  bsim_run_jacobian_forget(s->run);
  memset(&s->run->errs, 0, sizeof s->run->errs);
  int rc = -1;
  if (alloc_state(&r) != 0) {
    bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
  } else if (start(&r, err) == 0) {
    int failed = 0;
    while (!failed && !s->stop_after_start && !r.stopped &&
           r.next_sample < s->nrows) {
      if (s->cancel && *s->cancel) {
        bsim_error_set(err, BSIM_ERR_SIM, "interrupted at t=%.17g", r.t);
        failed = 1;
        break;
      }
      failed = record_due(&r, err) != 0 ||
               (r.next_sample < s->nrows && step(&r, err) != 0);
    }
    /* a failure is a failure even when every sample was already taken:
     * success must leave err untouched for the caller's next step */
    rc = failed ? -1 : 0;
    s->final_t = r.t;
    if (s->final_y) {
      memcpy(s->final_y, r.y, sizeof(double) * (size_t)s->plan->ny);
      memcpy(s->final_yp, r.yp, sizeof(double) * (size_t)s->plan->ny);
    }
  }
  /* flag 5 for every block flag 4 was called for, failed or not, so that
   * each releases what it took; not for those after a failed one, which
   * were never started and may not expect to be ended */
  bsim_run_bind(s->run, r.t, r.y, r.yp, r.res, BSIM_PHASE_DISCRETE);
  for (int k = 0; k < r.ninit; k++) {
    rt_block *rb = &s->run->blocks[s->plan->order[k]];
    rb->fn(&rb->b, BSIM_FLAG_END);
  }
  finish_stats(&r, now_seconds() - t_start);
  free_state(&r);
  return rc;
}
