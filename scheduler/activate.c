/*
 * Serving discrete activity between solver calls: calendar events with
 * their activation lists (including blocks that inherit activation from
 * their inputs, and the activations synchronous routers fire inside
 * them), roots of zero-crossing surfaces, and mode updates. Nothing
 * here touches the integrator: run.c decides between hot continuation and
 * cold restart afterwards.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scheduler/run.h"

int bsim_run_fail(run_state *r, bsim_error *err) {
  if (r->run->errs.fatal)
    bsim_error_set(err, BSIM_ERR_SIM, "%s", r->run->errs.err.message);
  else
    bsim_error_set(err, BSIM_ERR_SIM, "%s", r->run->errs.last_recoverable);
  return -1;
}

/* Evaluate every output at (t, y) outside the integrator. */
int bsim_run_settle(run_state *r, bsim_error *err) {
  bsim_run_bind(r->run, r->t, r->y, r->yp, r->res, BSIM_PHASE_DISCRETE);
  if (bsim_run_outputs(r->run, 1) != BSIM_CB_OK) return bsim_run_fail(r, err);
  return 0;
}

/* Modes are chosen by flag 9 in the discrete phase only. */
int bsim_run_update_modes(run_state *r, int *changed, bsim_error *err) {
  const bsim_plan *p = r->p;
  bsim_run *x = r->run;
  int k = 0;
  *changed = 0;
  bsim_run_bind(x, r->t, r->y, r->yp, r->res, BSIM_PHASE_DISCRETE);
  for (int z = 0; z < p->nzc_blocks; z++) {
    rt_block *rb = &x->blocks[p->zc_blocks[z]];
    if (bsim_run_call(x, p->zc_blocks[z], BSIM_FLAG_ZCROSS) != BSIM_CB_OK)
      return bsim_run_fail(r, err);
    for (int m = 0; m < rb->b.nmode; m++, k++) {
      if (r->modes[k] != rb->b.mode[m]) *changed = 1;
      r->modes[k] = rb->b.mode[m];
    }
  }
  /* a Jacobian kept for the modes (plan jac_constant) is formed again */
  if (*changed) bsim_run_jacobian_forget(x);
  return 0;
}

/* Flag 3 on one block: its output events go to the calendars. */
int bsim_run_schedule(run_state *r, int i, bsim_error *err) {
  rt_block *rb = &r->run->blocks[i];
  if (rb->b.nevout == 0) return 0;
  for (int k = 0; k < rb->b.nevout; k++)
    rb->b.evout[k] = -1.0;
  if (bsim_run_call(r->run, i, BSIM_FLAG_EVENTS) != BSIM_CB_OK)
    return bsim_run_fail(r, err);
  for (int k = 0; k < rb->b.nevout; k++) {
    if (!(rb->b.evout[k] >= 0)) continue;
    bsim_calendar *c = r->p->evcrit[r->p->evbase[i] + k] ? &r->crit : &r->hot;
    if (bsim_calendar_push(c, r->t + rb->b.evout[k], i, k, r->seq++) != 0) {
      bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
      return -1;
    }
  }
  return 0;
}

/* The event outputs served within one calendar event: that event, then
 * each synchronous output fired during the outputs, in firing order. Short
 * chains stay in `local`. */
typedef struct chain {
  int *ev, n, cap;
  int local[32];
} chain;

static int chain_push(chain *c, int e) {
  if (c->n == c->cap) {
    int cap = 2 * c->cap;
    int *ev = malloc(sizeof(int) * (size_t)cap);
    if (!ev) return -1;
    memcpy(ev, c->ev, sizeof(int) * (size_t)c->n);
    if (c->ev != c->local) free(c->ev);
    c->ev = ev;
    c->cap = cap;
  }
  c->ev[c->n++] = e;
  return 0;
}

/* Outputs (flag 1) of the blocks event output e activates, in compiled
 * order. A synchronous router decides at once (flag 3) and the outputs it
 * fires with delay 0 are served right there, depth first, as Xcos's
 * simulator does: the blocks they activate compute their outputs before
 * the blocks of this activation that read them. */
static int outputs_pass(run_state *r, chain *c, int e, bsim_error *err) {
  const bsim_plan *p = r->p;
  bsim_run *x = r->run;
  if (chain_push(c, e) != 0) {
    bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
    return -1;
  }
  for (int a = p->act_start[e]; a < p->act_start[e + 1]; a++) {
    int b = p->act_block[a];
    bsim_block *blk = &x->blocks[b].b;
    blk->nevprt = p->act_bits[a];
    if (blk->nout && bsim_run_call(x, b, BSIM_FLAG_OUTPUTS) != BSIM_CB_OK)
      return bsim_run_fail(r, err);
    if (p->synchronous[b] && blk->nevout > 0) {
      for (int k = 0; k < blk->nevout; k++)
        blk->evout[k] = -1.0;
      if (bsim_run_call(x, b, BSIM_FLAG_EVENTS) != BSIM_CB_OK)
        return bsim_run_fail(r, err);
      blk->nevprt = 0;
      for (int k = 0; k < blk->nevout; k++) {
        double d = blk->evout[k];
        int ek = p->evbase[b] + k;
        if (d == 0) {
          /* as this activation runs the router: maybe with copies of its
           * outputs (scheduler/reroute.c) */
          if (outputs_pass(r, c, p->act_evmap[a] + k, err) != 0) return -1;
        } else if (d > 0) {
          bsim_calendar *cal = p->evcrit[ek] ? &r->crit : &r->hot;
          if (bsim_calendar_push(cal, r->t + d, b, k, r->seq++) != 0) {
            bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
            return -1;
          }
        }
      }
    }
    blk->nevprt = 0;
  }
  return 0;
}

/* The block at place k of the order is to be called in this walk. */
static inline void mark_place(uint64_t *set, int k) {
  set[k >> 6] |= (uint64_t)1 << (k & 63);
}

/* Block b was updated: settle_changed calls it again. Blocks without
 * outputs (sinks) change nothing it settles and are not marked. */
static void mark_dirty(run_state *r, int b) {
  if (r->run->blocks[b].b.nout == 0) return;
  mark_place(r->walk, r->order_pos[b]);
}

/* Then, event by event in the chain's order, each activated block
 * schedules its output events (flag 3; routers already did, and a block
 * listed for time only, nevprt 0, schedules nothing, as in Xcos) and
 * updates its state (flag 2). As Xcos calls flag 2 only on blocks with
 * states or work memory, a linear block without states (a sum, a gain,
 * a multiplexer: most blocks that inherit an activation) gets none. */
static int updates_pass(run_state *r, const chain *c, bsim_error *err) {
  const bsim_plan *p = r->p;
  bsim_run *x = r->run;
  for (int i = 0; i < c->n; i++) {
    int e = c->ev[i];
    for (int a = p->act_start[e]; a < p->act_start[e + 1]; a++) {
      int b = p->act_block[a];
      bsim_block *blk = &x->blocks[b].b;
      blk->nevprt = p->act_bits[a];
      if (!p->synchronous[b] && blk->nevprt != 0 && blk->nevout > 0 &&
          bsim_run_schedule(r, b, err) != 0)
        return -1;
      if (!p->stateless[b]) {
        if (bsim_run_call(x, b, BSIM_FLAG_UPDATE) != BSIM_CB_OK)
          return bsim_run_fail(r, err);
        mark_dirty(r, b);
      }
      blk->nevprt = 0;
    }
  }
  return 0;
}

/* Before an activation: the outputs that move with t and y at the event's
 * time. The others change only at events, and the last one settled them. */
int bsim_run_settle_active(run_state *r, bsim_error *err) {
  bsim_run_bind(r->run, r->t, r->y, r->yp, r->res, BSIM_PHASE_DISCRETE);
  if (bsim_run_outputs(r->run, 0) != BSIM_CB_OK) return bsim_run_fail(r, err);
  return 0;
}

/* After the updates of an event: every output settled again, as if all
 * blocks were evaluated in order — but a block is called only when it was
 * updated or one of its inputs changed value, since flag 1 computes
 * outputs from t, x, z and the inputs alone, and t is the same. A matrix
 * inversion activated by a clock then runs once per tick, not twice. An
 * input read from a block later in the order (through a state, without
 * feedthrough) sees that block's change of the walk before.
 *
 * The walk visits only those blocks, in order: the places marked in a bit
 * set, a block that changed marking its readers placed after it (and
 * those before it for the next walk). A scope's tick costs no walk. */
static int settle_changed(run_state *r, bsim_error *err) {
  const bsim_plan *p = r->p;
  bsim_run *x = r->run;
  bsim_run_bind(x, r->t, r->y, r->yp, r->res, BSIM_PHASE_DISCRETE);
  for (int w = 0; w < r->nwords; w++) {
    r->walk[w] |= r->walk_next[w];
    r->walk_next[w] = 0;
  }
  for (int w = 0; w < r->nwords; w++)
    while (r->walk[w]) {
      int k = w * 64 + __builtin_ctzll(r->walk[w]);
      r->walk[w] &= r->walk[w] - 1;
      int b = p->order[k];
      const bsim_block *blk = &x->blocks[b].b;
      size_t o0 = p->outoff[p->portbase[b]], o1 = o0;
      for (int i = 0; i < blk->nout; i++)
        o1 += (size_t)blk->outsz[i] * (size_t)blk->outsz[blk->nout + i];
      /* the outputs lie side by side in the buffers */
      memcpy(r->oldout + o0, x->outbufs + o0, sizeof(double) * (o1 - o0));
      if (bsim_run_call(x, b, BSIM_FLAG_OUTPUTS) != BSIM_CB_OK)
        return bsim_run_fail(r, err);
      if (memcmp(r->oldout + o0, x->outbufs + o0, sizeof(double) * (o1 - o0)) ==
          0)
        continue;
      for (int q = r->reader_start[b]; q < r->reader_start[b + 1]; q++)
        mark_place(r->reader_pos[q] > k ? r->walk : r->walk_next,
                   r->reader_pos[q]);
    }
  return 0;
}

int bsim_run_settle_alloc(run_state *r) {
  const bsim_plan *p = r->p;
  int n = p->nblocks;
  size_t nb = (size_t)n + 1;
  r->nwords = (n + 63) / 64;
  r->walk = calloc((size_t)r->nwords + 1, sizeof(uint64_t));
  r->walk_next = calloc((size_t)r->nwords + 1, sizeof(uint64_t));
  r->oldout = calloc(p->noutbuf + 1, sizeof(double));
  r->order_pos = calloc(nb, sizeof(int));
  r->reader_start = calloc(nb, sizeof(int));
  r->reader_pos = calloc((size_t)p->inbase[n] + 1, sizeof(int));
  if (!r->walk || !r->walk_next || !r->oldout || !r->order_pos ||
      !r->reader_start || !r->reader_pos)
    return -1;
  for (int k = 0; k < n; k++)
    r->order_pos[p->order[k]] = k;
  /* readers with outputs, by source: counted, then placed */
  for (int b = 0; b < n; b++)
    for (int u = p->inbase[b]; u < p->inbase[b + 1]; u++)
      if (p->insrc_block[u] >= 0 && r->run->blocks[b].b.nout > 0)
        r->reader_start[p->insrc_block[u] + 1]++;
  for (int b = 0; b < n; b++)
    r->reader_start[b + 1] += r->reader_start[b];
  int *fill = calloc(nb, sizeof(int));
  if (!fill) return -1;
  for (int b = 0; b < n; b++)
    for (int u = p->inbase[b]; u < p->inbase[b + 1]; u++) {
      int src = p->insrc_block[u];
      if (src >= 0 && r->run->blocks[b].b.nout > 0)
        r->reader_pos[r->reader_start[src] + fill[src]++] = r->order_pos[b];
    }
  free(fill);
  return 0;
}

void bsim_run_settle_free(run_state *r) {
  free(r->walk);
  free(r->walk_next);
  free(r->oldout);
  free(r->order_pos);
  free(r->reader_start);
  free(r->reader_pos);
}

/* Serve event output e: its activation, synchronous routing included.
 * settled: the outputs are settled at (t, y) already (a settle, or the
 * walk that ends an activation, and no evaluation since), and the active
 * blocks' outputs are not computed again. */
static int activate(run_state *r, int e, int settled, bsim_error *err) {
  chain c;
  c.n = 0;
  c.ev = c.local;
  c.cap = (int)(sizeof c.local / sizeof c.local[0]);
  int rc = settled ? 0 : bsim_run_settle_active(r, err);
  if (rc == 0) rc = outputs_pass(r, &c, e, err);
  if (rc == 0) rc = updates_pass(r, &c, err);
  if (c.ev != c.local) free(c.ev);
  if (rc != 0) return -1;
  if (r->run->errs.stop) r->stopped = 1;
  return settle_changed(r, err);
}

/* An event is due at r->t when its date is not later, or closer than the
 * time tolerance: Xcos serves such an event at the current time (its
 * ttol), so nearly simultaneous clocks share their dates. */
int bsim_run_is_due(const run_state *r, double t) {
  return t <= r->t || (r->t == r->t_event && t - r->t < r->s->ttol);
}

/* The next event due at r->t from either calendar, in (time, seq) order.
 * The run ends at the final time: as in Xcos, events due exactly then are
 * not served (a scope on a clock records no row at the final time). */
static bsim_calendar *due(run_state *r, int only_hot) {
  const bsim_event *c = only_hot ? NULL : bsim_calendar_peek(&r->crit);
  const bsim_event *h = bsim_calendar_peek(&r->hot);
  if (c && (!bsim_run_is_due(r, c->t) || c->t >= r->s->tf)) c = NULL;
  if (h && (!bsim_run_is_due(r, h->t) || h->t >= r->s->tf)) h = NULL;
  if (c && (!h || c->t < h->t || (c->t == h->t && c->seq < h->seq)))
    return &r->crit;
  return h ? &r->hot : NULL;
}

int bsim_run_serve_events(run_state *r, int only_hot, int settled,
                          bsim_error *err) {
  const bsim_flat *f = r->s->flat;
  int served = 0;
  bsim_calendar *c;
  while (!r->stopped && (c = due(r, only_hot)) != NULL) {
    bsim_event ev;
    bsim_calendar_pop(c, &ev);
    int e = r->p->evbase[ev.block] + ev.port;
    r->t_event = r->t;
    r->events++;
    r->cause = f->blocks[ev.block].path;
    if (++served > r->max_events) {
      bsim_error_set(err, BSIM_ERR_SIM,
                     "more than %ld events at t=%.17g, the last from block "
                     "'%s': the diagram chatters (hint: look for an event "
                     "loop with delay 0; the bound is --max-events)",
                     r->max_events, r->t, f->blocks[ev.block].path);
      return -1;
    }
    if (bsim_run_pileup(r, err) != 0 || activate(r, e, settled, err) != 0)
      return -1;
    settled = 1; /* by the walk that ended the activation */
  }
  return served;
}

/* After a root: the blocks whose surfaces fired get flags 3 and 2 with
 * nevprt = -1, as in Xcos. */
int bsim_run_serve_roots(run_state *r, bsim_error *err) {
  const bsim_plan *p = r->p;
  bsim_run *x = r->run;
  const bsim_engine_type *et = r->s->engine;
  if (et->roots_found(r->eng, x->jroot) != 0) {
    bsim_error_set(err, BSIM_ERR_SIM, "at t=%.17g: %s", r->t,
                   et->last_error(r->eng));
    return -1;
  }
  r->roots++;
  r->t_event = r->t;
  for (int z = 0; z < p->nzc_blocks; z++) {
    int i = p->zc_blocks[z];
    rt_block *rb = &x->blocks[i];
    int fired = 0;
    for (int k = 0; k < rb->b.ng; k++)
      fired |= rb->b.jroot[k] != 0;
    if (!fired) continue;
    r->cause = rb->b.path;
    if (bsim_run_pileup(r, err) != 0) return -1;
    rb->b.nevprt = -1;
    if (bsim_run_schedule(r, i, err) != 0) return -1;
    if (bsim_run_call(x, i, BSIM_FLAG_UPDATE) != BSIM_CB_OK)
      return bsim_run_fail(r, err);
    rb->b.nevprt = 0;
    mark_dirty(r, i);
  }
  bsim_run_zeno_roots(r, x->jroot);
  memset(x->jroot, 0, sizeof(int) * (size_t)p->ng);
  if (x->errs.stop) r->stopped = 1;
  return settle_changed(r, err);
}

void bsim_run_snapshot(run_state *r) {
  memcpy(r->snap_y, r->y, sizeof(double) * (size_t)r->p->ny);
  /* no buffers at all (a purely acausal diagram): outbufs is NULL, which
   * memcpy may not be given even for 0 bytes */
  if (r->p->noutbuf)
    memcpy(r->snap_out, r->run->outbufs, sizeof(double) * r->p->noutbuf);
  memcpy(r->snap_modes, r->modes, sizeof(int) * (size_t)r->p->nmodes);
  bsim_run_carry_snapshot(r);
}

/* Same states, same modes, same values of every signal the continuous part
 * reads: the integrator's history is still valid. Exact comparison on
 * purpose: any change, however small, is a discontinuity for the solver. */
int bsim_run_unchanged(const run_state *r) {
  const bsim_plan *p = r->p;
  if (memcmp(r->snap_y, r->y, sizeof(double) * (size_t)p->ny) != 0 ||
      memcmp(r->snap_modes, r->modes, sizeof(int) * (size_t)p->nmodes) != 0)
    return 0;
  for (size_t i = 0; i < p->noutbuf; i++)
    if (p->relevant[i] && r->snap_out[i] != r->run->outbufs[i] &&
        !(isnan(r->snap_out[i]) && isnan(r->run->outbufs[i])))
      return 0;
  return 1;
}
