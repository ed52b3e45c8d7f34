/*
 * State shared by the two halves of the flattener: flatten.c walks the tree
 * and builds the leaf blocks, joins.c joins data links and activations
 * through superblock ports and resolves observes. Private to diagrams/.
 */
#ifndef BSIM_FLATTEN_INT_H
#define BSIM_FLATTEN_INT_H

#include "diagrams/expr.h"
#include "diagrams/flat.h"

/* Port blocks are pass-through nodes: an IN_f / CLKINV_f is entered from
 * outside the superblock and left inside, an OUT_f / CLKOUTV_f the reverse.
 * Every port block has exactly one port on each side, port 0. */
enum { LEAF = 0, PORT_IN = 1, PORT_OUT = 2, EV_IN = 3, EV_OUT = 4 };
/* Tag blocks (tags.c) are pass-through nodes too: a GOTO and a FROM have
 * one data slot each (the FROM's fed by a link from its GOTO), event tags
 * pass activations on; visibility blocks have no port. */
enum { TAG_DATA = 5, TAG_EVENT = 6, TAG_VIS = 7 };
/* A superblock's connector port (INIMPL_f, OUTIMPL_f): one connector,
 * the same on both sides of the superblock's boundary (connect.c). */
enum { CON_PORT = 8 };

typedef struct node {
  char *path;
  const bsim_block_type *type;
  bsim_model model;
  int line;
  int role;           /* LEAF, PORT_IN, ..., TAG_VIS */
  int portno;         /* superblock port number of a port block */
  int inst;           /* superblock instance holding it (0 = top level) */
  int inbase;         /* first slot of its inputs in fl.feed */
  int flat;           /* index among flat blocks, -1 for port blocks */
  bsim_value *values; /* evaluated parameters, type->nparams */
  int stored;         /* runs on the model its file gives (leaf.c) */
  int dep_t_stored;   /* made time-dependent as its file stores it */
  const int *xlinks;  /* the block's dg_block.xcos_links (nxlinks), or NULL */
  int nxlinks;
} node;

typedef struct inst {
  char *path; /* "" at the top level */
  int parent; /* the instance holding it (0 for the top level's own) */
  int line;
  int nin, nout;
  int *in_node, *out_node; /* port block of each port, index port-1 */
  int nevin, nevout;
  int *evin_node, *evout_node; /* CLKINV_f / CLKOUTV_f of each event port */
  int ncon;
  int *con_node; /* connector port block of each connector, index k-1 */
} inst;

/* A <connect> of one level, its ends resolved to (node, connector from
 * 0); a superblock's end is its connector port block's connector 0. */
typedef struct rawcon {
  int a_node, a_con, b_node, b_con;
  int line;
} rawcon;

typedef struct rawlink {
  int from_node, from_port, to_node, to_port; /* ports from 0 */
  int line;
} rawlink;

typedef struct fl {
  const bsim_diagram *d;
  const char *file;
  bsim_error *err;
  bsim_flat *out; /* the result being built (its notes) */
  node *nodes;
  int nnodes, capnodes;
  inst *insts;
  int ninsts, capinsts;
  rawlink *raw, *act; /* data links, activations (ends may be port blocks) */
  int nraw, capraw, nact, capact;
  int *feed; /* raw link feeding each input slot, -1 none */
  rawcon *con;
  int ncon, capcon;
  /* Re-evaluation for one run (diagrams/vary.c): overrides are read from
   * here instead of the tree, and leaves go to dg_vary_leaf instead of
   * becoming nodes. NULL when flattening. */
  struct dg_vary *vary;
  int nleaves; /* leaves met so far in vary mode */
} fl;

/* Report out-of-memory; returns -1. */
int dg_fl_nomem(fl *f);

/* leaf.c: evaluate a leaf's parameters (values: t->nparams entries,
 * filled); 0, or -1 with the error set. */
int dg_fl_eval_params(fl *f, const dg_block *b, const char *path,
                      const bsim_block_type *t, const bsim_scope *scope,
                      bsim_value *values);
/* The model of node n from its parameters and define step, falling back on
 * the block's stored model where it may (n->values NULL then). */
int dg_fl_define_leaf(fl *f, const dg_block *b, node *n,
                      const bsim_block_type *t, const bsim_scope *scope);
/* The model of node n copied from the block's stored model. */
int dg_fl_stored_leaf(fl *f, const dg_block *b, node *n);
/* 1 when a failed evaluation of b's parameters falls back on its stored
 * model: an Xcos block with one, none of whose parameters an override
 * set. */
int dg_fl_can_fall_back(const dg_block *b);

/* Pair FROMs with GOTOs (tags.c): adds a link (activation) from each GOTO
 * node to its FROM nodes. 0, or -1 with f->err set. */
int dg_fl_tags(fl *f);

/* Walk one level (flatten.c): contexts, leaves, superblocks, links. */
int dg_fl_walk(fl *f, const dg_diagram *dg, const bsim_scope *parent,
               const char *prefix, int instid);

/* Vary mode (vary.c). The expression that replaces context variable `name`
 * of level dg, or parameter `name` of block b, or NULL. */
const char *dg_vary_context(const struct dg_vary *v, const dg_diagram *dg,
                            const char *name);
const char *dg_vary_param(const struct dg_vary *v, const dg_block *b,
                          const char *name);
/* The k-th context variable the overrides add to level dg (one the level
 * does not define): its name and expression, or NULL past the end. */
const char *dg_vary_extra(const struct dg_vary *v, const dg_diagram *dg, int k,
                          const char **expr);
/* Leaf number f->nleaves with its evaluated parameters (taken: the callee
 * frees them). 0 or -1 with f->err set. */
int dg_vary_leaf(fl *f, const char *path, int line, const bsim_block_type *t,
                 bsim_value *values, const bsim_scope *scope);

/* After the walk and once leaves have their flat index: join data links
 * through port blocks (one flat link per connected leaf input, *lines gets
 * the source line of each), check every leaf input is fed exactly once,
 * join activations through event port blocks (adding self-activations),
 * resolve observes. 0 or -1. */
int dg_fl_join(fl *f, bsim_flat *out, int **lines);

/* Replace a flat diagram's SampleCLK blocks by one M_freq clock
 * (sampleclk.c), after joining. 0, or -1 with err set. */
int dg_merge_sample_clocks(bsim_flat *out, bsim_error *err);
/* For one run whose parameters rebuilt some sample clocks' models (in
 * models[], NULL = unchanged): the merged clock's model rebuilt too, in
 * models[] at its index. 0; -1 with err set, and *structural = 1 when the
 * new periods group the clocks differently (a new number of outputs). */
int dg_vary_sample_clocks(const bsim_flat *base, bsim_model **models,
                          int *structural, bsim_error *err);
/* connect.c: resolve one <connect> of a level (where / isinst as in
 * flatten.c's walk: node or superblock instance of each block index)
 * into f->con. 0, or -1 with f->err set. */
int dg_fl_connect_link(fl *f, const dg_link *l, const int *where,
                       const int *isinst, int a, int b);
/* After take_blocks: the connection sets of every leaf connector into
 * out->nodes and each flat block's con_node. 0, or -1. */
int dg_fl_connection_sets(fl *f, bsim_flat *out);

/* Evaluates the context of level dg into scope (flatten's walk, before
 * the level's blocks): pinned overrides, script, <var>s. 0 or -1. */
int dg_fl_context(fl *f, const dg_diagram *dg, bsim_scope *scope,
                  const char *prefix);

#endif
