/*
 * Continuous linear blocks: the integrator and the two state-space forms
 * (CLSS given by A, B, C, D; CLR given by a transfer function, realised the
 * way Scilab does it so that both share the csslti4 run-time layout).
 */
#include <stdlib.h>
#include <string.h>

#include "blocks/std.h"
#include "blocks/zcross.h"

/* ------------------------------------------------------------- INTEGRAL_m */

const bsim_param_spec bsim_std_integral_params[5] = {
    {"x0", BSIM_PARAM_REAL, "0",
     "initial state; its size (rows x cols) is the size of u and y"},
    {"reinit", BSIM_PARAM_REAL, "0",
     "1: add a second input and an event input; on the event x jumps to "
     "input 2"},
    {"satur", BSIM_PARAM_REAL, "0",
     "1: keep x within [min, max], located with zero crossings"},
    {"max", BSIM_PARAM_REAL, "1",
     "upper limits when satur = 1: a scalar or the size of x0"},
    {"min", BSIM_PARAM_REAL, "-1",
     "lower limits when satur = 1: a scalar or the size of x0"},
};

/* A limit as given: a scalar for every element, or one per element (of
 * x0's shape; any shape of as many elements when the block is
 * vector-only, as INTEGRAL flattens every value with (:)). */
static int limits(bsim_define_ctx *ctx, const char *name, const bsim_value *x0,
                  int vector, const bsim_value **v) {
  *v = bsim_param(ctx, name);
  int n = bsim_std_numel(*v);
  if (n == 1 || (n > 0 && (*v)->rows == x0->rows && (*v)->cols == x0->cols))
    return 0;
  if (vector && n == bsim_std_numel(x0)) return 0;
  return bsim_define_error(ctx,
                           "'%s' must be a scalar or have the size of x0 "
                           "(%dx%d), got a %dx%d matrix",
                           name, x0->rows, x0->cols, (*v)->rows, (*v)->cols);
}

/* The saturation limits into r = [max(:); min(:)], checked as Xcos. */
static int integral_limits(bsim_define_ctx *ctx, const bsim_value *x0,
                           int vector, double *r) {
  const bsim_value *hi, *lo;
  if (limits(ctx, "max", x0, vector, &hi) != 0 ||
      limits(ctx, "min", x0, vector, &lo) != 0)
    return -1;
  int n = bsim_std_numel(x0), nh = bsim_std_numel(hi), nl = bsim_std_numel(lo);
  for (int i = 0; i < n; i++) {
    double h = hi->v[nh == 1 ? 0 : i], l = lo->v[nl == 1 ? 0 : i];
    if (!(h > l))
      return bsim_define_error(ctx,
                               "'max' must be greater than 'min': element %d "
                               "has max %g, min %g",
                               i + 1, h, l);
    if (x0->v[i] > h || x0->v[i] < l)
      return bsim_define_error(ctx,
                               "x0 must lie within the limits: element %d is "
                               "%g, outside [%g, %g]",
                               i + 1, x0->v[i], l, h);
    r[i] = h;
    r[n + i] = l;
  }
  return 0;
}

int bsim_std_integral_model(bsim_define_ctx *ctx, bsim_model *m, int vector) {
  const bsim_value *x0 = bsim_param(ctx, "x0");
  double reinit, satur;
  int n = bsim_std_numel(x0);
  if (n == 0)
    return bsim_define_error(ctx, "'x0' must have at least one element");
  if (bsim_std_scalar(ctx, "reinit", &reinit) != 0 ||
      bsim_std_scalar(ctx, "satur", &satur) != 0)
    return -1;
  int nin = reinit != 0 ? 2 : 1;
  int rows = vector ? n : x0->rows, cols = vector ? 1 : x0->cols;
  double *x = bsim_model_alloc_x0(m, n);
  /* y = x does not read u: no direct feedthrough, which is what lets an
   * integrator break a feedback loop. The re-init value is read only at
   * the event, so it is no feedthrough either. */
  if (!x || bsim_model_set_inputs(m, nin, rows, cols, 0) != 0 ||
      bsim_model_set_outputs(m, 1, rows, cols) != 0 ||
      (nin == 2 && bsim_model_set_events(m, 1, 0) != 0))
    return bsim_define_error(ctx, "out of memory");
  memcpy(x, x0->v, (size_t)n * sizeof *x);
  if (satur != 0) {
    double *r = bsim_model_alloc_rpar(m, 2 * n);
    if (!r) return bsim_define_error(ctx, "out of memory");
    if (integral_limits(ctx, x0, vector, r) != 0) return -1;
    /* one surface and one mode per element, as Xcos */
    m->ng = m->nmode = n;
    /* held elements make the Jacobian depend on modes: finite
     * differences see them, flag 10 does not try */
    m->no_jacobian = 1;
  }
  m->dep_t = 1;
  return 0;
}

static int integral_define(bsim_define_ctx *ctx, bsim_model *m) {
  return bsim_std_integral_model(ctx, m, 0);
}

/* Saturation modes as Xcos's integral_func: 1 = held at max (u pushes
 * up), 2 = held at min (u pushes down), 3 = free. */
static int integral_piece(double x, double u, double hi, double lo) {
  return u >= 0 && x >= hi ? 1 : u <= 0 && x <= lo ? 2 : 3;
}

/* The piece element i is in: its frozen mode when the block has modes,
 * otherwise (surfaces switched off) from the current values. */
static int integral_current(const bsim_block *blk, int i) {
  int nx = blk->nx;
  if (blk->nrpar < 2 * nx) return 3;
  if (blk->ng > 0 && blk->nmode >= nx) return blk->mode[i];
  return integral_piece(blk->x[i], blk->inptr[0][i], blk->rpar[i],
                        blk->rpar[nx + i]);
}

void bsim_std_integral_fn(bsim_block *blk, int flag) {
  int nx = blk->nx;
  /* no rpar without saturation: NULL + nx would be undefined */
  const double *hi = blk->rpar, *lo = hi ? hi + nx : NULL;
  int satur = blk->nrpar >= 2 * nx && nx > 0;
  switch (flag) {
  case BSIM_FLAG_INIT:
    if (blk->ng > 0 && bsim_zc_ties_init(blk) != 0) break;
    /* a file's stored model may lack a port */
    if (bsim_std_need_ports(blk, 1, 1) != 0) break;
    if (nx != bsim_std_insize(blk, 0) || nx != bsim_std_outsize(blk, 0))
      bsim_block_error(blk, "%d states but input %d and output %d elements", nx,
                       bsim_std_insize(blk, 0), bsim_std_outsize(blk, 0));
    else if (blk->nin >= 2 && bsim_std_insize(blk, 1) != nx)
      bsim_block_error(blk, "%d states but the re-init input has %d elements",
                       nx, bsim_std_insize(blk, 1));
    else if (blk->nrpar != 0 && blk->nrpar != 2 * nx)
      bsim_block_error(blk,
                       "rpar must be empty or [max; min] (%d entries), "
                       "has %d",
                       2 * nx, blk->nrpar);
    else if (blk->ng > 0 && (blk->ng < nx || blk->nmode < nx || !satur))
      bsim_block_error(blk,
                       "saturation needs rpar = [max; min] and %d "
                       "surfaces and modes, has %d and %d",
                       nx, blk->ng, blk->nmode);
    break;
  case BSIM_FLAG_DERIVATIVES:
    /* Held elements stay put; 0 (no mode yet) counts as free. */
    for (int i = 0; i < nx; i++) {
      int p = satur ? integral_current(blk, i) : 3;
      blk->xd[i] = p == 1 || p == 2 ? 0.0 : blk->inptr[0][i];
    }
    break;
  case BSIM_FLAG_OUTPUTS:
  case BSIM_FLAG_REINIT:
    for (int i = 0; i < nx; i++) {
      double y = blk->x[i];
      if (satur && blk->phase == BSIM_PHASE_CONTINUOUS) {
        int p = integral_current(blk, i);
        y = p == 1 ? hi[i] : p == 2 ? lo[i] : y;
      } else if (satur) {
        /* At events the modes may be stale (x may just have jumped):
         * the limits themselves bound y. */
        y = y > hi[i] ? hi[i] : y < lo[i] ? lo[i] : y;
      }
      blk->outptr[0][i] = y;
    }
    break;
  case BSIM_FLAG_UPDATE:
    if (blk->nevprt > 0 && (blk->nevprt & 1) && blk->nin >= 2) {
      for (int i = 0; i < nx; i++)
        blk->x[i] = blk->inptr[1][i];
    } else if (blk->nevprt < 0 && satur) {
      bsim_zc_ties_note(blk);
      /* At its own root x may sit a solver tolerance beyond a limit; put
       * it on the limit so that the held value is the limit itself. */
      for (int i = 0; i < nx; i++)
        blk->x[i] = blk->x[i] > hi[i]   ? hi[i]
                    : blk->x[i] < lo[i] ? lo[i]
                                        : blk->x[i];
    }
    break;
  case BSIM_FLAG_ZCROSS:
    if (blk->ng < nx || !satur) break;
    for (int i = 0; i < nx; i++) {
      double u = blk->inptr[0][i], x = blk->x[i];
      if (blk->phase == BSIM_PHASE_DISCRETE && blk->nmode >= nx) {
        /* A held element whose root was u reaching 0 exactly is released
         * or kept by the direction u was going. */
        int held = blk->mode[i] == 1 || blk->mode[i] == 2;
        double ue = held ? bsim_zc_ties_side(blk, i, u) : u;
        blk->mode[i] = integral_piece(x, ue, hi[i], lo[i]);
      }
      /* Free: watch for x reaching either limit. Held: watch for u
       * turning back, which releases it. */
      int p = blk->nmode >= nx ? blk->mode[i] : 3;
      blk->g[i] = p == 1 || p == 2 ? u : (x - hi[i]) * (x - lo[i]);
    }
    break;
  case BSIM_FLAG_JACOBIAN:
    /* [dxd/dx dxd/du; dy/dx dy/du] = [0 I (0); I 0 (0)]: the re-init input,
     * read at events only, has no derivative; saturated instances opt out
     * (no_jacobian) and are never asked. */
    if (satur) break;
    for (int i = 0; i < nx; i++) {
      blk->jac[i + 2 * nx * (nx + i)] = 1.0;
      blk->jac[(nx + i) + 2 * nx * i] = 1.0;
    }
    break;
  case BSIM_FLAG_END:
    bsim_zc_ties_free(blk);
    break;
  default:
    break;
  }
}

const bsim_block_type bsim_type_INTEGRAL_m = {
    "INTEGRAL_m",
    "integral_func",
    "Integrator: y = x, x' = u, with optional re-init and saturation.",
    "Integrates its input element-wise from x0; u, x and y have the size\n"
    "of x0 (a scalar, vector or matrix). The output does not depend on the\n"
    "input directly, so an integrator breaks algebraic loops.\n"
    "reinit = 1 adds a second input of the same size and an event input:\n"
    "when the event fires, x jumps to the value of input 2.\n"
    "satur = 1 keeps each element within [min, max]: an element that\n"
    "reaches a limit while u pushes it further is held there (x' = 0,\n"
    "y = the limit) until u changes sign. Each element has one surface,\n"
    "(x - max)(x - min) while free and u while held, and one mode (1: held\n"
    "at max, 2: held at min, 3: free).\n"
    "Run-time layout: x0 = x0(:), rpar = [max(:); min(:)] with saturation\n"
    "(empty without), ipar empty, in = rows(x0) (twice with reinit),\n"
    "in2 = cols(x0), out = rows(x0), out2 = cols(x0), dep_u = 0, dep_t = 1,\n"
    "nevin = 1 with reinit (else 0), ng = nmode = numel(x0) with\n"
    "saturation (else 0).",
    bsim_std_integral_params,
    5,
    integral_define,
    bsim_std_integral_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    "x0,reinit,satur,max,min"};

/* ---------------------------------------------------- csslti4: CLSS, CLR */

/* y = C x + D u and x' = A x + B u on rpar = [A(:); B(:); C(:); D(:)], the
 * sizes taken from the state and the ports. */
typedef struct ss_dims {
  int ns, nu, ny;
} ss_dims;

static ss_dims ss_dims_of(const bsim_block *blk) {
  ss_dims d;
  d.ns = blk->nx;
  d.nu = blk->nin > 0 ? bsim_std_insize(blk, 0) : 0;
  d.ny = blk->nout > 0 ? bsim_std_outsize(blk, 0) : 0;
  return d;
}

void bsim_std_csslti4_fn(bsim_block *blk, int flag) {
  ss_dims d = ss_dims_of(blk);
  const double *A = blk->rpar;
  const double *B = A + d.ns * d.ns;
  const double *C = B + d.ns * d.nu;
  const double *D = C + d.ny * d.ns;
  const double *u = d.nu ? blk->inptr[0] : NULL;
  switch (flag) {
  case BSIM_FLAG_INIT: {
    int need = d.ns * d.ns + d.ns * d.nu + d.ny * d.ns + d.ny * d.nu;
    if (blk->nrpar != need)
      bsim_block_error(blk,
                       "rpar has %d entries; %d states, %d inputs and %d "
                       "outputs need %d",
                       blk->nrpar, d.ns, d.nu, d.ny, need);
    break;
  }
  case BSIM_FLAG_OUTPUTS:
  case BSIM_FLAG_REINIT:
    for (int i = 0; i < d.ny; i++) {
      double s = 0;
      for (int j = 0; j < d.ns; j++)
        s += C[i + d.ny * j] * blk->x[j];
      for (int j = 0; j < d.nu; j++)
        s += D[i + d.ny * j] * u[j];
      blk->outptr[0][i] = s;
    }
    break;
  case BSIM_FLAG_JACOBIAN: {
    /* [A B; C D] laid out in (ns + ny) x (ns + nu) */
    int nr = d.ns + d.ny;
    for (int j = 0; j < d.ns; j++) {
      for (int i = 0; i < d.ns; i++)
        blk->jac[i + nr * j] = A[i + d.ns * j];
      for (int i = 0; i < d.ny; i++)
        blk->jac[d.ns + i + nr * j] = C[i + d.ny * j];
    }
    for (int j = 0; j < d.nu; j++) {
      for (int i = 0; i < d.ns; i++)
        blk->jac[i + nr * (d.ns + j)] = B[i + d.ns * j];
      for (int i = 0; i < d.ny; i++)
        blk->jac[d.ns + i + nr * (d.ns + j)] = D[i + d.ny * j];
    }
    break;
  }
  case BSIM_FLAG_DERIVATIVES:
    for (int i = 0; i < d.ns; i++) {
      double s = 0;
      for (int j = 0; j < d.ns; j++)
        s += A[i + d.ns * j] * blk->x[j];
      for (int j = 0; j < d.nu; j++)
        s += B[i + d.ns * j] * u[j];
      blk->xd[i] = s;
    }
    break;
  default:
    break;
  }
}

static int clss_define(bsim_define_ctx *ctx, bsim_model *m) {
  return bsim_std_ss_model(ctx, m, 0);
}

const bsim_block_type bsim_type_CLSS = {
    "CLSS",
    "csslti4",
    "Continuous state-space system: x' = A x + B u, y = C x + D u.",
    "A linear time-invariant system with n states, m = cols(B) inputs\n"
    "(one vector port) and p = rows(C) outputs (one vector port).\n"
    "Run-time layout: rpar = [A(:); B(:); C(:); D(:)] (column-major),\n"
    "x0 = x0(:), in = m, out = p, in2 = out2 = 1, dep_u = (D has a nonzero\n"
    "entry), dep_t = 1.",
    bsim_std_ss_params,
    5,
    clss_define,
    bsim_std_csslti4_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    "A,B,C,D,x0"};

const bsim_param_spec bsim_std_tf_params[2] = {
    {"num", BSIM_PARAM_POLY, "[1]",
     "numerator: a polynomial in s (\"1+s\") or its coefficients, highest "
     "power first"},
    {"den", BSIM_PARAM_POLY, "[1 1]",
     "denominator: a polynomial in s (\"1+s\") or its coefficients, "
     "highest power first"},
};

static int clr_define(bsim_define_ctx *ctx, bsim_model *m) {
  return bsim_std_tf_model(ctx, m, 0);
}

const bsim_block_type bsim_type_CLR = {
    "CLR",
    "csslti4",
    "Continuous transfer function num(s)/den(s).",
    "A SISO transfer function given by polynomials in s, as Xcos's dialog\n"
    "takes them (num = 1, den = 1+2*s+s^2), or by coefficient vectors,\n"
    "highest power first (den = [1 2 1]): 1/(s^2+2s+1). It must be\n"
    "proper (deg num <= deg den). Realised as Scilab's CLR does: the\n"
    "controllable canonical form of cont_frm with den made monic.\n"
    "Run-time layout: as CLSS, rpar = [A(:); B(:); C(:); D], x0 = zeros,\n"
    "in = out = 1, dep_u = (D <> 0), dep_t = 1.",
    bsim_std_tf_params,
    2,
    clr_define,
    bsim_std_csslti4_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    "num,den"};
