/*
 * What the analytic Jacobian's two halves share: jacobian_plan.c, which
 * decides at compile time which blocks take part and which unknowns each
 * output depends on, and jacobian.c, which evaluates J = dF/dy + cj dF/dy'
 * during a run. Private to scheduler/.
 */
#ifndef BSIM_SCHEDULER_JACOBIAN_INT_H
#define BSIM_SCHEDULER_JACOBIAN_INT_H

#include <stddef.h>

#include "scheduler/plan.h"

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
  int *dcols;    /* components: direct_col of each direct column, once */
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
  int ny;         /* unknowns of the system described (jacobian.c, jny) */
  int *pos;       /* ny: place of an unknown in a set, -1 elsewhere */
  double *res;    /* ny: residual buffer for the bind */
  double *jacbuf; /* every block's flag-10 matrix */
  double *d;      /* every block's d and dx */
  /* with dF/dy and dF/dy' constant while the modes stay (plan
   * jac_constant): both in the pattern's order, formed at the first
   * evaluation after the modes changed (have_kept) */
  double *dfdy, *dfdyp;
  int have_kept;
  /* with a plan's jac_nl: the entries (in the pattern's order) of the rows
   * that move, which the kept parts do not give */
  int *nlq, nnlq;
  /* ny x ny, row-major: the place of entry (i, j) in the pattern's values,
   * -1 outside it; NULL above MAX_SLOT_MAP unknowns. A search per entry
   * took a third of a run that re-evaluates a 20 x 20 Jacobian at each of
   * its 350 000 restarts (the bounce demo). */
  int *slot;
};

/* Largest system with a slot map: 512^2 ints, 1 MB per run. */
enum { MAX_SLOT_MAP = 512 };

static inline int outsize(const bsim_model *m, int k) {
  return m->out[k] * m->out2[k];
}

static inline int insize(const bsim_model *m, int k) {
  return m->in[k] * m->in2[k];
}

static inline int nout_elems(const bsim_model *m) {
  int n = 0;
  for (int k = 0; k < m->nout; k++)
    n += outsize(m, k);
  return n;
}

static inline int nin_elems(const bsim_model *m) {
  int n = 0;
  for (int k = 0; k < m->nin; k++)
    n += insize(m, k);
  return n;
}

static inline const bsim_model *model_of(const bsim_plan *p, int b) {
  return &p->blocks[b].fb->model;
}

/* Acausal components (acausal.c) have the implicit layout of flag 10:
 * rows = residuals then outputs, columns = x, x', connector variables,
 * inputs. */
static inline int is_comp(const bsim_plan *p, int b) {
  return p->blocks[b].conoff >= 0;
}

/* Rows and columns of block b's flag-10 matrix. */
static inline size_t jac_rows(const bsim_plan *p, int b, int nyb) {
  const bsim_model *m = model_of(p, b);
  return (size_t)((is_comp(p, b) ? bsim_model_nres(m) : m->nx) + nyb);
}

static inline size_t jac_cols(const bsim_plan *p, int b) {
  const bsim_model *m = model_of(p, b);
  return (size_t)((is_comp(p, b) ? 2 * m->nx + bsim_model_ncv(m) : m->nx) +
                  nin_elems(m));
}

/* The y index of column c < the inputs' first of block b's matrix; -1
 * for a derivative column (x'), which the chain rule leaves out. */
static inline int direct_col(const bsim_plan *p, int b, int c) {
  const plan_block *pb = &p->blocks[b];
  const bsim_model *m = &pb->fb->model;
  if (c < m->nx) return pb->xoff + c;
  if (c < 2 * m->nx) return -1;
  return bsim_plan_con_var(p, b, c - 2 * m->nx);
}

#endif
