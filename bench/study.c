/*
 * bench/study: the 10 000-member study of bench/data/study50.xml (50
 * blocks: a two-mass plant, a discrete PID, a clock, a step, zero
 * crossings), Kp x Ki on a 100 x 100 grid, three ways:
 *
 *   1. `blocksim sweep` into an HDF5 study file, in --jobs threads: the
 *      whole command (load, compile once, run every member, write the
 *      file), timed from outside;
 *   2. one `blocksim run -p Kp=.. -p Ki=.. -o m.csv` process per member,
 *      for a sample of members, one and two at a time;
 *   3. Scilab: the figure recorded once with bench/data/scilab_study.sce
 *      (a loop over scicos_simulate), read from bench/data/scilab_study.txt.
 *
 * Prints members per second, wall-clock and CPU (the machine may be
 * shared: CPU seconds do not depend on what else runs). A benchmark, not a
 * test: nothing is checked here.
 *
 * usage: study [MEMBERS [JOBS [SAMPLE]]]   (10000, the cores, 200)
 */
#include <errno.h>
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

extern char **environ;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double cpu_of(const struct rusage *ru) {
  return (double)ru->ru_utime.tv_sec + 1e-6 * (double)ru->ru_utime.tv_usec +
         (double)ru->ru_stime.tv_sec + 1e-6 * (double)ru->ru_stime.tv_usec;
}

static pid_t start(char *const *argv) {
  pid_t pid;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  return rc == 0 ? pid : -1;
}

/* Wait for pid; add its CPU seconds; 0 when it exited with 0. */
static int finish(pid_t pid, double *cpu) {
  int status;
  struct rusage ru;
  if (wait4(pid, &status, 0, &ru) != pid) return -1;
  *cpu += cpu_of(&ru);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static void grid(long i, char *kp, char *ki, size_t len) {
  /* as linspace(4,12,100) x linspace(2,6,100): member i = (i/100, i%100) */
  double a = 4 + 8.0 * (double)(i / 100) / 99, b = 2 + 4.0 * (double)(i % 100) / 99;
  snprintf(kp, len, "Kp=%.17g", a);
  snprintf(ki, len, "Ki=%.17g", b);
}

/* Members run as one process each, `par` at a time. */
static int per_process(const char *dir, long n, int par, double *wall,
                       double *cpu) {
  char diagram[1024], out[2][1024], kp[2][64], ki[2][64];
  snprintf(diagram, sizeof diagram, "%s/study50.xml", BSIM_BENCH_DATA);
  pid_t pids[2] = {-1, -1};
  double t0 = now();
  *cpu = 0;
  int rc = 0;
  for (long i = 0; i < n && rc == 0; i += par) {
    for (int k = 0; k < par && i + k < n; k++) {
      snprintf(out[k], sizeof out[k], "%s/m%d.csv", dir, k);
      grid(i + k, kp[k], ki[k], sizeof kp[k]);
      char *argv[] = {BLOCKSIM, "run", diagram, "-p", kp[k], "-p", ki[k],
                      "-o", out[k], NULL};
      pids[k] = start(argv);
    }
    for (int k = 0; k < par && i + k < n; k++)
      if (pids[k] < 0 || finish(pids[k], cpu) != 0) rc = -1;
  }
  *wall = now() - t0;
  return rc;
}

static double scilab_figure(const char *key) {
  char path[1024], line[256];
  snprintf(path, sizeof path, "%s/scilab_study.txt", BSIM_BENCH_DATA);
  FILE *f = fopen(path, "r");
  double v = -1;
  size_t k = strlen(key);
  while (f && fgets(line, sizeof line, f))
    if (strncmp(line, key, k) == 0 && line[k] == ':') v = atof(line + k + 1);
  if (f) fclose(f);
  return v;
}

int main(int argc, char **argv) {
  long members = argc > 1 ? atol(argv[1]) : 10000;
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  int jobs = argc > 2 ? atoi(argv[2]) : (int)(cores > 0 ? cores : 1);
  long sample = argc > 3 ? atol(argv[3]) : 200;
  if (members < 1 || members > 10000 || jobs < 1 || sample < 1) {
    fprintf(stderr, "usage: study [MEMBERS (<= 10000) [JOBS [SAMPLE]]]\n");
    return 2;
  }
  char dir[] = "/tmp/bsim_bench_study_XXXXXX";
  if (!mkdtemp(dir)) return 1;
  char diagram[1024], study[1100], jobsarg[32], kps[64], kis[64];
  snprintf(diagram, sizeof diagram, "%s/study50.xml", BSIM_BENCH_DATA);
  snprintf(study, sizeof study, "%s/study.h5", dir);
  snprintf(jobsarg, sizeof jobsarg, "%d", jobs);
  /* the first `members` of the 100 x 100 grid: Kp rows of 100 Ki */
  long rows = (members + 99) / 100;
  snprintf(kps, sizeof kps, "Kp=linspace(4,%.17g,%ld)",
           4 + 8.0 * (double)(rows - 1) / 99, rows);
  snprintf(kis, sizeof kis, "Ki=linspace(2,6,%d)", members < 100 ? (int)members
                                                                  : 100);
  printf("study: %s, %ld members (Kp x Ki grid), %d jobs, %ld cores\n",
         diagram, rows * (members < 100 ? members : 100), jobs, cores);

  char *sweep[] = {BLOCKSIM,      "sweep", diagram, "--param", kps,
                   "--param",     kis,     "-o",    study,     "--jobs",
                   jobsarg,       "--no-progress", NULL};
  double cpu = 0, t0 = now();
  pid_t pid = start(sweep);
  int rc = pid > 0 ? finish(pid, &cpu) : -1;
  double wall = now() - t0;
  struct stat st;
  long done = rows * (members < 100 ? members : 100);
  if (rc != 0 || stat(study, &st) != 0) {
    fprintf(stderr, "study: blocksim sweep failed\n");
    return 1;
  }
  printf("\n%-34s %10s %12s %12s %14s\n", "", "members", "wall s",
         "members/s", "members/cpu-s");
  printf("%-34s %10ld %12.2f %12.1f %14.1f   (HDF5 file: %.1f MB)\n",
         "blocksim sweep (one process)", done, wall, (double)done / wall,
         (double)done / cpu, (double)st.st_size / 1e6);

  for (int par = 1; par <= 2; par++) {
    double w, c;
    if (per_process(dir, sample, par, &w, &c) != 0) {
      fprintf(stderr, "study: blocksim run failed\n");
      return 1;
    }
    char what[64];
    snprintf(what, sizeof what, "one process per member, %d at a time", par);
    printf("%-34s %10ld %12.2f %12.1f %14.1f\n", what, sample, w,
           (double)sample / w, (double)sample / c);
  }
  double sw = scilab_figure("members_per_wall_second"),
         sc = scilab_figure("members_per_cpu_second"),
         sn = scilab_figure("members");
  if (sw > 0)
    printf("%-34s %10.0f %12s %12.2f %14.2f   (recorded, scilab_study.txt)\n",
           "Scilab 6.1.1 scicos_simulate loop", sn, "-", sw, sc);
  if (sc > 0)
    printf("\nsweep vs Scilab: %.0fx members per CPU second\n",
           ((double)done / cpu) / sc);
  char cmd[256];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "study: could not remove %s\n", dir);
  return 0;
}
