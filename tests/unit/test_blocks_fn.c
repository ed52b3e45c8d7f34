/*
 * The standard blocks' computational functions, called directly on
 * hand-built bsim_block views (no diagram, no solver): each block's outputs,
 * derivatives, surfaces and modes for known inputs, and how it reports
 * numeric failures (recoverable while integrating, fatal otherwise).
 *
 * The block view is embedded in the scheduler's rt_block, as the scheduler
 * does, so that the library's own bsim_block_error / _recoverable record
 * failures in a bsim_run_errors we can inspect.
 */
#include <float.h>

#include "tests/unit/block_harness.h"
#include "tests/unit/test_library.h"

/* Every expected value below is computed by one or two IEEE operations from
 * exact inputs, or by libm on the same argument, so results agree to a few
 * ulps: the harness's TOL, 1e-14 relative (absolute near 0), leaves ample
 * margin. */
#define PI 3.14159265358979323846

static void test_gain(void) {
  harness h;
  /* G (3x2) = [1 2; 3 4; 5 6], u (2x2) = [1 -1; 2 0.5] */
  static double G[6] = {1, 3, 5, 2, 4, 6};
  bsim_block *b = mk(&h, "GAINBLK", 1, 1, (int[]){2, 2, 3, 2});
  b->rpar = G;
  b->nrpar = 6;
  double u[4] = {1, 2, -1, 0.5};
  memcpy(h.in[0], u, sizeof u);
  call(&h, BSIM_FLAG_INIT);
  call(&h, BSIM_FLAG_OUTPUTS);
  double want[6] = {5, 11, 17, 0, -1, -2}; /* G*[1;2], G*[-1;0.5] */
  for (int i = 0; i < 6; i++)
    CHECK_NEAR(h.out[0][i], want[i], "GAINBLK matrix product");
  no_error(&h, "GAINBLK");

  static double k = 2.5;
  b = mk(&h, "gainblk", 1, 1, (int[]){3, 1, 3, 1});
  b->rpar = &k;
  b->nrpar = 1;
  h.in[0][0] = 1, h.in[0][1] = -2, h.in[0][2] = 0.4;
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK_NEAR(h.out[0][0], 2.5, "GAINBLK scalar");
  CHECK_NEAR(h.out[0][1], -5, "GAINBLK scalar");
  CHECK_NEAR(h.out[0][2], 1.0, "GAINBLK scalar");

  /* ports that do not fit the matrix are caught at flag 4 */
  b = mk(&h, "GAINBLK", 1, 1, (int[]){3, 1, 3, 1});
  b->rpar = G;
  b->nrpar = 6;
  call(&h, BSIM_FLAG_INIT);
  CHECK(h.errs.fatal, "GAINBLK 3x2 gain on a 3-vector accepted");
}

static void test_sum_product(void) {
  harness h;
  static int s3[3] = {1, -1, 1};
  bsim_block *b = mk(&h, "SUMMATION", 3, 1, (int[]){2, 1, 2, 1, 2, 1, 2, 1});
  b->ipar = s3;
  b->nipar = 3;
  h.in[0][0] = 1, h.in[0][1] = 2;
  h.in[1][0] = 3, h.in[1][1] = 5;
  h.in[2][0] = 10, h.in[2][1] = 20;
  call(&h, BSIM_FLAG_INIT);
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK_NEAR(h.out[0][0], 8, "SUMMATION 1-3+10");
  CHECK_NEAR(h.out[0][1], 17, "SUMMATION 2-5+20");
  no_error(&h, "SUMMATION");

  b = mk(&h, "SUMMATION", 1, 1, (int[]){3, 1, 1, 1});
  h.in[0][0] = 1, h.in[0][1] = 2, h.in[0][2] = 3.5;
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK_NEAR(h.out[0][0], 6.5, "SUMMATION of the elements");

  static int ops[2] = {1, -1};
  static double err_on_zero = 0.0, eps = DBL_EPSILON;
  b = mk(&h, "PRODUCT", 2, 1, (int[]){2, 1, 2, 1, 2, 1});
  b->ipar = ops;
  b->nipar = 2;
  b->rpar = &err_on_zero;
  b->nrpar = 1;
  h.in[0][0] = 6, h.in[0][1] = 1;
  h.in[1][0] = 3, h.in[1][1] = 4;
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK_NEAR(h.out[0][0], 2, "PRODUCT 6/3");
  CHECK_NEAR(h.out[0][1], 0.25, "PRODUCT 1/4");
  no_error(&h, "PRODUCT");

  /* division by zero: recoverable while integrating, fatal otherwise */
  h.in[1][1] = 0;
  b->phase = BSIM_PHASE_CONTINUOUS;
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK(h.errs.recoverable && !h.errs.fatal,
        "PRODUCT /0 while integrating: recoverable %d fatal %d",
        h.errs.recoverable, h.errs.fatal);
  CHECK(strstr(h.errs.last_recoverable, "division by zero") != NULL, "%s",
        h.errs.last_recoverable);
  memset(&h.errs, 0, sizeof h.errs);
  b->phase = BSIM_PHASE_DISCRETE;
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK(h.errs.fatal, "PRODUCT /0 at an event must be fatal");
  CHECK(strstr(h.errs.err.message, "test/blk") != NULL, "%s",
        h.errs.err.message);
  /* zero-division = 0: divide by %eps as Xcos */
  memset(&h.errs, 0, sizeof h.errs);
  b->rpar = &eps;
  call(&h, BSIM_FLAG_OUTPUTS);
  no_error(&h, "PRODUCT /eps");
  CHECK_NEAR(h.out[0][1], 1.0 / DBL_EPSILON, "PRODUCT 1/eps");

  b = mk(&h, "PRODUCT", 1, 1, (int[]){3, 1, 1, 1});
  h.in[0][0] = 2, h.in[0][1] = 3, h.in[0][2] = 4;
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK_NEAR(h.out[0][0], 24, "PRODUCT of the elements");
}

static void test_clss(void) {
  harness h;
  /* A = [0 1; -2 -3], B = [0; 1], C = [1 0], D = 0.5 */
  static double rpar[9] = {0, -2, 1, -3, 0, 1, 1, 0, 0.5};
  bsim_block *b = mk(&h, "CLSS", 1, 1, (int[]){1, 1, 1, 1});
  b->rpar = rpar;
  b->nrpar = 9;
  b->nx = 2;
  h.x[0] = 1, h.x[1] = 2;
  h.in[0][0] = 3;
  call(&h, BSIM_FLAG_INIT);
  call(&h, BSIM_FLAG_DERIVATIVES);
  CHECK_NEAR(h.xd[0], 2, "CLSS xd1 = x2");
  CHECK_NEAR(h.xd[1], -5, "CLSS xd2 = -2 x1 - 3 x2 + u");
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK_NEAR(h.out[0][0], 2.5, "CLSS y = x1 + 0.5 u");
  no_error(&h, "CLSS");
  b->nrpar = 8;
  call(&h, BSIM_FLAG_INIT);
  CHECK(h.errs.fatal, "CLSS with a short rpar accepted");
}

/* H(s) = C (sI - A)^-1 B + D of a model built by CLR's define step, by
 * Gaussian elimination on sI - A (n <= 4 here). */
static double clr_eval(const bsim_model *m, double s) {
  int n = m->nx;
  const double *A = m->rpar, *B = A + n * n, *C = B + n, *D = C + n;
  double M[4][5];
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++)
      M[i][j] = (i == j ? s : 0) - A[i + n * j];
    M[i][n] = B[i];
  }
  for (int k = 0; k < n; k++)
    for (int i = k + 1; i < n; i++) {
      double f = M[i][k] / M[k][k];
      for (int j = k; j <= n; j++)
        M[i][j] -= f * M[k][j];
    }
  double v[4], h = D[0];
  for (int i = n - 1; i >= 0; i--) {
    double r = M[i][n];
    for (int j = i + 1; j < n; j++)
      r -= M[i][j] * v[j];
    v[i] = r / M[i][i];
  }
  for (int i = 0; i < n; i++)
    h += C[i] * v[i];
  return h;
}

static void test_clr_realisation(void) {
  /* strictly proper (s+3)/(2s^2+4s+8) and proper (3s^2+s+2)/(2s^2+4s+8) */
  static double num1[2] = {1, 3}, num2[3] = {3, 1, 2}, den[3] = {2, 4, 8};
  const double *nums[2] = {num1, num2};
  int nnum[2] = {2, 3};
  const bsim_block_type *t = std_type("CLR");
  for (int c = 0; c < 2; c++) {
    bsim_value v[2] = {{1, nnum[c], (double *)nums[c], NULL},
                       {1, 3, den, NULL}};
    bsim_error err;
    bsim_error_clear(&err);
    bsim_define_ctx ctx = {"tf", NULL, 0, t, v, &err};
    bsim_model m;
    CHECK(bsim_define_run(&ctx, &m) == 0, "CLR define: %s", err.message);
    if (err.status != BSIM_OK) continue;
    CHECK(m.dep_u[0] == (c == 1), "CLR dep_u %d", m.dep_u[0]);
    for (double s = 0.5; s < 4; s += 1.25) {
      double want = 0, d = den[0] * s * s + den[1] * s + den[2];
      for (int k = 0; k < nnum[c]; k++)
        want = want * s + nums[c][k];
      /* a 2x2 elimination: a handful of roundings, still within TOL */
      CHECK_NEAR(clr_eval(&m, s), want / d, "CLR realisation H(s)");
    }
    bsim_model_clear(&m);
  }
}

static void test_trig(void) {
  harness h;
  mk(&h, "sin_blk", 1, 1, (int[]){3, 1, 3, 1});
  h.in[0][0] = 0, h.in[0][1] = PI / 6, h.in[0][2] = 1;
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK_NEAR(h.out[0][0], 0, "sin 0");
  CHECK_NEAR(h.out[0][1], 0.5, "sin pi/6");
  CHECK_NEAR(h.out[0][2], sin(1.0), "sin 1");
  struct {
    const char *sim;
    double u, y;
  } cases[] = {{"cos_blk", PI / 3, 0.5},
               {"tan_blk", PI / 4, 1},
               {"asin_blk", 0.5, PI / 6},
               {"acos_blk", 0.5, PI / 3},
               {"atan_blk", 1, PI / 4},
               {"sinh_blk", 1, sinh(1.0)},
               {"cosh_blk", 0, 1},
               {"tanh_blk", 0.5, tanh(0.5)},
               {"asinh_blk", 1, asinh(1.0)},
               {"acosh_blk", 2, acosh(2.0)},
               {"atanh_blk", 0.5, 0.54930614433405484570}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    mk(&h, cases[i].sim, 1, 1, (int[]){1, 1, 1, 1});
    h.in[0][0] = cases[i].u;
    call(&h, BSIM_FLAG_OUTPUTS);
    CHECK_NEAR(h.out[0][0], cases[i].y, cases[i].sim);
    no_error(&h, cases[i].sim);
  }
  /* asin(2): recoverable while integrating, fatal at an event */
  bsim_block *b = mk(&h, "asin_blk", 1, 1, (int[]){1, 1, 1, 1});
  h.in[0][0] = 2;
  b->phase = BSIM_PHASE_CONTINUOUS;
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK(h.errs.recoverable && !h.errs.fatal, "asin(2) while integrating");
  b->phase = BSIM_PHASE_DISCRETE;
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK(h.errs.fatal, "asin(2) at an event");
}

static void test_routing(void) {
  harness h;
  mk(&h, "MUX", 2, 1, (int[]){2, 1, 1, 1, 3, 1});
  h.in[0][0] = 1, h.in[0][1] = 2, h.in[1][0] = 3;
  call(&h, BSIM_FLAG_INIT);
  call(&h, BSIM_FLAG_OUTPUTS);
  for (int i = 0; i < 3; i++)
    CHECK_NEAR(h.out[0][i], i + 1, "MUX stacks in port order");
  no_error(&h, "MUX");

  mk(&h, "DEMUX", 1, 2, (int[]){3, 1, 1, 1, 2, 1});
  h.in[0][0] = 1, h.in[0][1] = 2, h.in[0][2] = 3;
  call(&h, BSIM_FLAG_INIT);
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK_NEAR(h.out[0][0], 1, "DEMUX slice 1");
  CHECK_NEAR(h.out[1][0], 2, "DEMUX slice 2");
  CHECK_NEAR(h.out[1][1], 3, "DEMUX slice 2");
  no_error(&h, "DEMUX");

  mk(&h, "DEMUX", 1, 2, (int[]){3, 1, 1, 1, 1, 1});
  call(&h, BSIM_FLAG_INIT);
  CHECK(h.errs.fatal, "DEMUX 3 -> 1+1 accepted");
}

static void test_exp_abs(void) {
  harness h;
  static double two = 2, e = 2.71828182845904523536;
  bsim_block *b = mk(&h, "EXPBLK_m", 1, 1, (int[]){3, 1, 3, 1});
  b->rpar = &two;
  b->nrpar = 1;
  h.in[0][0] = 0, h.in[0][1] = 3, h.in[0][2] = -1;
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK_NEAR(h.out[0][0], 1, "2^0");
  CHECK_NEAR(h.out[0][1], 8, "2^3");
  CHECK_NEAR(h.out[0][2], 0.5, "2^-1");
  b->rpar = &e;
  h.in[0][0] = 1;
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK_NEAR(h.out[0][0], exp(1.0), "e^1");
  no_error(&h, "EXPBLK_m");

  /* without zero crossings: plain |u| */
  mk(&h, "ABS_VALUE", 1, 1, (int[]){2, 1, 2, 1});
  h.in[0][0] = -2, h.in[0][1] = 3;
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK_NEAR(h.out[0][0], 2, "|-2|");
  CHECK_NEAR(h.out[0][1], 3, "|3|");

  /* with them: surfaces g = u, modes set only at events (1: u >= 0) */
  b = mk(&h, "absolute_value", 1, 1, (int[]){2, 1, 2, 1});
  b->ng = b->nmode = 2;
  call(&h, BSIM_FLAG_INIT);
  h.in[0][0] = -2, h.in[0][1] = 3;
  call(&h, BSIM_FLAG_ZCROSS);
  CHECK_NEAR(h.g[0], -2, "ABS_VALUE g1");
  CHECK_NEAR(h.g[1], 3, "ABS_VALUE g2");
  CHECK(h.mode[0] == 2 && h.mode[1] == 1, "modes %d %d", h.mode[0], h.mode[1]);
  /* while integrating, u1 has crossed to 0.1 but the mode still says
   * "negative": y keeps following -u until the event */
  b->phase = BSIM_PHASE_CONTINUOUS;
  h.in[0][0] = 0.1;
  call(&h, BSIM_FLAG_ZCROSS);
  CHECK(h.mode[0] == 2, "mode changed while integrating");
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK_NEAR(h.out[0][0], -0.1, "ABS_VALUE frozen branch");
  b->phase = BSIM_PHASE_DISCRETE;
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK_NEAR(h.out[0][0], 0.1, "ABS_VALUE at an event");
  no_error(&h, "ABS_VALUE");
}

static void test_sources(void) {
  harness h;
  static double gs[3] = {2, 3, 0.5};
  bsim_block *b = mk(&h, "GENSIN_f", 0, 1, (int[]){1, 1});
  b->rpar = gs;
  b->nrpar = 3;
  b->t = 0.7;
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK_NEAR(h.out[0][0], 2 * sin(3 * 0.7 + 0.5), "GENSIN_f");

  b = mk(&h, "TIME_f", 0, 1, (int[]){1, 1});
  b->t = 4.25;
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK_NEAR(h.out[0][0], 4.25, "TIME_f");

  /* STEP: initial [0.5; -1], final [2; 4] */
  static double st[4] = {0.5, -1, 2, 4};
  b = mk(&h, "STEP_FUNCTION", 0, 1, (int[]){2, 1});
  b->rpar = st;
  b->nrpar = 4;
  b->nevout = 1;
  call(&h, BSIM_FLAG_INIT);
  CHECK_NEAR(h.out[0][0], 0.5, "STEP after flag 4");
  b->t = 0.3;
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK_NEAR(h.out[0][0], 0.5, "STEP before its time");
  CHECK_NEAR(h.out[0][1], -1, "STEP before its time");
  b->t = 1.0;
  b->nevprt = 1;
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK_NEAR(h.out[0][0], 2, "STEP at its activation");
  CHECK_NEAR(h.out[0][1], 4, "STEP at its activation");
  b->nevprt = 0;
  b->t = 2.0;
  memset(h.out[0], 0, sizeof h.out[0]); /* as if the buffer were reset */
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK_NEAR(h.out[0][0], 2, "STEP after its time, no activation");
  CHECK_NEAR(h.out[0][1], 4, "STEP after its time, no activation");
  call(&h, BSIM_FLAG_END);
  CHECK(h.work == NULL, "STEP work not released");
  no_error(&h, "STEP");

  bsim_value cv = {2, 2, (double[]){1, 2, 3, 4}, NULL};
  const int oparsz[2] = {2, 2};
  double *oparptr[1] = {cv.v};
  b = mk(&h, "CONST_m", 0, 1, (int[]){2, 2});
  b->nopar = 1;
  b->oparsz = oparsz;
  b->oparptr = oparptr;
  call(&h, BSIM_FLAG_OUTPUTS);
  for (int i = 0; i < 4; i++)
    CHECK_NEAR(h.out[0][i], i + 1, "CONST_m");
  static double c3[3] = {7, 8, 9};
  b = mk(&h, "CONST", 0, 1, (int[]){3, 1});
  b->rpar = c3;
  b->nrpar = 3;
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK_NEAR(h.out[0][2], 9, "CONST");
  no_error(&h, "sources");
}

static void test_integral(void) {
  harness h;
  bsim_block *b = mk(&h, "INTEGRAL_m", 1, 1, (int[]){2, 1, 2, 1});
  b->nx = 2;
  h.x[0] = 1.5, h.x[1] = -2;
  h.in[0][0] = 0.25, h.in[0][1] = 7;
  call(&h, BSIM_FLAG_INIT);
  call(&h, BSIM_FLAG_DERIVATIVES);
  CHECK_NEAR(h.xd[0], 0.25, "INTEGRAL_m xd = u");
  CHECK_NEAR(h.xd[1], 7, "INTEGRAL_m xd = u");
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK_NEAR(h.out[0][0], 1.5, "INTEGRAL_m y = x");
  CHECK_NEAR(h.out[0][1], -2, "INTEGRAL_m y = x");
  no_error(&h, "INTEGRAL_m");
}

int main(void) {
  test_gain();
  test_sum_product();
  test_clss();
  test_clr_realisation();
  test_trig();
  test_routing();
  test_exp_abs();
  test_sources();
  test_integral();
  if (failures) {
    fprintf(stderr, "test_blocks_fn: %d failure(s)\n", failures);
    return 1;
  }
  printf("test_blocks_fn: all block functions agree\n");
  return 0;
}
