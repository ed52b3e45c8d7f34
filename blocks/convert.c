/*
 * CONVERT: Xcos's conversion between its numeric types (double, int32,
 * int16, int8, uint32, uint16, uint8). blocksim's signals are doubles, so
 * an integer type is a double holding an integer value; what remains of a
 * conversion is the target type's range rule, applied as Xcos's convert
 * does: wrap (Xcos's own formula), saturate, or fail. Xcos encodes the
 * (input type, output type, overflow rule) triple as one ipar code; the
 * table below maps a code back to its triple, so that a stored model runs.
 */
#include <math.h>
#include <stdio.h>

#include "blocks/std.h"

enum { T_DOUBLE = 1, T_I32 = 3, T_I16, T_I8, T_U32, T_U16, T_U8 };

/* Codes 2..91: input type, output type, overflow rule (0 wrap, 1 saturate,
 * 2 error); code 1 copies. Made by evaluating CONVERT's dialog in Scilab
 * for every triple (tests/data/xcos/cont/convert_ipar.sce). */
static const unsigned char codes[90][3] = {
    {1, 3, 0}, {1, 4, 0}, {1, 5, 0}, {1, 6, 0}, {1, 7, 0}, {1, 8, 0}, {3, 1, 0},
    {3, 4, 0}, {3, 5, 0}, {3, 7, 0}, {3, 8, 0}, {4, 1, 0}, {4, 3, 0}, {4, 5, 0},
    {4, 6, 0}, {4, 8, 0}, {5, 1, 0}, {5, 3, 0}, {5, 4, 0}, {5, 6, 0}, {5, 7, 0},
    {6, 1, 0}, {6, 4, 0}, {6, 5, 0}, {6, 7, 0}, {6, 8, 0}, {7, 1, 0}, {7, 3, 0},
    {7, 5, 0}, {7, 6, 0}, {7, 8, 0}, {8, 1, 0}, {8, 3, 0}, {8, 4, 0}, {8, 6, 0},
    {8, 7, 0}, {1, 3, 1}, {1, 4, 1}, {1, 5, 1}, {1, 6, 1}, {1, 7, 1}, {1, 8, 1},
    {3, 4, 1}, {3, 5, 1}, {3, 6, 1}, {3, 7, 1}, {3, 8, 1}, {4, 5, 1}, {4, 6, 1},
    {4, 7, 1}, {4, 8, 1}, {5, 6, 1}, {5, 7, 1}, {5, 8, 1}, {6, 3, 1}, {6, 4, 1},
    {6, 5, 1}, {6, 7, 1}, {6, 8, 1}, {7, 4, 1}, {7, 5, 1}, {7, 8, 1}, {8, 5, 1},
    {1, 3, 2}, {1, 4, 2}, {1, 5, 2}, {1, 6, 2}, {1, 7, 2}, {1, 8, 2}, {3, 4, 2},
    {3, 5, 2}, {3, 6, 2}, {3, 7, 2}, {3, 8, 2}, {4, 5, 2}, {4, 6, 2}, {4, 7, 2},
    {4, 8, 2}, {5, 6, 2}, {5, 7, 2}, {5, 8, 2}, {6, 3, 2}, {6, 4, 2}, {6, 5, 2},
    {6, 7, 2}, {6, 8, 2}, {7, 4, 2}, {7, 5, 2}, {7, 8, 2}, {8, 5, 2}};

/* Xcos's code for a triple: its own entry, else the wrap entry (the
 * conversions that cannot overflow ignore the rule), else 1 (a copy: same
 * type, or a same-width signed/unsigned pair without a rule). */
static int code_of(int it, int ot, int np) {
  if (it == ot) return 1;
  for (int pass = 0; pass < 2; pass++)
    for (int c = 0; c < 90; c++)
      if (codes[c][0] == it && codes[c][1] == ot &&
          codes[c][2] == (pass ? 0 : np))
        return c + 2;
  return 1;
}

static const bsim_param_spec convert_params[] = {
    {"in-type", BSIM_PARAM_REAL, "1",
     "input type: 1 or 2 double, 3 int32, 4 int16, 5 int8, 6 uint32, 7 "
     "uint16, 8 uint8"},
    {"out-type", BSIM_PARAM_REAL, "3", "output type, numbered as in-type"},
    {"overflow", BSIM_PARAM_REAL, "0",
     "out of the output type's range: 0 wrap around, 1 saturate, 2 fail"},
};

static int convert_define(bsim_define_ctx *ctx, bsim_model *m) {
  double it, ot, np;
  if (bsim_std_scalar(ctx, "in-type", &it) != 0 ||
      bsim_std_scalar(ctx, "out-type", &ot) != 0 ||
      bsim_std_scalar(ctx, "overflow", &np) != 0)
    return -1;
  if (np != 0 && np != 1 && np != 2)
    return bsim_define_error(ctx, "'overflow' must be 0, 1 or 2, got %g", np);
  if (it < 1 || it > 8 || it != floor(it))
    return bsim_define_error(ctx, "'in-type' must be 1 to 8, got %g", it);
  if (ot < 1 || ot > 8 || ot != floor(ot))
    return bsim_define_error(ctx, "'out-type' must be 1 to 8, got %g", ot);
  int *ip = bsim_model_alloc_ipar(m, 1);
  if (!ip || bsim_std_elementwise_model(ctx, m) != 0)
    return bsim_define_error(ctx, "out of memory");
  ip[0] = code_of(it == 2 ? 1 : (int)it, ot == 2 ? 1 : (int)ot, (int)np);
  return 0;
}

/* The range of an integer type, and its number of values. */
static void range(int t, double *lo, double *hi, double *k) {
  int bits = t == T_I32 || t == T_U32 ? 32 : t == T_I16 || t == T_U16 ? 16 : 8;
  *k = ldexp(1.0, bits);
  int sign = t >= T_I32 && t <= T_I8;
  *lo = sign ? -*k / 2 : 0;
  *hi = sign ? *k / 2 - 1 : *k - 1;
}

/* Xcos's wrap-around: the value reduced modulo k, then folded into the
 * signed range with its formula (which, for values just above the range's
 * top, differs from a plain modulo). */
static double wrap(double v, int t) {
  double lo, hi, k;
  range(t, &lo, &hi, &k);
  double w = v - trunc(v / k) * k;
  if (lo < 0 && fabs(w) > k / 2 - 1) {
    double r = -k / 2 + fabs(w - trunc(w / (k / 2)) * (k / 2));
    w = w >= 0 ? r : -r;
  }
  w = trunc(w);
  if (lo == 0 && w < 0) w += k; /* the unsigned cast of a negative value */
  return w;
}

static void convert_fn(bsim_block *blk, int flag) {
  /* a file's stored model may lack a port */
  if (bsim_std_lacks_ports(blk, flag, 1, 1)) return;
  int n = bsim_std_outsize(blk, 0), code = blk->nipar ? blk->ipar[0] : 1;
  if (flag == BSIM_FLAG_INIT) {
    if (code < 1 || code > 91 || bsim_std_insize(blk, 0) != n)
      bsim_block_error(blk, "ipar must be Xcos's conversion code (1 to 91) "
                            "and the input the output's size");
    return;
  }
  if (flag != BSIM_FLAG_OUTPUTS && flag != BSIM_FLAG_REINIT) return;
  const double *u = blk->inptr[0];
  double *y = blk->outptr[0];
  int ot = code == 1 ? T_DOUBLE : codes[code - 2][1];
  int np = code == 1 ? 0 : codes[code - 2][2];
  double lo = 0, hi = 0, k = 0;
  if (ot != T_DOUBLE) range(ot, &lo, &hi, &k);
  for (int i = 0; i < n; i++) {
    double v = u[i];
    if (ot == T_DOUBLE)
      y[i] = v;
    else if (np == 0)
      y[i] = wrap(v, ot);
    else if (v > hi || v < lo) {
      if (np == 1) {
        /* Xcos's compiled code clips a signed type below at minus its
         * maximum (-127 for int8), not at its minimum */
        y[i] = v > hi ? hi : lo < 0 ? -hi : lo;
      } else {
        /* Xcos fails on an overflow except during the initial fixed
         * point */
        if (flag == BSIM_FLAG_REINIT) continue;
        char what[96];
        snprintf(what, sizeof what,
                 "overflow: %g is outside [%.0f, %.0f] (element %d)", v, lo, hi,
                 i + 1);
        bsim_std_numeric_failure(blk, what);
        return;
      }
    } else {
      y[i] = trunc(v);
    }
  }
}

const bsim_block_type bsim_type_CONVERT = {
    "CONVERT",
    "convert",
    "Type conversion: the output type's range applied to the input.",
    "Converts between Xcos's types, numbered 1 (or 2) double, 3 int32,\n"
    "4 int16, 5 int8, 6 uint32, 7 uint16, 8 uint8. Signals are doubles in\n"
    "blocksim: to a double the value passes unchanged; to an integer type\n"
    "it is truncated toward 0 and, outside the type's range, wrapped with\n"
    "Xcos's formula (overflow = 0), clipped (1; as in Xcos a signed type is\n"
    "clipped below at minus its maximum, -127 for int8) or refused (2: a\n"
    "failure, recoverable while integrating). Xcos copies the bits\n"
    "between a signed and an unsigned type of one width when overflow = 0\n"
    "(code 1); blocksim then passes the value unchanged.\n"
    "Run-time layout: ipar = [Xcos's conversion code, 1 to 91], in = -1 x\n"
    "-2, out = -1 x -2, dep_u = 1.",
    convert_params,
    3,
    convert_define,
    convert_fn,
    0,
    "in-type,out-type,overflow"};
