/*
 * CFSCOPE reads signals by the numbers Scilab's compiler gives its link
 * buffers, which depend on the split points, superblock ports and
 * GOTO/FROM pairs the links pass through (diagrams/xcos/linknum.c). On a
 * diagram with all of them (tests/data/xcos/sinks/cfscope_nets.sce) the
 * scope's record must be Scilab's: every value is a constant, sin() of a
 * sample time or a gain of one, computed by the same libm, so 1e-12 of the
 * peak (a buffer read in the wrong place is off by O(1)). Converted to the
 * native format, whose numbering follows the links' order, the diagram
 * must read the same elements: the same record, bit for bit, from other
 * numbers.
 */
#include "tests/unit/xcos_ref.h"

#define NETS "xcos/sinks/cfscope_nets.xcos"

static bsim_sim *run_text(const char *name, const char *text, size_t len) {
  bsim_error err;
  bsim_error_clear(&err);
  bsim_diagram *d =
      bsim_diagram_load_memory(name, text, len, test_library(), &err);
  bsim_options o;
  bsim_options_init(&o);
  bsim_sim *s = d ? bsim_sim_create(d, &o, &err) : NULL;
  bsim_diagram_free(d);
  if (s && bsim_sim_run(s, &err) != 0) {
    bsim_sim_free(s);
    s = NULL;
  }
  CHECK(s != NULL, "%s: [%d] %s", name, (int)err.status, err.message);
  return s;
}

int main(void) {
  bsim_sim *s = xr_run(NETS, NULL);
  if (s)
    xr_compare(s, "CFSCOPE_1", "xcos/sinks/ref_cfscope_nets/CFSCOPE_12.csv",
               1.05, 1e-12, "CFSCOPE through splits, ports and tags");

  /* the native diagram reads the same elements under its own numbers */
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", BSIM_TEST_DATA, NETS);
  bsim_error err;
  bsim_error_clear(&err);
  bsim_diagram *d = bsim_diagram_load(path, test_library(), &err);
  char *native = NULL;
  size_t len = 0;
  CHECK(d && s && bsim_diagram_to_native(d, s, &native, &len, &err) == 0,
        "convert: [%d] %s", (int)err.status, err.message);
  bsim_diagram_free(d);
  if (native) {
    CHECK(strstr(native, "name=\"links\" value=\"[1:14]\"") == NULL &&
              strstr(native, "renumbered") != NULL,
          "convert kept Xcos's link numbers:\n%s", native);
    bsim_sim *n = run_text("cfscope_nets.xml", native, len);
    size_t ra = 0, rb = 0;
    int ca = 0, cb = 0;
    const double *a = xr_record(s, "CFSCOPE_1", &ra, &ca);
    const double *b = n ? xr_record(n, "CFSCOPE_1", &rb, &cb) : NULL;
    CHECK(a && b && ra == rb && ca == cb &&
              memcmp(a, b, ra * (size_t)(ca + 1) * sizeof *a) == 0,
          "the converted diagram's CFSCOPE record differs (%zu x %d, Xcos "
          "%zu x %d)",
          rb, cb, ra, ca);
    bsim_sim_free(n);
  }
  free(native);
  bsim_sim_free(s);
  return xr_finish("test_xcos_linknum");
}
