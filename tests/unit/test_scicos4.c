/*
 * Xcos type-4 blocks through blocksim's scicos_block4.h: the C files of
 * tests/plugins/xcos/ are written as Xcos blocks are (accessor macros and
 * Xcos's services only) and compiled unchanged into the plugin
 * test_xcos4.so; here they run in the diagrams of tests/data/scicos4/ and
 * are checked against closed forms, and against what Scilab's simulator
 * computed with the same C files compiled into Scilab
 * (tests/data/scicos4/xcos_ref.sce and run_refs.sh made the .xcos
 * diagrams and their records ref_<name>/). The plugin's one type-1
 * function (xs_crossings1, Xcos's older argument list) is compared the
 * same way (tests/data/scicos1/): its outputs are crossing counts, exact.
 *
 * Tolerances: runs at rtol 1e-9, atol 1e-11 keep the global error of
 * these smooth or piecewise-smooth solutions near 1e-8, so 1e-6 absolute
 * for integrated values; outputs computed from exact inputs (the
 * saturation of sin t, a mean of tick times) must match to rounding,
 * 1e-12. Against Scilab (LSodar at rtol 1e-10, atol 1e-12): 1e-6 of each
 * column's peak for the integrated diagrams, both sides being far more
 * accurate; 1e-12 for the running mean, computed from tick times alone.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "blocksim/blocksim.h"
#include "tests/unit/test_check.h"
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "tests/unit/xcos_ref.h"
#pragma GCC diagnostic pop

#define PI 3.14159265358979323846

static bsim_library *lib;

static bsim_sim *run(const char *file, const char *override, bsim_error *err) {
  char path[1024];
  snprintf(path, sizeof path, "%s/scicos4/%s", BSIM_TEST_DATA, file);
  bsim_error_clear(err);
  bsim_diagram *d = bsim_diagram_load(path, lib, err);
  if (d && override) {
    char target[64];
    const char *eq = strchr(override, '=');
    snprintf(target, sizeof target, "%.*s", (int)(eq - override), override);
    if (bsim_diagram_override(d, target, eq + 1, err) != 0) {
      bsim_diagram_free(d);
      return NULL;
    }
  }
  bsim_sim *s = d ? bsim_sim_create(d, NULL, err) : NULL;
  bsim_diagram_free(d);
  if (s && bsim_sim_run(s, err) != 0) {
    bsim_sim_free(s);
    return NULL;
  }
  return s;
}

static double stat(const bsim_sim *s, const char *name) {
  double v;
  const char *n;
  for (size_t i = 0; (n = bsim_stat_at(s, i, &v)) != NULL; i++)
    if (strcmp(n, name) == 0) return v;
  return -1;
}

/* Largest |column c - f(t)| over the samples. */
static double worst(const bsim_sim *s, size_t c, double (*f)(double)) {
  const double *t = bsim_result_times(s), *v = bsim_result_data(s);
  size_t cols = bsim_result_cols(s);
  double w = 0;
  for (size_t r = 0; r < bsim_result_rows(s); r++)
    w = fmax(w, fabs(v[r * cols + c] - f(t[r])));
  return w;
}

/* ---- xs_oscillator: w = 2, zeta = 0.25, unit step from rest ---------- */

static const double W = 2, Z = 0.25;
static double osc_x1(double t) {
  double s = sqrt(1 - Z * Z), wd = W * s;
  return 1 - exp(-Z * W * t) * (cos(wd * t) + Z / s * sin(wd * t));
}
static double osc_x2(double t) {
  double s = sqrt(1 - Z * Z);
  return W / s * exp(-Z * W * t) * sin(W * s * t);
}

static void oscillator(void) {
  bsim_error err;
  bsim_sim *s = run("oscillator.xml", NULL, &err);
  CHECK(s != NULL, "oscillator: %s", err.message);
  if (!s) return;
  CHECK(bsim_result_rows(s) == 101 && bsim_result_cols(s) == 2, "shape");
  double e1 = worst(s, 0, osc_x1), e2 = worst(s, 1, osc_x2);
  CHECK(e1 < 1e-6 && e2 < 1e-6, "x1 off by %g, x2 by %g", e1, e2);
  bsim_sim_free(s);

  /* Xcos's error services: a block's own message, and an error code. */
  s = run("oscillator.xml", "osc.rpar=1", &err);
  CHECK(!s && err.status == BSIM_ERR_SIM &&
            strstr(err.message, "block 'osc' (xs_oscillator)") &&
            strstr(err.message, "xs_oscillator: needs rpar = [w; zeta]"),
        "Coserror: %s", err.message);
  bsim_sim_free(s);
  s = run("oscillator.xml", "osc.rpar=[-2; 0.25]", &err);
  CHECK(!s && err.status == BSIM_ERR_SIM &&
            strstr(err.message, "block 'osc'") &&
            strstr(err.message, "singularity in the block "
                                "(set_block_error(-2))"),
        "set_block_error: %s", err.message);
  bsim_sim_free(s);
}

/* ---- xs_satmode: clamp(sin t, -0.5, 0.5) and its integral ------------ */

static double sat(double t) {
  return fmax(-0.5, fmin(0.5, sin(t)));
}

/* The integral, piece by piece between the times sin t = +-0.5. */
static double sat_integral(double t) {
  double a = 0, sum = 0;
  for (int k = 0; a < t; k++) {
    double b =
        fmin(t, k % 2 ? 5 * PI / 6 + (k / 2) * PI : PI / 6 + (k / 2) * PI);
    double mid = sin(0.5 * (a + b));
    if (mid > 0.5)
      sum += 0.5 * (b - a);
    else if (mid < -0.5)
      sum -= 0.5 * (b - a);
    else
      sum += cos(a) - cos(b);
    a = b;
  }
  return sum;
}

static void satmode(void) {
  bsim_error err;
  bsim_sim *s = run("satmode.xml", NULL, &err);
  CHECK(s != NULL, "satmode: %s", err.message);
  if (!s) return;
  double ey = worst(s, 0, sat), ei = worst(s, 1, sat_integral);
  CHECK(ey < 1e-12, "y off by %g", ey);
  CHECK(ei < 1e-6, "integral off by %g", ei);
  /* sin t = +-0.5 at pi/6 + k pi and 5 pi/6 + k pi: 7 times in (0, 10],
   * each a root the solver located (so the mode could switch there). */
  CHECK(stat(s, "roots") == 7, "%g roots", stat(s, "roots"));
  bsim_sim_free(s);
}

/* ---- xs_runmean: work memory, events, messages, cold restarts -------- */

/* Ticks at 0.25 + 0.5 j; the mean of the first n tick times is 0.25 n. */
static double mean_of_ticks(double t) {
  return t < 0.25 ? 0 : 0.25 * (floor((t - 0.25) / 0.5) + 1);
}

static void runmean(void) {
  bsim_error err;
  for (int restart = 0; restart < 2; restart++) {
    bsim_sim *s = run("runmean.xml", restart ? "restart=1" : NULL, &err);
    CHECK(s != NULL, "runmean: %s", err.message);
    if (!s) return;
    double e = worst(s, 0, mean_of_ticks);
    CHECK(e < 1e-12, "mean off by %g", e);
    long dropped = -1;
    const char *msg = bsim_sim_message_at(s, 0, &dropped);
    CHECK(msg &&
              strcmp(msg, "mean: runmean: 10 samples, last at t=4.75") == 0 &&
              !bsim_sim_message_at(s, 1, NULL) && dropped == 0,
          "sciprint gave '%s'", msg ? msg : "(nothing)");
    /* The ticks reach no continuous part: hot continuations, unless the
     * block asks for cold restarts (1 at the start + 1 per tick). */
    CHECK(stat(s, "cold-restarts") == (restart ? 11 : 1),
          "restart=%d: %g cold restarts", restart, stat(s, "cold-restarts"));
    bsim_sim_free(s);
  }
}

/* ---- xs_implicit: res = x' + 2 x - 1 ---------------------------------- */

static double implicit_x(double t) {
  return 0.5 * (1 - exp(-2 * t));
}

static void implicit(void) {
  bsim_error err;
  bsim_sim *s = run("implicit.xml", NULL, &err);
  CHECK(s != NULL, "implicit: %s", err.message);
  if (s) {
    double e = worst(s, 0, implicit_x);
    CHECK(e < 1e-6, "x off by %g", e);
  }
  bsim_sim_free(s);
  s = run("implicit.xml", "algebraic=1", &err);
  CHECK(!s && err.status == BSIM_ERR_SIM &&
            strstr(err.message, "block 'imp'") &&
            strstr(err.message, "state 1 is algebraic"),
        "algebraic state: %s", err.message);
  bsim_sim_free(s);
}

/* ---- the same diagrams in Scilab ------------------------------------- */

/* The native diagrams, and the .xcos files Scilab saved (read by the Xcos
 * reader: generic_block3 blocks naming the plugin's functions), both
 * against Scilab's records. */
static void against_xcos(void) {
  static const struct {
    const char *file, *sink, *csv;
    double tf, rel;
  } cases[] = {
      {"oscillator.xml", "scope", "scicos4/ref_oscillator/CSCOPE_3.csv", 10,
       1e-6},
      {"satmode.xml", "scope", "scicos4/ref_satmode/CSCOPE_5.csv", 10, 1e-6},
      {"runmean.xml", "scope", "scicos4/ref_runmean/CSCOPE_4.csv", 5, 1e-12},
      {"oscillator.xcos", "CSCOPE_1", "scicos4/ref_oscillator/CSCOPE_3.csv", 10,
       1e-6},
      {"satmode.xcos", "CSCOPE_1", "scicos4/ref_satmode/CSCOPE_5.csv", 10,
       1e-6},
      {"runmean.xcos", "CSCOPE_1", "scicos4/ref_runmean/CSCOPE_4.csv", 5,
       1e-12},
      /* a type-1 function (blocks/scicos1.c), counting crossings */
      {"../scicos1/crossings1.xml", "scope",
       "scicos1/ref_crossings1/CSCOPE_3.csv", 10, 1e-12},
      {"../scicos1/crossings1.xcos", "CSCOPE_1",
       "scicos1/ref_crossings1/CSCOPE_3.csv", 10, 1e-12},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    bsim_error err;
    bsim_sim *s = run(cases[i].file, NULL, &err);
    CHECK(s != NULL, "%s: %s", cases[i].file, err.message);
    if (s)
      xr_compare(s, cases[i].sink, cases[i].csv, cases[i].tf, cases[i].rel,
                 cases[i].file);
    bsim_sim_free(s);
  }
}

/* An .xcos file calling a plugin's function with the other argument list
 * (type 1 for a type-4 function, or the reverse) is bad input, not a
 * crash. */
static void wrong_function_type(void) {
  static const struct {
    const char *file, *from, *to, *words;
  } cases[] = {
      {"scicos1/crossings1.xcos",
       "simulationFunctionName=\"xs_crossings1\" "
       "simulationFunctionType=\"TYPE_1\"",
       "simulationFunctionName=\"xs_crossings1\" "
       "simulationFunctionType=\"C_OR_FORTRAN\"",
       "calls 'xs_crossings1' as a function of type 4, but it is registered "
       "as a type-1 function"},
      {"scicos4/satmode.xcos",
       "simulationFunctionName=\"xs_satmode\" "
       "simulationFunctionType=\"C_OR_FORTRAN\"",
       "simulationFunctionName=\"xs_satmode\" "
       "simulationFunctionType=\"DYNAMIC_C_1\"",
       "calls 'xs_satmode' as a function of type 2001, but it is registered "
       "as a type-4 function"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", BSIM_TEST_DATA, cases[i].file);
    static char text[200000], out[200100];
    FILE *f = fopen(path, "r");
    size_t len = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f) fclose(f);
    text[len] = '\0';
    char *at = strstr(text, cases[i].from);
    CHECK(at != NULL, "%s: nothing to replace", cases[i].file);
    if (!at) continue;
    snprintf(out, sizeof out, "%.*s%s%s", (int)(at - text), text, cases[i].to,
             at + strlen(cases[i].from));
    bsim_error err;
    bsim_error_clear(&err);
    bsim_diagram *d =
        bsim_diagram_load_memory("variant.xcos", out, strlen(out), lib, &err);
    CHECK(!d && err.status == BSIM_ERR_INPUT, "%s: accepted (status %d)",
          cases[i].file, err.status);
    CHECK(strstr(err.message, cases[i].words) != NULL, "%s: message: %s",
          cases[i].file, err.message);
    bsim_diagram_free(d);
  }
}

/* ---- the services' thread-local block --------------------------------- */

/* Two threads run the mode and event blocks at once; each must get the
 * same samples as alone, bit for bit (a service answering for the other
 * thread's block would show). */
typedef struct job {
  const char *file;
  double ref[101];
  int n, bad;
} job;

/* A port size far beyond an int is refused before it is converted (the
 * conversion was undefined: UBSan's float-cast-overflow). */
static void huge_port_size(void) {
  bsim_error err;
  bsim_sim *s = run("runmean.xml", "mean.in=1e300", &err);
  CHECK(!s && err.status == BSIM_ERR_INPUT &&
            strstr(err.message, "port sizes must be integers of at most 1e9"),
        "a port size of 1e300: %s", err.message);
  bsim_sim_free(s);
}

static void *work(void *arg) {
  job *j = arg;
  for (int rep = 0; rep < 10 && !j->bad; rep++) {
    bsim_error err;
    bsim_sim *s = run(j->file, NULL, &err);
    if (!s) {
      j->bad = 1;
      break;
    }
    const double *v = bsim_result_data(s);
    size_t cols = bsim_result_cols(s);
    for (int r = 0; r < j->n; r++)
      if (memcmp(&v[r * cols], &j->ref[r], sizeof(double)) != 0) j->bad = 1;
    bsim_sim_free(s);
  }
  return NULL;
}

static void threads(void) {
  job jobs[2] = {{"satmode.xml", {0}, 0, 0}, {"runmean.xml", {0}, 0, 0}};
  for (int i = 0; i < 2; i++) {
    bsim_error err;
    bsim_sim *s = run(jobs[i].file, NULL, &err);
    if (!s) {
      CHECK(0, "%s: %s", jobs[i].file, err.message);
      return;
    }
    jobs[i].n = (int)bsim_result_rows(s);
    for (int r = 0; r < jobs[i].n; r++)
      jobs[i].ref[r] = bsim_result_data(s)[r * bsim_result_cols(s)];
    bsim_sim_free(s);
  }
  pthread_t th[2];
  int started = 0;
  for (int i = 0; i < 2; i++)
    started += pthread_create(&th[i], NULL, work, &jobs[i]) == 0;
  for (int i = 0; i < started; i++)
    pthread_join(th[i], NULL);
  CHECK(started == 2 && !jobs[0].bad && !jobs[1].bad,
        "runs in threads differ from runs alone");
}

int main(void) {
  bsim_process_init();
  bsim_error err;
  bsim_error_clear(&err);
  char plugin[1024];
  snprintf(plugin, sizeof plugin, "%s/test_xcos4.so", BSIM_TEST_PLUGINS);
  lib = bsim_library_create(&err);
  if (!lib || bsim_library_load(lib, plugin, &err) != 0) {
    fprintf(stderr, "FAILED: loading %s: %s\n", plugin, err.message);
    bsim_library_free(lib);
    return 1;
  }
  oscillator();
  satmode();
  runmean();
  implicit();
  against_xcos();
  wrong_function_type();
  huge_port_size();
  threads();
  bsim_library_free(lib);
  return failures ? 1 : 0;
}
