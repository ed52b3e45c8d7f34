/*
 * Compile a flat diagram into a plan: where every block's outputs live in
 * a run's buffers, the order in which outputs are evaluated, the algebraic
 * loops and the signals that tear them, and the layout of y = [x; w].
 *
 * Loops are the strongly connected components of the direct-feedthrough
 * graph (Tarjan). Inside a component, the back edges of a depth-first search
 * name the outputs to tear: removing them leaves the component acyclic, and
 * each torn output becomes an algebraic unknown that IDA solves for, so an
 * algebraic loop is an equation, not an error.
 *
 * The graph also has an edge from each synchronous router (IFTHEL_f, ...)
 * to the blocks its outputs activate: those run inside the router's
 * activation, so the blocks reading their outputs must come after the
 * router. Such an edge cannot be torn; one inside a loop means the router's
 * choice needs what it activates: an error, as in Xcos.
 */
#include <stdlib.h>
#include <string.h>

#include "scheduler/index.h"
#include "scheduler/plan.h"

typedef struct graph {
  int n;
  int *start; /* CSR: edges of node v are start[v] .. start[v+1]-1 */
  int *dst;
  int *port; /* global output-port index of the edge's source; -1 for a
                synchronous activation */
} graph;

static void *xcalloc(size_t n, size_t size) {
  return calloc(n ? n : 1, size);
}

/* Direct-feedthrough edges: src -> dst when dst needs the input now; and
 * router -> target for synchronous activations (the targets of every event
 * a router owns, its outputs' copies included). */
static int graph_build(const bsim_plan *p, graph *g) {
  const bsim_flat *f = p->flat;
  const int *portbase = p->portbase;
  size_t nsync = 0;
  for (int e = 0; e < p->nevents; e++)
    if (p->synchronous[p->evowner[e]])
      nsync += (size_t)(p->tgt_start[e + 1] - p->tgt_start[e]);
  g->n = f->nblocks;
  g->start = xcalloc((size_t)f->nblocks + 1, sizeof(int));
  g->dst = xcalloc((size_t)f->nlinks + nsync, sizeof(int));
  g->port = xcalloc((size_t)f->nlinks + nsync, sizeof(int));
  if (!g->start || !g->dst || !g->port) return -1;
  for (int i = 0; i < f->nlinks; i++) {
    const bsim_flat_link *l = &f->links[i];
    if (f->blocks[l->to_block].model.dep_u[l->to_port])
      g->start[l->from_block + 1]++;
  }
  for (int e = 0; e < p->nevents; e++)
    if (p->synchronous[p->evowner[e]])
      g->start[p->evowner[e] + 1] += p->tgt_start[e + 1] - p->tgt_start[e];
  for (int v = 0; v < g->n; v++)
    g->start[v + 1] += g->start[v];
  int *fill = xcalloc((size_t)g->n, sizeof(int));
  if (!fill) return -1;
  for (int i = 0; i < f->nlinks; i++) {
    const bsim_flat_link *l = &f->links[i];
    if (!f->blocks[l->to_block].model.dep_u[l->to_port]) continue;
    int e = g->start[l->from_block] + fill[l->from_block]++;
    g->dst[e] = l->to_block;
    g->port[e] = portbase[l->from_block] + l->from_port;
  }
  for (int ev = 0; ev < p->nevents; ev++) {
    int b = p->evowner[ev];
    if (!p->synchronous[b]) continue;
    for (int t = p->tgt_start[ev]; t < p->tgt_start[ev + 1]; t++) {
      int e = g->start[b] + fill[b]++;
      g->dst[e] = p->tgt_block[t];
      g->port[e] = -1;
    }
  }
  free(fill);
  return 0;
}

static void graph_free(graph *g) {
  free(g->start);
  free(g->dst);
  free(g->port);
}

/* Iterative Tarjan: comp[v] = component id, components numbered in reverse
 * topological order (sinks first). Returns the number of components. */
static int tarjan(const graph *g, int *comp) {
  int n = g->n, ncomp = 0, counter = 0, sp = 0, cs = 0;
  int *index = malloc(sizeof(int) * (size_t)(n ? n : 1));
  int *low = malloc(sizeof(int) * (size_t)(n ? n : 1));
  int *onstack = calloc((size_t)(n ? n : 1), sizeof(int));
  int *stack = malloc(sizeof(int) * (size_t)(n ? n : 1));
  int *callv = malloc(sizeof(int) * (size_t)(n ? n : 1));
  int *calle = malloc(sizeof(int) * (size_t)(n ? n : 1));
  if (!index || !low || !onstack || !stack || !callv || !calle) {
    ncomp = -1;
    goto done;
  }
  for (int v = 0; v < n; v++)
    index[v] = -1;
  for (int root = 0; root < n; root++) {
    if (index[root] >= 0) continue;
    callv[0] = root;
    calle[0] = g->start[root];
    cs = 1;
    index[root] = low[root] = counter++;
    stack[sp++] = root;
    onstack[root] = 1;
    while (cs > 0) {
      int v = callv[cs - 1];
      if (calle[cs - 1] < g->start[v + 1]) {
        int w = g->dst[calle[cs - 1]++];
        if (index[w] < 0) {
          index[w] = low[w] = counter++;
          stack[sp++] = w;
          onstack[w] = 1;
          callv[cs] = w;
          calle[cs] = g->start[w];
          cs++;
        } else if (onstack[w] && index[w] < low[v]) {
          low[v] = index[w];
        }
        continue;
      }
      if (low[v] == index[v]) {
        int w;
        do {
          w = stack[--sp];
          onstack[w] = 0;
          comp[w] = ncomp;
        } while (w != v);
        ncomp++;
      }
      cs--;
      if (cs > 0 && low[v] < low[callv[cs - 1]]) low[callv[cs - 1]] = low[v];
    }
  }
done:
  free(index);
  free(low);
  free(onstack);
  free(stack);
  free(callv);
  free(calle);
  return ncomp;
}

/*
 * Order the blocks of one component: a depth-first search inside it marks
 * the source port of every back edge as torn; the reverse post-order of the
 * same search is then a valid evaluation order for the remaining edges.
 */
static void order_component(const graph *g, const int *comp, int c,
                            const int *members, int nmem, char *torn,
                            int *state, int *stackv, int *stacke, int *out) {
  int nout = 0;
  for (int m = 0; m < nmem; m++) {
    int root = members[m];
    if (state[root]) continue;
    int sp = 0;
    stackv[sp] = root;
    stacke[sp++] = g->start[root];
    state[root] = 1; /* on the search path */
    while (sp > 0) {
      int v = stackv[sp - 1];
      if (stacke[sp - 1] < g->start[v + 1]) {
        int e = stacke[sp - 1]++;
        int w = g->dst[e];
        /* synchronous activations never lie inside a component
         * (compute_order refuses those diagrams) */
        if (comp[w] != c || g->port[e] < 0 || torn[g->port[e]]) continue;
        if (state[w] == 1)
          torn[g->port[e]] = 1; /* back edge: tear the signal */
        else if (state[w] == 0) {
          state[w] = 1;
          stackv[sp] = w;
          stacke[sp++] = g->start[w];
        }
        continue;
      }
      state[v] = 2;
      out[nout++] = v; /* post-order */
      sp--;
    }
  }
  for (int i = 0; i < nout / 2; i++) {
    int tmp = out[i];
    out[i] = out[nout - 1 - i];
    out[nout - 1 - i] = tmp;
  }
}

/* The evaluation order of all blocks; torn[] marks the ports that tear
 * loops. 0; -1 out of memory; -2 when the synchronous activation
 * loop[0] -> loop[1] lies on a loop. */
static int compute_order(const graph *g, int *order, char *torn, int *loop) {
  int n = g->n;
  int *comp = xcalloc((size_t)n, sizeof(int));
  int *state = xcalloc((size_t)n, sizeof(int));
  int *sv = xcalloc((size_t)n, sizeof(int));
  int *se = xcalloc((size_t)n, sizeof(int));
  int *members = xcalloc((size_t)n, sizeof(int));
  int *cstart = NULL, rc = -1;
  if (!comp || !state || !sv || !se || !members) goto done;
  int ncomp = tarjan(g, comp);
  if (ncomp < 0) goto done;
  for (int v = 0; v < n; v++)
    for (int e = g->start[v]; e < g->start[v + 1]; e++)
      if (g->port[e] < 0 && comp[g->dst[e]] == comp[v]) {
        loop[0] = v;
        loop[1] = g->dst[e];
        rc = -2;
        goto done;
      }
  /* bucket the blocks by component */
  cstart = xcalloc((size_t)ncomp + 1, sizeof(int));
  if (!cstart) goto done;
  for (int v = 0; v < n; v++)
    cstart[comp[v] + 1]++;
  for (int c = 0; c < ncomp; c++)
    cstart[c + 1] += cstart[c];
  {
    int *fill = xcalloc((size_t)ncomp, sizeof(int));
    if (!fill) goto done;
    for (int v = 0; v < n; v++)
      members[cstart[comp[v]] + fill[comp[v]]++] = v;
    free(fill);
  }
  /* Tarjan numbers sinks first: walk components backwards for sources
   * first. */
  int pos = 0;
  for (int c = ncomp - 1; c >= 0; c--) {
    int nmem = cstart[c + 1] - cstart[c];
    order_component(g, comp, c, members + cstart[c], nmem, torn, state, sv, se,
                    order + pos);
    pos += nmem;
  }
  rc = 0;
done:
  free(comp);
  free(state);
  free(sv);
  free(se);
  free(members);
  free(cstart);
  return rc;
}

static int model_size(int rows, int cols) {
  return rows * cols;
}

/* The function and the place in the output buffers of one block. */
static void setup_block(bsim_plan *p, int i, size_t *outoff) {
  plan_block *pb = &p->blocks[i];
  const bsim_flat_block *fb = &p->flat->blocks[i];
  const bsim_model *m = &fb->model;
  pb->fn = fb->run_type->fn;
  pb->fb = fb;
  pb->xoff = pb->goff = -1;
  for (int k = 0; k < m->nout; k++) {
    p->outoff[p->portbase[i] + k] = *outoff;
    *outoff += (size_t)model_size(m->out[k], m->out2[k]);
  }
}

/* Which blocks' outputs can move while the integrator runs: those with
 * states or time dependence, and those without event inputs that read such
 * an output or a torn loop signal. The others are settled at start and at
 * events only. */
static void mark_active(bsim_plan *p, const char *torn, const int *portbase) {
  const bsim_flat *f = p->flat;
  for (int i = 0; i < p->nblocks; i++) {
    const bsim_model *m = &f->blocks[i].model;
    p->blocks[i].active = m->dep_t || m->nx > 0 || m->ncon > 0;
  }
  /* a torn signal is an unknown the solver moves */
  for (int l = 0; l < f->nlinks; l++) {
    const bsim_flat_link *ln = &f->links[l];
    if (torn[portbase[ln->from_block] + ln->from_port] &&
        f->blocks[ln->to_block].model.nevin == 0)
      p->blocks[ln->to_block].active = 1;
  }
  for (int changed = 1; changed;) {
    changed = 0;
    for (int l = 0; l < f->nlinks; l++) {
      const bsim_flat_link *ln = &f->links[l];
      plan_block *dst = &p->blocks[ln->to_block];
      if (!dst->active && p->blocks[ln->from_block].active &&
          f->blocks[ln->to_block].model.nevin == 0) {
        dst->active = 1;
        changed = 1;
      }
    }
  }
}

/* Give every differential state, torn signal and acausal unknown its
 * place in y. 0, -1 out of memory, -2 with err set. */
static int layout(bsim_plan *p, const char *torn, const int *portbase,
                  bsim_error *err) {
  const bsim_flat *f = p->flat;
  int off = 0;
  for (int i = 0; i < p->nblocks; i++) {
    if (f->blocks[i].model.nx > 0 && f->blocks[i].model.ncon == 0) {
      p->blocks[i].xoff = off;
      off += f->blocks[i].model.nx;
    }
  }
  p->nx = off;
  for (int i = 0; i < p->nblocks; i++)
    for (int k = 0; k < f->blocks[i].model.nout; k++)
      if (torn[portbase[i] + k]) p->ntorn++;
  p->torn = xcalloc((size_t)p->ntorn, sizeof(rt_torn));
  if (!p->torn) return -1;
  int t = 0;
  for (int i = 0; i < p->nblocks; i++) {
    const bsim_model *m = &f->blocks[i].model;
    for (int k = 0; k < m->nout; k++) {
      if (!torn[portbase[i] + k]) continue;
      rt_torn *tw = &p->torn[t++];
      tw->block = i;
      tw->port = k;
      tw->n = model_size(m->out[k], m->out2[k]);
      tw->yoff = off;
      off += tw->n;
    }
  }
  p->nw = off - p->nx;
  int rc = bsim_plan_acausal(p, &off, err);
  if (rc != 0) return rc;
  /* An engine needs at least one unknown (to step and to find roots of a
   * diagram without states): pad with y' = 0. */
  p->dummy = off == 0;
  p->ny = off + p->dummy;
  p->ode_form = p->nw == 0 && p->na == 0;
  for (int i = 0; i < p->nblocks; i++)
    if (f->blocks[i].model.implicit && f->blocks[i].model.nx > 0)
      p->ode_form = 0;
  p->id = xcalloc((size_t)p->ny, sizeof(double));
  if (!p->id) return -1;
  for (int i = 0; i < p->nx; i++)
    p->id[i] = 1.0;
  if (p->dummy) p->id[off] = 1.0;
  bsim_plan_acausal_ids(p);
  return 0;
}

/* The source of every input and the torn signal of every output port,
 * kept in the plan for all who walk the links. */
static int wire(bsim_plan *p) {
  const bsim_flat *f = p->flat;
  int nb = p->nblocks;
  p->inbase = xcalloc((size_t)nb + 1, sizeof(int));
  if (!p->inbase) return -1;
  for (int b = 0; b < nb; b++)
    p->inbase[b + 1] = p->inbase[b] + f->blocks[b].model.nin;
  p->insrc_block = xcalloc((size_t)p->inbase[nb], sizeof(int));
  p->insrc_port = xcalloc((size_t)p->inbase[nb], sizeof(int));
  p->torn_of = xcalloc((size_t)p->portbase[nb], sizeof(int));
  if (!p->insrc_block || !p->insrc_port || !p->torn_of) return -1;
  for (int i = 0; i < p->inbase[nb]; i++)
    p->insrc_block[i] = -1;
  for (int i = 0; i < p->portbase[nb]; i++)
    p->torn_of[i] = -1;
  for (int t = 0; t < p->ntorn; t++)
    p->torn_of[p->portbase[p->torn[t].block] + p->torn[t].port] = t;
  for (int l = 0; l < f->nlinks; l++) {
    const bsim_flat_link *ln = &f->links[l];
    p->insrc_block[p->inbase[ln->to_block] + ln->to_port] = ln->from_block;
    p->insrc_port[p->inbase[ln->to_block] + ln->to_port] = ln->from_port;
  }
  return 0;
}

static int index_lists(bsim_plan *p) {
  p->active_order = xcalloc((size_t)p->nblocks, sizeof(int));
  p->state_blocks = xcalloc((size_t)p->nblocks, sizeof(int));
  p->zc_blocks = xcalloc((size_t)p->nblocks, sizeof(int));
  if (!p->active_order || !p->state_blocks || !p->zc_blocks) return -1;
  int ns = 0;
  for (int k = 0; k < p->nblocks; k++) {
    int i = p->order[k];
    plan_block *pb = &p->blocks[i];
    const bsim_model *m = &pb->fb->model;
    if (pb->active && m->nout > 0) p->active_order[p->nactive++] = i;
    if (m->nx > 0 && m->ncon == 0) p->state_blocks[ns++] = i;
    pb->ng = pb->active ? m->ng : 0;
    pb->nmode = pb->active ? m->nmode : 0;
    if (pb->ng > 0 || pb->nmode > 0) {
      p->zc_blocks[p->nzc_blocks++] = i;
      if (pb->ng > 0) {
        pb->goff = p->ng;
        p->ng += pb->ng;
      }
    }
  }
  p->nstate_blocks = ns;
  p->gdir = xcalloc((size_t)p->ng, sizeof(int));
  if (!p->gdir) return -1;
  for (int k = 0; k < p->nzc_blocks; k++) {
    const plan_block *pb = &p->blocks[p->zc_blocks[k]];
    const bsim_model *m = &pb->fb->model;
    for (int j = 0; pb->goff >= 0 && j < pb->ng; j++)
      p->gdir[pb->goff + j] = m->zcdirs ? m->zcdirs[j] : m->zcdir;
  }
  return 0;
}

/* After an index reduction the blocks' analytic Jacobian describes the
 * system before it (index_run.c forms the reduced one's from its
 * columns, over a dense pattern); each unknown is a group of its own for
 * preconditioning. */
static int reduced_system(bsim_plan *p) {
  free(p->groups);
  p->groups = xcalloc((size_t)p->ny, sizeof(int));
  if (!p->groups) return -1;
  for (int i = 0; i < p->ny; i++)
    p->groups[i] = i;
  return 0;
}

bsim_plan *bsim_plan_create(const bsim_flat *flat, bsim_error *err) {
  bsim_plan *p = calloc(1, sizeof *p);
  char *torn = NULL;
  graph g = {0};
  int *portbase =
      p ? (p->portbase = xcalloc((size_t)flat->nblocks + 1, sizeof(int)))
        : NULL;
  if (!portbase) goto nomem;
  p->flat = flat;
  p->nblocks = flat->nblocks;
  size_t nbuf = 0;
  for (int i = 0; i < flat->nblocks; i++) {
    const bsim_model *m = &flat->blocks[i].model;
    portbase[i + 1] = portbase[i] + m->nout;
    for (int k = 0; k < m->nout; k++)
      nbuf += (size_t)model_size(m->out[k], m->out2[k]);
  }
  p->blocks = xcalloc((size_t)flat->nblocks, sizeof(plan_block));
  p->outoff = xcalloc((size_t)portbase[flat->nblocks], sizeof(size_t));
  p->noutbuf = nbuf;
  p->order = xcalloc((size_t)flat->nblocks, sizeof(int));
  torn = xcalloc((size_t)portbase[flat->nblocks], 1);
  if (!p->blocks || !p->outoff || !p->order || !torn) goto nomem;
  size_t outoff = 0;
  for (int i = 0; i < flat->nblocks; i++)
    setup_block(p, i, &outoff);
  if (bsim_plan_probes(p, err) != 0) goto fail;
  if (bsim_plan_event_targets(p, err) != 0) goto fail;
  int loop[2], rc;
  if (graph_build(p, &g) != 0 ||
      (rc = compute_order(&g, p->order, torn, loop)) == -1)
    goto nomem;
  if (rc == -2) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "%s: block '%s' routes an activation to '%s' at once, "
                   "but its choice depends on outputs computed in that same "
                   "activation (an algebraic loop through event routing; "
                   "hint: put a delay in the loop, e.g. a unit delay 1/z or "
                   "an event delay)",
                   flat->file ? flat->file : "diagram",
                   flat->blocks[loop[0]].path, flat->blocks[loop[1]].path);
    goto fail;
  }
  mark_active(p, torn, portbase);
  if ((rc = layout(p, torn, portbase, err)) == -2) goto fail;
  if (rc != 0 || wire(p) != 0) goto nomem;
  if (index_lists(p) != 0 || bsim_plan_analyze_events(p) != 0 ||
      bsim_plan_carry_prepare(p) != 0 || bsim_plan_sparsity(p) != 0 ||
      bsim_plan_jacobian_prepare(p) != 0)
    goto nomem;
  if ((rc = bsim_plan_index(p, err)) == -2) goto fail;
  if (rc != 0) goto nomem;
  if (p->ix && reduced_system(p) != 0) goto nomem;
  graph_free(&g);
  free(torn);
  return p;
nomem:
  bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory while compiling");
fail:
  graph_free(&g);
  free(torn);
  bsim_plan_free(p);
  return NULL;
}

void bsim_plan_free(bsim_plan *p) {
  if (!p) return;
  bsim_plan_jacobian_free(p);
  bsim_plan_acausal_free(p);
  bsim_plan_carry_free(p);
  bsim_plan_index_free(p);
  for (int i = 0; p->blocks && i < p->nblocks; i++)
    free(p->blocks[i].probe_off);
  free(p->torn);
  free(p->blocks);
  free(p->order);
  free(p->active_order);
  free(p->state_blocks);
  free(p->zc_blocks);
  free(p->id);
  free(p->gdir);
  free(p->outoff);
  free(p->src_start);
  free(p->src_block);
  free(p->dst_start);
  free(p->dst_block);
  free(p->inherits);
  free(p->evbase);
  free(p->synchronous);
  free(p->stateless);
  free(p->union_block);
  free(p->tgt_start);
  free(p->tgt_block);
  free(p->tgt_bits);
  free(p->tgt_evmap);
  free(p->evowner);
  free(p->act_start);
  free(p->act_block);
  free(p->act_bits);
  free(p->act_evmap);
  free(p->portbase);
  free(p->inbase);
  free(p->insrc_block);
  free(p->insrc_port);
  free(p->torn_of);
  free(p->evcrit);
  free(p->relevant);
  free(p->pat_colptr);
  free(p->pat_rowidx);
  free(p);
}
