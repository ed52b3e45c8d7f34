/*
 * Acceptance of the acausal components: every Electrical and
 * ModelicaBlocks demo of Scilab 6.1.1 built only from them (MBLOCK demos
 * excepted: they carry user Modelica code), copied with Scilab's own
 * records of their sinks by tests/data/acausal/demos/import_demos.py, runs
 * from its .xcos unchanged, and each sink's record matches Scilab's at
 * Scilab's row times within a fraction of the signal's peak (the issue
 * asks 1e-3). Each case gives the difference measured and why the
 * tolerance is what it is; where Scilab's record leaves the converged
 * solution (a run at rtol 1e-11, itself within 1e-3 of one at 1e-12),
 * the comparison stops there and the case says so. One CTest per demo:
 * acausal_demos DEMO, or acausal_demos --report DEMO for the worst
 * differences. The demo converted to the native format runs bit for bit
 * the same.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "blocksim/blocksim.h"
#include "tests/unit/test_library.h"
#include "tests/unit/xcos_compare.h"

#define DEMOS BSIM_TEST_DATA "/acausal/demos"

typedef struct demo_case {
  const char *demo;
  const char *ref;  /* Scilab's record, <ref>.csv.gz */
  const char *path; /* blocksim's record of the same sink */
  double tol;       /* fraction of the signal's peak */
  const char *why;
  double before; /* > 0: compare Scilab's rows before this time only */
  size_t skip;   /* Scilab's first rows left out (the reason in why) */
} demo_case;

static const demo_case cases[] = {
    {"ModelicaBlocks-RLC_Modelica", "MScope", "MScope", 1e-3,
     "rtol = atol = 1e-6 for a current of 1e-2 A, below atol's reach: "
     "4.0e-4 of its peak seen; Scilab's record is itself 2.5e-4 from a run "
     "at rtol 1e-11",
     0, 0},
    {"ModelicaBlocks-Hydraulics", "MScope", "MScope", 1e-3,
     "the valve opening follows a controller at rtol 1e-10, atol 1e-8: "
     "1.3e-4 seen, Scilab's record 2.4e-4 from a run at rtol 1e-11",
     0, 0},
    {"Electrical-Bridge_Rectifier", "CSCOPE_2", "CSCOPE", 1e-5,
     "exponential diodes at rtol 1e-8: 5e-7 seen", 0, 0},
    {"Electrical-Opamp_Amplifier", "MScope", "MScope", 1e-5,
     "an algebraic circuit (ideal op-amp) at rtol 1e-6: 1.6e-6 seen", 0, 0},
    {"Electrical-Boost_Converter", "MScope", "MScope", 1e-4,
     "200 switchings located at rtol 1e-8: 1.2e-5 seen", 0, 0},
    {"Electrical-Switched_capacitor_integrator", "CSCOPE_13", "CSCOPE", 1e-3,
     "switches of 1e-4 / 1e8 ohm charging picofarads at rtol = atol = 1e-6: "
     "5e-4 seen on the integrator's output, 4.9e-6 on the other",
     0, 0},
    {"Electrical-Transformer", "MScope", "MScope", 1e-4,
     "index 2 (inductors coupled by an ideal transformer), reduced: 5e-6 "
     "seen",
     0, 0},
    {"Electrical-Difference_amplifier", "MScope", "MScope", 1e-4,
     "index 2 (junction capacitances in loops with the sources), reduced: "
     "1.3e-5 seen",
     0, 0},
    {"Electrical-Colpitts_Oscillator", "MScope", "MScope", 1e-3,
     "index 2, reduced; an oscillator at rtol = atol = 1e-6 whose phase "
     "error grows with time: 6.9e-4 seen at the end (Scilab's record 4.4e-5 "
     "from a run at rtol 1e-11, blocksim's 6.7e-4)",
     0, 0},
    {"Electrical-AND_Gate", "MScope", "MScope", 1e-4,
     "MOS transistors without charges at rtol 1e-6: 1.3e-6 seen. Scilab's "
     "first row (t = 0) shows the output's potential before Scilab "
     "initialises it (0; its next row, at 1e-6 s, 0.0362), blocksim the "
     "consistent value 0.0356: that row is left out",
     0, 1},
    {"Electrical-DC_DC_Buck_Converter", "MScope", "MScope", 1e-3,
     "a PWM loop that amplifies timing differences: Scilab's record leaves "
     "a run at rtol 1e-11 (which a run at 1e-12 matches within 1e-3 of the "
     "peak over the whole run) by more than 1e-3 from t = 0.01137, "
     "blocksim's from t = 0.0138; compared before 0.0113",
     0.0113, 0},
    {"Electrical-DC_DC_Buck_Converter", "CSCOPXY_12", "CSCOPXY", 1e-3,
     "the same signals as MScope, drawn as x-y", 0.0113, 0},
};

#define NCASES (sizeof cases / sizeof cases[0])

static bsim_sim *run_demo(const char *demo, bsim_error *err) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s/%s.xcos.gz", DEMOS, demo, demo);
  return ref_run_xcos(path, demo, 0, err);
}

/* `blocksim convert`'s native diagram of the demo, run: every record the
 * same as the .xcos run's, bit for bit (issue 7: converting and running
 * the result gives the same numbers; the acausal connections are written
 * as <connect>, and a component the file stores as time-dependent as
 * dep-t="1" on its parameters). Returns the number of problems. */
static int check_convert(const char *demo, const bsim_sim *xs) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s/%s.xcos.gz", DEMOS, demo, demo);
  size_t len = 0, nlen = 0;
  char *text = ref_read_file(path, &len), *native = NULL;
  bsim_error err;
  bsim_error_clear(&err);
  bsim_diagram *d =
      text ? bsim_diagram_load_memory(demo, text, len, test_library(), &err)
           : NULL;
  bsim_sim *s = d ? bsim_sim_create(d, NULL, &err) : NULL;
  int rc = s ? bsim_diagram_to_native(d, s, &native, &nlen, &err) : -1;
  bsim_sim_free(s);
  bsim_diagram_free(d);
  free(text);
  bsim_diagram *nd = rc == 0
                         ? bsim_diagram_load_memory("converted.xml", native,
                                                    nlen, test_library(), &err)
                         : NULL;
  bsim_sim *ns = nd ? bsim_sim_create(nd, NULL, &err) : NULL;
  if (ns && bsim_sim_run(ns, &err) != 0) {
    bsim_sim_free(ns);
    ns = NULL;
  }
  int problems = 0;
  if (!ns || !xs) {
    printf("%s: converted: %s\n", demo, xs ? err.message : "no .xcos run");
    problems++;
  }
  const char *name;
  size_t rows, nrows;
  int cols, ncols;
  const double *data, *ndata;
  for (size_t i = 0;
       ns && xs && (name = bsim_record_at(xs, i, &rows, &cols, &data)); i++) {
    ndata = record_of(ns, name, &nrows, &ncols);
    if (nrows != rows || ncols != cols ||
        (rows > 0 &&
         (!ndata ||
          memcmp(ndata, data, sizeof(double) * rows * (size_t)(cols + 1))))) {
      printf("%s: converted, record %s differs\n", demo, name);
      problems++;
    }
  }
  bsim_sim_free(ns);
  bsim_diagram_free(nd);
  free(native);
  return problems;
}

static int check_demo(const char *demo, int report) {
  bsim_error err;
  bsim_error_clear(&err);
  bsim_sim *s = run_demo(demo, &err);
  int problems = 0, cases_seen = 0;
  for (size_t i = 0; i < NCASES; i++) {
    const demo_case *c = &cases[i];
    if (strcmp(c->demo, demo) != 0) continue;
    cases_seen++;
    char path[1024], msg[3000] = "";
    snprintf(path, sizeof path, "%s/%s/%s.csv.gz", DEMOS, demo, c->ref);
    double worst;
    int ok = compare_sink(s, err.message, path, c->path, c->before, c->skip,
                          c->tol, &worst, msg, sizeof msg);
    if (report)
      printf("%s %s worst %.3g of the peak (allowed %.3g)%s%s\n", demo, c->ref,
             worst, c->tol, ok ? "" : ": ", ok ? "" : msg);
    if (!ok) {
      printf("%s %s (%s): %s\n", demo, c->ref, c->path, msg);
      problems++;
    }
  }
  if (!cases_seen) {
    printf("no case for demo '%s'\n", demo);
    problems++;
  }
  problems += check_convert(demo, s);
  bsim_sim_free(s);
  return problems;
}

int main(int argc, char **argv) {
  int report = argc > 1 && strcmp(argv[1], "--report") == 0;
  if (argc != 2 + report) {
    fprintf(stderr, "usage: acausal_demos [--report] DEMO\n");
    return 2;
  }
  bsim_process_init();
  return check_demo(argv[1 + report], report) ? 1 : 0;
}
