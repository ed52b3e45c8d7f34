/*
 * Which discontinuities the integrator's history can be carried across
 * (scheduler/carry.c does it at run time), decided once at compile time.
 *
 * An event that leaves y and the modes alone but changes signals the
 * continuous part reads kinks the solution: y stays continuous, its
 * derivatives jump. When everything those signals reach is linear with
 * constant coefficients (BSIM_TYPE_LINEAR: explicit states, no algebraic
 * loop), the jump of every derivative follows exactly from the jump of
 * y' and the Jacobian: y^(m+1) jumps by J^m (f+ - f-). A block *matters*
 * when it has states or its outputs reach states through blocks evaluated
 * in the residual; a changed signal may be carried when no block that
 * matters and is reachable from it (through active blocks) is nonlinear.
 */
#include <stdlib.h>
#include <string.h>

#include "scheduler/plan.h"

static int linear_block(const bsim_plan *p, int b) {
  const bsim_flat_block *fb = p->blocks[b].fb;
  const bsim_block_type *t = fb->run_type ? fb->run_type : fb->type;
  if (!(t->flags & BSIM_TYPE_LINEAR) || fb->model.implicit ||
      bsim_plan_is_comp(p, b))
    return 0;
  for (int k = 0; k < fb->model.nout; k++)
    if (p->torn_of[p->portbase[b] + k] >= 0) return 0;
  return 1;
}

/* matters[b]: b has states, closes a loop or is an acausal component
 * (rows of F besides y' - f), or reaches such a block through active
 * consumers (a backward walk over the data links). */
static void mark_matters(const bsim_plan *p, char *matters, int *queue) {
  int tail = 0;
  for (int b = 0; b < p->nblocks; b++) {
    int torn = 0;
    for (int k = 0; k < p->blocks[b].fb->model.nout; k++)
      torn |= p->torn_of[p->portbase[b] + k] >= 0;
    if (p->blocks[b].fb->model.nx > 0 || torn || bsim_plan_is_comp(p, b)) {
      matters[b] = 1;
      queue[tail++] = b;
    }
  }
  for (int head = 0; head < tail; head++) {
    int c = queue[head];
    for (int e = p->src_start[c]; e < p->src_start[c + 1]; e++) {
      int s = p->src_block[e];
      if (p->blocks[s].active && !matters[s]) {
        matters[s] = 1;
        queue[tail++] = s;
      }
    }
  }
}

/* bad[b]: an active b that is nonlinear and matters, or reaches such a
 * block through active consumers; for an inactive b, one of its consumers
 * is bad. */
static void mark_bad(const bsim_plan *p, const char *matters, char *bad,
                     int *queue) {
  int tail = 0;
  for (int b = 0; b < p->nblocks; b++)
    if (matters[b] && !linear_block(p, b)) {
      bad[b] = 1;
      queue[tail++] = b;
    }
  for (int head = 0; head < tail; head++) {
    int c = queue[head];
    for (int e = p->src_start[c]; e < p->src_start[c + 1]; e++) {
      int s = p->src_block[e];
      if (bad[s]) continue;
      bad[s] = 1;
      if (p->blocks[s].active)
        queue[tail++] = s; /* R(s) goes on only
                              through active ones */
    }
  }
}

/* A critical event output whose activation touches no block with modes or
 * surfaces and changes only signals that can be carried: a clock driving
 * holds and discrete controllers of linear plants (a state it may jump is
 * seen when the event comes: that event restarts). Counted for solver
 * "auto". */
static int carried_event(const bsim_plan *p, int e) {
  if (!p->evcrit[e]) return 0;
  for (int a = p->act_start[e]; a < p->act_start[e + 1]; a++) {
    int b = p->act_block[a];
    const plan_block *pb = &p->blocks[b];
    const bsim_model *m = &pb->fb->model;
    if (pb->ng > 0 || pb->nmode > 0) return 0;
    for (int k = 0; k < m->nout; k++) {
      size_t off = p->outoff[p->portbase[b] + k];
      size_t len = (size_t)(m->out[k] * m->out2[k]);
      for (size_t i = off; i < off + len; i++)
        if (p->relevant[i] && !p->carry_entry[i]) return 0;
    }
  }
  return 1;
}

/* dF/dy and dF/dy' cannot change while the modes stay when every block
 * evaluated during integration is linear with constant coefficients given
 * its modes (BSIM_TYPE_LINEAR: causal blocks, and acausal components whose
 * type says so), a source (no inputs, no states: its rows are empty and
 * its outputs depend on t alone) or a sink (no outputs, no states: it adds
 * nothing to F), and nothing is implicit or torn: the Jacobian is then
 * formed once per mode of the diagram and, for every cj, given as
 * dF/dy + cj dF/dy' from the two kept parts, the same matrix bit for bit
 * without the blocks' cost (jacobian.c). An acausal component that is not
 * linear but has no causal outputs moves only its own rows: it is marked
 * in nl, and the rest is kept all the same. */
static int jacobian_constant(const bsim_plan *p, char *nl) {
  if (p->ntorn > 0) return 0;
  for (int b = 0; b < p->nblocks; b++) {
    const plan_block *pb = &p->blocks[b];
    const bsim_model *m = &pb->fb->model;
    const bsim_block_type *t =
        pb->fb->run_type ? pb->fb->run_type : pb->fb->type;
    if (bsim_plan_is_comp(p, b)) {
      /* its matrix moves with y; only its own rows do when nothing reads
       * its outputs through the chain rule */
      if (!(t->flags & BSIM_TYPE_LINEAR)) {
        if (m->nout > 0) return 0;
        nl[b] = 1;
      }
      continue;
    }
    if (!pb->active) continue;
    if (m->implicit) return 0;
    if (m->nout == 0 && m->nx == 0) continue; /* a sink: no rows, no terms */
    if (!linear_block(p, b) && (m->nin > 0 || m->nx > 0 || pb->nmode > 0))
      return 0;
  }
  return 1;
}

/* The components nl marks, and their rows: evaluated again at each
 * Jacobian while the rest is kept. None when every component is so (then
 * nothing would be kept). 0, or -1 out of memory. */
static int keep_rows(bsim_plan *p, const char *nl) {
  int n = 0;
  for (int k = 0; k < p->ncomp; k++)
    n += nl[p->comp_blocks[k]];
  if (n == 0 || n == p->ncomp) return 0;
  p->jac_nl = calloc((size_t)n, sizeof(int));
  p->jac_nl_row = calloc((size_t)p->ny, 1);
  if (!p->jac_nl || !p->jac_nl_row) return -1;
  for (int k = 0; k < p->ncomp; k++) {
    int b = p->comp_blocks[k];
    if (!nl[b]) continue;
    p->jac_nl[p->njac_nl++] = b;
    memset(p->jac_nl_row + p->blocks[b].roff, 1,
           (size_t)bsim_model_nres(&p->blocks[b].fb->model));
  }
  return 0;
}

/* An active block whose outputs remember the integrator's evaluation
 * times (BSIM_TYPE_STEP_MEMORY): then nothing is carried. */
static int step_memory(const bsim_plan *p) {
  for (int b = 0; b < p->nblocks; b++) {
    const bsim_flat_block *fb = p->blocks[b].fb;
    const bsim_block_type *t = fb->run_type ? fb->run_type : fb->type;
    if (p->blocks[b].active && (t->flags & BSIM_TYPE_STEP_MEMORY)) return 1;
  }
  return 0;
}

/* The carry entries and states (plan carry_entry, carry_state). */
static void mark_carried(bsim_plan *p, char *matters, char *bad, int *queue) {
  int n = p->nblocks;
  mark_matters(p, matters, queue);
  mark_bad(p, matters, bad, queue);
  for (int b = 0; b < n; b++) {
    const bsim_model *m = &p->blocks[b].fb->model;
    if (bad[b]) continue;
    for (int k = 0; k < m->nout; k++) {
      size_t off = p->outoff[p->portbase[b] + k];
      size_t len = (size_t)(m->out[k] * m->out2[k]);
      for (size_t i = off; i < off + len; i++)
        if (p->relevant[i]) {
          p->carry_entry[i] = 1;
          p->carry_any = 1;
        }
    }
    if (p->blocks[b].xoff >= 0 && m->nx > 0) {
      memset(p->carry_state + p->blocks[b].xoff, 1, (size_t)m->nx);
      p->carry_states = 1;
    }
  }
  for (int e = 0; e < p->evbase[n]; e++)
    p->carry_events += carried_event(p, e);
}

/* Plan uncarried: 0, or -1 out of memory. */
static int list_uncarried(bsim_plan *p) {
  for (size_t i = 0; i < p->noutbuf; i++)
    p->nuncarried += p->relevant[i] && !p->carry_entry[i];
  p->uncarried = calloc(p->nuncarried ? p->nuncarried : 1, sizeof(size_t));
  if (!p->uncarried) return -1;
  for (size_t i = 0, k = 0; i < p->noutbuf; i++)
    if (p->relevant[i] && !p->carry_entry[i]) p->uncarried[k++] = i;
  return 0;
}

int bsim_plan_carry_prepare(bsim_plan *p) {
  int n = p->nblocks;
  p->carry_entry = calloc(p->noutbuf ? p->noutbuf : 1, 1);
  p->carry_state = calloc((size_t)p->ny, 1);
  char *matters = calloc((size_t)n + 1, 1), *bad = calloc((size_t)n + 1, 1);
  int *queue = calloc((size_t)n + 1, sizeof(int));
  int rc = -1;
  if (!p->carry_entry || !p->carry_state || !matters || !bad || !queue)
    goto done;
  /* bad, not used yet, lends its room to the nonlinear components' marks */
  if (jacobian_constant(p, bad)) {
    if (keep_rows(p, bad) != 0) goto done;
    p->jac_constant = p->njac_nl == 0;
  }
  memset(bad, 0, (size_t)n + 1);
  if (!step_memory(p)) mark_carried(p, matters, bad, queue);
  rc = list_uncarried(p);
done:
  free(matters);
  free(bad);
  free(queue);
  return rc;
}

void bsim_plan_carry_free(bsim_plan *p) {
  free(p->carry_entry);
  free(p->carry_state);
  free(p->uncarried);
  free(p->jac_nl);
  free(p->jac_nl_row);
}
