/*
 * Linear algebra for contexts: inv, det, expm, trace, norm, the matrix
 * divisions A\B and B/A, and ppol (pole placement), which control demos
 * use to compute gains in their contexts. GSL does the numerical work;
 * this file converts between Scilab's column-major values and GSL's
 * row-major matrices and reports errors the evaluator's way.
 */
#include <math.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_permutation.h>

#include "diagrams/expr_int.h"

static gsl_matrix *to_gsl(const mat *m) {
  gsl_matrix *g = gsl_matrix_alloc((size_t)m->rows, (size_t)m->cols);
  if (!g) return NULL;
  for (int i = 0; i < m->rows; i++)
    for (int j = 0; j < m->cols; j++)
      gsl_matrix_set(g, (size_t)i, (size_t)j, m->v[i + (long)j * m->rows]);
  return g;
}

static int from_gsl(parser *P, const gsl_matrix *g, mat *out) {
  if (ex_mat_new(P, out, (long)g->size1, (long)g->size2)) return -1;
  for (size_t i = 0; i < g->size1; i++)
    for (size_t j = 0; j < g->size2; j++)
      out->v[i + j * g->size1] = gsl_matrix_get(g, i, j);
  return 0;
}

static int need_square(parser *P, const char *name, const mat *a, size_t pos) {
  if (ex_need_real(P, a, name, pos)) return -1;
  if (a->rows != a->cols || a->rows == 0)
    return ex_fail(P,
                   "function '%s' at column %zu: expected a non-empty square "
                   "matrix, got %dx%d",
                   name, col(pos), a->rows, a->cols);
  return 0;
}

/* A square matrix for a factorisation, which costs about n^3. */
static int need_factor(parser *P, const char *name, const mat *a, size_t pos) {
  if (need_square(P, name, a, pos)) return -1;
  double n = (double)a->rows;
  return ex_work(P, "function", name, pos, n * n * n);
}

/* LU of a square matrix: *lu and *perm allocated; returns the sign, or 0
 * with P failed. Singular matrices are reported by the caller. */
typedef struct lu {
  gsl_matrix *m;
  gsl_permutation *p;
  int sign;
} lu;

static void lu_free(lu *f) {
  gsl_matrix_free(f->m);
  gsl_permutation_free(f->p);
}

static int lu_of(parser *P, const mat *a, lu *f) {
  f->m = to_gsl(a);
  f->p = gsl_permutation_alloc((size_t)a->rows);
  if (!f->m || !f->p) {
    lu_free(f);
    return ex_fail(P, "out of memory");
  }
  gsl_linalg_LU_decomp(f->m, f->p, &f->sign);
  return 0;
}

static int singular(const lu *f) {
  double big = 0;
  for (size_t i = 0; i < f->m->size1; i++)
    big = fmax(big, fabs(gsl_matrix_get(f->m, i, i)));
  for (size_t i = 0; i < f->m->size1; i++)
    if (fabs(gsl_matrix_get(f->m, i, i)) <= 1e-15 * big || big == 0) return 1;
  return 0;
}

static int call_inv(parser *P, const char *name, size_t pos, const mat *a,
                    mat *out) {
  if (need_factor(P, name, a, pos)) return -1;
  lu f;
  if (lu_of(P, a, &f)) return -1;
  int rc;
  if (singular(&f)) {
    rc = ex_fail(P, "function '%s' at column %zu: the matrix is singular", name,
                 col(pos));
  } else {
    gsl_matrix *inv = gsl_matrix_alloc(f.m->size1, f.m->size1);
    rc = inv ? 0 : ex_fail(P, "out of memory");
    if (rc == 0) {
      gsl_linalg_LU_invert(f.m, f.p, inv);
      rc = from_gsl(P, inv, out);
    }
    gsl_matrix_free(inv);
  }
  lu_free(&f);
  return rc;
}

int ex_solve(parser *P, const mat *A, const mat *B, int left, size_t pos,
             mat *out) {
  const char *what = left ? "operator '\\'" : "operator '/'";
  memset(out, 0, sizeof *out);
  if (ex_need_real(P, A, what, pos) || ex_need_real(P, B, what, pos)) return -1;
  int n = A->rows;
  if (A->rows != A->cols || (left ? B->rows : B->cols) != n)
    return ex_fail(P,
                   "%s at column %zu: sizes %dx%d and %dx%d do not match (a "
                   "square matrix and as many %s)",
                   what, col(pos), left ? A->rows : B->rows,
                   left ? A->cols : B->cols, left ? B->rows : A->rows,
                   left ? B->cols : A->cols, left ? "rows" : "columns");
  double nd = (double)n, nrhs = (double)(left ? B->cols : B->rows);
  if (ex_work(P, "operator", left ? "\\" : "/", pos, nd * nd * (nd + nrhs)))
    return -1;
  /* [] \ [] is empty, as in Scilab (GSL has no 0 x 0 matrices) */
  if (n == 0) return ex_mat_new(P, out, left ? 0 : B->rows, left ? B->cols : 0);
  /* B / A = (A' \ B')'. */
  mat At = {0}, Bt = {0};
  if (ex_copy(P, &At, A) || ex_copy(P, &Bt, B)) goto fail;
  if (!left && (ex_transpose(P, &At) || ex_transpose(P, &Bt))) goto fail;
  lu f;
  if (lu_of(P, &At, &f)) goto fail;
  if (singular(&f)) {
    lu_free(&f);
    ex_fail(P, "%s at column %zu: the matrix is singular", what, col(pos));
    goto fail;
  }
  if (ex_mat_new(P, out, Bt.rows, Bt.cols)) {
    lu_free(&f);
    goto fail;
  }
  gsl_vector *x = gsl_vector_alloc((size_t)n);
  for (int j = 0; x && j < Bt.cols; j++) {
    gsl_vector_view b = gsl_vector_view_array(Bt.v + (long)j * n, (size_t)n);
    gsl_linalg_LU_solve(f.m, f.p, &b.vector, x);
    for (int i = 0; i < n; i++)
      out->v[i + (long)j * n] = gsl_vector_get(x, (size_t)i);
  }
  lu_free(&f);
  if (!x) {
    ex_fail(P, "out of memory");
    goto fail;
  }
  gsl_vector_free(x);
  ex_clear(&At);
  ex_clear(&Bt);
  return left ? 0 : ex_transpose(P, out);
fail:
  ex_clear(&At);
  ex_clear(&Bt);
  ex_clear(out);
  return -1;
}

static int call_det(parser *P, size_t pos, const mat *a, mat *out) {
  if (need_factor(P, "det", a, pos)) return -1;
  lu f;
  if (lu_of(P, a, &f)) return -1;
  double d = gsl_linalg_LU_det(f.m, f.sign);
  lu_free(&f);
  return ex_mat_scalar(P, out, d);
}

static int call_expm(parser *P, size_t pos, const mat *a, mat *out) {
  if (need_factor(P, "expm", a, pos)) return -1;
  gsl_matrix *g = to_gsl(a),
             *e = gsl_matrix_alloc((size_t)a->rows, (size_t)a->rows);
  int rc = g && e ? 0 : ex_fail(P, "out of memory");
  if (rc == 0 &&
      gsl_linalg_exponential_ss(g, e, GSL_PREC_DOUBLE) != GSL_SUCCESS)
    rc = ex_fail(P, "function 'expm' at column %zu: the exponential failed",
                 col(pos));
  if (rc == 0) rc = from_gsl(P, e, out);
  gsl_matrix_free(g);
  gsl_matrix_free(e);
  return rc;
}

/* ppol(A, B, p) for one input: the gain K (1 x n) with eig(A - B*K) = p,
 * which is unique, so any exact method gives Scilab's answer up to
 * rounding. K = e_n' * inv(Ctrb) * phi(A) (Ackermann), phi the
 * characteristic polynomial of the wanted poles. With several inputs the
 * gain is not unique and Scilab's answer depends on its algorithm, which
 * is not reproduced: the call fails, so that the variables it sets become
 * unknown and an Xcos reader can use the values stored in the file. */
static int call_ppol(parser *P, size_t pos, mat *args, mat *out) {
  const mat *A = &args[0], *B = &args[1], *p = &args[2];
  if (need_factor(P, "ppol", A, pos) || ex_need_real(P, B, "ppol", pos) ||
      ex_need_real(P, p, "ppol", pos))
    return -1;
  int n = A->rows;
  if (B->rows != n || numel(p) != n)
    return ex_fail(P,
                   "function 'ppol' at column %zu: A is %dx%d, so B needs %d "
                   "rows (it has %d) and there must be %d poles (there are "
                   "%ld)",
                   col(pos), n, n, n, B->rows, n, numel(p));
  if (B->cols != 1)
    return ex_fail(P,
                   "function 'ppol' at column %zu: with %d inputs the gain "
                   "is not unique and Scilab's choice is not reproduced "
                   "(only single-input pole placement is supported)",
                   col(pos), B->cols);
  /* Ctrb = [B AB ... A^(n-1)B]; phi(A) = prod(A - p_i I). */
  mat ctrb = {0}, phi = {0}, tmp = {0}, col_ = {0}, eye = {0};
  int rc = ex_mat_new(P, &ctrb, n, n) || ex_identity(P, &phi, n, n) ||
                   ex_identity(P, &eye, n, n) || ex_copy(P, &col_, B)
               ? -1
               : 0;
  for (int k = 0; rc == 0 && k < n; k++) {
    memcpy(ctrb.v + (long)k * n, col_.v, (size_t)n * sizeof *col_.v);
    rc = ex_binary(P, "*", A, &col_, pos, &tmp);
    if (rc == 0) ex_mat_move(&col_, &tmp);
    mat shifted = {0};
    if (rc == 0) rc = ex_copy(P, &shifted, A);
    for (int i = 0; rc == 0 && i < n; i++)
      shifted.v[i + (long)i * n] -= p->v[k];
    if (rc == 0) rc = ex_binary(P, "*", &phi, &shifted, pos, &tmp);
    if (rc == 0) ex_mat_move(&phi, &tmp);
    ex_clear(&shifted);
  }
  /* K = (e_n' / Ctrb) * phi(A), i.e. the last row of inv(Ctrb) * phi. */
  mat sol = {0};
  if (rc == 0 && ex_solve(P, &ctrb, &phi, 1, pos, &sol) != 0) {
    P->failed = 0; /* replace the singular-matrix message */
    rc = ex_fail(P,
                 "function 'ppol' at column %zu: the pair (A, B) is not "
                 "controllable",
                 col(pos));
  }
  if (rc == 0) rc = ex_mat_new(P, out, 1, n);
  for (int j = 0; rc == 0 && j < n; j++)
    out->v[j] = sol.v[(n - 1) + (long)j * n];
  ex_clear(&sol);
  ex_clear(&ctrb);
  ex_clear(&phi);
  ex_clear(&tmp);
  ex_clear(&col_);
  ex_clear(&eye);
  return rc;
}

static int call_norm(parser *P, size_t pos, const mat *a, mat *out) {
  if (ex_need_real(P, a, "norm", pos)) return -1;
  if (a->rows == 1 || a->cols == 1 || numel(a) == 0) {
    double s = 0;
    for (long i = 0; i < numel(a); i++)
      s = hypot(s, a->v[i]);
    return ex_mat_scalar(P, out, s);
  }
  /* The 2-norm of a matrix: its largest singular value. */
  int tall = a->rows >= a->cols;
  double lo = tall ? a->cols : a->rows, hi = tall ? a->rows : a->cols;
  if (ex_work(P, "function", "norm", pos, hi * lo * lo)) return -1;
  mat t = {0};
  if (ex_copy(P, &t, a) || (!tall && ex_transpose(P, &t))) return -1;
  gsl_matrix *u = to_gsl(&t);
  gsl_matrix *v = gsl_matrix_alloc((size_t)t.cols, (size_t)t.cols);
  gsl_vector *s = gsl_vector_alloc((size_t)t.cols);
  gsl_vector *w = gsl_vector_alloc((size_t)t.cols);
  int rc = u && v && s && w ? 0 : ex_fail(P, "out of memory");
  if (rc == 0) gsl_linalg_SV_decomp(u, v, s, w);
  if (rc == 0) rc = ex_mat_scalar(P, out, gsl_vector_get(s, 0));
  gsl_matrix_free(u);
  gsl_matrix_free(v);
  gsl_vector_free(s);
  gsl_vector_free(w);
  ex_clear(&t);
  return rc;
}

int ex_call_linalg(parser *P, const char *name, size_t pos, mat *args, int n,
                   mat *out) {
  if (n == 1 && !strcmp(name, "inv"))
    return call_inv(P, name, pos, &args[0], out);
  if (n == 1 && !strcmp(name, "det")) return call_det(P, pos, &args[0], out);
  if (n == 1 && !strcmp(name, "expm")) return call_expm(P, pos, &args[0], out);
  if (n == 1 && !strcmp(name, "norm")) return call_norm(P, pos, &args[0], out);
  if (n == 1 && !strcmp(name, "trace")) {
    if (need_square(P, name, &args[0], pos)) return -1;
    double s = 0;
    for (int i = 0; i < args[0].rows; i++)
      s += args[0].v[i + (long)i * args[0].rows];
    return ex_mat_scalar(P, out, s);
  }
  if (n == 3 && !strcmp(name, "ppol")) return call_ppol(P, pos, args, out);
  return 1;
}
