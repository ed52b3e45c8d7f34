/*
 * The analytic Jacobian's plan (jacobian.c evaluates it): which blocks
 * take part, the unknowns each block's outputs and state equations depend
 * on (the sets sparsity.c computes), where each block's matrix and rows
 * live in a run's buffers, and the groups of unknowns for block-Jacobi
 * preconditioning, which follow the same block structure.
 */
#include <stdlib.h>
#include <string.h>

#include "scheduler/jacobian_int.h"

/* Beyond this many stored derivative entries the bookkeeping is not worth
 * it: finite differences serve such dense systems as well. */
static const size_t jac_cap = (size_t)1 << 26;

void bsim_plan_jacobian_free(bsim_plan *p) {
  free(p->groups);
  p->groups = NULL;
  struct bsim_plan_jac *J = p->jac;
  if (!J) return;
  for (int b = 0; J->jb && b < p->nblocks; b++) {
    free(J->jb[b].cols);
    free(J->jb[b].rcols);
    free(J->jb[b].dcols);
  }
  free(J->jb);
  free(J);
  p->jac = NULL;
}

/* Can the block give flag 10? Its run-time type (model.sim may pick
 * another function than the interface's) decides, unless the instance
 * opted out; implicit blocks other than acausal components (type-4
 * implicit blocks) do not describe their residuals that way. */
static int supports(const plan_block *pb) {
  const bsim_model *m = &pb->fb->model;
  const bsim_block_type *t = pb->fb->run_type;
  /* A source of time alone (no inputs, states, connectors or probes:
   * STEP, CURV_f, a sawtooth) has an empty matrix, whatever its type
   * implements: nothing of y reaches its outputs. */
  if (!m->implicit && m->nx == 0 && m->ncon == 0 && m->nprobes == 0 &&
      nin_elems(m) == 0)
    return 1;
  return t && (t->flags & BSIM_TYPE_JACOBIAN) && !m->no_jacobian &&
         !(m->implicit && m->nx > 0 && m->ncon == 0);
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* A set under construction: pos marks members (-1 elsewhere), scratch
 * lists them. */
typedef struct collector {
  int *pos, *scratch;
} collector;

/* Add the unknowns input k of block b depends on to the set. */
static void collect_input(const bsim_plan *p, collector *cl, int b, int k,
                          int *n) {
  const struct bsim_plan_jac *J = p->jac;
  int sb = p->insrc_block[p->inbase[b] + k];
  if (sb < 0) return;
  int sp = p->insrc_port[p->inbase[b] + k];
  int t = p->torn_of[p->portbase[sb] + sp];
  const int *c = NULL;
  int len = 0, first = 0;
  if (t >= 0) {
    first = p->torn[t].yoff;
    len = p->torn[t].n;
  } else {
    c = J->jb[sb].cols;
    len = J->jb[sb].ncols;
  }
  for (int i = 0; i < len; i++) {
    int j = c ? c[i] : first + i;
    if (cl->pos[j] < 0) {
      cl->pos[j] = 1;
      cl->scratch[(*n)++] = j;
    }
  }
}

/* The set of block b's outputs (rows = 0) or state equations (rows = 1):
 * own states, then inputs (direct-feedthrough ones only for outputs). */
static int build_set(const bsim_plan *p, collector *cl, int b, int rows,
                     int **out, int *len, size_t *total) {
  const plan_block *pb = &p->blocks[b];
  const bsim_model *m = &pb->fb->model;
  int n = 0, comp = is_comp(p, b);
  int ndirect = comp ? 2 * m->nx + bsim_model_ncv(m) : m->nx;
  for (int c = 0; c < ndirect; c++) {
    int j = comp ? p->jac->jb[b].dcols[c] : pb->xoff + c;
    if (j < 0 || cl->pos[j] >= 0) continue;
    cl->pos[j] = 1;
    cl->scratch[n++] = j;
  }
  for (int k = 0; k < m->nin; k++)
    if (rows || m->dep_u[k]) collect_input(p, cl, b, k, &n);
  for (int i = 0; i < n; i++)
    cl->pos[cl->scratch[i]] = -1;
  qsort(cl->scratch, (size_t)n, sizeof(int), cmp_int);
  *len = n;
  *total += (size_t)n * (size_t)(rows ? (comp ? bsim_model_nres(m) : m->nx)
                                      : nout_elems(m));
  if (*total > jac_cap) return 1;
  *out = malloc(sizeof(int) * (size_t)(n ? n : 1));
  if (!*out) return -1;
  memcpy(*out, cl->scratch, sizeof(int) * (size_t)n);
  return 0;
}

static int make_groups(bsim_plan *p) {
  p->groups = malloc(sizeof(int) * (size_t)p->ny);
  if (!p->groups) return -1;
  int g = 0;
  for (int i = 0; i < p->ny; i++)
    p->groups[i] = -1;
  for (int b = 0; b < p->nblocks; b++) /* layout: states in block order */
    if (p->blocks[b].xoff >= 0) {
      for (int s = 0; s < model_of(p, b)->nx; s++)
        p->groups[p->blocks[b].xoff + s] = g;
      g++;
    }
  for (int t = 0; t < p->ntorn; t++, g++)
    for (int i = 0; i < p->torn[t].n; i++)
      p->groups[p->torn[t].yoff + i] = g;
  if (p->dummy) p->groups[0] = g++;
  /* acausal node and connector unknowns: one group each */
  for (int i = 0; i < p->ny; i++)
    if (p->groups[i] < 0) p->groups[i] = g++;
  return 0;
}

/* The sets of every block taking part: 0, 1 when too big to be worth it,
 * -1 out of memory. */
static int build_sets(bsim_plan *p) {
  struct bsim_plan_jac *J = p->jac;
  collector cl = {malloc(sizeof(int) * (size_t)p->ny),
                  malloc(sizeof(int) * (size_t)p->ny)};
  size_t total = 0;
  int rc = cl.pos && cl.scratch ? 0 : -1;
  for (int i = 0; rc == 0 && i < p->ny; i++)
    cl.pos[i] = -1;
  /* Output sets in evaluation order (sources first), then state sets. */
  for (int k = 0; rc == 0 && k < p->nactive; k++) {
    jblock *jb = &J->jb[p->active_order[k]];
    rc =
        build_set(p, &cl, p->active_order[k], 0, &jb->cols, &jb->ncols, &total);
    jb->doff = J->nd;
    J->nd += (size_t)jb->nyb * (size_t)jb->ncols;
  }
  for (int k = 0; rc == 0 && k < p->nstate_blocks + p->ncomp; k++) {
    int b = k < p->nstate_blocks ? p->state_blocks[k]
                                 : p->comp_blocks[k - p->nstate_blocks];
    jblock *jb = &J->jb[b];
    rc = build_set(p, &cl, b, 1, &jb->rcols, &jb->nrcols, &total);
    jb->dxoff = J->nd;
    J->nd += jac_rows(p, b, 0) * (size_t)jb->nrcols;
  }
  free(cl.pos);
  free(cl.scratch);
  return rc;
}

int bsim_plan_jacobian_prepare(bsim_plan *p) {
  if (make_groups(p) != 0) return -1;
  if (!p->pat_colptr) return 0;
  for (int k = 0; k < p->nactive; k++)
    if (!supports(&p->blocks[p->active_order[k]])) return 0;
  for (int k = 0; k < p->nstate_blocks; k++)
    if (!supports(&p->blocks[p->state_blocks[k]])) return 0;
  for (int k = 0; k < p->ncomp; k++)
    if (!supports(&p->blocks[p->comp_blocks[k]])) return 0;

  struct bsim_plan_jac *J = calloc(1, sizeof *J);
  if (!J) return -1;
  p->jac = J;
  int nb = p->nblocks;
  J->jb = calloc((size_t)nb, sizeof(jblock));
  if (!J->jb) goto fail;
  for (int k = 0; k < p->nactive; k++)
    J->jb[p->active_order[k]].on = J->jb[p->active_order[k]].hasd = 1;
  for (int k = 0; k < p->nstate_blocks; k++)
    J->jb[p->state_blocks[k]].on = 1;
  for (int k = 0; k < p->ncomp; k++)
    J->jb[p->comp_blocks[k]].on = 1;
  /* a component's direct columns, for its set and every evaluation */
  for (int k = 0; k < p->ncomp; k++) {
    int b = p->comp_blocks[k];
    const bsim_model *m = model_of(p, b);
    int nd = 2 * m->nx + bsim_model_ncv(m);
    J->jb[b].dcols = malloc(sizeof(int) * (size_t)(nd > 0 ? nd : 1));
    if (!J->jb[b].dcols) goto fail;
    for (int c = 0; c < nd; c++)
      J->jb[b].dcols[c] = direct_col(p, b, c);
  }
  for (int b = 0; b < nb; b++)
    if (J->jb[b].on) {
      J->jb[b].nyb = nout_elems(model_of(p, b));
      J->jb[b].jacoff = J->njacbuf;
      J->njacbuf += jac_rows(p, b, J->jb[b].nyb) * jac_cols(p, b);
    }
  int rc = build_sets(p);
  if (rc == 0) return 0;
  if (rc > 0) rc = 0; /* too big to be worth it: no analytic Jacobian */
  goto drop;
fail:
  rc = -1;
drop : {
  /* the groups stay: they do not depend on the Jacobian */
  int *groups = p->groups;
  p->groups = NULL;
  bsim_plan_jacobian_free(p);
  p->groups = groups;
  return rc;
}
}
