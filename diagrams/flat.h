/*
 * The flat diagram: superblocks dissolved, parameters evaluated, every leaf
 * block's run-time model built by its type's define step, port sizes
 * inferred. What the scheduler compiles.
 */
#ifndef BSIM_FLAT_H
#define BSIM_FLAT_H

#include "blocksim/blocksim.h"
#include "diagram.h"

typedef struct bsim_flat_block {
  char *path; /* "outer/inner/id" */
  const bsim_block_type *type;
  /* The type whose computational function runs: model.sim's when the
   * define step chose one (TrigFun -> cos_blk), else type. */
  const bsim_block_type *run_type;
  bsim_model model; /* sizes all positive after inference */
  int line;         /* source line of the <block> */
  /* For re-evaluating parameters per run (diagrams/vary.c): the evaluated
   * parameters (type->nparams, spec order) and the port sizes, surfaces
   * and modes as the define step gave them, before inference: rows then
   * columns of every input, the same of every output, ng, nmode. */
  bsim_value *values;
  int *raw_sizes;
  /* Acausal components: the connection set (bsim_flat.nodes) of each of
   * the model's ncon connectors. NULL for other blocks. */
  int *con_node;
  /* 1: the block runs on the model its file gives (dg_block.stored: an
   * Xcos stored model, used as is or fallen back on, or a native
   * <model>), not on its define step. */
  int stored;
  /* 1: its define step's model, made time-dependent because the Xcos file
   * stores the block so (diagrams/leaf.c). */
  int dep_t_stored;
} bsim_flat_block;

/* A connection set of acausal connectors (diagrams/connect.c): its
 * across variables are shared unknowns, its through variables sum to
 * zero. Unconnected connectors get a set of their own. */
typedef struct bsim_flat_node {
  const bsim_domain *dom;
  int line; /* a <connect> joining it, 0 for a lone connector */
} bsim_flat_node;

/* Ports counted from 0 here. */
typedef struct bsim_flat_link {
  int from_block, from_port;
  int to_block, to_port;
} bsim_flat_link;

/* One output port of a flat block (port counted from 0). */
typedef struct bsim_flat_port {
  int block, port;
} bsim_flat_port;

typedef struct bsim_flat_observe {
  char *name;
  int block, port; /* an output port */
} bsim_flat_observe;

typedef struct bsim_flat {
  char *file; /* a copy: the flat diagram outlives the diagram it came from */
  const bsim_library *lib; /* a reference to the diagram's: types point
                              into it, so it lives as long as this */
  bsim_flat_block *blocks;
  int nblocks;
  /* The first ntree blocks are the diagram's leaves in walk order; those
   * after them were made by flattening (the merged sample clock). */
  int ntree;
  bsim_flat_link *links; /* data links, one per (source, destination) */
  int nlinks;
  bsim_flat_link *activations; /* event output -> event input */
  int nactivations;
  bsim_flat_observe *observes;
  int nobserves;
  /* Every output port once, in the order Xcos numbers its link buffers
   * (joins.c): the elements of these ports laid end to end are what
   * model.probes counts from 1. */
  bsim_flat_port *signals;
  int nsignals;
  /* The same ports in the native order (joins.c), when the blocks carry
   * Xcos's own link numbers and signals follows them; else NULL. The
   * native writer renumbers probes with it. */
  bsim_flat_port *native_signals;
  dg_settings settings; /* copied from the diagram (solver string owned) */
  /* What flattening did that the user should know (an Xcos block keeping
   * its stored parameters, ...): bsim_sim_note_at. Owned. */
  char **notes;
  int nnotes;
  bsim_flat_node *nodes; /* connection sets */
  int nnodes;
} bsim_flat;

/* Dissolve superblocks, evaluate contexts and parameters, run define steps,
 * infer sizes, check every input is connected exactly once. NULL on error
 * (status BSIM_ERR_INPUT, message with file:line or block path). */
bsim_flat *bsim_flatten(const bsim_diagram *d, bsim_error *err);
void bsim_flat_free(bsim_flat *f);

/* The parameters of d (the diagram base was flattened from, unchanged)
 * evaluated again with overrides (target/value as bsim_diagram_override
 * takes them), without changing d: models[i] (base->nblocks entries, all
 * NULL on entry) gets a new model, sizes inferred, for each block whose
 * evaluated parameters differ from base's; the others stay NULL. 0, or -1
 * with err set and every models[i] NULL again; *structural is 1 when the
 * reason is a change of structure (ports, sizes, states, surfaces, modes,
 * events, feedthrough, simulation function) that base's plan cannot run.
 * Implemented in diagrams/vary.c. */
int bsim_flat_vary(const bsim_diagram *d, const bsim_flat *base,
                   const char *const *targets, const char *const *values, int n,
                   bsim_model **models, int *structural, bsim_error *err);

#endif
