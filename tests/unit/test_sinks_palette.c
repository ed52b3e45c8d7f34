/*
 * The other sinks of Xcos's Sinks palette as recorders: the XY scopes and
 * animations record their inputs side by side, CEVENTSCOPE which event
 * inputs fired, CFSCOPE the signal elements its probes point at; each
 * names its columns at flag 4 as Scilab's recorder does. Also their
 * dialogs' checks, and their stored settings against the same blocks in
 * Scilab's demo and example diagrams (tests/data/layout/).
 */
#include "tests/unit/block_harness.h"

static void check_names(harness *h, const char *type, const char *want) {
  CHECK(h->rb.rec_names && strcmp(h->rb.rec_names, want) == 0,
        "%s: columns '%s', want '%s'", type,
        h->rb.rec_names ? h->rb.rec_names : "(none)", want);
}

/* Every XY sink records all its inputs at an activation, nothing between
 * activations. */
static void test_xy(void) {
  static const struct {
    const char *type;
    int nin;
    const char *names;
  } cases[] = {
      {"CSCOPXY", 2, "u1_1,u1_2,u2_1,u2_2"},
      {"CANIMXY", 2, "u1_1,u1_2,u2_1,u2_2"},
      {"CSCOPXY3D", 3, "u1_1,u1_2,u2_1,u2_2,u3_1,u3_2"},
      {"CANIMXY3D", 3, "u1_1,u1_2,u2_1,u2_2,u3_1,u3_2"},
      {"BARXY", 2, "u1_1,u1_2,u2_1,u2_2"},
      {"BOUNCEXY", 2, "u1_1,u1_2,u2_1,u2_2"},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    harness h;
    bsim_block *b =
        mk(&h, cases[c].type, cases[c].nin, 0, (int[]){2, 1, 2, 1, 2, 1});
    call(&h, BSIM_FLAG_INIT);
    check_names(&h, cases[c].type, cases[c].names);
    double want[6];
    for (int k = 0; k < 2 * cases[c].nin; k++)
      h.in[k / 2][k % 2] = want[k] = 10 * k - 3.5;
    b->t = 1.25;
    b->nevprt = 0;
    call(&h, BSIM_FLAG_UPDATE); /* not activated: no row */
    b->nevprt = 1;
    call(&h, BSIM_FLAG_OUTPUTS);
    call(&h, BSIM_FLAG_UPDATE);
    CHECK(h.rb.rec_rows == 1, "%s: %zu rows, want 1", cases[c].type,
          h.rb.rec_rows);
    check_row(&h, 0, 1.25, want, 2 * cases[c].nin);
    no_error(&h, cases[c].type);
    done(&h);
  }
  harness h;
  bsim_block *b = mk(&h, "BPLATFORM", 2, 0, (int[]){1, 1, 1, 1});
  call(&h, BSIM_FLAG_INIT);
  check_names(&h, "BPLATFORM", "u1,u2");
  h.in[0][0] = 0.5, h.in[1][0] = -2;
  b->t = 3;
  b->nevprt = 1;
  call(&h, BSIM_FLAG_UPDATE);
  check_row(&h, 0, 3, (double[]){0.5, -2}, 2);
  done(&h);
}

/* CEVENTSCOPE: one column per event input, 1 for the inputs in nevprt. */
static void test_ceventscope(void) {
  harness h;
  bsim_block *b = mk(&h, "CEVENTSCOPE", 0, 0, NULL);
  define_into(&h, 2, (const char *[]){"inputs", "colors"},
              (bsim_value[]){SCALAR(3), {1, 3, (double[]){1, 2, 3}, NULL}});
  CHECK(h.m.nevin == 3 && h.m.nin == 0, "CEVENTSCOPE: %d event inputs",
        h.m.nevin);
  call(&h, BSIM_FLAG_INIT);
  check_names(&h, "CEVENTSCOPE", "ev1,ev2,ev3");
  int fired[3] = {1, 4, 5};
  for (int k = 0; k < 3; k++) {
    b->t = k;
    b->nevprt = fired[k];
    call(&h, BSIM_FLAG_UPDATE);
  }
  check_row(&h, 0, 0, (double[]){1, 0, 0}, 3);
  check_row(&h, 1, 1, (double[]){0, 0, 1}, 3);
  check_row(&h, 2, 2, (double[]){1, 0, 1}, 3);
  no_error(&h, "CEVENTSCOPE");
  done(&h);
}

/* CFSCOPE reads what its probes point at (the scheduler aims them; here by
 * hand) and names its columns after the link numbers. */
static void test_cfscope(void) {
  harness h;
  bsim_block *b = mk(&h, "CFSCOPE", 0, 0, NULL);
  define_into(&h, 1, (const char *[]){"links"},
              (bsim_value[]){{1, 3, (double[]){7, 2, 7}, NULL}});
  CHECK(h.m.nprobes == 3 && h.m.probes[0] == 7 && h.m.probes[1] == 2 &&
            h.m.probes[2] == 7 && h.m.nipar == 19 && h.m.ipar[15] == 3 &&
            h.m.ipar[16] == 7 && h.m.nin == 0 && h.m.nevin == 1,
        "CFSCOPE define: %d probes, %d ipar", h.m.nprobes, h.m.nipar);
  double signals[2] = {0.25, -8};
  const double *probe[3] = {&signals[1], &signals[0], &signals[1]};
  b->probe = probe;
  b->nprobe = 3;
  call(&h, BSIM_FLAG_INIT);
  check_names(&h, "CFSCOPE", "link7,link2,link7");
  b->t = 0.5;
  b->nevprt = 1;
  call(&h, BSIM_FLAG_UPDATE);
  signals[1] = 9;
  b->t = 0.75;
  call(&h, BSIM_FLAG_UPDATE);
  check_row(&h, 0, 0.5, (double[]){-8, 0.25, -8}, 3);
  check_row(&h, 1, 0.75, (double[]){9, 0.25, 9}, 3);
  no_error(&h, "CFSCOPE");
  done(&h);
  CHECK(h.work == NULL, "CFSCOPE work not released");
}

/* The dialogs' checks, each naming the parameter and the block. */
static void test_bad(void) {
  struct {
    const char *type, *name;
    bsim_value v;
    const char *part;
  } bad[] = {
      {"CSCOPXY", "curves", SCALAR(0), "'curves'"},
      {"CSCOPXY", "xmax", SCALAR(-20), "'xmax'"},
      {"CSCOPXY", "buffer-size", SCALAR(1), "'buffer-size'"},
      {"CSCOPXY", "colors", {1, 2, (double[]){1, 2}, NULL}, "'colors'"},
      {"CANIMXY", "ymin", SCALAR(20), "'ymax'"},
      {"CANIMXY", "window", SCALAR(-3), "'window'"},
      {"CSCOPXY3D", "thickness", SCALAR(1), "'thickness'"},
      {"CSCOPXY3D", "z-bounds", {1, 2, (double[]){1, -1}, NULL}, "'z-bounds'"},
      {"CSCOPXY3D", "view", SCALAR(3), "'view'"},
      {"CANIMXY3D", "curves", SCALAR(9), "'colors'"},
      {"BARXY", "thickness", SCALAR(0), "'thickness'"},
      {"BOUNCEXY", "radii", SCALAR(1), "'radii'"},
      {"BPLATFORM", "length", SCALAR(0), "'length'"},
      {"CEVENTSCOPE", "inputs", SCALAR(2), "'colors'"},
      {"CEVENTSCOPE", "refresh-period", SCALAR(0), "'refresh-period'"},
      {"CFSCOPE", "links", {1, 2, (double[]){3, 0}, NULL}, "'links'"},
      {"CFSCOPE", "buffer-size", SCALAR(1), "'buffer-size'"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    define_fails(bad[i].type, 1, &bad[i].name, &bad[i].v, bad[i].part);
}

int main(void) {
  test_xy();
  test_ceventscope();
  test_cfscope();
  test_bad();
  static const char *const files[] = {
      "cscopxy_buck_converter.txt", "canimxy_bouncing_ball.txt",
      "canimxy_lorenz.txt",         "canimxy3d_lorenz.txt",
      "canimxy3d_example.txt",      "barxy_example.txt",
      "bouncexy_bounce.txt",        "bplatform_ball_platform.txt",
      "ceventscope_event_and.txt",  "ceventscope_signal_builder.txt",
      "ceventscope_threshold.txt",  "cfscope_kalman_1.txt"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
    failures += layout_check(files[i]);
  if (failures) {
    fprintf(stderr, "test_sinks_palette: %d failure(s)\n", failures);
    return 1;
  }
  printf("test_sinks_palette: sinks record and %zu layouts agree\n",
         sizeof files / sizeof files[0]);
  return 0;
}
