/*
 * Context scripts: the statements of Scilab's Xcos demos run and give
 * Scilab's numbers (reference values printed by Scilab 6.1.1 with %.17g by
 * tests/data/scilab/context_ref.sce), control structures, indexed and
 * multiple assignment, rand's sequence, the Scilab dialect, polynomial
 * parameters with exact coefficients, and every error: a failing statement
 * makes its names unknown, a broken structure stops the script.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/expr.h"
#include "tests/unit/test_check.h"

/* Runs text in a new root scope (Scilab dialect if scilab), expecting no
 * failed statement unless nfail >= 0 says how many. */
static bsim_scope *run(const char *text, int scilab, int nfail) {
  bsim_scope *sc = bsim_scope_create(NULL);
  bsim_scope_set_scilab(sc, scilab);
  char msg[512];
  int failed = -1;
  int rc = bsim_script_run(text, 1, sc, msg, sizeof msg, &failed);
  CHECK(rc == 0, "script failed: %s\n%s", msg, text);
  CHECK(failed == (nfail < 0 ? 0 : nfail), "%d statement(s) failed, want %d",
        failed, nfail < 0 ? 0 : nfail);
  return sc;
}

/* Compares variable name with want (column-major) to rel relative to the
 * largest element of want (abs below 1e-300). */
static void expect(const bsim_scope *sc, const char *name, int rows, int cols,
                   const double *want, double rel) {
  const bsim_value *v = bsim_scope_get(sc, name);
  if (!v) {
    CHECK(0, "variable '%s' missing", name);
    return;
  }
  if (v->rows != rows || v->cols != cols) {
    CHECK(0, "'%s' is %dx%d, want %dx%d", name, v->rows, v->cols, rows, cols);
    return;
  }
  double big = 0;
  for (int i = 0; i < rows * cols; i++)
    big = fmax(big, fabs(want[i]));
  for (int i = 0; i < rows * cols; i++)
    CHECK(fabs(v->v[i] - want[i]) <= rel * big + 1e-300,
          "'%s'[%d] = %.17g, want %.17g", name, i, v->v[i], want[i]);
}

static void expect1(const bsim_scope *sc, const char *name, double want) {
  expect(sc, name, 1, 1, &want, 0);
}

static void expect_unknown(const bsim_scope *sc, const char *name,
                           const char *part) {
  bsim_value v;
  char msg[512];
  int rc = bsim_expr_eval(name, sc, &v, msg, sizeof msg);
  CHECK(rc == BSIM_EXPR_UNKNOWN, "'%s' should be unknown (rc %d)", name, rc);
  if (rc == 0) bsim_value_clear(&v);
  CHECK(strstr(msg, part) != NULL, "unknown '%s': message \"%s\" lacks \"%s\"",
        name, msg, part);
}

/* The contexts of Scilab's demos (tests/data/scilab/context_ref.sce printed
 * the references). Tolerances: 1e-15 for values Scilab computes with the
 * same operations; 1e-13 for expm (Scilab and GSL use different Pade
 * schemes, which agree to a few ulps of the largest element) and what is
 * derived from it; 1e-12 for ppol (Ackermann's formula here, Scilab's
 * orthogonal canonical form there: the gain is unique for one input, the
 * rounding is not). */
static void test_demo_contexts(void) {
  bsim_scope *sc =
      run("A=[-.17,.03,.1;0,0,.2;0,0,.05];B=[1;2;3];C=[1,1,2;0,2,3];\n"
          "dt=3; Ad=expm(dt*A)\n"
          "x0=[-2;1;2]\n"
          "iAd=inv(Ad);\n"
          "K=inv(Ad)*ppol(Ad',C',0*ones(x0))';\n",
          1, 1);
  expect(sc, "Ad", 3, 3,
         (double[]){0.60049557881226623, 0, 0, 0.070500780209600156, 1, 0,
                    0.27933554307761688, 0.64733697091313269,
                    1.1618342427282835},
         1e-13);
  expect(sc, "iAd", 3, 3,
         (double[]){1.6652911949458855, 0, 0, -0.11740432851986228, 1, 0,
                    -0.33496590444137936, -0.55716809429976877,
                    0.86070797642505747},
         1e-13);
  /* Two inputs: Scilab's choice among the gains is not reproduced. */
  expect_unknown(sc, "K", "line 5 (K=inv(Ad)*ppol(Ad',C',0*ones(x0))')");
  expect_unknown(sc, "2*K", "not reproduced");
  bsim_scope_free(sc);

  sc = run("A=[-.3,3,1;0,0,2;0,0,0];B=[1;2;3];C=[1,1,2;0,2,3];D=0;"
           "x0=[-2;1;2]\n"
           "K=ppol(A',C',-.7*ones(x0))';\n"
           "L=-ppol(A,B,-.7*ones(x0));\n",
           1, 1);
  expect(sc, "L", 1, 3,
         (double[]){-0.004158544509421689, -0.14897011046133854,
                    -0.49930041152263377},
         1e-12);
  expect(sc, "x0", 3, 1, (double[]){-2, 1, 2}, 0);
  expect_unknown(sc, "K", "line 2");
  bsim_scope_free(sc);

  sc = run("A=[0 1 0;0 1 1;-.1 -.3 -.5];\nB=[1;1;0];\n"
           "C=[1 0 0;0 1 0;0 0 1];\nD=[0.1;0.1;0.1];\n"
           "R=ones(size(C,1),size(C,1));;\n",
           1, -1);
  expect(sc, "R", 3, 3, (double[]){1, 1, 1, 1, 1, 1, 1, 1, 1}, 0);
  bsim_scope_free(sc);

  sc = run("//set sampling time;\nTsampl=3e-3;\nc=8/3;\n"
           "ci1=[5.5;5.49;5.51;5.511];\nvcol=[1;3;5;9];\n",
           1, -1);
  expect1(sc, "c", 8.0 / 3);
  expect1(sc, "Tsampl", 3e-3);
  bsim_scope_free(sc);

  /* susp: defaults only where the caller has not set a value. */
  sc = bsim_scope_create(NULL);
  bsim_scope_set_scilab(sc, 1);
  bsim_value m = {1, 1, (double[]){1500}, NULL};
  CHECK(bsim_scope_pin(sc, "M_b", &m) == 0, "pin");
  char msg[256];
  CHECK(bsim_script_run("if ~exists('L_f'), L_f = 0.9, end // front hub\n"
                        "if ~exists('M_b'), M_b = 1200, end // body mass\n"
                        "M_b = 7 // an override wins over the script\n",
                        1, sc, msg, sizeof msg, NULL) == 0,
        "susp: %s", msg);
  expect1(sc, "L_f", 0.9);
  expect1(sc, "M_b", 1500);
  bsim_scope_free(sc);
}

/* bounce: rand from Scilab's initial state, linspace, max, indexing. */
static void test_rand_bounce(void) {
  bsim_scope *sc = run("r = rand(5, 1); s = rand(); rand('seed', 0);\n"
                       "t = rand(1, 2); u = rand; v = rand(2);\n",
                       1, -1);
  /* Scilab 6.1.1: rand(5,1) in a fresh session, printed with %.17g; the
   * generator is exact (integer state / 2^31), so equality is expected. */
  expect(sc, "r", 5, 1,
         (double[]){0.2113248654641211, 0.75604385416954756,
                    0.00022113462910056114, 0.33032709173858166,
                    0.66538110421970487},
         0);
  expect(sc, "t", 1, 2, (double[]){0.2113248654641211, 0.75604385416954756}, 0);
  expect1(sc, "u", 0.00022113462910056114);
  expect(sc, "v", 1, 1, (double[]){0.33032709173858166}, 0); /* Scilab: 1x1 */
  bsim_scope_free(sc);
  /* The normal law: both deviates of each pair, as Scilab 6.1.1 printed
   * rand(5,1,'normal') from a fresh session (same arithmetic: 1e-15). */
  sc = run("n = rand(5, 1, 'normal'); rand('seed', 0); rand('normal');\n"
           "m = rand(1, 3);",
           1, -1);
  expect(sc, "n", 5, 1,
         (double[]){-0.76164910984482592, 0.67555376365551223,
                    1.4739762438341595, 1.1443051297248743,
                    0.85297757749965242},
         1e-15);
  expect(
      sc, "m", 1, 3,
      (double[]){-0.76164910984482592, 0.67555376365551223, 1.4739762438341595},
      1e-15);
  bsim_scope_free(sc);

  sc = run("N=5;\nwalls=[-10,10,0,15];\n"
           "siz=(walls(2)-walls(1))/(3/2*N) * rand(N,1);\n"
           "mass=siz.^2;;\n"
           "xpos=linspace(walls(1)+1.1*max(siz),walls(2)-1.1*max(siz),N);\n",
           1, -1);
  double siz[5], big = 0;
  const double r[5] = {0.2113248654641211, 0.75604385416954756,
                       0.00022113462910056114, 0.33032709173858166,
                       0.66538110421970487};
  for (int i = 0; i < 5; i++) {
    siz[i] = 20.0 / 7.5 * r[i];
    big = fmax(big, siz[i]);
  }
  expect(sc, "siz", 5, 1, siz, 1e-15);
  double x[5];
  for (int i = 0; i < 5; i++)
    x[i] = -10 + 1.1 * big + (20 - 2.2 * big) * i / 4.0;
  expect(sc, "xpos", 1, 5, x, 1e-15);
  bsim_scope_free(sc);
}

static void test_statements(void) {
  bsim_scope *sc = run(
      "a = 1, b = 2; c = a + b // three statements\n"
      "if c > 2 then d = 1; elseif c > 1 then d = 2; else d = 3; end\n"
      "if c < 0\n  e = 1\nelse\n  e = 2\nend\n"
      "f = 0; for k = 1:4, f = f + k; end\n"
      "g = 0; for col = [1 2; 3 4], g = g + col(2); end\n"
      "h = 1; while h < 100, h = 2*h; end\n"
      "i = 0; for k = 1:10, if k > 3 then break, end, i = k; end\n"
      "j = 0; for k = 1:5, if modulo(k, 2) == 0 then continue, end\n"
      "  j = j + k; end\n"
      "m(3) = 5; n = [1 2; 3 4]; n(2, 3) = 9; n(1, :) = 7;\n"
      "[r, cc] = size(n); [mx, where] = max([3 8 1]);\n"
      "w = 'text'; same = w == 'text'; z = [1 2 3]; last = z($);\n"
      "v = [1 ..\n 2]; t = ~(1 == 2) & (1 < 2 | 0); u = [1, 2] <> [1, 3];\n",
      1, -1);
  expect1(sc, "c", 3);
  expect1(sc, "d", 1);
  expect1(sc, "e", 2);
  expect1(sc, "f", 10);
  expect1(sc, "g", 7); /* col(2) of [1;3] and of [2;4] */
  expect1(sc, "h", 128);
  expect1(sc, "i", 3);
  expect1(sc, "j", 9);
  expect(sc, "m", 1, 3, (double[]){0, 0, 5}, 0);
  expect(sc, "n", 2, 3, (double[]){7, 3, 7, 4, 7, 9}, 0);
  expect1(sc, "r", 2);
  expect1(sc, "cc", 3);
  expect1(sc, "mx", 8);
  expect1(sc, "where", 2);
  expect1(sc, "same", 1);
  expect1(sc, "last", 3);
  expect(sc, "v", 1, 2, (double[]){1, 2}, 0);
  expect1(sc, "t", 1);
  expect(sc, "u", 1, 2, (double[]){0, 1}, 0);
  const bsim_value *w = bsim_scope_get(sc, "w");
  CHECK(w && w->str && !strcmp(w->str, "text"), "string variable");
  bsim_scope_free(sc);
}

static void test_functions(void) {
  bsim_scope *sc = run(
      "a = eye(3); b = eye(2, 3); c = zeros([1 2 3]); d = ones(2);\n"
      "K = [1 2; 3 4]; C = [1 0; 0 1]; e = [eye()-K*C, K];\n"
      "f = size([1 2 3], '*'); g = size(ones(2, 3), 'c');\n"
      "h = sum([1 2; 3 4]); i = sum([1 2; 3 4], 'r'); j = prod([1 2 3 4]);\n"
      "k = matrix(1:6, 2, 3); l = cat(2, [1; 2], [3; 4]);\n"
      "m = modulo(-7, 3); n = pmodulo(-7, 3); o = length([1 2 3]);\n"
      "p = linspace(0, 1, 4); q = abs(-2) + sqrt(4) + exp(0) + log(1);\n"
      "r = min([4 2 8]); s = max(1, [0 3]); t = det([2 1; 1 3]);\n"
      "u = (1:3)'; v = u(:)'; x = ones(2, 3); x2 = x(:, 2); y = 10:-3:1;\n",
      1, -1);
  expect1(sc, "a", 1); /* Scilab: eye(3) takes the size of 3 */
  expect(sc, "b", 2, 3, (double[]){1, 0, 0, 1, 0, 0}, 0);
  expect(sc, "c", 1, 3, (double[]){0, 0, 0}, 0);
  expect1(sc, "d", 1);
  expect(sc, "e", 2, 4, (double[]){0, -3, -2, -3, 1, 3, 2, 4}, 0);
  expect1(sc, "f", 3);
  expect1(sc, "g", 3);
  expect1(sc, "h", 10);
  expect(sc, "i", 1, 2, (double[]){4, 6}, 0);
  expect1(sc, "j", 24);
  expect(sc, "k", 2, 3, (double[]){1, 2, 3, 4, 5, 6}, 0);
  expect(sc, "l", 2, 2, (double[]){1, 2, 3, 4}, 0);
  expect1(sc, "m", -1); /* Scilab printed modulo(-7,3) = -1, pmodulo 2 */
  expect1(sc, "n", 2);
  expect1(sc, "o", 3);
  expect(sc, "p", 1, 4,
         (double[]){0, 0.33333333333333331, 0.66666666666666663, 1}, 0);
  expect1(sc, "q", 5);
  expect1(sc, "r", 2);
  expect(sc, "s", 1, 2, (double[]){1, 3}, 0);
  expect(sc, "t", 1, 1, (double[]){5}, 1e-15);
  expect(sc, "v", 1, 3, (double[]){1, 2, 3}, 0);
  expect(sc, "x2", 2, 1, (double[]){1, 1}, 0);
  expect(sc, "y", 1, 4, (double[]){10, 7, 4, 1}, 0);
  bsim_scope_free(sc);
  /* The native dialect keeps eye(n) n x n. */
  sc = run("a = eye(2); b = zeros(2); c = ones(1);", 0, -1);
  expect(sc, "a", 2, 2, (double[]){1, 0, 0, 1}, 0);
  expect(sc, "b", 2, 2, (double[]){0, 0, 0, 0}, 0);
  expect1(sc, "c", 1);
  bsim_scope_free(sc);
}

/* Polynomial parameters: exact coefficients, highest power first. */
static void expect_poly(const bsim_scope *sc, const char *text, int n,
                        const double *want) {
  bsim_value v;
  char msg[256];
  if (bsim_expr_eval_param(BSIM_PARAM_POLY, text, sc, &v, msg, sizeof msg)) {
    CHECK(0, "poly '%s' failed: %s", text, msg);
    return;
  }
  CHECK(v.rows == 1 && v.cols == n, "poly '%s' is %dx%d, want 1x%d", text,
        v.rows, v.cols, n);
  for (int i = 0; v.rows == 1 && v.cols == n && i < n; i++)
    CHECK(v.v[i] == want[i], "poly '%s'[%d] = %.17g, want %.17g", text, i,
          v.v[i], want[i]);
  bsim_value_clear(&v);
}

static void expect_poly_error(const bsim_scope *sc, const char *text,
                              const char *part) {
  bsim_value v;
  char msg[256];
  int rc = bsim_expr_eval_param(BSIM_PARAM_POLY, text, sc, &v, msg, sizeof msg);
  CHECK(rc == -1, "poly '%s' should fail", text);
  if (rc == 0) bsim_value_clear(&v);
  CHECK(strstr(msg, part), "poly '%s': \"%s\" lacks \"%s\"", text, msg, part);
}

static void test_polynomials(void) {
  bsim_scope *sc = run("a = 2; num = [1 2];", 1, -1);
  expect_poly(sc, "1+2*s+s^2", 3, (double[]){1, 2, 1});
  expect_poly(sc, "(1+s)*(2+s)", 3, (double[]){1, 3, 2});
  expect_poly(sc, "poly([1 2],'s','c')", 2, (double[]){2, 1});
  expect_poly(sc, "poly([1 2],'s')", 3, (double[]){1, -3, 2});
  expect_poly(sc, "[1 2 3]", 3, (double[]){1, 2, 3});
  expect_poly(sc, "num", 2, (double[]){1, 2});
  expect_poly(sc, "3", 1, (double[]){3});
  expect_poly(sc, ".3+z", 2, (double[]){1, 0.3});
  expect_poly(sc, "%z^2 - 1", 3, (double[]){1, 0, -1});
  expect_poly(sc, "s+0.001*s*s", 3, (double[]){0.001, 1, 0});
  expect_poly(sc, "a*(1+s)/2 - s", 1, (double[]){1}); /* degree drops */
  expect_poly(sc, "-(s-1)", 2, (double[]){-1, 1});
  expect_poly(sc, "1+1.5*s+0.5*s^2+0.05*s^3", 4, (double[]){0.05, 0.5, 1.5, 1});
  expect_poly_error(sc, "1/(1+s)", "rational functions are not supported");
  expect_poly_error(sc, "s+z", "polynomials in s and in z");
  expect_poly_error(sc, "[1 2; 3 4]", "a polynomial is expected");
  expect_poly_error(sc, "sin(s)", "does not take a polynomial");
  expect_poly_error(sc, "s^-1", "an integer from 0 to 1000");
  expect_poly_error(sc, "[s 1]",
                    "a polynomial where a real matrix is expected");
  bsim_value v;
  char msg[256];
  CHECK(bsim_expr_eval("1+%s", sc, &v, msg, sizeof msg) == -1 &&
            strstr(msg, "polynomial in s; a real matrix is expected"),
        "a real parameter refuses a polynomial: %s", msg);
  bsim_scope_free(sc);
}

/* Failed statements: names unknown, the rest of the script goes on. */
static void expect_statement_error(const char *text, const char *name,
                                   const char *part) {
  bsim_scope *sc = run(text, 1, 1);
  expect_unknown(sc, name, part);
  bsim_scope_free(sc);
}

static void test_errors(void) {
  expect_statement_error("a = 1\nb = foo(a)\nc = a", "b",
                         "line 2 (b = foo(a)): unknown function 'foo'");
  expect_statement_error("a = [1 2 +]", "a", "line 1 (a = [1 2 +])");
  expect_statement_error("x = [1 2] * [3 4]", "x",
                         "sizes 1x2 and 1x2 do not match");
  expect_statement_error("y = inv([1 2 3])", "y", "non-empty square matrix");
  expect_statement_error("z = ones(1, 2, 3)", "z", "wrong number of arguments");
  expect_statement_error("w(0) = 1", "w", "not a positive integer");
  /* a bad index of two freed its selection twice (fuzz_expr, 28 Nov:
   * "tan(0,2)=1"; ASan's double free) */
  expect_statement_error("w(0, 2) = 1", "w", "not a positive integer");
  expect_statement_error("w = [1 2; 3 4]\nw(1, 0.5) = 1", "w",
                         "0.5 is not a positive integer");
  expect_statement_error("v = [1 2](3)", "v", "unexpected '('");
  expect_statement_error("u = [1 2 3]; u = u(4)", "u", "out of range");
  expect_statement_error("if undefined_x > 1 then t = 1, else t = 2, end", "t",
                         "unknown variable 'undefined_x'");
  expect_statement_error("for k = 'abc', q = k, end", "q",
                         "columns of a real matrix");
  expect_statement_error("[a, b] = sin(1)", "a", "gives one result, not 2");
  expect_statement_error("p = ppol([1 2; 3 4], [1; 1], [1 2 3])", "p",
                         "there must be 2 poles");
  /* The rest of the script still runs, and a later use reports the cause. */
  bsim_scope *sc = run("a = foo(1)\nb = 2\nc = a + b\n", 1, 2);
  expect1(sc, "b", 2);
  expect_unknown(sc, "c",
                 "line 3 (c = a + b): variable 'a' at column 5 is "
                 "unknown");
  bsim_scope_free(sc);

  /* Structures that cannot be followed stop the script. */
  static const struct {
    const char *text, *part;
  } fatal[] = {
      {"a = 1\nif a > 0 then b = 1\n", "line 2: this 'if' has no matching"},
      {"end", "line 1: 'end' without a matching"},
      {"x = 1\nelse", "line 2: 'else' without a matching 'if'"},
      {"a = [1 2\nb = 3", "line 1: a bracket or parenthesis is never closed"},
      {"function y = f(x)\ny = x\nendfunction", "'function' is not supported"},
      {"break", "'break' outside a loop"},
      {"for = 3", "'for' needs a loop variable"},
      {"for k 1:3, end", "needs '=' and the values"},
      {"if then, end", "'if' without a condition"},
      {"k = 0; while 1 > 0, k = k + 1; end", "loop endless?"},
  };
  for (size_t i = 0; i < sizeof fatal / sizeof *fatal; i++) {
    bsim_scope *s = bsim_scope_create(NULL);
    char msg[256];
    int rc = bsim_script_run(fatal[i].text, 1, s, msg, sizeof msg, NULL);
    CHECK(rc == -1, "'%s' should stop the script", fatal[i].text);
    CHECK(strstr(msg, fatal[i].part), "'%s': \"%s\" lacks \"%s\"",
          fatal[i].text, msg, fatal[i].part);
    bsim_scope_free(s);
  }
}

/* Random scripts built from the pieces the splitter and the grammar care
 * about, and mutations of a valid one: none may crash or leak (the
 * sanitizer build makes this mean something); each gives 0 or -1 with a
 * message. */
static void test_fuzz(void) {
  static const char *const pieces[] = {
      "if ",   "then ", "else ",    "elseif ", "end",   "for ",   "while ",
      "do ",   "break", "continue", "x",       "y(2)",  "[a, b]", " = ",
      "==",    "~",     "&",        "|",       "'s'",   "\"t\"",  "(",
      ")",     "[",     "]",        ";",       ",",     "\n",     "1:3",
      "$",     ":",     "size(x)",  "rand(2)", "ppol(", "poly(",  "%s",
      "..\n",  "//c\n", "1",        "-",       "*",     "^",      "'",
      "eye()", "x(:)"};
  unsigned long state = 2024; /* fixed seed: failures are reproducible */
  char text[256];
  for (int iter = 0; iter < 20000; iter++) {
    size_t len = 0;
    text[0] = '\0';
    int n = (int)((state >> 33) % 24);
    for (int k = 0; k < n; k++) {
      state = state * 6364136223846793005UL + 1442695040888963407UL;
      const char *p = pieces[(state >> 33) % (sizeof pieces / sizeof *pieces)];
      size_t pl = strlen(p);
      if (len + pl + 1 >= sizeof text) break;
      memcpy(text + len, p, pl + 1);
      len += pl;
    }
    state = state * 6364136223846793005UL + 1442695040888963407UL;
    bsim_scope *sc = bsim_scope_create(NULL);
    bsim_scope_set_scilab(sc, (int)(state >> 63));
    char msg[128];
    int rc = bsim_script_run(text, 1, sc, msg, sizeof msg, NULL);
    CHECK(rc == 0 || (rc == -1 && msg[0] != '\0'),
          "fuzz '%s': rc %d, no message", text, rc);
    bsim_scope_free(sc);
  }
}

int main(void) {
  test_fuzz();
  test_demo_contexts();
  test_rand_bounce();
  test_statements();
  test_functions();
  test_polynomials();
  test_errors();
  if (failures) fprintf(stderr, "test_script: %d failure(s)\n", failures);
  return failures != 0;
}
