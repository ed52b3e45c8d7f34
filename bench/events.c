/*
 * Events without continuous work: the counter of bench/data/events_counter.xml
 * (10^6 clock activations, nothing to integrate), run several times through
 * the library. Prints the best processor time of a run and the activations
 * served per second, the figure issue 12 asks to keep at 5.5 M/s or more,
 * and checks the count.
 *
 * usage: events [DIAGRAM] [REPEATS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/bench_util.h"
#include "blocksim/blocksim.h"

#ifndef BSIM_BENCH_DATA
#define BSIM_BENCH_DATA "bench/data"
#endif

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : BSIM_BENCH_DATA "/events_counter.xml";
  int repeats = argc > 2 ? atoi(argv[2]) : 5;
  if (repeats < 1) repeats = 1;
  bsim_process_init();
  bsim_error err;
  bsim_error_clear(&err);
  bsim_library *lib = bsim_library_create(&err);
  bsim_diagram *d = lib ? bsim_diagram_load(path, lib, &err) : NULL;
  bsim_sim *s = d ? bsim_sim_create(d, NULL, &err) : NULL;
  if (!s) {
    fprintf(stderr, "events: %s\n", err.message);
    return 1;
  }
  double best = 1e300;
  for (int r = 0; r < repeats; r++) {
    double a = bench_cpu();
    if (bsim_sim_run(s, &err) != 0) {
      fprintf(stderr, "events: %s\n", err.message);
      return 1;
    }
    double b = bench_cpu() - a;
    best = b < best ? b : best;
  }
  double events = bench_stat(s, "events");
  size_t rows = bsim_result_rows(s);
  /* the counter ends at the number of activations served before tf */
  double n = rows ? bsim_result_data(s)[rows - 1] : -1;
  printf("diagram: %s\n", path);
  printf("activations served: %.0f (counter at the end: %.0f)\n", events, n);
  printf("best of %d runs: %.6f s processor time\n", repeats, best);
  printf("activations per second: %.2f M\n", 1e-6 * events / best);
  bsim_sim_free(s);
  bsim_diagram_free(d);
  bsim_library_free(lib);
  return events == n || events == n + 1 ? 0 : 1;
}
