/*
 * Xcos's c_block: C source of a type-1 function carried in the diagram,
 * compiled when it loads and run through the type-1 adapter
 * (blocks/scicos1.c).
 *
 * Numbers:
 * - c_block.xml: y = 3 - 2 exp(-2 t) at rtol 1e-9, atol 1e-11 (global
 *   error near 1e-8): 1e-6 absolute. The event counter's output must be
 *   exactly floor(t / 0.23) + 1: it checks that the absolute times a
 *   type-1 function writes in tvec become the right delays (no sample
 *   falls on an event time).
 * - c_block.xcos, made by Scilab's c_block macro (c_block_xcos.sce),
 *   against the scope record Scilab 6.1.1 made of it
 *   (ref_CSCOPE_3.csv, /work/shared/xcos_ref/xcos_ref.sh): Scilab's
 *   values differ from the closed form by 2e-10 (rtol 1e-10), blocksim's
 *   from Scilab's by 7e-10: 1e-8 absolute.
 * Bad input (status 2 with the reason): a compiler error, a function name
 * the code does not define, more ports than a type-1 function receives,
 * modes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocksim/blocksim.h"
#include "tests/unit/test_check.h"
#include "tests/unit/test_tmpdir.h"

static char tmp[64];

static void data_path(char *buf, size_t n, const char *file) {
  snprintf(buf, n, "%s/c_block/%s", BSIM_TEST_DATA, file);
}

/* Loads a diagram (a file, or text when given) with the cache in the
 * temporary folder; NULL with err set on failure. */
static bsim_sim *load(const char *path, const char *text, bsim_error *err) {
  char cache[300];
  snprintf(cache, sizeof cache, "%s/cache", tmp);
  bsim_error_clear(err);
  bsim_library *lib = bsim_library_create(err);
  if (lib && bsim_library_set_c_compiler(lib, "cc", cache, err) != 0) {
    bsim_library_free(lib);
    return NULL;
  }
  bsim_diagram *d = NULL;
  if (lib && text)
    d = bsim_diagram_load_memory(path, text, strlen(text), lib, err);
  else if (lib)
    d = bsim_diagram_load(path, lib, err);
  bsim_library_free(lib);
  bsim_sim *s = d ? bsim_sim_create(d, NULL, err) : NULL;
  bsim_diagram_free(d);
  return s;
}

static void native(void) {
  char path[1024];
  data_path(path, sizeof path, "c_block.xml");
  bsim_error err;
  bsim_sim *s = load(path, NULL, &err);
  CHECK(s && bsim_sim_run(s, &err) == 0, "c_block.xml: %s", err.message);
  size_t rows = s ? bsim_result_rows(s) : 0;
  CHECK(rows == 21, "%zu samples", rows);
  const double *t = s ? bsim_result_times(s) : NULL;
  const double *v = s ? bsim_result_data(s) : NULL;
  double worst = 0;
  for (size_t r = 0; r < rows; r++) {
    worst = fmax(worst, fabs(v[2 * r] - (3 - 2 * exp(-2 * t[r]))));
    double n = floor(t[r] / 0.23) + 1;
    CHECK(v[2 * r + 1] == n, "t = %g: %g events counted, %g expected", t[r],
          v[2 * r + 1], n);
  }
  CHECK(rows && worst < 1e-6, "lag: error %g", worst);
  bsim_sim_free(s);
}

static void from_xcos(void) {
  char path[1024];
  data_path(path, sizeof path, "c_block.xcos");
  bsim_error err;
  bsim_sim *s = load(path, NULL, &err);
  CHECK(s && bsim_sim_run(s, &err) == 0, "c_block.xcos: %s", err.message);
  size_t rows = 0;
  int cols = 0;
  const double *rec = NULL;
  if (s) bsim_record_at(s, 0, &rows, &cols, &rec);
  CHECK(rec && rows == 20 && cols == 1, "scope: %zu rows of %d", rows, cols);
  data_path(path, sizeof path, "ref_CSCOPE_3.csv");
  FILE *f = fopen(path, "r");
  char line[256];
  CHECK(f && fgets(line, sizeof line, f), "cannot read %s", path);
  size_t r = 0;
  double worst = 0, t, y;
  while (f && rec && fscanf(f, "%lf,%lf", &t, &y) == 2) {
    CHECK(r < rows && fabs(rec[2 * r] - t) < 1e-9, "row %zu: time %g, not %g",
          r, r < rows ? rec[2 * r] : NAN, t);
    if (r < rows) worst = fmax(worst, fabs(rec[2 * r + 1] - y));
    r++;
  }
  if (f) fclose(f);
  CHECK(r == 20 && worst < 1e-8, "against Scilab: %zu rows, error %g", r,
        worst);
  bsim_sim_free(s);
}

/* c_block.xml's text with one replacement (static), NULL if absent. */
static const char *variant(const char *from, const char *to) {
  char path[1024];
  data_path(path, sizeof path, "c_block.xml");
  static char text[8192], out[8400];
  FILE *f = fopen(path, "r");
  size_t len = f ? fread(text, 1, sizeof text - 1, f) : 0;
  if (f) fclose(f);
  text[len] = '\0';
  char *at = strstr(text, from);
  if (!at) return NULL;
  snprintf(out, sizeof out, "%.*s%s%s", (int)(at - text), text, to,
           at + strlen(from));
  return out;
}

static void refused(void) {
  struct {
    const char *from, *to;
    const char *words[2];
  } cases[] = {
      {"/ rpar[0];",
       "/ rpar[0] + undefined_thing;",
       {"block 'lag' (c_block): compiling its C code failed", "block.c:14:"}},
      {"value=\"my_affine_lag\"",
       "value=\"other_name\"",
       {"block 'lag' (c_block): cannot load its compiled code",
        "undefined symbol: other_name"}},
      {"<param name=\"in\" value=\"1\"/>",
       "<param name=\"in\" value=\"ones(1, 19)\"/>",
       {"block 'lag'", "a type-1 function takes at most 18 ports"}},
      {"<param name=\"in\" value=\"1\"/>",
       "<param name=\"in\" value=\"1\"/><param name=\"nmode\" value=\"1\"/>",
       {"block 'lag'", "a type-1 function has no modes"}},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *text = variant(cases[i].from, cases[i].to);
    if (!text) {
      CHECK(0, "case %zu: nothing to replace", i);
      continue;
    }
    bsim_error err;
    bsim_sim *s = load("variant.xml", text, &err);
    CHECK(!s && err.status == BSIM_ERR_INPUT, "case %zu accepted (status %d)",
          i, err.status);
    for (int w = 0; w < 2; w++)
      CHECK(strstr(err.message, cases[i].words[w]) != NULL,
            "case %zu: '%s' not in: %s", i, cases[i].words[w], err.message);
    bsim_sim_free(s);
  }
}

int main(void) {
  bsim_process_init();
  if (test_tmpdir_make(tmp, sizeof tmp, "test_c_block") != 0) {
    fprintf(stderr, "FAILED: cannot prepare %s\n", tmp);
    return 1;
  }
  native();
  from_xcos();
  refused();
  test_tmpdir_done(tmp, failures, "test_c_block");
  return failures ? 1 : 0;
}
