/*
 * C blocks carrying their source (CBLOCK, CBLOCK4): compiled with the
 * system's compiler when the diagram loads, cached by a hash of the code
 * (a second load compiles nothing: a wrapper script counts the compiler's
 * runs), loaded into a child library the diagram owns, and run. Compiler
 * errors, a missing compiler, a bad function name and missing parameters
 * are bad input (status 2) with the reason.
 *
 * The same C block in an .xcos file made by Scilab (cblock.xcos: the code
 * is the dialog's second item) goes through the Xcos reader the same way.
 *
 * Numbers: tests/data/cblock/ integrate x = 1 - exp(-2 t) and
 * x = (1 - exp(-2 t)) / 2 at rtol 1e-9, atol 1e-11, whose global error
 * stays near 1e-8: 1e-6 absolute.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blocksim/blocksim.h"
#include "tests/unit/test_check.h"

static char tmp[] = "/tmp/bsim_test_cblock_XXXXXX";
static char cache[256], wrapper[256], count_file[256];

/* The compiler, through a script that counts its runs. */
static int make_wrapper(void) {
  snprintf(cache, sizeof cache, "%s/cache", tmp);
  snprintf(wrapper, sizeof wrapper, "%s/cc-counting", tmp);
  snprintf(count_file, sizeof count_file, "%s/runs", tmp);
  FILE *f = fopen(wrapper, "w");
  if (!f) return -1;
  fprintf(f, "#!/bin/sh\necho run >> '%s'\nexec cc \"$@\"\n", count_file);
  fclose(f);
  return chmod(wrapper, 0755);
}

static int compiler_runs(void) {
  FILE *f = fopen(count_file, "r");
  int n = 0;
  char line[64];
  while (f && fgets(line, sizeof line, f))
    n++;
  if (f) fclose(f);
  return n;
}

static bsim_library *library(const char *cc) {
  bsim_error err;
  bsim_error_clear(&err);
  bsim_library *lib = bsim_library_create(&err);
  if (lib && bsim_library_set_c_compiler(lib, cc, cache, &err) != 0) {
    bsim_library_free(lib);
    lib = NULL;
  }
  CHECK(lib != NULL, "library: %s", err.message);
  return lib;
}

/* Loads and runs a diagram; returns the largest |x(t) - f(t)|, HUGE_VAL
 * (err set) on failure. The library is freed before the run: the
 * diagram's and the sim's references keep the compiled code loaded. */
static double run_file(const char *path, const char *cc, double (*f)(double),
                       bsim_error *err) {
  bsim_library *lib = library(cc);
  bsim_error_clear(err);
  bsim_diagram *d = lib ? bsim_diagram_load(path, lib, err) : NULL;
  CHECK(!d || !bsim_library_find(lib, "my_lag"),
        "the diagram's C block leaked into the caller's library");
  bsim_library_free(lib);
  bsim_sim *s = d ? bsim_sim_create(d, NULL, err) : NULL;
  bsim_diagram_free(d);
  double worst = HUGE_VAL;
  if (s && bsim_sim_run(s, err) == 0) {
    worst = 0;
    const double *t = bsim_result_times(s), *x = bsim_result_data(s);
    for (size_t r = 0; r < bsim_result_rows(s); r++)
      worst = fmax(worst, fabs(x[r] - f(t[r])));
  }
  bsim_sim_free(s);
  return worst;
}

static double lag(double t) {
  return 1 - exp(-2 * t);
}
static double half_lag(double t) {
  return 0.5 * (1 - exp(-2 * t));
}

static void data_path(char *buf, size_t n, const char *file) {
  snprintf(buf, n, "%s/cblock/%s", BSIM_TEST_DATA, file);
}

static void compiles_once(void) {
  char path[1024];
  data_path(path, sizeof path, "cblock.xml");
  bsim_error err;
  double e = run_file(path, wrapper, lag, &err);
  CHECK(e < 1e-6, "first load: error %g (%s)", e, err.message);
  CHECK(compiler_runs() == 1, "%d compiler runs", compiler_runs());
  e = run_file(path, wrapper, lag, &err);
  CHECK(e < 1e-6, "second load: error %g (%s)", e, err.message);
  CHECK(compiler_runs() == 1, "the cache was not used: %d compiler runs",
        compiler_runs());
  data_path(path, sizeof path, "cblock_implicit.xml");
  e = run_file(path, wrapper, half_lag, &err);
  CHECK(e < 1e-6, "implicit C block: error %g (%s)", e, err.message);
  CHECK(compiler_runs() == 2, "%d compiler runs", compiler_runs());
}

/* The Xcos file: its scope's record against the closed form. */
static void from_xcos(void) {
  char path[1024];
  data_path(path, sizeof path, "cblock.xcos");
  bsim_library *lib = library("cc");
  bsim_error err;
  bsim_error_clear(&err);
  bsim_diagram *d = lib ? bsim_diagram_load(path, lib, &err) : NULL;
  bsim_sim *s = d ? bsim_sim_create(d, NULL, &err) : NULL;
  CHECK(s && bsim_sim_run(s, &err) == 0, "cblock.xcos: %s", err.message);
  size_t rows = 0;
  int cols = 0;
  const double *rec = NULL;
  if (s) bsim_record_at(s, 0, &rows, &cols, &rec);
  CHECK(rec && rows >= 30 && cols == 1, "scope: %zu rows of %d", rows, cols);
  double worst = 0;
  for (size_t r = 0; rec && r < rows; r++)
    worst = fmax(worst, fabs(rec[2 * r + 1] - lag(rec[2 * r])));
  CHECK(rec && worst < 1e-6, "cblock.xcos: error %g", worst);
  bsim_sim_free(s);
  bsim_diagram_free(d);
  bsim_library_free(lib);
}

/* cblock.xml with one replacement, written to the temporary folder. */
static int variant(const char *from, const char *to, char *out, size_t n) {
  char path[1024];
  data_path(path, sizeof path, "cblock.xml");
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  static char text[8192];
  size_t len = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[len] = '\0';
  char *at = strstr(text, from);
  if (!at) return -1;
  snprintf(out, n, "%s/variant.xml", tmp);
  FILE *g = fopen(out, "w");
  if (!g) return -1;
  fprintf(g, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
  return fclose(g);
}

static void refused(void) {
  struct {
    const char *from, *to, *cc;
    const char *words[2];
  } cases[] = {
      {"(u[0] - x[0])",
       "(u[0] - x[0] + undefined_thing)",
       NULL,
       {"compiling its C code failed", "block.c:9:"}},
      {"(u[0] - x[0])",
       "(u[0] - x[0])",
       "/no/such/cc",
       {"cannot run the C compiler '/no/such/cc'", "No such file"}},
      {"value=\"my_lag\"",
       "value=\"my lag\"",
       NULL,
       {"'my lag' is not a C function name", "block 'lag' (CBLOCK)"}},
      {"value=\"my_lag\"",
       "value=\"other_name\"",
       NULL,
       {"cannot load its compiled code", "undefined symbol: other_name"}},
      {"<param name=\"function\" value=\"my_lag\"/>",
       "",
       NULL,
       {"needs the parameters 'function'", ":9: block 'lag'"}},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char path[300];
    if (variant(cases[i].from, cases[i].to, path, sizeof path) != 0) {
      CHECK(0, "case %zu: cannot write the variant", i);
      continue;
    }
    bsim_error err;
    double e = run_file(path, cases[i].cc ? cases[i].cc : "cc", lag, &err);
    CHECK(e == HUGE_VAL && err.status == BSIM_ERR_INPUT,
          "case %zu accepted (status %d)", i, err.status);
    for (int w = 0; w < 2; w++)
      CHECK(strstr(err.message, cases[i].words[w]) != NULL,
            "case %zu: '%s' not in: %s", i, cases[i].words[w], err.message);
  }
}

int main(void) {
  bsim_process_init();
  if (!mkdtemp(tmp) || make_wrapper() != 0) {
    fprintf(stderr, "FAILED: cannot prepare %s\n", tmp);
    return 1;
  }
  compiles_once();
  from_xcos();
  refused();
  char cmd[512];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
  if (system(cmd) != 0) fprintf(stderr, "note: %s failed\n", cmd);
  return failures ? 1 : 0;
}
