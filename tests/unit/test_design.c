/*
 * Designs of experiments (batch/design.c).
 *
 * Grid: every combination, last parameter fastest; zip: side by side.
 * Numbers are kept as %.17g text, which must give back the same double.
 * Random: the same seed gives the same members, another seed others;
 * uniform(a,b) stays in [a,b) with a mean within 5 standard errors of
 * (a+b)/2 (a false alarm has probability below 1e-6), normal(m,s) has a
 * mean within 5 standard errors of m and a standard deviation within 3 %
 * of s (20 000 draws: the sample sd's relative error is about 0.5 %).
 * LHS: each of the n strata of each parameter holds exactly one member —
 * the defining property, exact. Manifests: quoted fields and brackets.
 * Bad designs are refused with their message.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocksim/batch.h"
#include "tests/unit/test_check.h"
#include "tests/unit/test_tmpdir.h"

static bsim_design *make(const char *const *spec, int n, bsim_error *err) {
  bsim_design *d = bsim_design_create(err);
  for (int j = 0; d && j < n; j++)
    if (bsim_design_param(d, spec[2 * j], spec[2 * j + 1], err) != 0) {
      bsim_design_free(d);
      return NULL;
    }
  return d;
}

static double val(const bsim_design *d, long i, int j) {
  return strtod(bsim_design_value(d, i, j), NULL);
}

static void test_grid_zip(void) {
  bsim_error err;
  bsim_error_clear(&err);
  const char *spec[4] = {"k", "linspace(0,1,3)", "g.gain", "[10 20]"};
  bsim_design *d = make(spec, 2, &err);
  CHECK(d && bsim_design_build(d, BSIM_DESIGN_GRID, 0, 0, &err) == 0,
        "grid: %s", err.message);
  CHECK(bsim_design_members(d) == 6 && bsim_design_params(d) == 2, "6 x 2");
  static const double want[6][2] = {{0, 10},   {0, 20}, {0.5, 10},
                                    {0.5, 20}, {1, 10}, {1, 20}};
  for (long i = 0; i < 6 && bsim_design_members(d) == 6; i++)
    CHECK(val(d, i, 0) == want[i][0] && val(d, i, 1) == want[i][1],
          "grid member %ld: %s %s", i, bsim_design_value(d, i, 0),
          bsim_design_value(d, i, 1));
  CHECK(strcmp(bsim_design_target(d, 1), "g.gain") == 0, "target");
  bsim_design_free(d);

  /* %.17g round-trips: 0.1 stays the double 0.1 */
  const char *zspec[4] = {"a", "[0.1 0.2 1/3]", "b", "1:3"};
  d = make(zspec, 2, &err);
  CHECK(d && bsim_design_build(d, BSIM_DESIGN_ZIP, 0, 0, &err) == 0, "zip: %s",
        err.message);
  CHECK(bsim_design_members(d) == 3, "zip: 3 members");
  CHECK(val(d, 2, 0) == 1.0 / 3 && val(d, 0, 0) == 0.1 && val(d, 2, 1) == 3,
        "zip values");
  bsim_design_free(d);

  const char *bad[4] = {"a", "[1 2 3]", "b", "[1 2]"};
  d = make(bad, 2, &err);
  CHECK(d && bsim_design_build(d, BSIM_DESIGN_ZIP, 0, 0, &err) != 0 &&
            strstr(err.message, "'b' has 2 values and 'a' 3"),
        "zip of unequal lists: '%s'", err.message);
  bsim_design_free(d);
}

static void moments(const bsim_design *d, int j, double *mean, double *sd) {
  long n = bsim_design_members(d);
  double s = 0, s2 = 0;
  for (long i = 0; i < n; i++) {
    double v = val(d, i, j);
    s += v;
    s2 += v * v;
  }
  *mean = s / (double)n;
  *sd = sqrt(s2 / (double)n - *mean * *mean);
}

static void test_random(void) {
  enum { N = 20000 };
  bsim_error err;
  bsim_error_clear(&err);
  const char *spec[4] = {"u", "uniform(2, 4)", "x", "normal(1, 0.5)"};
  bsim_design *a = make(spec, 2, &err), *b = make(spec, 2, &err),
              *c = make(spec, 2, &err);
  CHECK(a && bsim_design_build(a, BSIM_DESIGN_RANDOM, N, 7, &err) == 0 &&
            bsim_design_build(b, BSIM_DESIGN_RANDOM, N, 7, &err) == 0 &&
            bsim_design_build(c, BSIM_DESIGN_RANDOM, N, 8, &err) == 0,
        "random: %s", err.message);
  if (!a || bsim_design_members(a) != N) return;
  int same = 1, other = 0, inside = 1;
  for (long i = 0; i < N; i++) {
    same &=
        strcmp(bsim_design_value(a, i, 0), bsim_design_value(b, i, 0)) == 0 &&
        strcmp(bsim_design_value(a, i, 1), bsim_design_value(b, i, 1)) == 0;
    other += strcmp(bsim_design_value(a, i, 0), bsim_design_value(c, i, 0));
    inside &= val(a, i, 0) >= 2 && val(a, i, 0) < 4;
  }
  CHECK(same, "the same seed gives other members");
  CHECK(other != 0, "another seed gives the same members");
  CHECK(inside, "uniform(2,4) outside [2,4)");
  double m, s;
  moments(a, 0, &m, &s);
  double se = (2 / sqrt(12.0)) / sqrt(N);
  CHECK(fabs(m - 3) < 5 * se, "uniform mean %.6f", m);
  moments(a, 1, &m, &s);
  CHECK(fabs(m - 1) < 5 * 0.5 / sqrt(N), "normal mean %.6f", m);
  CHECK(fabs(s - 0.5) < 0.03 * 0.5, "normal sd %.6f", s);
  bsim_design_free(a);
  bsim_design_free(b);
  bsim_design_free(c);

  const char *bad[2] = {"u", "uniform(4, 2)"};
  a = make(bad, 1, &err);
  CHECK(a && bsim_design_build(a, BSIM_DESIGN_RANDOM, 5, 1, &err) != 0 &&
            strstr(err.message, "a < b"),
        "uniform(4,2): '%s'", err.message);
  bsim_design_free(a);
  bsim_error_clear(&err);
  const char *notdist[2] = {"u", "[1 2]"};
  a = make(notdist, 1, &err);
  CHECK(a && bsim_design_build(a, BSIM_DESIGN_LHS, 5, 1, &err) != 0 &&
            strstr(err.message, "not a distribution"),
        "a list with --lhs: '%s'", err.message);
  bsim_design_free(a);
}

static void test_lhs(void) {
  enum { N = 50 };
  bsim_error err;
  bsim_error_clear(&err);
  const char *spec[4] = {"u", "uniform(0, 10)", "x", "normal(0, 1)"};
  bsim_design *d = make(spec, 2, &err);
  CHECK(d && bsim_design_build(d, BSIM_DESIGN_LHS, N, 3, &err) == 0, "lhs: %s",
        err.message);
  if (!d) return;
  int seen_u[N] = {0}, seen_x[N] = {0};
  for (long i = 0; i < N; i++) {
    int su = (int)floor(val(d, i, 0) / 10 * N);
    /* the normal's stratum: its CDF value times N */
    int sx = (int)floor(0.5 * erfc(-val(d, i, 1) / sqrt(2.0)) * N);
    if (su >= 0 && su < N) seen_u[su]++;
    if (sx >= 0 && sx < N) seen_x[sx]++;
  }
  for (int k = 0; k < N; k++)
    CHECK(seen_u[k] == 1 && seen_x[k] == 1,
          "stratum %d holds %d (uniform) and %d (normal) members", k, seen_u[k],
          seen_x[k]);
  bsim_design_free(d);
}

static void test_manifest(void) {
  char dir[64], path[128];
  CHECK(test_tmpdir_make(dir, sizeof dir, "design") == 0, "mkdtemp");
  snprintf(path, sizeof path, "%s/m.csv", dir);
  FILE *f = fopen(path, "w");
  fputs("k, \"g.gain\",x0\n1,\"[1,2]\", 2*3\n\n0.5,-1,\"a \"\"q\"\"\"\n", f);
  fclose(f);
  bsim_error err;
  bsim_error_clear(&err);
  bsim_design *d = bsim_design_create(&err);
  CHECK(bsim_design_read_manifest(d, path, &err) == 0, "manifest: %s",
        err.message);
  CHECK(bsim_design_members(d) == 2 && bsim_design_params(d) == 3,
        "2 members, 3 targets");
  if (bsim_design_members(d) == 2) {
    CHECK(strcmp(bsim_design_target(d, 1), "g.gain") == 0, "quoted target");
    CHECK(strcmp(bsim_design_value(d, 0, 1), "[1,2]") == 0 &&
              strcmp(bsim_design_value(d, 0, 2), "2*3") == 0 &&
              strcmp(bsim_design_value(d, 1, 2), "a \"q\"") == 0,
          "values '%s' '%s' '%s'", bsim_design_value(d, 0, 1),
          bsim_design_value(d, 0, 2), bsim_design_value(d, 1, 2));
  }
  bsim_design_free(d);
  f = fopen(path, "w");
  fputs("k,m\n1,2\n3\n", f);
  fclose(f);
  d = bsim_design_create(&err);
  bsim_error_clear(&err);
  CHECK(bsim_design_read_manifest(d, path, &err) != 0 &&
            strstr(err.message, "m.csv:3: 1 values for 2 columns"),
        "short row: '%s'", err.message);
  bsim_design_free(d);
  test_tmpdir_done(dir, failures, "manifests");
}

int main(void) {
  test_grid_zip();
  test_random();
  test_lhs();
  test_manifest();
  if (failures) return 1;
  printf("test_design: ok\n");
  return 0;
}
