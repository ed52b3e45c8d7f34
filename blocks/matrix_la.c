/*
 * Xcos's linear-algebra blocks: inverse (MATINV), pseudo-inverse
 * (MATPINV) and left division (MATBKSL) computed with GSL, eigenvalues with
 * or without eigenvectors (MATEIG) with LAPACK, as Scilab does, for its
 * order and normalisation. Each allocates its workspaces at
 * flag 4 for the sizes its ports have, so that computing outputs inside
 * the residual allocates nothing. Signals are column-major; GSL matrices
 * are row-major, so the data are copied in and out element by element.
 *
 * Complex results (MATEIG) are carried as real matrices with twice the
 * columns: a complex r x c signal is the real r x 2c matrix [Re Im], which
 * is also how Xcos lays out a complex port in memory.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_linalg.h>

#include "blocks/std.h"
#include "modules/lapack.h"
#include "modules/module.h"

static int is_output_flag(int flag) {
  return flag == BSIM_FLAG_OUTPUTS || flag == BSIM_FLAG_REINIT;
}

#define IR(b, k) ((b)->insz[k])
#define IC(b, k) ((b)->insz[(b)->nin + (k)])
#define OR(b, k) ((b)->outsz[k])
#define OC(b, k) ((b)->outsz[(b)->nout + (k)])

static void load(gsl_matrix *a, const double *u) {
  for (size_t i = 0; i < a->size1; i++)
    for (size_t j = 0; j < a->size2; j++)
      gsl_matrix_set(a, i, j, u[i + a->size1 * j]);
}

static void store(double *y, const gsl_matrix *a) {
  for (size_t i = 0; i < a->size1; i++)
    for (size_t j = 0; j < a->size2; j++)
      y[i + a->size1 * j] = gsl_matrix_get(a, i, j);
}

static int elementwise_real(bsim_define_ctx *ctx, bsim_model *m, int r, int c,
                            int outr, int outc) {
  if (bsim_std_real_datatype(ctx) != 0) return -1;
  if (bsim_model_set_inputs(m, 1, r, c, 1) != 0 ||
      bsim_model_set_outputs(m, 1, outr, outc) != 0)
    return bsim_define_error(ctx, "out of memory");
  return 0;
}

static const bsim_param_spec datatype_params[] = {
    {"datatype", BSIM_PARAM_REAL, "1",
     "1: real double (the only one supported; Xcos's 2 is complex)"},
};

/* ------------------------------------------------- the work of the blocks */

/* Every workspace any of the blocks needs; unused ones stay NULL. */
typedef struct la_work {
  gsl_matrix *a, *b, *v, *inv;
  gsl_vector *s, *work, *x;
  double *scratch;
  gsl_permutation *p;
} la_work;

static void la_free(bsim_block *blk) {
  la_work *w = (la_work *)*blk->work;
  if (!w) return;
  gsl_matrix_free(w->a);
  gsl_matrix_free(w->b);
  gsl_matrix_free(w->v);
  gsl_matrix_free(w->inv);
  gsl_vector_free(w->s);
  gsl_vector_free(w->work);
  gsl_vector_free(w->x);
  free(w->scratch);
  gsl_permutation_free(w->p);
  free(w);
  *blk->work = NULL;
}

static la_work *la_new(bsim_block *blk) {
  la_free(blk);
  la_work *w = calloc(1, sizeof *w);
  *blk->work = w;
  if (!w) bsim_block_error(blk, "out of memory");
  return w;
}

static int la_oom(bsim_block *blk) {
  bsim_block_error(blk, "out of memory");
  return -1;
}

/* ----------------------------------------------------------------- MATINV */

static int matinv_define(bsim_define_ctx *ctx, bsim_model *m) {
  return elementwise_real(ctx, m, -1, -1, -1, -1);
}

/* A zero pivot of the LU factors: the matrix is singular. */
static int lu_singular(const gsl_matrix *lu) {
  for (size_t i = 0; i < lu->size1; i++)
    if (gsl_matrix_get(lu, i, i) == 0) return (int)i + 1;
  return 0;
}

static void matinv_fn(bsim_block *blk, int flag) {
  /* a file's stored model may lack a port (then flag 4 took no work) */
  if (bsim_std_lacks_ports(blk, flag, 1, 1)) return;
  la_work *w = (la_work *)*blk->work;
  size_t n = (size_t)IR(blk, 0);
  if (flag == BSIM_FLAG_INIT) {
    if (IC(blk, 0) != (int)n || OR(blk, 0) != (int)n || OC(blk, 0) != (int)n) {
      bsim_block_error(blk, "input and output must be square and of one size");
      return;
    }
    if (!(w = la_new(blk))) return;
    w->a = gsl_matrix_alloc(n, n);
    w->inv = gsl_matrix_alloc(n, n);
    w->p = gsl_permutation_alloc(n);
    if (!w->a || !w->inv || !w->p) la_oom(blk);
    return;
  }
  if (flag == BSIM_FLAG_END) {
    la_free(blk);
    return;
  }
  if (!w || !is_output_flag(flag)) return;
  int sign, k;
  load(w->a, blk->inptr[0]);
  gsl_linalg_LU_decomp(w->a, w->p, &sign);
  if ((k = lu_singular(w->a)) != 0) {
    /* Xcos leaves the output alone during the initial fixed point */
    if (flag == BSIM_FLAG_REINIT) return;
    char what[96];
    snprintf(what, sizeof what,
             "the matrix is singular (U(%d,%d) of its LU factors is 0)", k, k);
    bsim_std_numeric_failure(blk, what);
    return;
  }
  gsl_linalg_LU_invert(w->a, w->p, w->inv);
  store(blk->outptr[0], w->inv);
}

const bsim_block_type bsim_type_MATINV = {
    "MATINV",
    "mat_inv",
    "Matrix inverse.",
    "y = inv(u) for a square u, by LU factorisation with partial pivoting.\n"
    "A singular u (a zero pivot) is a recoverable failure while integrating\n"
    "and fatal elsewhere; during the initial fixed point the output keeps\n"
    "its value, as in Xcos.\n"
    "Run-time layout: in = -1 x -1, out = -1 x -1, no rpar or ipar.\n"
    "Direct feedthrough.",
    datatype_params,
    1,
    matinv_define,
    matinv_fn,
    0,
    "datatype"};

/* --------------------------------------------------------------- MATPINV */

static int matpinv_define(bsim_define_ctx *ctx, bsim_model *m) {
  return elementwise_real(ctx, m, -1, -2, -2, -1);
}

/* Workspaces for the SVD of a (or of a' when it is wide): the tall
 * factor a (rows >= cols), V, the singular values. */
static int svd_alloc(bsim_block *blk, la_work *w, size_t r, size_t c) {
  size_t big = r >= c ? r : c, small = r >= c ? c : r;
  w->a = gsl_matrix_alloc(big, small);
  w->v = gsl_matrix_alloc(small, small);
  w->s = gsl_vector_alloc(small);
  w->work = gsl_vector_alloc(small);
  return w->a && w->v && w->s && w->work ? 0 : la_oom(blk);
}

/* The SVD of the r x c u, of its transpose when it is wide (r < c): the
 * tall t = U S V' with U in w->a, V in w->v, S in w->s (decreasing). */
static void svd_of(la_work *w, const double *u, size_t r, size_t c) {
  int wide = r < c;
  for (size_t i = 0; i < r; i++)
    for (size_t j = 0; j < c; j++)
      gsl_matrix_set(w->a, wide ? j : i, wide ? i : j, u[i + r * j]);
  gsl_linalg_SV_decomp(w->a, w->v, w->s, w->work);
}

/* pinv(u) (c x r) into y from svd_of's factors: V S+ U' for the tall t,
 * and pinv(u) = pinv(u')' when u is wide. Singular values at or below tol
 * count as zero (tol = 0: Xcos's MATPINV inverts every nonzero one). */
static void pinv_of_svd(const la_work *w, size_t r, size_t c, double tol,
                        double *y) {
  int wide = r < c;
  size_t big = wide ? c : r, small = wide ? r : c;
  for (size_t i = 0; i < small; i++)
    for (size_t j = 0; j < big; j++) {
      double acc = 0;
      for (size_t k = 0; k < small; k++) {
        double sk = gsl_vector_get(w->s, k);
        if (sk > tol && sk != 0)
          acc += gsl_matrix_get(w->v, i, k) / sk * gsl_matrix_get(w->a, j, k);
      }
      if (wide)
        y[j + c * i] = acc;
      else
        y[i + c * j] = acc;
    }
}

static void matpinv_fn(bsim_block *blk, int flag) {
  /* a file's stored model may lack a port (then flag 4 took no work) */
  if (bsim_std_lacks_ports(blk, flag, 1, 1)) return;
  la_work *w = (la_work *)*blk->work;
  size_t r = (size_t)IR(blk, 0), c = (size_t)IC(blk, 0);
  if (flag == BSIM_FLAG_INIT) {
    if (OR(blk, 0) != (int)c || OC(blk, 0) != (int)r) {
      bsim_block_error(blk, "output must be %zux%zu", c, r);
      return;
    }
    if ((w = la_new(blk)) != NULL) svd_alloc(blk, w, r, c);
    return;
  }
  if (flag == BSIM_FLAG_END) {
    la_free(blk);
    return;
  }
  if (!w || !is_output_flag(flag)) return;
  svd_of(w, blk->inptr[0], r, c);
  pinv_of_svd(w, r, c, 0, blk->outptr[0]);
}

const bsim_block_type bsim_type_MATPINV = {
    "MATPINV",
    "mat_pinv",
    "Matrix pseudo-inverse.",
    "y = pinv(u) (u m x n, y n x m) from the singular value decomposition\n"
    "u = U S V': y = V S+ U', where S+ inverts every nonzero singular value\n"
    "(no tolerance, as Xcos's mat_pinv).\n"
    "Run-time layout: in = -1 x -2, out = -2 x -1, no rpar or ipar.\n"
    "Direct feedthrough.",
    datatype_params,
    1,
    matpinv_define,
    matpinv_fn,
    0,
    "datatype"};

/* --------------------------------------------------------------- MATBKSL */

static int matbksl_define(bsim_define_ctx *ctx, bsim_model *m) {
  if (bsim_std_real_datatype(ctx) != 0) return -1;
  if (bsim_model_set_inputs(m, 2, -1, -2, 1) != 0 ||
      bsim_model_set_outputs(m, 1, -2, -3) != 0)
    return bsim_define_error(ctx, "out of memory");
  m->in2[1] = -3;
  return 0;
}

/* 1-norm of the m x n column-major matrix u. */
static double norm1(const double *u, size_t m, size_t n) {
  double best = 0;
  for (size_t j = 0; j < n; j++) {
    double s = 0;
    for (size_t i = 0; i < m; i++)
      s += fabs(u[i + m * j]);
    best = fmax(best, s);
  }
  return best;
}

static void matbksl_fn(bsim_block *blk, int flag) {
  /* a file's stored model may lack a port (then flag 4 took no work) */
  if (bsim_std_lacks_ports(blk, flag, 2, 1)) return;
  la_work *w = (la_work *)*blk->work;
  size_t m = (size_t)IR(blk, 0), n = (size_t)IC(blk, 0), p = (size_t)IC(blk, 1);
  if (flag == BSIM_FLAG_INIT) {
    if (IR(blk, 1) != (int)m || OR(blk, 0) != (int)n || OC(blk, 0) != (int)p) {
      bsim_block_error(blk,
                       "A is %zux%zu: B must have %zu rows and y be "
                       "%zux%zu",
                       m, n, m, n, p);
      return;
    }
    if (!(w = la_new(blk))) return;
    if (m == n) {
      w->b = gsl_matrix_alloc(n, n);
      w->inv = gsl_matrix_alloc(n, n);
      w->p = gsl_permutation_alloc(n);
      w->x = gsl_vector_alloc(n);
      if (!w->b || !w->inv || !w->p || !w->x) {
        la_oom(blk);
        return;
      }
    }
    /* the least-squares fallback: the SVD, and pinv(A) (n x m) */
    if (svd_alloc(blk, w, m, n) == 0 &&
        !(w->scratch = malloc(sizeof(double) * n * m)))
      la_oom(blk);
    return;
  }
  if (flag == BSIM_FLAG_END) {
    la_free(blk);
    return;
  }
  if (!w || !is_output_flag(flag)) return;
  const double *A = blk->inptr[0], *B = blk->inptr[1];
  double *y = blk->outptr[0];
  if (m == n) {
    /* Xcos: LU when the reciprocal condition number (1-norm) is above
     * sqrt(eps), else the least-squares solution */
    int sign;
    load(w->b, A);
    gsl_linalg_LU_decomp(w->b, w->p, &sign);
    if (!lu_singular(w->b)) {
      gsl_linalg_LU_invert(w->b, w->p, w->inv);
      double ninv = 0;
      for (size_t j = 0; j < n; j++) {
        double s = 0;
        for (size_t i = 0; i < n; i++)
          s += fabs(gsl_matrix_get(w->inv, i, j));
        ninv = fmax(ninv, s);
      }
      if (1.0 / (norm1(A, n, n) * ninv) > sqrt(DBL_EPSILON)) {
        for (size_t j = 0; j < p; j++) {
          gsl_vector_const_view bj = gsl_vector_const_view_array(B + n * j, n);
          gsl_linalg_LU_solve(w->b, w->p, &bj.vector, w->x);
          for (size_t i = 0; i < n; i++)
            y[i + n * j] = gsl_vector_get(w->x, i);
        }
        return;
      }
    }
  }
  /* minimum-norm least squares, rank decided at sqrt(eps) of the largest
   * singular value (Xcos's dgelsy decides at the same level on a
   * rank-revealing QR): y = pinv(A) B */
  svd_of(w, A, m, n);
  double *pa = w->scratch; /* n x m */
  pinv_of_svd(w, m, n, sqrt(DBL_EPSILON) * gsl_vector_get(w->s, 0), pa);
  for (size_t j = 0; j < p; j++)
    for (size_t i = 0; i < n; i++) {
      double acc = 0;
      for (size_t k = 0; k < m; k++)
        acc += pa[i + n * k] * B[k + m * j];
      y[i + n * j] = acc;
    }
}

const bsim_block_type bsim_type_MATBKSL = {
    "MATBKSL",
    "mat_bksl",
    "Left matrix division: y = A \\ B.",
    "y solves A y = B (A = input 1, m x n; B = input 2, m x p; y n x p).\n"
    "As Xcos: a square A whose reciprocal condition number (1-norm) exceeds\n"
    "sqrt(%eps) is solved by LU; otherwise y is the minimum-norm least-\n"
    "squares solution, with the rank decided at sqrt(%eps) relative to\n"
    "the largest singular value.\n"
    "Run-time layout: in = [-1 x -2; -1 x -3], out = -2 x -3, no rpar or\n"
    "ipar. Direct feedthrough.",
    datatype_params,
    1,
    matbksl_define,
    matbksl_fn,
    0,
    "datatype"};

/* ----------------------------------------------------------------- MATEIG */

/* LAPACK, which Scilab's MATEIG calls: the same routines give the same
 * order of the eigenvalues and the same normalisation of the eigenvectors
 * (GSL's QR iteration orders them differently). From the lapack module
 * (modules/lapack.h), so that only diagrams with a MATEIG load LAPACK and
 * the Fortran runtime: the one way out of blocks/ to modules/. */
static const bsim_lapack_module *lapack(bsim_error *err) {
  return bsim_module("lapack", "computing eigenvalues with LAPACK", err);
}

static const bsim_param_spec mateig_params[] = {
    {"datatype", BSIM_PARAM_REAL, "1",
     "1: real double (the only one supported; Xcos's 2 is complex)"},
    {"decomposition", BSIM_PARAM_REAL, "1",
     "1: the eigenvalues; 2: the eigenvalues (as a diagonal matrix) and "
     "the eigenvectors"},
};

static int mateig_define(bsim_define_ctx *ctx, bsim_model *m) {
  int d;
  if (bsim_std_real_datatype(ctx) != 0 ||
      bsim_std_int(ctx, "decomposition", 1, &d) != 0)
    return -1;
  if (d > 2)
    return bsim_define_error(ctx, "'decomposition' must be 1 or 2, got %d", d);
  bsim_error err;
  bsim_error_clear(&err);
  if (!lapack(&err)) return bsim_define_error(ctx, "%s", err.message);
  /* complex n x 1 is real n x 2; complex n x n is real n x 2n, which size
   * inference cannot derive from n: a free tag, checked at flag 4 */
  if (bsim_model_set_inputs(m, 1, -1, -1, 1) != 0 ||
      bsim_model_set_outputs(m, d, -1, d == 1 ? 2 : -2) != 0)
    return bsim_define_error(ctx, "out of memory");
  m->sim = d == 1 ? NULL : "mat_vpv";
  return 0;
}

/* Xcos takes the symmetric path (dsyev: increasing real eigenvalues) when
 * u equals its transpose exactly, else the general one (dgeev). */
static int symmetric(const double *u, int n) {
  for (int j = 0; j < n; j++)
    for (int i = j + 1; i < n; i++)
      if (u[i + n * j] != u[j + n * i]) return 0;
  return 1;
}

/* Work memory: a copy of u (LAPACK overwrites it), the eigenvalues, the
 * right eigenvectors and LAPACK's workspace, sized at flag 4. */
typedef struct eig_work {
  const bsim_lapack_module *la;
  int n, lwork;
  double *a, *wr, *wi, *vr, *work;
} eig_work;

static void eig_free(bsim_block *blk) {
  eig_work *w = (eig_work *)*blk->work;
  if (w) {
    free(w->a);
    free(w->work);
    free(w);
  }
  *blk->work = NULL;
}

static int mateig_init(bsim_block *blk, int n) {
  int vectors = blk->nout == 2;
  for (int k = 0; k < blk->nout; k++)
    if (OR(blk, k) != n || OC(blk, k) != (vectors ? 2 * n : 2)) {
      bsim_block_error(blk,
                       "output %d must be %dx%d (complex %dx%d as [Re Im]), "
                       "is %dx%d",
                       k + 1, n, vectors ? 2 * n : 2, n, vectors ? n : 1,
                       OR(blk, k), OC(blk, k));
      return -1;
    }
  eig_free(blk);
  bsim_error err;
  bsim_error_clear(&err);
  const bsim_lapack_module *la = lapack(&err); /* define found it */
  if (!la) {
    bsim_block_error(blk, "%s", err.message);
    return -1;
  }
  eig_work *w = calloc(1, sizeof *w);
  *blk->work = w;
  size_t nn = (size_t)n * (size_t)n;
  /* the larger of dgeev's and dsyev's needs, asked from LAPACK */
  double q1 = 0, q2 = 0, dummy = 0;
  int info = 0, ask = -1;
  if (w) {
    w->la = la;
    la->dgeev("N", vectors ? "V" : "N", &n, &dummy, &n, &dummy, &dummy, &dummy,
              &n, &dummy, &n, &q1, &ask, &info);
    la->dsyev(vectors ? "V" : "N", "U", &n, &dummy, &n, &dummy, &q2, &ask,
              &info);
    w->n = n;
    w->lwork = (int)fmax(fmax(q1, q2), 4.0 * n);
    w->a = malloc(sizeof(double) * (2 * nn + 2 * (size_t)n));
    w->work = malloc(sizeof(double) * (size_t)w->lwork);
  }
  if (!w || !w->a || !w->work) {
    bsim_block_error(blk, "out of memory");
    return -1;
  }
  w->vr = w->a + nn;
  w->wr = w->vr + nn;
  w->wi = w->wr + n;
  return 0;
}

/* Xcos's outputs from LAPACK's: the eigenvalues (on a diagonal with
 * vectors), real parts then imaginary parts; dgeev stores a complex pair's
 * eigenvector v = vr(:,j) + i vr(:,j+1), its conjugate for j+1. */
static void mateig_store(bsim_block *blk, const eig_work *w, int sym) {
  int n = w->n, vectors = blk->nout == 2;
  size_t part = vectors ? (size_t)n * n : (size_t)n;
  double *y = blk->outptr[0];
  memset(y, 0, sizeof(double) * 2 * part);
  for (int i = 0; i < n; i++) {
    size_t at = vectors ? (size_t)i + (size_t)n * i : (size_t)i;
    y[at] = w->wr[i];
    y[part + at] = sym ? 0.0 : w->wi[i];
  }
  if (!vectors) return;
  double *v = blk->outptr[1], *re = v, *im = v + part;
  const double *src = sym ? w->a : w->vr;
  for (int j = 0; j < n; j++) {
    int pair = !sym && w->wi[j] != 0 && j + 1 < n;
    for (int i = 0; i < n; i++) {
      size_t ij = (size_t)i + (size_t)n * j, ij1 = ij + (size_t)n;
      re[ij] = src[ij];
      im[ij] = pair ? src[ij1] : 0.0;
      if (pair) {
        re[ij1] = src[ij];
        im[ij1] = -src[ij1];
      }
    }
    j += pair;
  }
}

static void mateig_fn(bsim_block *blk, int flag) {
  /* a file's stored model may lack a port (then flag 4 took no work) */
  if (bsim_std_lacks_ports(blk, flag, 1, 1)) return;
  eig_work *w = (eig_work *)*blk->work;
  int n = IR(blk, 0);
  if (flag == BSIM_FLAG_INIT) {
    if (IC(blk, 0) != n)
      bsim_block_error(blk, "the input must be square, is %dx%d", n,
                       IC(blk, 0));
    else
      mateig_init(blk, n);
    return;
  }
  if (flag == BSIM_FLAG_END) {
    eig_free(blk);
    return;
  }
  if (!w || !is_output_flag(flag)) return;
  const double *u = blk->inptr[0];
  int vectors = blk->nout == 2, sym = symmetric(u, n), info = 0;
  memcpy(w->a, u, sizeof(double) * (size_t)n * (size_t)n);
  if (sym) {
    w->la->dsyev(vectors ? "V" : "N", "U", &n, w->a, &n, w->wr, w->work,
                 &w->lwork, &info);
  } else {
    double dummy = 0;
    int one = 1;
    w->la->dgeev("N", vectors ? "V" : "N", &n, w->a, &n, w->wr, w->wi, &dummy,
                 &one, w->vr, &n, w->work, &w->lwork, &info);
  }
  if (info != 0) {
    /* Xcos ignores a failure during the initial fixed point only */
    if (flag != BSIM_FLAG_REINIT)
      bsim_std_numeric_failure(blk,
                               "the eigenvalue iteration did not converge");
    return;
  }
  mateig_store(blk, w, sym);
}

#define MATEIG_DOC                                                             \
  "The eigenvalues of the square input u, computed as Xcos does, with\n"       \
  "LAPACK: when u equals its transpose exactly, dsyev (the values in\n"        \
  "increasing order, imaginary parts 0); otherwise dgeev (balanced QR,\n"      \
  "complex conjugate pairs together, the positive imaginary part first).\n"    \
  "The results are complex and carried as real matrices [Re Im] with\n"        \
  "twice the columns (Xcos's memory layout of a complex port): with\n"         \
  "decomposition = 1, y is n x 2 (the eigenvalues); with 2, output 1 is\n"     \
  "n x 2n (the diagonal matrix of eigenvalues) and output 2 n x 2n (the\n"     \
  "eigenvectors as LAPACK normalises them: unit norm, a complex one with\n"    \
  "its largest component real). n x 2n cannot be inferred from the input:\n"   \
  "the consumers must fix it.\n"                                               \
  "Run-time layout: no rpar or ipar, in = -1 x -1, out = -1 x 2\n"             \
  "(decomposition 1; Xcos: complex -1 x 1, model.sim = \"mat_vps\") or\n"      \
  "[-1 x -2; -1 x -2] (2; Xcos: complex -1 x -1, model.sim = \"mat_vpv\").\n"  \
  "Direct feedthrough."

const bsim_block_type bsim_type_MATEIG = {
    "MATEIG",
    "mat_vps",
    "Eigenvalues (and eigenvectors) of a matrix.",
    MATEIG_DOC,
    mateig_params,
    2,
    mateig_define,
    mateig_fn,
    0,
    "datatype,decomposition"};

const bsim_block_type bsim_type_mat_vpv = {
    "mat_vpv",
    "mat_vpv",
    "MATEIG with eigenvectors (simulation function).",
    "See MATEIG.",
    mateig_params,
    2,
    mateig_define,
    mateig_fn,
    0};
