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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scheduler/index.h"

/* Dense incidence only up to this many unknowns (bytes: n^2 and
 * blocks x n). Larger acausal systems are assumed index 1. A reduced
 * system keeps a dense pattern and Jacobian: up to MAX_REDUCED. */
enum { MAX_N = 3000, MAX_REDUCED = 1000 };

static void *zalloc(size_t n, size_t size) {
  return calloc(n ? n : 1, size);
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
  free(ix->colptr0);
  free(ix->rowidx0);
  free(ix->pcomp);
  free(ix->pnode);
  free(ix);
}

static int reduce(bsim_plan *p, const bsim_index_inc *I, const char *drows,
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
  ix->colptr0 = p->pat_colptr;
  ix->rowidx0 = p->pat_rowidx;
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
  bsim_index_inc I = {0};
  int rc = bsim_index_incidence(p, &I);
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
  if (rc == 0) rc = bsim_index_partial_prepare(p);
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
