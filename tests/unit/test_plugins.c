/*
 * Block plugins loaded with dlopen (tests/plugins/, built into
 * BSIM_TEST_PLUGINS): their types and engine join a library with their
 * path as origin and run like built-in ones; every way a load fails is
 * status 2 with the path and the reason and leaves the library as it was;
 * a diagram's <library> plugins stay in the diagram's own child library,
 * which lives as long as anything made from it; two libraries with
 * different plugins run side by side in two threads.
 *
 * Numbers: lag_poly.xml is y = 3 (1 - e^(-t/2))^2 + 1. With IDA at rtol
 * 1e-9, atol 1e-11 the global error stays below 1e-7 (a few hundred steps
 * each within tolerance), so 1e-6 absolute. The plugin's Heun engine has a
 * global error of order step^2 times the solution's third derivative
 * (below 1 here): step 1e-3 gives ~1e-6, so 1e-5 absolute; with step 0.1
 * the error is ~1e-3, which the test also sees, to be sure the plugin's
 * engine and its parameter are really used.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blocksim/blocksim.h"
#include "tests/unit/test_check.h"

static void plugin_path(char *buf, size_t n, const char *name) {
  snprintf(buf, n, "%s/%s.so", BSIM_TEST_PLUGINS, name);
}

static double exact(double t) {
  double e = 1 - exp(-t / 2);
  return 3 * e * e + 1;
}

static bsim_library *with_plugin(const char *name) {
  bsim_error err;
  bsim_error_clear(&err);
  char path[1024];
  plugin_path(path, sizeof path, name);
  bsim_library *lib = bsim_library_create(&err);
  if (lib && bsim_library_load(lib, path, &err) != 0) {
    bsim_library_free(lib);
    lib = NULL;
  }
  CHECK(lib != NULL, "loading %s: %s", name, err.message);
  return lib;
}

/* Runs d with solver (NULL: the file's) and step (NULL: none); returns the
 * largest deviation from exact(), or HUGE_VAL on failure. */
static double run_error(const bsim_diagram *d, const char *solver,
                        const char *step) {
  bsim_options o;
  bsim_options_init(&o);
  const char *names[] = {"step"}, *values[] = {step};
  o.solver = solver;
  if (step) {
    o.solver_param_names = names;
    o.solver_param_values = values;
    o.nsolver_params = 1;
  }
  bsim_error err;
  bsim_error_clear(&err);
  bsim_sim *s = bsim_sim_create(d, &o, &err);
  if (!s || bsim_sim_run(s, &err) != 0) {
    CHECK(0, "run with %s: %s", solver ? solver : "default", err.message);
    bsim_sim_free(s);
    return HUGE_VAL;
  }
  double worst = 0;
  const double *t = bsim_result_times(s), *y = bsim_result_data(s);
  for (size_t r = 0; r < bsim_result_rows(s); r++)
    worst = fmax(worst, fabs(y[r] - exact(t[r])));
  CHECK(bsim_result_rows(s) == 41, "%zu rows", bsim_result_rows(s));
  bsim_sim_free(s);
  return worst;
}

static void good_plugin(void) {
  bsim_library *lib = with_plugin("test_good");
  if (!lib) return;
  char path[1024];
  plugin_path(path, sizeof path, "test_good");
  const char *origin = NULL;
  const bsim_block_type *t;
  int seen = 0;
  for (size_t i = 0; (t = bsim_library_type_at(lib, i, &origin)) != NULL; i++)
    if (strncmp(t->name, "TEST_", 5) == 0) {
      seen++;
      CHECK(strcmp(origin, path) == 0, "%s from %s", t->name, origin);
    }
  CHECK(seen == 2, "%d plugin types listed", seen);
  const bsim_engine_type *e = bsim_library_engine_find(lib, "test-heun");
  CHECK(e && strcmp(e->name, "test-heun") == 0, "engine not found");
  size_t i = 0;
  const bsim_engine_type *last = NULL;
  for (const bsim_engine_type *x;
       (x = bsim_library_engine_at(lib, i, &origin)) != NULL; i++)
    last = x;
  CHECK(last == e && strcmp(origin, path) == 0, "engine listed last, from %s",
        origin);
  /* Loading it again is harmless. */
  bsim_error err;
  bsim_error_clear(&err);
  CHECK(bsim_library_load(lib, path, &err) == 0, "reload: %s", err.message);

  char diagram[1024];
  snprintf(diagram, sizeof diagram, "%s/plugins/lag_poly.xml", BSIM_TEST_DATA);
  bsim_diagram *d = bsim_diagram_load(diagram, lib, &err);
  CHECK(d != NULL, "load: %s", err.message);
  if (d) {
    double ida = run_error(d, NULL, NULL);
    double fine = run_error(d, "test-heun", "1e-3");
    double coarse = run_error(d, "test-heun", "0.1");
    CHECK(ida < 1e-6, "ida: error %g", ida);
    CHECK(fine < 1e-5, "test-heun step 1e-3: error %g", fine);
    CHECK(coarse > 1e-5 && coarse < 1e-2, "test-heun step 0.1: error %g",
          coarse);
  }
  bsim_diagram_free(d);
  bsim_library_free(lib);
}

/* Every refused plugin: status 2, the path, words of the reason, and the
 * library unchanged. */
static void bad_plugins(void) {
  struct {
    const char *file; /* NULL: a file that does not exist */
    const char *words[2];
  } cases[] = {
      {NULL, {"cannot load plugin", "No such file"}},
      {"test_bad_no_abi", {"not a blocksim plugin", "bsim_plugin_abi"}},
      {"test_bad_abi", {"built for block ABI", "rebuild the plugin"}},
      {"test_bad_no_init", {"not a blocksim plugin", "bsim_plugin_init"}},
      {"test_bad_clash", {"'GAINBLK'", "(from standard)"}},
      {"test_bad_init_fails",
       {"initialisation failed", "licence server is down"}},
  };
  bsim_library *lib = with_plugin("test_other");
  if (!lib) return;
  size_t before = 0;
  while (bsim_library_type_at(lib, before, NULL))
    before++;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char path[1024];
    plugin_path(path, sizeof path,
                cases[i].file ? cases[i].file : "no_such_plugin");
    bsim_error err;
    bsim_error_clear(&err);
    CHECK(bsim_library_load(lib, path, &err) == -1 &&
              err.status == BSIM_ERR_INPUT,
          "%s: accepted (status %d)", path, err.status);
    CHECK(strncmp(err.message, path, strlen(path)) == 0,
          "message does not start with the path: %s", err.message);
    for (int w = 0; w < 2; w++)
      CHECK(strstr(err.message, cases[i].words[w]) != NULL, "'%s' not in: %s",
            cases[i].words[w], err.message);
    size_t after = 0;
    while (bsim_library_type_at(lib, after, NULL))
      after++;
    CHECK(after == before, "%s left %zu types behind", path, after - before);
  }
  CHECK(bsim_library_find(lib, "TEST_LEFTOVER") == NULL, "leftover type");
  CHECK(bsim_library_find(lib, "TEST_POLY") != NULL, "lost the good plugin");
  bsim_library_free(lib);
}

/* A diagram naming its plugin: the caller's library does not change, and
 * the plugin stays loaded while a sim made from the diagram lives, even
 * once the library and the diagram are freed (ASan would see otherwise). */
static void diagram_library(void) {
  char dir[] = "/tmp/bsim_test_plugins_XXXXXX";
  if (!mkdtemp(dir)) {
    CHECK(0, "mkdtemp failed");
    return;
  }
  char file[1100], plugin[1024];
  snprintf(file, sizeof file, "%s/uses_plugin.xml", dir);
  plugin_path(plugin, sizeof plugin, "test_good");
  FILE *fp = fopen(file, "w");
  if (!fp) {
    CHECK(0, "cannot write %s", file);
    return;
  }
  fprintf(fp,
          "<diagram>\n"
          "  <library path=\"%s\"/>\n"
          "  <simulation final-time=\"4\" rtol=\"1e-9\" atol=\"1e-11\"/>\n"
          "  <output samples=\"41\"/>\n"
          "  <block id=\"one\" type=\"CONST_m\"/>\n"
          "  <block id=\"lag\" type=\"TEST_LAG\"><param name=\"tau\" "
          "value=\"2\"/></block>\n"
          "  <block id=\"poly\" type=\"TEST_POLY\"><param name=\"a\" "
          "value=\"3\"/><param name=\"b\" value=\"1\"/></block>\n"
          "  <link from=\"one:1\" to=\"lag:1\"/>\n"
          "  <link from=\"lag:1\" to=\"poly:1\"/>\n"
          "  <observe name=\"y\" signal=\"poly:1\"/>\n"
          "</diagram>\n",
          plugin);
  fclose(fp);
  bsim_error err;
  bsim_error_clear(&err);
  bsim_library *lib = bsim_library_create(&err);
  bsim_diagram *d = lib ? bsim_diagram_load(file, lib, &err) : NULL;
  CHECK(d != NULL, "load: %s", err.message);
  CHECK(bsim_library_find(lib, "TEST_LAG") == NULL,
        "the diagram's plugin leaked into the caller's library");
  bsim_sim *s = d ? bsim_sim_create(d, NULL, &err) : NULL;
  CHECK(!d || s, "create: %s", err.message);
  bsim_library_free(lib);
  bsim_diagram_free(d);
  if (s && bsim_sim_run(s, &err) == 0) {
    const double *t = bsim_result_times(s), *y = bsim_result_data(s);
    size_t last = bsim_result_rows(s) - 1;
    CHECK(fabs(y[last] - exact(t[last])) < 1e-6, "y(4) = %.17g", y[last]);
  } else if (s) {
    CHECK(0, "run: %s", err.message);
  }
  bsim_sim_free(s);
  remove(file);
  rmdir(dir);
}

/* A type whose define step picks a simulation function nobody provides. */
static int bad_sim_define(bsim_define_ctx *ctx, bsim_model *m) {
  m->sim = "no_such_function";
  return bsim_model_set_outputs(m, 1, 1, 1);
}
static void nop(bsim_block *blk, int flag) {}
static const bsim_block_type bad_sim = {
    "TEST_BAD_SIM", "test_bad_sim", "", "", NULL, 0, bad_sim_define, nop, 0};

static void unknown_sim(void) {
  bsim_error err;
  bsim_error_clear(&err);
  bsim_library *lib = bsim_library_create(&err);
  const bsim_block_type *types[] = {&bad_sim};
  char file[] = "/tmp/bsim_test_badsim_XXXXXX";
  int fd = mkstemp(file);
  if (!lib || fd < 0 || bsim_library_add(lib, types, 1, &err) != 0) {
    CHECK(0, "setup: %s", err.message);
    bsim_library_free(lib);
    return;
  }
  FILE *fp = fdopen(fd, "w");
  fputs("<diagram>\n  <block id=\"b\" type=\"TEST_BAD_SIM\"/>\n</diagram>\n",
        fp);
  fclose(fp);
  bsim_diagram *d = bsim_diagram_load(file, lib, &err);
  bsim_sim *s = d ? bsim_sim_create(d, NULL, &err) : NULL;
  CHECK(!s && err.status == BSIM_ERR_INPUT &&
            strstr(err.message, ":2: block 'b' (TEST_BAD_SIM)") &&
            strstr(err.message, "'no_such_function'"),
        "unknown simulation function: %s", err.message);
  bsim_sim_free(s);
  bsim_diagram_free(d);
  bsim_library_free(lib);
  remove(file);
}

/* Two libraries, each with its own TEST_POLY, used in two threads at once
 * on poly_time.xml: plugin test_good gives 3 t^2 + 1, test_other 3 t + 1.
 * The time comes exact from TIME_f, so only rounding separates the values
 * from the formula: 1e-12 relative. */
typedef struct job {
  const bsim_library *lib;
  int quadratic;
  int failures;
  char why[2100];
} job;

static void *work(void *arg) {
  job *j = arg;
  char diagram[1024];
  snprintf(diagram, sizeof diagram, "%s/plugins/poly_time.xml", BSIM_TEST_DATA);
  for (int rep = 0; rep < 20 && !j->failures; rep++) {
    bsim_error err;
    bsim_error_clear(&err);
    bsim_diagram *d = bsim_diagram_load(diagram, j->lib, &err);
    bsim_sim *s = d ? bsim_sim_create(d, NULL, &err) : NULL;
    if (!s || bsim_sim_run(s, &err) != 0) {
      snprintf(j->why, sizeof j->why, "%s", err.message);
      j->failures++;
    } else {
      const double *t = bsim_result_times(s), *y = bsim_result_data(s);
      for (size_t r = 0; r < bsim_result_rows(s); r++) {
        double want = j->quadratic ? 3 * t[r] * t[r] + 1 : 3 * t[r] + 1;
        if (fabs(y[r] - want) > 1e-12 * want) {
          snprintf(j->why, sizeof j->why, "y(%g) = %.17g, want %.17g", t[r],
                   y[r], want);
          j->failures++;
        }
      }
    }
    bsim_sim_free(s);
    bsim_diagram_free(d);
  }
  return NULL;
}

static void two_libraries(void) {
  bsim_library *a = with_plugin("test_good"), *b = with_plugin("test_other");
  job jobs[2] = {{a, 1, 0, ""}, {b, 0, 0, ""}};
  pthread_t th[2];
  int started = 0;
  for (int i = 0; a && b && i < 2; i++)
    started += pthread_create(&th[i], NULL, work, &jobs[i]) == 0;
  for (int i = 0; i < started; i++)
    pthread_join(th[i], NULL);
  CHECK(!a || !b || started == 2, "threads not started");
  for (int i = 0; i < started; i++)
    CHECK(!jobs[i].failures, "library %d: %s", i, jobs[i].why);
  /* A child of b cannot take test_good: its TEST_POLY clashes with b's. */
  if (b) {
    bsim_error err;
    bsim_error_clear(&err);
    char path[1024];
    plugin_path(path, sizeof path, "test_good");
    bsim_library *child = bsim_library_create_child(b, &err);
    CHECK(child && bsim_library_load(child, path, &err) == -1 &&
              strstr(err.message, "'TEST_POLY'") &&
              strstr(err.message, "test_other.so"),
          "clash through a parent: %s", err.message);
    bsim_library_free(child);
  }
  bsim_library_free(a);
  bsim_library_free(b);
}

int main(void) {
  bsim_process_init();
  good_plugin();
  bad_plugins();
  diagram_library();
  unknown_sim();
  two_libraries();
  return failures ? 1 : 0;
}
