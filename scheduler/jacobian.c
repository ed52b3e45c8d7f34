/*
 * The analytic Jacobian of the flattened system, J = dF/dy + cj dF/dy',
 * assembled from the blocks' own Jacobians (flag 10) by the chain rule, so
 * that the solver's Newton matrix costs one pass over the diagram instead
 * of one residual call per column group (or per unknown for dense).
 *
 * Every output element carries its derivative with respect to y as a dense
 * row over the few unknowns it depends on (the same sets sparsity.c
 * computes: the block's states and what its direct-feedthrough inputs
 * depend on), so the work and memory follow the sparsity pattern, not n^2.
 * Along the evaluation order,
 *   dy_b/dy = dy_b/dx_b * S_b + dy_b/du_b * du_b/dy,
 * where S_b selects the block's states from y and du_b/dy is the source's
 * row, a unit row for a torn signal w, or zero for an inactive source
 * (constant while the integrator runs). The rows of F are then
 *   F_x = x' - f:  -df/dy, plus cj on the diagonal;
 *   F_w = w - h:   e_w - dh/dy;   dummy F = y': cj.
 * Also here: the groups of unknowns for block-Jacobi preconditioning,
 * which follow the same block structure.
 */
#include <stdlib.h>
#include <string.h>

#include "scheduler/plan.h"
#include "solvers/engine.h"

/* Beyond this many stored derivative entries the bookkeeping is not worth
 * it: finite differences serve such dense systems as well. */
static const size_t jac_cap = (size_t)1 << 26;

/* The plan's part: which blocks take part, their sets, and where each
 * block's matrices go in a run's buffers. */
typedef struct jblock {
  int on;    /* evaluated during integration: flag 10 is called */
  int hasd;  /* active: its outputs have rows d (else constant) */
  int nyb;   /* output elements, all ports stacked */
  int *cols; /* unknowns the outputs depend on, sorted */
  int ncols;
  int *rcols; /* state blocks: unknowns the state equations read */
  int nrcols;
  size_t jacoff; /* the flag-10 matrix in a run's jacbuf */
  size_t doff;   /* d: nyb x ncols, row-major: d(outputs)/dy over cols */
  size_t dxoff;  /* dx: nx x nrcols, row-major: df/dy over rcols */
} jblock;

struct bsim_plan_jac {
  jblock *jb;
  size_t njacbuf, nd; /* doubles of a run's jacbuf and d */
};

/* A run's part: what one Jacobian evaluation writes. */
struct bsim_run_jac {
  int *pos;       /* ny: place of an unknown in a set, -1 elsewhere */
  double *res;    /* ny: residual buffer for the bind */
  double *jacbuf; /* every block's flag-10 matrix */
  double *d;      /* every block's d and dx */
  /* with dF/dy and dF/dy' constant while the modes stay (plan
   * jac_constant): both in the pattern's order, formed at the first
   * evaluation after the modes changed (have_kept) */
  double *dfdy, *dfdyp;
  int have_kept;
  /* ny x ny, row-major: the place of entry (i, j) in the pattern's values,
   * -1 outside it; NULL above MAX_SLOT_MAP unknowns. A search per entry
   * took a third of a run that re-evaluates a 20 x 20 Jacobian at each of
   * its 350 000 restarts (the bounce demo). */
  int *slot;
};

/* Largest system with a slot map: 512^2 ints, 1 MB per run. */
enum { MAX_SLOT_MAP = 512 };

void bsim_plan_jacobian_free(bsim_plan *p) {
  free(p->groups);
  p->groups = NULL;
  struct bsim_plan_jac *J = p->jac;
  if (!J) return;
  for (int b = 0; J->jb && b < p->nblocks; b++) {
    free(J->jb[b].cols);
    free(J->jb[b].rcols);
  }
  free(J->jb);
  free(J);
  p->jac = NULL;
}

static int outsize(const bsim_model *m, int k) {
  return m->out[k] * m->out2[k];
}

static int insize(const bsim_model *m, int k) {
  return m->in[k] * m->in2[k];
}

static int nout_elems(const bsim_model *m) {
  int n = 0;
  for (int k = 0; k < m->nout; k++)
    n += outsize(m, k);
  return n;
}

static int nin_elems(const bsim_model *m) {
  int n = 0;
  for (int k = 0; k < m->nin; k++)
    n += insize(m, k);
  return n;
}

static const bsim_model *model_of(const bsim_plan *p, int b) {
  return &p->blocks[b].fb->model;
}

/* Acausal components (acausal.c) have the implicit layout of flag 10:
 * rows = residuals then outputs, columns = x, x', connector variables,
 * inputs. */
static int is_comp(const bsim_plan *p, int b) {
  return p->blocks[b].conoff >= 0;
}

/* Rows and columns of block b's flag-10 matrix. */
static size_t jac_rows(const bsim_plan *p, int b, int nyb) {
  const bsim_model *m = model_of(p, b);
  return (size_t)((is_comp(p, b) ? bsim_model_nres(m) : m->nx) + nyb);
}

static size_t jac_cols(const bsim_plan *p, int b) {
  const bsim_model *m = model_of(p, b);
  return (size_t)((is_comp(p, b) ? 2 * m->nx + bsim_model_ncv(m) : m->nx) +
                  nin_elems(m));
}

/* The y index of column c < the inputs' first of block b's matrix; -1
 * for a derivative column (x'), which the chain rule leaves out. */
static int direct_col(const bsim_plan *p, int b, int c) {
  const plan_block *pb = &p->blocks[b];
  const bsim_model *m = &pb->fb->model;
  if (c < m->nx) return pb->xoff + c;
  if (c < 2 * m->nx) return -1;
  return bsim_plan_con_var(p, b, c - 2 * m->nx);
}

int bsim_run_jacobian_alloc(bsim_run *x) {
  const bsim_plan *p = x->plan;
  const struct bsim_plan_jac *PJ = p->jac;
  struct bsim_run_jac *J = calloc(1, sizeof *J);
  if (!J) return -1;
  x->jac = J;
  J->pos = malloc(sizeof(int) * (size_t)p->ny);
  J->res = calloc((size_t)p->ny, sizeof(double));
  J->jacbuf = malloc(sizeof(double) * (PJ->njacbuf ? PJ->njacbuf : 1));
  J->d = malloc(sizeof(double) * (PJ->nd ? PJ->nd : 1));
  int nnz = p->pat_colptr ? p->pat_colptr[p->ny] : 0;
  J->dfdy = malloc(sizeof(double) * 2 * (size_t)(nnz > 0 ? nnz : 1));
  if (!J->pos || !J->res || !J->jacbuf || !J->d || !J->dfdy) return -1;
  J->dfdyp = J->dfdy + (nnz > 0 ? nnz : 1);
  for (int i = 0; i < p->ny; i++)
    J->pos[i] = -1;
  if (p->pat_colptr && p->ny <= MAX_SLOT_MAP) {
    size_t n = (size_t)p->ny;
    J->slot = malloc(sizeof(int) * (n * n > 0 ? n * n : 1));
    if (!J->slot) return -1;
    for (size_t e = 0; e < n * n; e++)
      J->slot[e] = -1;
    for (int j = 0; j < p->ny; j++)
      for (int q = p->pat_colptr[j]; q < p->pat_colptr[j + 1]; q++)
        J->slot[(size_t)p->pat_rowidx[q] * n + (size_t)j] = q;
  }
  for (int b = 0; b < p->nblocks; b++)
    if (PJ->jb[b].on) x->blocks[b].b.jac = J->jacbuf + PJ->jb[b].jacoff;
  return 0;
}

void bsim_run_jacobian_free(bsim_run *x) {
  struct bsim_run_jac *J = x->jac;
  if (!J) return;
  free(J->pos);
  free(J->res);
  free(J->jacbuf);
  free(J->d);
  free(J->dfdy);
  free(J->slot);
  free(J);
  x->jac = NULL;
}

void bsim_run_jacobian_forget(bsim_run *x) {
  if (x->jac) x->jac->have_kept = 0;
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
    int j = comp ? direct_col(p, b, c) : pb->xoff + c;
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
  for (int b = 0; b < nb; b++)
    if (J->jb[b].on) {
      J->jb[b].nyb = nout_elems(model_of(p, b));
      J->jb[b].jacoff = J->njacbuf;
      J->njacbuf += jac_rows(p, b, J->jb[b].nyb) * jac_cols(p, b);
    }
  int rc = build_sets(p);
  if (rc > 0) goto too_big;
  if (rc < 0) goto fail;
  return 0;
too_big : {
  int *groups = p->groups;
  p->groups = NULL;
  bsim_plan_jacobian_free(p);
  p->groups = groups;
  return 0;
}
fail : {
  int *groups = p->groups;
  p->groups = NULL;
  bsim_plan_jacobian_free(p);
  p->groups = groups;
  return -1;
}
}

/* row (over the set whose members pos maps) += a * d(input k element e)/dy */
static void add_input(const bsim_run *x, int b, int k, int e, double a,
                      double *row) {
  const bsim_plan *p = x->plan;
  const struct bsim_plan_jac *J = p->jac;
  const int *pos = x->jac->pos;
  int sb = p->insrc_block[p->inbase[b] + k];
  if (sb < 0) return;
  int sp = p->insrc_port[p->inbase[b] + k];
  int t = p->torn_of[p->portbase[sb] + sp];
  if (t >= 0) {
    row[pos[p->torn[t].yoff + e]] += a;
    return;
  }
  const jblock *src = &J->jb[sb];
  if (!src->hasd) return; /* inactive: constant while integrating */
  int off = 0;
  for (int q = 0; q < sp; q++)
    off += outsize(model_of(p, sb), q);
  const double *srow =
      x->jac->d + src->doff + (size_t)(off + e) * (size_t)src->ncols;
  for (int c = 0; c < src->ncols; c++)
    if (srow[c] != 0) row[pos[src->cols[c]]] += a * srow[c];
}

/* Rows r0 .. r0+nr-1 of the block's flag-10 matrix as rows over cols
 * (outputs: direct-feedthrough inputs only). */
static void chain_rows(bsim_run *x, int b, int r0, int nr, int all_in,
                       const int *cols, int ncols, double *out) {
  const bsim_plan *p = x->plan;
  const struct bsim_plan_jac *J = p->jac;
  const bsim_model *m = model_of(p, b);
  int *pos = x->jac->pos;
  int comp = is_comp(p, b);
  int ndirect = comp ? 2 * m->nx + bsim_model_ncv(m) : m->nx;
  int nrow = (int)jac_rows(p, b, J->jb[b].nyb), xoff = p->blocks[b].xoff;
  const double *jac = x->blocks[b].b.jac;
  for (int c = 0; c < ncols; c++)
    pos[cols[c]] = c;
  memset(out, 0, sizeof(double) * (size_t)nr * (size_t)ncols);
  for (int r = 0; r < nr; r++) {
    double *row = out + (size_t)r * (size_t)ncols;
    for (int c = 0; c < ndirect; c++) {
      double a = jac[(r0 + r) + (size_t)nrow * (size_t)c];
      if (a == 0) continue; /* most entries: no lookup */
      int j = comp ? direct_col(p, b, c) : xoff + c;
      if (j >= 0) row[pos[j]] += a;
    }
    int uoff = ndirect;
    for (int k = 0; k < m->nin; k++) {
      int nk = insize(m, k);
      if (all_in || m->dep_u[k])
        for (int e = 0; e < nk; e++) {
          double a = jac[(r0 + r) + (size_t)nrow * (size_t)(uoff + e)];
          if (a != 0) add_input(x, b, k, e, a, row);
        }
      uoff += nk;
    }
  }
  for (int c = 0; c < ncols; c++)
    pos[cols[c]] = -1;
}

/* values[(i, j)] += v; the entry must be in the pattern. */
static int put(const bsim_run *x, double *values, int i, int j, double v) {
  const bsim_plan *p = x->plan;
  if (x->jac->slot) {
    int q = x->jac->slot[(size_t)i * (size_t)p->ny + (size_t)j];
    if (q < 0) return v == 0 ? 0 : -1;
    values[q] += v;
    return 0;
  }
  int lo = p->pat_colptr[j], hi = p->pat_colptr[j + 1] - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2, r = p->pat_rowidx[mid];
    if (r == i) {
      values[mid] += v;
      return 0;
    }
    if (r < i)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return v == 0 ? 0 : -1;
}

static int outside_pattern(bsim_run *x, int i, int j) {
  x->errs.fatal = 1;
  bsim_error_set(&x->errs.err, BSIM_ERR_SIM,
                 "analytic Jacobian: entry (%d, %d) lies outside the "
                 "sparsity pattern (hint: run with --solver-param "
                 "jacobian=fd and report the diagram)",
                 i, j);
  return BSIM_CB_FATAL;
}

/* The acausal part's rows: each component's residuals (its own x' terms
 * times cj), then each node's flow balances (a sum: ones). */
static int acausal_rows(bsim_run *x, double cj, double *values) {
  const bsim_plan *p = x->plan;
  const struct bsim_plan_jac *J = p->jac;
  for (int k = 0; k < p->ncomp; k++) {
    int b = p->comp_blocks[k];
    const jblock *jb = &J->jb[b];
    const bsim_model *m = model_of(p, b);
    int nres = bsim_model_nres(m), roff = p->blocks[b].roff,
        xoff = p->blocks[b].xoff;
    int nrow = (int)jac_rows(p, b, jb->nyb);
    double *dx = x->jac->d + jb->dxoff;
    const double *jac = x->blocks[b].b.jac;
    chain_rows(x, b, 0, nres, 1, jb->rcols, jb->nrcols, dx);
    for (int r = 0; r < nres; r++) {
      int i = roff + r;
      for (int c = 0; c < jb->nrcols; c++)
        if (put(x, values, i, jb->rcols[c],
                dx[(size_t)r * (size_t)jb->nrcols + (size_t)c]) != 0)
          return outside_pattern(x, i, jb->rcols[c]);
      for (int s = 0; s < m->nx; s++) {
        double a = jac[r + (size_t)nrow * (size_t)(m->nx + s)];
        if (a != 0 && put(x, values, i, xoff + s, cj * a) != 0)
          return outside_pattern(x, i, xoff + s);
      }
    }
  }
  const bsim_flat *f = p->flat;
  for (int n = 0; n < f->nnodes; n++) {
    if (p->kcl_row[n] < 0) continue;
    for (int j = 0; j < f->nodes[n].dom->nflow; j++)
      for (int q = p->kcl_start[n]; q < p->kcl_start[n + 1]; q++) {
        int i = p->kcl_row[n] + j, c = p->kcl_var[q] + j;
        if (put(x, values, i, c, 1.0) != 0) return outside_pattern(x, i, c);
      }
  }
  return BSIM_CB_OK;
}

/* dF/dy', all of whose entries are what bsim_run_jacobian multiplies by
 * cj: the states' rows (y' - f), the dummy's, and the components' own x'
 * terms (flag 10 of the evaluation just made). */
static int cj_part(bsim_run *x, double *values) {
  const bsim_plan *p = x->plan;
  const struct bsim_plan_jac *J = p->jac;
  memset(values, 0, sizeof(double) * (size_t)p->pat_colptr[p->ny]);
  for (int k = 0; k < p->nstate_blocks; k++) {
    int b = p->state_blocks[k];
    for (int r = 0; r < model_of(p, b)->nx; r++) {
      int i = p->blocks[b].xoff + r;
      if (put(x, values, i, i, 1.0) != 0) return outside_pattern(x, i, i);
    }
  }
  if (p->dummy && put(x, values, 0, 0, 1.0) != 0)
    return outside_pattern(x, 0, 0);
  for (int k = 0; k < p->ncomp; k++) {
    int b = p->comp_blocks[k];
    const bsim_model *m = model_of(p, b);
    int nres = bsim_model_nres(m), roff = p->blocks[b].roff,
        xoff = p->blocks[b].xoff;
    int nrow = (int)jac_rows(p, b, J->jb[b].nyb);
    const double *jac = x->blocks[b].b.jac;
    for (int r = 0; r < nres; r++)
      for (int s = 0; s < m->nx; s++) {
        double a = jac[r + (size_t)nrow * (size_t)(m->nx + s)];
        if (a != 0 && put(x, values, roff + r, xoff + s, a) != 0)
          return outside_pattern(x, roff + r, xoff + s);
      }
  }
  return BSIM_CB_OK;
}

/* J(cj) at (t, y, y') from the blocks' flag 10 and the chain rule. */
static int evaluate(bsim_run *x, double t, const double *y, const double *yp,
                    double cj, double *values) {
  const bsim_plan *p = x->plan;
  const struct bsim_plan_jac *J = p->jac;
  double *d = x->jac->d;
  x->errs.recoverable = 0;
  bsim_run_bind(x, t, y, yp, x->jac->res, BSIM_PHASE_CONTINUOUS);
  int rc = bsim_run_outputs(x, 0);
  if (rc != BSIM_CB_OK) return rc;
  for (int b = 0; b < p->nblocks; b++) {
    if (!J->jb[b].on) continue;
    size_t sz = jac_rows(p, b, J->jb[b].nyb) * jac_cols(p, b);
    if (sz == 0) continue; /* a source of time alone (supports()) */
    memset(x->blocks[b].b.jac, 0, sizeof(double) * sz);
    if ((rc = bsim_run_call(x, b, BSIM_FLAG_JACOBIAN)) != BSIM_CB_OK) return rc;
  }
  for (int k = 0; k < p->nactive; k++) {
    int b = p->active_order[k];
    const jblock *jb = &J->jb[b];
    const bsim_model *m = model_of(p, b);
    chain_rows(x, b, is_comp(p, b) ? bsim_model_nres(m) : m->nx, jb->nyb, 0,
               jb->cols, jb->ncols, d + jb->doff);
  }
  memset(values, 0, sizeof(double) * (size_t)p->pat_colptr[p->ny]);
  for (int k = 0; k < p->nstate_blocks; k++) {
    int b = p->state_blocks[k];
    const jblock *jb = &J->jb[b];
    int nx = model_of(p, b)->nx, xoff = p->blocks[b].xoff;
    const double *dx = d + jb->dxoff;
    chain_rows(x, b, 0, nx, 1, jb->rcols, jb->nrcols, d + jb->dxoff);
    for (int r = 0; r < nx; r++) {
      int i = xoff + r;
      if (put(x, values, i, i, cj) != 0) return outside_pattern(x, i, i);
      for (int c = 0; c < jb->nrcols; c++)
        if (put(x, values, i, jb->rcols[c],
                -dx[(size_t)r * (size_t)jb->nrcols + (size_t)c]) != 0)
          return outside_pattern(x, i, jb->rcols[c]);
    }
  }
  for (int tt = 0; tt < p->ntorn; tt++) {
    const rt_torn *tw = &p->torn[tt];
    const jblock *src = &J->jb[tw->block];
    int off = 0;
    for (int q = 0; q < tw->port; q++)
      off += outsize(model_of(p, tw->block), q);
    for (int e = 0; e < tw->n; e++) {
      int i = tw->yoff + e;
      if (put(x, values, i, i, 1.0) != 0) return outside_pattern(x, i, i);
      if (!src->hasd) continue;
      const double *row =
          d + src->doff + (size_t)(off + e) * (size_t)src->ncols;
      for (int c = 0; c < src->ncols; c++)
        if (put(x, values, i, src->cols[c], -row[c]) != 0)
          return outside_pattern(x, i, src->cols[c]);
    }
  }
  if (p->dummy && put(x, values, 0, 0, cj) != 0)
    return outside_pattern(x, 0, 0);
  return acausal_rows(x, cj, values);
}

/* dF/dy (J at cj = 0) and dF/dy' from one evaluation of the blocks. */
static int parts(bsim_run *x, double t, const double *y, const double *yp,
                 double *dfdy, double *dfdyp) {
  int rc = evaluate(x, t, y, yp, 0.0, dfdy);
  return rc == BSIM_CB_OK ? cj_part(x, dfdyp) : rc;
}

/* With a plan's jac_constant: the parts kept, formed once per mode. */
static int kept(bsim_run *x, double t, const double *y, const double *yp) {
  struct bsim_run_jac *R = x->jac;
  if (R->have_kept) return BSIM_CB_OK;
  int rc = parts(x, t, y, yp, R->dfdy, R->dfdyp);
  R->have_kept = rc == BSIM_CB_OK;
  return rc;
}

int bsim_run_jacobian_parts(double t, const double *y, const double *yp,
                            double *dfdy, double *dfdyp, bsim_run *x) {
  const bsim_plan *p = x->plan;
  if (!p->jac || !x->jac) return BSIM_CB_FATAL;
  if (!p->jac_constant) return parts(x, t, y, yp, dfdy, dfdyp);
  int rc = kept(x, t, y, yp);
  size_t nnz = (size_t)p->pat_colptr[p->ny];
  if (rc == BSIM_CB_OK) {
    memcpy(dfdy, x->jac->dfdy, sizeof(double) * nnz);
    memcpy(dfdyp, x->jac->dfdyp, sizeof(double) * nnz);
  }
  return rc;
}

int bsim_run_jacobian(double t, const double *y, const double *yp, double cj,
                      double *values, void *user) {
  bsim_run *x = user;
  const bsim_plan *p = x->plan;
  if (!p->jac || !x->jac) return BSIM_CB_FATAL;
  if (!p->jac_constant) return evaluate(x, t, y, yp, cj, values);
  /* Each entry gets at most one term times cj and one without: formed
   * from the kept parts, it is the same sum of the same two numbers. */
  int rc = kept(x, t, y, yp);
  const struct bsim_run_jac *R = x->jac;
  size_t nnz = (size_t)p->pat_colptr[p->ny];
  for (size_t q = 0; rc == BSIM_CB_OK && q < nnz; q++)
    values[q] = R->dfdy[q] + cj * R->dfdyp[q];
  return rc;
}
