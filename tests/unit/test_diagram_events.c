/*
 * Superblock event ports (CLKINV_f / CLKOUTV_f): a two-level superblock
 * flattens to the same activations as its hand-flattened twin, fan-out works
 * on both sides of a port, loops of port blocks end, and each event-port
 * error carries its file:line and the words a user relies on.
 */
#include "tests/unit/diagram_harness.h"
#include "tests/unit/test_library.h"

/* The links (or activations) of f as sorted "from:port->to:port" lines by
 * leaf names, so that two diagrams compare as sets whatever their order. */
static void key_set(const bsim_flat *f, const bsim_flat_link *ls, int n,
                    char *out, size_t len) {
  enum { MAXK = 64 };
  char keys[MAXK][96];
  char *p[MAXK];
  int k = 0;
  for (int i = 0; i < n && k < MAXK; i++, k++) {
    snprintf(keys[k], sizeof keys[k], "%s:%d->%s:%d",
             leaf_name(f->blocks[ls[i].from_block].path), ls[i].from_port,
             leaf_name(f->blocks[ls[i].to_block].path), ls[i].to_port);
    p[k] = keys[k];
  }
  qsort(p, (size_t)k, sizeof p[0], cmp_str);
  out[0] = '\0';
  for (int i = 0; i < k; i++) {
    strncat(out, p[i], len - strlen(out) - 1);
    strncat(out, "\n", len - strlen(out) - 1);
  }
}

static void test_nested_twin(void) {
  bsim_diagram *d1 = NULL, *d2 = NULL;
  bsim_error err;
  bsim_flat *f1 = flatten_file("ev_nested.xml", &d1, &err);
  CHECK(f1 != NULL, "ev_nested: %s", err.message);
  bsim_flat *f2 = flatten_file("ev_nested_flat.xml", &d2, &err);
  CHECK(f2 != NULL, "ev_nested_flat: %s", err.message);
  if (f1 && f2) {
    /* Port blocks vanish (5 event ports, 2 data ports): 11 leaves in both. */
    CHECK(f1->nblocks == 11 && f2->nblocks == 11, "blocks %d / %d", f1->nblocks,
          f2->nblocks);
    CHECK(block_at(f1, "outer/inner/x2") >= 0, "path outer/inner/x2");
    CHECK(block_at(f1, "outer/ei") < 0 && block_at(f1, "outer/inner/q") < 0,
          "event port blocks dissolved");
    char s1[4096], s2[4096];
    key_set(f1, f1->activations, f1->nactivations, s1, sizeof s1);
    key_set(f2, f2->activations, f2->nactivations, s2, sizeof s2);
    /* 6 written activations + STEP_FUNCTION's own loop. */
    CHECK(f1->nactivations == 7 && strcmp(s1, s2) == 0,
          "activations differ (%d):\n%s---\n%s", f1->nactivations, s1, s2);
    CHECK(strstr(s1, "clk:0->x2:0\n") && strstr(s1, "x:0->sink2:0\n") &&
              strstr(s1, "a:0->h2:0\n"),
          "fan-out in and out of the superblock, event input 2:\n%s", s1);
    key_set(f1, f1->links, f1->nlinks, s1, sizeof s1);
    key_set(f2, f2->links, f2->nlinks, s2, sizeof s2);
    CHECK(f1->nlinks == 2 && strcmp(s1, s2) == 0,
          "data links beside event ports differ:\n%s---\n%s", s1, s2);
  }
  bsim_flat_free(f1);
  bsim_flat_free(f2);
  bsim_diagram_free(d1);
  bsim_diagram_free(d2);
}

static void test_corner_cases(void) {
  bsim_diagram *d = NULL;
  bsim_error err;
  bsim_flat *f = flatten_file("ev_loop.xml", &d, &err);
  CHECK(f != NULL, "ev_loop: %s", err.message);
  if (f) {
    char s[2048];
    key_set(f, f->activations, f->nactivations, s, sizeof s);
    /* The port-only loop adds nothing, the two paths to y give one link,
     * and idle/z (fed by nothing) is no error. */
    CHECK(f->nactivations == 2 && strcmp(s, "clk:0->w:0\nclk:0->y:0\n") == 0,
          "activations (%d):\n%s", f->nactivations, s);
    CHECK(block_at(f, "idle/z") >= 0, "idle/z kept");
  }
  bsim_flat_free(f);
  bsim_diagram_free(d);
}

static void test_errors(void) {
  static const bad_case cases[] = {
      {"ev_err_noin.xml", "ev_err_noin.xml:11:",
       "activation to 'sb:2': superblock 'sb' has 1 event input port(s) (one "
       "CLKINV_f block per port inside it)"},
      {"ev_err_noout.xml", "ev_err_noout.xml:12:",
       "activation from 'sb:1': superblock 'sb' has 0 event output port(s) "
       "(one CLKOUTV_f block"},
      {"ev_err_dup.xml", "ev_err_dup.xml:10:",
       "block 'outer/inner/b': event input port 1 of superblock "
       "'outer/inner' is already defined by 'outer/inner/a' (line 7)"},
      {"ev_err_gap.xml", "ev_err_gap.xml:7:",
       "event output port 2 of superblock 'sb' leaves a gap"},
      {"ev_err_leafout.xml", "ev_err_leafout.xml:7:",
       "activation from 'a:2': block 'a' (STEP) has 1 event output port(s)"},
      {"ev_err_leafin.xml", "ev_err_leafin.xml:15:",
       "activation to 'g:1': block 'sb/g' (GAINBLK) has 0 event input "
       "port(s)"},
      {"ev_err_dataport.xml", "ev_err_dataport.xml:13:",
       "block 'sb/i' (IN_f) has 0 event input port(s)"},
      {"ev_err_toplevel.xml", "ev_err_toplevel.xml:5:",
       "superblock port blocks belong inside a <superblock>"},
  };
  check_flatten_errors(cases, sizeof cases / sizeof cases[0]);
}

int main(void) {
  /* The event port types live in blocks/events.c; without them every case
   * below would fail for an unrelated reason. */
  if (!std_type("CLKINV_f") || !std_type("CLKOUTV_f")) {
    fprintf(stderr, "test_diagram_events: block types CLKINV_f / CLKOUTV_f "
                    "are not registered (blocks/events.c)\n");
    return 1;
  }
  test_nested_twin();
  test_corner_cases();
  test_errors();
  if (failures)
    fprintf(stderr, "test_diagram_events: %d failure(s)\n", failures);
  return failures != 0;
}
