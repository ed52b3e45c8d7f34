/*
 * Parameters of one run of a diagram compiled once: a sweep's member
 * changes a few parameters, and only the blocks whose evaluated parameters
 * change get their define step run again. The diagram tree is shared by
 * every member (and every thread), so overrides are never written into it:
 * the flattener walks it in vary mode, taking overridden expressions from
 * here, and hands each leaf's evaluated parameters to dg_vary_leaf. A new
 * model may bring other data (rpar, ipar, opar, x0, z0, initial firings)
 * but not another structure than the plan was compiled for; a structural
 * change is refused, and said so, so that the caller can compile that
 * member on its own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/define.h"
#include "diagrams/dg_util.h"
#include "diagrams/flatten_int.h"

typedef struct vitem {
  const dg_diagram *level; /* a context variable of this level, or */
  const dg_block *block;   /* a parameter of this block */
  const char *name;
  const char *expr;
} vitem;

struct dg_vary {
  const bsim_flat *base;
  vitem *items;
  int n;
  bsim_model **models; /* base->nblocks: the rebuilt models */
  int *structural;
};

/* Later overrides of the same target win, as repeated -p do. */
static const char *lookup(const struct dg_vary *v, const dg_diagram *dg,
                          const dg_block *b, const char *name) {
  for (int i = v->n - 1; i >= 0; i--)
    if (v->items[i].level == dg && v->items[i].block == b &&
        strcmp(v->items[i].name, name) == 0)
      return v->items[i].expr;
  return NULL;
}

const char *dg_vary_context(const struct dg_vary *v, const dg_diagram *dg,
                            const char *name) {
  return lookup(v, dg, NULL, name);
}

const char *dg_vary_param(const struct dg_vary *v, const dg_block *b,
                          const char *name) {
  return lookup(v, NULL, b, name);
}

static int defines(const dg_diagram *dg, const char *name) {
  for (int i = 0; i < dg->ncontext; i++)
    if (strcmp(dg->context[i].name, name) == 0) return 1;
  return 0;
}

/* New variables come after the level's own, in the order they were first
 * named, as bsim_diagram_override appends them. */
const char *dg_vary_extra(const struct dg_vary *v, const dg_diagram *dg, int k,
                          const char **expr) {
  for (int i = 0; i < v->n; i++) {
    const vitem *it = &v->items[i];
    if (it->level != dg || defines(dg, it->name)) continue;
    int first = 1;
    for (int j = 0; j < i && first; j++)
      first =
          !(v->items[j].level == dg && strcmp(v->items[j].name, it->name) == 0);
    if (!first || k-- > 0) continue;
    *expr = dg_vary_context(v, dg, it->name);
    return it->name;
  }
  return NULL;
}

static int values_equal(const bsim_value *a, const bsim_value *b, int n) {
  for (int i = 0; i < n; i++) {
    if ((a[i].str == NULL) != (b[i].str == NULL) ||
        (a[i].str && strcmp(a[i].str, b[i].str) != 0))
      return 0;
    if (a[i].rows != b[i].rows || a[i].cols != b[i].cols) return 0;
    size_t len = a[i].rows > 0 && a[i].cols > 0
                     ? (size_t)a[i].rows * (size_t)a[i].cols
                     : 0;
    if (len && (!a[i].v || !b[i].v)) return a[i].v == b[i].v;
    /* bitwise: a run must be exactly the one a separate compile gives */
    if (len && memcmp(a[i].v, b[i].v, len * sizeof(double)) != 0) return 0;
  }
  return 1;
}

static int size_at(const int *a, int i) {
  return a ? a[i] : 1;
}

/* "" when m (fresh from the define step) has the structure of the compiled
 * block, else what differs, into why. */
static void compare_structure(const bsim_flat_block *fb, const bsim_model *m,
                              char *why, size_t len) {
  const bsim_model *b = &fb->model;
  const int *raw = fb->raw_sizes;
  why[0] = '\0';
  if (m->nin != b->nin || m->nout != b->nout) {
    snprintf(why, len,
             "its ports (%d inputs, %d outputs; compiled with %d, %d)", m->nin,
             m->nout, b->nin, b->nout);
    return;
  }
  int nin = b->nin, nout = b->nout;
  for (int i = 0; i < nin; i++)
    if (m->in[i] != raw[i] || size_at(m->in2, i) != raw[nin + i] ||
        m->dep_u[i] != b->dep_u[i]) {
      snprintf(why, len, "the size or feedthrough of input %d", i + 1);
      return;
    }
  for (int i = 0; i < nout; i++)
    if (m->out[i] != raw[2 * nin + i] ||
        size_at(m->out2, i) != raw[2 * nin + nout + i]) {
      snprintf(why, len, "the size of output %d", i + 1);
      return;
    }
  const int *counts = raw + 2 * (nin + nout);
  const struct {
    const char *what;
    long now, was;
  } cmp[] = {
      {"its number of continuous states", m->nx, b->nx},
      {"its number of zero-crossing surfaces", m->ng, counts[0]},
      {"its number of modes", m->nmode, counts[1]},
      {"its number of event inputs", m->nevin, b->nevin},
      {"its number of event outputs", m->nevout, b->nevout},
      {"its time dependence (dep_t)", m->dep_t, b->dep_t},
      {"its implicit form", m->implicit, b->implicit},
      {"its surfaces' direction", m->zcdir, b->zcdir},
      {"its analytic Jacobian", m->no_jacobian, b->no_jacobian},
  };
  for (size_t k = 0; k < sizeof cmp / sizeof cmp[0]; k++)
    if (cmp[k].now != cmp[k].was) {
      snprintf(why, len, "%s (%ld, compiled with %ld)", cmp[k].what, cmp[k].now,
               cmp[k].was);
      return;
    }
  if ((m->sim == NULL) != (b->sim == NULL) ||
      (m->sim && strcmp(m->sim, b->sim) != 0)) {
    snprintf(why, len, "its simulation function (%s, compiled with %s)",
             m->sim ? m->sim : fb->type->sim_name,
             b->sim ? b->sim : fb->type->sim_name);
    return;
  }
  if ((m->zcdirs == NULL) != (b->zcdirs == NULL) ||
      (m->zcdirs &&
       memcmp(m->zcdirs, b->zcdirs, sizeof(int) * (size_t)b->ng) != 0))
    snprintf(why, len, "its surfaces' directions");
}

/* Sizes inference gave the compiled block; the same raw sizes give the
 * same inferred ones, so they are copied rather than inferred again. */
static void copy_sizes(bsim_model *m, const bsim_model *b) {
  for (int i = 0; i < b->nin; i++) {
    m->in[i] = b->in[i];
    m->in2[i] = b->in2[i];
  }
  for (int i = 0; i < b->nout; i++) {
    m->out[i] = b->out[i];
    m->out2[i] = b->out2[i];
  }
  m->ng = b->ng;
  m->nmode = b->nmode;
}

int dg_vary_leaf(fl *f, const char *path, int line, const bsim_block_type *t,
                 bsim_value *values, const bsim_scope *scope) {
  struct dg_vary *v = f->vary;
  int idx = f->nleaves++;
  const bsim_flat *base = v->base;
  int rc = -1;
  if (idx >= base->nblocks || base->blocks[idx].type != t ||
      strcmp(base->blocks[idx].path, path) != 0) {
    bsim_error_set(f->err, BSIM_ERR_INPUT,
                   "%s: block '%s' is not where the compiled diagram has it "
                   "(hint: derive a run from the diagram its sim was "
                   "created from, unchanged)",
                   f->file, path);
    goto done;
  }
  const bsim_flat_block *fb = &base->blocks[idx];
  /* a block running on a model stored in an Xcos file has no evaluated
   * parameters to compare: it stays as compiled */
  if (!fb->values && t->nparams > 0) {
    rc = 0;
    goto done;
  }
  if (!(t->flags & BSIM_TYPE_READS_CONTEXT) &&
      values_equal(fb->values, values, t->nparams)) {
    rc = 0;
    goto done;
  }
  bsim_model *m = calloc(1, sizeof *m);
  if (!m) {
    rc = dg_fl_nomem(f);
    goto done;
  }
  bsim_define_ctx ctx = {path, f->file, line, t, values, f->err, scope};
  if (bsim_define_run(&ctx, m) != 0) {
    free(m);
    goto done;
  }
  if (fb->dep_t_stored) m->dep_t = 1; /* as flattening kept it */
  char why[256];
  compare_structure(fb, m, why, sizeof why);
  if (why[0]) {
    *v->structural = 1;
    bsim_error_set(f->err, BSIM_ERR_INPUT,
                   "%s:%d: block '%s' (%s): the new parameter values change "
                   "%s, which a run of the compiled diagram cannot change "
                   "(hint: compile this variant on its own, as `blocksim "
                   "run -p` does)",
                   f->file, line, path, t->name, why);
    bsim_model_clear(m);
    free(m);
    goto done;
  }
  copy_sizes(m, &fb->model);
  v->models[idx] = m;
  rc = 0;
done:
  bsim_values_free(values, t->nparams);
  return rc;
}

/* Where a target points, and whether a run may override it: -1 with err
 * set when it names no block or level, an unknown parameter, or (1) a
 * superblock port, which is structure. */
static int target(const bsim_diagram *d, const char *tgt, dg_diagram **level,
                  dg_block **block, const char **name, bsim_error *err) {
  if (dg_override_resolve(d, tgt, level, block, name, err)) return -1;
  if (!*block) return 0; /* a context variable: a new one is allowed */
  const bsim_block_type *t = bsim_library_find(d->lib, (*block)->type);
  if (t && (t->flags & BSIM_TYPE_PORT)) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "override '%s': '%s' is a superblock port, part of the "
                   "structure a run cannot change",
                   tgt, (*block)->id);
    return 1;
  }
  if (t && dg_param_find(t, *name) < 0) {
    char names[512];
    dg_param_list(t, names, sizeof names);
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "override '%s': unknown parameter '%s' for type %s (its "
                   "parameters: %s)",
                   tgt, *name, t->name, names);
    return -1;
  }
  return 0;
}

int bsim_diagram_target_check(const bsim_diagram *d, const char *tgt,
                              bsim_error *err) {
  dg_diagram *level;
  dg_block *block;
  const char *name;
  return target(d, tgt, &level, &block, &name, err) ? -1 : 0;
}

/* Resolve every target without touching the tree. */
static int resolve(struct dg_vary *v, const bsim_diagram *d,
                   const char *const *targets, const char *const *values,
                   bsim_error *err) {
  for (int i = 0; i < v->n; i++) {
    vitem *it = &v->items[i];
    dg_diagram *level;
    dg_block *block;
    if (!values[i]) {
      bsim_error_set(err, BSIM_ERR_INPUT, "override '%s': no value",
                     targets[i] ? targets[i] : "");
      return -1;
    }
    int rc = target(d, targets[i], &level, &block, &it->name, err);
    if (rc) {
      if (rc > 0) *v->structural = 1;
      return -1;
    }
    it->level = level;
    it->block = block;
    it->expr = values[i];
  }
  return 0;
}

int bsim_flat_vary(const bsim_diagram *d, const bsim_flat *base,
                   const char *const *targets, const char *const *values, int n,
                   bsim_model **models, int *structural, bsim_error *err) {
  struct dg_vary v = {base, NULL, n, models, structural};
  *structural = 0;
  fl f = {0};
  f.d = d;
  f.file = d && d->file ? d->file : "(diagram)";
  f.err = err;
  f.vary = &v;
  int rc = -1;
  if (!d || !d->root || !d->lib) {
    bsim_error_set(err, BSIM_ERR_INPUT, "overrides: no diagram");
    return -1;
  }
  v.items = calloc((size_t)(n > 0 ? n : 1), sizeof *v.items);
  if (!v.items) return dg_fl_nomem(&f);
  if (resolve(&v, d, targets, values, err) == 0 &&
      dg_fl_walk(&f, d->root, NULL, "", 0) == 0) {
    if (f.nleaves == base->ntree)
      rc = dg_vary_sample_clocks(base, models, structural, err);
    else
      bsim_error_set(err, BSIM_ERR_INPUT,
                     "%s: the diagram has %d blocks, the compiled one %d "
                     "(hint: derive a run from the diagram its sim was "
                     "created from, unchanged)",
                     f.file, f.nleaves, base->ntree);
  }
  free(v.items);
  if (rc != 0)
    for (int i = 0; i < base->nblocks; i++)
      if (models[i]) {
        bsim_model_clear(models[i]);
        free(models[i]);
        models[i] = NULL;
      }
  return rc;
}
