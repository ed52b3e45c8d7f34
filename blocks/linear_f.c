/*
 * Xcos's other continuous linear blocks: the older state-space and
 * transfer-function interfaces (CLSS_f, CLR_f: Scilab's csslti, same
 * semantics as csslti4), the state-space systems whose state jumps to an
 * input on an event (TCLSS, TCLSS_f), the vector integrators INTEGRAL and
 * INTEGRAL_f, the numerical derivative DERIV and the PID built on it, the
 * dummy state CLINDUMMY_f
 * and the sample-and-hold SAMPLEHOLD_f. Where a newer block computes the
 * same thing its computational function is reused (blocks/std.h).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blocks/std.h"

static int oom(bsim_define_ctx *ctx) {
  return bsim_define_error(ctx, "out of memory");
}

/* ---------------------------------------------------------- CLSS_f, CLR_f */

static int clssf_define(bsim_define_ctx *ctx, bsim_model *m) {
  return bsim_std_ss_model(ctx, m, 0);
}

static const bsim_block_type type_CLSS_f = {
    "CLSS_f",
    "csslti",
    "Continuous state-space system (older interface of CLSS).",
    "x' = A x + B u, y = C x + D u, exactly as CLSS: n states, cols(B)\n"
    "inputs (one vector port), rows(C) outputs (one vector port). A scalar\n"
    "D is spread over every entry, D = [] means zeros.\n"
    "Run-time layout: rpar = [A(:); B(:); C(:); D(:)] (column-major),\n"
    "x0 = x0(:), in = cols(B), out = rows(C), in2 = out2 = 1,\n"
    "dep_u = (D has a nonzero entry), dep_t = 1.",
    bsim_std_ss_params,
    5,
    clssf_define,
    bsim_std_csslti4_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    "A,B,C,D,x0"};

static int clrf_define(bsim_define_ctx *ctx, bsim_model *m) {
  return bsim_std_tf_model(ctx, m, 0);
}

static const bsim_block_type type_CLR_f = {
    "CLR_f",
    "csslti",
    "Continuous transfer function num(s)/den(s) (older interface of CLR).",
    "A SISO transfer function, exactly as CLR: coefficient vectors highest\n"
    "power first, proper (deg num <= deg den), realised in Scilab's\n"
    "controllable canonical form (cont_frm, den made monic). The initial\n"
    "state is 0 (Xcos keeps the state the block had before an edit; a new\n"
    "block's is 0).\n"
    "Run-time layout: as CLSS, rpar = [A(:); B(:); C(:); D], x0 = zeros,\n"
    "in = out = 1, dep_u = (D <> 0), dep_t = 1.",
    bsim_std_tf_params,
    2,
    clrf_define,
    bsim_std_csslti4_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    "num,den"};

/* -------------------------------------------------------- TCLSS, TCLSS_f */

/* Xcos's tcslti / tcsltj: x' = A x + B u1, y = C x + D u1 (no D term for
 * tcsltj, chosen when D is empty), and on an event x jumps to u2. The
 * inputs are [u1 (cols(B) elements); u2 (n elements)], u1 absent when B
 * is empty. One function serves all four simulation names; it tells the
 * forms apart by the length of rpar. */
typedef struct tclss_dims {
  int ns, nu, ny, has_d;
  const double *A, *B, *C, *D, *u1, *u2;
} tclss_dims;

static int tclss_dims_of(const bsim_block *blk, tclss_dims *d) {
  d->ns = blk->nx;
  d->nu = blk->nin >= 2 ? bsim_std_insize(blk, 0) : 0;
  d->ny = blk->nout > 0 ? bsim_std_outsize(blk, 0) : 0;
  int abc = d->ns * d->ns + d->ns * d->nu + d->ny * d->ns;
  d->has_d = blk->nrpar == abc + d->ny * d->nu && d->nu > 0;
  d->A = blk->rpar;
  d->B = d->A + d->ns * d->ns;
  d->C = d->B + d->ns * d->nu;
  d->D = d->C + d->ny * d->ns;
  d->u1 = d->nu ? blk->inptr[0] : NULL;
  d->u2 = blk->nin >= 1 ? blk->inptr[blk->nin - 1] : NULL;
  return blk->nrpar == abc || blk->nrpar == abc + d->ny * d->nu ? 0 : -1;
}

static void tclss_fn(bsim_block *blk, int flag) {
  tclss_dims d;
  int ok = tclss_dims_of(blk, &d) == 0;
  if (flag == BSIM_FLAG_INIT) {
    if (!ok || blk->nin < 1 || bsim_std_insize(blk, blk->nin - 1) != d.ns)
      bsim_block_error(blk,
                       "rpar has %d entries and the last input %d elements; "
                       "%d states, %d inputs and %d outputs need [A B C (D)] "
                       "and a re-init input of %d",
                       blk->nrpar,
                       blk->nin ? bsim_std_insize(blk, blk->nin - 1) : 0, d.ns,
                       d.nu, d.ny, d.ns);
    return;
  }
  if (!ok) return;
  switch (flag) {
  case BSIM_FLAG_OUTPUTS:
  case BSIM_FLAG_REINIT:
    for (int i = 0; i < d.ny; i++) {
      double s = 0;
      for (int j = 0; j < d.ns; j++)
        s += d.C[i + d.ny * j] * blk->x[j];
      for (int j = 0; d.has_d && j < d.nu; j++)
        s += d.D[i + d.ny * j] * d.u1[j];
      blk->outptr[0][i] = s;
    }
    break;
  case BSIM_FLAG_DERIVATIVES:
    for (int i = 0; i < d.ns; i++) {
      double s = 0;
      for (int j = 0; j < d.ns; j++)
        s += d.A[i + d.ns * j] * blk->x[j];
      for (int j = 0; j < d.nu; j++)
        s += d.B[i + d.ns * j] * d.u1[j];
      blk->xd[i] = s;
    }
    break;
  case BSIM_FLAG_UPDATE:
    if (blk->nevprt > 0 && (blk->nevprt & 1))
      memcpy(blk->x, d.u2, (size_t)d.ns * sizeof *blk->x);
    break;
  case BSIM_FLAG_JACOBIAN: {
    /* [A B 0; C D 0]: the re-init input, read at events only, has no
     * derivative */
    int nr = d.ns + d.ny;
    for (int j = 0; j < d.ns; j++) {
      for (int i = 0; i < d.ns; i++)
        blk->jac[i + nr * j] = d.A[i + d.ns * j];
      for (int i = 0; i < d.ny; i++)
        blk->jac[d.ns + i + nr * j] = d.C[i + d.ny * j];
    }
    for (int j = 0; j < d.nu; j++) {
      for (int i = 0; i < d.ns; i++)
        blk->jac[i + nr * (d.ns + j)] = d.B[i + d.ns * j];
      for (int i = 0; d.has_d && i < d.ny; i++)
        blk->jac[d.ns + i + nr * (d.ns + j)] = d.D[i + d.ny * j];
    }
    break;
  }
  default:
    break;
  }
}

/* CLSS's model plus the re-init input and the event input; without D the
 * D block leaves rpar and the tcsltj form is named. */
static int tclss_model(bsim_define_ctx *ctx, bsim_model *m, const char *nod) {
  int empty_d = bsim_std_numel(bsim_param(ctx, "D")) == 0;
  if (bsim_std_ss_model(ctx, m, 0) != 0) return -1;
  int ns = m->nx, nu = m->nin > 0 ? m->in[0] : 0;
  int ny = m->nout > 0 ? m->out[0] : 0, feed = m->nin > 0 && m->dep_u[0];
  if (bsim_model_set_inputs(m, nu > 0 ? 2 : 1, ns, 1, feed) != 0 ||
      bsim_model_set_events(m, 1, 0) != 0)
    return oom(ctx);
  if (nu > 0) m->in[0] = nu;
  if (empty_d) {
    m->nrpar -= ny * nu; /* the zeros bsim_std_ss_model put last */
    m->sim = nod;
  }
  return 0;
}

static int tclss_define(bsim_define_ctx *ctx, bsim_model *m) {
  return tclss_model(ctx, m, "tcsltj4");
}

static int tclssf_define(bsim_define_ctx *ctx, bsim_model *m) {
  return tclss_model(ctx, m, "tcsltj");
}

#define TCLSS_DOC(f, j)                                                        \
  "x' = A x + B u1, y = C x + D u1, as CLSS; when event input 1 fires, the\n"  \
  "state jumps to input 2 (n elements). Input 1 has cols(B) elements and\n"    \
  "is absent when B is empty. D = [] drops the D term (and D from rpar),\n"    \
  "and the block runs as Xcos's " j "; a scalar D is spread over every\n"      \
  "entry.\n"                                                                   \
  "Run-time layout: rpar = [A(:); B(:); C(:); D(:)], x0 = x0(:),\n"            \
  "in = [cols(B); n], in2 = 1, out = rows(C), out2 = 1, nevin = 1,\n"          \
  "dep_u = (D has a nonzero entry) for both inputs, as Xcos's dep_ut,\n"       \
  "dep_t = 1, model.sim = \"" f "\" (\"" j "\" without D)."

static const bsim_block_type type_TCLSS = {
    "TCLSS",
    "tcslti4",
    "State-space system whose state jumps to an input on an event.",
    TCLSS_DOC("tcslti4", "tcsltj4"),
    bsim_std_ss_params,
    5,
    tclss_define,
    tclss_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    "A,B,C,D,x0"};

static const bsim_block_type type_TCLSS_f = {
    "TCLSS_f",
    "tcslti",
    "State-space system with state jumps (older interface of TCLSS).",
    TCLSS_DOC("tcslti", "tcsltj"),
    bsim_std_ss_params,
    5,
    tclssf_define,
    tclss_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    "A,B,C,D,x0"};

/* The forms without D, registered under their own simulation names so
 * that model.sim (and a stored Xcos model naming them) finds them. */
static const bsim_block_type type_tcsltj4 = {
    "tcsltj4",
    "tcsltj4",
    "TCLSS without its D term (simulation function).",
    "The function TCLSS runs when D = []: see TCLSS.",
    bsim_std_ss_params,
    5,
    tclss_define,
    tclss_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR};

static const bsim_block_type type_tcsltj = {
    "tcsltj",
    "tcsltj",
    "TCLSS_f without its D term (simulation function).",
    "The function TCLSS_f runs when D = []: see TCLSS_f.",
    bsim_std_ss_params,
    5,
    tclssf_define,
    tclss_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR};

/* ------------------------------------------------- INTEGRAL, INTEGRAL_f */

static int integral_define(bsim_define_ctx *ctx, bsim_model *m) {
  return bsim_std_integral_model(ctx, m, 1);
}

static const bsim_block_type type_INTEGRAL = {
    "INTEGRAL",
    "integral_func",
    "Vector integrator with optional re-init and saturation.",
    "INTEGRAL_m for vectors: x0, max and min are read as columns (x0(:)),\n"
    "so u, x and y are vectors of numel(x0) elements; otherwise the same\n"
    "semantics (see INTEGRAL_m): y = x, x' = u; reinit = 1 adds an input\n"
    "and an event input that makes x jump to it; satur = 1 holds each\n"
    "element within [min, max] with one surface and one mode per element.\n"
    "Run-time layout: x0 = x0(:), rpar = [max(:); min(:)] with saturation\n"
    "(empty without), in = numel(x0) (twice with reinit), in2 = 1,\n"
    "out = numel(x0), out2 = 1, dep_u = 0, dep_t = 1, nevin = reinit,\n"
    "ng = nmode = numel(x0) with saturation (else 0).",
    bsim_std_integral_params,
    5,
    integral_define,
    bsim_std_integral_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    "x0,reinit,satur,max,min"};

static const bsim_param_spec integralf_params[] = {
    {"x0", BSIM_PARAM_REAL, "0", "initial state (a scalar)"},
};

static int integralf_define(bsim_define_ctx *ctx, bsim_model *m) {
  double x0;
  if (bsim_std_scalar(ctx, "x0", &x0) != 0) return -1;
  double *x = bsim_model_alloc_x0(m, 1);
  if (!x || bsim_model_set_inputs(m, 1, 1, 1, 0) != 0 ||
      bsim_model_set_outputs(m, 1, 1, 1) != 0)
    return oom(ctx);
  x[0] = x0;
  m->dep_t = 1;
  return 0;
}

static const bsim_block_type type_INTEGRAL_f = {
    "INTEGRAL_f",
    "integr",
    "Scalar integrator: y = x, x' = u.",
    "Integrates its scalar input from x0. The output does not depend on\n"
    "the input directly, so it breaks algebraic loops.\n"
    "Run-time layout: x0 = [x0], rpar and ipar empty, in = out = 1,\n"
    "in2 = out2 = 1, dep_u = 0, dep_t = 1.",
    integralf_params,
    1,
    integralf_define,
    bsim_std_integral_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    "x0"};

/* ------------------------------------------------------------------ DERIV */

/* Xcos's deriv: the difference quotient of the input between the last two
 * distinct times the block computed its outputs. Work memory: the two
 * times, then the two input values of each element, then the last
 * quotient of each (the output, which holds while no new time comes). */
typedef struct deriv_work {
  double t0, t1;
  int n;
  double v[]; /* u0 of element i at 2i, u1 at 2i+1; quotients from 2n */
} deriv_work;

static deriv_work *deriv_new(bsim_block *blk, int n) {
  free(*blk->work);
  deriv_work *w = calloc(1, sizeof *w + 3 * (size_t)n * sizeof(double));
  *blk->work = w;
  if (!w) {
    bsim_block_error(blk, "out of memory");
    return NULL;
  }
  w->n = n;
  w->t0 = w->t1 = blk->t;
  return w;
}

static void deriv_free(bsim_block *blk) {
  free(*blk->work);
  *blk->work = NULL;
}

/* One evaluation at blk->t with input u; returns the quotients. */
static const double *deriv_step(deriv_work *w, double t, const double *u) {
  int n = w->n;
  double *q = w->v + 2 * n;
  /* A time a few ulps after the last is the same instant (a clock's
   * accumulated time against a sample time): a quotient over such an
   * interval would be rounding noise. */
  if (t > w->t1 + 4 * DBL_EPSILON * fmax(1.0, fabs(w->t1))) {
    w->t0 = w->t1;
    for (int i = 0; i < n; i++)
      w->v[2 * i] = w->v[2 * i + 1];
  }
  w->t1 = t;
  for (int i = 0; i < n; i++)
    w->v[2 * i + 1] = u[i];
  double dt = w->t1 - w->t0;
  if (dt != 0)
    for (int i = 0; i < n; i++)
      q[i] = (w->v[2 * i + 1] - w->v[2 * i]) / dt;
  return q;
}

static void deriv_fn(bsim_block *blk, int flag) {
  deriv_work *w = (deriv_work *)*blk->work;
  /* a file's stored model may lack a port (then flag 4 took no work) */
  if (bsim_std_lacks_ports(blk, flag, 1, 1)) return;
  int n = bsim_std_insize(blk, 0);
  if (flag == BSIM_FLAG_INIT) {
    if (n != bsim_std_outsize(blk, 0))
      bsim_block_error(blk, "input and output must have the same size");
    else
      deriv_new(blk, n);
  } else if (flag == BSIM_FLAG_END) {
    deriv_free(blk);
  } else if (flag == BSIM_FLAG_OUTPUTS && w) {
    memcpy(blk->outptr[0], deriv_step(w, blk->t, blk->inptr[0]),
           sizeof(double) * (size_t)n);
  }
}

static const bsim_block_type type_DERIV = {
    "DERIV",
    "deriv",
    "Numerical derivative of the input.",
    "y = (u(t1) - u(t0)) / (t1 - t0), element-wise, where t1 is the time of\n"
    "the latest output computation and t0 that of the one before, at an\n"
    "earlier time (a new time shifts t1 to t0; a repeated or earlier time,\n"
    "as the integrator retries a step, replaces t1; so does a time within\n"
    "4 ulps of t1, such as a clock's accumulated time against a sample\n"
    "time, where Xcos would divide rounding noise). The output is 0 until\n"
    "two distinct times have been seen. This is Xcos's definition: the\n"
    "result depends on the times at which the integrator evaluates the\n"
    "diagram, so it follows Scilab's only to the extent that the solvers'\n"
    "steps agree; for a smooth input both approach du/dt.\n"
    "Run-time layout: no parameters, in = -1, in2 = -2, out = -1,\n"
    "out2 = -2, dep_u = 1; work memory holds the two times and values.",
    NULL,
    0,
    bsim_std_elementwise_model,
    deriv_fn,
    BSIM_TYPE_STEP_MEMORY,
    ""};

/* -------------------------------------------------------------------- PID */

static const bsim_param_spec pid_params[] = {
    {"P", BSIM_PARAM_REAL, "1", "proportional gain"},
    {"I", BSIM_PARAM_REAL, "1", "integral gain"},
    {"D", BSIM_PARAM_REAL, "1", "derivative gain"},
};

static int pid_define(bsim_define_ctx *ctx, bsim_model *m) {
  double g[3];
  static const char *const names[3] = {"P", "I", "D"};
  for (int k = 0; k < 3; k++)
    if (bsim_std_scalar(ctx, names[k], &g[k]) != 0) return -1;
  double *r = bsim_model_alloc_rpar(m, 3);
  if (!r || !bsim_model_alloc_x0(m, 1) ||
      bsim_model_set_inputs(m, 1, 1, 1, 1) != 0 ||
      bsim_model_set_outputs(m, 1, 1, 1) != 0)
    return oom(ctx);
  for (int k = 0; k < 3; k++)
    r[k] = g[k];
  m->dep_t = 1;
  return 0;
}

/* Xcos's PID superblock, computed in the same order: P u, plus the
 * integral of I u (from 0), plus DERIV's quotient of D u. */
static void pid_fn(bsim_block *blk, int flag) {
  deriv_work *w = (deriv_work *)*blk->work;
  const double *g = blk->rpar;
  double u = blk->nin ? blk->inptr[0][0] : 0;
  switch (flag) {
  case BSIM_FLAG_INIT:
    if (blk->nrpar != 3 || blk->nx != 1)
      bsim_block_error(blk, "needs rpar = [P; I; D] and one state");
    else
      deriv_new(blk, 1);
    return;
  case BSIM_FLAG_END:
    deriv_free(blk);
    return;
  case BSIM_FLAG_DERIVATIVES:
    blk->xd[0] = g[1] * u;
    return;
  case BSIM_FLAG_OUTPUTS:
  case BSIM_FLAG_REINIT: {
    if (!w) return;
    double du = g[2] * u;
    /* DERIV moves only at flag 1; at flag 6 its output holds */
    double d =
        flag == BSIM_FLAG_OUTPUTS ? deriv_step(w, blk->t, &du)[0] : w->v[2];
    blk->outptr[0][0] = g[0] * u + blk->x[0] + d;
    return;
  }
  default:
    return;
  }
}

static const bsim_block_type type_PID = {
    "PID", "pid", "PID controller: y = P u + integral of I u + d(D u)/dt.",
    "The scalar equivalent of Xcos's PID superblock: y = P u + x + D',\n"
    "where x' = I u from x = 0 and D' is DERIV's difference quotient of\n"
    "D u (see DERIV: it follows the times the integrator evaluates the\n"
    "diagram). In .xcos files PID is a masked superblock (sim csuper) of\n"
    "GAINBLK, INTEGRAL_m, DERIV and SUMMATION blocks, which the Xcos\n"
    "reader dissolves; for vector signals or matrix gains, write that\n"
    "superblock natively (docs/blocks.md).\n"
    "Run-time layout (blocksim's own; Xcos has no PID function): rpar =\n"
    "[P; I; D], x0 = [0], in = out = 1, in2 = out2 = 1, dep_u = 1,\n"
    "dep_t = 1; work memory as DERIV's.",
    pid_params, 3, pid_define, pid_fn, 0,
    /* none: a file's PID is a superblock, its gains inside it */
    NULL};

/* ------------------------------------------------------------ CLINDUMMY_f */

static int clindummy_define(bsim_define_ctx *ctx, bsim_model *m) {
  if (!bsim_model_alloc_x0(m, 1)) return oom(ctx);
  m->dep_t = 1;
  return 0;
}

static void clindummy_fn(bsim_block *blk, int flag) {
  if (flag == BSIM_FLAG_DERIVATIVES && blk->nx > 0) blk->xd[0] = sin(blk->t);
}

static const bsim_block_type type_CLINDUMMY_f = {
    "CLINDUMMY_f",
    "cdummy",
    "Dummy continuous state: x' = sin(t).",
    "A block without ports whose one state follows x' = sin(t) from 0.\n"
    "Xcos diagrams with only discrete parts used it to make the solver\n"
    "run; blocksim does not need it, but accepts it.\n"
    "Run-time layout: x0 = [0], no ports, dep_t = 1.",
    NULL,
    0,
    clindummy_define,
    clindummy_fn,
    BSIM_TYPE_JACOBIAN,
    ""};

/* ----------------------------------------------------------- SAMPLEHOLD_f */

static int sampleholdf_define(bsim_define_ctx *ctx, bsim_model *m) {
  if (bsim_std_elementwise_model(ctx, m) != 0) return -1;
  if (bsim_model_set_events(m, 1, 0) != 0) return oom(ctx);
  return 0;
}

static const bsim_block_type type_SAMPLEHOLD_f = {
    "SAMPLEHOLD_f", "samphold",
    "Sample and hold (older interface of SAMPHOLD_m).",
    "Copies its input to its output when activated and holds it until the\n"
    "next activation (0 before the first). Any size; direct feedthrough.\n"
    "Run-time layout: no parameters, in = -1, in2 = -2, out = -1,\n"
    "out2 = -2, dep_u = 1, nevin = 1.",
    NULL, 0, sampleholdf_define, bsim_std_samphold_fn, 0,
    /* Xcos stores one blank exprs entry */
    "-"};

/* ------------------------------------------------------- family registry */

const bsim_block_type *const bsim_linear_f_types[] = {
    &type_CLSS_f,  &type_CLR_f,  &type_TCLSS,       &type_TCLSS_f,
    &type_tcsltj4, &type_tcsltj, &type_INTEGRAL,    &type_INTEGRAL_f,
    &type_DERIV,   &type_PID,    &type_CLINDUMMY_f, &type_SAMPLEHOLD_f,
};
const int bsim_linear_f_ntypes =
    (int)(sizeof bsim_linear_f_types / sizeof bsim_linear_f_types[0]);
