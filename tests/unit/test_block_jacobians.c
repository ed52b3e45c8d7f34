/*
 * Flag 10 of every block type flagged BSIM_TYPE_JACOBIAN, against central
 * differences of its own flag 1 (outputs) and flag 0 (derivatives) at a
 * pseudo-random point: the matrix [dxd/dx dxd/du; dy/dx dy/du] must match
 * column by column, in the layout include/blocksim/block.h states.
 */
#include "tests/unit/block_harness.h"
#include "tests/unit/test_library.h"

/* A fixed linear congruential sequence: "random" points, same every run. */
static unsigned long lcg = 12345;
static double rnd(double lo, double hi) {
  lcg = lcg * 6364136223846793005UL + 1442695040888963407UL;
  return lo + (hi - lo) * (double)((lcg >> 11) & 0xFFFFFFu) / 16777216.0;
}

static int total_in(const bsim_block *b) {
  int n = 0;
  for (int k = 0; k < b->nin; k++)
    n += b->insz[k] * b->insz[b->nin + k];
  return n;
}

static int total_out(const bsim_block *b) {
  int n = 0;
  for (int k = 0; k < b->nout; k++)
    n += b->outsz[k] * b->outsz[b->nout + k];
  return n;
}

/* The element of the stacked vector [x; u] at c. */
static double *var(harness *h, int c) {
  bsim_block *b = h->b;
  if (c < b->nx) return &h->x[c];
  c -= b->nx;
  for (int k = 0; k < b->nin; k++) {
    int n = b->insz[k] * b->insz[b->nin + k];
    if (c < n) return &h->in[k][c];
    c -= n;
  }
  return NULL;
}

/* [xd; y] stacked at the current point. */
static void eval(harness *h, double *out) {
  bsim_block *b = h->b;
  if (b->nx > 0) {
    call(h, BSIM_FLAG_DERIVATIVES);
    memcpy(out, h->xd, sizeof(double) * (size_t)b->nx);
  }
  call(h, BSIM_FLAG_OUTPUTS);
  int r = b->nx;
  for (int k = 0; k < b->nout; k++) {
    int n = b->outsz[k] * b->outsz[b->nout + k];
    memcpy(out + r, h->out[k], sizeof(double) * (size_t)n);
    r += n;
  }
}

/* Inputs drawn in [lo, hi], states in [-1, 1]; then flag 10 against
 * central differences. */
static void check_block(harness *h, const char *what, double lo, double hi) {
  bsim_block *b = h->b;
  int nu = total_in(b), ny = total_out(b), nr = b->nx + ny, nc = b->nx + nu;
  static double jac[64 * 64], fp[64], fm[64];
  CHECK(nr <= 64 && nc <= 64, "%s: too big for the test", what);
  CHECK(h->fb.type && (h->fb.type->flags & BSIM_TYPE_JACOBIAN),
        "%s: type not flagged BSIM_TYPE_JACOBIAN", what);
  b->phase = BSIM_PHASE_CONTINUOUS;
  call(h, BSIM_FLAG_INIT);
  no_error(h, what);
  for (int c = 0; c < nc; c++)
    *var(h, c) = c < b->nx ? rnd(-1, 1) : rnd(lo, hi);
  memset(jac, 0, sizeof jac);
  b->jac = jac;
  call(h, BSIM_FLAG_JACOBIAN);
  no_error(h, what);
  double worst = 0;
  for (int c = 0; c < nc; c++) {
    double *v = var(h, c), v0 = *v, d = 1e-5 * fmax(1.0, fabs(v0));
    *v = v0 + d;
    eval(h, fp);
    *v = v0 - d;
    eval(h, fm);
    *v = v0;
    for (int r = 0; r < nr; r++) {
      double fd = (fp[r] - fm[r]) / (2 * d), an = jac[r + nr * c];
      /* Central differences with steps 1e-5 on smooth functions of size
       * <= 10: truncation ~1e-10 * |f'''|, roundoff ~1e-16 / 1e-5; 1e-6
       * relative (absolute below 1) leaves a wide margin while any wrong
       * entry (a sign, a missing factor) is off by O(0.1). */
      double e = fabs(fd - an) / fmax(1.0, fabs(an));
      worst = fmax(worst, e);
      CHECK(e <= 1e-6, "%s: J(%d,%d) = %.12g, differences %.12g", what, r, c,
            an, fd);
    }
  }
  no_error(h, what);
  fprintf(stderr, "  %-26s %2d x %-2d max rel diff %.2g\n", what, nr, nc,
          worst);
}

static void simple(const char *type, int nin, int nout, const int *sizes, int n,
                   const char *const *names, const bsim_value *vals,
                   const char *what, double lo, double hi) {
  harness h;
  mk(&h, type, nin, nout, sizes);
  if (h.fb.type && define_into(&h, n, names, vals) == 0)
    check_block(&h, what, lo, hi);
  done(&h);
}

/* The older Xcos blocks (blocks/basic_f.c). */
static void basic_f(void) {
  const int v2x3[] = {2, 1, 2, 1, 2, 1, 2, 1}, v2x2[] = {2, 1, 2, 1, 2, 1};
  simple("SUM_f", 3, 1, v2x3, 0, NULL, NULL, "SUM_f", -2, 2);
  double g[] = {2, -0.5, 3};
  simple("BIGSOM_f", 3, 1, v2x3, 1, (const char *[]){"gains"},
         (bsim_value[]){{3, 1, g, NULL}}, "BIGSOM_f [2 -0.5 3]", -2, 2);
  simple("PROD_f", 2, 1, v2x2, 0, NULL, NULL, "PROD_f", -2, 2);
  double G[] = {1, -2, 0.5, 3, -1, 4};
  simple("GAIN_f", 1, 1, (const int[]){3, 1, 2, 1}, 1, (const char *[]){"gain"},
         (bsim_value[]){{2, 3, G, NULL}}, "GAIN_f 2x3", -2, 2);
  /* inputs kept away from the poles 0 */
  simple("INVBLK_f", 1, 1, (const int[]){3, 1, 3, 1}, 0, NULL, NULL, "INVBLK_f",
         0.5, 2);
  simple("SQRT", 1, 1, (const int[]){3, 1, 3, 1}, 0, NULL, NULL, "SQRT", 0.5,
         2);
  simple("MUX_f", 2, 1, (const int[]){2, 1, 1, 1, 3, 1}, 1,
         (const char *[]){"in"}, (bsim_value[]){SCALAR(2)}, "MUX_f 2+1", -2, 2);
}

/* The other Xcos linear blocks (blocks/linear_f.c). */
static void linear_f(void) {
  const char *cn[] = {"A", "B", "C", "D", "x0"};
  double A[] = {-1, 2, 0.5, -3}, B[] = {1, 0}, C[] = {1, -0.5, 2, 1},
         D[] = {0.25, -1}, x0[] = {0.1, 0.2};
  bsim_value ss[] = {{2, 2, A, NULL},
                     {2, 1, B, NULL},
                     {2, 2, C, NULL},
                     {2, 1, D, NULL},
                     {2, 1, x0, NULL}};
  simple("CLSS_f", 1, 1, (const int[]){1, 1, 2, 1}, 5, cn, ss, "CLSS_f", -2, 2);
  /* TCLSS: u1 then the re-init input (no derivative) */
  simple("TCLSS", 2, 1, (const int[]){1, 1, 2, 1, 2, 1}, 5, cn, ss, "TCLSS", -2,
         2);
  ss[3] = (bsim_value){0, 0, NULL, NULL};
  simple("TCLSS_f", 2, 1, (const int[]){1, 1, 2, 1, 2, 1}, 5, cn, ss,
         "TCLSS_f without D", -2, 2);
  const char *rn[] = {"num", "den"};
  simple("CLR_f", 1, 1, (const int[]){1, 1, 1, 1}, 2, rn,
         (bsim_value[]){{1, 2, (double[]){2, 1}, NULL},
                        {1, 3, (double[]){1, 1.5, 1}, NULL}},
         "CLR_f (2s+1)/(s^2+1.5s+1)", -2, 2);
  simple("INTEGRAL", 1, 1, (const int[]){2, 1, 2, 1}, 1, (const char *[]){"x0"},
         (bsim_value[]){{1, 2, x0, NULL}}, "INTEGRAL", -2, 2);
  simple("INTEGRAL_f", 1, 1, (const int[]){1, 1, 1, 1}, 0, NULL, NULL,
         "INTEGRAL_f", -2, 2);
  simple("CLINDUMMY_f", 0, 0, NULL, 0, NULL, NULL, "CLINDUMMY_f", -2, 2);
}

/* The tables (blocks/tables.c), inside one segment (the Jacobian of a
 * piecewise-linear function is its slope there). */
static void tables(void) {
  const char *xy[] = {"x", "y"};
  bsim_value t[] = {{1, 4, (double[]){-1, 0.3, 1.2, 2}, NULL},
                    {1, 4, (double[]){0.5, -1, 1.5, 0}, NULL}};
  const int s1[] = {1, 1, 1, 1};
  simple("LOOKUP_f", 1, 1, s1, 2, xy, t, "LOOKUP_f", 0.4, 1.1);
  simple("LOOKUP_f", 1, 1, s1, 2, xy, t, "LOOKUP_f extrapolated", 2.5, 3);
  simple("INTRPLBLK_f", 1, 1, s1, 2, xy, t, "INTRPLBLK_f", -0.9, 0.2);
}

/* The matrix blocks that only multiply or move entries
 * (blocks/matrix.c). */
static void matrix(void) {
  const char *mm[] = {"rule"};
  simple("MATMUL", 2, 1, (const int[]){2, 3, 3, 2, 2, 2}, 1, mm,
         (bsim_value[]){SCALAR(1)}, "MATMUL 2x3 * 3x2", -2, 2);
  simple("MATMUL", 2, 1, (const int[]){2, 2, 2, 2, 2, 2}, 1, mm,
         (bsim_value[]){SCALAR(2)}, "MATMUL element-wise", -2, 2);
  simple("MATMUL", 2, 1, (const int[]){2, 3, 1, 1, 2, 3}, 1, mm,
         (bsim_value[]){SCALAR(3)}, "MATMUL by a scalar", -2, 2);
  simple("MATTRAN", 1, 1, (const int[]){2, 3, 3, 2}, 0, NULL, NULL, "MATTRAN",
         -2, 2);
  simple("MATCATH", 2, 1, (const int[]){2, 1, 2, 2, 2, 3}, 0, NULL, NULL,
         "MATCATH", -2, 2);
  simple("MATCATV", 2, 1, (const int[]){1, 2, 2, 2, 3, 2}, 0, NULL, NULL,
         "MATCATV", -2, 2);
  simple("EXTRACT", 1, 1, (const int[]){3, 3, 2, 3}, 2,
         (const char *[]){"rows", "cols"},
         (bsim_value[]){{1, 2, (double[]){3, 1}, NULL},
                        {1, 3, (double[]){2, 2, 3}, NULL}},
         "EXTRACT", -2, 2);
}

/* BOUNCE: a linear flow between collisions (drag 0.7). */
static void bounce(void) {
  simple("BOUNCE", 0, 2, (const int[]){2, 1, 2, 1}, 1, (const char *[]){"drag"},
         (bsim_value[]){SCALAR(0.7)}, "BOUNCE", -2, 2);
}

int main(void) {
  basic_f();
  bounce();
  matrix();
  linear_f();
  tables();
  const int v3[] = {3, 1, 3, 1}, v3s[] = {3, 1, 1, 1};
  const int v2x3[] = {2, 1, 2, 1, 2, 1, 2, 1};
  /* GAINBLK, scalar and 2 x 3 matrix acting on a 3 x 2 input */
  const char *gn[] = {"gain"};
  simple("GAINBLK", 1, 1, v3, 1, gn, (bsim_value[]){SCALAR(2.5)},
         "GAINBLK scalar", -2, 2);
  double G[] = {1, -2, 0.5, 3, -1, 4};
  simple("GAINBLK", 1, 1, (const int[]){3, 2, 2, 2}, 1, gn,
         (bsim_value[]){{2, 3, G, NULL}}, "GAINBLK 2x3 on 3x2", -2, 2);
  /* SUMMATION with signs, and the one-input sum */
  const char *sn[] = {"signs"};
  double sg[] = {1, -1, 1};
  simple("SUMMATION", 3, 1, v2x3, 1, sn, (bsim_value[]){{1, 3, sg, NULL}},
         "SUMMATION [1 -1 1]", -2, 2);
  simple("SUMMATION", 1, 1, v3s, 1, sn, (bsim_value[]){SCALAR(1)},
         "SUMMATION one input", -2, 2);
  /* PRODUCT: multiply and divide (inputs kept away from 0), and the
   * one-input product */
  const char *pn[] = {"ops"};
  double ops[] = {1, -1, 1};
  simple("PRODUCT", 3, 1, v2x3, 1, pn, (bsim_value[]){{1, 3, ops, NULL}},
         "PRODUCT [1 -1 1]", 0.5, 2);
  simple("PRODUCT", 1, 1, v3s, 1, pn, (bsim_value[]){SCALAR(1)},
         "PRODUCT one input", -2, 2);
  const char *en[] = {"base"};
  simple("EXPBLK_m", 1, 1, v3, 1, en, (bsim_value[]){SCALAR(2)},
         "EXPBLK_m base 2", -2, 2);
  /* INTEGRAL_m, plain and with re-init (its second input has no
   * derivative) */
  const char *in[] = {"x0"}, *in2[] = {"x0", "reinit"};
  double x0[] = {0.1, 0.2};
  simple("INTEGRAL_m", 1, 1, (const int[]){2, 1, 2, 1}, 1, in,
         (bsim_value[]){{2, 1, x0, NULL}}, "INTEGRAL_m", -2, 2);
  simple("INTEGRAL_m", 2, 1, (const int[]){2, 1, 2, 1, 2, 1}, 2, in2,
         (bsim_value[]){{2, 1, x0, NULL}, SCALAR(1)}, "INTEGRAL_m reinit", -2,
         2);
  /* CLSS with 2 states, 2 inputs, 1 output and feedthrough; CLR */
  const char *cn[] = {"A", "B", "C", "D", "x0"};
  double A[] = {-1, 2, 0.5, -3}, B[] = {1, 0, -1, 2}, C[] = {1, -0.5},
         D[] = {0.25, -1};
  simple("CLSS", 1, 1, (const int[]){2, 1, 1, 1}, 5, cn,
         (bsim_value[]){{2, 2, A, NULL},
                        {2, 2, B, NULL},
                        {1, 2, C, NULL},
                        {1, 2, D, NULL},
                        {2, 1, x0, NULL}},
         "CLSS 2 states", -2, 2);
  const char *rn[] = {"num", "den"};
  double num[] = {1, 1}, den[] = {1, 2, 3};
  simple("CLR", 1, 1, (const int[]){1, 1, 1, 1}, 2, rn,
         (bsim_value[]){{1, 2, num, NULL}, {1, 3, den, NULL}},
         "CLR (s+1)/(s^2+2s+3)", -2, 2);
  /* MUX and DEMUX: identities */
  simple("MUX", 2, 1, (const int[]){2, 1, 1, 1, 3, 1}, 1,
         (const char *[]){"in"}, (bsim_value[]){SCALAR(2)}, "MUX 2+1", -2, 2);
  simple("DEMUX", 1, 2, (const int[]){3, 1, 2, 1, 1, 1}, 1,
         (const char *[]){"out"}, (bsim_value[]){SCALAR(2)}, "DEMUX 2+1", -2,
         2);
  /* TrigFun's functions, on their domains */
  const char *fns[] = {"sin",  "cos",  "tan",  "asin",  "acos",  "atan",
                       "sinh", "cosh", "tanh", "asinh", "acosh", "atanh"};
  for (int i = 0; i < 12; i++) {
    char t[32];
    snprintf(t, sizeof t, "%s_blk", fns[i]);
    int acosh = strcmp(fns[i], "acosh") == 0;
    simple(t, 1, 1, v3, 0, NULL, NULL, t, acosh ? 1.2 : -0.8,
           acosh ? 1.9 : 0.8);
  }
  /* SATURATION on each piece (inputs kept off the corners at +-0.5):
   * dy/du is 1 between the limits, 0 beyond them */
  const char *satn[] = {"upper", "lower", "zero-crossing"};
  const int v1[] = {1, 1, 1, 1};
  for (int zc = 0; zc < 2; zc++) {
    bsim_value sv[] = {SCALAR(0.5), SCALAR(-0.5), SCALAR(zc)};
    simple("SATURATION", 1, 1, v1, 3, satn, sv, "SATURATION linear", -0.4, 0.4);
    simple("SATURATION", 1, 1, v1, 3, satn, sv, "SATURATION upper", 1, 2);
    simple("SATURATION", 1, 1, v1, 3, satn, sv, "SATURATION lower", -2, -1);
  }
  /* Sources: flagged, no inputs, nothing to write */
  const char *src[] = {"CONST_m", "CONST",    "CONST_f",
                       "TIME_f",  "GENSIN_f", "TrigFun"};
  for (int i = 0; i < 6; i++) {
    const bsim_block_type *t = std_type(src[i]);
    CHECK(t && (t->flags & BSIM_TYPE_JACOBIAN), "%s not flagged", src[i]);
  }
  /* Saturation opts out per instance */
  harness h;
  mk(&h, "INTEGRAL_m", 1, 1, (const int[]){1, 1, 1, 1});
  define_into(&h, 1, (const char *[]){"satur"}, (bsim_value[]){SCALAR(1)});
  CHECK(h.m.no_jacobian == 1, "saturated INTEGRAL_m does not opt out");
  done(&h);
  if (failures)
    fprintf(stderr, "test_block_jacobians: %d failure(s)\n", failures);
  return failures ? 1 : 0;
}
