/*
 * System analysis: the matrix tools (matching, rank, eigenvalues) on
 * matrices with known answers, then `analyze`/`linearize` on diagrams with
 * known Jacobians, a structurally singular loop, a higher-index loop and
 * the MatrixMarket export.
 *
 * Tolerances: the matrix tools work on exact input, so 1e-12. Analysed
 * diagrams go through central differences with step sqrt(eps) max(|y|, 1),
 * whose rounding error is about 1e-8 relative; 1e-6 leaves a wide margin
 * while still catching any wrong entry or sign.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blocksim/blocksim.h"
#include "solvers/analysis.h"
#include "tests/unit/test_library.h"

static int failures;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                          \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                     \
      failures++;                                                              \
    }                                                                          \
  } while (0)

#define NEAR(got, want, tol, what)                                             \
  CHECK(fabs((got) - (want)) <= (tol), "%s: got %.17g, want %.17g (tol %g)",   \
        what, (double)(got), (double)(want), (double)(tol))

static void test_matrix_tools(void) {
  /* Matching: rows 0 and 1 both want column 0 first; only an augmenting
   * path (row 0 moves to column 1) matches all three. Row 2 only has
   * column 2. */
  const char pat[9] = {1, 1, 0, 1, 0, 0, 0, 0, 1};
  int rm[3], cm[3];
  CHECK(bsim_match_max(3, 3, pat, rm, cm) == 3, "full matching expected");
  CHECK(rm[0] == 1 && rm[1] == 0 && rm[2] == 2, "matching %d %d %d", rm[0],
        rm[1], rm[2]);
  /* Two rows competing for a single column: structural rank 2 of 3. */
  const char sing[9] = {1, 0, 0, 1, 0, 0, 0, 1, 1};
  CHECK(bsim_match_max(3, 3, sing, rm, cm) == 2, "rank-2 pattern");

  /* Rank: [1 2; 2 4] has rank 1 exactly (singular values 5 and 0). */
  const double r1[4] = {1, 2, 2, 4};
  double sig[2];
  CHECK(bsim_svd_rank(2, 2, r1, 1e-10, 0, sig, NULL) == 1, "rank of [1 2;2 4]");
  NEAR(sig[0], 5.0, 1e-12, "largest singular value");

  /* eig([0 1; -2 -3]) = -2, -1, sorted by real part. */
  const double A[4] = {0, 1, -2, -3};
  double re[2], im[2], stiff;
  CHECK(bsim_eigenvalues(2, A, re, im) == 0, "eigenvalues");
  NEAR(re[0], -2.0, 1e-12, "eig 1");
  NEAR(re[1], -1.0, 1e-12, "eig 2");
  NEAR(im[0], 0.0, 1e-12, "eig 1 imaginary part");
  CHECK(bsim_stability_of(2, re, im, &stiff) == BSIM_STABLE, "stable");
  NEAR(stiff, 2.0, 1e-12, "stiffness ratio");
  /* An undamped oscillator is marginal; a positive real part unstable. */
  const double osc_re[2] = {0, 0}, osc_im[2] = {-3, 3};
  CHECK(bsim_stability_of(2, osc_re, osc_im, &stiff) == BSIM_MARGINAL,
        "marginal");
  const double un_re[2] = {-1, 0.5}, un_im[2] = {0, 0};
  CHECK(bsim_stability_of(2, un_re, un_im, &stiff) == BSIM_UNSTABLE,
        "unstable");

  /* Solve [2 1; 1 3] X = [3; 5] -> X = [0.8; 1.4]. */
  const double M[4] = {2, 1, 1, 3}, b[2] = {3, 5};
  double x[2];
  CHECK(bsim_dense_solve(2, M, 1, b, x) == 0, "solve");
  NEAR(x[0], 0.8, 1e-12, "x1");
  NEAR(x[1], 1.4, 1e-12, "x2");
  /* Factored once, solved twice; the pivot row is the second (|3| > |0|):
   * [0 1 2; 1 0 0; 3 1 1] x = b for x = (1, 2, 3) and x = (-1, 0, 2);
   * exact in binary (the multipliers are 0 and 1/3, the products land on
   * representable values within 1e-15). A zero column fails. */
  double LU[9] = {0, 1, 2, 1, 0, 0, 3, 1, 1}, B[3] = {8, 1, 8},
         C[3] = {4, -1, -1};
  int piv[3];
  CHECK(bsim_dense_lu(3, LU, piv) == 0 && piv[0] == 2, "lu: pivot %d", piv[0]);
  bsim_dense_lu_solve(3, LU, piv, 1, B);
  bsim_dense_lu_solve(3, LU, piv, 1, C);
  NEAR(B[0], 1, 1e-14, "B x1");
  NEAR(B[1], 2, 1e-14, "B x2");
  NEAR(B[2], 3, 1e-14, "B x3");
  NEAR(C[0], -1, 1e-14, "C x1");
  NEAR(C[1], 0, 1e-14, "C x2");
  NEAR(C[2], 2, 1e-14, "C x3");
  double S[4] = {1, 0, 2, 0};
  CHECK(bsim_dense_lu(2, S, piv) == -1, "singular: no zero pivot found");
}

static bsim_analysis *analyse(const char *name, double at, bsim_diagram **d) {
  char path[1024];
  snprintf(path, sizeof path, "%s/analysis/%s", BSIM_TEST_DATA, name);
  bsim_error err;
  bsim_error_clear(&err);
  *d = bsim_diagram_load(path, test_library(), &err);
  bsim_analysis *a = *d ? bsim_analysis_create(*d, NULL, at, &err) : NULL;
  CHECK(a, "%s: %s", name, err.message);
  return a;
}

static void test_clss(void) {
  bsim_diagram *d;
  bsim_analysis *a = analyse("clss.xml", 0, &d);
  if (!a) {
    bsim_diagram_free(d);
    return;
  }
  int nd, na;
  CHECK(bsim_analysis_size(a, &nd, &na) == 2 && nd == 2 && na == 0,
        "clss partition");
  CHECK(strcmp(bsim_analysis_unknown(a, 0), "sys.x[1]") == 0, "name %s",
        bsim_analysis_unknown(a, 0));
  const double *re, *im;
  CHECK(bsim_analysis_eigenvalues(a, &re, &im) == 2, "clss eigenvalues");
  NEAR(re[0], -2.0, 1e-6, "clss eig 1");
  NEAR(re[1], -1.0, 1e-6, "clss eig 2");
  double stiff;
  CHECK(bsim_analysis_stability(a, &stiff) == 0, "clss stable");
  NEAR(stiff, 2.0, 1e-6, "clss stiffness");
  const char *msg;
  CHECK(bsim_analysis_structural_rank(a, &msg) == 2 && !msg[0],
        "clss structurally regular: %s", msg);

  /* Export: dF/dy = [0 -1; 2 3] has 3 nonzeros, dF/dy' = I has 2. */
  char dir[] = "/tmp/bsim_analysis_XXXXXX";
  CHECK(mkdtemp(dir) != NULL, "mkdtemp");
  bsim_error err;
  bsim_error_clear(&err);
  CHECK(bsim_analysis_export_jacobian(a, dir, &err) == 0, "export: %s",
        err.message);
  const char *files[2] = {"dFdy.mtx", "dFdyp.mtx"};
  const int want_nnz[2] = {3, 2};
  for (int k = 0; k < 2; k++) {
    char path[512], line[256];
    snprintf(path, sizeof path, "%s/%s", dir, files[k]);
    FILE *f = fopen(path, "r");
    CHECK(f, "open %s", path);
    if (!f) continue;
    CHECK(fgets(line, sizeof line, f) &&
              strcmp(line, "%%MatrixMarket matrix coordinate real general\n") ==
                  0,
          "%s header", files[k]);
    int m = 0, n = 0, nnz = -1, i, j, count = 0;
    CHECK(fscanf(f, "%d %d %d", &m, &n, &nnz) == 3 && m == 2 && n == 2 &&
              nnz == want_nnz[k],
          "%s size line %d %d %d", files[k], m, n, nnz);
    double v, sum = 0;
    while (fscanf(f, "%d %d %lf", &i, &j, &v) == 3) {
      count++;
      if (k == 0 && i == 2 && j == 1) NEAR(v, 2.0, 1e-6, "dF2/dx1 = -A21");
      sum += v;
    }
    CHECK(count == nnz, "%s: %d entries, header says %d", files[k], count, nnz);
    NEAR(sum, k == 0 ? 4.0 : 2.0, 1e-6, "sum of entries");
    fclose(f);
    unlink(path);
  }
  char path[512], line[256];
  snprintf(path, sizeof path, "%s/unknowns.txt", dir);
  FILE *f = fopen(path, "r");
  CHECK(f && fgets(line, sizeof line, f) && strcmp(line, "sys.x[1]\n") == 0,
        "unknowns.txt");
  if (f) fclose(f);
  unlink(path);
  rmdir(dir);

  /* bad signal names are input errors */
  const char *bad[1] = {"nosuch:1"}, *out[1] = {"y"};
  bsim_error_clear(&err);
  CHECK(bsim_analysis_linearize(a, bad, 1, out, 1, &err) != 0 &&
            err.status == BSIM_ERR_INPUT && strstr(err.message, "nosuch"),
        "unknown input: %s", err.message);
  bsim_analysis_free(a);
  bsim_diagram_free(d);
}

static void test_pendulum(void) {
  bsim_diagram *d;
  bsim_analysis *a = analyse("pendulum.xml", 0, &d);
  if (!a) {
    bsim_diagram_free(d);
    return;
  }
  const char *in[1] = {"u"}, *out[1] = {"theta"};
  bsim_error err;
  bsim_error_clear(&err);
  CHECK(bsim_analysis_linearize(a, in, 1, out, 1, &err) == 0, "linearize: %s",
        err.message);
  const double gl = 9.81 / 0.5, c = 0.3;
  const double wantA[4] = {0, 1, -gl, -c}, wantB[2] = {0, 1}, wantC[2] = {1, 0};
  int r, k;
  const double *A = bsim_analysis_matrix(a, 'A', &r, &k);
  CHECK(A && r == 2 && k == 2, "A is 2 x 2");
  for (int i = 0; A && i < 4; i++)
    NEAR(A[i], wantA[i], 1e-6 * fmax(1, fabs(wantA[i])), "pendulum A");
  const double *B = bsim_analysis_matrix(a, 'B', &r, &k);
  CHECK(B && r == 2 && k == 1, "B is 2 x 1");
  for (int i = 0; B && i < 2; i++)
    NEAR(B[i], wantB[i], 1e-6, "pendulum B");
  const double *C = bsim_analysis_matrix(a, 'C', &r, &k);
  CHECK(C && r == 1 && k == 2, "C is 1 x 2");
  for (int i = 0; C && i < 2; i++)
    NEAR(C[i], wantC[i], 1e-6, "pendulum C");
  const double *D = bsim_analysis_matrix(a, 'D', &r, &k);
  CHECK(D && r == 1 && k == 1, "D is 1 x 1");
  if (D) NEAR(D[0], 0.0, 1e-6, "pendulum D");
  /* eigenvalues -c/2 +- i sqrt(g/L - c^2/4) */
  const double *re, *im;
  CHECK(bsim_analysis_eigenvalues(a, &re, &im) == 2, "pendulum eigenvalues");
  NEAR(re[0], -c / 2, 1e-6, "pendulum Re");
  NEAR(fabs(im[0]), sqrt(gl - c * c / 4), 1e-6, "pendulum Im");
  bsim_analysis_free(a);
  bsim_diagram_free(d);
}

static void test_dae_at(void) {
  /* the reduced Jacobian of x' = -s, s = x - 2 s is -1/3 at any time */
  bsim_diagram *d;
  bsim_analysis *a = analyse("dae.xml", 3.0, &d);
  if (!a) {
    bsim_diagram_free(d);
    return;
  }
  NEAR(bsim_analysis_time(a), 3.0, 1e-12, "analysis time");
  CHECK(bsim_analysis_note(a)[0] == '\0', "note: %s", bsim_analysis_note(a));
  const double *re, *im;
  CHECK(bsim_analysis_eigenvalues(a, &re, &im) == 1, "dae eigenvalues");
  NEAR(re[0], -1.0 / 3.0, 1e-6, "dae eigenvalue");
  bsim_analysis_free(a);
  bsim_diagram_free(d);
}

static void test_singular(void) {
  bsim_diagram *d;
  const char *msg;
  double thr;
  /* y = 1 + y: the loop signal cancels from its own equation. */
  bsim_analysis *a = analyse("loop_gain1.xml", 0, &d);
  if (a) {
    CHECK(bsim_analysis_note(a)[0] != '\0', "no consistent point expected");
    CHECK(bsim_analysis_structural_rank(a, &msg) == 0, "structural rank 0");
    CHECK(strstr(msg, "'fb:1.g'") && strstr(msg, "'sum'") &&
              strstr(msg, "'fb'") && strstr(msg, "unmatched"),
          "structural message: %s", msg);
    CHECK(bsim_analysis_algebraic_rank(a, &thr, &msg) == 0, "dg/dya rank 0");
    CHECK(strstr(msg, "higher index") && strstr(msg, "'sum'") &&
              strstr(msg, "'fb'"),
          "index message: %s", msg);
    const double *re, *im;
    CHECK(bsim_analysis_eigenvalues(a, &re, &im) < 0, "no eigenvalues");
  }
  bsim_analysis_free(a);
  bsim_diagram_free(d);

  /* Two torn signals, structurally fine, numerically singular. */
  a = analyse("loop_two.xml", 0, &d);
  if (a) {
    CHECK(bsim_analysis_structural_rank(a, &msg) == 2 && !msg[0],
          "loop_two structurally regular: %s", msg);
    CHECK(bsim_analysis_algebraic_rank(a, &thr, &msg) == 1, "dg/dya rank 1");
    CHECK(strstr(msg, "higher index") && strstr(msg, "'sum'") &&
              strstr(msg, "'kb'") && strstr(msg, "'kc'"),
          "index message: %s", msg);
  }
  bsim_analysis_free(a);
  bsim_diagram_free(d);
}

int main(void) {
  test_matrix_tools();
  test_clss();
  test_pendulum();
  test_dae_at();
  test_singular();
  if (failures) fprintf(stderr, "test_analysis: %d failure(s)\n", failures);
  return failures ? 1 : 0;
}
