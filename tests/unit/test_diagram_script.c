/*
 * Context scripts in diagrams: a <script> runs before its level's <var>s,
 * inner levels shadow outer ones, -p VAR=V wins over the script's own
 * assignment (and exists('VAR') sees it), polynomial parameters accept
 * expressions in s, and every failure reaches the user as bad input
 * naming the file, the script line and the statement.
 */
#include <math.h>

#include "tests/unit/diagram_harness.h"

/* The constant a CONST_m block outputs (its opar[0]), element k. */
static double constant(const bsim_flat *f, const char *path, int k) {
  int i = block_at(f, path);
  if (i < 0 || f->blocks[i].model.nopar < 1) return NAN;
  const bsim_value *v = &f->blocks[i].model.opar[0];
  return k < v->rows * v->cols ? v->v[k] : NAN;
}

/* Values are computed by one or two correctly rounded operations from
 * exact inputs (or Ackermann's formula on a 2x2 companion matrix, exact
 * in binary), so they are compared exactly. */
static void test_levels(void) {
  bsim_diagram *d;
  bsim_error err;
  bsim_flat *f = flatten_file("script_levels.xml", &d, &err);
  CHECK(f != NULL, "script_levels: %s", err.message);
  if (!f) {
    bsim_diagram_free(d);
    return;
  }
  CHECK(constant(f, "g", 0) == -1.0, "g = -k*w = -0.5*2");
  CHECK(constant(f, "h", 0) == 3.0, "gain0 from the script");
  CHECK(constant(f, "vv", 0) == 1 && constant(f, "vv", 1) == 4 &&
            constant(f, "vv", 2) == 9 && constant(f, "vv", 3) == 3,
        "for loop and [r, c] = size(v)");
  /* ppol of the companion pair for poles -4, -5: K = [20-2, 9-3]. */
  CHECK(constant(f, "pp", 0) == -18 && constant(f, "pp", 1) == -6,
        "L = [%g %g]", constant(f, "pp", 0), constant(f, "pp", 1));
  CHECK(constant(f, "sb/g", 0) == 5.0, "inner script shadows k: %g",
        constant(f, "sb/g", 0));
  /* den "(1+s)*(2+s)" and "[1 3 2]" give the same model. */
  const bsim_model *m1 = &f->blocks[block_at(f, "tf1")].model;
  const bsim_model *m2 = &f->blocks[block_at(f, "tf2")].model;
  CHECK(m1->nx == 2 && m1->nrpar == m2->nrpar &&
            !memcmp(m1->rpar, m2->rpar, (size_t)m1->nrpar * sizeof(double)),
        "polynomial and coefficient vector disagree");
  /* den "[1 2*z 1]" with the diagram's z = 0.3: s^2 + 0.6 s + 1, realised
   * with A = [0 1; -1 -0.6] (rpar starts with A column-major). */
  const bsim_model *m3 = &f->blocks[block_at(f, "tf3")].model;
  CHECK(m3->nx == 2 && m3->rpar[1] == -1.0 && m3->rpar[3] == -0.6,
        "tf3: a native z stays a number: A = [%g %g; %g %g]", m3->rpar[0],
        m3->rpar[2], m3->rpar[1], m3->rpar[3]);
  bsim_flat_free(f);
  bsim_diagram_free(d);
}

static void test_overrides(void) {
  bsim_diagram *d = load("script_levels.xml", &(bsim_error){0});
  bsim_error err;
  bsim_error_clear(&err);
  CHECK(d && bsim_diagram_override(d, "gain0", "7", &err) == 0 &&
            bsim_diagram_override(d, "k", "2", &err) == 0 &&
            bsim_diagram_override(d, "w", "10", &err) == 0 &&
            bsim_diagram_override(d, "sb.k", "0.25", &err) == 0,
        "overrides: %s", err.message);
  bsim_flat *f = d ? bsim_flatten(d, &err) : NULL;
  CHECK(f != NULL, "flatten with overrides: %s", err.message);
  if (f) {
    /* exists('gain0') sees the override, so the script leaves it. */
    CHECK(constant(f, "h", 0) == 7.0, "gain0 = %g", constant(f, "h", 0));
    /* The script's k = 0.5 is ignored; the <var> w is replaced in place. */
    CHECK(constant(f, "g", 0) == -20.0, "g = -k*w = %g", constant(f, "g", 0));
    /* sb's own script assigns k: the override of sb.k wins there. */
    CHECK(constant(f, "sb/g", 0) == 0.25, "sb/g = %g", constant(f, "sb/g", 0));
  }
  bsim_flat_free(f);
  bsim_diagram_free(d);
}

static void test_errors(void) {
  static const bad_case cases[] = {
      {"script_err_unknown.xml",
       "script_err_unknown.xml:12: block 'c' "
       "parameter 'value'",
       "line 7 (K = nosuchfunction(a)): unknown function 'nosuchfunction'"},
      {"script_err_syntax.xml", "block 'c' parameter 'value'",
       "line 6 (g = [1 2 +]): unexpected ']'"},
      {"script_err_size.xml", "variable 'N' at column 1 is unknown",
       "line 6 (M = inv([1 2 3])): function 'inv' at column 5: expected a "
       "non-empty square matrix, got 1x3"},
      {"script_err_structure.xml",
       "script_err_structure.xml:5: context "
       "script: line 7: this 'if' has no "
       "matching 'end'",
       "hint"},
      {"script_err_poly.xml", "block 'tf' parameter 'den'",
       "rational functions are not supported"},
  };
  check_flatten_errors(cases, sizeof cases / sizeof *cases);
  /* The statement after the failed one still ran: with K given, it works. */
  bsim_error err;
  bsim_diagram *d = load("script_err_unknown.xml", &err);
  CHECK(d && bsim_diagram_override(d, "K", "[1 2]", &err) == 0, "override");
  bsim_flat *f = d ? bsim_flatten(d, &err) : NULL;
  CHECK(f && constant(f, "ok", 0) == 3 && constant(f, "c", 1) == 4,
        "pinned K repairs the diagram: %s", err.message);
  bsim_flat_free(f);
  bsim_diagram_free(d);
}

int main(void) {
  test_levels();
  test_overrides();
  test_errors();
  if (failures)
    fprintf(stderr, "test_diagram_script: %d failure(s)\n", failures);
  return failures != 0;
}
