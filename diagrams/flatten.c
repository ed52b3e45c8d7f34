/*
 * Flattening: from the Diagram tree to the flat list of leaf blocks the
 * scheduler compiles. Contexts and parameters are evaluated along a scope
 * chain (inner contexts shadow outer ones), every leaf block's model is built
 * by its type's define step, and superblocks with their port blocks (IN_f /
 * OUT_f for data, CLKINV_f / CLKOUTV_f for events) disappear: each link or
 * activation end is followed through port blocks until it reaches a real
 * block (diagrams/joins.c). Port sizes are then inferred (diagrams/sizes.c).
 *
 * Port blocks are kept as ordinary nodes while walking, each with one
 * pass-through input and output: an IN_f's input is the superblock's input
 * as seen from outside, an OUT_f's output the superblock's output, and
 * likewise for event ports. Tracing a leaf input back to its source is then
 * a walk over "which link feeds this input" until a non-port node is met;
 * an activation is followed forwards to every leaf event input it reaches.
 * GOTO / FROM tag blocks are pass-through nodes as well, joined in pairs
 * by diagrams/tags.c.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/define.h"
#include "diagrams/dg_util.h"
#include "diagrams/expr.h"
#include "diagrams/flatten_int.h"

int dg_fl_nomem(fl *f) {
  bsim_error_set(f->err, BSIM_ERR_NOMEM, "%s: out of memory while flattening",
                 f->file);
  return -1;
}

/* Grow an array to hold one more element; 0 or -1. */
static int grow(void **p, int *cap, int n, size_t size) {
  if (n < *cap) return 0;
  int nc = *cap ? *cap * 2 : 16;
  void *q = realloc(*p, (size_t)nc * size);
  if (!q) return -1;
  *p = q;
  *cap = nc;
  return 0;
}

static char *join(const char *prefix, const char *id) {
  size_t a = strlen(prefix), b = strlen(id);
  char *s = malloc(a + b + 2);
  if (!s) return NULL;
  if (a) {
    memcpy(s, prefix, a);
    s[a++] = '/';
  }
  memcpy(s + a, id, b + 1);
  return s;
}

/* ------------------------------------------------------------------ */
/* Leaf blocks                                                         */
/* ------------------------------------------------------------------ */

/* The superblock port number of a port block: its "port" parameter, or
 * ipar(1) as Xcos stores it. */
static int port_number(const bsim_block_type *t, const bsim_value *values,
                       const bsim_model *m) {
  int k = dg_param_find(t, "port");
  if (k >= 0 && values[k].v && values[k].rows * values[k].cols >= 1) {
    double p = values[k].v[0];
    return p >= 1 && p <= 1e9 && p == (double)(int)p ? (int)p : -1;
  }
  return m->nipar >= 1 ? m->ipar[0] : -1;
}

/* Data and event port blocks share BSIM_TYPE_PORT; their models tell them
 * apart (an event port has one event port and no data port), so that any
 * port type an importer registers is classified without a list of names. */
static int port_role(const bsim_model *m) {
  if (m->ncon > 0) return CON_PORT;
  if (m->nin == 0 && m->nout == 0) {
    if (m->nevout >= 1 && m->nevin == 0) return EV_IN;
    if (m->nevin >= 1 && m->nevout == 0) return EV_OUT;
  }
  return m->nin == 0 ? PORT_IN : PORT_OUT;
}

static int add_leaf(fl *f, const dg_block *b, const char *prefix, int instid,
                    const bsim_scope *scope) {
  const bsim_block_type *t = bsim_library_find(f->d->lib, b->type);
  if (!t) {
    bsim_error_set(f->err, BSIM_ERR_INPUT,
                   "%s:%d: block '%s': unknown block type '%s' (hint: run "
                   "`blocksim blocks` to list the known types; a plugin's "
                   "types need --blocks PLUGIN.so or <library path>)",
                   f->file, b->line, b->id, b->type);
    return -1;
  }
  if (grow((void **)&f->nodes, &f->capnodes, f->nnodes, sizeof *f->nodes))
    return dg_fl_nomem(f);
  node *n = &f->nodes[f->nnodes];
  memset(n, 0, sizeof *n);
  if (!(n->path = join(prefix, b->id))) return dg_fl_nomem(f);
  f->nnodes++;
  n->type = t;
  n->line = b->line;
  n->inst = instid;
  n->flat = -1;
  n->xlinks = b->xcos_links;
  n->nxlinks = b->nxcos_links;
  if (b->stored && !b->stored_is_fallback) return dg_fl_stored_leaf(f, b, n);
  int rc = dg_fl_define_leaf(f, b, n, t, scope);
  const bsim_value *values = n->values;
  if (rc == 0 && (t->flags & BSIM_TYPE_TAG))
    n->role = n->model.nin + n->model.nout > 0       ? TAG_DATA
              : n->model.nevin + n->model.nevout > 0 ? TAG_EVENT
                                                     : TAG_VIS;
  if (rc == 0 && (t->flags & BSIM_TYPE_PORT)) {
    n->role = port_role(&n->model);
    n->portno = port_number(t, values, &n->model);
    if (instid == 0) {
      bsim_error_set(f->err, BSIM_ERR_INPUT,
                     "%s:%d: block '%s' (%s): superblock port blocks belong "
                     "inside a <superblock>",
                     f->file, b->line, n->path, t->name);
      rc = -1;
    } else if (n->portno < 1) {
      bsim_error_set(f->err, BSIM_ERR_INPUT,
                     "%s:%d: block '%s' (%s): 'port' must be an integer >= 1",
                     f->file, b->line, n->path, t->name);
      rc = -1;
    }
  }
  return rc; /* the flat block keeps n->values (take_blocks) */
}

/* A leaf in vary mode: only its parameters are evaluated here; vary.c
 * compares them and runs the define step when they changed. Port blocks
 * are structure, which a run cannot change. */
static int vary_leaf(fl *f, const dg_block *b, const char *prefix,
                     const bsim_scope *scope) {
  const bsim_block_type *t = bsim_library_find(f->d->lib, b->type);
  if (!t || (t->flags & (BSIM_TYPE_PORT | BSIM_TYPE_TAG))) return 0;
  if (b->stored && !b->stored_is_fallback) {
    f->nleaves++; /* runs on its stored model: nothing to evaluate */
    return 0;
  }
  char *path = join(prefix, b->id);
  bsim_value *values =
      t->nparams ? calloc((size_t)t->nparams, sizeof *values) : NULL;
  int rc = !path || (t->nparams && !values) ? dg_fl_nomem(f) : 0;
  bsim_error scratch, *real = f->err;
  int fallback = dg_fl_can_fall_back(b);
  if (fallback) {
    bsim_error_clear(&scratch);
    f->err = &scratch;
  }
  if (rc == 0) rc = dg_fl_eval_params(f, b, path, t, scope, values);
  f->err = real;
  if (rc != 0 && fallback && scratch.status != BSIM_ERR_NOMEM) {
    f->nleaves++; /* it fell back on its stored model: stays as compiled */
    rc = 0;
    free(path);
    bsim_values_free(values, t->nparams);
    return 0;
  }
  if (rc != 0 && fallback) rc = dg_fl_nomem(f);
  if (rc == 0) {
    rc = dg_vary_leaf(f, path, b->line, t, values, scope);
    values = NULL;
  }
  bsim_values_free(values, t->nparams);
  free(path);
  return rc;
}

/* Ports of a superblock: numbered 1..n without gaps or repeats, separately
 * for data inputs, data outputs, event inputs and event outputs. */
static int collect_ports(fl *f, int instid, int first_node) {
  static const char *const whats[] = {
      "", "input", "output", "event input", "event output",
      "", "",      "",       "connector"};
  static const int roles[] = {PORT_IN, PORT_OUT, EV_IN, EV_OUT, CON_PORT};
  inst *in = &f->insts[instid];
  for (size_t r = 0; r < sizeof roles / sizeof roles[0]; r++) {
    int role = roles[r];
    int count = 0;
    for (int i = first_node; i < f->nnodes; i++)
      count += f->nodes[i].inst == instid && f->nodes[i].role == role;
    int *map = count ? malloc((size_t)count * sizeof *map) : NULL;
    if (count && !map) return dg_fl_nomem(f);
    for (int k = 0; k < count; k++)
      map[k] = -1;
    if (role == PORT_IN) {
      in->in_node = map;
      in->nin = count;
    } else if (role == PORT_OUT) {
      in->out_node = map;
      in->nout = count;
    } else if (role == EV_IN) {
      in->evin_node = map;
      in->nevin = count;
    } else if (role == CON_PORT) {
      in->con_node = map;
      in->ncon = count;
    } else {
      in->evout_node = map;
      in->nevout = count;
    }
    const char *what = whats[role];
    for (int i = first_node; i < f->nnodes; i++) {
      const node *n = &f->nodes[i];
      if (n->inst != instid || n->role != role) continue;
      if (n->portno > count) {
        bsim_error_set(f->err, BSIM_ERR_INPUT,
                       "%s:%d: block '%s': %s port %d of superblock '%s' "
                       "leaves a gap: its %d %s ports must be numbered 1 to %d",
                       f->file, n->line, n->path, what, n->portno, in->path,
                       count, what, count);
        return -1;
      }
      if (map[n->portno - 1] >= 0) {
        bsim_error_set(f->err, BSIM_ERR_INPUT,
                       "%s:%d: block '%s': %s port %d of superblock '%s' is "
                       "already defined by '%s' (line %d)",
                       f->file, n->line, n->path, what, n->portno, in->path,
                       f->nodes[map[n->portno - 1]].path,
                       f->nodes[map[n->portno - 1]].line);
        return -1;
      }
      map[n->portno - 1] = i;
    }
  }
  return 0;
}

/* ------------------------------------------------------------------ */
/* Walking the tree                                                    */
/* ------------------------------------------------------------------ */

/* Resolve one end of a link of this level to (node, port from 0). kind 0 is
 * a source (output), 1 a destination (input). */
static int link_end(fl *f, const dg_link *l, const dg_portref *r, int kind,
                    const int *where, const int *isinst, int bi) {
  const char *side = kind ? "input" : "output";
  if (isinst[bi]) {
    const inst *in = &f->insts[where[bi]];
    int ev = l->kind == DG_LINK_ACTIVATION;
    int n = ev ? (kind ? in->nevin : in->nevout) : (kind ? in->nin : in->nout);
    if (r->port > n) {
      static const char *const port_type[2][2] = {{"OUT_f", "IN_f"},
                                                  {"CLKOUTV_f", "CLKINV_f"}};
      bsim_error_set(f->err, BSIM_ERR_INPUT,
                     "%s:%d: %s %s '%s:%d': superblock '%s' has %d %s%s "
                     "port(s) (one %s block per port inside it)",
                     f->file, l->line, ev ? "activation" : "link",
                     kind ? "to" : "from", r->block, r->port, in->path, n,
                     ev ? "event " : "", side, port_type[ev][kind]);
      return -1;
    }
    const int *map = ev ? (kind ? in->evin_node : in->evout_node)
                        : (kind ? in->in_node : in->out_node);
    return map[r->port - 1];
  }
  const node *nd = &f->nodes[where[bi]];
  int n;
  if (l->kind == DG_LINK_ACTIVATION)
    n = kind ? nd->model.nevin : nd->model.nevout;
  else
    n = kind ? nd->model.nin : nd->model.nout;
  if (r->port > n) {
    bsim_error_set(
        f->err, BSIM_ERR_INPUT,
        "%s:%d: %s %s '%s:%d': block '%s' (%s) has %d %s%s port(s)", f->file,
        l->line, l->kind == DG_LINK_DATA ? "link" : "activation",
        kind ? "to" : "from", r->block, r->port, nd->path, nd->type->name, n,
        l->kind == DG_LINK_DATA ? "" : "event ", side);
    return -1;
  }
  return where[bi];
}

static int walk_links(fl *f, const dg_diagram *dg, const int *where,
                      const int *isinst) {
  int *idx = dg_block_index(dg);
  if (dg->nblocks && !idx) return dg_fl_nomem(f);
  int rc = 0;
  for (int i = 0; i < dg->nlinks && rc == 0; i++) {
    const dg_link *l = &dg->links[i];
    int a = dg_block_lookup(dg, idx, l->from.block, (size_t)-1);
    int b = dg_block_lookup(dg, idx, l->to.block, (size_t)-1);
    if (a < 0 || b < 0) {
      bsim_error_set(f->err, BSIM_ERR_INPUT,
                     "%s:%d: link to a missing block '%s'", f->file, l->line,
                     a < 0 ? l->from.block : l->to.block);
      rc = -1;
      break;
    }
    if (l->kind == DG_LINK_CONNECT) {
      rc = dg_fl_connect_link(f, l, where, isinst, a, b);
      continue;
    }
    int fn = link_end(f, l, &l->from, 0, where, isinst, a);
    int tn = fn < 0 ? -1 : link_end(f, l, &l->to, 1, where, isinst, b);
    if (fn < 0 || tn < 0) {
      rc = -1;
      break;
    }
    /* A superblock end goes to its port block's pass-through port 0. */
    rawlink rl = {fn, isinst[a] ? 0 : l->from.port - 1, tn,
                  isinst[b] ? 0 : l->to.port - 1, l->line};
    if (l->kind == DG_LINK_DATA) {
      if (grow((void **)&f->raw, &f->capraw, f->nraw, sizeof *f->raw))
        rc = dg_fl_nomem(f);
      else
        f->raw[f->nraw++] = rl;
    } else {
      if (grow((void **)&f->act, &f->capact, f->nact, sizeof *f->act))
        rc = dg_fl_nomem(f);
      else
        f->act[f->nact++] = rl;
    }
  }
  free(idx);
  return rc;
}

int dg_fl_walk(fl *f, const dg_diagram *dg, const bsim_scope *parent,
               const char *prefix, int instid) {
  bsim_scope *scope = bsim_scope_create(parent);
  int *where = dg->nblocks ? calloc((size_t)dg->nblocks, sizeof *where) : NULL;
  int *isinst =
      dg->nblocks ? calloc((size_t)dg->nblocks, sizeof *isinst) : NULL;
  int rc = 0;
  if (!scope || (dg->nblocks && (!where || !isinst))) rc = dg_fl_nomem(f);
  if (rc == 0 && !parent) bsim_scope_set_scilab(scope, f->d->scilab);
  if (rc == 0) rc = dg_fl_context(f, dg, scope, prefix);
  for (int i = 0; i < dg->nblocks && rc == 0; i++) {
    const dg_block *b = &dg->blocks[i];
    if (!b->sub && f->vary) {
      rc = vary_leaf(f, b, prefix, scope);
      continue;
    }
    if (!b->sub) {
      where[i] = f->nnodes;
      rc = add_leaf(f, b, prefix, instid, scope);
      continue;
    }
    if (f->vary) {
      char *path = join(prefix, b->id);
      rc = path ? dg_fl_walk(f, b->sub, scope, path, 0) : dg_fl_nomem(f);
      free(path);
      continue;
    }
    if (grow((void **)&f->insts, &f->capinsts, f->ninsts, sizeof *f->insts)) {
      rc = dg_fl_nomem(f);
      break;
    }
    int id = f->ninsts++;
    inst *in = &f->insts[id];
    memset(in, 0, sizeof *in);
    in->parent = instid;
    in->line = b->line;
    if (!(in->path = join(prefix, b->id))) {
      rc = dg_fl_nomem(f);
      break;
    }
    where[i] = id;
    isinst[i] = 1;
    int sub_first = f->nnodes;
    char *path = f->insts[id].path; /* insts may move while walking */
    rc = dg_fl_walk(f, b->sub, scope, path, id);
    if (rc == 0) rc = collect_ports(f, id, sub_first);
  }
  if (rc == 0 && !f->vary) rc = walk_links(f, dg, where, isinst);
  free(where);
  free(isinst);
  bsim_scope_free(scope);
  return rc;
}

/* ------------------------------------------------------------------ */
/* Entry points                                                        */
/* ------------------------------------------------------------------ */

static void fl_free(fl *f) {
  for (int i = 0; i < f->nnodes; i++) {
    free(f->nodes[i].path);
    if (f->nodes[i].flat < 0) { /* else the flat diagram owns them */
      bsim_model_clear(&f->nodes[i].model);
      bsim_values_free(f->nodes[i].values,
                       f->nodes[i].type ? f->nodes[i].type->nparams : 0);
    }
  }
  free(f->nodes);
  for (int i = 0; i < f->ninsts; i++) {
    free(f->insts[i].path);
    free(f->insts[i].in_node);
    free(f->insts[i].out_node);
    free(f->insts[i].evin_node);
    free(f->insts[i].evout_node);
    free(f->insts[i].con_node);
  }
  free(f->insts);
  free(f->con);
  free(f->raw);
  free(f->act);
  free(f->feed);
}

/* The define step's sizes, before inference changes them in place. */
static int *raw_sizes(const bsim_model *m) {
  int *r = malloc(sizeof(int) * (size_t)(2 * (m->nin + m->nout) + 2));
  if (!r) return NULL;
  int k = 0;
  for (int i = 0; i < m->nin; i++)
    r[k++] = m->in[i];
  for (int i = 0; i < m->nin; i++)
    r[k++] = m->in2 ? m->in2[i] : 1;
  for (int i = 0; i < m->nout; i++)
    r[k++] = m->out[i];
  for (int i = 0; i < m->nout; i++)
    r[k++] = m->out2 ? m->out2[i] : 1;
  r[k++] = m->ng;
  r[k] = m->nmode;
  return r;
}

/* Hand the leaf nodes (not the port blocks) to the flat diagram. Their
 * models change owner but stay readable through the nodes until the end. */
static int take_blocks(fl *f, bsim_flat *out) {
  int n = 0;
  for (int i = 0; i < f->nnodes; i++)
    n += f->nodes[i].role == LEAF;
  out->blocks = calloc((size_t)(n ? n : 1), sizeof *out->blocks);
  if (!out->blocks) return dg_fl_nomem(f);
  for (int i = 0; i < f->nnodes; i++) {
    node *nd = &f->nodes[i];
    if (nd->role != LEAF) continue;
    nd->flat = out->nblocks;
    bsim_flat_block *b = &out->blocks[out->nblocks++];
    b->type = nd->type;
    b->model = nd->model;
    b->line = nd->line;
    b->values = nd->values;
    b->stored = nd->stored;
    b->dep_t_stored = nd->dep_t_stored;
    if (!(b->raw_sizes = raw_sizes(&b->model))) return dg_fl_nomem(f);
    if (!(b->path = strdup(nd->path))) return dg_fl_nomem(f);
    b->run_type =
        b->model.sim ? bsim_library_find(f->d->lib, b->model.sim) : b->type;
    if (!b->run_type) {
      bsim_error_set(f->err, BSIM_ERR_INPUT,
                     "%s:%d: block '%s' (%s): its simulation function '%s' "
                     "is not in the block library (hint: load the plugin "
                     "that provides it)",
                     f->file, b->line, b->path, b->type->name, b->model.sim);
      return -1;
    }
  }
  return 0;
}

bsim_flat *bsim_flatten(const bsim_diagram *d, bsim_error *err) {
  if (!d || !d->root || !d->lib) {
    bsim_error_set(err, BSIM_ERR_INPUT, "flatten: no diagram or no library");
    return NULL;
  }
  fl f = {0};
  f.d = d;
  f.file = d->file ? d->file : "(diagram)";
  f.err = err;
  bsim_flat *out = calloc(1, sizeof *out);
  f.out = out;
  int *lines = NULL;
  int rc = out ? 0 : dg_fl_nomem(&f);
  if (rc == 0) {
    out->file = strdup(d->file ? d->file : "");
    if (!out->file) rc = dg_fl_nomem(&f);
    out->lib = bsim_library_retain(d->lib);
    out->settings = d->settings;
    out->settings.solver = NULL;
    out->settings.solver_fallback = NULL;
    /* the run takes solver parameters from the diagram itself; the flat
     * copy must not alias an array it does not own */
    out->settings.solver_params = NULL;
    out->settings.nsolver_params = 0;
    if (d->settings.solver &&
        !(out->settings.solver = strdup(d->settings.solver)))
      rc = dg_fl_nomem(&f);
  }
  /* Instance 0 is the top level, so that 0 means "not in a superblock". */
  if (rc == 0 && grow((void **)&f.insts, &f.capinsts, 0, sizeof *f.insts))
    rc = dg_fl_nomem(&f);
  if (rc == 0) {
    memset(&f.insts[0], 0, sizeof f.insts[0]);
    f.ninsts = 1;
    f.insts[0].path = strdup("");
    if (!f.insts[0].path) rc = dg_fl_nomem(&f);
  }
  if (rc == 0) rc = dg_fl_walk(&f, d->root, NULL, "", 0);
  if (rc == 0) rc = take_blocks(&f, out);
  if (rc == 0) out->ntree = out->nblocks;
  if (rc == 0) rc = dg_fl_join(&f, out, &lines);
  if (rc == 0) rc = dg_fl_connection_sets(&f, out);
  if (rc == 0) rc = dg_merge_sample_clocks(out, err);
  if (rc == 0) rc = dg_infer_sizes(out, lines, err);
  free(lines);
  fl_free(&f);
  if (rc) {
    bsim_flat_free(out);
    return NULL;
  }
  return out;
}

void bsim_flat_free(bsim_flat *f) {
  if (!f) return;
  for (int i = 0; i < f->nblocks; i++) {
    free(f->blocks[i].path);
    bsim_values_free(f->blocks[i].values,
                     f->blocks[i].type ? f->blocks[i].type->nparams : 0);
    free(f->blocks[i].raw_sizes);
    free(f->blocks[i].con_node);
    bsim_model_clear(&f->blocks[i].model);
  }
  free(f->blocks);
  free(f->nodes);
  free(f->links);
  free(f->activations);
  free(f->signals);
  free(f->native_signals);
  for (int i = 0; i < f->nobserves; i++)
    free(f->observes[i].name);
  free(f->observes);
  free(f->settings.solver);
  free(f->file);
  for (int i = 0; i < f->nnotes; i++)
    free(f->notes[i]);
  free(f->notes);
  bsim_library_release(f->lib);
  free(f);
}
