/*
 * Sample clocks merged, the last step of joining: as Xcos's compiler does
 * (its s_clk2), every SampleCLK of a diagram, wherever it sits, gives way
 * to one M_freq clock appended to the flat blocks. Its event output k
 * fires when the clocks of the bits of k are due together, and activates
 * what each of those clocks activated; every output loops back to its own
 * input. Clocks due at one date therefore give one activation, in which a
 * block fed by two of them sees both event bits. The SampleCLK blocks stay
 * in the flat list, inert (no firing, no activation), so that the flat
 * blocks keep the walk's order.
 */
#include <stdlib.h>
#include <string.h>

#include "diagrams/define.h"
#include "diagrams/flatten_int.h"

static int is_sample_clock(const bsim_flat_block *b) {
  return (b->type->flags & BSIM_TYPE_SAMPLE_CLOCK) && b->model.nrpar >= 2 &&
         b->model.nevout >= 1;
}

/* The clock class (distinct period and offset, in order of appearance)
 * of every sample clock, as M_freq numbers its bits. */
static int classes(const bsim_flat *out, int *cls, int *ncls) {
  int nc = 0;
  for (int i = 0; i < out->nblocks; i++) {
    cls[i] = -1;
    if (!is_sample_clock(&out->blocks[i])) continue;
    const double *r = out->blocks[i].model.rpar;
    for (int j = 0; j < i && cls[i] < 0; j++) {
      if (cls[j] < 0) continue;
      const double *q = out->blocks[j].model.rpar;
      if (q[0] == r[0] && q[1] == r[1]) cls[i] = cls[j];
    }
    if (cls[i] < 0) cls[i] = nc++;
  }
  *ncls = nc;
  return 0;
}

/* The M_freq block over all sample clocks' periods and offsets. */
static int clock_block(const bsim_flat *out, int first, int nclocks,
                       bsim_flat_block *mf, bsim_error *err) {
  const bsim_block_type *t = bsim_library_find(out->lib, "M_freq");
  if (!t) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "%s: block '%s' (SampleCLK) needs the M_freq type to merge "
                   "the sample clocks, and the library lacks it",
                   out->file, out->blocks[first].path);
    return -1;
  }
  bsim_value *values = calloc((size_t)t->nparams, sizeof *values);
  double *f = calloc((size_t)nclocks, sizeof *f),
         *o = calloc((size_t)nclocks, sizeof *o);
  mf->raw_sizes = calloc(2, sizeof *mf->raw_sizes); /* ng, nmode */
  mf->path = strdup(":sample-clocks");
  if (!values || !f || !o || !mf->raw_sizes || !mf->path) {
    free(f);
    free(o);
    bsim_values_free(values, t->nparams);
    bsim_error_set(err, BSIM_ERR_NOMEM, "%s: out of memory", out->file);
    return -1;
  }
  int k = 0;
  for (int i = 0; i < out->nblocks - 1; i++) /* not mf itself, the last */
    if (is_sample_clock(&out->blocks[i])) {
      f[k] = out->blocks[i].model.rpar[0];
      o[k++] = out->blocks[i].model.rpar[1];
    }
  /* the parameters in M_freq's spec order: sample-times, offsets */
  values[0] = (bsim_value){nclocks, 1, f, NULL};
  values[1] = (bsim_value){nclocks, 1, o, NULL};
  mf->type = mf->run_type = t;
  mf->values = values;
  mf->line = out->blocks[first].line;
  bsim_define_ctx ctx = {out->blocks[first].path,
                         out->file,
                         out->blocks[first].line,
                         t,
                         values,
                         err};
  return bsim_define_run(&ctx, &mf->model);
}

/* The activations with those of the sample clocks moved to the clock's
 * outputs (output k for every k holding the clock's bit) and the clock's
 * loops added. */
static int rewire(bsim_flat *out, const int *cls, int ncls, int mf) {
  int nout = (1 << ncls) - 1, n = 0;
  size_t cap = (size_t)out->nactivations * (size_t)nout + (size_t)nout + 1;
  bsim_flat_link *a = calloc(cap, sizeof *a);
  if (!a) return -1;
  for (int i = 0; i < out->nactivations; i++) {
    bsim_flat_link l = out->activations[i];
    if (cls[l.from_block] < 0) {
      a[n++] = l;
      continue;
    }
    for (int k = 1; k <= nout; k++) {
      if (!(k & (1 << cls[l.from_block]))) continue;
      bsim_flat_link m = {mf, k - 1, l.to_block, l.to_port};
      int dup = 0;
      for (int j = 0; j < n && !dup; j++)
        dup = memcmp(&a[j], &m, sizeof m) == 0;
      if (!dup) a[n++] = m;
    }
  }
  for (int k = 0; k < nout; k++)
    a[n++] = (bsim_flat_link){mf, k, mf, 0};
  free(out->activations);
  out->activations = a;
  out->nactivations = n;
  return 0;
}

int dg_merge_sample_clocks(bsim_flat *out, bsim_error *err) {
  int first = -1, nclocks = 0, ncls = 0;
  for (int i = 0; i < out->nblocks; i++)
    if (is_sample_clock(&out->blocks[i])) {
      if (first < 0) first = i;
      nclocks++;
    }
  if (first < 0) return 0;
  int *cls = calloc((size_t)out->nblocks + 1, sizeof *cls);
  bsim_flat_block *nb =
      realloc(out->blocks, ((size_t)out->nblocks + 1) * sizeof *nb);
  if (!cls || !nb) {
    free(cls);
    if (nb) out->blocks = nb;
    bsim_error_set(err, BSIM_ERR_NOMEM, "%s: out of memory", out->file);
    return -1;
  }
  out->blocks = nb;
  int mf = out->nblocks;
  bsim_flat_block *b = &out->blocks[mf];
  memset(b, 0, sizeof *b);
  classes(out, cls, &ncls);
  cls[mf] = -1;
  /* counted as a block from here on, so that the flat diagram frees it
   * whatever happens next */
  out->nblocks++;
  int rc = clock_block(out, first, nclocks, b, err);
  if (rc == 0 && rewire(out, cls, ncls, mf) != 0) {
    bsim_error_set(err, BSIM_ERR_NOMEM, "%s: out of memory", out->file);
    rc = -1;
  }
  free(cls);
  return rc;
}

/* The sample clocks' data as this run has them. */
static const bsim_model *run_model(const bsim_flat *base,
                                   bsim_model *const *models, int i) {
  return models[i] ? models[i] : &base->blocks[i].model;
}

int dg_vary_sample_clocks(const bsim_flat *base, bsim_model **models,
                          int *structural, bsim_error *err) {
  int mf = base->ntree, changed = 0, n = 0;
  if (mf >= base->nblocks) return 0; /* no merged clock */
  for (int i = 0; i < mf; i++)
    if (is_sample_clock(&base->blocks[i])) {
      n++;
      changed |= models[i] != NULL;
    }
  if (!changed) return 0;
  /* A flat diagram as this run sees it: the same blocks, the clocks'
   * periods and offsets from this run's models. */
  bsim_flat view = *base;
  bsim_flat_block *blocks = calloc((size_t)base->nblocks, sizeof *blocks);
  int *cls = calloc((size_t)base->nblocks, sizeof *cls),
      *cls0 = calloc((size_t)base->nblocks, sizeof *cls0);
  bsim_model *m = calloc(1, sizeof *m);
  int rc = -1, first = -1, nc = 0, nc0 = 0;
  if (!blocks || !cls || !cls0 || !m) {
    bsim_error_set(err, BSIM_ERR_NOMEM, "%s: out of memory", base->file);
    goto done;
  }
  memcpy(blocks, base->blocks, (size_t)base->nblocks * sizeof *blocks);
  for (int i = 0; i < mf; i++) {
    blocks[i].model = *run_model(base, models, i);
    if (first < 0 && is_sample_clock(&blocks[i])) first = i;
  }
  view.blocks = blocks;
  view.nblocks = mf;
  classes(&view, cls, &nc);
  classes(base, cls0, &nc0);
  if (nc != nc0 || memcmp(cls, cls0, sizeof *cls * (size_t)mf) != 0) {
    *structural = 1;
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "%s: block '%s' (SampleCLK): the new sample times or "
                   "offsets group the diagram's sample clocks differently, "
                   "which changes the merged clock's event outputs (hint: "
                   "compile this variant on its own, as `blocksim run -p` "
                   "does)",
                   base->file, base->blocks[first].path);
    goto done;
  }
  /* clock_block builds into a flat block one past the clocks */
  view.nblocks = mf + 1;
  bsim_flat_block *tmp = realloc(blocks, (size_t)(mf + 1) * sizeof *blocks);
  if (!tmp) {
    bsim_error_set(err, BSIM_ERR_NOMEM, "%s: out of memory", base->file);
    goto done;
  }
  blocks = tmp;
  view.blocks = blocks;
  memset(&blocks[mf], 0, sizeof blocks[mf]);
  if (clock_block(&view, first, n, &blocks[mf], err) == 0) {
    *m = blocks[mf].model;
    memset(&blocks[mf].model, 0, sizeof blocks[mf].model);
    models[mf] = m;
    m = NULL;
    rc = 0;
  }
  free(blocks[mf].path);
  free(blocks[mf].raw_sizes);
  if (blocks[mf].type)
    bsim_values_free(blocks[mf].values, blocks[mf].type->nparams);
  bsim_model_clear(&blocks[mf].model);
done:
  free(blocks);
  free(cls);
  free(cls0);
  free(m);
  return rc;
}
