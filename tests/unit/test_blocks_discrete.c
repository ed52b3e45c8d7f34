/*
 * The discrete blocks (blocks/discrete.c) on hand-built block views, driven
 * through sequences of activations as the scheduler serves them (flag 1,
 * then flag 2): the unit delay's sequence, the hold of SAMPHOLD_m, DLR and
 * DLSS against their difference equations worked out here, Counter's
 * wrap-around, that outputs hold between activations, and the define steps
 * against blocks Scilab stored in its demo diagrams (tests/data/layout).
 */
#define BLOCK_HARNESS_FROM_DEFINE
#include "tests/unit/block_harness.h"

/* The blocks and the reference recurrences below do the same few
 * multiply-adds on numbers of order 1 over at most 20 steps of stable
 * systems, only grouped differently: they agree to ~1e-15; 1e-12 relative
 * is a safe bound that still catches any wrong coefficient. */
#define TOL 1e-12

static int near(double a, double b) {
  return fabs(a - b) <= TOL * fmax(1.0, fabs(b));
}

#define CHECK_NEAR(got, want, ...)                                             \
  CHECK(near((got), (want)), "got %.17g, want %.17g: %s", (double)(got),       \
        (double)(want), __VA_ARGS__)

/* A parameter value: rows x cols, column-major data. */
#define MAT(r, c, ...) ((bsim_value){r, c, (double[]){__VA_ARGS__}, NULL})
#define SCALAR(x) MAT(1, 1, x)

static int define(const char *type, bsim_model *m, bsim_error *err, int n,
                  const char *const *names, const bsim_value *vals) {
  return define_named(type, m, err, n, names, vals, 9);
}

/* The view of a block built by its define step; ports of unknown size
 * (SAMPHOLD_m) take rows x cols = nrows x 1. */
static bsim_block *mk(harness *h, const char *type, int n,
                      const char *const *names, const bsim_value *vals,
                      int nrows) {
  memset(h, 0, sizeof *h);
  bsim_error err;
  CHECK(define(type, &h->m, &err, n, names, vals) == 0, "%s: define: %s", type,
        err.message);
  bsim_block *b = view_of_model(h, type);
  if (h->m.nin) {
    h->insz[0] = h->m.in[0] > 0 ? h->m.in[0] : nrows;
    h->insz[1] = h->m.in2[0] > 0 ? h->m.in2[0] : 1;
  }
  if (h->m.nout) {
    h->outsz[0] = h->m.out[0] > 0 ? h->m.out[0] : nrows;
    h->outsz[1] = h->m.out2[0] > 0 ? h->m.out2[0] : 1;
  }
  if (h->rb.fn) h->rb.fn(b, BSIM_FLAG_INIT);
  return b;
}

/* An activation: outputs, then the state update (no event outputs here). */
static void activate(harness *h, double t) {
  h->b->t = t;
  h->b->nevprt = 1; /* inherited blocks (no event input) get 1 too */
  h->rb.fn(h->b, BSIM_FLAG_OUTPUTS);
  h->rb.fn(h->b, BSIM_FLAG_UPDATE);
  h->b->nevprt = 0;
}

/* What the scheduler may do between activations: ask for outputs. */
static void idle_outputs(harness *h) {
  h->b->nevprt = 0;
  h->rb.fn(h->b, BSIM_FLAG_OUTPUTS);
}

#define P(...) ((const char *const[]){__VA_ARGS__})
#define VALS(...) ((const bsim_value[]){__VA_ARGS__})

static void test_dollar(void) {
  harness h;
  mk(&h, "DOLLAR_m", 2, P("x0", "inherit"), VALS(MAT(2, 1, 7, 8), SCALAR(0)),
     0);
  CHECK(h.m.nz == 2 && h.m.nin == 1 && h.m.in[0] == 2 && h.m.in2[0] == 1 &&
            h.m.out[0] == 2 && h.m.dep_u[0] == 0 && h.m.nevin == 1,
        "DOLLAR_m model");
  CHECK(h.out[0] == 7 && h.out[1] == 8, "DOLLAR_m initial output [%g %g]",
        h.out[0], h.out[1]);
  /* y[k] = u[k-1], y[0] = x0 (exact copies) */
  double prev[2] = {7, 8};
  for (int k = 0; k < 6; k++) {
    h.in[0] = 1.5 * k, h.in[1] = -k;
    activate(&h, k);
    CHECK(h.out[0] == prev[0] && h.out[1] == prev[1],
          "DOLLAR_m step %d: y = [%g %g], want [%g %g]", k, h.out[0], h.out[1],
          prev[0], prev[1]);
    prev[0] = h.in[0], prev[1] = h.in[1];
    /* between activations the output is still the delayed value */
    h.in[0] = 99;
    idle_outputs(&h);
    CHECK(h.out[0] == (k == 0 ? 7 : 1.5 * (k - 1)),
          "DOLLAR_m output moved between activations: %g", h.out[0]);
  }
  done(&h);

  mk(&h, "DOLLAR", 2, P("x0", "inherit"),
     VALS(MAT(2, 2, 1, 2, 3, 4), SCALAR(1)), 0);
  CHECK(h.m.nevin == 0 && h.m.in[0] == 2 && h.m.in2[0] == 2 &&
            h.m.out2[0] == 2 && h.m.nz == 4,
        "DOLLAR 2x2 inherited model");
  done(&h);
  bsim_model m;
  bsim_error err;
  CHECK(define("DOLLAR_m", &m, &err, 2, P("x0", "inherit"),
               VALS(SCALAR(0), SCALAR(2))) != 0 &&
            strstr(err.message, "inherit"),
        "DOLLAR_m inherit = 2 accepted: %s", err.message);
}

static void test_samphold(void) {
  harness h;
  mk(&h, "SAMPHOLD_m", 0, NULL, NULL, 3);
  CHECK(h.m.dep_u[0] == 1 && h.m.in[0] == -1 && h.m.in2[0] == -2 &&
            h.m.out[0] == -1 && h.m.nevin == 1,
        "SAMPHOLD_m model");
  h.in[0] = 3, h.in[1] = -1, h.in[2] = 0.5;
  idle_outputs(&h);
  CHECK(h.out[0] == 0, "SAMPHOLD_m sampled without activation");
  activate(&h, 1);
  CHECK(h.out[0] == 3 && h.out[1] == -1 && h.out[2] == 0.5,
        "SAMPHOLD_m sample");
  h.in[0] = 5;
  idle_outputs(&h);
  CHECK(h.out[0] == 3, "SAMPHOLD_m did not hold: %g", h.out[0]);
  activate(&h, 2);
  CHECK(h.out[0] == 5, "SAMPHOLD_m second sample %g", h.out[0]);
  done(&h);
}

/* DLR against the difference equation of num(z)/den(z): with monic den
 * z^n + a1 z^(n-1) + ... + an and num b0 z^n + ... + bn (padded),
 * y[k] = sum_i b_i u[k-i] - sum_{i>=1} a_i y[k-i]. */
static void dlr_against_recurrence(const char *what, int lnum,
                                   const double *num, int lden,
                                   const double *den, int expect_dep_u) {
  harness h;
  bsim_value nv = {1, lnum, (double *)num, NULL};
  bsim_value dv = {1, lden, (double *)den, NULL};
  mk(&h, "DLR", 2, P("num", "den"), VALS(nv, dv), 0);
  int n = lden - 1;
  CHECK(h.m.nz == n && h.m.dep_u[0] == expect_dep_u && h.m.nevin == 1,
        "%s: nz %d dep_u %d", what, h.m.nz, h.m.dep_u[0]);
  double a[8] = {0}, b[8] = {0}, u[24], y[24];
  for (int i = 0; i <= n; i++)
    a[i] = den[i] / den[0];
  for (int i = 0; i < lnum; i++)
    b[n - (lnum - 1) + i] = num[i] / den[0];
  for (int k = 0; k < 20; k++) {
    u[k] = k < 3 ? 1.0 : sin(0.7 * k); /* a step, then a varying input */
    y[k] = 0;
    for (int i = 0; i <= n && i <= k; i++)
      y[k] += b[i] * u[k - i];
    for (int i = 1; i <= n && i <= k; i++)
      y[k] -= a[i] * y[k - i];
    h.in[0] = u[k];
    activate(&h, k);
    CHECK_NEAR(h.out[0], y[k], what);
  }
  done(&h);
}

static void test_dlr(void) {
  /* 1/(z - 0.5): step response 0, 1, 1.5, 1.75, 1.875 by hand */
  harness h;
  mk(&h, "DLR", 2, P("num", "den"), VALS(MAT(1, 1, 1), MAT(1, 2, 1, -0.5)), 0);
  CHECK(h.m.nrpar == 4 && h.m.rpar[0] == 0.5 && h.m.rpar[1] == 1 &&
            h.m.rpar[2] == 1 && h.m.rpar[3] == 0 && h.m.nz == 1 &&
            h.m.z0[0] == 0 && h.m.dep_u[0] == 0,
        "DLR 1/(z-0.5) layout");
  static const double want[5] = {0, 1, 1.5, 1.75, 1.875};
  for (int k = 0; k < 5; k++) {
    h.in[0] = 1;
    activate(&h, k);
    CHECK(h.out[0] == want[k], "DLR step y[%d] = %.17g, want %g", k, h.out[0],
          want[k]);
    h.in[0] = 50;
    idle_outputs(&h);
    CHECK(h.out[0] == want[k], "DLR output moved between activations");
  }
  done(&h);

  dlr_against_recurrence("DLR (z+2)/(z+0.5)", 2, (double[]){1, 2}, 2,
                         (double[]){1, 0.5}, 1);
  dlr_against_recurrence("DLR 0.3/(2z^2 - z + 0.1)", 1, (double[]){0.3}, 3,
                         (double[]){2, -1, 0.1}, 0);
  dlr_against_recurrence("DLR (z^2+0.2z)/(z^2-1.2z+0.5)", 3,
                         (double[]){1, 0.2, 0}, 3, (double[]){1, -1.2, 0.5}, 1);
  /* static gain: no state */
  dlr_against_recurrence("DLR 3/2", 1, (double[]){3}, 1, (double[]){2}, 1);

  bsim_model m;
  bsim_error err;
  CHECK(define("DLR", &m, &err, 2, P("num", "den"),
               VALS(MAT(1, 2, 1, 0), MAT(1, 1, 1))) != 0 &&
            strstr(err.message, "improper") &&
            strstr(err.message, "test.xml:9"),
        "improper DLR: %s", err.message);
}

/* DLSS against x+ = A x + B u, y = C x + D u written out for 2 states. */
static void test_dlss(void) {
  harness h;
  /* A = [0.5 0.1; 0 0.8], B = [1; 0.5], C = [1 1], D = 0.2, x0 = [1; -1] */
  mk(&h, "DLSS", 5, P("A", "B", "C", "D", "x0"),
     VALS(MAT(2, 2, 0.5, 0, 0.1, 0.8), MAT(2, 1, 1, 0.5), MAT(1, 2, 1, 1),
          SCALAR(0.2), MAT(2, 1, 1, -1)),
     0);
  CHECK(h.m.nrpar == 9 && h.m.nz == 2 && h.m.z0[1] == -1 && h.m.dep_u[0] == 1 &&
            h.m.in[0] == 1 && h.m.out[0] == 1,
        "DLSS model");
  double x1 = 1, x2 = -1;
  for (int k = 0; k < 12; k++) {
    double u = cos(0.3 * k);
    h.in[0] = u;
    activate(&h, k);
    CHECK_NEAR(h.out[0], x1 + x2 + 0.2 * u, "DLSS y");
    double n1 = 0.5 * x1 + 0.1 * x2 + u, n2 = 0.8 * x2 + 0.5 * u;
    x1 = n1, x2 = n2;
    CHECK_NEAR(h.z[0], x1, "DLSS x1");
    CHECK_NEAR(h.z[1], x2, "DLSS x2");
  }
  done(&h);

  bsim_model m;
  bsim_error err;
  CHECK(define("DLSS", &m, &err, 5, P("A", "B", "C", "D", "x0"),
               VALS(MAT(2, 2, 1, 0, 0, 1), MAT(3, 1, 1, 1, 1), MAT(1, 2, 1, 1),
                    SCALAR(0), MAT(2, 1, 0, 0))) != 0 &&
            strstr(err.message, "'B'"),
        "DLSS with a 3x1 B for a 2x2 A: %s", err.message);
}

static void counter_seq(double lo, double hi, double rule, const double *want,
                        int n) {
  harness h;
  mk(&h, "Counter", 3, P("minimum", "maximum", "rule"),
     VALS(SCALAR(lo), SCALAR(hi), SCALAR(rule)), 0);
  CHECK(h.m.nipar == 3 && h.m.ipar[0] == (int)rule && h.m.ipar[1] == (int)hi &&
            h.m.ipar[2] == (int)lo && h.m.nz == 1 && h.m.z0[0] == 0,
        "Counter layout");
  for (int k = 0; k < n; k++) {
    activate(&h, k);
    CHECK(h.out[0] == want[k], "Counter %g..%g rule %g: y[%d] = %g, want %g",
          lo, hi, rule, k, h.out[0], want[k]);
    idle_outputs(&h);
    CHECK(h.out[0] == want[k], "Counter output moved between activations");
  }
  done(&h);
}

static void test_counter(void) {
  counter_seq(1, 3, 1, (double[]){1, 2, 3, 1, 2, 3, 1}, 7);
  counter_seq(1, 3, 2, (double[]){3, 2, 1, 3, 2, 1, 3}, 7);
  counter_seq(-2, 0, 1, (double[]){-2, -1, 0, -2}, 4);
  counter_seq(5, 5, 2, (double[]){5, 5, 5}, 3);
  bsim_model m;
  bsim_error err;
  CHECK(define("Counter", &m, &err, 3, P("minimum", "maximum", "rule"),
               VALS(SCALAR(3), SCALAR(1), SCALAR(1))) != 0,
        "Counter with maximum < minimum accepted");
  CHECK(define("Counter", &m, &err, 3, P("minimum", "maximum", "rule"),
               VALS(SCALAR(0), SCALAR(1), SCALAR(3))) != 0,
        "Counter with rule 3 accepted");
}

/* ---------------------------------------------- layouts against Scilab's */

/* The format of tests/data/layout/README.md, plus "z0 v..." for the
 * discrete state; only the keys used here. */
static void layout(const char *file) {
  char path[1024], line[1024], type[64] = "";
  snprintf(path, sizeof path, "%s/layout/%s", BSIM_TEST_DATA, file);
  FILE *f = fopen(path, "r");
  CHECK(f != NULL, "cannot open %s", path);
  if (!f) return;
  const char *names[MAXP];
  char namebuf[MAXP][32];
  double data[MAXP][32];
  bsim_value vals[MAXP];
  int np = 0;
  expect rpar = {0, 1, {0}}, ipar = {0, 1, {0}}, z0 = {0, 1, {0}}, in = {0},
         out = {0}, dep_u = {0}, nevin = {0};
  while (fgets(line, sizeof line, f)) {
    char *hash = strchr(line, '#'), key[32], name[32];
    int used = 0, u2 = 0, rows, cols;
    if (hash) *hash = '\0';
    if (sscanf(line, "%31s%n", key, &used) != 1) continue;
    char *rest = line + used;
    if (!strcmp(key, "type")) {
      sscanf(rest, "%63s", type);
    } else if (!strcmp(key, "param") && np < MAXP &&
               sscanf(rest, "%31s %d %d%n", name, &rows, &cols, &u2) == 3) {
      snprintf(namebuf[np], sizeof namebuf[np], "%s", name);
      names[np] = namebuf[np];
      expect e;
      numbers(rest + u2, &e);
      memcpy(data[np], e.v, sizeof data[np]);
      vals[np] = (bsim_value){rows, cols, data[np], NULL};
      CHECK(e.n == rows * cols, "%s: param %s has %d values for %dx%d", file,
            name, e.n, rows, cols);
      np++;
    } else {
      struct {
        const char *k;
        expect *e;
      } keys[] = {{"rpar", &rpar},  {"ipar", &ipar}, {"z0", &z0},
                  {"in", &in},      {"out", &out},   {"dep_u", &dep_u},
                  {"nevin", &nevin}};
      for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!strcmp(key, keys[i].k)) numbers(rest, keys[i].e);
    }
  }
  fclose(f);
  bsim_model m;
  bsim_error err;
  if (define(type, &m, &err, np, names, vals) != 0) {
    CHECK(0, "%s: define failed: %s", file, err.message);
    return;
  }
  cmp(file, "rpar", &rpar, m.rpar, m.nrpar);
  cmp_int(file, "ipar", &ipar, m.ipar, m.nipar);
  cmp(file, "z0", &z0, m.z0, m.nz);
  cmp_int(file, "in", &in, m.in, m.nin);
  cmp_int(file, "out", &out, m.out, m.nout);
  cmp_int(file, "dep_u", &dep_u, m.dep_u, m.nin);
  cmp_int(file, "nevin", &nevin, &m.nevin, 1);
  bsim_model_clear(&m);
}

int main(void) {
  test_dollar();
  test_samphold();
  test_dlr();
  test_dlss();
  test_counter();
  static const char *const files[] = {"dlr_f_plant.txt", "dlr_plant.txt",
                                      "dlss_kalman.txt", "dollar_kalman.txt",
                                      "dollar_f_fibonacci.txt"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
    layout(files[i]);
  if (failures) {
    fprintf(stderr, "test_blocks_discrete: %d failure(s)\n", failures);
    return 1;
  }
  printf("test_blocks_discrete: ok (%zu layouts match Scilab's)\n",
         sizeof files / sizeof files[0]);
  return 0;
}
