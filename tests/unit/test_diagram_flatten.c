/*
 * Flattening: superblocks dissolved into the same links as a hand-flattened
 * twin, context shadowing, observes through superblocks, activations, port
 * size inference, and every flatten-time error with the message piece a
 * user relies on.
 */
#include "tests/unit/diagram_harness.h"

/* A link as "from:port->to:port" by leaf names, for set comparison. */
static void link_key(const bsim_flat *f, const bsim_flat_link *l, char *buf,
                     size_t n) {
  snprintf(buf, n, "%s:%d->%s:%d", leaf_name(f->blocks[l->from_block].path),
           l->from_port, leaf_name(f->blocks[l->to_block].path), l->to_port);
}

/* The sorted link keys of f, newline-joined. */
static void link_set(const bsim_flat *f, char *out, size_t n) {
  char *keys[64];
  int k = 0;
  for (int i = 0; i < f->nlinks && k < 64; i++) {
    keys[k] = malloc(128);
    link_key(f, &f->links[i], keys[k], 128);
    k++;
  }
  qsort(keys, (size_t)k, sizeof keys[0], cmp_str);
  out[0] = '\0';
  for (int i = 0; i < k; i++) {
    strncat(out, keys[i], n - strlen(out) - 1);
    strncat(out, "\n", n - strlen(out) - 1);
    free(keys[i]);
  }
}

static double gain_of(const bsim_flat *f, const char *path) {
  int b = block_at(f, path);
  return b >= 0 && f->blocks[b].model.nrpar >= 1 ? f->blocks[b].model.rpar[0]
                                                 : -999.0;
}

static void test_nested(void) {
  bsim_diagram *d1 = NULL, *d2 = NULL;
  bsim_error err;
  bsim_flat *f1 = flatten_file("nested.xml", &d1, &err);
  CHECK(f1 != NULL, "nested: %s", err.message);
  bsim_flat *f2 = flatten_file("nested_flat.xml", &d2, &err);
  CHECK(f2 != NULL, "nested_flat: %s", err.message);
  if (f1 && f2) {
    /* Port blocks vanish: 6 leaves in both. */
    CHECK(f1->nblocks == 6 && f2->nblocks == 6, "blocks %d / %d", f1->nblocks,
          f2->nblocks);
    CHECK(block_at(f1, "outer/inner/x") >= 0, "path outer/inner/x");
    CHECK(block_at(f1, "outer/h2") >= 0, "path outer/h2");
    CHECK(block_at(f1, "outer/in1") < 0, "IN_f dissolved");
    char s1[2048], s2[2048];
    link_set(f1, s1, sizeof s1);
    link_set(f2, s2, sizeof s2);
    CHECK(f1->nlinks == 5 && strcmp(s1, s2) == 0, "links differ:\n%s---\n%s",
          s1, s2);
    /* Context: top k=2, outer m=k+1=3, inner k=10*m=30 shadows k. Small
     * integers: exact. */
    CHECK(gain_of(f1, "outer/inner/x") == 30.0, "inner k: %g",
          gain_of(f1, "outer/inner/x"));
    CHECK(gain_of(f1, "outer/h") == 2.0, "outer sees top k: %g",
          gain_of(f1, "outer/h"));
    CHECK(gain_of(f1, "outer/h2") == 3.0, "outer m: %g",
          gain_of(f1, "outer/h2"));
    CHECK(f1->nobserves == 3, "observes %d", f1->nobserves);
    if (f1->nobserves == 3) {
      CHECK(f1->observes[0].block == block_at(f1, "outer/h") &&
                f1->observes[0].port == 0,
            "observe outer:1 resolves to outer/h");
      CHECK(f1->observes[1].block == block_at(f1, "outer/inner/x"),
            "observe by path");
      CHECK(f1->observes[2].block == block_at(f1, "outer/inner/x"),
            "observe a nested superblock output");
    }
    CHECK(f1->settings.final_time == 1.0 && f1->settings.samples == -1 &&
              f1->settings.spacing == -1 && f1->settings.solver == NULL,
          "settings copied, unset fields stay unset");
  }
  bsim_flat_free(f1);
  bsim_flat_free(f2);
  bsim_diagram_free(d1);
  bsim_diagram_free(d2);
}

static void test_sizes_and_events(void) {
  bsim_diagram *d = NULL;
  bsim_error err;
  bsim_flat *f = flatten_file("sizes.xml", &d, &err);
  CHECK(f != NULL, "sizes: %s", err.message);
  if (f) {
    const bsim_model *m = &f->blocks[block_at(f, "m")].model;
    CHECK(m->nin == 2 && m->in[0] == 2 && m->in[1] == 1, "MUX inputs %dx%d",
          m->in[0], m->in[1]);
    CHECK(m->out[0] == 3 && m->out2[0] == 1, "MUX output %dx%d", m->out[0],
          m->out2[0]);
    const bsim_model *g = &f->blocks[block_at(f, "g")].model;
    CHECK(g->in[0] == 3 && g->out[0] == 3 && g->in2[0] == 1, "gain %dx%d",
          g->in[0], g->in2[0]);
    const bsim_model *a = &f->blocks[block_at(f, "abs")].model;
    CHECK(a->in[0] == 3 && a->ng == 3 && a->nmode == 3,
          "ABS_VALUE ng %d nmode %d", a->ng, a->nmode);
  }
  bsim_flat_free(f);
  bsim_diagram_free(d);

  f = flatten_file("events.xml", &d, &err);
  CHECK(f != NULL, "events: %s", err.message);
  if (f) {
    int s = block_at(f, "s"), t = block_at(f, "t");
    int explicit_link = 0, self = 0;
    for (int i = 0; i < f->nactivations; i++) {
      const bsim_flat_link *l = &f->activations[i];
      explicit_link += l->from_block == s && l->to_block == t &&
                       l->from_port == 0 && l->to_port == 0;
      self += l->from_block == s && l->to_block == s;
    }
    CHECK(f->nactivations == 2 && explicit_link == 1 && self == 1,
          "activations: %d (explicit %d, self %d)", f->nactivations,
          explicit_link, self);
    CHECK(f->settings.samples == 4 && f->settings.spacing == BSIM_SPACING_LOG,
          "output settings");
    /* TrigFun chose its simulation function from the literal string. */
    const bsim_model *m = &f->blocks[block_at(f, "f")].model;
    CHECK(m->sim && strstr(m->sim, "cos"), "TrigFun sim %s",
          m->sim ? m->sim : "(null)");
  }
  bsim_flat_free(f);
  bsim_diagram_free(d);
}

static void test_flatten_errors(void) {
  static const bad_case cases[] = {
      {"err_expr.xml", "err_expr.xml:7:",
       "block 'outer/g' parameter 'gain': unknown variable 'kk' at column 1"},
      {"err_range.xml", "err_range.xml:8:", "has 1 input port(s)"},
      {"err_unconnected.xml",
       "err_unconnected.xml:6:", "block 'sb/g' input 1 is not connected"},
      {"err_twice.xml",
       "err_twice.xml:9:", "block 'g' input 1 is connected twice"},
      {"err_size.xml",
       "err_size.xml:11:", "size mismatch on link c:1 (2x1) -> g:1 (3x1)"},
      {"err_sbgap.xml", "err_sbgap.xml:7:", "leaves a gap"},
      {"err_observe.xml",
       "err_observe.xml:6:", "no block or superblock 'sb/c'"},
      {"err_sbport.xml", "err_sbport.xml:9:", "superblock 'sb' has 0 input"},
      {"err_context.xml",
       "err_context.xml:6:", "context variable 'a': unknown variable 'b'"},
  };
  check_flatten_errors(cases, sizeof cases / sizeof cases[0]);
}

int main(void) {
  test_nested();
  test_sizes_and_events();
  test_flatten_errors();
  if (failures)
    fprintf(stderr, "test_diagram_flatten: %d failure(s)\n", failures);
  return failures != 0;
}
