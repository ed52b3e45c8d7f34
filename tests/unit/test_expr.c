/*
 * Parameter expressions: values, Scilab's precedence and whitespace rules
 * inside brackets, scope shadowing, every class of error message, and a
 * random-input loop that must not crash (run it under ASan to mean it).
 */
#include "diagrams/expr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                          \
      fprintf(stderr, __VA_ARGS__);                                            \
      fprintf(stderr, "\n");                                                   \
      failures++;                                                              \
    }                                                                          \
  } while (0)

/* Values are compared to 1e-15 relative: every case is one or two correctly
 * rounded libm/IEEE operations away from the expected double, so anything
 * looser would hide a real parsing or precedence error. */
static int close_to(double got, double want) {
  if (isnan(want)) return isnan(got);
  if (got == want) return 1;
  return fabs(got - want) <= 1e-15 * fabs(want);
}

/* Evaluates text and compares against a rows x cols column-major matrix. */
static void expect(const bsim_scope *sc, const char *text, int rows, int cols,
                   const double *want) {
  bsim_value v;
  char msg[256];
  if (bsim_expr_eval(text, sc, &v, msg, sizeof msg) != 0) {
    CHECK(0, "'%s' failed: %s", text, msg);
    return;
  }
  CHECK(v.str == NULL, "'%s': str should stay NULL", text);
  if (v.rows != rows || v.cols != cols) {
    CHECK(0, "'%s': size %dx%d, want %dx%d", text, v.rows, v.cols, rows, cols);
  } else {
    for (int i = 0; i < rows * cols; i++)
      CHECK(close_to(v.v[i], want[i]), "'%s': element %d is %.17g, want %.17g",
            text, i, v.v[i], want[i]);
  }
  bsim_value_clear(&v);
}

static void expect1(const bsim_scope *sc, const char *text, double want) {
  expect(sc, text, 1, 1, &want);
}

static void expect_error(const bsim_scope *sc, const char *text,
                         const char *part) {
  bsim_value v;
  char msg[256];
  int rc = bsim_expr_eval(text, sc, &v, msg, sizeof msg);
  CHECK(rc == -1, "'%s' should fail", text);
  if (rc == 0) {
    bsim_value_clear(&v);
    return;
  }
  CHECK(v.v == NULL && v.rows == 0 && v.cols == 0,
        "'%s': output not empty after failure", text);
  CHECK(strstr(msg, part) != NULL, "'%s': message \"%s\" lacks \"%s\"", text,
        msg, part);
}

static void set(bsim_scope *sc, const char *name, int rows, int cols,
                const double *v) {
  bsim_value val = {rows, cols, (double *)v, NULL};
  CHECK(bsim_scope_set(sc, name, &val) == 0, "scope_set %s", name);
}

static void test_numbers(const bsim_scope *sc) {
  expect1(sc, "2*%pi*f", 2 * 3.14159265358979323846 * 3);
  expect1(sc, "sqrt(2)/2", sqrt(2.0) / 2);
  expect1(sc, "-k", -0.5);
  expect1(sc, "1e-3", 1e-3);
  expect1(sc, ".5", 0.5);
  expect1(sc, "5.", 5.0);
  expect1(sc, "2.5D2", 250.0);
  expect1(sc, "2^3", 8);
  expect1(sc, "-2^2", -4);   /* unary minus is looser than ^ */
  expect1(sc, "2^3^2", 512); /* ^ is right-associative */
  expect1(sc, "2^-1", 0.5);  /* a signed exponent needs no parentheses */
  expect1(sc, "2*-3", -6);
  expect1(sc, "1 - 2 - 3", -4); /* - is left-associative */
  expect1(sc, "12/4/3", 1);
  expect1(sc, "1+2*3", 7);
  expect1(sc, "(1+2)*3", 9);
  expect1(sc, "%e", exp(1.0));
  expect1(sc, "%t + %f", 1);
  expect1(sc, "atan(1, -1)", atan2(1.0, -1.0));
  expect1(sc, "min(3, -2) + max(3, -2)", 1);
  expect1(sc, "abs(-2) + sign(-3) + floor(2.5) + ceil(2.5) + round(2.5)",
          2 - 1 + 2 + 3 + 3);
  expect1(sc, "exp(log(2))", exp(log(2.0)));
  expect1(sc, "log10(1000)", 3);
  expect1(sc, "size(A, 1) * 10 + size(B, 2)", 23);
  expect1(sc, "k // a comment", 0.5);
  bsim_value v;
  char msg[64];
  CHECK(bsim_expr_eval("%inf", sc, &v, msg, sizeof msg) == 0 && isinf(v.v[0]),
        "%%inf");
  bsim_value_clear(&v);
  CHECK(bsim_expr_eval("%nan", sc, &v, msg, sizeof msg) == 0 && isnan(v.v[0]),
        "%%nan");
  bsim_value_clear(&v);
}

static void test_matrices(const bsim_scope *sc) {
  expect(sc, "[1 2; 3 4]", 2, 2, (double[]){1, 3, 2, 4}); /* column-major */
  expect(sc, "[1,-1]", 1, 2, (double[]){1, -1});
  expect(sc, "[1 -1]", 1, 2, (double[]){1, -1});
  expect(sc, "[1 - 1]", 1, 1, (double[]){0});
  expect(sc, "[1-1]", 1, 1, (double[]){0});
  expect(sc, "[1 +1]", 1, 2, (double[]){1, 1});
  expect(sc, "[k -k]", 1, 2, (double[]){0.5, -0.5});
  expect(sc, "[0 1; -1 -2]", 2, 2, (double[]){0, -1, 1, -2});
  expect(sc, "[1 2\n3 4]", 2, 2, (double[]){1, 3, 2, 4});
  expect(sc, "[1, 2;\n 3, 4;]", 2, 2, (double[]){1, 3, 2, 4});
  expect(sc, "[ ]", 0, 0, NULL);
  expect(sc, "[[] 1 []]", 1, 1, (double[]){1});
  expect(sc, "[a b]", 2, 2, (double[]){1, 2, 1, 2});
  expect(sc, "[a; 5]", 3, 1, (double[]){1, 2, 5});
  expect(sc, "[a' b']", 1, 4, (double[]){1, 2, 1, 2});
  expect(sc, "[(1 -1) 2]", 1, 2, (double[]){0, 2}); /* parentheses reset */
  expect(sc, "[max(1, -1) 2]", 1, 2, (double[]){1, 2});
  expect(sc, "[1 * 2, 3 ^ 2]", 1, 2, (double[]){2, 9});
  expect(sc, "[[1 2]; [3 4]]", 2, 2, (double[]){1, 3, 2, 4});
  expect(sc, "A'", 2, 2, (double[]){1, 3, 2, 4});
  expect(sc, "[1 2 3]'", 3, 1, (double[]){1, 2, 3});
  /* A = [1 3; 2 4] (column-major 1 2 3 4), B = [1 0 2; 0 1 3]. */
  expect(sc, "A*B", 2, 3, (double[]){1, 2, 3, 4, 11, 16});
  expect(sc, "A*2 - 1", 2, 2, (double[]){1, 3, 5, 7});
  expect(sc, "A.*A", 2, 2, (double[]){1, 4, 9, 16});
  expect(sc, "A./A", 2, 2, (double[]){1, 1, 1, 1});
  expect(sc, "A.^2", 2, 2, (double[]){1, 4, 9, 16});
  expect(sc, "A^2", 2, 2, (double[]){7, 10, 15, 22});
  expect(sc, "A^0", 2, 2, (double[]){1, 0, 0, 1});
  /* inv([1 3; 2 4]) = [-2 1.5; 1 -0.5]; A^-2 = inv(A)^2. */
  expect(sc, "A^(-1)", 2, 2, (double[]){-2, 1, 1.5, -0.5});
  expect(sc, "A^-2", 2, 2, (double[]){5.5, -2.5, -3.75, 1.75});
  expect(sc, "2^[1 2]", 1, 2, (double[]){2, 4});
  expect(sc, "A/2", 2, 2, (double[]){0.5, 1, 1.5, 2});
  expect(sc, "-A", 2, 2, (double[]){-1, -2, -3, -4});
  expect(sc, "sqrt([4 9])", 1, 2, (double[]){2, 3});
  expect(sc, "zeros(2, 1)", 2, 1, (double[]){0, 0});
  expect(sc, "ones(1, 2)", 1, 2, (double[]){1, 1});
  expect(sc, "eye(2)", 2, 2, (double[]){1, 0, 0, 1});
  expect(sc, "eye(2, 3)", 2, 3, (double[]){1, 0, 0, 1, 0, 0});
  expect(sc, "size(B)", 1, 2, (double[]){2, 3});
  expect(sc, "zeros(0, 3)", 0, 3, NULL);
  /* Native dialect: a scalar size n means n x n, as eye(n) always did. */
  expect(sc, "zeros(2)", 2, 2, (double[]){0, 0, 0, 0});
  expect(sc, "ones(A)", 2, 2, (double[]){1, 1, 1, 1});
  expect(sc, "eye(B)", 2, 3, (double[]){1, 0, 0, 1, 0, 0});
  /* Matrix division: [1 3; 2 4] \ [7; 10] = [1; 2]; x / A solves x A = b. */
  expect(sc, "A \\ [7; 10]", 2, 1, (double[]){1, 2});
  /* empty systems: GSL has no 0 x 0 matrix, and its default handler
   * aborted (found by fuzz/fuzz_expr) */
  expect(sc, "[] \\ []", 0, 0, NULL);
  expect(sc, "[] / []", 0, 0, NULL);
  expect(sc, "[[]] \\ [[]]", 0, 0, NULL);
  expect(sc, "[5 11] / A", 1, 2, (double[]){1, 2});
}

static void test_errors(const bsim_scope *sc) {
  expect_error(sc, "1 + kk", "unknown variable 'kk' at column 5");
  expect_error(sc, "k", "unknown variable 'k' at column 1"); /* sc = NULL */
  expect_error(sc, "1 + )", "unexpected ')' at column 5");
  expect_error(sc, "(1))", "unexpected ')' at column 4");
  expect_error(sc, "1 +", "unexpected end of expression at column 4");
  expect_error(sc, "2 3", "unexpected '3' at column 3");
  expect_error(sc, "foo(1)", "unknown function 'foo' at column 1");
  expect_error(sc, "sin", "function 'sin' at column 1 needs its arguments");
  expect_error(sc, "sin(1, 2)", "wrong number of arguments");
  expect_error(sc, "[1 2; 3]",
               "[1 2; 3] at column 1: row 2 has 1 column(s), "
               "row 1 has 2");
  expect_error(sc, "[[1;2] 3]", "element 2 has 1 row(s)");
  expect_error(sc, "[1 2", "missing ']' for the '[' at column 1");
  expect_error(sc, "(1 + 2", "missing ')' for the '(' at column 1");
  expect_error(sc, "[1,,2]", "unexpected ',' at column 4");
  expect_error(sc, "[1 2] + [1 2 3]",
               "operator '+' at column 7: sizes 1x2 and 1x3 do not match");
  expect_error(sc, "[1 2] * [1 2]",
               "operator '*' at column 7: sizes 1x2 and "
               "1x2 do not match");
  expect_error(sc, "1 / [1 2]",
               "operator '/' at column 3: sizes 1x1 and 1x2 do not match");
  expect_error(sc, "[1 2] / [1 2; 2 4]", "the matrix is singular");
  expect_error(sc, "[1 2]^2", "needs a square matrix");
  expect_error(sc, "[1 0; 0 1]^0.5", "an integer exponent");
  expect_error(sc, "[1 2; 2 4]^-1", "the matrix is singular");
  expect_error(sc, "sqrt(-1)", "complex result");
  expect_error(sc, "(-8)^(1/3)", "complex result");
  expect_error(sc, "zeros(1, 2, 3)", "wrong number of arguments");
  expect_error(sc, "zeros(-1, 2)", "non-negative integers");
  expect_error(sc, "ones(1e6, 1e6)", "too large");
  /* Cubic work is bounded (1e9 multiply-adds), so that loading takes
   * bounded time: the fuzzer's eye(2688) * eye(2688) ran for minutes. */
  expect_error(sc, "min(eye(2688) * (eye(2688) * 66e343))",
               "operator '*' at column 15: 1.94e+10 multiply-adds are too "
               "much work for a parameter expression (at most 1e+09)");
  expect_error(sc, "inv(eye(1001))", "function 'inv' at column 1: 1e+09");
  expect_error(sc, "det(eye(1001))", "too much work");
  expect_error(sc, "eye(1001) \\ ones(1001, 1)", "operator '\\'");
  expect_error(sc, "ones(1, 1001) / eye(1001)", "operator '/'");
  expect_error(sc, "eye(1000)^4", "operator '^'");
  expect_error(sc, "norm(ones(2000, 1000))", "function 'norm'");
  expect_error(sc, "1 # 2", "unexpected '#' at column 3");
  expect_error(sc, "", "unexpected end of expression at column 1");
  char deep[400];
  memset(deep, '(', sizeof deep - 1);
  deep[sizeof deep - 1] = '\0';
  expect_error(sc, deep, "nested too deeply");
  /* A tiny message buffer is truncated, never overrun. */
  bsim_value v;
  char small[8];
  CHECK(bsim_expr_eval("1 +", sc, &v, small, sizeof small) == -1 &&
            strlen(small) == sizeof small - 1,
        "truncated message");
  CHECK(bsim_expr_eval("1 +", sc, &v, NULL, 0) == -1, "NULL message buffer");
}

static void test_scopes(void) {
  bsim_scope *outer = bsim_scope_create(NULL);
  bsim_scope *inner = bsim_scope_create(outer);
  set(outer, "g", 1, 1, (double[]){9.81});
  set(outer, "m", 1, 1, (double[]){2});
  set(inner, "m", 1, 1, (double[]){3});
  expect1(inner, "m*g", 3 * 9.81); /* inner m shadows, outer g visible */
  expect1(outer, "m*g", 2 * 9.81); /* the outer scope is untouched */
  set(inner, "m", 1, 2, (double[]){4, 5}); /* redefining replaces */
  expect(inner, "m", 1, 2, (double[]){4, 5});
  CHECK(bsim_scope_get(inner, "nothing") == NULL, "missing name");
  /* Setting a name from its own value must not read freed memory. */
  CHECK(bsim_scope_set(inner, "m", bsim_scope_get(inner, "m")) == 0,
        "self-assignment");
  expect(inner, "m", 1, 2, (double[]){4, 5});
  bsim_value s = {0, 0, NULL, "text"}, c;
  CHECK(bsim_scope_set(inner, "s", &s) == 0, "string value");
  expect_error(inner, "s + 1", "strings are not supported in arithmetic");
  CHECK(bsim_value_copy(&c, bsim_scope_get(inner, "s")) == 0 && c.str &&
            strcmp(c.str, "text") == 0 && c.str != s.str,
        "copy of a string value");
  bsim_value_clear(&c);
  bsim_scope_free(inner);
  bsim_scope_free(outer);
}

/* Random text from the characters the grammar cares about, plus mutations
 * of valid expressions: none may crash, leak or leave a bad output. */
static void test_fuzz(const bsim_scope *sc) {
  static const char alphabet[] = "0123456789.eE+-*/^'()[];, \n\tabkfAB%pi_:\"";
  static const char *const seeds[] = {"[1 -1; a' b']", "2*%pi*f^-2",
                                      "sqrt([4 9])'*A", "max(1, -k) + eye(2)"};
  unsigned long state = 12345; /* fixed seed: failures are reproducible */
  char text[64];
  for (int iter = 0; iter < 50000; iter++) {
    state = state * 6364136223846793005UL + 1442695040888963407UL;
    size_t len = (state >> 33) % (sizeof text - 1);
    if (iter % 2) {
      for (size_t i = 0; i < len; i++) {
        state = state * 6364136223846793005UL + 1442695040888963407UL;
        text[i] = alphabet[(state >> 33) % (sizeof alphabet - 1)];
      }
      text[len] = '\0';
    } else {
      snprintf(text, sizeof text, "%s", seeds[(state >> 40) % 4]);
      size_t n = strlen(text);
      for (int m = 0; m < 3 && n > 0; m++) {
        state = state * 6364136223846793005UL + 1442695040888963407UL;
        text[(state >> 33) % n] =
            alphabet[(state >> 20) % (sizeof alphabet - 1)];
      }
    }
    bsim_value v;
    char msg[128];
    if (bsim_expr_eval(text, sc, &v, msg, sizeof msg) == 0) {
      CHECK(v.rows >= 0 && v.cols >= 0 &&
                (v.rows * v.cols == 0 || v.v != NULL || v.str != NULL),
            "fuzz '%s': bad value", text);
      bsim_value_clear(&v);
    } else {
      CHECK(msg[0] != '\0' && strlen(msg) < sizeof msg, "fuzz '%s': no message",
            text);
    }
  }
}

/* An R x N literal of 0, 1, 2, ... row by row; row `short_row` (from 1)
 * one element short when > 0. malloc'ed. */
static char *counting_literal(int R, int N, int short_row) {
  /* "%d " takes at most 9 bytes below 10^8 elements, plus ';' per row */
  size_t cap = (size_t)R * (size_t)N * 9 + (size_t)R + 16, n = 0;
  char *text = malloc(cap);
  if (!text) return NULL;
  text[n++] = '[';
  for (int r = 0; r < R; r++) {
    int len = r + 1 == short_row ? N - 1 : N;
    for (int c = 0; c < len; c++)
      n += (size_t)snprintf(text + n, cap - n, "%d ", r * N + c);
    text[n++] = r + 1 < R ? ';' : ']';
  }
  text[n] = '\0';
  return text;
}

/* Large literals, built by growing one row in place and stacking rows at
 * the end (issue 10, item 13: joining at every element was quadratic):
 * every element lands where column-major order puts it, whatever the mix
 * of scalars, vectors and matrices, and the size bound still holds. The
 * 300 000 elements are checked exactly (they are small integers). */
static void test_large_literals(const bsim_scope *sc) {
  enum { N = 100000, R = 3 };
  char *text = counting_literal(R, N, 0), msg[256];
  bsim_value v = {0};
  int ok = text && bsim_expr_eval(text, sc, &v, msg, sizeof msg) == 0;
  CHECK(ok && v.rows == R && v.cols == N, "3 x 100000 literal: %s",
        ok ? "wrong size" : msg);
  long bad = -1;
  for (long i = 0; ok && v.rows == R && v.cols == N && i < (long)R * N; i++)
    if (v.v[i] != (double)((i % R) * N + i / R) && bad < 0) bad = i;
  CHECK(bad < 0, "3 x 100000 literal: element %ld is %g", bad,
        bad >= 0 ? v.v[bad] : 0.0);
  bsim_value_clear(&v);
  free(text);
  text = counting_literal(R, N, 2);
  CHECK(text && bsim_expr_eval(text, sc, &v, msg, sizeof msg) != 0 &&
            strstr(msg, "row 2 has 99999 column(s), row 1 has 100000"),
        "short row 2: message '%s'", msg);
  free(text);
  /* pieces of every shape in one row, then stacked under it */
  expect(sc, "[a A B [7;7]; [] [1 2 3 4 5 6 7]; 8 9 10 11 12 13 14]", 4, 7,
         (double[]){1, 2,  1, 8, 1, 2,  2, 9, 3, 4,  3, 10, 1, 0,
                    4, 11, 0, 1, 5, 12, 2, 3, 6, 13, 7, 7,  7, 14});
  expect_error(sc, "[ones(1,6000000) ones(1,5000000)]", "too large");
  expect_error(sc, "[ones(6000000,1); ones(5000000,1)]", "too large");
}

/* Linear time. The quadratic parser of issue 10, item 13 took 0.8 s for
 * a row or a column of 40 000 elements here and about 4 times longer for
 * twice as many (5e-10 n^2 s): some 2 000 s for each literal below, far
 * past the 300 s TIMEOUT that tests/CMakeLists.txt gives test_expr, which
 * is what fails it; a linear parser takes well under a second for both,
 * even under ASan. Elements are small integers, checked exactly. */
static void test_literals_linear(const bsim_scope *sc) {
  enum { N = 2000000 };
  for (int column = 0; column <= 1; column++) {
    char *text = column ? counting_literal(N, 1, 0) : counting_literal(1, N, 0);
    char msg[256];
    bsim_value v = {0};
    int ok = text && bsim_expr_eval(text, sc, &v, msg, sizeof msg) == 0;
    int rows = column ? N : 1, cols = column ? 1 : N;
    CHECK(ok && v.rows == rows && v.cols == cols, "%d x %d literal: %s", rows,
          cols, ok ? "wrong size" : msg);
    long bad = -1;
    for (long i = 0; ok && v.rows == rows && i < N && bad < 0; i++)
      if (v.v[i] != (double)i) bad = i;
    CHECK(bad < 0, "%d x %d literal: element %ld is %g", rows, cols, bad,
          bad >= 0 ? v.v[bad] : 0.0);
    bsim_value_clear(&v);
    free(text);
  }
}

int main(void) {
  bsim_scope *sc = bsim_scope_create(NULL);
  set(sc, "f", 1, 1, (double[]){3});
  set(sc, "k", 1, 1, (double[]){0.5});
  set(sc, "a", 2, 1, (double[]){1, 2});
  set(sc, "b", 2, 1, (double[]){1, 2});
  set(sc, "A", 2, 2, (double[]){1, 2, 3, 4});
  set(sc, "B", 2, 3, (double[]){1, 0, 0, 1, 2, 3});
  test_numbers(sc);
  test_matrices(sc);
  test_large_literals(sc);
  test_literals_linear(sc);
  test_errors(NULL);
  test_scopes();
  test_fuzz(sc);
  bsim_scope_free(sc);
  if (failures) fprintf(stderr, "test_expr: %d failure(s)\n", failures);
  return failures != 0;
}
