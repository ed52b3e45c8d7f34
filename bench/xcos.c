/*
 * bench/xcos: Scilab's demos (tests/data/xcos/demos/, and the acausal ones
 * of tests/data/acausal/demos/) run by the blocksim command as a user runs them
 * - `blocksim run DEMO.xcos --scopes DIR`, the whole process: start-up,
 * reading, compiling, simulating, writing every sink's record - against the
 * time Scilab 6.1.1's scicos_simulate took on the same file (compilation and
 * the records' writing included, Scilab's start-up not), recorded once in
 * bench/data/scilab_demo_times.txt.
 *
 * Each demo runs REPS times (once when a run takes over 2 s); the best
 * wall-clock time is the one least disturbed by other work on the
 * machine, and CPU seconds (user + system of the process) do not depend
 * on that load at all. Prints one line per demo and how many reach their
 * goal (10x, or the data file's third column: 100x for the acausal demos,
 * whose Scilab time includes compiling Modelica). A benchmark, not a
 * test: nothing is checked here.
 *
 * With --scilab DIR (the project's Scilab reference tool, shared/xcos_ref,
 * and Scilab installed), Scilab is timed live instead: before and after
 * blocksim's runs of each demo, scicos_simulate runs the same file (the
 * demo's Scilab original, .orig.zcos, when there is one) through DIR's
 * xcos_ref.sh, and the faster of the two is the figure. On a machine whose
 * speed drifts within a session, only such interleaved figures give a
 * ratio measured in one run; the recorded file gives the goals.
 *
 * usage: xcos [--scilab DIR] [REPS [DEMO...]]   (5, every demo of the
 *        data file)
 */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_gz.h"

extern char **environ;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One run of the command; wall and CPU seconds; its exit status. */
static int run_once(const char *xcos, const char *scopes, double *wall,
                    double *cpu) {
  char *argv[] = {(char *)BLOCKSIM, "run",          (char *)xcos,
                  "--scopes",       (char *)scopes, NULL};
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid;
  double t0 = now();
  int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) return -1;
  int status;
  struct rusage ru;
  if (wait4(pid, &status, 0, &ru) != pid) return -1;
  *wall = now() - t0;
  *cpu = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
         (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The demo's .xcos.gz in one of the demo folders; 0 when found. */
static int find_demo(const char *demo, char *gz, size_t len) {
  static const char *const dirs[] = {BSIM_DEMOS, BSIM_ACAUSAL_DEMOS};
  for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
    snprintf(gz, len, "%s/%s/%s.xcos.gz", dirs[i], demo, demo);
    struct stat st;
    if (stat(gz, &st) == 0) return 0;
  }
  return -1;
}

static int wanted(const char *demo, int argc, char **argv) {
  if (argc <= 2) return 1;
  for (int i = 2; i < argc; i++)
    if (strcmp(argv[i], demo) == 0) return 1;
  return 0;
}

/* scicos_simulate's time for `file` by the reference tool copied to ref
 * (scratch folder out); a negative value when Scilab did not run it. */
static double scilab_once(const char *ref, const char *file, const char *out) {
  char cmd[4096], meta[1100], line[512];
  snprintf(cmd, sizeof cmd,
           "XREF_TIMEOUT=300 '%s/xcos_ref.sh' '%s' '%s' >/dev/null 2>&1", ref,
           file, out);
  if (system(cmd) != 0) return -1;
  snprintf(meta, sizeof meta, "%s/meta.txt", out);
  FILE *m = fopen(meta, "r");
  double t = -1;
  while (m && fgets(line, sizeof line, m))
    if (sscanf(line, "simulate_wall_s: %lf", &t) == 1) break;
  if (m) fclose(m);
  return t;
}

/* The file Scilab runs: its own original of the demo when there is one,
 * else the .xcos blocksim runs. */
static void scilab_file(const char *gz, const char *xcos, char *out,
                        size_t len) {
  size_t n = strlen(gz);
  struct stat st;
  snprintf(out, len, "%.*s.orig.zcos", (int)(n - strlen(".xcos.gz")), gz);
  if (stat(out, &st) != 0) snprintf(out, len, "%s", xcos);
}

int main(int argc, char **argv) {
  const char *live = NULL;
  if (argc > 2 && strcmp(argv[1], "--scilab") == 0) {
    live = argv[2];
    argc -= 2;
    argv += 2;
  }
  int reps = argc > 1 ? atoi(argv[1]) : 5;
  if (reps < 1) reps = 1;
  FILE *f = fopen(BSIM_BENCH_DATA "/scilab_demo_times.txt", "r");
  if (!f) {
    perror(BSIM_BENCH_DATA "/scilab_demo_times.txt");
    return 1;
  }
  char tmp[] = "/tmp/bsim_xcos_bench_XXXXXX";
  if (!mkdtemp(tmp)) {
    perror("mkdtemp");
    return 1;
  }
  char ref[1100] = "", cmd[3300];
  if (live) {
    /* the tool builds its recorder into its own folder */
    snprintf(ref, sizeof ref, "%s/ref", tmp);
    snprintf(cmd, sizeof cmd, "cp -r '%s' '%s' && chmod -R u+w '%s'", live, ref,
             ref);
    if (system(cmd) != 0) {
      fprintf(stderr, "xcos: cannot copy %s\n", live);
      return 1;
    }
    printf("Scilab timed live by %s/xcos_ref.sh, before and after "
           "blocksim's runs of each demo\n",
           live);
  }
  printf("%-40s %9s %9s %9s %8s %8s %5s\n", "demo", "scilab_s", "wall_s",
         "cpu_s", "x_wall", "x_cpu", "goal");
  char line[512], demo[256];
  double scilab;
  int n = 0, goal_wall = 0, goal_cpu = 0;
  while (fgets(line, sizeof line, f)) {
    double goal = 10;
    if (line[0] == '#' ||
        sscanf(line, "%255s %lf %lf", demo, &scilab, &goal) < 2)
      continue;
    if (!wanted(demo, argc, argv)) continue;
    char gz[1024], xcos[1024], scopes[1024];
    snprintf(xcos, sizeof xcos, "%s/%s.xcos", tmp, demo);
    snprintf(scopes, sizeof scopes, "%s/%s_scopes", tmp, demo);
    if (find_demo(demo, gz, sizeof gz) != 0 || bench_gunzip(gz, xcos) != 0) {
      printf("%-40s cannot read %s\n", demo, gz);
      continue;
    }
    char sfile[1100] = "", sout[1100] = "";
    if (live) {
      snprintf(sout, sizeof sout, "%s/%s_scilab", tmp, demo);
      scilab_file(gz, xcos, sfile, sizeof sfile);
    }
    double s0 = live ? scilab_once(ref, sfile, sout) : scilab;
    double best = 1e300, cpu_best = 1e300;
    int status = 0;
    for (int r = 0; r < reps && status == 0; r++) {
      double w = 0, c = 0;
      status = run_once(xcos, scopes, &w, &c);
      if (w < best) best = w;
      if (c < cpu_best) cpu_best = c;
      if (w > 2.0) break;
    }
    if (live) {
      double s1 = scilab_once(ref, sfile, sout);
      scilab = s0 < 0 ? s1 : s1 < 0 ? s0 : s0 < s1 ? s0 : s1;
      if (scilab < 0) {
        printf("%-40s (Scilab did not run it)\n", demo);
        continue;
      }
    }
    if (status != 0) {
      printf("%-40s %9.4f %9s %9s   (blocksim exits with %d: not "
             "supported, see docs/xcos.md)\n",
             demo, scilab, "-", "-", status);
      continue;
    }
    n++;
    goal_wall += scilab / best >= goal;
    goal_cpu += scilab / cpu_best >= goal;
    printf("%-40s %9.4f %9.4f %9.4f %8.1f %8.1f %5g\n", demo, scilab, best,
           cpu_best, scilab / best, scilab / cpu_best, goal);
    fflush(stdout);
  }
  fclose(f);
  printf("%d demos run; reaching their goal against Scilab: %d by "
         "wall-clock, %d by CPU time\n",
         n, goal_wall, goal_cpu);
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
  return system(cmd) == 0 ? 0 : 1;
}
