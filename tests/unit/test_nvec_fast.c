/*
 * The engines' serial-vector kernels (solvers/nvec_fast.c) against
 * SUNDIALS' own serial vector: every operation the kernels replace must
 * give bit-identical results (memcmp, no tolerance), since the engines
 * install them on the promise that results do not change, only their
 * cost. Lengths 1 to 101 (the vectorised loops' remainders), the special
 * cases of N_VLinearSum (b = a, b = -a, a or b = +-1), linear
 * combinations of 1 to 13 vectors (CVODE's Adams history) with z given as
 * X[0], as IDA does, and outputs aliasing inputs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>

#include "solvers/nvec_fast.h"
#include "tests/unit/test_check.h"

#define NV 14 /* vectors of each kind */

static unsigned long long rng_state = 0x9E3779B97F4A7C15ULL;

/* sign * (0.5 .. 1.5) * 10^(-3 .. 3): no zero, mixed magnitudes */
static double urand(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  double u = (double)(rng_state >> 11) / 9007199254740992.0;
  double e = (double)((rng_state >> 3) % 7) - 3.0;
  return ((rng_state & 1) ? -1.0 : 1.0) * (0.5 + u) * pow(10.0, e);
}

typedef struct pair {
  N_Vector s[NV], f[NV]; /* SUNDIALS' own, and with the kernels */
} pair;

static void fill(pair *p, long n) {
  for (int j = 0; j < NV; j++)
    for (long i = 0; i < n; i++)
      NV_Ith_S(p->s[j], i) = NV_Ith_S(p->f[j], i) = urand();
}

static int same(N_Vector a, N_Vector b, long n) {
  return memcmp(NV_DATA_S(a), NV_DATA_S(b), (size_t)n * sizeof(double)) == 0;
}

static int same_real(double a, double b) {
  return memcmp(&a, &b, sizeof a) == 0;
}

static void check_ops(pair *p, long n) {
  N_Vector *s = p->s, *f = p->f;
  static const double ab[][2] = {{1, 1},  {1, -1}, {-1, 1},  {-1, -1},   {2, 2},
                                 {2, -2}, {-2, 2}, {0.5, 3}, {1, 3},     {3, 1},
                                 {-1, 3}, {3, -1}, {0, 2},   {1e-300, 1}};
  for (size_t k = 0; k < sizeof ab / sizeof ab[0]; k++) {
    fill(p, n);
    N_VLinearSum(ab[k][0], s[0], ab[k][1], s[1], s[2]);
    N_VLinearSum(ab[k][0], f[0], ab[k][1], f[1], f[2]);
    CHECK(same(s[2], f[2], n), "n=%ld: linear sum a=%g b=%g", n, ab[k][0],
          ab[k][1]);
    /* z aliasing y, as SUNDIALS' own loops use it */
    N_VLinearSum(ab[k][0], s[0], ab[k][1], s[1], s[1]);
    N_VLinearSum(ab[k][0], f[0], ab[k][1], f[1], f[1]);
    CHECK(same(s[1], f[1], n), "n=%ld: linear sum into y, a=%g b=%g", n,
          ab[k][0], ab[k][1]);
  }
  fill(p, n);
  N_VConst(0.25, s[3]), N_VConst(0.25, f[3]);
  N_VProd(s[0], s[1], s[4]), N_VProd(f[0], f[1], f[4]);
  N_VDiv(s[0], s[1], s[5]), N_VDiv(f[0], f[1], f[5]);
  N_VScale(-3.5, s[0], s[6]), N_VScale(-3.5, f[0], f[6]);
  N_VAbs(s[1], s[7]), N_VAbs(f[1], f[7]);
  N_VInv(s[2], s[8]), N_VInv(f[2], f[8]);
  N_VAddConst(s[2], 1.25, s[9]), N_VAddConst(f[2], 1.25, f[9]);
  const char *names[] = {"const", "prod", "div",      "scale",
                         "abs",   "inv",  "add-const"};
  for (int j = 3; j <= 9; j++)
    CHECK(same(s[j], f[j], n), "n=%ld: %s", n, names[j - 3]);
  CHECK(same_real(N_VWrmsNorm(s[0], s[7]), N_VWrmsNorm(f[0], f[7])),
        "n=%ld: wrms norm", n);
  CHECK(same_real(N_VWSqrSumLocal(s[0], s[7]), N_VWSqrSumLocal(f[0], f[7])),
        "n=%ld: weighted square sum", n);
  CHECK(same_real(N_VMaxNorm(s[2]), N_VMaxNorm(f[2])), "n=%ld: max norm", n);

  double c[NV];
  for (int m = 1; m <= 13; m++) {
    for (int alias = 0; alias <= 1; alias++) {
      fill(p, n);
      for (int j = 0; j < m; j++)
        c[j] = j == 1 ? 1.0 : urand(); /* a coefficient of 1 too */
      /* z is X[0] (IDA's interpolation) or a vector of its own */
      N_VLinearCombination(m, c, s, alias ? s[0] : s[NV - 1]);
      N_VLinearCombination(m, c, f, alias ? f[0] : f[NV - 1]);
      CHECK(same(alias ? s[0] : s[NV - 1], alias ? f[0] : f[NV - 1], n),
            "n=%ld: linear combination of %d vectors%s", n, m,
            alias ? " into X[0]" : "");
    }
    fill(p, n);
    /* Z[j] = c[j] x + Y[j], into Y, and Z[j] = a X[j] + b Y[j] */
    N_VScaleAddMulti(m, c, s[0], s + 1, s + 1);
    N_VScaleAddMulti(m, c, f[0], f + 1, f + 1);
    int ok = 1;
    for (int j = 1; j <= m; j++)
      ok &= same(s[j], f[j], n);
    CHECK(ok, "n=%ld: scale-add-multi of %d vectors", n, m);
    if (2 * m <= NV) {
      N_VLinearSumVectorArray(m, 0.5, s, -2.0, s + m, s + m);
      N_VLinearSumVectorArray(m, 0.5, f, -2.0, f + m, f + m);
      ok = 1;
      for (int j = m; j < 2 * m; j++)
        ok &= same(s[j], f[j], n);
      CHECK(ok, "n=%ld: linear sum of %d vector pairs", n, m);
    }
  }
}

int main(void) {
  SUNContext ctx;
  if (SUNContext_Create(NULL, &ctx) != 0) return 1;
  /* the fused operations are SUNDIALS' fallbacks, built on the others,
   * unless enabled: the kernels must match what the engines would get */
  const long sizes[] = {1, 2, 3, 4, 5, 7, 8, 41, 101};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    long n = sizes[k];
    pair p;
    N_Vector proto = N_VNew_Serial(n, ctx);
    bsim_nvec_fast(proto);
    for (int j = 0; j < NV; j++) {
      p.s[j] = N_VNew_Serial(n, ctx);
      p.f[j] = N_VClone(proto); /* clones inherit the kernels */
    }
    CHECK(p.f[0]->ops->nvlinearsum != p.s[0]->ops->nvlinearsum,
          "the clone did not inherit the kernels");
    check_ops(&p, n);
    for (int j = 0; j < NV; j++) {
      N_VDestroy(p.s[j]);
      N_VDestroy(p.f[j]);
    }
    N_VDestroy(proto);
  }
  SUNContext_Free(&ctx);
  if (failures == 0) printf("test_nvec_fast: all checks passed\n");
  return failures != 0;
}
