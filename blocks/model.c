/*
 * The bsim_model allocation helpers that define steps use. A model owns all
 * its arrays; these helpers (re)allocate them zero-filled so that a define
 * step only writes the entries that differ from Xcos's defaults, and
 * bsim_model_clear releases everything in one place.
 */
#include <stdlib.h>
#include <string.h>

#include "blocksim/block.h"

/* calloc that never returns NULL for n == 0, so NULL always means "out of
 * memory" to the caller. */
static void *zalloc(size_t n, size_t size) {
  return calloc(n ? n : 1, size);
}

int bsim_model_set_inputs(bsim_model *m, int n, int rows, int cols, int dep_u) {
  free(m->in);
  free(m->in2);
  free(m->dep_u);
  m->in = m->in2 = m->dep_u = NULL;
  m->nin = 0;
  if (n <= 0) return 0;
  m->in = zalloc((size_t)n, sizeof *m->in);
  m->in2 = zalloc((size_t)n, sizeof *m->in2);
  m->dep_u = zalloc((size_t)n, sizeof *m->dep_u);
  if (!m->in || !m->in2 || !m->dep_u) return -1;
  for (int i = 0; i < n; i++) {
    m->in[i] = rows;
    m->in2[i] = cols;
    m->dep_u[i] = dep_u;
  }
  m->nin = n;
  return 0;
}

int bsim_model_set_outputs(bsim_model *m, int n, int rows, int cols) {
  free(m->out);
  free(m->out2);
  m->out = m->out2 = NULL;
  m->nout = 0;
  if (n <= 0) return 0;
  m->out = zalloc((size_t)n, sizeof *m->out);
  m->out2 = zalloc((size_t)n, sizeof *m->out2);
  if (!m->out || !m->out2) return -1;
  for (int i = 0; i < n; i++) {
    m->out[i] = rows;
    m->out2[i] = cols;
  }
  m->nout = n;
  return 0;
}

int bsim_model_set_events(bsim_model *m, int nevin, int nevout) {
  free(m->firing);
  m->firing = NULL;
  m->nevin = nevin > 0 ? nevin : 0;
  m->nevout = 0;
  if (nevout <= 0) return 0;
  m->firing = zalloc((size_t)nevout, sizeof *m->firing);
  if (!m->firing) return -1;
  for (int i = 0; i < nevout; i++)
    m->firing[i] = -1.0;
  m->nevout = nevout;
  return 0;
}

double *bsim_model_alloc_rpar(bsim_model *m, int n) {
  free(m->rpar);
  m->nrpar = 0;
  m->rpar = zalloc(n > 0 ? (size_t)n : 0, sizeof *m->rpar);
  if (m->rpar) m->nrpar = n > 0 ? n : 0;
  return m->rpar;
}

/* (Re)allocate an int array of the model and its count. */
static int *ints(int **array, int *count, int n) {
  free(*array);
  *count = 0;
  *array = zalloc(n > 0 ? (size_t)n : 0, sizeof **array);
  if (*array) *count = n > 0 ? n : 0;
  return *array;
}

int *bsim_model_alloc_ipar(bsim_model *m, int n) {
  return ints(&m->ipar, &m->nipar, n);
}

double *bsim_model_alloc_x0(bsim_model *m, int n) {
  free(m->x0);
  m->nx = 0;
  m->x0 = zalloc(n > 0 ? (size_t)n : 0, sizeof *m->x0);
  if (m->x0) m->nx = n > 0 ? n : 0;
  return m->x0;
}

double *bsim_model_alloc_z0(bsim_model *m, int n) {
  free(m->z0);
  m->nz = 0;
  m->z0 = zalloc(n > 0 ? (size_t)n : 0, sizeof *m->z0);
  if (m->z0) m->nz = n > 0 ? n : 0;
  return m->z0;
}

int bsim_model_add_opar(bsim_model *m, const bsim_value *v) {
  bsim_value *grown = realloc(m->opar, (size_t)(m->nopar + 1) * sizeof *grown);
  if (!grown) return -1;
  m->opar = grown;
  bsim_value *dst = &m->opar[m->nopar];
  memset(dst, 0, sizeof *dst);
  int rows = v->rows > 0 ? v->rows : 0, cols = v->cols > 0 ? v->cols : 0;
  size_t n = (size_t)rows * (size_t)cols;
  dst->v = zalloc(n, sizeof *dst->v);
  if (!dst->v) return -1;
  if (n && v->v) memcpy(dst->v, v->v, n * sizeof *dst->v);
  if (v->str) {
    size_t len = strlen(v->str) + 1;
    dst->str = malloc(len);
    if (!dst->str) {
      free(dst->v);
      dst->v = NULL;
      return -1;
    }
    memcpy(dst->str, v->str, len);
  }
  dst->rows = rows;
  dst->cols = cols;
  m->nopar++;
  return 0;
}

void bsim_model_clear(bsim_model *m) {
  if (!m) return;
  free(m->in);
  free(m->in2);
  free(m->dep_u);
  free(m->out);
  free(m->out2);
  free(m->firing);
  free(m->x0);
  free(m->z0);
  free(m->rpar);
  free(m->ipar);
  for (int i = 0; i < m->nopar; i++) {
    free(m->opar[i].v);
    free(m->opar[i].str);
  }
  free(m->opar);
  free(m->zcdirs);
  free(m->probes);
  free(m->condom);
  free(m->conname);
  free(m->xprop);
  if (m->script) m->script->ops->unref(m->script);
  memset(m, 0, sizeof *m);
}

int *bsim_model_alloc_zcdirs(bsim_model *m, int n) {
  free(m->zcdirs);
  m->zcdirs = n > 0 ? calloc((size_t)n, sizeof *m->zcdirs) : NULL;
  return m->zcdirs;
}

int *bsim_model_alloc_probes(bsim_model *m, int n) {
  return ints(&m->probes, &m->nprobes, n);
}

int bsim_model_set_connectors(bsim_model *m, int n) {
  free(m->condom);
  free(m->conname);
  m->condom = NULL;
  m->conname = NULL;
  m->ncon = 0;
  if (n <= 0) return 0;
  m->condom = zalloc((size_t)n, sizeof *m->condom);
  m->conname = zalloc((size_t)n, sizeof *m->conname);
  if (!m->condom || !m->conname) return -1;
  m->ncon = n;
  return 0;
}

int *bsim_model_alloc_xprop(bsim_model *m, int n) {
  free(m->xprop);
  m->xprop = n > 0 ? zalloc((size_t)n, sizeof *m->xprop) : NULL;
  return m->xprop;
}
