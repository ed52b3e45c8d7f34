/*
 * What the block-diagram machinery costs: the pendulum pair of
 * bench/data/pendulums.xml run through the library, against the same
 * equations written by hand for IDA (bench/ida_direct.c). Prints the best
 * wall time of several repeats of each, their ratio, the step counts and
 * the difference between the two final states.
 *
 * usage: overhead [DIAGRAM] [REPEATS]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/ida_direct.h"
#include "blocksim/blocksim.h"

#ifndef BSIM_BENCH_DATA
#define BSIM_BENCH_DATA "bench/data"
#endif

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double stat_of(const bsim_sim *s, const char *name) {
  double v;
  const char *n;
  for (size_t i = 0; (n = bsim_stat_at(s, i, &v)) != NULL; i++)
    if (strcmp(n, name) == 0) return v;
  return -1;
}

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : BSIM_BENCH_DATA "/pendulums.xml";
  int repeats = argc > 2 ? atoi(argv[2]) : 20;
  if (repeats < 1) repeats = 1;
  bsim_error err;
  bsim_error_clear(&err);
  bsim_library *lib = bsim_library_create(&err);
  double t0 = now();
  bsim_diagram *d = lib ? bsim_diagram_load(path, lib, &err) : NULL;
  bsim_sim *s = d ? bsim_sim_create(d, NULL, &err) : NULL;
  double t_prepare = now() - t0;
  if (!s) {
    fprintf(stderr, "overhead: %s\n", err.message);
    bsim_diagram_free(d);
    bsim_library_free(lib);
    return 1;
  }
  /* Same settings for the hand-written program: read back from the run. */
  const double tf = 20, rtol = 1e-8, atol = 1e-10;
  const int samples = 201;

  double best_lib = HUGE_VAL, best_ida = HUGE_VAL;
  double fin[4] = {0};
  long ida_steps = 0;
  for (int r = 0; r < repeats; r++) {
    double a = now();
    if (bsim_sim_run(s, &err) != 0) {
      fprintf(stderr, "overhead: %s\n", err.message);
      return 1;
    }
    double b = now();
    if (bench_ida_direct(tf, samples, rtol, atol, fin, &ida_steps) != 0) {
      fprintf(stderr, "overhead: the hand-written IDA program failed\n");
      return 1;
    }
    double c = now();
    best_lib = fmin(best_lib, b - a);
    best_ida = fmin(best_ida, c - b);
  }
  size_t rows = bsim_result_rows(s), cols = bsim_result_cols(s);
  const double *data = bsim_result_data(s);
  if (rows != (size_t)samples || cols != 2 ||
      bsim_result_times(s)[rows - 1] != tf) {
    fprintf(stderr,
            "overhead: %s is not the diagram this benchmark expects "
            "(tf %g, %d samples, columns th1, th2)\n",
            path, tf, samples);
    return 1;
  }
  double dth1 = fabs(data[(rows - 1) * cols] - fin[0]);
  double dth2 = fabs(data[(rows - 1) * cols + 1] - fin[2]);
  double lib_steps = stat_of(s, "steps");
  printf("model: %s (4 states, %d samples to t=%g, rtol %g, atol %g)\n", path,
         samples, tf, rtol, atol);
  printf("best of %d repeats\n", repeats);
  printf("%-22s %12s %10s %14s\n", "", "wall s", "steps", "us per step");
  printf("%-22s %12.6f %10.0f %14.3f\n", "blocksim (run only)", best_lib,
         lib_steps, 1e6 * best_lib / lib_steps);
  printf("%-22s %12.6f %10ld %14.3f\n", "hand-written IDA", best_ida, ida_steps,
         1e6 * best_ida / (double)ida_steps);
  printf("wall-time ratio blocksim / IDA: %.2f\n", best_lib / best_ida);
  printf("step-count ratio blocksim / IDA: %.3f\n",
         lib_steps / (double)ida_steps);
  printf("per-step time ratio: %.2f\n",
         (best_lib / lib_steps) / (best_ida / (double)ida_steps));
  printf("load + flatten + compile (once): %.6f s\n", t_prepare);
  printf("final |th1 - th1_ida| = %.2g, |th2 - th2_ida| = %.2g\n", dth1, dth2);
  bsim_sim_free(s);
  bsim_diagram_free(d);
  bsim_library_free(lib);
  return 0;
}
