/*
 * The scopes (CSCOPE, CMSCOPE) as recorders: rows appended to the
 * scheduler's record (rt_block.rec) at each activation and only then, the
 * inputs of CMSCOPE side by side, the event input that heritance removes,
 * the dialog checks, and the stored display settings against scopes of
 * Scilab's demo diagrams (tests/data/layout/).
 */
#include "tests/unit/block_harness.h"

static void test_cscope(void) {
  harness h;
  bsim_block *b = mk(&h, "CSCOPE", 1, 0, (int[]){3, 1});
  define_into(&h, 0, NULL, NULL);
  call(&h, BSIM_FLAG_INIT);
  double u[2][3] = {{1, -2, 0.5}, {4, 5, 6}};
  for (int k = 0; k < 2; k++) {
    memcpy(h.in[0], u[k], sizeof u[k]);
    b->t = 0.1 * (k + 1);
    /* output passes record nothing */
    b->nevprt = 1;
    call(&h, BSIM_FLAG_OUTPUTS);
    call(&h, BSIM_FLAG_UPDATE);
  }
  /* a call for time alone (nevprt 0: a scope an Xcos file stores as
   * time-dependent, at another event) records too, as Scilab's scopes
   * draw at every update */
  b->nevprt = 0;
  b->t = 0.3;
  call(&h, BSIM_FLAG_UPDATE);
  CHECK(h.rb.rec_rows == 3, "CSCOPE recorded %zu rows, want 3", h.rb.rec_rows);
  check_row(&h, 0, 0.1, u[0], 3);
  check_row(&h, 1, 0.2, u[1], 3);
  check_row(&h, 2, 0.3, u[1], 3);
  no_error(&h, "CSCOPE");
  done(&h);
}

static void test_cmscope(void) {
  harness h;
  bsim_block *b = mk(&h, "cmscope", 3, 0, (int[]){1, 1, 2, 1, 1, 1});
  call(&h, BSIM_FLAG_INIT);
  h.in[0][0] = 7;
  h.in[1][0] = 8, h.in[1][1] = 9;
  h.in[2][0] = -1;
  b->t = 2.5;
  b->nevprt = 1;
  call(&h, BSIM_FLAG_UPDATE);
  h.in[1][1] = 10;
  b->t = 3;
  call(&h, BSIM_FLAG_UPDATE);
  CHECK(h.rb.rec_rows == 2, "CMSCOPE recorded %zu rows", h.rb.rec_rows);
  check_row(&h, 0, 2.5, (double[]){7, 8, 9, -1}, 4);
  check_row(&h, 1, 3, (double[]){7, 8, 10, -1}, 4);
  no_error(&h, "CMSCOPE");
  done(&h);
  CHECK(h.work == NULL, "CMSCOPE work not released");
}

static void test_define(void) {
  harness h;
  /* defaults: one event input, feedthrough; heritance = 1 removes it */
  mk(&h, "CSCOPE", 1, 0, (int[]){1, 1});
  define_into(&h, 0, NULL, NULL);
  CHECK(h.m.nevin == 1 && h.m.nin == 1 && h.m.in[0] == -1 && h.m.in2[0] == 1 &&
            h.m.dep_u[0] == 1,
        "CSCOPE default ports");
  done(&h);
  mk(&h, "CSCOPE", 1, 0, (int[]){1, 1});
  define_into(&h, 1, (const char *[]){"heritance"}, (bsim_value[]){SCALAR(1)});
  CHECK(h.m.nevin == 0, "CSCOPE heritance = 1: nevin %d", h.m.nevin);
  done(&h);
  mk(&h, "CMSCOPE", 2, 0, (int[]){1, 1, 1, 1});
  define_into(&h, 1, (const char *[]){"heritance"}, (bsim_value[]){SCALAR(1)});
  /* ipar = [win; 2; N; pos (2); size (2); in (2); colours (2); heritance] */
  CHECK(h.m.nevin == 0 && h.m.nin == 2 && h.m.nipar == 7 + 2 + 2 + 1 &&
            h.m.ipar[h.m.nipar - 1] == 1,
        "CMSCOPE heritance = 1: nevin %d, %d ipar", h.m.nevin, h.m.nipar);
  done(&h);

  /* the dialogs' checks, each naming the parameter and the block */
  struct {
    const char *type, *name;
    bsim_value v;
    const char *part;
  } bad[] = {
      {"CSCOPE", "ymax", SCALAR(-20), "'ymax'"},
      {"CSCOPE", "heritance", SCALAR(2), "'heritance'"},
      {"CSCOPE", "buffer-size", SCALAR(1), "'buffer-size'"},
      {"CSCOPE", "refresh-period", SCALAR(0), "'refresh-period'"},
      {"CSCOPE", "colors", {1, 3, (double[]){1, 2, 3}, NULL}, "'colors'"},
      {"CSCOPE", "position", SCALAR(4), "'position'"},
      {"CSCOPE", "window", SCALAR(-2), "'window'"},
      {"CMSCOPE", "in", {1, 3, (double[]){1, 1, 1}, NULL}, "'ymin'"},
      {"CMSCOPE", "in", {1, 2, (double[]){1, 0}, NULL}, "'in'"},
      {"CMSCOPE", "in", {1, 2, (double[]){5, 5}, NULL}, "'colors'"},
      {"SCALE_CSCOPE", "autoscale", SCALAR(2), "'autoscale'"},
      {"SCALE_CMSCOPE", "autoscale", SCALAR(-1), "'autoscale'"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    define_fails(bad[i].type, 1, &bad[i].name, &bad[i].v, bad[i].part);
}

/* Columns are named as Xcos's recorder names them: u<p> for a scalar,
 * u<p>_<i> for a vector, u<p>_<i>_<j> for a matrix (column-major), so
 * that a record and Scilab's line up column by column. A scope names them
 * at flag 4, so that it has a (header-only) record even if never
 * activated. */
static void test_names(void) {
  harness h;
  bsim_block *b = mk(&h, "SCALE_CMSCOPE", 3, 0, (int[]){1, 1, 2, 1, 2, 2});
  call(&h, BSIM_FLAG_INIT);
  CHECK(h.rb.rec_names &&
            strcmp(h.rb.rec_names, "u1,u2_1,u2_2,u3_1_1,u3_2_1,u3_1_2,"
                                   "u3_2_2") == 0,
        "column names: %s", h.rb.rec_names ? h.rb.rec_names : "(none)");
  CHECK(h.rb.rec_rows == 0, "flag 4 recorded a row");
  double u3[4] = {1, 2, 3, 4};
  h.in[0][0] = -1;
  h.in[1][0] = 5, h.in[1][1] = 6;
  memcpy(h.in[2], u3, sizeof u3);
  b->t = 0.5;
  b->nevprt = 1;
  call(&h, BSIM_FLAG_UPDATE);
  check_row(&h, 0, 0.5, (double[]){-1, 5, 6, 1, 2, 3, 4}, 7);
  no_error(&h, "SCALE_CMSCOPE");
  done(&h);
}

int main(void) {
  test_cscope();
  test_names();
  test_cmscope();
  test_define();
  static const char *const files[] = {
      "cscope_command.txt",       "cscope_simple_thermostat.txt",
      "cmscope_hydraulics.txt",   "cmscope_lorenz.txt",
      "scale_cscope_example.txt", "scale_cmscope_example.txt"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
    failures += layout_check(files[i]);
  if (failures) {
    fprintf(stderr, "test_blocks_sinks: %d failure(s)\n", failures);
    return 1;
  }
  printf("test_blocks_sinks: scopes record and %zu layouts agree\n",
         sizeof files / sizeof files[0]);
  return 0;
}
