/*
 * The other sinks of Xcos's Sinks palette as recorders: the XY scopes and
 * animations record their inputs side by side, CEVENTSCOPE which event
 * inputs fired, CFSCOPE the signal elements its probes point at; each
 * names its columns at flag 4 as Scilab's recorder does. Also their
 * dialogs' checks, and their stored settings against the same blocks in
 * Scilab's demo and example diagrams (tests/data/layout/).
 */
#include <unistd.h>

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
    b->nevprt = 1;
    call(&h, BSIM_FLAG_OUTPUTS); /* no row */
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

/* TOWS_c keeps one sample per time (a later one at the same time
 * replaces it) and the last buffer-size samples, and writes them out,
 * oldest first, when the run ends: the workspace variable's content. */
static void test_tows(void) {
  harness h;
  bsim_block *b = mk(&h, "TOWS_c", 1, 0, (int[]){2, 1});
  define_into(&h, 2, (const char *[]){"buffer-size", "variable"},
              (bsim_value[]){SCALAR(3), {0, 0, NULL, "xs_1"}});
  call(&h, BSIM_FLAG_INIT);
  check_names(&h, "TOWS_c", "u1_1,u1_2");
  double times[6] = {0, 1, 1, 2, 3, 4};
  b->nevprt = 1;
  for (int k = 0; k < 6; k++) {
    b->t = times[k];
    h.in[0][0] = k, h.in[0][1] = -k;
    call(&h, BSIM_FLAG_UPDATE);
  }
  CHECK(h.rb.rec_rows == 0, "TOWS_c recorded before the end");
  call(&h, BSIM_FLAG_END);
  /* samples (t, k): (0,0) (1,2) (2,3) (3,4) (4,5); the last 3 remain */
  CHECK(h.rb.rec_rows == 3, "TOWS_c: %zu rows, want 3", h.rb.rec_rows);
  check_row(&h, 0, 2, (double[]){3, -3}, 2);
  check_row(&h, 1, 3, (double[]){4, -4}, 2);
  check_row(&h, 2, 4, (double[]){5, -5}, 2);
  no_error(&h, "TOWS_c");
  CHECK(h.work == NULL, "TOWS_c work not released");
  h.rb.fn = NULL; /* flag 5 was called */
  done(&h);
}

/* WRITEC_f writes what Scilab 6.1.1 wrote for [300; -200.9; 70000.7; -1]
 * (its bytes, read from the files Scilab made for these formats):
 * integers truncated toward zero and wrapped, 'l' on 64 bits, an explicit
 * endianness winning over swap. */
static void test_writec(void) {
  static const struct {
    const char *format;
    int swap, nbytes;
    const char *hex;
  } cases[] = {
      {"c", 0, 4, "2c3870ff"},
      {"uc", 0, 4, "2c3870ff"},
      {"s", 0, 8, "2c0138ff7011ffff"},
      {"sb", 0, 8, "012cff381170ffff"},
      {"l", 0, 32,
       "2c0100000000000038ffffffffffffff7011010000000000ffffffffffffffff"},
      {"f", 1, 16, "43960000c348e6664788b85abf800000"},
      {"dl", 1, 32,
       "0000000000c07240cdcccccccc1c69c0333333330b17f140000000000000f0bf"},
      {"db", 1, 32,
       "4072c00000000000c0691ccccccccccd40f1170b33333333bff0000000000000"},
  };
  char dir[] = "/tmp/test_sinks_palette-XXXXXX", file[64];
  CHECK(mkdtemp(dir) != NULL, "mkdtemp");
  snprintf(file, sizeof file, "%s/out.bin", dir);
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    harness h;
    bsim_block *b = mk(&h, "WRITEC_f", 1, 0, (int[]){4, 1});
    define_into(&h, 4, (const char *[]){"in", "file", "format", "swap"},
                (bsim_value[]){SCALAR(4),
                               {0, 0, NULL, file},
                               {0, 0, NULL, (char *)cases[c].format},
                               SCALAR(cases[c].swap)});
    call(&h, BSIM_FLAG_INIT);
    double u[4] = {300, -200.9, 70000.7, -1};
    memcpy(h.in[0], u, sizeof u);
    b->nevprt = 1;
    call(&h, BSIM_FLAG_UPDATE);
    check_row(&h, 0, 0, u, 4);
    call(&h, BSIM_FLAG_END);
    h.rb.fn = NULL;
    no_error(&h, cases[c].format);
    unsigned char got[64];
    FILE *f = fopen(file, "rb");
    size_t n = f ? fread(got, 1, sizeof got, f) : 0;
    if (f) fclose(f);
    char hex[129] = "";
    for (size_t k = 0; k < n && k < 64; k++)
      sprintf(hex + 2 * k, "%02x", got[k]);
    CHECK((int)n == cases[c].nbytes && strcmp(hex, cases[c].hex) == 0,
          "WRITEC_f '%s' swap %d wrote %s, Scilab %s", cases[c].format,
          cases[c].swap, hex, cases[c].hex);
    done(&h);
  }
  /* Scilab's TMPDIR alias: the file goes to $TMPDIR */
  harness h;
  mk(&h, "WRITEC_f", 1, 0, (int[]){1, 1});
  setenv("TMPDIR", dir, 1);
  define_into(&h, 1, (const char *[]){"file"},
              (bsim_value[]){{0, 0, NULL, " TMPDIR/x.bin "}});
  unsetenv("TMPDIR");
  char stored[128] = "";
  for (int k = 0; k < h.m.ipar[0] && k < 127; k++)
    stored[k] = (char)h.m.ipar[6 + k];
  CHECK(strncmp(stored, dir, strlen(dir)) == 0 &&
            strcmp(stored + strlen(dir), "/x.bin") == 0,
        "TMPDIR/x.bin stored as '%s' (TMPDIR=%s)", stored, dir);
  done(&h);
  remove(file);
  rmdir(dir);
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
      {"AFFICH_m", "in", SCALAR(3), "'in'"},
      {"AFFICH_m", "digits", SCALAR(3), "'digits'"},
      {"AFFICH_m", "font", SCALAR(0), "'font'"},
      {"CMATVIEW", "cmax", SCALAR(-1), "'cmax'"},
      {"CMAT3D", "x", {1, 2, (double[]){1, 2}, NULL}, "'x'"},
      {"TOWS_c", "variable", {0, 0, NULL, "2x"}, "'variable'"},
      {"TOWS_c", "buffer-size", SCALAR(0), "'buffer-size'"},
      {"WRITEC_f", "format", {0, 0, NULL, "uls"}, "'format'"},
      {"WRITEC_f",
       "file",
       {0, 0, NULL, "/no/such/folder/x.bin"},
       "folder '/no/such/folder' does not exist"},
      {"WRITEC_f", "file", {0, 0, NULL, "  "}, "'file' is empty"},
      {"WRITEC_f", "swap", SCALAR(2), "'swap'"},
      {"WRITEAU_f", "buffer-size", SCALAR(0), "'buffer-size'"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    define_fails(bad[i].type, 1, &bad[i].name, &bad[i].v, bad[i].part);
}

int main(void) {
  test_xy();
  test_ceventscope();
  test_cfscope();
  test_tows();
  test_writec();
  test_bad();
  static const char *const files[] = {
      "cscopxy_buck_converter.txt",  "canimxy_bouncing_ball.txt",
      "canimxy_lorenz.txt",          "canimxy3d_lorenz.txt",
      "canimxy3d_example.txt",       "barxy_example.txt",
      "bouncexy_bounce.txt",         "bplatform_ball_platform.txt",
      "ceventscope_event_and.txt",   "ceventscope_signal_builder.txt",
      "ceventscope_threshold.txt",   "cfscope_kalman_1.txt",
      "cscopxy3d_sinks_xy.txt",      "affich_m_kalman_1.txt",
      "affich_m_example.txt",        "cmatview_sinks_store.txt",
      "cmat3d_sinks_store.txt",      "trash_f_example.txt",
      "tows_c_batch_simulation.txt", "tows_c_example.txt",
      "writec_f_sinks_store.txt",    "writeau_f_example.txt"};
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
