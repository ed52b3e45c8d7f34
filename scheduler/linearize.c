/*
 * Linearization about the analysis point (x' = A x + B u, y = C x + D u, as
 * Scilab's lincos or Simulink's linmod give it), the accessors of the
 * analysis object and its MatrixMarket exports.
 *
 * An input is an output port whose value is taken as u: the analysis
 * shifts that buffer after its producer computed it, so any signal can be
 * an input, a CONST_m's output being the usual choice. Event-free blocks
 * downstream of an input are recomputed even when the simulation would
 * have settled them once (they are constant only while u is).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "output/atomic.h"
#include "scheduler/analyze.h"
#include "solvers/analysis.h"

static void *zalloc(size_t n, size_t size) {
  return calloc(n ? n : 1, size);
}

/* "PATH:PORT", or "PATH" for a block with exactly one output. 0 with
 * *blk, *port (from 0), or -1. */
static int find_port(const bsim_plan *p, const char *spec, int *blk,
                     int *port) {
  for (int i = 0; i < p->nblocks; i++)
    if (strcmp(p->blocks[i].fb->path, spec) == 0 &&
        p->blocks[i].fb->model.nout == 1) {
      *blk = i;
      *port = 0;
      return 0;
    }
  const char *colon = strrchr(spec, ':');
  if (!colon || colon[1] == '\0') return -1;
  char *end;
  long k = strtol(colon + 1, &end, 10);
  if (*end || k < 1) return -1;
  size_t len = (size_t)(colon - spec);
  for (int i = 0; i < p->nblocks; i++) {
    const char *path = p->blocks[i].fb->path;
    if (strlen(path) == len && strncmp(path, spec, len) == 0 &&
        k <= p->blocks[i].fb->model.nout) {
      *blk = i;
      *port = (int)k - 1;
      return 0;
    }
  }
  return -1;
}

static int port_size(const bsim_plan *p, int blk, int port) {
  const bsim_model *m = &p->blocks[blk].fb->model;
  return m->out[port] * m->out2[port];
}

void bsim_an_free_linear(bsim_analysis *a) {
  for (int k = 0; k < a->nu && a->uin; k++)
    free(a->uin[k]);
  for (int k = 0; k < a->no && a->oname; k++)
    free(a->oname[k]);
  free(a->uin);
  free(a->oname);
  free(a->osrc);
  free(a->in);
  free(a->unom);
  free(a->A);
  free(a->B);
  free(a->C);
  free(a->D);
  a->uin = a->oname = NULL;
  a->osrc = NULL;
  a->in = NULL;
  a->unom = a->A = a->B = a->C = a->D = NULL;
  a->nin = a->nu = a->no = a->lin = 0;
  a->u = NULL;
}

static int bad_signal(const char *what, const char *spec, bsim_error *err) {
  bsim_error_set(err, BSIM_ERR_INPUT,
                 "linearize: unknown %s signal '%s' (hint: name an output "
                 "port as PATH:PORT, e.g. 'u:1', or a block with one output "
                 "by its path%s)",
                 what, spec, what[0] == 'o' ? ", or an observe name" : "");
  return -1;
}

static int name_scalar(char **dst, const char *base, int n, int i) {
  return bsim_an_appendf(dst, n > 1 ? "%s[%d]" : "%s", base, i + 1) ? 0 : -1;
}

/* Inputs and outputs as scalars: names, buffers, nominal values. */
static int resolve(bsim_analysis *a, const char *const *inputs, int ni,
                   const char *const *outputs, int no, bsim_error *err) {
  const bsim_plan *p = a->p;
  a->in = zalloc((size_t)ni, sizeof(an_input));
  if (!a->in) return -2;
  for (int k = 0; k < ni; k++) {
    an_input *in = &a->in[k];
    if (find_port(p, inputs[k], &in->block, &in->port) != 0)
      return bad_signal("input", inputs[k], err);
    /* The same port twice would share one perturbation: all but the last
     * column of B and D would come out zero. */
    for (int j = 0; j < k; j++)
      if (a->in[j].block == in->block && a->in[j].port == in->port) {
        bsim_error_set(err, BSIM_ERR_INPUT,
                       "linearize: input '%s' given twice (inputs %d and %d "
                       "name the same port; hint: list each input once)",
                       inputs[k], j + 1, k + 1);
        return -1;
      }
    in->n = port_size(p, in->block, in->port);
    a->nu += in->n;
  }
  a->nin = ni;
  a->uin = zalloc((size_t)a->nu, sizeof(char *));
  a->unom = zalloc((size_t)a->nu, sizeof(double));
  if (!a->uin || !a->unom) return -2;
  for (int k = 0, u = 0; k < ni; k++) {
    const an_input *in = &a->in[k];
    const double *buf = a->x->blocks[in->block].b.outptr[in->port];
    for (int i = 0; i < in->n; i++, u++) {
      a->unom[u] = buf[i];
      if (name_scalar(&a->uin[u], inputs[k], in->n, i) != 0) return -2;
    }
  }
  /* outputs: count, then fill */
  int total = 0;
  int *blk = zalloc((size_t)no, sizeof(int)),
      *prt = zalloc((size_t)no, sizeof(int));
  if (!blk || !prt) {
    free(blk);
    free(prt);
    return -2;
  }
  int rc = 0;
  for (int k = 0; k < no && rc == 0; k++) {
    const bsim_flat *f = p->flat;
    blk[k] = -1;
    for (int i = 0; i < f->nobserves && blk[k] < 0; i++)
      if (strcmp(f->observes[i].name, outputs[k]) == 0) {
        blk[k] = f->observes[i].block;
        prt[k] = f->observes[i].port;
      }
    if (blk[k] < 0 && find_port(p, outputs[k], &blk[k], &prt[k]) != 0)
      rc = bad_signal("output", outputs[k], err);
    else
      total += port_size(p, blk[k], prt[k]);
  }
  a->oname = zalloc((size_t)total, sizeof(char *));
  a->osrc = zalloc((size_t)total, sizeof(double *));
  if (rc == 0 && (!a->oname || !a->osrc)) rc = -2;
  for (int k = 0; k < no && rc == 0; k++) {
    int n = port_size(p, blk[k], prt[k]);
    const double *buf = a->x->blocks[blk[k]].b.outptr[prt[k]];
    for (int i = 0; i < n && rc == 0; i++, a->no++) {
      a->osrc[a->no] = buf + i;
      rc = name_scalar(&a->oname[a->no], outputs[k], n, i);
    }
  }
  free(blk);
  free(prt);
  return rc;
}

/* Output sensitivities and dF/du by central differences, then the
 * elimination of y' and the algebraic unknowns:
 *   M [x'; w] = -(dF/dx x + dF/du u),  M = [dF/dx' dF/dw]
 * gives [A B; Wx Wu] = -M^-1 [dF/dx dF/du], and the outputs
 * C = dO/dx + dO/dw Wx, D = dO/du + dO/dw Wu. */
static int compute(bsim_analysis *a, bsim_error *err) {
  int n = a->n, nd = a->nd, nu = a->nu, no = a->no, k2 = nd + nu;
  size_t sn = (size_t)n, sk = (size_t)k2;
  double *M = zalloc(sn * sn, sizeof(double)),
         *R = zalloc(sn * sk, sizeof(double));
  double *Oy = zalloc((size_t)no * sn, sizeof(double)),
         *Ou = zalloc((size_t)no * (size_t)nu, sizeof(double));
  double *col = zalloc(sn, sizeof(double)),
         *outs = zalloc((size_t)no, sizeof(double));
  double *u = zalloc((size_t)nu, sizeof(double));
  int rc = -2;
  a->A = zalloc((size_t)nd * (size_t)nd, sizeof(double));
  a->B = zalloc((size_t)nd * (size_t)nu, sizeof(double));
  a->C = zalloc((size_t)no * (size_t)nd, sizeof(double));
  a->D = zalloc((size_t)no * (size_t)nu, sizeof(double));
  if (!M || !R || !Oy || !Ou || !col || !outs || !u || !a->A || !a->B ||
      !a->C || !a->D)
    goto done;
  memcpy(u, a->unom, sizeof(double) * (size_t)nu);
  a->u = u;
  int cb = BSIM_CB_OK;
  for (int j = 0; j < n && cb == BSIM_CB_OK; j++) {
    cb = bsim_an_column(a, a->y, j, col, NULL, outs);
    for (int o = 0; o < no; o++)
      Oy[(size_t)o * sn + (size_t)j] = outs[o];
  }
  for (int k = 0; k < nu && cb == BSIM_CB_OK; k++) {
    cb = bsim_an_column(a, u, k, col, NULL, outs);
    for (int i = 0; i < n; i++)
      R[(size_t)i * sk + (size_t)(nd + k)] = col[i];
    for (int o = 0; o < no; o++)
      Ou[(size_t)o * (size_t)nu + (size_t)k] = outs[o];
  }
  if (cb != BSIM_CB_OK) {
    bsim_error_set(err, BSIM_ERR_SIM,
                   "linearize: the residual cannot be evaluated near the "
                   "point: %s",
                   a->x->errs.fatal ? a->x->errs.err.message
                                    : a->x->errs.last_recoverable);
    rc = -1;
    goto done;
  }
  for (size_t i = 0; i < sn; i++)
    for (size_t j = 0; j < sn; j++) {
      M[i * sn + j] = (j < (size_t)nd ? a->Jp : a->J)[i * sn + j];
      if (j < (size_t)nd) R[i * sk + j] = a->J[i * sn + j];
    }
  if (n > 0 && bsim_dense_solve(n, M, k2, R, R) != 0) {
    bsim_error_set(err, BSIM_ERR_SIM,
                   "linearize: dF/d[x' w] is singular at t = %g, so the "
                   "derivatives and loop signals do not follow from states "
                   "and inputs (higher index; `blocksim analyze` names the "
                   "blocks)",
                   a->t);
    rc = -1;
    goto done;
  }
  for (size_t i = 0; i < sn; i++)
    for (size_t j = 0; j < sk; j++)
      R[i * sk + j] = R[i * sk + j] == 0.0 ? 0.0 : -R[i * sk + j];
  for (int i = 0; i < nd; i++)
    for (int j = 0; j < k2; j++) {
      double v = R[(size_t)i * sk + (size_t)j];
      if (j < nd)
        a->A[(size_t)i * (size_t)nd + (size_t)j] = v;
      else
        a->B[(size_t)i * (size_t)nu + (size_t)(j - nd)] = v;
    }
  for (int o = 0; o < no; o++)
    for (int j = 0; j < k2; j++) {
      double v = j < nd ? Oy[(size_t)o * sn + (size_t)j]
                        : Ou[(size_t)o * (size_t)nu + (size_t)(j - nd)];
      for (int w = nd; w < n; w++)
        v += Oy[(size_t)o * sn + (size_t)w] * R[(size_t)w * sk + (size_t)j];
      if (j < nd)
        a->C[(size_t)o * (size_t)nd + (size_t)j] = v;
      else
        a->D[(size_t)o * (size_t)nu + (size_t)(j - nd)] = v;
    }
  rc = 0;
done:
  /* buffers back to the point itself */
  if (u && a->unom) {
    memcpy(u, a->unom, sizeof(double) * (size_t)nu);
    bsim_an_eval(a, a->y, a->yp, a->res);
  }
  a->u = NULL;
  free(M);
  free(R);
  free(Oy);
  free(Ou);
  free(col);
  free(outs);
  free(u);
  return rc;
}

int bsim_analysis_linearize(bsim_analysis *a, const char *const *inputs,
                            int ninputs, const char *const *outputs,
                            int noutputs, bsim_error *err) {
  bsim_an_free_linear(a);
  if (a->p->ix) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "linearize: the system is of index 2 and blocksim "
                   "reduced it (`blocksim analyze` says how); A, B, C, D "
                   "of a reduced system are not available (hint: put a "
                   "resistor where the note says states are fixed)");
    return -1;
  }
  int rc = resolve(a, inputs, ninputs, outputs, noutputs, err);
  if (rc == 0) rc = bsim_an_evlist(a) == 0 ? compute(a, err) : -2;
  if (rc == -2) bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
  if (rc != 0) {
    bsim_an_free_linear(a);
    bsim_an_evlist(a);
    return -1;
  }
  a->lin = 1;
  return 0;
}

/* ------------------------------------------------------------------ */
/* Accessors                                                           */
/* ------------------------------------------------------------------ */

double bsim_analysis_time(const bsim_analysis *a) {
  return a->t;
}
const char *bsim_analysis_note(const bsim_analysis *a) {
  return a->note;
}

int bsim_analysis_index(const bsim_analysis *a, const char **note) {
  if (note) *note = a->p->index_note ? a->p->index_note : "";
  return a->p->index;
}

int bsim_analysis_size(const bsim_analysis *a, int *nd, int *na) {
  if (nd) *nd = a->nd;
  if (na) *na = a->na;
  return a->n;
}

const char *bsim_analysis_unknown(const bsim_analysis *a, int j) {
  return j >= 0 && j < a->n ? a->uname[j] : NULL;
}
const char *bsim_analysis_equation(const bsim_analysis *a, int i) {
  return i >= 0 && i < a->n ? a->ename[i] : NULL;
}
const char *bsim_analysis_block_type(const bsim_analysis *a, int j) {
  return j >= 0 && j < a->n ? a->p->blocks[a->ublock[j]].fb->type->name : NULL;
}

const char *bsim_analysis_equation_type(const bsim_analysis *a, int i) {
  return i >= 0 && i < a->n ? a->p->blocks[a->rblock[i]].fb->type->name : NULL;
}
const double *bsim_analysis_jacobian(const bsim_analysis *a, int wrt_yp) {
  return wrt_yp ? a->Jp : a->J;
}

int bsim_analysis_structural_rank(const bsim_analysis *a,
                                  const char **message) {
  if (message) *message = a->smsg;
  return a->srank;
}

int bsim_analysis_algebraic_rank(const bsim_analysis *a, double *threshold,
                                 const char **message) {
  if (threshold) *threshold = a->athr;
  if (message) *message = a->imsg;
  return a->arank;
}

int bsim_analysis_eigenvalues(const bsim_analysis *a, const double **re,
                              const double **im) {
  if (!a->has_eig) return -1;
  *re = a->ere;
  *im = a->eim;
  return a->nd;
}

const double *bsim_analysis_reduced(const bsim_analysis *a) {
  return a->has_eig ? a->ared : NULL;
}

int bsim_analysis_stability(const bsim_analysis *a, double *stiffness) {
  if (stiffness) *stiffness = a->stiff;
  return a->verdict;
}

const double *bsim_analysis_matrix(const bsim_analysis *a, char which,
                                   int *rows, int *cols) {
  if (!a->lin) return NULL;
  int r = which == 'C' || which == 'D' ? a->no : a->nd;
  int c = which == 'B' || which == 'D' ? a->nu : a->nd;
  *rows = r;
  *cols = c;
  switch (which) {
  case 'A':
    return a->A;
  case 'B':
    return a->B;
  case 'C':
    return a->C;
  case 'D':
    return a->D;
  default:
    return NULL;
  }
}

const char *bsim_analysis_input(const bsim_analysis *a, int k) {
  return a->lin && k >= 0 && k < a->nu ? a->uin[k] : NULL;
}
const char *bsim_analysis_output(const bsim_analysis *a, int k) {
  return a->lin && k >= 0 && k < a->no ? a->oname[k] : NULL;
}

/* ------------------------------------------------------------------ */
/* Files                                                               */
/* ------------------------------------------------------------------ */

int bsim_an_write(const char *dir, const char *name,
                  int (*fill)(FILE *f, const void *ctx), const void *ctx,
                  bsim_error *err) {
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
    bsim_error_set(err, BSIM_ERR_INPUT, "cannot create folder '%s': %s", dir,
                   strerror(errno));
    return -1;
  }
  size_t len = strlen(dir) + strlen(name) + 2;
  char *path = malloc(len);
  if (!path) {
    bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
    return -1;
  }
  snprintf(path, len, "%s/%s", dir, name);
  bsim_atomic at;
  int rc = -1;
  if (bsim_atomic_open(&at, path, NULL) == 0 &&
      bsim_atomic_close(&at, fill(at.f, ctx) == 0) == 0)
    rc = 0;
  else
    bsim_error_set(err, BSIM_ERR_INPUT, "cannot write '%s': %s", path,
                   strerror(errno));
  free(path);
  return rc;
}

typedef struct mm_job {
  int rows, cols;
  const double *m;
  char *const *names;
} mm_job;

static int fill_mm(FILE *f, const void *ctx) {
  const mm_job *j = ctx;
  return bsim_mm_write(f, j->rows, j->cols, j->m) < 0 ? -1 : 0;
}

static int fill_names(FILE *f, const void *ctx) {
  const mm_job *j = ctx;
  for (int i = 0; i < j->rows; i++)
    if (fprintf(f, "%s\n", j->names[i]) < 0) return -1;
  return 0;
}

int bsim_analysis_export_jacobian(const bsim_analysis *a, const char *dir,
                                  bsim_error *err) {
  mm_job y = {a->n, a->n, a->J, NULL}, yp = {a->n, a->n, a->Jp, NULL};
  mm_job names = {a->n, 1, NULL, a->uname};
  return bsim_an_write(dir, "dFdy.mtx", fill_mm, &y, err) ||
                 bsim_an_write(dir, "dFdyp.mtx", fill_mm, &yp, err) ||
                 bsim_an_write(dir, "unknowns.txt", fill_names, &names, err)
             ? -1
             : 0;
}

int bsim_analysis_export_linear(const bsim_analysis *a, const char *dir,
                                bsim_error *err) {
  if (!a->lin) {
    bsim_error_set(err, BSIM_ERR_INPUT, "nothing to export: not linearized");
    return -1;
  }
  mm_job m[4] = {{a->nd, a->nd, a->A, NULL},
                 {a->nd, a->nu, a->B, NULL},
                 {a->no, a->nd, a->C, NULL},
                 {a->no, a->nu, a->D, NULL}};
  static const char *const files[4] = {"A.mtx", "B.mtx", "C.mtx", "D.mtx"};
  for (int k = 0; k < 4; k++)
    if (bsim_an_write(dir, files[k], fill_mm, &m[k], err) != 0) return -1;
  mm_job in = {a->nu, 1, NULL, a->uin}, out = {a->no, 1, NULL, a->oname};
  return bsim_an_write(dir, "inputs.txt", fill_names, &in, err) ||
                 bsim_an_write(dir, "outputs.txt", fill_names, &out, err)
             ? -1
             : 0;
}
