/*
 * The flat residual's data (kernel.c builds it, kernel_lean.c composes the
 * residual's own program from it). Private to the scheduler.
 */
#ifndef BSIM_KERNEL_H
#define BSIM_KERNEL_H

#include "scheduler/plan.h"

typedef struct krow {
  double *out; /* an output element, or NULL for state derivative `row` */
  int row;
  int n; /* its terms, which follow those of the row before */
} krow;

/* One term of a row: c times *p. p points at an input element, read in
 * place, or (i >= 0) at y[i] of the vector the program was last run on:
 * such pointers move with y (bsim_kprog_rebase). */
typedef struct kterm {
  double c;
  const double *p;
  int i;
} kterm;

typedef struct kseg {
  rt_block *call; /* a block evaluated by its function, or NULL: rows */
  int r0, r1, t0; /* rows r0..r1, their terms from t0 on */
} kseg;

/* A program: segments in evaluation order, output rows first, then the
 * state derivative rows (from row nout_rows and term dt0 on). */
typedef struct kprog {
  kseg *seg;
  krow *rows;
  kterm *terms;
  int nseg, nrows, nterms;
  int capseg, caprows, capterms;
  int nout_rows, dt0;
  int *yterms; /* the terms on y, to move when y does */
  int nyterms, capyterms;
  const double *ybase; /* the y their pointers point into */
} kprog;

struct bsim_run_kernel {
  /* every output of the blocks evaluated while integrating, row by row as
   * the blocks compute them (samples, surfaces, Jacobians, analysis) */
  kprog full;
  /* the residual's own: outputs only where a called block, a torn signal
   * or an uncomposed row reads them, derivative rows in terms of states
   * and called blocks' outputs (kernel_lean.c) */
  kprog lean;
  rt_block **calls; /* blocks called while integrating: they need t */
  int ncalls;
  rt_block **fn_states; /* state blocks still evaluated by flag 0 */
  int nfn_states;
  int *expl; /* explicit rows of those, [start, end) pairs */
  int nexpl;
  const double *y, *yp; /* what those views were last bound to */
  const double *res;
};

int bsim_kprog_grow(void **a, int *cap, int need, size_t size);
void bsim_kprog_free(kprog *g);
int bsim_kprog_add_row(kprog *g, double *out, int row);
/* A term of the last row: on y[i] when p is NULL, else on *p. */
int bsim_kprog_add_term(kprog *g, double c, int i, const double *p);
int bsim_kprog_add_seg(kprog *g, rt_block *call, int r0, int r1, int t0);

/* The lean program from the full one (kernel_lean.c). 0, or -1 out of
 * memory. */
int bsim_kernel_lean(bsim_run *x, struct bsim_run_kernel *k);

#endif
