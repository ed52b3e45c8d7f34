/*
 * Xcos's matrix blocks that only move or combine entries: products
 * (MATMUL's three rules), transpose, horizontal and vertical
 * concatenation, extraction, and the polynomial of given roots
 * (ROOTCOEF). The linear-algebra ones (inverse, pseudo-inverse, backslash,
 * eigenvalues) are in matrix_la.c. Only real doubles are supported: Xcos's
 * datatype fields must say 1. Signals are matrices stored column-major.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "blocks/std.h"

static int is_output_flag(int flag) {
  return flag == BSIM_FLAG_OUTPUTS || flag == BSIM_FLAG_REINIT;
}

static int oom(bsim_define_ctx *ctx) {
  return bsim_define_error(ctx, "out of memory");
}

/* Rows and columns of input / output k. */
#define IR(b, k) ((b)->insz[k])
#define IC(b, k) ((b)->insz[(b)->nin + (k)])
#define OR(b, k) ((b)->outsz[k])
#define OC(b, k) ((b)->outsz[(b)->nout + (k)])

/* ----------------------------------------------------------------- MATMUL */

static const bsim_param_spec matmul_params[] = {
    {"datatype", BSIM_PARAM_REAL, "1", "1: real double (the only one)"},
    {"rule", BSIM_PARAM_REAL, "1",
     "1: matrix product u1 u2; 2: element-wise product; 3: u1 times the "
     "scalar u2"},
};

static int matmul_define(bsim_define_ctx *ctx, bsim_model *m) {
  double rule;
  if (bsim_std_real_datatype(ctx) != 0 ||
      bsim_std_scalar(ctx, "rule", &rule) != 0)
    return -1;
  int r = (int)rule; /* Xcos truncates: int(rule) */
  if (r < 1 || r > 3)
    return bsim_define_error(ctx, "'rule' must be 1, 2 or 3, got %g", rule);
  double *rp = bsim_model_alloc_rpar(m, 2); /* [kmin; kmax]: 0 for doubles */
  int *ip = bsim_model_alloc_ipar(m, 1);
  if (!rp || !ip || bsim_model_set_inputs(m, 2, -1, -2, 1) != 0 ||
      bsim_model_set_outputs(m, 1, -1, -2) != 0)
    return oom(ctx);
  ip[0] = r;
  if (r == 1) { /* (-1 x -2) (-2 x -3) -> -1 x -3 */
    m->in[1] = -2;
    m->in2[1] = -3;
    m->out2[0] = -3;
    m->sim = NULL;
  } else if (r == 2) {
    m->sim = "matmul2_m";
  } else {
    m->in[1] = m->in2[1] = 1;
    m->sim = "matbyscal";
  }
  return 0;
}

static void matmul_fn(bsim_block *blk, int flag) {
  /* a file's stored model may lack a port */
  if (bsim_std_lacks_ports(blk, flag, 2, 1)) return;
  int rule = blk->nipar >= 1 ? blk->ipar[0] : 1;
  const double *a = blk->inptr[0], *b = blk->inptr[1];
  double *y = blk->outptr[0];
  int m = IR(blk, 0), n = IC(blk, 0), p = IC(blk, 1);
  int ny = bsim_std_outsize(blk, 0), na = m * n;
  if (flag == BSIM_FLAG_INIT) {
    int ok = rule == 1   ? IR(blk, 1) == n && OR(blk, 0) == m && OC(blk, 0) == p
             : rule == 2 ? bsim_std_insize(blk, 1) == na && ny == na
                         : bsim_std_insize(blk, 1) == 1 && ny == na;
    if (rule < 1 || rule > 3 || !ok)
      bsim_block_error(
          blk, "rule %d does not fit the ports %dx%d, %dx%d -> %dx%d", rule, m,
          n, IR(blk, 1), IC(blk, 1), OR(blk, 0), OC(blk, 0));
    return;
  }
  if (flag == BSIM_FLAG_JACOBIAN) {
    if (rule == 1) {
      for (int i = 0; i < m; i++)
        for (int j = 0; j < p; j++)
          for (int k = 0; k < n; k++) {
            blk->jac[(i + m * j) + ny * (i + m * k)] = b[k + n * j];
            blk->jac[(i + m * j) + ny * (na + k + n * j)] = a[i + m * k];
          }
    } else {
      for (int i = 0; i < ny; i++) {
        blk->jac[i + ny * i] = rule == 2 ? b[i] : b[0];
        blk->jac[i + ny * (na + (rule == 2 ? i : 0))] = a[i];
      }
    }
    return;
  }
  if (!is_output_flag(flag)) return;
  if (rule == 1) {
    for (int j = 0; j < p; j++)
      for (int i = 0; i < m; i++) {
        double s = 0;
        for (int k = 0; k < n; k++)
          s += a[i + m * k] * b[k + n * j];
        y[i + m * j] = s;
      }
  } else {
    for (int i = 0; i < ny; i++)
      y[i] = a[i] * (rule == 2 ? b[i] : b[0]);
  }
}

#define MATMUL_DOC                                                             \
  "rule 1: y = u1 u2, the matrix product (u1 m x n, u2 n x p, y m x p);\n"     \
  "rule 2: y = u1 .* u2, element-wise (all the same size); rule 3:\n"          \
  "y = u1 u2 with u2 a scalar. Xcos's overflow field (for integer types)\n"    \
  "changes nothing for doubles.\n"                                             \
  "Run-time layout: ipar = [rule], rpar = [0; 0] (Xcos's integer range,\n"     \
  "unused for doubles), model.sim = \"matmul_m\" (rule 1), \"matmul2_m\"\n"    \
  "(2) or \"matbyscal\" (3); in = [-1 x -2; -2 x -3], out = -1 x -3 (rule\n"   \
  "1), in = [-1 x -2; -1 x -2], out = -1 x -2 (2), in = [-1 x -2; 1 x 1],\n"   \
  "out = -1 x -2 (3). Direct feedthrough."

static const bsim_block_type type_MATMUL = {
    "MATMUL", "matmul_m", "Matrix product (or element-wise, or by a scalar).",
    MATMUL_DOC, matmul_params, 2, matmul_define, matmul_fn, BSIM_TYPE_JACOBIAN,
    /* datatype, rule, overflow handling (integer types only) */
    "datatype,rule,-"};

/* The forms of rules 2 and 3, under their own simulation names. */
static const bsim_block_type type_matmul2_m = {
    "matmul2_m",   "matmul2_m",   "MATMUL rule 2 (simulation function).",
    "See MATMUL.", matmul_params, 2,
    matmul_define, matmul_fn,     BSIM_TYPE_JACOBIAN};

static const bsim_block_type type_matbyscal = {
    "matbyscal",   "matbyscal",   "MATMUL rule 3 (simulation function).",
    "See MATMUL.", matmul_params, 2,
    matmul_define, matmul_fn,     BSIM_TYPE_JACOBIAN};

/* ----------------------------------------------------------------- MATTRAN */

static const bsim_param_spec mattran_params[] = {
    {"datatype", BSIM_PARAM_REAL, "1", "1: real double (the only one)"},
    {"rule", BSIM_PARAM_REAL, "1",
     "1: .' (transpose), 2: ' (conjugate transpose): the same for reals"},
};

static int mattran_define(bsim_define_ctx *ctx, bsim_model *m) {
  if (bsim_std_real_datatype(ctx) != 0) return -1;
  if (bsim_model_set_inputs(m, 1, -1, -2, 1) != 0 ||
      bsim_model_set_outputs(m, 1, -2, -1) != 0)
    return oom(ctx);
  return 0;
}

static void mattran_fn(bsim_block *blk, int flag) {
  /* a file's stored model may lack a port */
  if (bsim_std_lacks_ports(blk, flag, 1, 1)) return;
  int r = IR(blk, 0), c = IC(blk, 0), n = r * c;
  if (flag == BSIM_FLAG_INIT) {
    if (OR(blk, 0) != c || OC(blk, 0) != r)
      bsim_block_error(blk, "output must be %dx%d, is %dx%d", c, r, OR(blk, 0),
                       OC(blk, 0));
    return;
  }
  for (int i = 0; i < r; i++)
    for (int j = 0; j < c; j++) {
      if (flag == BSIM_FLAG_JACOBIAN)
        blk->jac[(j + c * i) + n * (i + r * j)] = 1;
      else if (is_output_flag(flag))
        blk->outptr[0][j + c * i] = blk->inptr[0][i + r * j];
    }
}

static const bsim_block_type type_MATTRAN = {
    "MATTRAN",
    "mattran_m",
    "Matrix transpose.",
    "y = u' (u m x n, y n x m).\n"
    "Run-time layout: in = -1 x -2, out = -2 x -1, no rpar or ipar.\n"
    "Direct feedthrough.",
    mattran_params,
    2,
    mattran_define,
    mattran_fn,
    BSIM_TYPE_JACOBIAN,
    "datatype,rule"};

/* -------------------------------------------------------- MATCATH, MATCATV */

static const bsim_param_spec cat_params[] = {
    {"in", BSIM_PARAM_REAL, "2", "number of inputs"},
};

/* Horizontal: inputs share rows (-1), columns -2, -3, ...; the output's
 * columns are their sum (0). Vertical: the same with rows and columns
 * exchanged. */
static int cat_define(bsim_define_ctx *ctx, bsim_model *m, int vertical) {
  int n;
  if (bsim_std_int(ctx, "in", 1, &n) != 0) return -1;
  if (n > 64) return bsim_define_error(ctx, "'in' = %d inputs: at most 64", n);
  if (bsim_model_set_inputs(m, n, -1, -1, 1) != 0 ||
      bsim_model_set_outputs(m, 1, -1, -1) != 0)
    return oom(ctx);
  for (int i = 0; i < n; i++)
    (vertical ? m->in : m->in2)[i] = -(i + 2);
  (vertical ? m->out : m->out2)[0] = 0;
  return 0;
}

static int cath_define(bsim_define_ctx *ctx, bsim_model *m) {
  return cat_define(ctx, m, 0);
}

static int catv_define(bsim_define_ctx *ctx, bsim_model *m) {
  return cat_define(ctx, m, 1);
}

/* Both: flag 10 is the permutation that the copy does. */
static void cat_fn(bsim_block *blk, int flag, int vertical) {
  /* a file's stored model may lack a port */
  if (bsim_std_lacks_ports(blk, flag, 1, 1)) return;
  int ny = bsim_std_outsize(blk, 0), rows = OR(blk, 0);
  if (flag == BSIM_FLAG_INIT) {
    int sum = 0;
    for (int k = 0; k < blk->nin; k++) {
      sum += vertical ? IR(blk, k) : IC(blk, k);
      if ((vertical ? IC(blk, k) : IR(blk, k)) !=
          (vertical ? OC(blk, 0) : rows)) {
        bsim_block_error(blk, "input %d does not fit the output %dx%d", k + 1,
                         rows, OC(blk, 0));
        return;
      }
    }
    if (sum != (vertical ? rows : OC(blk, 0)))
      bsim_block_error(blk, "inputs give %d %s, the output has %d", sum,
                       vertical ? "rows" : "columns",
                       vertical ? rows : OC(blk, 0));
    return;
  }
  if (flag != BSIM_FLAG_JACOBIAN && !is_output_flag(flag)) return;
  int col0 = 0, row0 = 0, u0 = 0; /* where input k starts in y and in u */
  for (int k = 0; k < blk->nin; k++) {
    int r = IR(blk, k), c = IC(blk, k);
    for (int j = 0; j < c; j++)
      for (int i = 0; i < r; i++) {
        int at = (row0 + i) + rows * (col0 + j), from = i + r * j;
        if (flag == BSIM_FLAG_JACOBIAN)
          blk->jac[at + ny * (u0 + from)] = 1;
        else
          blk->outptr[0][at] = blk->inptr[k][from];
      }
    u0 += r * c;
    if (vertical)
      row0 += r;
    else
      col0 += c;
  }
}

static void cath_fn(bsim_block *blk, int flag) {
  cat_fn(blk, flag, 0);
}

static void catv_fn(bsim_block *blk, int flag) {
  cat_fn(blk, flag, 1);
}

static const bsim_block_type type_MATCATH = {
    "MATCATH",
    "mat_cath",
    "Horizontal concatenation [u1 u2 ...].",
    "y = [u1 u2 ... un]: the inputs have the same number of rows; y has\n"
    "the sum of their columns.\n"
    "Run-time layout: in = -1 x -(k+1) for input k, out = -1 x 0 (0: the\n"
    "sum of the input columns), no rpar or ipar. Direct feedthrough.",
    cat_params,
    1,
    cath_define,
    cath_fn,
    BSIM_TYPE_JACOBIAN,
    "in|-,in(size($,'*'))"};

static const bsim_block_type type_MATCATV = {
    "MATCATV",
    "mat_catv",
    "Vertical concatenation [u1; u2; ...].",
    "y = [u1; u2; ...; un]: the inputs have the same number of columns; y\n"
    "has the sum of their rows.\n"
    "Run-time layout: in = -(k+1) x -1 for input k, out = 0 x -1 (0: the\n"
    "sum of the input rows), no rpar or ipar. Direct feedthrough.",
    cat_params,
    1,
    catv_define,
    catv_fn,
    BSIM_TYPE_JACOBIAN,
    "in|-,in(size($,'*'))"};

/* ---------------------------------------------------------------- EXTRACT */

static const bsim_param_spec extract_params[] = {
    {"datatype", BSIM_PARAM_REAL, "1", "1: real double (the only one)"},
    {"rows", BSIM_PARAM_REAL, "1", "rows to extract (from 1), in order"},
    {"cols", BSIM_PARAM_REAL, "1", "columns to extract (from 1), in order"},
};

static int extract_indices(bsim_define_ctx *ctx, const char *name,
                           const bsim_value **v) {
  *v = bsim_param(ctx, name);
  int n = bsim_std_numel(*v);
  if (n == 0) return bsim_define_error(ctx, "'%s' must not be empty", name);
  for (int i = 0; i < n; i++)
    if ((*v)->v[i] < 1 || (*v)->v[i] != floor((*v)->v[i]) || (*v)->v[i] > 1e9)
      return bsim_define_error(ctx,
                               "'%s' must hold indices >= 1, element %d is %g",
                               name, i + 1, (*v)->v[i]);
  return 0;
}

static int extract_define(bsim_define_ctx *ctx, bsim_model *m) {
  const bsim_value *a, *b;
  if (bsim_std_real_datatype(ctx) != 0 ||
      extract_indices(ctx, "rows", &a) != 0 ||
      extract_indices(ctx, "cols", &b) != 0)
    return -1;
  int na = bsim_std_numel(a), nb = bsim_std_numel(b);
  int *ip = bsim_model_alloc_ipar(m, na + nb + 2);
  if (!ip || bsim_model_set_inputs(m, 1, -1, -2, 1) != 0 ||
      bsim_model_set_outputs(m, 1, na, nb) != 0)
    return oom(ctx);
  for (int i = 0; i < na; i++)
    ip[i] = (int)a->v[i];
  for (int j = 0; j < nb; j++)
    ip[na + j] = (int)b->v[j];
  ip[na + nb] = na;
  ip[na + nb + 1] = nb;
  return 0;
}

static void extract_fn(bsim_block *blk, int flag) {
  /* a file's stored model may lack a port */
  if (bsim_std_lacks_ports(blk, flag, 1, 1)) return;
  int n = blk->nipar, mu = IR(blk, 0);
  int nr = n >= 2 ? blk->ipar[n - 2] : 0, nc = n >= 2 ? blk->ipar[n - 1] : 0;
  const int *r = blk->ipar, *c = blk->ipar + nr;
  if (flag == BSIM_FLAG_INIT) {
    if (n < 4 || n != nr + nc + 2 || OR(blk, 0) != nr || OC(blk, 0) != nc) {
      bsim_block_error(blk, "ipar must be [rows; cols; nrows; ncols] for an "
                            "output of nrows x ncols");
      return;
    }
    for (int i = 0; i < nr + nc; i++) {
      int lim = i < nr ? mu : IC(blk, 0);
      if (blk->ipar[i] < 1 || blk->ipar[i] > lim) {
        bsim_block_error(blk, "%s index %d is outside the %dx%d input",
                         i < nr ? "row" : "column", blk->ipar[i], mu,
                         IC(blk, 0));
        return;
      }
    }
    return;
  }
  if (flag != BSIM_FLAG_JACOBIAN && !is_output_flag(flag)) return;
  for (int j = 0, k = 0; j < nc; j++)
    for (int i = 0; i < nr; i++, k++) {
      int from = (r[i] - 1) + (c[j] - 1) * mu;
      if (flag == BSIM_FLAG_JACOBIAN)
        blk->jac[k + nr * nc * from] = 1;
      else
        blk->outptr[0][k] = blk->inptr[0][from];
    }
}

static const bsim_block_type type_EXTRACT = {
    "EXTRACT",
    "extract",
    "Extract rows and columns of a matrix: y = u(rows, cols).",
    "y = u(rows, cols): the listed rows and columns, in the order given\n"
    "(repeats allowed). They must lie within the input.\n"
    "Run-time layout: ipar = [rows(:); cols(:); numel(rows); numel(cols)],\n"
    "rpar empty, in = -1 x -2, out = numel(rows) x numel(cols).\n"
    "Direct feedthrough.",
    extract_params,
    3,
    extract_define,
    extract_fn,
    BSIM_TYPE_JACOBIAN,
    "datatype,rows,cols"};

/* --------------------------------------------------------------- ROOTCOEF */

static const bsim_param_spec rootcoef_params[] = {
    {"datatype", BSIM_PARAM_REAL, "1", "1: real double (the only one)"},
    {"in", BSIM_PARAM_REAL, "1", "number of roots (the input's rows)"},
};

static int rootcoef_define(bsim_define_ctx *ctx, bsim_model *m) {
  int n;
  if (bsim_std_real_datatype(ctx) != 0 || bsim_std_int(ctx, "in", 1, &n) != 0)
    return -1;
  if (bsim_model_set_inputs(m, 1, n, 1, 1) != 0 ||
      bsim_model_set_outputs(m, 1, n + 1, 1) != 0)
    return oom(ctx);
  return 0;
}

/* The monic polynomial prod (s - r_k), coefficients from the constant
 * term up, built by multiplying in one root after the other; infinite
 * roots are left out and shift the others down, as Scilab's dprxc. */
static void rootcoef_fn(bsim_block *blk, int flag) {
  /* a file's stored model may lack a port */
  if (bsim_std_lacks_ports(blk, flag, 1, 1)) return;
  int n = IR(blk, 0);
  if (flag == BSIM_FLAG_INIT) {
    if (bsim_std_outsize(blk, 0) != n + 1)
      bsim_block_error(blk, "output must have %d rows for %d roots", n + 1, n);
    return;
  }
  if (!is_output_flag(flag)) return;
  const double *r = blk->inptr[0];
  double *c = blk->outptr[0];
  int ninf = 0;
  for (int k = 0; k < n; k++)
    c[k] = 0;
  c[n] = 1;
  for (int j = 0; j < n; j++) {
    if (fabs(r[j]) > DBL_MAX) {
      ninf++;
      continue;
    }
    for (int k = n - 1 - j; k < n; k++)
      c[k] -= r[j] * c[k + 1];
  }
  if (ninf > 0) {
    memmove(c, c + ninf, (size_t)(n - ninf + 1) * sizeof *c);
    for (int k = n - ninf + 1; k <= n; k++)
      c[k] = 0;
  }
}

static const bsim_block_type type_ROOTCOEF = {
    "ROOTCOEF",
    "root_coef",
    "Polynomial coefficients from its roots.",
    "y = the coefficients of the monic polynomial whose roots are the n\n"
    "elements of u, from the constant term up to the 1 of s^n (Scilab's\n"
    "coeff order): [1; -r] for one root r. An infinite root lowers the\n"
    "degree (its factor is left out and the top coefficients become 0).\n"
    "Run-time layout: in = n x 1, out = n+1 x 1, no rpar or ipar.\n"
    "Direct feedthrough.",
    rootcoef_params,
    2,
    rootcoef_define,
    rootcoef_fn,
    0,
    "datatype,in"};

/* ------------------------------------------------------- family registry */

const bsim_block_type *const bsim_matrix_types[] = {
    &type_MATMUL,       &type_matmul2_m,    &type_matbyscal,
    &type_MATTRAN,      &type_MATCATH,      &type_MATCATV,
    &type_EXTRACT,      &type_ROOTCOEF,     &bsim_type_MATINV,
    &bsim_type_MATPINV, &bsim_type_MATBKSL, &bsim_type_MATEIG,
    &bsim_type_mat_vpv,
};
const int bsim_matrix_ntypes =
    (int)(sizeof bsim_matrix_types / sizeof bsim_matrix_types[0]);
