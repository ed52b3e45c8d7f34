/*
 * The state of one run of a compiled plan: the blocks' views with their
 * pointers, output buffers, torn-signal copies, surfaces, discrete states
 * and modes. Kept apart from the plan so that one plan serves many runs at
 * once (a sweep in several threads); everything here is carved out of a
 * single allocation, because a sweep creates one run per member.
 */
#include <stdalign.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "scheduler/index.h"
#include "scheduler/plan.h"

/* Bump allocation over one block: a first pass with base NULL only adds up
 * the sizes, the second hands out pieces. */
typedef struct arena {
  char *base;
  size_t used;
} arena;

static void *take(arena *a, size_t n, size_t size) {
  size_t align = alignof(max_align_t);
  a->used = (a->used + align - 1) / align * align;
  void *p = a->base && n ? a->base + a->used : NULL;
  a->used += n * size;
  return p;
}

/* The model whose data block i uses in this run. */
static const bsim_model *data_model(const bsim_plan *p,
                                    const bsim_model *const *models, int i) {
  return models && models[i] ? models[i] : &p->blocks[i].fb->model;
}

/* Lay out (or, with a->base NULL, measure) every array of the run. */
static void carve(bsim_run *x, const bsim_model *const *models, arena *a) {
  const bsim_plan *p = x->plan;
  x->blocks = take(a, (size_t)p->nblocks, sizeof(rt_block));
  x->outbufs = take(a, p->noutbuf, sizeof(double));
  x->w = take(a, (size_t)p->nw, sizeof(double));
  x->gbuf = take(a, (size_t)p->ng, sizeof(double));
  x->jroot = take(a, (size_t)p->ng, sizeof(int));
  x->ixbuf = p->ix ? take(a, (size_t)p->ix->ny0 * 5, sizeof(double)) : NULL;
  x->ixjac = p->ix && p->jac ? take(a, 2 * (size_t)p->ix->colptr0[p->ix->ny0],
                                    sizeof(double))
                             : NULL;
  size_t nac = p->ncomp ? (size_t)(p->acausal_off + p->na) : 0;
  x->acy = take(a, nac, sizeof(double));
  x->acyp = take(a, nac, sizeof(double));
  x->acres = take(a, nac, sizeof(double));
  for (int i = 0; i < p->nblocks; i++) {
    const bsim_model *s = &p->blocks[i].fb->model; /* structure */
    const bsim_model *m = data_model(p, models, i);
    int *sizes =
        take(a, (size_t)(2 * (s->nin + s->nout + m->nopar)), sizeof(int));
    double **inptr = take(a, (size_t)s->nin, sizeof(double *));
    double **outptr = take(a, (size_t)s->nout, sizeof(double *));
    double **oparptr = take(a, (size_t)m->nopar, sizeof(double *));
    double *z = take(a, (size_t)m->nz, sizeof(double));
    int *mode = take(a, (size_t)p->blocks[i].nmode, sizeof(int));
    double *evout = take(a, (size_t)s->nevout, sizeof(double));
    const double **probe = take(a, (size_t)s->nprobes, sizeof(double *));
    const double **pot = take(a, (size_t)s->ncon, sizeof(double *));
    const double **flow = take(a, (size_t)s->ncon, sizeof(double *));
    if (!a->base) continue;
    rt_block *rb = &x->blocks[i];
    rb->m = m;
    /* a block without ports has no sizes: NULL + 0 is undefined in C */
    rb->b.insz = sizes;
    rb->b.outsz = sizes ? sizes + 2 * s->nin : NULL;
    rb->b.oparsz = sizes ? sizes + 2 * (s->nin + s->nout) : NULL;
    rb->b.inptr = inptr;
    rb->b.outptr = outptr;
    rb->b.oparptr = oparptr;
    rb->b.z = z;
    rb->b.mode = mode;
    rb->b.evout = evout;
    for (int k = 0; k < s->nprobes; k++)
      probe[k] = x->outbufs + p->blocks[i].probe_off[k];
    rb->b.probe = probe;
    rb->b.nprobe = s->nprobes;
    rb->b.pot = pot;
    rb->b.flow = flow;
  }
}

/* Sizes, parameters and pointers of one block's view. */
static void fill_view(bsim_run *x, int i) {
  const bsim_plan *p = x->plan;
  const plan_block *pb = &p->blocks[i];
  const bsim_model *s = &pb->fb->model, *m = x->blocks[i].m;
  rt_block *rb = &x->blocks[i];
  bsim_block *b = &rb->b;
  int *insz = (int *)b->insz, *outsz = (int *)b->outsz,
      *oparsz = (int *)b->oparsz;
  rb->fn = pb->fn;
  rb->fb = pb->fb;
  b->path = pb->fb->path;
  b->ctx_ = &x->errs;
  b->nin = s->nin;
  b->nout = s->nout;
  b->nopar = m->nopar;
  for (int k = 0; k < s->nin; k++) {
    insz[k] = s->in[k];
    insz[s->nin + k] = s->in2[k];
  }
  for (int k = 0; k < s->nout; k++) {
    outsz[k] = s->out[k];
    outsz[s->nout + k] = s->out2[k];
    b->outptr[k] = x->outbufs + p->outoff[p->portbase[i] + k];
  }
  for (int k = 0; k < m->nopar; k++) {
    oparsz[k] = m->opar[k].rows;
    oparsz[m->nopar + k] = m->opar[k].cols;
    b->oparptr[k] = m->opar[k].v;
  }
  b->nx = s->nx;
  b->ncon = s->ncon;
  b->nres = s->ncon > 0 ? (s->nres > 0 ? s->nres : s->nx) : 0;
  b->nz = m->nz; /* z0 is copied in at the start of every run (run.c) */
  b->nrpar = m->nrpar;
  b->rpar = m->rpar;
  b->nipar = m->nipar;
  b->ipar = m->ipar;
  b->ng = pb->ng; /* watched ones only (compile.c) */
  b->nmode = pb->nmode;
  b->nevout = s->nevout;
  if (pb->goff >= 0) {
    b->g = x->gbuf + pb->goff;
    b->jroot = x->jroot + pb->goff;
  }
  b->work = &rb->work;
  b->script = m->script;
}

/* Inputs point at their source's output, or at the torn copy w. */
static void connect_inputs(bsim_run *x) {
  const bsim_plan *p = x->plan;
  for (int b = 0; b < p->nblocks; b++)
    for (int u = 0; u < x->blocks[b].b.nin; u++) {
      int sb = p->insrc_block[p->inbase[b] + u];
      int sp = p->insrc_port[p->inbase[b] + u];
      if (sb < 0) continue; /* the flattener refuses unconnected inputs */
      int t = p->torn_of[p->portbase[sb] + sp];
      x->blocks[b].b.inptr[u] = t >= 0 ? x->w + (p->torn[t].yoff - p->nx)
                                       : x->blocks[sb].b.outptr[sp];
    }
}

bsim_run *bsim_run_create(const bsim_plan *p, const bsim_model *const *models) {
  bsim_run *x = calloc(1, sizeof *x);
  if (!x) return NULL;
  x->plan = p;
  arena a = {NULL, 0};
  carve(x, models, &a);
  x->mem = calloc(1, a.used ? a.used : 1);
  if (!x->mem) {
    free(x);
    return NULL;
  }
  a = (arena){x->mem, 0};
  carve(x, models, &a);
  for (int i = 0; i < p->nblocks; i++)
    fill_view(x, i);
  connect_inputs(x);
  if (p->ncomp) bsim_run_acausal_views(x);
  if (p->jac && bsim_run_jacobian_alloc(x) != 0) {
    bsim_run_free(x);
    return NULL;
  }
  return x;
}

void bsim_run_free(bsim_run *x) {
  if (!x) return;
  bsim_run_jacobian_free(x);
  bsim_run_kernel_free(x);
  for (int i = 0; x->blocks && i < x->plan->nblocks; i++) {
    free(x->blocks[i].rec);
    free(x->blocks[i].rec_names);
  }
  bsim_run_clear_messages(&x->errs);
  free(x->mem);
  free(x);
}
