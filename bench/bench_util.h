/*
 * Small helpers the benchmark programs share: clocks and a run's
 * statistic by name. Header-only, static: each benchmark is one program.
 */
#ifndef BSIM_BENCH_UTIL_H
#define BSIM_BENCH_UTIL_H

#include <string.h>
#include <time.h>

#include "blocksim/blocksim.h"

/* Wall-clock seconds (monotonic). */
static inline double bench_wall(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Processor seconds of this process: what other work on a shared machine
 * does not change. */
static inline double bench_cpu(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The statistic `name` of the sim's last run, or -1. */
static inline double bench_stat(const bsim_sim *s, const char *name) {
  double v;
  const char *n;
  for (size_t i = 0; (n = bsim_stat_at(s, i, &v)) != NULL; i++)
    if (strcmp(n, name) == 0) return v;
  return -1;
}

#endif
