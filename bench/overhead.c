/*
 * What the block-diagram machinery costs: the pendulum pair of
 * bench/data/pendulums.xml run through the library, against the same
 * equations written by hand for IDA (bench/ida_direct.c). Prints the best
 * wall time of several repeats of each, their ratio, the step counts and
 * the difference between the two final states.
 *
 * Wall times move with the machine's load; instruction counts do not.
 * --callgrind runs this program twice more under valgrind's callgrind,
 * collecting only the library's run, then only the hand-written program's
 * (--collect lib|ida, toggled by callgrind's client requests), and prints
 * both counts and their ratio: the figure issue 12 asks to bring to 1.05.
 *
 * usage: overhead [DIAGRAM] [REPEATS]
 *        overhead --callgrind [DIAGRAM]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#endif
#endif
#ifndef CALLGRIND_TOGGLE_COLLECT
#define CALLGRIND_TOGGLE_COLLECT
#endif

#include "bench/bench_util.h"
#include "bench/ida_direct.h"
#include "blocksim/blocksim.h"

#ifndef BSIM_BENCH_DATA
#define BSIM_BENCH_DATA "bench/data"
#endif

/* Runs `valgrind --tool=callgrind` on this program collecting `what`, and
 * returns the instruction count it reports (-1 when it could not run). */
static double callgrind_count(const char *self, const char *path,
                              const char *what) {
  int fd[2];
  if (pipe(fd) != 0) return -1;
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    dup2(fd[1], 2);
    FILE *null = freopen("/dev/null", "w", stdout);
    (void)null;
    close(fd[0]);
    close(fd[1]);
    execlp("valgrind", "valgrind", "--tool=callgrind", "--collect-atstart=no",
           "--callgrind-out-file=/dev/null", self, "--collect", what, path,
           (char *)NULL);
    _exit(127);
  }
  close(fd[1]);
  FILE *f = fdopen(fd[0], "r");
  char line[512];
  double n = -1;
  while (f && fgets(line, sizeof line, f)) {
    const char *c = strstr(line, "Collected :");
    if (c) n = strtod(c + strlen("Collected :"), NULL);
  }
  if (f) fclose(f);
  int st;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? n : -1;
}

static int callgrind_report(const char *self, const char *path) {
  double lib = callgrind_count(self, path, "lib");
  double ida = callgrind_count(self, path, "ida");
  if (lib < 0 || ida < 0) {
    fprintf(stderr, "overhead: running valgrind --tool=callgrind failed "
                    "(is valgrind installed?)\n");
    return 1;
  }
  printf("model: %s\n", path);
  printf("instructions, blocksim run:     %12.0f\n", lib);
  printf("instructions, hand-written IDA: %12.0f\n", ida);
  printf("instruction ratio blocksim / IDA: %.3f\n", lib / ida);
  return 0;
}

int main(int argc, char **argv) {
  const char *collect = NULL;
  if (argc > 1 && strcmp(argv[1], "--callgrind") == 0)
    return callgrind_report(
        argv[0], argc > 2 ? argv[2] : BSIM_BENCH_DATA "/pendulums.xml");
  if (argc > 2 && strcmp(argv[1], "--collect") == 0) {
    collect = argv[2];
    argv += 2;
    argc -= 2;
  }
  const char *path = argc > 1 ? argv[1] : BSIM_BENCH_DATA "/pendulums.xml";
  int repeats = collect ? 1 : argc > 2 ? atoi(argv[2]) : 20;
  if (repeats < 1) repeats = 1;
  bsim_error err;
  bsim_error_clear(&err);
  bsim_library *lib = bsim_library_create(&err);
  double t0 = bench_wall();
  bsim_diagram *d = lib ? bsim_diagram_load(path, lib, &err) : NULL;
  bsim_sim *s = d ? bsim_sim_create(d, NULL, &err) : NULL;
  double t_prepare = bench_wall() - t0;
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
    int lib_only = collect && strcmp(collect, "lib") == 0;
    int ida_only = collect && strcmp(collect, "ida") == 0;
    double a = bench_wall();
    if (lib_only) CALLGRIND_TOGGLE_COLLECT;
    int rc = bsim_sim_run(s, &err);
    if (lib_only) CALLGRIND_TOGGLE_COLLECT;
    if (rc != 0) {
      fprintf(stderr, "overhead: %s\n", err.message);
      return 1;
    }
    double b = bench_wall();
    if (ida_only) CALLGRIND_TOGGLE_COLLECT;
    rc = bench_ida_direct(tf, samples, rtol, atol, fin, &ida_steps);
    if (ida_only) CALLGRIND_TOGGLE_COLLECT;
    if (rc != 0) {
      fprintf(stderr, "overhead: the hand-written IDA program failed\n");
      return 1;
    }
    double c = bench_wall();
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
  double lib_steps = bench_stat(s, "steps");
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
