/*
 * The analysis object shared by analyze.c (point, Jacobians, checks) and
 * linearize.c (A, B, C, D). Private to the scheduler; users see it through
 * include/blocksim/blocksim.h.
 */
#ifndef BSIM_ANALYZE_H
#define BSIM_ANALYZE_H

#include <stdio.h>

#include "blocksim/blocksim.h"
#include "scheduler/sim.h"

/* An output port treated as an input u. */
typedef struct an_input {
  int block, port, n;
} an_input;

struct bsim_analysis {
  bsim_sim *s;
  const bsim_plan *p;
  bsim_run *x;   /* the sim's run state */
  int n, nd, na; /* unknowns (without the dummy), differential, algebraic */
  int live;      /* blocks re-initialised: flag 5 is owed at free */
  double t;
  double *y, *yp, *res; /* ny entries each */
  double *r1, *r2;      /* residuals either side of a difference */
  double scale;         /* 1 + |y|max + |y'|max: size of rounding noise */
  char note[2300];

  double *J, *Jp;   /* dF/dy, dF/dy': n x n */
  double *Jn, *Jpn; /* rounding bound of each entry of J, Jp */
  char **uname, **ename;
  int *ublock; /* block of unknown j */
  int *rblock; /* block of equation i */
  /* The analysis orders unknowns differential first (y index perm[k])
   * and equations likewise, those with y' first (row rperm[k]); the
   * identity for diagrams whose layout already is (x, then w).
   * bsim_an_column takes and gives the analysis order. */
  int *perm, *rperm;
  /* Per equation (analysis order): the size of its terms, sum |dF_i/dv|
   * |v| over y and y', so that rounding is judged row by row (a circuit
   * mixes amperes, volts and volts per nanosecond); NULL = a->scale. */
  double *rscale;

  int srank;
  char *smsg;
  int arank;
  double athr;
  char *imsg;
  int has_eig;
  double *ere, *eim, *ared; /* nd, nd, nd x nd */
  int verdict;
  double stiff;

  /* Evaluation list: blocks whose outputs the analysis recomputes (the
   * active ones, plus the event-free blocks downstream of the inputs). */
  int *evlist;
  int nev;
  an_input *in;
  int nin, nu;
  double *unom;    /* nu values of the inputs at the point */
  const double *u; /* nu values to impose during an evaluation, NULL =
                      leave the inputs alone */

  /* linearization */
  int lin, no;
  double *A, *B, *C, *D;
  char **uin, **oname;
  const double **osrc; /* where each scalar output lives after evaluation */
};

/* The residual at (a->t, y, yp) with the inputs set to a->u. Returns
 * BSIM_CB_*; the run's error state is reset first. */
int bsim_an_eval(bsim_analysis *a, const double *y, const double *yp,
                 double *res);
/* Rebuild the evaluation list for the current inputs. 0, -1 out of memory. */
int bsim_an_evlist(bsim_analysis *a);
/* Central difference of F (and of the scalar outputs when outs is not
 * NULL) over entry j of v (a->y, a->yp or a->u's array, evaluated at
 * a->y, a->yp): col gets n values, outs no values, noise the rounding bound
 * of each col entry (may be NULL). Differences within rounding noise are
 * set to exactly zero. Returns BSIM_CB_*. */
int bsim_an_column(bsim_analysis *a, double *v, int j, double *col,
                   double *noise, double *outs);
/* Both Jacobians at a->y, a->yp; Jn, Jpn (rounding bounds) may be NULL.
 * Returns BSIM_CB_*. */
int bsim_an_jacobians(bsim_analysis *a, double *J, double *Jp, double *Jn,
                      double *Jpn);
/* The checks (analyze_checks.c): 0, or -1 out of memory. */
int bsim_an_structural(bsim_analysis *a);
int bsim_an_index(bsim_analysis *a);
int bsim_an_reduce(bsim_analysis *a);
/* Release the linearization's results and inputs (linearize.c). */
void bsim_an_free_linear(bsim_analysis *a);
/* printf into a growing string; returns the string (NULL out of memory). */
char *bsim_an_appendf(char **buf, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Create dir if missing, then write name inside it with fill(); 0 or -1
 * with err set. */
int bsim_an_write(const char *dir, const char *name,
                  int (*fill)(FILE *f, const void *ctx), const void *ctx,
                  bsim_error *err);

#endif
