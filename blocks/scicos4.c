/*
 * Running an Xcos type-4 computational function as a blocksim block: each
 * instance gets an Xcos-shaped view (scicos_block) built at flag 4 and
 * refreshed before every call from blocksim's own view, and Xcos's
 * simulator services (get_scicos_time, set_block_error, ...) act on the
 * block being called.
 *
 * Those services take no block argument in Xcos, so the adapter keeps the
 * instance being called in a thread-local pointer for the duration of the
 * call (restored afterwards, so nested calls are fine): each thread sees
 * only its own block, and two runs in two threads never meet. That pointer
 * is the library's only static variable, and it is never shared.
 *
 * Type-1 functions (scicos1.c) run from the same instance: Xcos too calls
 * them from this view, spread into an argument list.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocks/scicos4.h"

/* One instance: the Xcos view and the arrays it points to. */
typedef struct s4_inst {
  scicos_block sb;
  bsim_block *blk; /* blocksim's view, valid during a call */
  void *user_work; /* what the function keeps in *work */
  int err;         /* set_block_error's code for this call, 0 none */
  char coserr[512];
  int *xprop;
  /* sb's arrays, carved after the struct */
} s4_inst;

static _Thread_local s4_inst *current;

static size_t aligned(size_t n) {
  const size_t a = sizeof(void *);
  return (n + a - 1) / a * a;
}

/* The instance and every array of its view in one allocation. */
static s4_inst *inst_new(const bsim_block *blk, voidg fn, int kind) {
  size_t ni = (size_t)blk->nin, no = (size_t)blk->nout, np = (size_t)blk->nopar,
         nx = (size_t)blk->nx;
  size_t ints = 3 * ni + 3 * no + 3 * np + nx;
  size_t ptrs = ni + no + np;
  size_t size = aligned(sizeof(s4_inst)) + aligned(ptrs * sizeof(void *)) +
                ints * sizeof(int);
  s4_inst *s = calloc(1, size);
  if (!s) return NULL;
  void **p = (void **)((char *)s + aligned(sizeof(s4_inst)));
  int *q = (int *)((char *)p + aligned(ptrs * sizeof(void *)));
  scicos_block *b = &s->sb;
  b->inptr = p;
  b->outptr = p + ni;
  b->oparptr = p + ni + no;
  b->insz = q;
  b->outsz = q + 3 * ni;
  b->oparsz = q + 3 * ni + 3 * no;
  b->opartyp = b->oparsz + 2 * np;
  s->xprop = b->opartyp + np;
  b->funpt = fn;
  b->type = kind;
  b->nin = blk->nin;
  b->nout = blk->nout;
  b->nopar = blk->nopar;
  b->nx = blk->nx;
  b->nz = blk->nz;
  b->ng = blk->ng;
  b->ztyp = blk->ng > 0;
  b->nmode = blk->nmode;
  b->nevout = blk->nevout;
  b->label = b->uid = (char *)blk->path;
  b->xprop = s->xprop;
  b->work = &s->user_work;
  for (int k = 0; k < blk->nin; k++) {
    b->insz[k] = blk->insz[k];
    b->insz[blk->nin + k] = blk->insz[blk->nin + k];
    b->insz[2 * blk->nin + k] = SCSREAL_N;
  }
  for (int k = 0; k < blk->nout; k++) {
    b->outsz[k] = blk->outsz[k];
    b->outsz[blk->nout + k] = blk->outsz[blk->nout + k];
    b->outsz[2 * blk->nout + k] = SCSREAL_N;
  }
  for (int k = 0; k < blk->nopar; k++) {
    b->oparsz[k] = blk->oparsz[k];
    b->oparsz[blk->nopar + k] = blk->oparsz[blk->nopar + k];
    b->opartyp[k] = SCSREAL_N;
  }
  for (int k = 0; k < blk->nx; k++)
    s->xprop[k] = 1;
  return s;
}

/* What may differ from one call to the next: where blocksim keeps the
 * states, signals and parameters now. */
static void refresh(s4_inst *s, bsim_block *blk) {
  scicos_block *b = &s->sb;
  s->blk = blk;
  b->nevprt = blk->nevprt;
  b->z = blk->z;
  b->x = blk->x;
  b->xd = blk->xd;
  b->res = blk->res;
  for (int k = 0; k < blk->nin; k++)
    b->inptr[k] = blk->inptr[k];
  for (int k = 0; k < blk->nout; k++)
    b->outptr[k] = blk->outptr[k];
  for (int k = 0; k < blk->nopar; k++)
    b->oparptr[k] = blk->oparptr[k];
  b->evout = blk->evout;
  b->nrpar = blk->nrpar;
  b->rpar = blk->rpar;
  b->nipar = blk->nipar;
  b->ipar = blk->ipar;
  b->g = blk->g;
  b->jroot = blk->jroot;
  b->mode = blk->mode;
}

static const char *error_text(int code) {
  switch (code) {
  case -1:
    return "the block has been called with input out of its domain";
  case -2:
    return "singularity in the block";
  case -3:
    return "the block produced an internal error";
  case -16:
    return "the block could not allocate memory";
  default:
    return "the block reported an error";
  }
}

/* Turn what the function reported through the services into blocksim's
 * failures: domain errors and singularities are recoverable while
 * integrating (the solver retries with a smaller step), as blocksim's own
 * numeric failures are. */
static void report(s4_inst *s, bsim_block *blk) {
  if (s->coserr[0]) {
    bsim_block_error(blk, "%s", s->coserr);
  } else if (s->err == -1 || s->err == -2) {
    char what[160];
    snprintf(what, sizeof what, "%s (set_block_error(%d))", error_text(s->err),
             s->err);
    bsim_std_numeric_failure(blk, what);
  } else if (s->err) {
    bsim_block_error(blk, "%s (set_block_error(%d))", error_text(s->err),
                     s->err);
  }
}

/* Implicit blocks say at flag 7 which states are algebraic; blocksim
 * treats every state of a block as differential, so an algebraic one must
 * be refused rather than silently integrated wrongly. */
static void check_xprop(s4_inst *s, bsim_block *blk) {
  for (int k = 0; k < blk->nx; k++)
    if (s->xprop[k] != 1) {
      bsim_block_error(blk,
                       "state %d is algebraic (xprop = %d): blocksim runs "
                       "type-4 implicit blocks whose states are all "
                       "differential (hint: write the algebraic equation as "
                       "another block, or its state as differential)",
                       k + 1, s->xprop[k]);
      return;
    }
}

static void call(s4_inst *s, bsim_block *blk, int flag) {
  s4_inst *outer = current;
  refresh(s, blk);
  s->err = 0;
  s->coserr[0] = '\0';
  current = s;
  if (s->sb.type == 1) {
    int after = bsim_scicos1_invoke(&s->sb, flag);
    if (after < 0 && !s->err) s->err = after;
  } else {
    ((bsim_scicos4_fn)s->sb.funpt)(&s->sb, flag);
  }
  current = outer;
  report(s, blk);
}

void bsim_scicos_run(bsim_block *blk, int flag, voidg fn, int kind) {
  s4_inst *s = *blk->work;
  if (flag == BSIM_FLAG_INIT) {
    char why[320];
    /* the argument list of a type-1 function has room for so many ports */
    if (kind == 1 && bsim_scicos1_check(blk, why, sizeof why) != 0) {
      bsim_block_error(blk, "%s", why);
      return;
    }
    if (!(s = inst_new(blk, fn, kind))) {
      bsim_block_error(blk, "out of memory for its Xcos view");
      return;
    }
    *blk->work = s;
  }
  /* blocksim's flag 10 has its own layout, which Xcos functions do not
   * know; their types never ask for it. */
  if (!s || flag == BSIM_FLAG_JACOBIAN) return;
  call(s, blk, flag);
  if (flag == BSIM_FLAG_INIT && kind == 10004) {
    call(s, blk, ContinuousPropertiesUpdate);
    check_xprop(s, blk);
  }
  if (flag == BSIM_FLAG_END) {
    free(s);
    *blk->work = NULL;
  }
}

void bsim_scicos4_call(bsim_block *blk, int flag, bsim_scicos4_fn fn) {
  bsim_scicos_run(blk, flag, (voidg)fn, 4);
}

void bsim_scicos4_call_implicit(bsim_block *blk, int flag, bsim_scicos4_fn fn) {
  bsim_scicos_run(blk, flag, (voidg)fn, 10004);
}

/* ---- the services ------------------------------------------------------ */

int bsim_scicos4_phase(void) {
  return current ? current->blk->phase : BSIM_PHASE_DISCRETE;
}

double bsim_scicos4_time(void) {
  return current ? current->blk->t : 0.0;
}

void bsim_scicos4_cold_restart(void) {
  if (current) bsim_block_cold_restart(current->blk);
}

void bsim_scicos4_set_error(int err) {
  if (current) current->err = err;
}

int bsim_scicos4_get_error(void) {
  return current ? current->err : 0;
}

void bsim_scicos4_set_xproperty(int *pointer) {
  if (current && pointer)
    memcpy(current->xprop, pointer,
           (size_t)current->sb.nx * sizeof *current->xprop);
}

int *bsim_scicos4_get_xproperty(void) {
  return current ? current->xprop : NULL;
}

int bsim_scicos4_nxproperty(void) {
  return current ? current->sb.nx : 0;
}

void bsim_scicos4_end(void) {
  if (current) bsim_block_stop(current->blk);
}

void bsim_scicos4_coserror(const char *fmt, ...) {
  if (!current) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(current->coserr, sizeof current->coserr, fmt, ap);
  va_end(ap);
  if (!current->coserr[0]) snprintf(current->coserr, 2, "?");
}

void bsim_scicos4_print(const char *fmt, ...) {
  if (!current) return;
  char text[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  bsim_block_message(current->blk, "%s", text);
}

void *bsim_scicos4_malloc(size_t size) {
  return malloc(size);
}

void bsim_scicos4_free(void *p) {
  free(p);
}
