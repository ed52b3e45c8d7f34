/*
 * Xcos's comparison, selection and conversion blocks: RELATIONALOP (with
 * optional zero crossings and modes), SELECT_m (the input chosen by the
 * last event), M_SWITCH (the input chosen by a control value) and CONVERT
 * (between Xcos's numeric types). Signals are doubles here: an integer type
 * is carried as a double holding an integer value, and CONVERT applies the
 * range rules (wrap, saturate, error) of the target type as Xcos does.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "blocks/std.h"
#include "blocks/zcross.h"

static int is_output_flag(int flag) {
  return flag == BSIM_FLAG_OUTPUTS || flag == BSIM_FLAG_REINIT;
}

static int oom(bsim_define_ctx *ctx) {
  return bsim_define_error(ctx, "out of memory");
}

/* ----------------------------------------------------------- RELATIONALOP */

static const bsim_param_spec relop_params[] = {
    {"operator", BSIM_PARAM_REAL, "2",
     "0: ==, 1: ~=, 2: <, 3: <=, 4: >, 5: >= (u1 op u2)"},
    {"zero-crossing", BSIM_PARAM_REAL, "0",
     "1: locate the instants where u1 - u2 crosses 0 and hold the result "
     "between them (modes); 0: compare the current values"},
    {"datatype", BSIM_PARAM_REAL, "1", "1: real double (the only one)"},
};

static int relop_define(bsim_define_ctx *ctx, bsim_model *m) {
  double rule, zc;
  if (bsim_std_scalar(ctx, "operator", &rule) != 0 ||
      bsim_std_scalar(ctx, "zero-crossing", &zc) != 0 ||
      bsim_std_real_datatype(ctx) != 0)
    return -1;
  int r = (int)rule; /* Xcos truncates: int(rule) */
  if (r < 0 || r > 5)
    return bsim_define_error(ctx, "'operator' must be 0 to 5, got %g", rule);
  int *ip = bsim_model_alloc_ipar(m, 1);
  if (!ip || bsim_model_set_inputs(m, 2, -1, -2, 1) != 0 ||
      bsim_model_set_outputs(m, 1, -1, -2) != 0)
    return oom(ctx);
  ip[0] = r;
  /* one surface and mode per element (Xcos stores 1, for a scalar) */
  m->ng = m->nmode = zc != 0 ? -1 : 0;
  return 0;
}

static int relop_test(int rule, double a, double b) {
  switch (rule) {
  case 0:
    return a == b;
  case 1:
    return a != b;
  case 2:
    return a < b;
  case 3:
    return a <= b;
  case 4:
    return a > b;
  default:
    return a >= b;
  }
}

/* Modes as Xcos's relational_op: 1 = false, 2 = true; while integrating
 * with surfaces, y = mode - 1. */
static void relop_fn(bsim_block *blk, int flag) {
  /* a file's stored model may lack a port */
  if (bsim_std_lacks_ports(blk, flag, 2, 1)) return;
  int n = bsim_std_outsize(blk, 0), rule = blk->nipar ? blk->ipar[0] : 2;
  const double *a = blk->inptr[0], *b = blk->inptr[1];
  if (bsim_zc_ties_flags(blk, flag)) return;
  switch (flag) {
  case BSIM_FLAG_INIT:
    if (blk->nipar < 1 || bsim_std_insize(blk, 0) != n ||
        bsim_std_insize(blk, 1) != n)
      bsim_block_error(blk, "needs ipar = [operator] and two inputs of the "
                            "output's size");
    else if (blk->ng > 0 && (blk->ng < n || blk->nmode < n))
      bsim_block_error(blk, "needs %d surfaces and modes, has %d and %d", n,
                       blk->ng, blk->nmode);
    return;
  case BSIM_FLAG_ZCROSS:
    for (int i = 0; i < n && i < blk->ng; i++) {
      blk->g[i] = a[i] - b[i];
      if (blk->phase == BSIM_PHASE_DISCRETE && i < blk->nmode) {
        /* at a root u1 - u2 may be exactly 0: read it on the side the
         * difference is heading to */
        double g = bsim_zc_ties_side(blk, i, blk->g[i]);
        blk->mode[i] = relop_test(rule, g, 0) ? 2 : 1;
      }
    }
    return;
  default:
    if (!is_output_flag(flag)) return;
    for (int i = 0; i < n; i++)
      blk->outptr[0][i] =
          blk->ng > 0 && blk->phase == BSIM_PHASE_CONTINUOUS && i < blk->nmode
              ? blk->mode[i] - 1
              : relop_test(rule, a[i], b[i]);
  }
}

static const bsim_block_type type_RELATIONALOP = {
    "RELATIONALOP",
    "relational_op",
    "Comparison: y = (u1 op u2), 1 or 0 element-wise.",
    "y = 1 where u1 op u2 holds, 0 elsewhere, for op == ~= < <= > >=\n"
    "(operator 0 to 5); u1, u2 and y have one size. With zero-crossing = 1\n"
    "each element has the surface u1 - u2 and a mode (1: false, 2: true)\n"
    "that holds the result while integrating, so the switching instants\n"
    "are located exactly (at such an instant the difference is read on\n"
    "the side it is heading to).\n"
    "Run-time layout: ipar = [operator], in = [-1 x -2; -1 x -2],\n"
    "out = -1 x -2, dep_u = 1, ng = nmode = -1 (one per element; Xcos\n"
    "stores 1, for its usual scalar signals) with zero crossings, else 0.",
    relop_params,
    3,
    relop_define,
    relop_fn,
    0,
    "operator,zero-crossing,datatype"};

/* --------------------------------------------------------------- SELECT_m */

static const bsim_param_spec selectm_params[] = {
    {"datatype", BSIM_PARAM_REAL, "1", "1: real double (the only one)"},
    {"in", BSIM_PARAM_REAL, "2", "number of inputs (and of event inputs)"},
    {"z0", BSIM_PARAM_REAL, "1", "the input passed before the first event"},
};

static int selectm_define(bsim_define_ctx *ctx, bsim_model *m) {
  int n;
  double z0;
  if (bsim_std_real_datatype(ctx) != 0 || bsim_std_int(ctx, "in", 1, &n) != 0 ||
      bsim_std_scalar(ctx, "z0", &z0) != 0)
    return -1;
  if (n > 31) return bsim_define_error(ctx, "'in' = %d: at most 31 inputs", n);
  if (z0 > n || z0 <= 0)
    return bsim_define_error(
        ctx, "'z0' must be an input number, 1 to %d, got %g", n, z0);
  double *z = bsim_model_alloc_z0(m, 1);
  if (!z || bsim_model_set_inputs(m, n, -1, -2, 1) != 0 ||
      bsim_model_set_outputs(m, 1, -1, -2) != 0 ||
      bsim_model_set_events(m, n, 0) != 0)
    return oom(ctx);
  z[0] = z0;
  return 0;
}

/* Xcos's selector_m: an activation by event input k passes input k (the
 * highest when several fire together); initially input z0; the output
 * holds in between. */
static void selectm_fn(bsim_block *blk, int flag) {
  /* a file's stored model may lack a port */
  if (bsim_std_lacks_ports(blk, flag, 1, 1)) return;
  int n = bsim_std_outsize(blk, 0), k = 0;
  if (flag == BSIM_FLAG_INIT) {
    for (int i = 0; i < blk->nin; i++)
      if (bsim_std_insize(blk, i) != n) {
        bsim_block_error(blk, "input %d has %d elements, the output %d", i + 1,
                         bsim_std_insize(blk, i), n);
        return;
      }
    if (blk->nz < 1 || blk->z[0] < 1 || blk->z[0] > blk->nin)
      bsim_block_error(blk, "z0 must name one of the %d inputs", blk->nin);
    return;
  }
  if (flag == BSIM_FLAG_REINIT)
    k = (int)blk->z[0];
  else if (flag == BSIM_FLAG_OUTPUTS && blk->nevprt > 0)
    for (int e = blk->nevprt; e; e >>= 1)
      k++;
  if (k >= 1 && k <= blk->nin)
    memcpy(blk->outptr[0], blk->inptr[k - 1], sizeof(double) * (size_t)n);
}

static const bsim_block_type type_SELECT_m = {
    "SELECT_m",
    "selector_m",
    "Select the input named by the last event.",
    "n data inputs and n event inputs: an activation through event input k\n"
    "copies data input k to the output (the highest k when several fire\n"
    "at once); the output holds in between, and is input z0 before the\n"
    "first activation. Inputs and output have one size.\n"
    "Run-time layout: z0 = [z0], in = -1 x -2 for each input, out = -1 x\n"
    "-2, nevin = n, dep_u = 1, no rpar or ipar.",
    selectm_params,
    3,
    selectm_define,
    selectm_fn,
    0,
    "datatype,in,z0"};

/* --------------------------------------------------------------- M_SWITCH */

static const bsim_param_spec mswitch_params[] = {
    {"in", BSIM_PARAM_REAL, "2",
     "number of data inputs; 1 means one vector input whose elements are "
     "chosen from"},
    {"base", BSIM_PARAM_REAL, "1",
     "index of the first input: 1, or 0 (zero-based)"},
    {"rule", BSIM_PARAM_REAL, "3",
     "control value to index: 0 truncation, 1 rounding, 2 ceil, 3 floor"},
};

static int mswitch_define(bsim_define_ctx *ctx, bsim_model *m) {
  double nin, base, rule;
  if (bsim_std_scalar(ctx, "in", &nin) != 0 ||
      bsim_std_scalar(ctx, "base", &base) != 0 ||
      bsim_std_scalar(ctx, "rule", &rule) != 0)
    return -1;
  int n = (int)nin, b = (int)base; /* Xcos: int() */
  if (n < 1 || n > 31)
    return bsim_define_error(ctx, "'in' must be 1 to 31 inputs, got %g", nin);
  if (b != 0 && b != 1)
    return bsim_define_error(ctx, "'base' must be 0 or 1, got %g", base);
  if (rule != 0 && rule != 1 && rule != 2 && rule != 3)
    return bsim_define_error(ctx, "'rule' must be 0, 1, 2 or 3, got %g", rule);
  int *ip = bsim_model_alloc_ipar(m, 2);
  if (!ip || bsim_model_set_inputs(m, n + 1, -1, -2, 1) != 0 ||
      bsim_model_set_outputs(m, 1, -1, -2) != 0)
    return oom(ctx);
  m->in[0] = m->in2[0] = 1; /* the control */
  if (n == 1) {             /* elements of one vector */
    m->in2[1] = 1;
    m->out[0] = m->out2[0] = 1;
  }
  ip[0] = b;
  ip[1] = (int)rule;
  return 0;
}

/* Xcos's mswitch: the control value rounded by the rule, shifted by the
 * base, clipped into range, picks the input (or the element). */
static void mswitch_fn(bsim_block *blk, int flag) {
  /* a file's stored model may lack a port */
  if (bsim_std_lacks_ports(blk, flag, 2, 1)) return;
  int ny = bsim_std_outsize(blk, 0);
  if (flag == BSIM_FLAG_INIT) {
    if (blk->nipar < 2 || blk->nin < 2)
      bsim_block_error(blk, "needs ipar = [base; rule] and a control input");
    else
      for (int i = 1; blk->nin > 2 && i < blk->nin; i++)
        if (bsim_std_insize(blk, i) != ny)
          bsim_block_error(blk, "input %d has %d elements, the output %d",
                           i + 1, bsim_std_insize(blk, i), ny);
    return;
  }
  if (!is_output_flag(flag)) return;
  double u = blk->inptr[0][0];
  int rule = blk->ipar[1], j;
  double r = rule == 0   ? (u > 0 ? floor(u) : ceil(u))
             : rule == 1 ? (u > 0 ? floor(u + 0.5) : ceil(u - 0.5))
             : rule == 2 ? ceil(u)
                         : floor(u);
  r = r + 1 - blk->ipar[0];
  if (blk->nin == 2) { /* the element of the one data input */
    int n = bsim_std_insize(blk, 1);
    j = r < 1 ? 1 : r > n ? n : (int)r;
    memcpy(blk->outptr[0], blk->inptr[1] + (j - 1) * ny,
           sizeof(double) * (size_t)ny);
    return;
  }
  j = r < 1 ? 1 : r > blk->nin - 1 ? blk->nin - 1 : (int)r;
  memcpy(blk->outptr[0], blk->inptr[j], sizeof(double) * (size_t)ny);
}

static const bsim_block_type type_M_SWITCH = {
    "M_SWITCH",
    "mswitch",
    "Multi-port switch: the input chosen by a control value.",
    "Input 1 is the control c; the data inputs follow. The index is c\n"
    "rounded by 'rule' (0 toward 0, 1 to the nearest, 2 up, 3 down), plus 1\n"
    "- base, clipped to 1..n; y is that data input. With in = 1 there is\n"
    "one vector data input and y is its element of that index.\n"
    "Run-time layout: ipar = [base; rule], in = [1 x 1; -1 x -2 per data\n"
    "input] (in = [1 x 1; -1 x 1] and out = 1 x 1 with in = 1), out = -1 x\n"
    "-2, dep_u = 1.",
    mswitch_params,
    3,
    mswitch_define,
    mswitch_fn,
    0,
    "in,base,rule"};

/* ------------------------------------------------------ family registry */

extern const bsim_block_type bsim_type_CONVERT; /* convert.c */

const bsim_block_type *const bsim_switching_types[] = {
    &type_RELATIONALOP,
    &type_SELECT_m,
    &type_M_SWITCH,
    &bsim_type_CONVERT,
};
const int bsim_switching_ntypes =
    (int)(sizeof bsim_switching_types / sizeof bsim_switching_types[0]);
