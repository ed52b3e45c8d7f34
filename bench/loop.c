/*
 * bench/loop: what the events of a sampled-data loop cost the integrator,
 * the figure issue 12 asks for (steps, residual evaluations and restarts
 * per clock tick), and what carrying the history across the ticks does to
 * the accuracy. The loop is tests/data/hybrid/sampled_loop.xml (SampleCLK
 * 0.01 s, DLR PI, SAMPHOLD_m, plant 1/(s+1)) run over [0, 100] at rtol 1e-8,
 * atol 1e-10 (10 000 ticks) with ida carrying its history, with ida
 * restarting at every tick (--no-carry) and with auto; each is compared
 * with a reference run at rtol 1e-12, atol 1e-14 (ida, restarting at every
 * tick) on 10 001 samples of y and u. Times are processor seconds, best of
 * REPEATS.
 *
 * usage: loop [REPEATS]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/bench_util.h"
#include "blocksim/blocksim.h"

#ifndef BSIM_TEST_DATA
#define BSIM_TEST_DATA "tests/data"
#endif

static const double TF = 100;
static const long SAMPLES = 10001;

typedef struct variant {
  const char *label, *solver;
  double rtol, atol;
  int no_carry;
} variant;

/* Runs the loop once per repeat with v's settings; the sim of the last
 * run (NULL on failure, message printed) and its best processor time. */
static bsim_sim *run(bsim_diagram *d, const variant *v, int repeats,
                     double *best) {
  bsim_options o;
  bsim_options_init(&o);
  o.final_time = TF;
  o.samples = SAMPLES;
  o.rtol = v->rtol;
  o.atol = v->atol;
  o.solver = v->solver;
  o.no_carry = v->no_carry;
  bsim_error err;
  bsim_error_clear(&err);
  bsim_sim *s = bsim_sim_create(d, &o, &err);
  *best = HUGE_VAL;
  for (int r = 0; s && r < repeats; r++) {
    double t0 = bench_cpu();
    if (bsim_sim_run(s, &err) != 0) {
      bsim_sim_free(s);
      s = NULL;
      break;
    }
    *best = fmin(*best, bench_cpu() - t0);
  }
  if (!s) fprintf(stderr, "loop: %s: %s\n", v->label, err.message);
  return s;
}

/* Largest |a - b| of column c over the samples. */
static double max_diff(const bsim_sim *a, const bsim_sim *b, size_t c) {
  size_t rows = bsim_result_rows(a), cols = bsim_result_cols(a);
  const double *x = bsim_result_data(a), *y = bsim_result_data(b);
  double worst = 0;
  for (size_t i = 0; i < rows; i++)
    worst = fmax(worst, fabs(x[i * cols + c] - y[i * cols + c]));
  return worst;
}

int main(int argc, char **argv) {
  int repeats = argc > 1 ? atoi(argv[1]) : 3;
  if (repeats < 1) repeats = 1;
  const char *path = BSIM_TEST_DATA "/hybrid/sampled_loop.xml";
  bsim_error err;
  bsim_error_clear(&err);
  bsim_library *lib = bsim_library_create(&err);
  bsim_diagram *d = lib ? bsim_diagram_load(path, lib, &err) : NULL;
  if (!d) {
    fprintf(stderr, "loop: %s\n", err.message);
    bsim_library_free(lib);
    return 1;
  }
  const variant ref = {"reference", "ida", 1e-12, 1e-14, 1};
  const variant vs[] = {{"ida (carry)", "ida", 1e-8, 1e-10, 0},
                        {"ida --no-carry", "ida", 1e-8, 1e-10, 1},
                        {"auto", "auto", 1e-8, 1e-10, 0}};
  double tref;
  bsim_sim *r = run(d, &ref, 1, &tref);
  int rc = r ? 0 : 1;
  if (r &&
      (bsim_result_rows(r) != (size_t)SAMPLES || bsim_result_cols(r) != 2)) {
    fprintf(stderr,
            "loop: %s is not the loop this benchmark expects "
            "(observed y and u)\n",
            path);
    rc = 1;
  }
  if (rc == 0) {
    printf("diagram: %s, t in [0, %g], %ld samples\n", path, TF, SAMPLES);
    printf("reference: ida, rtol 1e-12, atol 1e-14, restarting at every "
           "tick (%.0f steps)\n",
           bench_stat(r, "steps"));
    printf("%-16s %8s %8s %8s %8s %8s %10s %10s %9s\n", "rtol 1e-8", "ticks",
           "steps", "res", "restarts", "carried", "max|dy|", "max|du|",
           "cpu s");
    printf("%-16s %8s %8s %8s %8s %8s %10s %10s\n", "", "", "/tick", "/tick",
           "/tick", "/tick", "vs ref", "vs ref");
  }
  for (size_t i = 0; rc == 0 && i < sizeof vs / sizeof vs[0]; i++) {
    double cpu;
    bsim_sim *s = run(d, &vs[i], repeats, &cpu);
    if (!s) {
      rc = 1;
      break;
    }
    /* the clock's ticks: every event but the crossings' */
    double ticks = bench_stat(s, "events") - bench_stat(s, "roots");
    printf("%-16s %8.0f %8.3f %8.3f %8.4f %8.4f %10.2g %10.2g %9.4f\n",
           vs[i].label, ticks, bench_stat(s, "steps") / ticks,
           bench_stat(s, "residual-evals") / ticks,
           bench_stat(s, "cold-restarts") / ticks,
           bench_stat(s, "carried") / ticks, max_diff(s, r, 0),
           max_diff(s, r, 1), cpu);
    bsim_sim_free(s);
  }
  bsim_sim_free(r);
  bsim_diagram_free(d);
  bsim_library_free(lib);
  return rc;
}
