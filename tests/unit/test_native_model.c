/*
 * What `blocksim convert` needs from the native format: a block given by
 * its run-time model (<model>, run instead of the type's define step), the
 * Scilab dialect (<diagram dialect="scilab">), and bsim_diagram_to_native
 * writing a diagram that reads back the same. Values are exact (a
 * piecewise-linear table at a breakpoint-free point, integers), so the
 * tolerance is 1e-12 relative.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocksim/blocksim.h"
#include "tests/unit/test_check.h"
#include "tests/unit/test_library.h"

static bsim_diagram *parse(const char *text, bsim_error *err) {
  bsim_error_clear(err);
  return bsim_diagram_load_memory("m.xml", text, strlen(text), test_library(),
                                  err);
}

/* The observed value y at the first sample, or NAN (message printed). */
static double first_y(const char *text) {
  bsim_error err;
  bsim_diagram *d = parse(text, &err);
  bsim_sim *s = d ? bsim_sim_create(d, NULL, &err) : NULL;
  double y = NAN;
  if (s && bsim_sim_run(s, &err) == 0 && bsim_result_cols(s) == 1)
    y = bsim_result_data(s)[0];
  else
    fprintf(stderr, "run failed: %s\n", err.message);
  bsim_sim_free(s);
  bsim_diagram_free(d);
  return y;
}

#define HEAD                                                                   \
  "<diagram><simulation final-time=\"1\"/><output samples=\"2\"/>"             \
  "<block id=\"u\" type=\"CONST_m\"><param name=\"value\" "                    \
  "value=\"0.25\"/></block>"
#define TAIL                                                                   \
  "<link from=\"u:1\" to=\"t:1\"/><observe name=\"y\" signal=\"t:1\"/>"        \
  "</diagram>"

/* LOOKUP_f through (0,0) and (1,10): y(0.25) = 2.5, given by parameters
 * and by the model its define step would build (rpar = [x; y]). */
static void test_model_block(void) {
  double by_params =
      first_y(HEAD "<block id=\"t\" type=\"LOOKUP_f\"><param name=\"x\" "
                   "value=\"[0 1]\"/><param name=\"y\" value=\"[0 10]\"/>"
                   "</block>" TAIL);
  double by_model = first_y(HEAD "<block id=\"t\" type=\"LOOKUP_f\"><model "
                                 "in=\"1\" in2=\"1\" dep-u=\"1\" out=\"1\" "
                                 "out2=\"1\" rpar=\"0 1 0 10\"/></block>" TAIL);
  CHECK(fabs(by_params - 2.5) < 1e-12, "LOOKUP_f by parameters: %g", by_params);
  CHECK(by_model == by_params, "LOOKUP_f by <model>: %g, by parameters %g",
        by_model, by_params);
}

/* eye(3) is 3x3 natively and 1x1 in Scilab's dialect. */
static void test_dialect(void) {
  const char *fmt = "<diagram%s><simulation final-time=\"1\"/><output "
                    "samples=\"2\"/><block id=\"t\" type=\"CONST_m\"><param "
                    "name=\"value\" value=\"size(eye(3), '*')\"/></block>"
                    "<observe name=\"y\" signal=\"t:1\"/></diagram>";
  char text[512];
  snprintf(text, sizeof text, fmt, "");
  CHECK(first_y(text) == 9, "native eye(3): %g elements", first_y(text));
  snprintf(text, sizeof text, fmt, " dialect=\"scilab\"");
  CHECK(first_y(text) == 1, "Scilab eye(3): %g elements", first_y(text));
}

static void test_model_errors(void) {
  static const struct {
    const char *block, *msg;
  } bad[] = {
      {"<param name=\"x\" value=\"[0 1]\"/><model rpar=\"0 1 0 10\"/>",
       "a block given by its <model> has no <param>"},
      {"<model rpar=\"0 1 zero 10\"/>", "<model rpar>: 'zero' is not a number"},
      {"<model in=\"1 1\" in2=\"1\"/>",
       "in has 2 entries but in2 1 (one per input port)"},
      {"<model in=\"1\" dep-u=\"1 0\"/>", "in has 1 entries but dep-u 2"},
      {"<model ipar=\"1.5\"/>", "<model ipar>: '1.5' is out of range"},
      {"<model dep-t=\"2\"/>", "<model dep-t>: '2' is out of range"},
      {"<model rpar=\"1e999\"/>", "<model rpar>: '1e999' is not finite"},
      {"<model><opar rows=\"2\" cols=\"2\">1 2 3</opar></model>",
       "<opar rows=\"2\" cols=\"2\">: 3 numbers (expected rows x cols"},
      {"<model ng=\"1\"/>", "<model> has an unknown attribute 'ng'"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char text[1024];
    snprintf(text, sizeof text,
             "<diagram><block id=\"t\" type=\"LOOKUP_f\">%s</block></diagram>",
             bad[i].block);
    bsim_error err;
    bsim_diagram *d = parse(text, &err);
    CHECK(!d && err.status == BSIM_ERR_INPUT && strstr(err.message, "m.xml:1"),
          "case %zu: status %d, '%s'", i, (int)err.status, err.message);
    CHECK(strstr(err.message, bad[i].msg), "case %zu: '%s' lacks '%s'", i,
          err.message, bad[i].msg);
    bsim_diagram_free(d);
  }
}

/* A diagram written by bsim_diagram_to_native reads back and runs the same;
 * a model's numbers keep every bit (0.1, 1/3). */
static void test_round_trip(void) {
  const char *text =
      "<diagram dialect=\"scilab\"><simulation final-time=\"1\" "
      "time-tolerance=\"1e-10\"/><output samples=\"2\"/><context><script>"
      "k = 1/3</script></context>"
      "<block id=\"u\" type=\"CONST_m\"><param name=\"value\" value=\"k\"/>"
      "</block><block id=\"t\" type=\"LOOKUP_f\"><model in=\"1\" in2=\"1\" "
      "dep-u=\"1\" out=\"1\" out2=\"1\" rpar=\"0 1 0.1 0.33333333333333331\"/>"
      "</block>" TAIL;
  double direct = first_y(text);
  bsim_error err;
  bsim_diagram *d = parse(text, &err);
  char *native = NULL;
  size_t len = 0;
  CHECK(d && bsim_diagram_to_native(d, NULL, &native, &len, &err) == 0,
        "to_native: %s", err.message);
  bsim_diagram_free(d);
  if (!native) return;
  CHECK(strlen(native) == len, "length %zu vs %zu", strlen(native), len);
  CHECK(strstr(native, "rpar=\"0 1 0.1 0.3333333333333333\""),
        "model numbers:\n%s", native);
  CHECK(strstr(native, "dialect=\"scilab\"") && strstr(native, "k = 1/3"),
        "dialect and script:\n%s", native);
  double again = first_y(native);
  /* 0.1 + (1/3) * (1/3 - 0.1) / 1 */
  CHECK(fabs(direct - (0.1 + (1.0 / 3) * (1.0 / 3 - 0.1))) < 1e-12,
        "direct %.17g", direct);
  CHECK(again == direct, "converted %.17g, direct %.17g", again, direct);
  free(native);
}

/* A diagram without blocks, with or without a run behind it, converts to
 * one that reads back (fuzz_xml, 29 Nov: qsort and bsearch were given the
 * NULL list of stored blocks, undefined behaviour UBSan reports). */
static void test_empty(void) {
  bsim_error err;
  bsim_diagram *d = parse(
      "<diagram name=\"e\"><simulation final-time=\"11\"/></diagram>", &err);
  CHECK(d != NULL, "empty diagram: %s", err.message);
  bsim_sim *s = d ? bsim_sim_create(d, NULL, &err) : NULL;
  CHECK(s != NULL, "empty diagram: %s", err.message);
  for (int with_sim = 0; d && with_sim < 2; with_sim++) {
    char *native = NULL;
    size_t len = 0;
    CHECK(bsim_diagram_to_native(d, with_sim ? s : NULL, &native, &len, &err) ==
              0,
          "to_native: %s", err.message);
    bsim_diagram *back = native ? parse(native, &err) : NULL;
    CHECK(back != NULL && strstr(native, "final-time=\"11\""),
          "read back: %s\n%s", err.message, native ? native : "");
    bsim_diagram_free(back);
    free(native);
  }
  bsim_sim_free(s);
  bsim_diagram_free(d);
}

int main(void) {
  test_empty();
  test_model_block();
  test_dialect();
  test_model_errors();
  test_round_trip();
  if (failures) fprintf(stderr, "%d failure(s)\n", failures);
  return failures != 0;
}
