/*
 * Helpers shared by the standard block families: parameter checks that give
 * the same wording everywhere, and port-size arithmetic on the run-time view.
 * Kept here so that each family file reads as the block's semantics only.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blocks/std.h"

int bsim_std_numel(const bsim_value *v) {
  if (!v || v->rows <= 0 || v->cols <= 0) return 0;
  return v->rows * v->cols;
}

int bsim_std_scalar(bsim_define_ctx *ctx, const char *name, double *out) {
  const bsim_value *v = bsim_param(ctx, name);
  if (!v || bsim_std_numel(v) != 1 || !v->v)
    return bsim_define_error(
        ctx, "parameter '%s' must be a scalar, got a %dx%d matrix", name,
        v ? v->rows : 0, v ? v->cols : 0);
  if (!isfinite(v->v[0]))
    return bsim_define_error(ctx, "parameter '%s' must be finite, got %g", name,
                             v->v[0]);
  *out = v->v[0];
  return 0;
}

int bsim_std_int(bsim_define_ctx *ctx, const char *name, int min, int *out) {
  double d = 0;
  if (bsim_std_scalar(ctx, name, &d) != 0) return -1;
  if (d != floor(d) || d < min || d > 1e9)
    return bsim_define_error(
        ctx, "parameter '%s' must be an integer >= %d, got %g", name, min, d);
  *out = (int)d;
  return 0;
}

int bsim_std_real_datatype(bsim_define_ctx *ctx) {
  int type;
  if (bsim_std_int(ctx, "datatype", 1, &type) != 0) return -1;
  if (type != 1)
    return bsim_define_error(ctx,
                             "'datatype' %d is not supported; only 1 (real "
                             "double) is",
                             type);
  return 0;
}

int bsim_std_elementwise_model(bsim_define_ctx *ctx, bsim_model *m) {
  if (bsim_model_set_inputs(m, 1, -1, -2, 1) != 0 ||
      bsim_model_set_outputs(m, 1, -1, -2) != 0)
    return bsim_define_error(ctx, "out of memory");
  return 0;
}

int bsim_std_insize(const bsim_block *blk, int k) {
  return blk->insz[k] * blk->insz[blk->nin + k];
}

int bsim_std_outsize(const bsim_block *blk, int k) {
  return blk->outsz[k] * blk->outsz[blk->nout + k];
}

int bsim_std_need_ports(bsim_block *blk, int nin, int nout) {
  if (blk->nin >= nin && blk->nout >= nout) return 0;
  bsim_block_error(blk,
                   "it has %d input%s and %d output%s, where it needs at "
                   "least %d and %d",
                   blk->nin, blk->nin == 1 ? "" : "s", blk->nout,
                   blk->nout == 1 ? "" : "s", nin, nout);
  return -1;
}

int bsim_std_elems(bsim_define_ctx *ctx, const char *what, long rows, long cols,
                   int *out) {
  /* 64-bit products cannot overflow for operands below 2^31 */
  int64_t n = (int64_t)(rows > 0 ? rows : 0) * (int64_t)(cols > 0 ? cols : 0);
  if (rows > INT32_MAX || cols > INT32_MAX || n > BSIM_MAX_ELEMS)
    return bsim_define_error(ctx,
                             "%s would be %ldx%ld (%.3g elements), more than "
                             "the %d a block may hold (hint: check the "
                             "parameters' sizes)",
                             what, rows, cols, (double)rows * (double)cols,
                             BSIM_MAX_ELEMS);
  *out = (int)n;
  return 0;
}

void bsim_std_numeric_failure(bsim_block *blk, const char *what) {
  if (blk->phase == BSIM_PHASE_CONTINUOUS)
    bsim_block_recoverable(blk, "%s", what);
  else
    bsim_block_error(blk, "%s", what);
}

/* Coefficients with leading exact zeros dropped; the count left (0 for the
 * zero polynomial). */
static int trim_coefficients(const bsim_value *p, const double **coef) {
  int n = bsim_std_numel(p), k = 0;
  while (k < n && p->v[k] == 0)
    k++;
  *coef = n ? p->v + k : NULL;
  return n - k;
}

/* A SISO transfer function num/den (parameters "num", "den", coefficients
 * highest power first) realised in controllable canonical form, as
 * Scilab's cont_frm builds it for CLR and DLR. */
typedef struct tf_ss {
  int n;             /* states */
  double *A, *B, *C; /* n x n, n x 1, 1 x n, column-major */
  double D;
} tf_ss;

/* Fills ss; returns the buffer holding A, B, C (free it after use), or
 * NULL after reporting an improper or empty transfer function. */
static double *tf_realize(bsim_define_ctx *ctx, tf_ss *ss) {
  const double *num, *den;
  int lnum = trim_coefficients(bsim_param(ctx, "num"), &num);
  int lden = trim_coefficients(bsim_param(ctx, "den"), &den);
  if (lden == 0) {
    bsim_define_error(ctx, "'den' must have a nonzero coefficient");
    return NULL;
  }
  int n = lden - 1, nn = lnum > 0 ? lnum - 1 : 0;
  if (nn > n) {
    bsim_define_error(ctx,
                      "improper transfer function: the numerator has degree "
                      "%d, the denominator %d (must be <=)",
                      nn, n);
    return NULL;
  }
  /* n^2 overflows an int from degree 46341 on: size it checked */
  int nsq;
  if (bsim_std_elems(ctx, "the realisation's state matrix A", n, n, &nsq) != 0)
    return NULL;
  double *buf = calloc((size_t)nsq + 4 * (size_t)n + 3, sizeof *buf);
  if (!buf) {
    bsim_define_error(ctx, "out of memory");
    return NULL;
  }
  /* lowest power first, the denominator made monic */
  double *da = buf, *na = da + n + 1;
  ss->n = n;
  ss->A = na + n + 1;
  ss->B = ss->A + nsq;
  ss->C = ss->B + n;
  for (int k = 0; k <= n; k++)
    da[k] = den[n - k] / den[0];
  for (int k = 0; k < lnum; k++)
    na[k] = num[lnum - 1 - k] / den[0];
  /* Scilab's cont_frm: the companion matrix with ones above the diagonal
   * and -den in its last row, B the last unit vector, D the quotient of
   * num by den and C the coefficients of the remainder. */
  ss->D = nn == n ? na[n] : 0.0;
  for (int i = 0; i + 1 < n; i++)
    ss->A[(size_t)i + (size_t)n * (size_t)(i + 1)] = 1.0;
  for (int j = 0; j < n; j++) {
    ss->A[(size_t)(n - 1) + (size_t)n * (size_t)j] = -da[j];
    ss->C[j] = na[j] - ss->D * da[j];
  }
  if (n > 0) ss->B[n - 1] = 1.0;
  return buf;
}

int bsim_std_lti_model(bsim_define_ctx *ctx, bsim_model *m, int discrete, int n,
                       int nu, int ny, const double *A, const double *B,
                       const double *C, const double *D, const double *x0) {
  const double *part[4] = {A, B, C, D};
  int len[4], total = 0;
  if (bsim_std_elems(ctx, "A", n, n, &len[0]) != 0 ||
      bsim_std_elems(ctx, "B", n, nu, &len[1]) != 0 ||
      bsim_std_elems(ctx, "C", ny, n, &len[2]) != 0 ||
      bsim_std_elems(ctx, "D", ny, nu, &len[3]) != 0 ||
      bsim_std_elems(ctx, "rpar = [A(:); B(:); C(:); D(:)]",
                     (long)len[0] + len[1] + len[2] + len[3], 1, &total) != 0)
    return -1;
  double *r = bsim_model_alloc_rpar(m, total);
  double *x = discrete ? bsim_model_alloc_z0(m, n) : bsim_model_alloc_x0(m, n);
  if (!r || (n > 0 && !x)) return bsim_define_error(ctx, "out of memory");
  int feed = 0;
  for (int i = 0; i < len[3]; i++)
    feed |= D[i] != 0;
  if (bsim_model_set_inputs(m, nu > 0, nu, 1, feed) != 0 ||
      bsim_model_set_outputs(m, ny > 0, ny, 1) != 0 ||
      (discrete && bsim_model_set_events(m, 1, 0) != 0))
    return bsim_define_error(ctx, "out of memory");
  /* rpar = [A(:); B(:); C(:); D(:)], empty pieces skipped */
  for (int i = 0; i < 4; r += len[i], i++)
    if (len[i] > 0) memcpy(r, part[i], (size_t)len[i] * sizeof *r);
  if (n > 0 && x0) memcpy(x, x0, (size_t)n * sizeof *x);
  /* Xcos marks the continuous form time-dependent (dep_ut = [D <> 0, %t]);
   * the discrete one runs on its event input. */
  m->dep_t = !discrete;
  return 0;
}

int bsim_std_tf_model(bsim_define_ctx *ctx, bsim_model *m, int discrete) {
  tf_ss ss;
  double *buf = tf_realize(ctx, &ss);
  if (!buf) return -1;
  int rc = bsim_std_lti_model(ctx, m, discrete, ss.n, 1, 1, ss.A, ss.B, ss.C,
                              &ss.D, NULL);
  free(buf);
  return rc;
}

const bsim_param_spec bsim_std_ss_params[5] = {
    {"A", BSIM_PARAM_REAL, "-1", "state matrix, n x n"},
    {"B", BSIM_PARAM_REAL, "1", "input matrix, n x m (m inputs)"},
    {"C", BSIM_PARAM_REAL, "1", "output matrix, p x n (p outputs)"},
    {"D", BSIM_PARAM_REAL, "0",
     "feedthrough matrix, p x m; a scalar is spread over p x m, [] means 0"},
    {"x0", BSIM_PARAM_REAL, "0", "initial state, n elements"},
};

int bsim_std_ss_model(bsim_define_ctx *ctx, bsim_model *m, int discrete) {
  const bsim_value *A = bsim_param(ctx, "A"), *B = bsim_param(ctx, "B");
  const bsim_value *C = bsim_param(ctx, "C"), *D = bsim_param(ctx, "D");
  const bsim_value *x0 = bsim_param(ctx, "x0");
  if (bsim_std_numel(A) == 0 || A->rows != A->cols)
    return bsim_define_error(ctx,
                             "'A' must be a non-empty square matrix, got "
                             "%dx%d",
                             A->rows, A->cols);
  int ns = A->rows;
  int nu = bsim_std_numel(B) ? B->cols : 0;
  int ny = bsim_std_numel(C) ? C->rows : 0;
  if (nu && B->rows != ns)
    return bsim_define_error(ctx,
                             "'B' must have %d rows (A is %dx%d), got a %dx%d "
                             "matrix",
                             ns, ns, ns, B->rows, B->cols);
  if (ny && C->cols != ns)
    return bsim_define_error(ctx,
                             "'C' must have %d columns (A is %dx%d), got a "
                             "%dx%d matrix",
                             ns, ns, ns, C->rows, C->cols);
  int nd = bsim_std_numel(D), nyu;
  if (bsim_std_elems(ctx, "D", ny, nu, &nyu) != 0) return -1;
  if (nd != nyu && nd > 1)
    return bsim_define_error(ctx,
                             "'D' must be %dx%d (rows of C x columns of B), "
                             "got a %dx%d matrix",
                             ny, nu, D->rows, D->cols);
  if (bsim_std_numel(x0) != ns)
    return bsim_define_error(ctx,
                             "'x0' must have %d elements (the order of A), got "
                             "a %dx%d matrix",
                             ns, x0->rows, x0->cols);
  /* A scalar D is spread over every entry (Xcos spreads ones; spreading the
   * value is what the user wrote and agrees with Xcos for SISO systems). */
  double *dfull = calloc((size_t)(nyu > 0 ? nyu : 1), sizeof *dfull);
  if (!dfull) return bsim_define_error(ctx, "out of memory");
  for (int i = 0; i < nyu; i++)
    dfull[i] = nd == nyu ? D->v[i] : nd == 1 ? D->v[0] : 0.0;
  int rc = bsim_std_lti_model(ctx, m, discrete, ns, nu, ny, A->v,
                              nu ? B->v : NULL, ny ? C->v : NULL, dfull, x0->v);
  free(dfull);
  return rc;
}
