/*
 * The structure of dF/dy + dF/dy' read off the compiled plan, so that sparse
 * and banded linear solvers and colored finite differences need not discover
 * it numerically (n residual calls for a dense Jacobian are what makes large
 * diagrams slow).
 *
 * Every output buffer gets the set of unknowns its value depends on during a
 * residual call: its block's states (all of them, since a block does not say
 * which state feeds which output) plus what its direct-feedthrough inputs
 * depend on. A consumer of a torn signal reads w, i.e. the torn unknowns
 * only. Sets are built in evaluation order, as sorted arrays; a set equal to
 * one of its sources is shared rather than copied, so a chain of 10^5
 * blocks costs linear time and memory.
 */
#include <stdlib.h>
#include <string.h>

#include "scheduler/plan.h"

/* Beyond this many stored indices the pattern is not worth holding: a
 * system that dense is better served by the dense solver. */
static const size_t pattern_cap = (size_t)1 << 26;

typedef struct iset {
  size_t off; /* into the pool: offsets survive its reallocation */
  int len;
} iset;

typedef struct builder {
  int *pool;
  size_t used, cap;
  int *a, *b; /* merge scratch */
  size_t acap, bcap;
  int too_big;
} builder;

static int grow(int **buf, size_t *cap, size_t need) {
  if (need <= *cap) return 0;
  size_t c = *cap ? *cap : 64;
  while (c < need)
    c *= 2;
  int *nb = realloc(*buf, c * sizeof(int));
  if (!nb) return -1;
  *buf = nb;
  *cap = c;
  return 0;
}

/* Append len indices to the pool; -1 out of memory or over the cap. */
static int pool_put(builder *bd, const int *v, int len, iset *out) {
  if (bd->used + (size_t)len > pattern_cap) {
    bd->too_big = 1;
    return -1;
  }
  if (grow(&bd->pool, &bd->cap, bd->used + (size_t)len + 1) != 0) return -1;
  memcpy(bd->pool + bd->used, v, sizeof(int) * (size_t)len);
  out->off = bd->used;
  out->len = len;
  bd->used += (size_t)len;
  return 0;
}

static int pool_range(builder *bd, int first, int n, iset *out) {
  if (bd->used + (size_t)n > pattern_cap) {
    bd->too_big = 1;
    return -1;
  }
  if (grow(&bd->pool, &bd->cap, bd->used + (size_t)n + 1) != 0) return -1;
  for (int i = 0; i < n; i++)
    bd->pool[bd->used + (size_t)i] = first + i;
  out->off = bd->used;
  out->len = n;
  bd->used += (size_t)n;
  return 0;
}

/* Union of k sorted sets. One non-empty set is returned as is (shared). */
static int union_of(builder *bd, const iset *sets, int k, iset *out) {
  int first = -1, nonempty = 0;
  size_t total = 0;
  for (int i = 0; i < k; i++) {
    if (sets[i].len == 0) continue;
    if (first < 0) first = i;
    nonempty++;
    total += (size_t)sets[i].len;
  }
  if (nonempty <= 1) {
    *out = first < 0 ? (iset){0, 0} : sets[first];
    return 0;
  }
  if (grow(&bd->a, &bd->acap, total) != 0 ||
      grow(&bd->b, &bd->bcap, total) != 0)
    return -1;
  int alen = sets[first].len;
  memcpy(bd->a, bd->pool + sets[first].off, sizeof(int) * (size_t)alen);
  for (int i = first + 1; i < k; i++) {
    if (sets[i].len == 0) continue;
    const int *x = bd->a, *y = bd->pool + sets[i].off;
    int nx = alen, ny = sets[i].len, ix = 0, iy = 0, n = 0;
    while (ix < nx || iy < ny) {
      int v;
      if (iy >= ny || (ix < nx && x[ix] < y[iy]))
        v = x[ix++];
      else if (ix >= nx || y[iy] < x[ix])
        v = y[iy++];
      else {
        v = x[ix++];
        iy++;
      }
      bd->b[n++] = v;
    }
    int *t = bd->a;
    size_t c = bd->acap;
    bd->a = bd->b;
    bd->acap = bd->bcap;
    bd->b = t;
    bd->bcap = c;
    alen = n;
  }
  return pool_put(bd, bd->a, alen, out);
}

/* What a consumer of output (blk, port) reads: a torn copy or the buffer. */
static iset read_set(const bsim_plan *p, const iset *outset,
                     const iset *tornset, int blk, int port) {
  int t = p->torn_of[p->portbase[blk] + port];
  return t >= 0 ? tornset[t] : outset[blk];
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* Sort and put a scratch list of indices (duplicates dropped). */
static int put_sorted(builder *bd, int *v, int n, iset *out) {
  qsort(v, (size_t)n, sizeof(int), cmp_int);
  int m = 0;
  for (int i = 0; i < n; i++)
    if (m == 0 || v[m - 1] != v[i]) v[m++] = v[i];
  return pool_put(bd, v, m, out);
}

/* An acausal component's own unknowns: its states and its connectors'
 * across and through variables (acausal.c). */
static int comp_set(const bsim_plan *p, builder *bd, int b, iset *out) {
  const plan_block *pb = &p->blocks[b];
  const bsim_model *m = &pb->fb->model;
  int n = m->nx;
  for (int k = 0; k < m->ncon; k++)
    n += m->condom[k]->npot + m->condom[k]->nflow;
  int *v = malloc(sizeof(int) * (size_t)(n ? n : 1));
  if (!v) return -1;
  n = 0;
  for (int i = 0; i < m->nx; i++)
    v[n++] = pb->xoff + i;
  for (int k = 0; k < m->ncon; k++) {
    for (int j = 0; j < m->condom[k]->npot; j++)
      v[n++] = p->conpot[pb->conoff + k] + j;
    for (int j = 0; j < m->condom[k]->nflow; j++)
      v[n++] = p->conflow[pb->conoff + k] + j;
  }
  int rc = put_sorted(bd, v, n, out);
  free(v);
  return rc;
}

/* Rows of the acausal part: each component's residuals read its own
 * unknowns and every input; each flow balance its members' flows. */
static int acausal_rows(const bsim_plan *p, builder *bd, const iset *outset,
                        const iset *tornset, iset *cand, iset *rowset) {
  const bsim_flat *f = p->flat;
  for (int c = 0; c < p->ncomp; c++) {
    int b = p->comp_blocks[c];
    const bsim_model *m = &f->blocks[b].model;
    int nc = 0;
    if (comp_set(p, bd, b, &cand[nc++]) != 0) return -1;
    for (int u = 0; u < m->nin; u++) {
      int sb = p->insrc_block[p->inbase[b] + u];
      if (sb >= 0)
        cand[nc++] =
            read_set(p, outset, tornset, sb, p->insrc_port[p->inbase[b] + u]);
    }
    iset row;
    if (union_of(bd, cand, nc, &row) != 0) return -1;
    int nres = m->nres > 0 ? m->nres : m->nx;
    for (int i = 0; i < nres; i++)
      rowset[p->blocks[b].roff + i] = row;
  }
  for (int n = 0; n < f->nnodes; n++) {
    if (p->kcl_row[n] < 0) continue;
    int cnt = p->kcl_start[n + 1] - p->kcl_start[n];
    int *v = malloc(sizeof(int) * (size_t)(cnt ? cnt : 1));
    if (!v) return -1;
    for (int j = 0; j < f->nodes[n].dom->nflow; j++) {
      for (int q = 0; q < cnt; q++)
        v[q] = p->kcl_var[p->kcl_start[n] + q] + j;
      if (put_sorted(bd, v, cnt, &rowset[p->kcl_row[n] + j]) != 0) {
        free(v);
        return -1;
      }
    }
    free(v);
  }
  return 0;
}

int bsim_plan_sparsity(bsim_plan *p) {
  const bsim_flat *f = p->flat;
  int nb = p->nblocks, ny = p->ny, rc = -1;
  builder bd = {0};
  const int *inbase = p->inbase;
  iset *outset = calloc((size_t)nb + 1, sizeof(iset));
  iset *tornset = calloc((size_t)p->ntorn + 1, sizeof(iset));
  iset *rowset = calloc((size_t)ny, sizeof(iset));
  iset *cand = NULL;
  int *colptr = NULL, *rowidx = NULL, *fill = NULL;
  if (!outset || !tornset || !rowset) goto done;
  int maxin = 0;
  for (int i = 0; i < nb; i++)
    if (f->blocks[i].model.nin > maxin) maxin = f->blocks[i].model.nin;
  cand = calloc((size_t)maxin + 2, sizeof(iset));
  if (!cand) goto done;
  for (int t = 0; t < p->ntorn; t++)
    if (pool_range(&bd, p->torn[t].yoff, p->torn[t].n, &tornset[t]) != 0)
      goto done;

  /* Output sets in evaluation order. Blocks the residual does not call
   * (no states, activated by events) hold constants: empty sets. */
  for (int k = 0; k < nb; k++) {
    int b = p->order[k];
    const plan_block *rb = &p->blocks[b];
    const bsim_model *m = &f->blocks[b].model;
    int nc = 0;
    if (!rb->active || m->nout == 0) continue;
    iset own = {0, 0};
    if (bsim_plan_is_comp(p, b)) {
      if (comp_set(p, &bd, b, &own) != 0) goto done;
    } else if (m->nx > 0 && pool_range(&bd, rb->xoff, m->nx, &own) != 0)
      goto done;
    cand[nc++] = own;
    for (int u = 0; u < m->nin; u++) {
      int sb = p->insrc_block[inbase[b] + u];
      if (sb >= 0 && m->dep_u[u])
        cand[nc++] =
            read_set(p, outset, tornset, sb, p->insrc_port[inbase[b] + u]);
    }
    if (union_of(&bd, cand, nc, &outset[b]) != 0) goto done;
  }

  /* Rows: a state's equation reads all the block's states and every input
   * (derivatives use inputs whether or not they feed through); a torn
   * signal's equation is w - h, h being its producer's output. */
  for (int k = 0; k < p->nstate_blocks; k++) {
    int b = p->state_blocks[k];
    const plan_block *rb = &p->blocks[b];
    const bsim_model *m = &f->blocks[b].model;
    int nc = 0;
    iset own;
    if (pool_range(&bd, rb->xoff, m->nx, &own) != 0) goto done;
    cand[nc++] = own;
    for (int u = 0; u < m->nin; u++) {
      int sb = p->insrc_block[inbase[b] + u];
      if (sb >= 0)
        cand[nc++] =
            read_set(p, outset, tornset, sb, p->insrc_port[inbase[b] + u]);
    }
    iset row;
    if (union_of(&bd, cand, nc, &row) != 0) goto done;
    for (int i = 0; i < m->nx; i++)
      rowset[rb->xoff + i] = row;
  }
  for (int t = 0; t < p->ntorn; t++) {
    iset two[2] = {tornset[t], outset[p->torn[t].block]};
    iset row;
    if (union_of(&bd, two, 2, &row) != 0) goto done;
    for (int i = 0; i < p->torn[t].n; i++)
      rowset[p->torn[t].yoff + i] = row;
  }
  if (p->dummy && pool_range(&bd, 0, 1, &rowset[0]) != 0) goto done;
  if (p->ncomp && acausal_rows(p, &bd, outset, tornset, cand, rowset) != 0)
    goto done;

  /* Transpose rows into columns; rows visited in order keep each column's
   * row indices sorted. */
  size_t nnz = 0;
  for (int i = 0; i < ny; i++)
    nnz += (size_t)rowset[i].len;
  if (nnz > pattern_cap) {
    bd.too_big = 1;
    goto done;
  }
  colptr = calloc((size_t)ny + 1, sizeof(int));
  rowidx = malloc(sizeof(int) * (nnz ? nnz : 1));
  fill = calloc((size_t)ny + 1, sizeof(int));
  if (!colptr || !rowidx || !fill) goto done;
  for (int i = 0; i < ny; i++)
    for (int q = 0; q < rowset[i].len; q++)
      colptr[bd.pool[rowset[i].off + (size_t)q] + 1]++;
  for (int j = 0; j < ny; j++)
    colptr[j + 1] += colptr[j];
  for (int i = 0; i < ny; i++)
    for (int q = 0; q < rowset[i].len; q++) {
      int j = bd.pool[rowset[i].off + (size_t)q];
      rowidx[colptr[j] + fill[j]++] = i;
    }
  p->pat_colptr = colptr;
  p->pat_rowidx = rowidx;
  p->pat_nnz = (long)nnz;
  colptr = rowidx = NULL;
  rc = 0;
done:
  if (rc != 0 && bd.too_big)
    rc = 0; /* no pattern: sparse solvers will say so */
  free(bd.pool);
  free(bd.a);
  free(bd.b);
  free(outset);
  free(tornset);
  free(rowset);
  free(cand);
  free(colptr);
  free(rowidx);
  free(fill);
  return rc;
}
