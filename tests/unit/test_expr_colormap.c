/*
 * Scilab's colour maps in the evaluator (diagrams/expr_colormap.c), which
 * the matrix-view sinks' dialogs use: values against those Scilab 6.1.1
 * prints for jetcolormap(5), hotcolormap(7), graycolormap(4) and
 * jetcolormap(1), and the errors for a bad argument.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "blocksim/blocksim.h"
#include "diagrams/expr.h"
#include "tests/unit/test_check.h"

/* Each value is a few additions and one division away from Scilab's (the
 * interpolation divides by a knot spacing that is a power of 2, the ramps
 * by n): 1e-15 relative, absolute near 0, allows one rounding. */
static void expect(const char *text, int rows, int cols, const double *want) {
  bsim_value v;
  char msg[256];
  if (bsim_expr_eval(text, NULL, &v, msg, sizeof msg) != 0) {
    CHECK(0, "'%s' failed: %s", text, msg);
    return;
  }
  CHECK(v.rows == rows && v.cols == cols, "'%s': %dx%d, want %dx%d", text,
        v.rows, v.cols, rows, cols);
  for (int i = 0; v.rows == rows && v.cols == cols && i < rows * cols; i++)
    CHECK(fabs(v.v[i] - want[i]) <= 1e-15 * fmax(1, fabs(want[i])),
          "'%s': element %d is %.17g, Scilab %.17g", text, i, v.v[i], want[i]);
  bsim_value_clear(&v);
}

static void expect_error(const char *text, const char *part) {
  bsim_value v;
  char msg[256] = "";
  int rc = bsim_expr_eval(text, NULL, &v, msg, sizeof msg);
  CHECK(rc != 0 && strstr(msg, part), "'%s': rc %d, message '%s' lacks '%s'",
        text, rc, msg, part);
  if (rc == 0) bsim_value_clear(&v);
}

int main(void) {
  expect("jetcolormap(5)", 5, 3,
         (double[]){0, 0, 0.5, 1, 0.89999999999999991, 0, 0.70000000000000018,
                    1, 0.69999999999999973, 0, 0.90000000000000002, 1, 0.5, 0,
                    0});
  expect("hotcolormap(7)", 7, 3,
         (double[]){0.5,
                    1,
                    1,
                    1,
                    1,
                    1,
                    1,
                    0,
                    0,
                    0.5,
                    1,
                    1,
                    1,
                    1,
                    0,
                    0,
                    0,
                    0,
                    0.33333333333333331,
                    0.66666666666666663,
                    1});
  expect("graycolormap(4)", 4, 3,
         (double[]){0, 0.33333333333333331, 0.66666666666666663, 1, 0,
                    0.33333333333333331, 0.66666666666666663, 1, 0,
                    0.33333333333333331, 0.66666666666666663, 1});
  expect("jetcolormap(1)", 1, 3, (double[]){0.5, 1, 0.5});
  expect("size(jetcolormap(0), 1)", 1, 1, (double[]){0});
  expect_error("jetcolormap(2.5)", "integer >= 0");
  expect_error("hotcolormap([1 2])", "integer >= 0");
  expect_error("graycolormap()", "integer >= 0");
  if (failures)
    fprintf(stderr, "test_expr_colormap: %d failure(s)\n", failures);
  return failures != 0;
}
