/*
 * bench/scilab: blocksim against Scilab 6.1.1 on the same Xcos files, the
 * four diagrams of issue 12 (the .xcos files of bench/data/scilab) and
 * every demo of the acceptance suite (tests/data/xcos/demos/NAME/
 * NAME.orig.zcos) and of the acausal one (tests/data/acausal/demos/NAME/
 * NAME.xcos.gz, unpacked before timing), phase by phase: Scilab's parameter
 * evaluation, c_pass1 and c_pass2 against blocksim's load, flatten and compile;
 * Scilab's simulation (its sinks recording to CSV) against blocksim's run plus
 * the writing of its sink records as CSV. Scilab's figures were recorded once
 * (bench/data/scilab/times.csv, made by time_all.sh there, which says
 * how); blocksim's are measured now, in this process, as processor time,
 * the best of REPEATS runs. Prints the ratios Scilab / blocksim for the
 * simulation alone and for everything, and how many reach the goals of
 * issue 12 (3x and 10x). Demos blocksim cannot run are listed as such.
 *
 * usage: scilab [--solver NAME] [--repeats N] [NAME...]
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench_gz.h"
#include "bench/bench_util.h"
#include "blocksim/blocksim.h"

#ifndef BSIM_BENCH_DATA
#define BSIM_BENCH_DATA "bench/data"
#endif
#ifndef BSIM_TEST_DATA
#define BSIM_TEST_DATA "tests/data"
#endif

typedef struct scilab_times {
  char name[128];
  int solver;
  double eval, pass1, pass2, simulate;
} scilab_times;

/* Reads the next row of times.csv; 0 at the end. */
static int read_row(FILE *f, scilab_times *t) {
  char line[1024];
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, "name,", 5) == 0 || line[0] == '#') continue;
    double tf;
    char *c = strchr(line, ',');
    if (!c || (size_t)(c - line) >= sizeof t->name) continue;
    memcpy(t->name, line, (size_t)(c - line));
    t->name[c - line] = '\0';
    if (sscanf(c + 1, "%d,%lf,%lf,%lf,%lf,%lf", &t->solver, &tf, &t->eval,
               &t->pass1, &t->pass2, &t->simulate) == 6)
      return 1;
  }
  return 0;
}

static int exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

/* The diagram's file; an acausal demo's .xcos.gz is unpacked into dir
 * first. */
static void diagram_path(const char *name, const char *dir, char *buf,
                         size_t len) {
  snprintf(buf, len, "%s/scilab/%s.xcos", BSIM_BENCH_DATA, name);
  if (exists(buf)) return;
  snprintf(buf, len, "%s/xcos/demos/%s/%s.orig.zcos", BSIM_TEST_DATA, name,
           name);
  if (exists(buf)) return;
  char gz[1024];
  snprintf(gz, sizeof gz, "%s/acausal/demos/%s/%s.xcos.gz", BSIM_TEST_DATA,
           name, name);
  snprintf(buf, len, "%s/%s.xcos", dir, name);
  if (bench_gunzip(gz, buf) != 0) snprintf(buf, len, "%s", gz);
}

/* The records' folder, with the subfolders of superblocks' sinks. */
static void remove_tree(const char *dir) {
  DIR *d = opendir(dir);
  struct dirent *e;
  char p[2048];
  struct stat st;
  while (d && (e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
      remove_tree(p);
    else
      remove(p);
  }
  if (d) closedir(d);
  rmdir(dir);
}

typedef struct measured {
  double compile, run, write;
  char solver[64];
  double steps, events;
} measured;

/* Best processor times of REPEATS loads+compiles, runs and record writes;
 * 0, or -1 with the reason in msg. */
static int measure(const char *path, const bsim_library *lib,
                   const char *solver, int repeats, const char *tmp,
                   measured *m, char *msg, size_t len) {
  m->compile = m->run = m->write = 1e300;
  for (int r = 0; r < repeats; r++) {
    bsim_error err;
    bsim_error_clear(&err);
    bsim_options o;
    bsim_options_init(&o);
    o.solver = solver;
    double a = bench_cpu();
    bsim_diagram *d = bsim_diagram_load(path, lib, &err);
    bsim_sim *s = d ? bsim_sim_create(d, &o, &err) : NULL;
    double b = bench_cpu();
    int rc = s ? bsim_sim_run(s, &err) : -1;
    double c = bench_cpu();
    if (rc == 0) rc = bsim_records_write_csv(s, tmp, &err);
    double e = bench_cpu();
    if (rc == 0) {
      snprintf(m->solver, sizeof m->solver, "%s", bsim_sim_solver(s));
      m->steps = bench_stat(s, "steps");
      m->events = bench_stat(s, "events");
    } else {
      snprintf(msg, len, "%.*s", (int)(len > 1 ? len - 1 : 0), err.message);
    }
    bsim_sim_free(s);
    bsim_diagram_free(d);
    remove_tree(tmp);
    if (rc != 0) return -1;
    m->compile = b - a < m->compile ? b - a : m->compile;
    m->run = c - b < m->run ? c - b : m->run;
    m->write = e - c < m->write ? e - c : m->write;
  }
  return 0;
}

static int wanted(const char *name, int argc, char **argv, int first) {
  if (first >= argc) return 1;
  for (int i = first; i < argc; i++)
    if (strcmp(argv[i], name) == 0) return 1;
  return 0;
}

int main(int argc, char **argv) {
  const char *solver = NULL;
  int repeats = 3, first = 1;
  while (first < argc && argv[first][0] == '-') {
    if (strcmp(argv[first], "--solver") == 0 && first + 1 < argc)
      solver = argv[first + 1];
    else if (strcmp(argv[first], "--repeats") == 0 && first + 1 < argc)
      repeats = atoi(argv[first + 1]);
    else {
      fprintf(stderr,
              "usage: scilab [--solver NAME] [--repeats N] [NAME...]\n");
      return 2;
    }
    first += 2;
  }
  if (repeats < 1) repeats = 1;
  bsim_process_init();
  bsim_error err;
  bsim_error_clear(&err);
  bsim_library *lib = bsim_library_create(&err);
  FILE *f = fopen(BSIM_BENCH_DATA "/scilab/times.csv", "r");
  if (!lib || !f) {
    fprintf(stderr, "scilab: cannot read %s\n",
            BSIM_BENCH_DATA "/scilab/times.csv");
    return 1;
  }
  char tmp[] = "/tmp/bench_scilab.XXXXXX";
  char *tdir = mkdtemp(tmp);
  if (!tdir) return 1;
  char sub[sizeof tmp + 16];
  snprintf(sub, sizeof sub, "%s/rec", tdir);
  printf("processor seconds, best of %d; ratio = Scilab / blocksim\n", repeats);
  printf("%-40s %-11s | %9s %9s %7s | %9s %9s %7s\n", "diagram", "engine",
         "Scilab", "blocksim", "ratio", "Scilab", "blocksim", "ratio");
  printf("%-40s %-11s | %27s | %27s\n", "", "", "simulation (records)",
         "all (with compilation)");
  int n = 0, n3 = 0, n10 = 0, failed = 0;
  double gsim = 0, gall = 0; /* sums of log ratios */
  scilab_times t;
  while (read_row(f, &t)) {
    if (!wanted(t.name, argc, argv, first)) continue;
    char path[1024], msg[1024] = "";
    diagram_path(t.name, tdir, path, sizeof path);
    measured m;
    int rc = measure(path, lib, solver, repeats, sub, &m, msg, sizeof msg);
    if (strncmp(path, tdir, strlen(tdir)) == 0) remove(path);
    if (rc != 0) {
      printf("%-40s does not run: %.70s\n", t.name, msg);
      failed++;
      continue;
    }
    double ssim = t.simulate, sall = t.eval + t.pass1 + t.pass2 + t.simulate;
    double bsim = m.run + m.write, ball = m.compile + bsim;
    double rsim = ssim / bsim, rall = sall / ball;
    printf("%-40s %-11s | %9.5f %9.5f %7.2f | %9.5f %9.5f %7.2f\n", t.name,
           m.solver, ssim, bsim, rsim, sall, ball, rall);
    n++;
    n3 += rsim >= 3;
    n10 += rall >= 10;
    gsim += log(rsim);
    gall += log(rall);
  }
  fclose(f);
  rmdir(tdir);
  if (n > 0)
    printf("%d diagrams: %d at least 3x faster than Scilab's simulation, %d "
           "at least 10x counting compilation; geometric mean ratios %.2f "
           "and %.2f; %d do not run\n",
           n, n3, n10, exp(gsim / n), exp(gall / n), failed);
  bsim_library_free(lib);
  return 0;
}
