/*
 * How a run scales with the size of the diagram: a generated chain of N
 * first-order lags 1/(s+1) driven by a constant, for N = 10^2 .. 10^5, with
 * the dense, band and klu linear solvers of IDA and of CVODE's BDF. Each
 * (N, engine, solver) runs in a child process so that its peak resident
 * memory (getrusage) is its own; "total s" is that child's whole life
 * (library, load, compile, run, teardown), as `time blocksim run` sees it,
 * and "total cpu" the processor time it used. The cost per step and state
 * is the run's processor time, which other processes on a shared machine
 * do not inflate as they do wall times.
 *
 * usage: scaling [NMAX] [DENSE_MAX] [ENGINES]
 *   NMAX       largest N (default 100000)
 *   DENSE_MAX  largest N run with the dense solver (default 2000: its
 *              O(N^2) memory and O(N^3) factorisations make more pointless)
 *   ENGINES    "ida", "cvode-bdf" or "both" (default)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "blocksim/blocksim.h"

static double clock_s(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double now(void) {
  return clock_s(CLOCK_MONOTONIC);
}

/* Processor time of the children waited for so far. */
static double children_cpu(void) {
  struct rusage ru;
  getrusage(RUSAGE_CHILDREN, &ru);
  return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
         (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
}

static int write_chain(const char *path, long n) {
  FILE *fp = fopen(path, "w");
  if (!fp) return -1;
  fprintf(fp, "<?xml version=\"1.0\"?>\n<diagram name=\"chain\">\n"
              "  <simulation final-time=\"10\" rtol=\"1e-6\" atol=\"1e-8\"/>\n"
              "  <output samples=\"11\"/>\n"
              "  <block id=\"u\" type=\"CONST_m\"/>\n");
  for (long k = 1; k <= n; k++)
    fprintf(fp,
            "  <block id=\"l%ld\" type=\"CLR\"><param name=\"num\" "
            "value=\"1\"/><param name=\"den\" value=\"[1 1]\"/></block>\n",
            k);
  fprintf(fp, "  <link from=\"u:1\" to=\"l1:1\"/>\n");
  for (long k = 2; k <= n; k++)
    fprintf(fp, "  <link from=\"l%ld:1\" to=\"l%ld:1\"/>\n", k - 1, k);
  fprintf(fp, "  <observe name=\"third\" signal=\"l3:1\"/>\n");
  fprintf(fp, "  <observe name=\"last\" signal=\"l%ld:1\"/>\n</diagram>\n", n);
  return fclose(fp);
}

static double stat_of(const bsim_sim *s, const char *name) {
  double v;
  const char *nm;
  for (size_t i = 0; (nm = bsim_stat_at(s, i, &v)) != NULL; i++)
    if (strcmp(nm, name) == 0) return v;
  return -1;
}

/* One measurement, in the child: prints one table row but its last
 * column, which the parent adds. */
static int measure(const char *path, long n, const char *engine,
                   const char *linsol) {
  bsim_error err;
  bsim_error_clear(&err);
  bsim_library *lib = bsim_library_create(&err);
  double t0 = now();
  bsim_diagram *d = lib ? bsim_diagram_load(path, lib, &err) : NULL;
  double t1 = now();
  bsim_options o;
  bsim_options_init(&o);
  o.solver = engine;
  const char *names[] = {"linear-solver"}, *values[] = {linsol};
  o.solver_param_names = names;
  o.solver_param_values = values;
  o.nsolver_params = 1;
  bsim_sim *s = d ? bsim_sim_create(d, &o, &err) : NULL;
  double t2 = now(), c2 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
  if (!s || bsim_sim_run(s, &err) != 0) {
    fprintf(stderr, "scaling: N=%ld %s %s: %s\n", n, engine, linsol,
            err.message);
    bsim_sim_free(s);
    bsim_diagram_free(d);
    bsim_library_free(lib);
    return 1;
  }
  double t3 = now(), c3 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  double steps = stat_of(s, "steps");
  const double *data = bsim_result_data(s);
  size_t rows = bsim_result_rows(s);
  printf("%7ld %-9s %-6s %8.3f %9.3f %8.3f %6.0f %9.0f %6.0f %13.1f %9.1f "
         "%13.10f",
         n, engine, linsol, t1 - t0, t2 - t1, t3 - t2, steps,
         stat_of(s, "residual-evals"), stat_of(s, "jacobian-evals"),
         1e9 * (c3 - c2) / steps / (double)n, (double)ru.ru_maxrss / 1024.0,
         data[(rows - 1) * 2]);
  fflush(stdout);
  bsim_sim_free(s);
  bsim_diagram_free(d);
  bsim_library_free(lib);
  return 0;
}

int main(int argc, char **argv) {
  long nmax = argc > 1 ? atol(argv[1]) : 100000;
  long dense_max = argc > 2 ? atol(argv[2]) : 2000;
  const char *which = argc > 3 ? argv[3] : "both";
  const char *engines[] = {"ida", "cvode-bdf"};
  printf("chain of N lags 1/(s+1), t in [0, 10], rtol 1e-6, atol 1e-8\n");
  printf("%7s %-9s %-6s %8s %9s %8s %6s %9s %6s %13s %9s %13s %8s %9s\n", "N",
         "engine", "solver", "load s", "compile s", "run s", "steps",
         "res-evals", "jacs", "cpu ns/st/st", "peak MiB", "lag3(10)", "total s",
         "total cpu");
  for (long n = 100; n <= nmax; n *= 10) {
    char path[] = "/tmp/bsim_bench_chain_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
      perror("scaling: mkstemp");
      return 1;
    }
    close(fd);
    if (write_chain(path, n) != 0) {
      fprintf(stderr, "scaling: cannot write %s\n", path);
      remove(path);
      return 1;
    }
    const char *solvers[] = {"dense", "band", "klu"};
    for (int m = 0; m < 2; m++) {
      if (strcmp(which, "both") != 0 && strcmp(which, engines[m]) != 0)
        continue;
      for (int k = 0; k < 3; k++) {
        if (k == 0 && n > dense_max) continue;
        fflush(stdout);
        double t0 = now();
        pid_t pid = fork();
        if (pid == 0) _exit(measure(path, n, engines[m], solvers[k]));
        int status = 0;
        double cpu0 = children_cpu();
        if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
            WEXITSTATUS(status) != 0)
          fprintf(stderr, "scaling: N=%ld %s %s failed\n", n, engines[m],
                  solvers[k]);
        else
          printf(" %8.3f %9.3f\n", now() - t0, children_cpu() - cpu0);
      }
    }
    remove(path);
  }
  return 0;
}
