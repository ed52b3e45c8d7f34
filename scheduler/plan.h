/*
 * The compiled plan and the state of one run of it. The plan is what
 * compile.c decides once for a flat diagram (order, loops, layout of y,
 * wiring, events, sparsity, Jacobian bookkeeping) and is never written
 * after bsim_plan_create, so that many runs, in many threads, can share it
 * (a sweep compiles once). Everything a run writes — the blocks' views,
 * output buffers, discrete states, records, errors — lives in a bsim_run,
 * one per run.
 */
#ifndef BSIM_PLAN_H
#define BSIM_PLAN_H

#include "blocksim/blocksim.h"
#include "diagrams/flat.h"

/* Failure state shared by all blocks of one run (bsim_block.ctx_). */
typedef struct bsim_run_errors {
  int fatal;       /* a block reported a fatal error */
  int recoverable; /* a block asked the integrator to retry */
  int stop;        /* a block asked to end the run (END_c, HALT_f) */
  bsim_error err;  /* the first fatal message */
  char last_recoverable[512];
  int cold; /* a block asked for a cold restart after this event */
  /* Lines blocks printed for the user (bsim_block_message), in order;
   * beyond BSIM_MAX_MESSAGES only counted. */
  char **messages;
  int nmessages, capmessages;
  long dropped;
  /* Scilab's session generator, shared by the Scilab code of the run's
   * blocks (bsim_block_scilab_rand); reset at the start of every run. */
  bsim_scilab_rand scilab_rand;
} bsim_run_errors;

enum { BSIM_MAX_MESSAGES = 1000 };

/* What compile decided about one block, the same for every run. The
 * structure (ports, sizes, states, surfaces, events) is fb->model's; a
 * run may bring other parameter values, never another structure. */
typedef struct plan_block {
  void (*fn)(bsim_block *blk, int flag);
  const bsim_flat_block *fb;
  int xoff;   /* offset of the block's states in y, -1 if none */
  int goff;   /* offset of its surfaces in the global g, -1 if none */
  int active; /* outputs may change while the integrator runs */
  /* where in a run's output buffers each of fb->model.probes lies */
  size_t *probe_off;
  /* Surfaces and modes watched: the model's for an active block, none for
   * one that runs only at events (Xcos watches only the blocks of its
   * continuous-time activation: an IFTHEL_f with an event input fires on
   * its activations, never on a crossing). */
  int ng, nmode;
  /* Acausal components (acausal.c): first residual row, and the index in
   * the plan's conpot / conflow of connector 0's variables; -1 else. */
  int roff, conoff;
} plan_block;

/* A signal that closes an algebraic loop: consumers read w (a copy of
 * y[yoff..], kept by each run at w + yoff - nx), the producer writes h into
 * its own buffer, F_w = w - h. */
typedef struct rt_torn {
  int block, port;
  int yoff, n;
} rt_torn;

typedef struct bsim_plan {
  const bsim_flat *flat;
  plan_block *blocks;
  int nblocks;
  int *order; /* every block, outputs before their direct-feedthrough users */
  int *active_order; /* the blocks in `order` whose outputs can change
                        during integration, same order */
  int nactive;
  int *state_blocks; /* blocks with nx > 0, for flag 0 */
  int nstate_blocks;
  int *zc_blocks; /* blocks with ng > 0 or nmode > 0 */
  int nzc_blocks;
  rt_torn *torn;
  int ntorn;
  int nx; /* differential unknowns */
  int nw; /* torn loop signals */
  /* The acausal part (acausal.c), after w in y: the components' own
   * states, each node's across variables, each connector's through
   * variables; rows: the components' residuals, then each node's flow
   * balances. */
  int na, acausal_off; /* its unknowns, from y[acausal_off] on */
  int comp_rows;       /* the components' rows, from F[acausal_off] on */
  int *comp_blocks;    /* blocks with connectors, in block order */
  int ncomp;
  int *conpot, *conflow;    /* y offset of each connector's variables */
  int *node_pot;            /* y offset of each node's across variables */
  int *kcl_row;             /* first balance row of each node (-1: none) */
  int *kcl_start, *kcl_var; /* CSR: y offsets of the flows a node sums */
  int dummy;    /* 1 when there is nothing to integrate: y = [0], F = y' */
  int ny;       /* nx + nw + dummy */
  int ode_form; /* F = y' - f: no torn signals, no implicit blocks */
  int ng;
  double *id;     /* ny entries */
  int *gdir;      /* ng entries: direction each surface is watched in */
  size_t noutbuf; /* doubles of all output buffers of a run */
  size_t *outoff; /* per output port (portbase index): its offset there */

  /* Wiring, built once by compile.c for everything that walks the links
   * (input pointers, sparsity, analytic Jacobian). */
  int *portbase; /* block b's outputs are ports portbase[b] .. [b+1]-1 */
  int *inbase;   /* block b's inputs are inputs inbase[b] .. [b+1]-1 */
  int *insrc_block, *insrc_port; /* per input: its source output, -1 none */
  int *torn_of; /* per output port: its index in torn[], or -1 */

  /* Events (activation.c, critical.c) */
  int *src_start, *src_block; /* data sources of each block (CSR) */
  int *dst_start, *dst_block; /* data consumers of each block (CSR) */
  char *inherits;    /* no event input, no dep_t: activated with its sources */
  int *evbase;       /* index of block b's first event output in evcrit */
  char *synchronous; /* per block: BSIM_TYPE_SYNCHRONOUS (IFTHEL_f, ...) */
  char *union_block; /* per block: BSIM_TYPE_EVENT_UNION, never run */
  /* per block: a linear type without states (BSIM_TYPE_LINEAR, nx = nz =
   * 0) with outputs, which follow from its inputs and parameters alone:
   * flag 2 has nothing to update, and an activation skips it */
  char *stateless;
  /* The blocks event output e (an evbase index) activates through its
   * links, event unions looked through, with their nevprt bits:
   * tgt_block/tgt_bits[tgt_start[e] .. tgt_start[e+1]-1] */
  int *tgt_start, *tgt_block, *tgt_bits;
  /* Events are the blocks' event outputs (evbase indices) and, after them,
   * virtual copies of a router's outputs (reroute.c): nevents in all,
   * evowner[e] the block whose output e is. tgt_evmap: per target, the
   * event index of its first output as this activation runs it (a router
   * may run with copies of its outputs; else evbase of the block). */
  int nevents;
  int *evowner, *tgt_evmap;
  /* What serving e runs: those targets and the blocks inheriting from
   * them, in compiled order: act_block/act_bits/act_evmap[act_start[e]
   * .. ] */
  int *act_start, *act_block, *act_bits, *act_evmap;
  char *evcrit;   /* event output whose activation (synchronous outputs
                     fired inside it included) reaches the continuous
                     part: served by stopping the integrator */
  char *relevant; /* per output-buffer entry: read, directly or not, by the
                     continuous part (compared to downgrade a restart) */
  int nmodes;
  /* Carrying the history across events (carry_plan.c): per output-buffer
   * entry, a change of it reaches only linear blocks; per unknown, a jump
   * of its derivative does; carry_any: some relevant entry is such;
   * carry_states: some unknown is such (a reset of it may be carried);
   * carry_events: critical event outputs that change only such signals */
  char *carry_entry, *carry_state;
  int carry_any, carry_states, carry_events;
  /* the relevant entries that are not carry entries: a change of one of
   * them rules carrying out (their count, then their indices) */
  size_t nuncarried, *uncarried;
  /* dF/dy and dF/dy' the same matrices while the modes stay
   * (carry_plan.c): the analytic Jacobian is then evaluated once per mode
   * (jacobian.c) */
  int jac_constant;
  /* Otherwise, when the only blocks whose matrices move are acausal
   * components without causal outputs (a diode, a transistor), the rows
   * of everything else keep their entries while the modes stay: those
   * components (jac_nl, njac_nl) and their rows (jac_nl_row, ny entries)
   * are evaluated again, the rest is kept (carry_plan.c, jacobian.c). */
  int *jac_nl, njac_nl;
  char *jac_nl_row;

  /* Structure of dF/dy + dF/dy' (sparsity.c) in compressed sparse column
   * form: column j = unknown j, row indices sorted. NULL when the system is
   * too dense to be worth storing. */
  int *pat_colptr, *pat_rowidx;
  long pat_nnz;

  /* Group of each unknown (ny entries) for block-Jacobi preconditioning:
   * the states of one block, one torn signal, the dummy (jacobian.c). */
  int *groups;
  /* The analytic Jacobian's bookkeeping, NULL when some block evaluated
   * during integration lacks flag 10 or there is no pattern (jacobian.c). */
  struct bsim_plan_jac *jac;

  /* The structural index (index.c): 0 (ODE), 1, or 2 when reduced: then
   * ix describes the reduction (y and F extended beyond the blocks'
   * unknowns and rows, no pattern, no analytic Jacobian) and index_note
   * says what was differentiated. */
  int index;
  struct bsim_plan_index *ix;
  char *index_note;
  char *error_test; /* ny entries or NULL: bsim_problem.error_test */
} bsim_plan;

/* The view and memory of one block in one run. */
typedef struct rt_block {
  bsim_block b; /* the view passed to the block's function; first member */
  void (*fn)(bsim_block *blk, int flag);
  const bsim_flat_block *fb;
  /* The run-time data this run uses (rpar, ipar, opar, x0, z0, firing):
   * fb->model, or a model the run's parameter overrides rebuilt. */
  const bsim_model *m;
  void *work; /* the block's own pointer (b.work points here) */
  /* what a sink recorded: rows of (t, values), rec_cols values each */
  double *rec;
  size_t rec_rows, rec_cap;
  int rec_cols;
  char *rec_names; /* comma-separated column names, NULL = u1..un; a named
                      record exists even without rows */
} rt_block;

/* Everything one run of a plan writes. */
typedef struct bsim_run {
  const bsim_plan *plan;
  rt_block *blocks; /* plan->nblocks */
  int phase;        /* the phase every block's view currently says */
  double *outbufs;  /* plan->noutbuf: all output buffers */
  double *w;        /* plan->nw: consumers' copies of the torn signals */
  double *gbuf;     /* plan->ng: where blocks write surfaces */
  int *jroot;       /* plan->ng */
  struct bsim_run_jac *jac; /* buffers of the analytic Jacobian, or NULL */
  void *mem;                /* one allocation behind the views' arrays */
  bsim_run_errors errs;
  /* surface evaluations since the last residual: an engine locating a
   * root evaluates only the surfaces, so a long streak is a root search
   * that does not converge (eval.c bounds it) */
  long roots_streak;
  const double *bound_y; /* the y of the last bind (flow balances) */
  /* The components' views read copies of y and y' over the acausal part
   * (plan acausal_off .. + na), made at each bind, and write their rows
   * into acres, copied out after they ran: their pointers are set once,
   * where pointing them into each new vector the engine or the scheduler
   * passed (nearly every call alternates) cost a tenth of a circuit's
   * run. */
  double *acy, *acyp, *acres;
  /* the residual as a flat list, linear blocks inline (kernel.c); NULL
   * before the run starts */
  struct bsim_run_kernel *kern;
  double *ixbuf; /* index reduction's scratch: 5 x the unreduced size */
  double *ixjac; /* and, with an analytic Jacobian, its dF/dy, dF/dy' */
  double tscale; /* the run's span (time step of differentiated rows) */
} bsim_run;

/* Forget the messages blocks printed (services.c). */
void bsim_run_clear_messages(bsim_run_errors *e);

/* Event outputs' targets, synchronous and union blocks (activation.c);
 * called by bsim_plan_create before ordering. 0, or -1 with err set. */
int bsim_plan_event_targets(bsim_plan *p, bsim_error *err);

/* A block an event activates both directly and through a synchronous
 * router it also activates runs once, behind the router, as Xcos's
 * compiler arranges (reroute.c): rewrites the targets, sets nevents,
 * evowner and tgt_evmap. Called by bsim_plan_event_targets. 0, or -1 with
 * err set. */
int bsim_plan_reroute(bsim_plan *p, bsim_error *err);

/* Activation lists with inheritance, and event criticality (critical.c);
 * called by bsim_plan_create after ordering. 0, or -1 out of memory. */
int bsim_plan_analyze_events(bsim_plan *p);
/* Which changes the integrator's history can be carried across
 * (carry_plan.c); called by bsim_plan_create after the events are
 * analysed. 0, or -1 out of memory. */
int bsim_plan_carry_prepare(bsim_plan *p);
void bsim_plan_carry_free(bsim_plan *p);
/* Where each probe of each block lies in the output buffers (probes.c);
 * called by bsim_plan_create after the buffers are laid out. 0, or -1
 * with err set (BSIM_ERR_INPUT for a number that names no element). */
int bsim_plan_probes(bsim_plan *p, bsim_error *err);

/* The sparsity pattern (sparsity.c); called by bsim_plan_create after the
 * layout. 0 (pattern possibly left NULL when too dense), or -1 out of
 * memory. */
int bsim_plan_sparsity(bsim_plan *p);

/* Groups, and the analytic Jacobian when every block the residual
 * evaluates implements flag 10 (jacobian.c); called by bsim_plan_create
 * after the sparsity pattern. 0, or -1 out of memory. */
int bsim_plan_jacobian_prepare(bsim_plan *p);
void bsim_plan_jacobian_free(bsim_plan *p);
/* A run's Jacobian buffers (jacobian.c): 0, or -1 out of memory. */
int bsim_run_jacobian_alloc(bsim_run *x);
void bsim_run_jacobian_free(bsim_run *x);
/* a new run: a kept constant Jacobian is evaluated again */
void bsim_run_jacobian_forget(bsim_run *x);
/* J = dF/dy + cj dF/dy' at (t, y, y') in the pattern's order, from the
 * blocks' flag 10 and the chain rule; the engine's jacobian callback
 * (user = the run, whose plan must have jac). Returns BSIM_CB_*. */
int bsim_run_jacobian(double t, const double *y, const double *yp, double cj,
                      double *values, void *user);
/* dF/dy and dF/dy' apart (pattern's order), from one evaluation: the
 * matrices consistent values need (consistent.c). Returns BSIM_CB_*. */
int bsim_run_jacobian_parts(double t, const double *y, const double *yp,
                            double *dfdy, double *dfdyp, bsim_run *x);
/* Whether the run keeps dF/dy for the modes: an analytic Jacobian, the
 * plan's jac_constant, no index reduction (whose matrix is not it). */
static inline int bsim_run_jacobian_kept(const bsim_run *x) {
  const bsim_plan *p = x->plan;
  return p->jac && x->jac && p->jac_constant && !p->ix;
}
/* out = dF/dy d from those kept parts (BSIM_CB_FATAL at once without
 * them): the carry's exact J^m terms (carry.c). Returns BSIM_CB_*. */
int bsim_run_jacobian_times(double t, const double *y, const double *yp,
                            const double *d, double *out, bsim_run *x);

/* The acausal part (acausal.c). Layout from y offset *off on (moved past
 * it): components' states, node and connector unknowns, residual rows.
 * 0, -1 out of memory, -2 with err set (unbalanced system). */
int bsim_plan_acausal(bsim_plan *p, int *off, bsim_error *err);
/* id entries of the components' states (after p->id is allocated). */
void bsim_plan_acausal_ids(bsim_plan *p);
void bsim_plan_acausal_free(bsim_plan *p);
/* Points the components' views at the run's copies (once, at its start). */
void bsim_run_acausal_views(bsim_run *x);
/* The components' copies of y and y' made again (either may be NULL: its
 * copy stays). */
void bsim_run_bind_acausal(bsim_run *x, const double *y, const double *yp);
/* Kirchhoff's current law at node n (one with flows): its rows of F,
 * the sum of its connectors' flows in y. On the residual's path. */
static inline void bsim_plan_node_balance(const bsim_plan *p, int n,
                                          const double *y, double *res) {
  for (int j = 0; j < p->flat->nodes[n].dom->nflow; j++) {
    double s = 0;
    for (int q = p->kcl_start[n]; q < p->kcl_start[n + 1]; q++)
      s += y[p->kcl_var[q] + j];
    res[p->kcl_row[n] + j] = s;
  }
}
/* The acausal rows of F into res: the components' (written into the
 * run's copy as they ran), then the flow balances at the bound y. */
void bsim_run_acausal_rows(const bsim_run *x, double *res);
/* Residuals an implicit block writes (its model's nres, else one per
 * state), and the variables of its connectors (docs/acausal.md). */
static inline int bsim_model_nres(const bsim_model *m) {
  return m->nres > 0 ? m->nres : m->nx;
}
static inline int bsim_model_ncv(const bsim_model *m) {
  int n = 0;
  for (int k = 0; k < m->ncon; k++)
    n += m->condom[k]->npot + m->condom[k]->nflow;
  return n;
}

/* The y index of variable c (from 0: connector 1's across then through
 * variables, then connector 2's, ...) of component b; -1 past them. */
int bsim_plan_con_var(const bsim_plan *p, int b, int c);

/* Is block b an acausal component? */
int bsim_plan_is_comp(const bsim_plan *p, int b);

bsim_plan *bsim_plan_create(const bsim_flat *flat, bsim_error *err);
void bsim_plan_free(bsim_plan *p);

/* The state of one run of p (runstate.c). models: NULL, or p->nblocks
 * entries each NULL (the flat model's data) or a model of the same
 * structure whose rpar, ipar, opar, x0, z0 and firing this run uses; the
 * caller keeps them alive as long as the run. NULL out of memory. */
bsim_run *bsim_run_create(const bsim_plan *p, const bsim_model *const *models);
void bsim_run_free(bsim_run *x);

/* The flat residual (kernel.c): built at the start of a run from the
 * blocks' Jacobians at the current point (views bound to y); 0, or -1 out
 * of memory. Then, while integrating: bind only what is called, the
 * outputs, the derivatives the functions give, and F for the rest. */
int bsim_run_kernel_build(bsim_run *x, const double *y);
void bsim_run_kernel_free(bsim_run *x);
void bsim_run_kernel_bind(bsim_run *x, double t, const double *y,
                          const double *yp, double *res);
void bsim_run_kernel_unbind(bsim_run *x);
/* lean: the residual's own program (only what F needs), else every
 * output */
void bsim_run_kernel_outputs(bsim_run *x, int lean);
void bsim_run_kernel_derivatives(bsim_run *x);
void bsim_run_kernel_tail(bsim_run *x, const double *yp, double *res, int lean);
/* The residual itself, for a plan without torn signals and acausal parts
 * (eval.c uses it then). */
int bsim_run_kernel_residual(bsim_run *x, double t, const double *y,
                             const double *yp, double *res);

/* Evaluation (eval.c). All return BSIM_CB_OK / _RECOVERABLE / _FATAL, the
 * engine's callback convention. */
/* Every block's phase. This runs at every residual evaluation: the phase
 * changes rarely, so it is written only when it does. */
static inline void bsim_run_set_phase(bsim_run *x, int phase) {
  if (phase == x->phase) return;
  for (int i = 0; i < x->plan->nblocks; i++)
    x->blocks[i].b.phase = phase;
  x->phase = phase;
}
void bsim_run_bind(bsim_run *x, double t, const double *y, const double *yp,
                   double *res, int phase);
/* One state block's x, xd and res into the engine's vectors. */
void bsim_run_bind_state(rt_block *rb, int xoff, const double *y,
                         const double *yp, double *res);
/* The same for the continuous phase where only the run's own evaluations
 * follow (residual, surfaces, samples): with the flat program, only the
 * views of blocks still called are refreshed. */
void bsim_run_bind_integrating(bsim_run *x, double t, const double *y,
                               const double *yp, double *res);
int bsim_run_call(bsim_run *x, int blk, int flag);
int bsim_run_outputs(bsim_run *x, int all);
int bsim_run_residual(double t, const double *y, const double *yp, double *res,
                      void *user);
/* The blocks' residual alone (the system before any index reduction). */
int bsim_run_base_residual(bsim_run *x, double t, const double *y,
                           const double *yp, double *res);
/* The part of the residual after the outputs: flag 0 on state blocks, then
 * F_x = x' - f and F_w = w - h. For callers that evaluate the outputs
 * themselves (analysis perturbs some of them). */
int bsim_run_residual_tail(bsim_run *x, const double *yp, double *res);
int bsim_run_roots(double t, const double *y, const double *yp, double *g,
                   void *user);
/* The surfaces at (t, y, y') for the scheduler's own use (not counted as
 * an engine's root search). */
int bsim_run_surfaces(bsim_run *x, double t, const double *y, const double *yp,
                      double *g);

#endif
