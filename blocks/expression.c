/*
 * EXPRESSION: a scalar function of its inputs written in Scilab's syntax.
 * The define step compiles the text into Xcos's postfix code
 * (expr_compile.c, expr_code.h), context variables replaced by their
 * values, and the computational function evaluates that code on a stack,
 * as Xcos's evaluate_expr does, with a zero-crossing surface and a mode
 * per comparison or logical operator. A model stored in an .xcos file
 * carries the same code in its ipar and rpar, and runs unchanged.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocks/expr_code.h"
#include "blocks/std.h"
#include "blocks/zcross.h"

int bsim_expr_code_push(bsim_expr_code *c, int kind, int arg, double value) {
  if (c->nipar + 2 > c->capi) {
    int cap = c->capi ? 2 * c->capi : 32;
    int *p = realloc(c->ipar, sizeof *p * (size_t)cap);
    if (!p) return -1;
    c->ipar = p;
    c->capi = cap;
  }
  if (kind == 6) {
    if (c->nrpar + 1 > c->capr) {
      int cap = c->capr ? 2 * c->capr : 16;
      double *r = realloc(c->rpar, sizeof *r * (size_t)cap);
      if (!r) return -1;
      c->rpar = r;
      c->capr = cap;
    }
    c->rpar[c->nrpar++] = value;
    arg = c->nrpar;
  }
  c->ipar[c->nipar++] = kind;
  c->ipar[c->nipar++] = arg;
  return 0;
}

void bsim_expr_code_clear(bsim_expr_code *c) {
  free(c->ipar);
  free(c->rpar);
  memset(c, 0, sizeof *c);
}

int bsim_expr_is_zc(int op) {
  return (op >= 16 && op <= 21) || (op >= 28 && op <= 30);
}

/* ------------------------------------------------------------ define step */

static const bsim_param_spec expression_params[] = {
    {"in", BSIM_PARAM_REAL, "2",
     "number of inputs u1, u2, ... (scalars); 1: one vector input whose "
     "elements are u1 ... u8"},
    {"expression", BSIM_PARAM_STRING, "(u1>0)*sin(u2)^2",
     "a scalar expression in Scilab's syntax of the inputs, numbers and "
     "context variables, taken literally (no quotes; in XML write < as "
     "&lt; and & as &amp;)"},
    {"zero-crossing", BSIM_PARAM_REAL, "1",
     "1: a zero-crossing surface and a mode per comparison or logical "
     "operator; 0: none"},
};

static int context_value(void *user, const char *name, double *out) {
  const bsim_value *v = bsim_define_lookup((bsim_define_ctx *)user, name);
  if (!v || v->str) return -1;
  if (bsim_std_numel(v) != 1) return 1;
  *out = v->v[0];
  return 0;
}

static int expression_define(bsim_define_ctx *ctx, bsim_model *m) {
  int nin;
  double zc;
  if (bsim_std_int(ctx, "in", 1, &nin) != 0 ||
      bsim_std_scalar(ctx, "zero-crossing", &zc) != 0)
    return -1;
  if (nin > 64)
    return bsim_define_error(ctx, "'in' = %d inputs: at most 64", nin);
  const bsim_value *e = bsim_param(ctx, "expression");
  bsim_expr_code code;
  char msg[256];
  if (bsim_expr_compile(e && e->str ? e->str : "", nin == 1 ? 8 : nin,
                        context_value, ctx, &code, msg, sizeof msg) != 0)
    return bsim_define_error(ctx, "'expression': %s", msg);
  double *r = bsim_model_alloc_rpar(m, code.nrpar);
  int *ip = bsim_model_alloc_ipar(m, code.nipar);
  int ok = r && ip && bsim_model_set_inputs(m, nin, 1, 1, 1) == 0 &&
           bsim_model_set_outputs(m, 1, 1, 1) == 0;
  if (ok) {
    if (code.nrpar) memcpy(r, code.rpar, sizeof *r * (size_t)code.nrpar);
    memcpy(ip, code.ipar, sizeof *ip * (size_t)code.nipar);
    if (nin == 1) m->in[0] = -1; /* one vector */
    /* Xcos's dialog stores no surfaces for a boolean-valued expression */
    m->ng = m->nmode = zc != 0 && !code.boolean ? code.nz : 0;
  }
  bsim_expr_code_clear(&code);
  return ok ? 0 : bsim_define_error(ctx, "out of memory");
}

/* ------------------------------------------------------------- evaluation */

/* The evaluation stack's depth limit, Xcos's own. */
#define STACK_MAX 1000

/* Operators of one operand: ~ (30), unary minus (99) and the functions
 * (codes above 100, but for the two-operand 115, 116 and 123); all
 * others pop two and push one. The check and the evaluator both ask. */
static int unary_op(int op) {
  return op == 30 || op == 99 ||
         (op > 100 && op != 115 && op != 116 && op != 123);
}

static int code_depth(const bsim_block *blk) {
  int d = 0, best = 0;
  for (int k = 0; k + 1 < blk->nipar; k += 2) {
    int kind = blk->ipar[k], op = blk->ipar[k + 1];
    if (kind == 2 || kind == 6) {
      d++;
    } else if (kind == 5) {
      /* each needs its operands on the stack (a file's code can start
       * with an operator: fuzz_xcos, 28 Nov) */
      int unary = unary_op(op);
      if (d < (unary ? 1 : 2)) return -1;
      if (!unary) d--; /* binary operators pop one */
    } else {
      return -1;
    }
    if (d > best) best = d;
  }
  return d == 1 ? best : -1; /* well formed: one value left */
}

static int code_check(bsim_block *blk) {
  /* a file's stored model can lack the output (fuzz_xcos, 28 Nov) */
  if (blk->nout < 1 || bsim_std_outsize(blk, 0) < 1) {
    bsim_block_error(blk, "it has no output, where EXPRESSION has one");
    return -1;
  }
  int nu = blk->nin == 1 ? 8 : blk->nin;
  for (int k = 0; k + 1 < blk->nipar; k += 2) {
    int kind = blk->ipar[k], a = blk->ipar[k + 1];
    if ((kind == 2 && (a < 1 || a > nu)) ||
        (kind == 6 && (a < 1 || a > blk->nrpar))) {
      bsim_block_error(blk, "its code refers to %s %d, which it has not",
                       kind == 2 ? "input" : "rpar entry", a);
      return -1;
    }
  }
  int d = code_depth(blk);
  if (blk->nipar % 2 || d < 1) {
    bsim_block_error(blk, "ipar is not an expression's code");
    return -1;
  }
  if (d > STACK_MAX) {
    bsim_block_error(blk,
                     "the expression needs a stack of %d values, more "
                     "than Xcos's %d",
                     d, STACK_MAX);
    return -1;
  }
  return 0;
}

static double input(const bsim_block *blk, int k) {
  if (blk->nin > 1) return blk->inptr[k - 1][0];
  return k <= bsim_std_insize(blk, 0) ? blk->inptr[0][k - 1] : 0.0;
}

static int compare(int op, double a, double b) {
  switch (op) {
  case 16:
    return a == b;
  case 17:
    return a < b;
  case 18:
    return a > b;
  case 19:
    return a <= b;
  case 20:
    return a >= b;
  case 21:
    return a != b;
  /* Scilab truncates the operands to integers (0.5 is false); trunc
   * gives that without converting a value beyond int (undefined) */
  case 28:
    return trunc(a) != 0 || trunc(b) != 0;
  case 29:
    return trunc(a) != 0 && trunc(b) != 0;
  default: /* 30, ~: b is the operand */
    return b == 0.0;
  }
}

static double unary_fn(int op, double x) {
  switch (op) {
  case 99:
    return -x;
  case 101:
    return sin(x);
  case 102:
    return cos(x);
  case 103:
    return tan(x);
  case 104:
    return exp(x);
  case 105:
    return log(x);
  case 106:
    return sinh(x);
  case 107:
    return cosh(x);
  case 108:
    return tanh(x);
  case 109:
    return trunc(x);
  case 110:
    return x > 0 ? floor(x + .5) : ceil(x - .5);
  case 111:
    return ceil(x);
  case 112:
    return floor(x);
  case 113:
    return x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0;
  case 114:
    return fabs(x);
  case 117:
    return asin(x);
  case 118:
    return acos(x);
  case 119:
    return atan(x);
  case 120:
    return asinh(x);
  case 121:
    return acosh(x);
  case 122:
    return atanh(x);
  default: /* 124 */
    return log10(x);
  }
}

static double binary_fn(int op, double a, double b) {
  switch (op) {
  case 1:
    return a + b;
  case 2:
    return a - b;
  case 3:
  case 4:
    return a * b;
  case 7:
  case 8:
    return a / b;
  case 15:
  case 31:
    return pow(a, b);
  case 115:
    return a > b ? a : b;
  case 116:
    return a < b ? a : b;
  default: /* 123 */
    return atan2(a, b);
  }
}

/* Runs the code; 0 with the result in *out. Comparisons and logical
 * operators with a surface (the first ng of them) give g = a - b (the
 * operand for ~); in the discrete phase they set their mode to the result,
 * read on the side a surface exactly at 0 is heading to, and while
 * integrating their result is their mode. */
static double run_code(bsim_block *blk, int flag) {
  double st[STACK_MAX];
  int top = -1, nz = 0;
  int discrete = blk->phase == BSIM_PHASE_DISCRETE;
  for (int k = 0; k < blk->nipar; k += 2) {
    int kind = blk->ipar[k], op = blk->ipar[k + 1];
    if (kind == 2) {
      st[++top] = input(blk, op);
      continue;
    }
    if (kind == 6) {
      st[++top] = blk->rpar[op - 1];
      continue;
    }
    if (bsim_expr_is_zc(op)) {
      double b = st[top], a = op == 30 ? 0.0 : st[top - 1];
      int z = nz < blk->ng && nz < blk->nmode ? nz++ : -1, r;
      if (z >= 0 && flag == BSIM_FLAG_ZCROSS) {
        blk->g[z] = op == 30 ? b : a - b;
        if (discrete) {
          double g = bsim_zc_ties_side(blk, z, blk->g[z]);
          int exact = op >= 16 && op <= 21;
          blk->mode[z] = op == 30 ? g == 0.0
                         : exact  ? compare(op, g, 0)
                                  : compare(op, a, b);
        }
      }
      r = z >= 0 && !discrete ? blk->mode[z] : compare(op, a, b);
      if (op != 30) top--;
      st[top] = r;
    } else if (unary_op(op)) {
      st[top] = unary_fn(op, st[top]);
    } else {
      st[top - 1] = binary_fn(op, st[top - 1], st[top]);
      top--;
    }
  }
  return st[top];
}

static void expression_fn(bsim_block *blk, int flag) {
  if (bsim_zc_ties_flags(blk, flag)) return;
  if (flag == BSIM_FLAG_INIT) {
    code_check(blk);
    return;
  }
  if (flag != BSIM_FLAG_OUTPUTS && flag != BSIM_FLAG_REINIT &&
      flag != BSIM_FLAG_ZCROSS)
    return;
  double y = run_code(blk, flag);
  if (!isfinite(y)) {
    /* Xcos stops on an infinite or undefined result, except during the
     * initial fixed point */
    if (flag == BSIM_FLAG_OUTPUTS)
      bsim_std_numeric_failure(blk, "the expression's value is not finite");
    return;
  }
  if (flag != BSIM_FLAG_ZCROSS) blk->outptr[0][0] = y;
}

const bsim_block_type bsim_type_EXPRESSION = {
    "EXPRESSION",
    "evaluate_expr",
    "A scalar function of the inputs, written in Scilab's syntax.",
    "y = the expression, of the inputs u1, u2, ... (in scalar inputs, or\n"
    "with in = 1 the elements of one vector input: u1 ... u8, 0 past its\n"
    "end), numbers and context variables (their values when the diagram\n"
    "is loaded), with Scilab's precedence: + - * / ^ (also .* ./ .^, the\n"
    "same on scalars), unary minus, comparisons == ~= <> < > <= >= (1 or\n"
    "0), & | ~ (on values truncated to integers, nonzero is true), and\n"
    "sin cos tan exp log sinh cosh tanh int round ceil floor sign abs max\n"
    "min asin acos atan asinh acosh atanh log10; %pi, %e, %t, %f, %eps,\n"
    "%inf and %nan. With zero-crossing = 1 every comparison and logical\n"
    "operator has a surface (a - b; its operand for ~) and a mode that\n"
    "holds its result while integrating, as Xcos does; but, as in Xcos,\n"
    "an expression whose outermost operator is one of them gets none. A\n"
    "unary plus before anything but a number pushes a 0, as Xcos's\n"
    "compiler does (2*+u1 is 0 in both). An\n"
    "infinite or undefined value is a failure (recoverable while\n"
    "integrating).\n"
    "Run-time layout: ipar and rpar hold Xcos's postfix code of the\n"
    "expression, constants and variables in rpar in order of appearance\n"
    "(blocks/expr_code.h), in = 1 per input (in = -1 with one vector\n"
    "input), out = 1, dep_u = 1, ng = nmode = the number of comparison and\n"
    "logical operators (0 without zero crossings).",
    expression_params,
    3,
    expression_define,
    expression_fn,
    BSIM_TYPE_READS_CONTEXT,
    "in,expression,zero-crossing"};
