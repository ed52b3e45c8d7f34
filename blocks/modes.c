/*
 * Blocks whose output is piecewise: SATURATION, HYSTHERESIS, SWITCH2_m and
 * SIGNUM. Each has zero-crossing surfaces at its switching points and
 * modes naming the current piece. The scheduler changes modes only while
 * it handles events (flag 9 in the discrete phase); while the integrator
 * runs, outputs follow the frozen mode even when the input has already
 * passed a switching point, so that the equations stay smooth until the
 * crossing is located and the integrator restarted. With zero crossings
 * switched off (ng = 0) the pieces are chosen from the current values, as
 * Xcos does. The tie rule for surfaces found exactly at zero (zcross.h)
 * lives here too; INTEGRAL_m's saturation uses it as well.
 */
#include <float.h>
#include <stdlib.h>

#include "blocks/std.h"
#include "blocks/zcross.h"

/* ------------------------------------------------------ ties at a root */

int bsim_zc_ties_init(bsim_block *blk) {
  bsim_zc_ties *w = (bsim_zc_ties *)*blk->work;
  int n = blk->ng > 0 ? blk->ng : 0;
  if (n == 0) return 0;
  if (w && w->n != n) {
    free(w);
    w = NULL;
  }
  if (!w) w = malloc(sizeof *w + (size_t)n * sizeof(int));
  *blk->work = w;
  if (!w) {
    bsim_block_error(blk, "out of memory");
    return -1;
  }
  w->t = 0;
  w->valid = 0;
  w->n = n;
  for (int k = 0; k < n; k++)
    w->dir[k] = 0;
  return 0;
}

void bsim_zc_ties_note(bsim_block *blk) {
  bsim_zc_ties *w = (bsim_zc_ties *)*blk->work;
  if (!w || !blk->jroot) return;
  w->t = blk->t;
  w->valid = 1;
  for (int k = 0; k < w->n && k < blk->ng; k++)
    w->dir[k] = blk->jroot[k];
}

double bsim_zc_ties_side(const bsim_block *blk, int k, double g) {
  const bsim_zc_ties *w = (const bsim_zc_ties *)*blk->work;
  if (g != 0 || !w || !w->valid || w->t != blk->t || k >= w->n) return g;
  return w->dir[k] * DBL_MIN;
}

void bsim_zc_ties_free(bsim_block *blk) {
  free(*blk->work);
  *blk->work = NULL;
}

int bsim_zc_ties_flags(bsim_block *blk, int flag) {
  if (flag == BSIM_FLAG_INIT) {
    bsim_zc_ties_init(blk);
    return 0; /* the block's own checks follow */
  }
  if (flag == BSIM_FLAG_END) {
    bsim_zc_ties_free(blk);
    return 1;
  }
  if (flag == BSIM_FLAG_UPDATE) {
    if (blk->nevprt < 0) bsim_zc_ties_note(blk);
    return 1;
  }
  return 0;
}

static int is_output_flag(int flag) {
  return flag == BSIM_FLAG_OUTPUTS || flag == BSIM_FLAG_REINIT;
}

/* Outputs follow the modes only while integrating with surfaces on. */
static int modes_frozen(const bsim_block *blk, int nmode) {
  return blk->phase == BSIM_PHASE_CONTINUOUS && blk->ng > 0 &&
         blk->nmode >= nmode;
}

static int zc_flag(bsim_define_ctx *ctx, int *on) {
  double zc;
  if (bsim_std_scalar(ctx, "zero-crossing", &zc) != 0) return -1;
  *on = zc != 0;
  return 0;
}

/* Checks at flag 4 shared by the scalar blocks: rpar length, and either no
 * surfaces or the expected number with one mode. */
static int check_scalar_block(bsim_block *blk, int nrpar, int ng) {
  /* a file's stored model may lack a port */
  if (bsim_std_need_ports(blk, 1, 1) != 0) return -1;
  if (blk->nrpar < nrpar) {
    bsim_block_error(blk, "rpar has %d entries, needs %d", blk->nrpar, nrpar);
    return -1;
  }
  if (blk->ng != 0 && (blk->ng < ng || blk->nmode < 1)) {
    bsim_block_error(blk, "needs %d surfaces and 1 mode, has %d and %d", ng,
                     blk->ng, blk->nmode);
    return -1;
  }
  return 0;
}

/* ------------------------------------------------------------- SATURATION */

static const bsim_param_spec satur_params[] = {
    {"upper", BSIM_PARAM_REAL, "1", "upper limit (> lower)"},
    {"lower", BSIM_PARAM_REAL, "-1", "lower limit"},
    {"zero-crossing", BSIM_PARAM_REAL, "1",
     "1: locate the limits with zero crossings; 0: clip the current value"},
};

static int satur_define(bsim_define_ctx *ctx, bsim_model *m) {
  double hi, lo;
  int zc;
  if (bsim_std_scalar(ctx, "upper", &hi) != 0 ||
      bsim_std_scalar(ctx, "lower", &lo) != 0 || zc_flag(ctx, &zc) != 0)
    return -1;
  if (hi <= lo)
    return bsim_define_error(
        ctx, "'upper' (%g) must be greater than 'lower' (%g)", hi, lo);
  double *r = bsim_model_alloc_rpar(m, 2);
  if (!r || bsim_model_set_inputs(m, 1, 1, 1, 1) != 0 ||
      bsim_model_set_outputs(m, 1, 1, 1) != 0)
    return bsim_define_error(ctx, "out of memory");
  r[0] = hi;
  r[1] = lo;
  m->ng = zc ? 2 : 0;
  m->nmode = zc ? 1 : 0;
  return 0;
}

/* Modes as Xcos's satur: 1 = at the upper limit, 2 = at the lower one,
 * 3 = linear. */
static int satur_piece(double u, double hi, double lo) {
  return u >= hi ? 1 : u <= lo ? 2 : 3;
}

static void satur_fn(bsim_block *blk, int flag) {
  if (bsim_zc_ties_flags(blk, flag)) return;
  if (flag == BSIM_FLAG_INIT) {
    check_scalar_block(blk, 2, 2);
    return;
  }
  if (!is_output_flag(flag) && flag != BSIM_FLAG_ZCROSS &&
      flag != BSIM_FLAG_JACOBIAN)
    return;
  double u = blk->inptr[0][0], hi = blk->rpar[0], lo = blk->rpar[1];
  if (is_output_flag(flag) || flag == BSIM_FLAG_JACOBIAN) {
    int piece = modes_frozen(blk, 1) ? blk->mode[0] : satur_piece(u, hi, lo);
    if (flag == BSIM_FLAG_JACOBIAN)
      blk->jac[0] = piece != 1 && piece != 2; /* 1 where y follows u */
    else
      blk->outptr[0][0] = piece == 1 ? hi : piece == 2 ? lo : u;
  } else if (flag == BSIM_FLAG_ZCROSS && blk->ng >= 2) {
    blk->g[0] = u - hi;
    blk->g[1] = u - lo;
    if (blk->phase == BSIM_PHASE_DISCRETE && blk->nmode >= 1) {
      double g0 = bsim_zc_ties_side(blk, 0, blk->g[0]);
      double g1 = bsim_zc_ties_side(blk, 1, blk->g[1]);
      blk->mode[0] = g0 >= 0 ? 1 : g1 <= 0 ? 2 : 3;
    }
  }
}

const bsim_block_type bsim_type_SATURATION = {
    "SATURATION",
    "satur",
    "Saturation: the input clipped to [lower, upper].",
    "y = upper when u >= upper, lower when u <= lower, u in between. With\n"
    "zero-crossing = 1 the surfaces u - upper and u - lower locate the\n"
    "corners and the mode (1: upper, 2: lower, 3: linear) holds the piece\n"
    "while integrating. Scalar input and output.\n"
    "Run-time layout: rpar = [upper; lower], in = out = 1, in2 = out2 = 1,\n"
    "dep_u = 1, ng = 2 and nmode = 1 (0 and 0 without zero crossings).",
    satur_params,
    3,
    satur_define,
    satur_fn,
    BSIM_TYPE_JACOBIAN,
    "upper,lower,zero-crossing"};

/* ------------------------------------------------------------ HYSTHERESIS */

static const bsim_param_spec hyst_params[] = {
    {"high", BSIM_PARAM_REAL, "1", "switch on when u rises to this value"},
    {"low", BSIM_PARAM_REAL, "0",
     "switch off when u falls to this value (<= high)"},
    {"out-high", BSIM_PARAM_REAL, "1", "output when on"},
    {"out-low", BSIM_PARAM_REAL, "0", "output when off"},
    {"zero-crossing", BSIM_PARAM_REAL, "1",
     "1: locate the switching points with zero crossings; 0: switch on the "
     "values seen"},
};

static int hyst_define(bsim_define_ctx *ctx, bsim_model *m) {
  double v[4];
  static const char *const names[4] = {"high", "low", "out-high", "out-low"};
  int zc;
  for (int i = 0; i < 4; i++)
    if (bsim_std_scalar(ctx, names[i], &v[i]) != 0) return -1;
  if (zc_flag(ctx, &zc) != 0) return -1;
  if (v[1] > v[0])
    return bsim_define_error(ctx,
                             "'low' (%g) must not be above 'high' (%g): the "
                             "block switches on at high and off at low",
                             v[1], v[0]);
  double *r = bsim_model_alloc_rpar(m, 4);
  if (!r || bsim_model_set_inputs(m, 1, 1, 1, 1) != 0 ||
      bsim_model_set_outputs(m, 1, 1, 1) != 0)
    return bsim_define_error(ctx, "out of memory");
  for (int i = 0; i < 4; i++)
    r[i] = v[i];
  m->ng = zc ? 2 : 0;
  m->nmode = zc ? 1 : 0;
  /* Only u rising through high or falling through low switches the relay;
   * the other crossings (right after a switch, u turning back) change
   * nothing, so they are not even located. */
  if (zc) {
    int *dirs = bsim_model_alloc_zcdirs(m, 2);
    if (!dirs) return bsim_define_error(ctx, "out of memory");
    dirs[0] = 1;
    dirs[1] = -1;
  }
  return 0;
}

typedef struct hyst_work {
  int on; /* the switch as last seen outside the integrator */
} hyst_work;

/* The switch after seeing u: on at or above high, off at or below low,
 * unchanged in between (that is the memory). */
static int hyst_next(int on, double u, const double *rpar) {
  return u >= rpar[0] ? 1 : u <= rpar[1] ? 0 : on;
}

/* Modes as Xcos's hystheresis: 2 = on, anything else (1, or 0 before the
 * first event) = off. */
static void hyst_fn(bsim_block *blk, int flag) {
  hyst_work *w = (hyst_work *)*blk->work;
  if (flag == BSIM_FLAG_INIT) {
    if (check_scalar_block(blk, 4, 2) != 0) return;
    if (!w && !(w = calloc(1, sizeof *w))) {
      bsim_block_error(blk, "out of memory");
      return;
    }
    *blk->work = w;
    w->on = 0; /* off until the input says otherwise, as Xcos */
    return;
  }
  if (flag == BSIM_FLAG_END) {
    free(w);
    *blk->work = NULL;
    return;
  }
  if (!w || (!is_output_flag(flag) && flag != BSIM_FLAG_ZCROSS)) return;
  double u = blk->inptr[0][0];
  if (is_output_flag(flag)) {
    if (modes_frozen(blk, 1))
      w->on = blk->mode[0] == 2;
    else
      w->on = hyst_next(w->on, u, blk->rpar);
    blk->outptr[0][0] = w->on ? blk->rpar[2] : blk->rpar[3];
  } else if (flag == BSIM_FLAG_ZCROSS && blk->ng >= 2) {
    blk->g[0] = u - blk->rpar[0];
    blk->g[1] = u - blk->rpar[1];
    if (blk->phase == BSIM_PHASE_DISCRETE && blk->nmode >= 1) {
      /* Between the thresholds the mode keeps the switch's memory; before
       * the first event that memory is "off". */
      int on = hyst_next(blk->mode[0] == 2, u, blk->rpar);
      blk->mode[0] = on ? 2 : 1;
      w->on = on;
    }
  }
}

const bsim_block_type bsim_type_HYSTHERESIS = {
    "HYSTHERESIS",
    "hystheresis",
    "Relay with hysteresis.",
    "The output is out-high once u has risen to 'high' and out-low once it\n"
    "has fallen to 'low'; between the two it keeps its last value. It\n"
    "starts off (out-low) unless the initial input is at or above 'high'.\n"
    "With zero-crossing = 1 the surfaces u - high and u - low locate the\n"
    "switching instants and the mode (2: on, 1: off) holds the state while\n"
    "integrating; with 0 the switch follows the values the block sees. Only\n"
    "u rising through high and u falling through low are located (zcdirs =\n"
    "[+1; -1]): the re-crossings right after a switch cost nothing.\n"
    "Run-time layout: rpar = [high; low; out-high; out-low], in = out = 1,\n"
    "in2 = out2 = 1, dep_u = 1, ng = 2 and nmode = 1 (0 and 0 without zero\n"
    "crossings). The switch is also kept in work memory.",
    hyst_params,
    5,
    hyst_define,
    hyst_fn,
    0,
    "high,low,out-high,out-low,zero-crossing"};

/* -------------------------------------------------------------- SWITCH2_m */

static const bsim_param_spec switch2_params[] = {
    {"datatype", BSIM_PARAM_REAL, "1",
     "data type of the signals; only 1 (real double) is supported"},
    {"rule", BSIM_PARAM_REAL, "0",
     "pass input 1 when 0: u2 >= threshold, 1: u2 > threshold, 2: u2 ~= "
     "threshold; input 3 otherwise"},
    {"threshold", BSIM_PARAM_REAL, "0", "the threshold a"},
    {"zero-crossing", BSIM_PARAM_REAL, "1",
     "1: locate u2 = a with a zero crossing; 0: test the current value"},
};

static int switch2_define(bsim_define_ctx *ctx, bsim_model *m) {
  int type, rule, zc;
  double a;
  if (bsim_std_int(ctx, "datatype", 1, &type) != 0 ||
      bsim_std_int(ctx, "rule", 0, &rule) != 0 ||
      bsim_std_scalar(ctx, "threshold", &a) != 0 || zc_flag(ctx, &zc) != 0)
    return -1;
  if (type != 1)
    return bsim_define_error(ctx,
                             "'datatype' %d is not supported; only 1 (real "
                             "double) is",
                             type);
  if (rule > 2)
    return bsim_define_error(ctx,
                             "'rule' must be 0 (u2 >= a), 1 (u2 > a) or 2 "
                             "(u2 ~= a), got %d",
                             rule);
  double *r = bsim_model_alloc_rpar(m, 1);
  int *ip = bsim_model_alloc_ipar(m, 1);
  if (!r || !ip || bsim_model_set_inputs(m, 3, -1, -2, 1) != 0 ||
      bsim_model_set_outputs(m, 1, -1, -2) != 0)
    return bsim_define_error(ctx, "out of memory");
  m->in[1] = m->in2[1] = 1; /* the control input is a scalar */
  r[0] = a;
  ip[0] = rule;
  m->ng = zc ? 1 : 0;
  m->nmode = zc ? 1 : 0;
  return 0;
}

/* 1 when the rule passes input 1 for g = u2 - a. */
static int switch2_passes(int rule, double g) {
  return rule == 0 ? g >= 0 : rule == 1 ? g > 0 : g != 0;
}

/* Modes as Xcos's switch2_m: 1 = input 1, 2 = input 3. */
static void switch2_fn(bsim_block *blk, int flag) {
  int n = blk->nout > 0 ? bsim_std_outsize(blk, 0) : 0;
  if (bsim_zc_ties_flags(blk, flag)) return;
  if (flag == BSIM_FLAG_INIT) {
    if (blk->nin != 3 || blk->nipar < 1 || blk->nrpar < 1 ||
        bsim_std_insize(blk, 0) != n || bsim_std_insize(blk, 2) != n ||
        bsim_std_insize(blk, 1) < 1) {
      bsim_block_error(blk,
                       "needs ipar = [rule], rpar = [threshold], and inputs 1 "
                       "and 3 of the output's size (%d)",
                       n);
      return;
    }
    check_scalar_block(blk, 1, 1);
    return;
  }
  if (!is_output_flag(flag) && flag != BSIM_FLAG_ZCROSS) return;
  double g = blk->inptr[1][0] - blk->rpar[0];
  int rule = blk->ipar[0];
  if (is_output_flag(flag)) {
    int first = modes_frozen(blk, 1) && (blk->mode[0] == 1 || blk->mode[0] == 2)
                    ? blk->mode[0] == 1
                    : switch2_passes(rule, g);
    const double *src = blk->inptr[first ? 0 : 2];
    for (int i = 0; i < n; i++)
      blk->outptr[0][i] = src[i];
  } else if (flag == BSIM_FLAG_ZCROSS && blk->ng >= 1) {
    blk->g[0] = g;
    if (blk->phase == BSIM_PHASE_DISCRETE && blk->nmode >= 1)
      blk->mode[0] = switch2_passes(rule, bsim_zc_ties_side(blk, 0, g)) ? 1 : 2;
  }
}

const bsim_block_type bsim_type_SWITCH2_m = {
    "SWITCH2_m",
    "switch2_m",
    "Switch: input 1 or input 3, chosen by a test on input 2.",
    "y = u1 when the control input u2 passes the rule (0: u2 >= a,\n"
    "1: u2 > a, 2: u2 ~= a), y = u3 otherwise. u1, u3 and y have the same\n"
    "size (any); u2 is a scalar. With zero-crossing = 1 the surface u2 - a\n"
    "locates the switching instants and the mode (1: input 1, 2: input 3)\n"
    "holds the choice while integrating.\n"
    "Run-time layout: ipar = [rule], rpar = [a], in = [-1; 1; -1],\n"
    "in2 = [-2; 1; -2], out = -1, out2 = -2, dep_u = 1 for all inputs,\n"
    "ng = nmode = 1 (0 without zero crossings).",
    switch2_params,
    4,
    switch2_define,
    switch2_fn,
    0,
    "datatype,rule,threshold,zero-crossing"};

/* ----------------------------------------------------------------- SIGNUM */

static const bsim_param_spec signum_params[] = {
    {"zero-crossing", BSIM_PARAM_REAL, "1",
     "1: locate the sign changes with zero crossings (one per element); 0: "
     "the sign of the current value"},
};

static int signum_define(bsim_define_ctx *ctx, bsim_model *m) {
  int zc;
  if (zc_flag(ctx, &zc) != 0) return -1;
  if (bsim_model_set_inputs(m, 1, -1, -2, 1) != 0 ||
      bsim_model_set_outputs(m, 1, -1, -2) != 0)
    return bsim_define_error(ctx, "out of memory");
  m->ng = m->nmode = zc ? -1 : 0;
  return 0;
}

/* Modes as Xcos's signum: 1 = u >= 0 (y = +1 while integrating), 2 = u < 0
 * (y = -1). Outside the integrator y = sign(u), 0 at 0. */
static void signum_fn(bsim_block *blk, int flag) {
  if (bsim_zc_ties_flags(blk, flag)) return;
  int n = blk->nin > 0 ? bsim_std_insize(blk, 0) : 0;
  if (flag == BSIM_FLAG_INIT) {
    /* a file's stored model may lack the output */
    if (n > 0 && bsim_std_need_ports(blk, 1, 1) != 0) return;
    if (n > 0 && bsim_std_outsize(blk, 0) < n)
      bsim_block_error(blk, "input has %d elements, the output %d", n,
                       bsim_std_outsize(blk, 0));
    else if (blk->ng > 0 && (blk->ng < n || blk->nmode < n))
      bsim_block_error(blk, "needs %d surfaces and modes, has %d and %d", n,
                       blk->ng, blk->nmode);
    return;
  }
  if (n == 0) return;
  const double *u = blk->inptr[0];
  if (is_output_flag(flag)) {
    int frozen = modes_frozen(blk, n);
    for (int i = 0; i < n; i++) {
      double s = u[i] > 0 ? 1.0 : u[i] < 0 ? -1.0 : 0.0;
      if (frozen) s = blk->mode[i] == 1 ? 1.0 : blk->mode[i] == 2 ? -1.0 : 0.0;
      blk->outptr[0][i] = s;
    }
  } else if (flag == BSIM_FLAG_ZCROSS && blk->ng > 0) {
    for (int i = 0; i < n && i < blk->ng; i++)
      blk->g[i] = u[i];
    if (blk->phase == BSIM_PHASE_DISCRETE)
      for (int i = 0; i < n && i < blk->nmode; i++)
        blk->mode[i] = bsim_zc_ties_side(blk, i, u[i]) < 0 ? 2 : 1;
  }
}

const bsim_block_type bsim_type_SIGNUM = {
    "SIGNUM",
    "signum",
    "Sign of the input, element-wise.",
    "y = 1 where u > 0, -1 where u < 0, 0 where u = 0, for every element\n"
    "of u (any size). With zero-crossing = 1 each element has a surface\n"
    "g = u and a mode (1: u >= 0, 2: u < 0); while integrating y follows\n"
    "the mode (+1 or -1) until the crossing is located.\n"
    "Run-time layout: rpar and ipar empty, in = -1, in2 = -2, out = -1,\n"
    "out2 = -2, dep_u = 1, ng = nmode = -1 (one per input element) or 0.",
    signum_params,
    1,
    signum_define,
    signum_fn,
    0,
    "zero-crossing"};
