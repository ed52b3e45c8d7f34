/*
 * Index analysis and index-2 reduction of a compiled plan (index.c,
 * index_incidence.c, index_run.c).
 * Private to the scheduler.
 */
#ifndef BSIM_INDEX_H
#define BSIM_INDEX_H

#include "scheduler/plan.h"

/* The reduction: rows drow[k] of the original F are differentiated into
 * row ny0 + k; unknown ny0 + k is the dummy derivative of unknown
 * dcol[k] (slot_of[dcol[k]] = ny0 + k, -1 for others); vd lists the
 * unknowns the differentiated rows read. */
struct bsim_plan_index {
  int ny0, nd;
  int *drow, *dcol, *slot_of;
  int *vd, nvd;
  char *state0; /* ny0: differential before the reduction */
  /* the pattern of the system before the reduction, which the analytic
   * Jacobian (jacobian.c), when the plan has one, still describes */
  int *colptr0, *rowidx0;
  /* When every differentiated row is a component's without causal inputs
   * or a node's flow balance: those components and nodes (the shifted
   * evaluations of the rows need nothing else, index_run.c) */
  int partial, *pcomp, npcomp, *pnode, npnode;
};

/* The partial fields of p->ix (index_run.c). 0, or -1 out of memory. */
int bsim_index_partial_prepare(bsim_plan *p);

/* At the end of bsim_plan_create: p->index, and for index 2 the
 * reduction (p->ix, p->ny and p->id extended, p->index_note). 0; -1 out
 * of memory; -2 with err set (higher index or structurally singular). */
int bsim_plan_index(bsim_plan *p, bsim_error *err);
void bsim_plan_index_free(bsim_plan *p);

/* Which unknowns row i of F reads: py[i * n + j] for y_j, pyp for y'_j
 * (index_incidence.c). */
typedef struct bsim_index_inc {
  int n;
  char *py, *pyp;
} bsim_index_inc;

/* Rows from the plan's coarse pattern (states, torn signals), and from
 * the probes for components. 0, 1 when the analysis gives up (a block
 * fails at the probes), -1 out of memory; I's arrays are the caller's to
 * free in every case. */
int bsim_index_incidence(const bsim_plan *p, bsim_index_inc *I);

/* F of the reduced system (index_run.c) (engine callback shape, run x). */
int bsim_run_index_residual(bsim_run *x, double t, const double *y,
                            const double *yp, double *res);
/* Its Jacobian J = dF/dy + cj dF/dy' over the dense pattern the plan
 * then has (engine callback: user is the run), from the columns of the
 * unreduced system's dF/dy and dF/dy': analytic when the plan has the
 * analytic Jacobian, else finite differences of the blocks' residual. A
 * differentiated row G = dF_i/dt depends on the derivatives it reads
 * through dF_i/dy (exact here), and on y through second derivatives,
 * which are left out (a Newton matrix need not be exact). */
int bsim_run_index_jacobian(double t, const double *y, const double *yp,
                            double cj, double *values, void *user);

#endif
