/*
 * The structural index of the system, and index-2 reduction, decided at
 * compile time (Pantelides' algorithm with dummy derivatives).
 *
 * Acausal components make index-2 systems out of ordinary circuits: a
 * capacitor directly across a voltage source, a transistor's junction
 * capacitance between two nodes a source fixes, inductors in series with
 * a current source. Their states are then fixed by algebraic equations,
 * IDA (index 1) cannot start from them, and IDACalcIC fails or returns
 * inconsistent values. The incidence of every row of F on y and y' says
 * which: match each row to an unknown it determines (y_j of an algebraic
 * unknown, y'_j of a differential one); an unmatched row reaches, through
 * alternating paths, a set of rows with one unknown too few - the rows
 * to differentiate. When those rows are algebraic (no y') and, with them
 * differentiated, every row matches, the index is 2 and it is reduced:
 *
 *   - the differentiated rows G_i = dF_i/dt join F, evaluated by central
 *     differences of F along (1, y') in time (each F_i is algebraic, so
 *     dF_i/dt = F_t + F_y y'), with the derivatives of the unknowns they
 *     read as further unknowns or y';
 *   - as many of those derivatives as rows become dummy derivatives,
 *     algebraic unknowns of their own, chosen so that the differentiated
 *     rows determine them (a matching, preferring unknowns that were
 *     algebraic): a demoted state becomes algebraic, its y' replaced by
 *     its dummy everywhere.
 *
 * The incidence of a component's rows comes from its own Jacobian (flag
 * 10, else differences of flag 0) at a few random points; the causal
 * blocks in between are followed with the dependency sets the sparsity
 * pattern uses. A system the analysis cannot cover (too large, a block
 * failing at the probes) is assumed of index 1, as before.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scheduler/index.h"

/* Dense incidence only up to this many unknowns (bytes: n^2 and
 * blocks x n). Larger acausal systems are assumed index 1. A reduced
 * system keeps a dense pattern and Jacobian: up to MAX_REDUCED. */
enum { MAX_N = 3000, MAX_REDUCED = 1000, PROBES = 6 };

static void *zalloc(size_t n, size_t size) {
  return calloc(n ? n : 1, size);
}

/* ------------------------------------------------------------------ */
/* Incidence                                                           */
/* ------------------------------------------------------------------ */

/* Deterministic uniform numbers in [-1, 1) (no global state). */
static double urand(unsigned long *s) {
  *s = *s * 6364136223846793005UL + 1442695040888963407UL;
  return (double)(*s >> 11) / 4503599627370496.0 - 1.0;
}

typedef struct inc {
  int n;
  char *py, *pyp; /* n x n: row i reads y_j, y'_j */
} inc;

static int ninputs(const bsim_model *m) {
  int n = 0;
  for (int k = 0; k < m->nin; k++)
    n += m->in[k] * m->in2[k];
  return n;
}

/* Local incidence of component b: rows nres (+ outputs ignored) over
 * columns x, x', connector variables, inputs; pat[r * ncol + c]. The
 * union of the nonzeros of its Jacobian at PROBES random points. 0, or
 * -1 when the block fails there (the caller gives up the analysis). */
static int probe(bsim_run *x, int b, char *pat, int ncol, unsigned long *seed) {
  const bsim_plan *p = x->plan;
  const plan_block *pb = &p->blocks[b];
  const bsim_model *m = &pb->fb->model;
  bsim_block *v = &x->blocks[b].b;
  int nx = m->nx, nc = bsim_model_ncv(m), nu = ninputs(m),
      nres = bsim_model_nres(m);
  int ny = 0;
  for (int k = 0; k < m->nout; k++)
    ny += m->out[k] * m->out2[k];
  int nrow = nres + ny, rc = 0;
  int flag10 =
      (pb->fb->run_type->flags & BSIM_TYPE_JACOBIAN) && !m->no_jacobian;
  size_t need =
      (size_t)(2 * nx + nc + nu + 2 * nres) + (size_t)nrow * (size_t)ncol;
  double *mem = zalloc(need, sizeof(double));
  const double **pot = zalloc((size_t)m->ncon, sizeof *pot);
  const double **flow = zalloc((size_t)m->ncon, sizeof *flow);
  if (!mem || !pot || !flow) {
    free(mem);
    free(pot);
    free(flow);
    return -1;
  }
  double *xs = mem, *xd = xs + nx, *cv = xd + nx, *u = cv + nc;
  double *r0 = u + nu, *r1 = r0 + nres, *jac = r1 + nres;
  /* inputs: point the view at our own values */
  double **inptr = v->inptr;
  double **myin = zalloc((size_t)m->nin, sizeof *myin);
  if (!myin) rc = -1;
  for (int k = 0, e = 0; rc == 0 && k < m->nin; k++) {
    myin[k] = u + e;
    e += m->in[k] * m->in2[k];
  }
  v->inptr = myin;
  v->x = xs;
  v->xd = xd;
  v->res = r0;
  v->pot = pot;
  v->flow = flow;
  for (int k = 0, c = 0; k < m->ncon; k++) {
    pot[k] = cv + c;
    c += m->condom[k]->npot;
    flow[k] = cv + c;
    c += m->condom[k]->nflow;
  }
  v->phase = BSIM_PHASE_CONTINUOUS;
  for (int s = 0; s < PROBES && rc == 0; s++) {
    v->t = 1 + urand(seed);
    for (int i = 0; i < 2 * nx + nc + nu; i++)
      xs[i] = 3 * urand(seed); /* xs, xd, cv, u are contiguous */
    for (int i = 0; i < v->nmode; i++)
      v->mode[i] = s & 1;
    x->errs.fatal = x->errs.recoverable = 0;
    if (flag10) {
      double *saved = v->jac;
      v->jac = jac;
      memset(jac, 0, sizeof(double) * (size_t)nrow * (size_t)ncol);
      x->blocks[b].fn(v, BSIM_FLAG_JACOBIAN);
      v->jac = saved;
      for (int r = 0; r < nres; r++)
        for (int c = 0; c < ncol; c++)
          if (jac[r + (size_t)nrow * (size_t)c] != 0)
            pat[(size_t)r * (size_t)ncol + (size_t)c] = 1;
    } else {
      v->res = r0;
      x->blocks[b].fn(v, BSIM_FLAG_DERIVATIVES);
      for (int c = 0; c < ncol && !x->errs.fatal; c++) {
        double old = xs[c];
        xs[c] = old + 1e-6 * (1 + fabs(old));
        v->res = r1;
        x->blocks[b].fn(v, BSIM_FLAG_DERIVATIVES);
        xs[c] = old;
        for (int r = 0; r < nres; r++)
          if (r1[r] != r0[r]) pat[(size_t)r * (size_t)ncol + (size_t)c] = 1;
      }
    }
    if (x->errs.fatal) rc = -1;
  }
  v->inptr = inptr;
  x->errs.fatal = x->errs.recoverable = 0;
  free(myin);
  free(mem);
  free(pot);
  free(flow);
  return rc;
}

/* What each active block's outputs depend on (dense rows over y), in
 * evaluation order, for the inputs of components. */
static char *output_deps(const bsim_plan *p, int n) {
  const bsim_flat *f = p->flat;
  char *dep = zalloc((size_t)p->nblocks * (size_t)n, 1);
  if (!dep) return NULL;
  for (int k = 0; k < p->nblocks; k++) {
    int b = p->order[k];
    const plan_block *pb = &p->blocks[b];
    const bsim_model *m = &f->blocks[b].model;
    char *row = dep + (size_t)b * (size_t)n;
    if (!pb->active) continue;
    for (int s = 0; s < m->nx; s++)
      row[pb->xoff + s] = 1;
    if (pb->conoff >= 0)
      for (int c = 0; c < bsim_model_ncv(m); c++)
        row[bsim_plan_con_var(p, b, c)] = 1;
    for (int u = 0; u < m->nin; u++) {
      int sb = p->insrc_block[p->inbase[b] + u];
      if (sb < 0 || (!m->dep_u[u] && pb->conoff < 0)) continue;
      int t = p->torn_of[p->portbase[sb] + p->insrc_port[p->inbase[b] + u]];
      if (t >= 0) {
        for (int i = 0; i < p->torn[t].n; i++)
          row[p->torn[t].yoff + i] = 1;
      } else {
        const char *src = dep + (size_t)sb * (size_t)n;
        for (int j = 0; j < n; j++)
          row[j] |= src[j];
      }
    }
  }
  return dep;
}

/* Rows from the plan's coarse pattern (states, torn signals), and from
 * the probes for components. 0, 1 when the analysis gives up, -1 out of
 * memory. */
static int incidence(const bsim_plan *p, inc *I) {
  int n = p->ny, rc = 0;
  I->n = n;
  I->py = zalloc((size_t)n * (size_t)n, 1);
  I->pyp = zalloc((size_t)n * (size_t)n, 1);
  char *dep = output_deps(p, n);
  bsim_run *x = bsim_run_create(p, NULL);
  double *zero = zalloc((size_t)n * 3, sizeof(double));
  if (!I->py || !I->pyp || !dep || !x || !zero) {
    free(dep);
    free(zero);
    bsim_run_free(x);
    return -1;
  }
  /* blocks see a bound view at flag 4, as in a run */
  bsim_run_bind(x, 0, zero, zero + n, zero + 2 * n, BSIM_PHASE_DISCRETE);
  /* everything but the components' rows: the pattern, with y' on the
   * states' own rows */
  for (int j = 0; j < n; j++)
    for (int q = p->pat_colptr[j]; q < p->pat_colptr[j + 1]; q++)
      I->py[(size_t)p->pat_rowidx[q] * (size_t)n + (size_t)j] = 1;
  for (int i = 0; i < p->nx; i++)
    I->pyp[(size_t)i * (size_t)n + (size_t)i] = 1;
  for (int k = 0; k < p->nstate_blocks; k++) {
    const plan_block *pb = &p->blocks[p->state_blocks[k]];
    if (!pb->fb->model.implicit) continue;
    for (int r = 0; r < pb->fb->model.nx; r++)
      for (int s = 0; s < pb->fb->model.nx; s++)
        I->pyp[(size_t)(pb->xoff + r) * (size_t)n + (size_t)(pb->xoff + s)] = 1;
  }
  unsigned long seed = 12345;
  for (int c = 0; c < p->ncomp && rc == 0; c++) {
    int b = p->comp_blocks[c];
    const plan_block *pb = &p->blocks[b];
    const bsim_model *m = &pb->fb->model;
    int nx = m->nx, nc = bsim_model_ncv(m), nres = bsim_model_nres(m);
    int ncol = 2 * nx + nc + ninputs(m);
    char *pat = zalloc((size_t)nres * (size_t)ncol, 1);
    if (!pat) {
      rc = -1;
      break;
    }
    x->blocks[b].fn(&x->blocks[b].b, BSIM_FLAG_INIT);
    rc = x->errs.fatal ? 1 : probe(x, b, pat, ncol, &seed) ? 1 : 0;
    x->blocks[b].fn(&x->blocks[b].b, BSIM_FLAG_END);
    for (int r = 0; r < nres && rc == 0; r++) {
      size_t i = (size_t)(pb->roff + r);
      memset(I->py + i * (size_t)n, 0, (size_t)n);
      const char *pr = pat + (size_t)r * (size_t)ncol;
      for (int s = 0; s < nx; s++) {
        if (pr[s]) I->py[i * (size_t)n + (size_t)(pb->xoff + s)] = 1;
        if (pr[nx + s]) I->pyp[i * (size_t)n + (size_t)(pb->xoff + s)] = 1;
      }
      for (int cc = 0; cc < nc; cc++)
        if (pr[2 * nx + cc])
          I->py[i * (size_t)n + (size_t)bsim_plan_con_var(p, b, cc)] = 1;
      for (int u = 0, e = 2 * nx + nc; u < m->nin; u++) {
        int any = 0;
        for (int q = 0; q < m->in[u] * m->in2[u]; q++)
          any |= pr[e + q];
        e += m->in[u] * m->in2[u];
        int sb = p->insrc_block[p->inbase[b] + u];
        if (!any || sb < 0) continue;
        int t = p->torn_of[p->portbase[sb] + p->insrc_port[p->inbase[b] + u]];
        for (int j = 0; j < n; j++)
          if (t >= 0
                  ? j >= p->torn[t].yoff && j < p->torn[t].yoff + p->torn[t].n
                  : dep[(size_t)sb * (size_t)n + (size_t)j])
            I->py[i * (size_t)n + (size_t)j] = 1;
      }
    }
    free(pat);
  }
  free(dep);
  free(zero);
  bsim_run_free(x);
  return rc;
}

/* ------------------------------------------------------------------ */
/* Matching                                                            */
/* ------------------------------------------------------------------ */

typedef struct match {
  int n;
  const char *cand; /* n x n: row i may take column j */
  int *rowm, *colm; /* matched column of each row, row of each column */
  int *seen;        /* visit stamps */
  int stamp;
} match;

/* Augmenting path from row i (recursive depth-first, bounded by n). */
static int augment(match *M, int i) {
  for (int j = 0; j < M->n; j++) {
    if (!M->cand[(size_t)i * (size_t)M->n + (size_t)j] ||
        M->seen[j] == M->stamp)
      continue;
    M->seen[j] = M->stamp;
    if (M->colm[j] < 0 || augment(M, M->colm[j])) {
      M->rowm[i] = j;
      M->colm[j] = i;
      return 1;
    }
  }
  return 0;
}

/* Rows visited by the failed search from row i (stamped in rseen). */
static void reach(match *M, int i, char *rows) {
  rows[i] = 1;
  for (int j = 0; j < M->n; j++)
    if (M->cand[(size_t)i * (size_t)M->n + (size_t)j] && M->colm[j] >= 0 &&
        !rows[M->colm[j]])
      reach(M, M->colm[j], rows);
}

static int match_all(match *M, const char *skip_rows) {
  int unmatched = 0;
  for (int i = 0; i < M->n; i++) {
    if (skip_rows && skip_rows[i]) continue;
    M->stamp++;
    if (!augment(M, i)) unmatched++;
  }
  return unmatched;
}

/* ------------------------------------------------------------------ */
/* Analysis                                                            */
/* ------------------------------------------------------------------ */

/* "a (Capacitor), b (ConstantVoltage)": the blocks owning rows[]. */
static void name_rows(const bsim_plan *p, const char *rows, char *buf,
                      size_t len) {
  size_t used = 0;
  buf[0] = '\0';
  for (int b = 0; b < p->nblocks && used + 1 < len; b++) {
    const plan_block *pb = &p->blocks[b];
    const bsim_model *m = &pb->fb->model;
    int first = pb->conoff >= 0 ? pb->roff : pb->xoff;
    int cnt = pb->conoff >= 0 ? bsim_model_nres(m) : m->nx;
    int any = 0;
    for (int r = 0; first >= 0 && r < cnt; r++)
      any |= rows[first + r];
    if (!any) continue;
    int w = snprintf(buf + used, len - used, "%s'%s' (%s)", used ? ", " : "",
                     pb->fb->path, pb->fb->type->name);
    if (w < 0) break;
    used += (size_t)w;
  }
}

/* The unknown j as a user reads it: "c.x[1]", "node of 'r:p'". */
static void name_unknown(const bsim_plan *p, int j, char *buf, size_t len) {
  snprintf(buf, len, "y[%d]", j + 1);
  for (int b = 0; b < p->nblocks; b++) {
    const plan_block *pb = &p->blocks[b];
    const bsim_model *m = &pb->fb->model;
    if (pb->xoff >= 0 && j >= pb->xoff && j < pb->xoff + m->nx) {
      snprintf(buf, len, "%s.x[%d]", pb->fb->path, j - pb->xoff + 1);
      return;
    }
    for (int k = 0; pb->conoff >= 0 && k < m->ncon; k++) {
      const bsim_domain *d = m->condom[k];
      int pot = p->conpot[pb->conoff + k], fl = p->conflow[pb->conoff + k];
      if (j >= pot && j < pot + d->npot) {
        snprintf(buf, len, "the potential at '%s:%s'", pb->fb->path,
                 m->conname[k]);
        return;
      }
      if (j >= fl && j < fl + d->nflow) {
        snprintf(buf, len, "the flow into '%s:%s'", pb->fb->path,
                 m->conname[k]);
        return;
      }
    }
  }
}

static int fail_index(const bsim_plan *p, const char *rows, int index,
                      bsim_error *err) {
  char who[1500];
  name_rows(p, rows, who, sizeof who);
  bsim_error_set(err, BSIM_ERR_INPUT,
                 "%s: the system is of index %s: the equations of %s "
                 "constrain each other beyond what one differentiation "
                 "resolves (blocksim reduces index 2 only; hint: a "
                 "capacitor across a voltage source, or an inductor in "
                 "series with a current source, each needs a resistor "
                 "between them, or remove one of them)",
                 p->flat->file ? p->flat->file : "diagram",
                 index > 2 ? ">= 3" : "2", who[0] ? who : "the diagram");
  return -2;
}

/* rows[] that no unknown determines (structurally singular), with the
 * unknowns left over. */
static int fail_singular(const bsim_plan *p, const char *rows, const int *colm,
                         bsim_error *err) {
  char who[1500], what[300] = "";
  name_rows(p, rows, who, sizeof who);
  for (int j = 0; j < p->ny && !what[0]; j++)
    if (colm[j] < 0) name_unknown(p, j, what, sizeof what);
  bsim_error_set(err, BSIM_ERR_INPUT,
                 "%s: the system is structurally singular: the equations "
                 "of %s over-determine their unknowns while %s is "
                 "determined by none (hint: check the connections; a "
                 "circuit needs a Ground, a voltage source no parallel "
                 "voltage source)",
                 p->flat->file ? p->flat->file : "diagram",
                 who[0] ? who : "some blocks", what[0] ? what : "an unknown");
  return -2;
}

/* Build the reduction from the rows to differentiate. */
static void ix_free(struct bsim_plan_index *ix) {
  if (!ix) return;
  free(ix->drow);
  free(ix->dcol);
  free(ix->slot_of);
  free(ix->vd);
  free(ix->state0);
  free(ix);
}

static int reduce(bsim_plan *p, const inc *I, const char *drows,
                  bsim_error *err) {
  int n = I->n, nd = 0, rc = -1;
  for (int i = 0; i < n; i++)
    nd += drows[i];
  char *vd = zalloc((size_t)n, 1), *cand = zalloc((size_t)n * (size_t)n, 1);
  int *rowm = zalloc((size_t)n, sizeof(int)),
      *colm = zalloc((size_t)n, sizeof(int));
  int *seen = zalloc((size_t)n, sizeof(int));
  struct bsim_plan_index *ix = calloc(1, sizeof *ix);
  if (!vd || !cand || !rowm || !colm || !seen || !ix) goto done;
  for (int i = 0; i < n; i++)
    if (drows[i])
      for (int j = 0; j < n; j++)
        vd[j] |= I->py[(size_t)i * (size_t)n + (size_t)j];
  /* verify: with the rows differentiated, every row matches its highest
   * derivative */
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      size_t q = (size_t)i * (size_t)n + (size_t)j;
      int level1 = p->id[j] != 0 || vd[j];
      cand[q] = drows[i] ? I->py[q] : (level1 ? I->pyp[q] : I->py[q]) != 0;
    }
  match M = {n, cand, rowm, colm, seen, 0};
  for (int i = 0; i < n; i++)
    rowm[i] = colm[i] = -1;
  if (match_all(&M, NULL) > 0) {
    rc = fail_index(p, drows, 3, err);
    goto done;
  }
  /* dummies: the differentiated rows matched into their unknowns,
   * algebraic ones first */
  for (int i = 0; i < n; i++) {
    rowm[i] = colm[i] = -1;
    for (int j = 0; j < n; j++) {
      size_t q = (size_t)i * (size_t)n + (size_t)j;
      cand[q] = drows[i] && I->py[q] && p->id[j] == 0;
    }
  }
  match_all(&M, NULL);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      size_t q = (size_t)i * (size_t)n + (size_t)j;
      cand[q] = drows[i] && I->py[q];
    }
  for (int i = 0; i < n; i++)
    if (drows[i] && rowm[i] < 0) {
      M.stamp++;
      if (!augment(&M, i)) {
        rc = fail_index(p, drows, 2, err);
        goto done;
      }
    }
  ix->ny0 = n;
  ix->nd = nd;
  ix->drow = zalloc((size_t)nd, sizeof(int));
  ix->dcol = zalloc((size_t)nd, sizeof(int));
  ix->slot_of = zalloc((size_t)n, sizeof(int));
  ix->vd = zalloc((size_t)n, sizeof(int));
  ix->state0 = zalloc((size_t)n, 1);
  double *id = zalloc((size_t)(n + nd), sizeof(double));
  int N = n + nd;
  int *colptr = zalloc((size_t)N + 1, sizeof(int));
  int *rowidx = zalloc((size_t)N * (size_t)N, sizeof(int));
  if (!ix->drow || !ix->dcol || !ix->slot_of || !ix->vd || !ix->state0 || !id ||
      !colptr || !rowidx) {
    free(id);
    free(colptr);
    free(rowidx);
    goto done;
  }
  /* the reduced system's pattern: dense (it is small, index.h) */
  for (int j = 0; j <= N; j++)
    colptr[j] = j * N;
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++)
      rowidx[(size_t)j * (size_t)N + (size_t)i] = i;
  free(p->pat_colptr);
  free(p->pat_rowidx);
  p->pat_colptr = colptr;
  p->pat_rowidx = rowidx;
  p->pat_nnz = (long)N * N;
  for (int j = 0; j < n; j++)
    ix->state0[j] = p->id[j] != 0;
  for (int j = 0; j < n; j++) {
    ix->slot_of[j] = -1;
    id[j] = p->id[j] != 0 || vd[j] ? 1.0 : 0.0; /* promoted unless dummy */
    if (vd[j]) ix->vd[ix->nvd++] = j;
  }
  int k = 0;
  for (int i = 0; i < n; i++) {
    if (!drows[i]) continue;
    ix->drow[k] = i;
    ix->dcol[k] = rowm[i];
    ix->slot_of[rowm[i]] = n + k;
    id[rowm[i]] = 0.0;
    k++;
  }
  char *et = zalloc((size_t)(n + nd), 1);
  if (!et) {
    free(id);
    goto done;
  }
  for (int j = 0; j < n; j++)
    et[j] = 1;
  free(p->id);
  p->id = id;
  p->error_test = et;
  p->ny = n + nd;
  p->ix = ix;
  ix = NULL;
  rc = 0;
done:
  ix_free(ix);
  free(vd);
  free(cand);
  free(rowm);
  free(colm);
  free(seen);
  return rc;
}

static int describe(bsim_plan *p, const char *drows) {
  const struct bsim_plan_index *ix = p->ix;
  char who[1500], dum[1500] = "";
  name_rows(p, drows, who, sizeof who);
  size_t used = 0;
  for (int k = 0; k < ix->nd && used + 1 < sizeof dum; k++) {
    char u[300];
    name_unknown(p, ix->dcol[k], u, sizeof u);
    int w = snprintf(dum + used, sizeof dum - used, "%s%s", k ? ", " : "", u);
    if (w < 0) break;
    used += (size_t)w;
  }
  size_t len = strlen(who) + strlen(dum) + 300;
  p->index_note = malloc(len);
  if (!p->index_note) return -1;
  snprintf(p->index_note, len,
           "the system is of index 2: the equations of %s fix states "
           "among themselves; %d of them are differentiated and the "
           "derivatives of %s become dummy (algebraic) unknowns",
           who, ix->nd, dum);
  return 0;
}

int bsim_plan_index(bsim_plan *p, bsim_error *err) {
  p->index = p->nx > 0 ? 1 : 0; /* until shown otherwise */
  int n = p->ny;
  if (p->ncomp == 0 || !p->pat_colptr || n > MAX_N) return 0;
  for (int i = 0; i < n; i++)
    if (p->id[i] == 0) p->index = 1;
  inc I = {0};
  int rc = incidence(p, &I);
  char *cand = NULL, *drows = NULL;
  int *rowm = NULL, *colm = NULL, *seen = NULL;
  if (rc != 0) goto done; /* 1: not covered, assume index 1 */
  cand = zalloc((size_t)n * (size_t)n, 1);
  drows = zalloc((size_t)n, 1);
  rowm = zalloc((size_t)n, sizeof(int));
  colm = zalloc((size_t)n, sizeof(int));
  seen = zalloc((size_t)n, sizeof(int));
  rc = -1;
  if (!cand || !drows || !rowm || !colm || !seen) goto done;
  for (int i = 0; i < n; i++) {
    rowm[i] = colm[i] = -1;
    for (int j = 0; j < n; j++) {
      size_t q = (size_t)i * (size_t)n + (size_t)j;
      cand[q] = p->id[j] != 0 ? I.pyp[q] : I.py[q];
    }
  }
  match M = {n, cand, rowm, colm, seen, 0};
  rc = 0;
  if (match_all(&M, NULL) == 0) goto done;
  for (int i = 0; i < n; i++)
    if (rowm[i] < 0) reach(&M, i, drows);
  /* only algebraic rows (no y') can be differentiated once */
  int algebraic = 1, any_state = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; drows[i] && j < n; j++) {
      if (I.pyp[(size_t)i * (size_t)n + (size_t)j]) algebraic = 0;
      if (I.py[(size_t)i * (size_t)n + (size_t)j] && p->id[j] != 0)
        any_state = 1;
    }
  if (!any_state) {
    rc = fail_singular(p, drows, colm, err);
    goto done;
  }
  if (!algebraic) {
    rc = fail_index(p, drows, 3, err);
    goto done;
  }
  if (n > MAX_REDUCED) {
    rc = fail_index(p, drows, 2, err);
    goto done;
  }
  rc = reduce(p, &I, drows, err);
  if (rc == 0) {
    p->index = 2;
    rc = describe(p, drows);
  }
done:
  free(I.py);
  free(I.pyp);
  free(cand);
  free(drows);
  free(rowm);
  free(colm);
  free(seen);
  return rc > 0 ? 0 : rc;
}

void bsim_plan_index_free(bsim_plan *p) {
  struct bsim_plan_index *ix = p->ix;
  free(p->index_note);
  free(p->error_test);
  ix_free(ix);
  p->ix = NULL;
}

/* ------------------------------------------------------------------ */
/* The reduced residual                                                */
/* ------------------------------------------------------------------ */

int bsim_run_index_residual(bsim_run *x, double t, const double *y,
                            const double *yp, double *res) {
  const bsim_plan *p = x->plan;
  const struct bsim_plan_index *ix = p->ix;
  int n = ix->ny0;
  double *yph = x->ixbuf, *ydot = yph + n, *yq = ydot + n, *r1 = yq + n,
         *r2 = r1 + n;
  memcpy(yph, yp, sizeof(double) * (size_t)n);
  for (int k = 0; k < ix->nd; k++)
    yph[ix->dcol[k]] = y[n + k];
  memset(ydot, 0, sizeof(double) * (size_t)n);
  for (int q = 0; q < ix->nvd; q++) {
    int j = ix->vd[q];
    ydot[j] = ix->slot_of[j] >= 0 ? y[ix->slot_of[j]] : yp[j];
  }
  /* central differences: truncation error ~ h^2, rounding ~ eps / h, so
   * h ~ eps^(1/3) of the run's time scale; exactly representable in t */
  double tp = t + 6e-6 * x->tscale, hh = tp - t;
  int rc = BSIM_CB_OK;
  for (int side = 0; side < 2 && rc == BSIM_CB_OK; side++) {
    double s = side ? -hh : hh;
    for (int j = 0; j < n; j++)
      yq[j] = y[j] + s * ydot[j];
    rc = bsim_run_base_residual(x, t + s, yq, yph, side ? r2 : r1);
  }
  if (rc == BSIM_CB_OK) rc = bsim_run_base_residual(x, t, y, yph, res);
  if (rc != BSIM_CB_OK) return rc;
  for (int k = 0; k < ix->nd; k++)
    res[n + k] = (r1[ix->drow[k]] - r2[ix->drow[k]]) / (2 * hh);
  return BSIM_CB_OK;
}

/* Scratch of the reduced Jacobian: base dF/dy and dF/dy' by columns. */
int bsim_run_index_jacobian(double t, const double *y, const double *yp,
                            double cj, double *values, void *user) {
  bsim_run *x = user;
  const bsim_plan *p = x->plan;
  const struct bsim_plan_index *ix = p->ix;
  int n = ix->ny0, N = p->ny;
  double *yph = x->ixbuf, *yq = yph + n, *f0 = yq + n, *f1 = f0 + n,
         *col = f1 + n;
  memcpy(yph, yp, sizeof(double) * (size_t)n);
  for (int k = 0; k < ix->nd; k++)
    yph[ix->dcol[k]] = y[n + k];
  memcpy(yq, y, sizeof(double) * (size_t)n);
  int rc = bsim_run_base_residual(x, t, y, yph, f0);
  memset(values, 0, sizeof(double) * (size_t)N * (size_t)N);
  /* column c of the base matrix d/dv_j (v = y or y'), one difference */
  for (int j = 0; j < n && rc == BSIM_CB_OK; j++)
    for (int wrt = 0; wrt < 2 && rc == BSIM_CB_OK; wrt++) {
      if (wrt && !ix->state0[j] && ix->slot_of[j] < 0) continue;
      double *v = wrt ? yph : yq, v0 = v[j];
      double h = 1.4901161193847656e-08 * fmax(fabs(v0), 1.0);
      v[j] = v0 + h;
      double hh = v[j] - v0;
      rc = bsim_run_base_residual(x, t, yq, yph, f1);
      v[j] = v0;
      for (int i = 0; i < n; i++)
        col[i] = (f1[i] - f0[i]) / hh;
      /* where the column goes: y_j; y'_j (times cj) or its dummy */
      int slot = ix->slot_of[j];
      double *out = values + (size_t)(wrt && slot >= 0 ? slot : j) * (size_t)N;
      double a = wrt && slot < 0 ? cj : 1.0;
      if (wrt && (ix->state0[j] || slot >= 0))
        for (int i = 0; i < n; i++)
          out[i] += a * col[i];
      if (!wrt)
        for (int i = 0; i < n; i++)
          out[i] += col[i];
      /* G rows read y_j's derivative: its dummy, or y'_j (times cj) */
      if (!wrt) {
        double *g = values + (size_t)(slot >= 0 ? slot : j) * (size_t)N;
        double b = slot >= 0 ? 1.0 : cj;
        for (int k = 0; k < ix->nd; k++)
          g[n + k] += b * col[ix->drow[k]];
      }
    }
  bsim_run_base_residual(x, t, y, yph, f0); /* buffers at the point */
  return rc;
}
