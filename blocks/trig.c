/*
 * TrigFun and its simulation functions. Xcos's TrigFun interface picks one
 * computational function per mathematical function (sin_blk, cos_blk, ...)
 * and stores its name in model.sim, so each of those functions is a
 * registered type of its own: the scheduler finds them by that name, and an
 * .xcos file that names one directly runs too.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "blocks/std.h"

typedef double (*unary_fn)(double);

static int trig_ports(bsim_define_ctx *ctx, bsim_model *m) {
  if (bsim_model_set_inputs(m, 1, -1, -2, 1) != 0 ||
      bsim_model_set_outputs(m, 1, -1, -2) != 0)
    return bsim_define_error(ctx, "out of memory");
  return 0;
}

/* A non-finite result from a finite input is a domain error (asin(2)) or an
 * overflow (cosh(1000)); the integrator may back off and avoid it. Out of
 * line, so that the loop calling f in every residual stays lean. */
static __attribute__((noinline, cold)) void domain_error(bsim_block *blk,
                                                         const char *what,
                                                         const char *name,
                                                         double u, int i) {
  char msg[160];
  snprintf(msg, sizeof msg, what, name, u, i + 1);
  bsim_std_numeric_failure(blk, msg);
}

static void jacobian(bsim_block *blk, unary_fn df, const char *name) {
  /* element-wise: dy/du is diagonal */
  int n = bsim_std_outsize(blk, 0);
  for (int i = 0; i < n; i++) {
    double u = blk->inptr[0][i], d = df(u);
    if (!isfinite(d) && isfinite(u)) {
      domain_error(blk, "the derivative of %s at %g is undefined (element %d)",
                   name, u, i);
      return;
    }
    blk->jac[i + n * i] = d;
  }
}

static inline void apply(bsim_block *blk, int flag, unary_fn f, unary_fn df,
                         const char *name) {
  if (flag == BSIM_FLAG_INIT) {
    /* a file's stored model may lack a port, or give them other sizes */
    if (bsim_std_need_ports(blk, 1, 1) == 0 &&
        bsim_std_insize(blk, 0) < bsim_std_outsize(blk, 0))
      bsim_block_error(blk, "input has %d elements, the output %d",
                       bsim_std_insize(blk, 0), bsim_std_outsize(blk, 0));
    return;
  }
  if (flag == BSIM_FLAG_JACOBIAN) {
    jacobian(blk, df, name);
    return;
  }
  if (flag != BSIM_FLAG_OUTPUTS && flag != BSIM_FLAG_REINIT) return;
  int n = blk->outsz[0] * blk->outsz[blk->nout]; /* called in every residual */
  const double *u = blk->inptr[0];
  double *y = blk->outptr[0];
  for (int i = 0; i < n; i++) {
    y[i] = f(u[i]);
    if (!isfinite(y[i]) && isfinite(u[i])) {
      domain_error(blk, "%s(%g) is undefined or overflows (element %d)", name,
                   u[i], i);
      return;
    }
  }
}

/* Derivatives, for flag 10. */
static double d_sin(double u) {
  return cos(u);
}
static double d_cos(double u) {
  return -sin(u);
}
static double d_tan(double u) {
  return 1.0 / (cos(u) * cos(u));
}
static double d_asin(double u) {
  return 1.0 / sqrt(1.0 - u * u);
}
static double d_acos(double u) {
  return -1.0 / sqrt(1.0 - u * u);
}
static double d_atan(double u) {
  return 1.0 / (1.0 + u * u);
}
static double d_sinh(double u) {
  return cosh(u);
}
static double d_cosh(double u) {
  return sinh(u);
}
static double d_tanh(double u) {
  return 1.0 / (cosh(u) * cosh(u));
}
static double d_asinh(double u) {
  return 1.0 / sqrt(u * u + 1.0);
}
static double d_acosh(double u) {
  return 1.0 / sqrt(u * u - 1.0);
}
static double d_atanh(double u) {
  return 1.0 / (1.0 - u * u);
}

#define TRIG_FN(f)                                                             \
  static void f##_fn(bsim_block *blk, int flag) {                              \
    apply(blk, flag, f, d_##f, #f);                                            \
  }
TRIG_FN(sin)
TRIG_FN(cos)
TRIG_FN(tan)
TRIG_FN(asin)
TRIG_FN(acos)
TRIG_FN(atan)
TRIG_FN(sinh)
TRIG_FN(cosh)
TRIG_FN(tanh)
TRIG_FN(asinh)
TRIG_FN(acosh)
TRIG_FN(atanh)
#undef TRIG_FN

/* The hidden types: no parameters, the same ports as TrigFun. */
#define TRIG_TYPE(f)                                                           \
  static const bsim_block_type f##_type = {                                    \
      #f "_blk",                                                               \
      #f "_blk",                                                               \
      #f " element-wise (TrigFun's simulation function).",                     \
      "y = " #f "(u) for every element of u. Chosen by TrigFun with\n"         \
      "function = \"" #f "\"; no parameters.",                                 \
      NULL,                                                                    \
      0,                                                                       \
      trig_ports,                                                              \
      f##_fn,                                                                  \
      BSIM_TYPE_JACOBIAN};
TRIG_TYPE(sin)
TRIG_TYPE(cos)
TRIG_TYPE(tan)
TRIG_TYPE(asin)
TRIG_TYPE(acos)
TRIG_TYPE(atan)
TRIG_TYPE(sinh)
TRIG_TYPE(cosh)
TRIG_TYPE(tanh)
TRIG_TYPE(asinh)
TRIG_TYPE(acosh)
TRIG_TYPE(atanh)
#undef TRIG_TYPE

const bsim_block_type *const bsim_trig_types[] = {
    &sin_type,  &cos_type,  &tan_type,  &asin_type,  &acos_type,  &atan_type,
    &sinh_type, &cosh_type, &tanh_type, &asinh_type, &acosh_type, &atanh_type};
const int bsim_trig_ntypes =
    (int)(sizeof bsim_trig_types / sizeof bsim_trig_types[0]);

static const bsim_param_spec trigfun_params[] = {
    {"function", BSIM_PARAM_STRING, "sin",
     "one of sin cos tan asin acos atan sinh cosh tanh asinh acosh atanh"},
};

static int trigfun_define(bsim_define_ctx *ctx, bsim_model *m) {
  const bsim_value *f = bsim_param(ctx, "function");
  const char *name = f && f->str ? f->str : "";
  for (int i = 0; i < bsim_trig_ntypes; i++) {
    const char *sim = bsim_trig_types[i]->sim_name;
    size_t len = strlen(name);
    /* "cos" matches "cos_blk" */
    if (len > 0 && strncmp(sim, name, len) == 0 &&
        strcmp(sim + len, "_blk") == 0) {
      m->sim = sim;
      return trig_ports(ctx, m);
    }
  }
  return bsim_define_error(ctx,
                           "unknown function '%s' (choose among sin cos tan "
                           "asin acos atan sinh cosh tanh asinh acosh atanh)",
                           name);
}

const bsim_block_type bsim_type_TrigFun = {
    "TrigFun",
    "sin_blk",
    "Trigonometric or hyperbolic function, element-wise.",
    "y = f(u) for every element of u (any size), f chosen by 'function'.\n"
    "A domain error (asin(2)) or an overflow is a recoverable failure while\n"
    "integrating and fatal elsewhere.\n"
    "Run-time layout: model.sim = \"<function>_blk\" (sin_blk, cos_blk, ...),\n"
    "rpar and ipar empty, in = -1, in2 = -2, out = -1, out2 = -2.\n"
    "Direct feedthrough.",
    trigfun_params,
    1,
    trigfun_define,
    sin_fn,
    BSIM_TYPE_JACOBIAN,
    "function"};
