/*
 * `blocksim sweep`: many runs of one diagram from a design (grid, zip,
 * manifest, random, Latin hypercube), compiled once and run in worker
 * threads, into one study (HDF5 file or CSV folder) that a killed sweep
 * resumes; `--shard I/N` for job arrays, `--mpi` across ranks (mpi.c);
 * `blocksim merge` joins shards. A progress bar on stderr when it is a
 * terminal.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/sweep.h"

static volatile sig_atomic_t interrupted;

static void on_signal(int sig) {
  interrupted = sig;
}

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ------------------------------------------------------------------ */
/* Arguments                                                           */
/* ------------------------------------------------------------------ */

static const char *const sweep_values[] = {"-o",           "-p",
                                           "--param",      "--manifest",
                                           "--random",     "--lhs",
                                           "--seed",       "--jobs",
                                           "--shard",      "--format",
                                           "--tf",         "--rtol",
                                           "--atol",       "--samples",
                                           "--max-events", "--max-restarts",
                                           "--solver",     "--solver-param"};
/* Options that do not change any member's results: left out of the
 * fingerprint, so that a resume may use other values. */
static const char *const not_fingerprinted[] = {"-o", "--jobs", "--shard",
                                                "--format"};

static int takes_value(const char *arg) {
  for (size_t k = 0; k < sizeof sweep_values / sizeof *sweep_values; k++)
    if (strcmp(arg, sweep_values[k]) == 0) return 1;
  return 0;
}

static int fingerprinted(const char *arg) {
  for (size_t k = 0; k < sizeof not_fingerprinted / sizeof *not_fingerprinted;
       k++)
    if (strcmp(arg, not_fingerprinted[k]) == 0) return 0;
  return strcmp(arg, "--mpi") && strcmp(arg, "--progress") &&
         strcmp(arg, "--no-progress");
}

static int parse_long(const char *opt, const char *text, long min, long *out) {
  char *end;
  errno = 0;
  long v = strtol(text, &end, 10);
  if (errno || end == text || *end || v < min) {
    char msg[256];
    snprintf(msg, sizeof msg, "%s needs an integer >= %ld, got '%s'", opt, min,
             text);
    bsim_cli_usage("%s", msg);
    return -1;
  }
  *out = v;
  return 0;
}

static int parse_double(const char *opt, const char *text, double *out) {
  char *end;
  errno = 0;
  double v = strtod(text, &end);
  if (errno || end == text || *end || !(v > 0)) {
    char msg[256];
    snprintf(msg, sizeof msg, "%s needs a positive number, got '%s'", opt,
             text);
    bsim_cli_usage("%s", msg);
    return -1;
  }
  *out = v;
  return 0;
}

static int sweep_option(sweep_args *a, const char *arg, const char *val) {
  if (strcmp(arg, "-o") == 0) {
    a->out = val;
  } else if (strcmp(arg, "-p") == 0 || strcmp(arg, "--param") == 0) {
    if (!strchr(val, '=') || val[0] == '=') {
      char msg[512];
      snprintf(msg, sizeof msg, "%s expects TARGET=VALUE, got '%s'", arg, val);
      bsim_cli_usage("%s", msg);
      return -1;
    }
    if (arg[1] == 'p')
      a->fixed[a->nfixed++] = val;
    else
      a->params[a->nparams++] = val;
  } else if (strcmp(arg, "--manifest") == 0) {
    a->manifest = val;
  } else if (strcmp(arg, "--random") == 0 || strcmp(arg, "--lhs") == 0) {
    a->kind = arg[2] == 'r' ? BSIM_DESIGN_RANDOM : BSIM_DESIGN_LHS;
    return parse_long(arg, val, 1, &a->draws);
  } else if (strcmp(arg, "--seed") == 0) {
    long seed = 0; /* parse_long sets it on success */
    if (parse_long(arg, val, 0, &seed) != 0) return -1;
    a->seed = (unsigned long)seed;
  } else if (strcmp(arg, "--jobs") == 0) {
    long j = 1; /* parse_long sets it on success */
    if (parse_long(arg, val, 1, &j) != 0) return -1;
    a->jobs = (int)(j > 4096 ? 4096 : j);
  } else if (strcmp(arg, "--shard") == 0) {
    char extra;
    if (sscanf(val, "%d/%d%c", &a->shard, &a->shards, &extra) != 2 ||
        a->shards < 1 || a->shard < 1 || a->shard > a->shards) {
      bsim_cli_usage("--shard takes I/N with 1 <= I <= N, got '%s'", val);
      return -1;
    }
  } else if (strcmp(arg, "--format") == 0) {
    a->format = val;
  } else if (strcmp(arg, "--tf") == 0) {
    return parse_double(arg, val, &a->opt.final_time);
  } else if (strcmp(arg, "--rtol") == 0) {
    return parse_double(arg, val, &a->opt.rtol);
  } else if (strcmp(arg, "--atol") == 0) {
    return parse_double(arg, val, &a->opt.atol);
  } else if (strcmp(arg, "--samples") == 0) {
    return parse_long(arg, val, BSIM_MIN_SAMPLES, &a->opt.samples);
  } else if (strcmp(arg, "--max-events") == 0) {
    return parse_long(arg, val, 1, &a->opt.max_events_per_instant);
  } else if (strcmp(arg, "--max-restarts") == 0) {
    return parse_long(arg, val, 1, &a->opt.max_fast_restarts);
  } else if (strcmp(arg, "--solver") == 0) {
    a->opt.solver = val;
  } else if (strcmp(arg, "--solver-param") == 0) {
    const char *eq = strchr(val, '=');
    if (!eq || eq == val) {
      bsim_cli_usage("--solver-param expects KEY=VALUE, got '%s'", val);
      return -1;
    }
    if (!(a->sp_names[a->nsp] = strndup(val, (size_t)(eq - val)))) return -1;
    a->sp_values[a->nsp++] = eq + 1;
  }
  return 0;
}

static int parse_sweep(int argc, char **argv, sweep_args *a) {
  bsim_options_init(&a->opt);
  a->kind = BSIM_DESIGN_GRID;
  a->progress = isatty(STDERR_FILENO);
  for (int i = 0; i < argc; i++) {
    const char *arg = argv[i];
    if (strcmp(arg, "--zip") == 0) {
      a->zip = 1;
    } else if (strcmp(arg, "--mpi") == 0) {
      a->mpi = 1;
    } else if (strcmp(arg, "--progress") == 0) {
      a->progress = 1;
    } else if (strcmp(arg, "--no-progress") == 0) {
      a->progress = 0;
    } else if (strcmp(arg, "--log-spacing") == 0) {
      a->opt.spacing = BSIM_SPACING_LOG;
    } else if (strcmp(arg, "--allow-nonfinite") == 0) {
      a->opt.allow_nonfinite = 1;
    } else if (takes_value(arg)) {
      if (i + 1 >= argc) return bsim_cli_usage("option %s needs a value", arg);
      if (sweep_option(a, arg, argv[++i]) != 0) return BSIM_ERR_INPUT;
    } else if (arg[0] == '-' && arg[1]) {
      return bsim_cli_usage("unknown option '%s'", arg);
    } else if (!a->diagram) {
      a->diagram = arg;
    } else {
      return bsim_cli_usage("unexpected argument '%s'", arg);
    }
  }
  if (!a->diagram) return bsim_cli_usage("%s", "missing DIAGRAM");
  if (!a->out)
    return bsim_cli_usage("%s", "sweep needs -o study.h5 (or -o DIR for "
                                "CSV files)");
  if (a->zip && a->kind != BSIM_DESIGN_GRID)
    return bsim_cli_usage("%s", "--zip pairs lists; it does not go with "
                                "--random or --lhs");
  if (a->zip) a->kind = BSIM_DESIGN_ZIP;
  if (a->manifest && (a->nparams || a->zip || a->kind != BSIM_DESIGN_GRID))
    return bsim_cli_usage("%s", "--manifest gives every member; it does not "
                                "go with --param, --zip, --random or --lhs");
  if (!a->manifest && a->nparams == 0)
    return bsim_cli_usage("%s", "nothing to vary: give --param "
                                "TARGET=VALUES or --manifest FILE.csv");
  if (a->format && bsim_format_parse(a->format, &a->fmt) != 0)
    return bsim_cli_usage("unknown --format '%s' (valid: h5, csv)", a->format);
  if (!a->format && bsim_format_of_path(a->out, &a->fmt) != 0)
    a->fmt = BSIM_FORMAT_CSV; /* a folder */
  if (a->fmt == BSIM_FORMAT_MAT)
    return bsim_cli_usage("%s", "a study is HDF5 (-o study.h5) or a folder "
                                "of CSV files (-o DIR); not MAT");
  if (a->jobs == 0) { /* the cores; under MPI, one thread per rank */
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    a->jobs = a->mpi || n < 1 ? 1 : (int)n;
  }
  a->opt.solver_param_names = (const char *const *)a->sp_names;
  a->opt.solver_param_values = (const char *const *)a->sp_values;
  a->opt.nsolver_params = a->nsp;
  return 0;
}

/* ------------------------------------------------------------------ */
/* Fingerprint: what fixes every member's results                      */
/* ------------------------------------------------------------------ */

static uint64_t fnv(uint64_t h, const void *buf, size_t n) {
  const unsigned char *p = buf;
  for (size_t i = 0; i < n; i++) {
    h ^= p[i];
    h *= 1099511628211ULL;
  }
  return h;
}

static int hash_file(const char *path, uint64_t *h) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  unsigned char buf[65536];
  size_t k;
  while ((k = fread(buf, 1, sizeof buf, f)) > 0)
    *h = fnv(*h, buf, k);
  fclose(f);
  return 0;
}

/* The diagram's and manifest's bytes and every argument that changes
 * results, hashed: a resume with other ones is refused. */
static int fingerprint(int argc, char **argv, const sweep_args *a, char *out,
                       size_t len) {
  uint64_t h = 1469598103934665603ULL;
  if (hash_file(a->diagram, &h) != 0) return -1;
  if (a->manifest && hash_file(a->manifest, &h) != 0) return -1;
  for (int i = 0; i < argc; i++) {
    if (takes_value(argv[i]) && !fingerprinted(argv[i])) {
      i++;
      continue;
    }
    if (!fingerprinted(argv[i]) || argv[i] == a->diagram) continue;
    h = fnv(h, argv[i], strlen(argv[i]) + 1);
  }
  snprintf(out, len, "%016llx", (unsigned long long)h);
  return 0;
}

/* ------------------------------------------------------------------ */
/* Progress                                                            */
/* ------------------------------------------------------------------ */

void bsim_cli_progress(sweep_run *r, int final) {
  if (!r->a->progress) return;
  double t = now_seconds();
  if (!final && t - r->last_draw < 0.1) return;
  r->last_draw = t;
  long done = r->done - r->done0, total = r->total - r->done0;
  double rate = t > r->start ? (double)done / (t - r->start) : 0;
  double left = rate > 0 ? (double)(total - done) / rate : 0;
  int width = 30, fill = total > 0 ? (int)(width * done / total) : width;
  char bar[64];
  for (int i = 0; i < width; i++)
    bar[i] = i < fill ? '#' : '.';
  bar[width] = '\0';
  fprintf(stderr, "\r[%s] %ld/%ld done, %ld failed, %.1f runs/s, %.0f s left ",
          bar, r->done, r->total, r->failed, rate, left);
  if (final) fputc('\n', stderr);
  fflush(stderr);
}

int bsim_cli_sweep_done(void *ctx, long member, void *rec, size_t len,
                        int failed) {
  sweep_run *r = ctx;
  (void)member;
  (void)failed;
  int rc = bsim_study_add(r->st, rec, len, r->err);
  free(rec);
  if (rc != 0) return -1;
  r->done = bsim_study_done(r->st, &r->failed);
  bsim_cli_progress(r, 0);
  return 0;
}

int bsim_cli_sweep_idle(void *ctx, bsim_pool *p) {
  sweep_run *r = ctx;
  (void)p;
  bsim_cli_progress(r, 0);
  if (!interrupted) return 0;
  bsim_error_set(r->err, BSIM_ERR_SIM,
                 "interrupted: %ld of %ld members are saved in the journal "
                 "(hint: run the same command again to resume)",
                 r->done, r->total);
  return -1;
}

/* The members of this shard that the study does not have yet. */
long *bsim_cli_todo(const sweep_run *r, long *n) {
  long members = bsim_design_members(r->design);
  long *todo = malloc(sizeof(long) * (size_t)(members + 1));
  *n = 0;
  for (long i = 0; todo && i < members; i++) {
    if (r->a->shards > 0 && i % r->a->shards != r->a->shard - 1) continue;
    if (!bsim_study_has(r->st, i)) todo[(*n)++] = i;
  }
  return todo;
}

long bsim_cli_shard_size(const sweep_run *r) {
  long members = bsim_design_members(r->design);
  if (r->a->shards <= 0) return members;
  long k = r->a->shard - 1;
  return members > k ? (members - k + r->a->shards - 1) / r->a->shards : 0;
}

static int run_local(sweep_run *r) {
  long n;
  long *todo = bsim_cli_todo(r, &n);
  bsim_pool *p = todo ? bsim_pool_create(r->sw, r->a->jobs, r->err) : NULL;
  int rc = p && bsim_pool_push(p, todo, (size_t)n) == 0 ? 0 : -1;
  if (rc == 0) {
    bsim_pool_close(p);
    rc = bsim_pool_wait(p, bsim_cli_sweep_done, bsim_cli_sweep_idle, r);
  }
  if (rc != 0 && r->err->status == BSIM_OK)
    bsim_error_set(r->err, BSIM_ERR_SIM, "the sweep stopped: out of memory");
  bsim_pool_free(p);
  free(todo);
  return rc ? -1 : 0;
}

/* Load, design, compile, open the study: everything every rank does. */
int bsim_cli_sweep_prepare(const bsim_library *lib, int argc, char **argv,
                           sweep_args *a, sweep_run *r, bsim_error *err) {
  memset(r, 0, sizeof *r);
  r->a = a;
  r->err = err;
  int rc = parse_sweep(argc, argv, a);
  if (rc) return rc;
  if (fingerprint(argc, argv, a, r->fingerprint, sizeof r->fingerprint)) {
    bsim_error_set(err, BSIM_ERR_INPUT, "cannot read '%s'%s%s", a->diagram,
                   a->manifest ? " or " : "", a->manifest ? a->manifest : "");
    return bsim_cli_report(err);
  }
  r->d = bsim_diagram_load(a->diagram, lib, err);
  r->design = r->d ? bsim_design_create(err) : NULL;
  rc = r->design ? bsim_cli_override(r->d, a->fixed, a->nfixed, err) : -1;
  for (int i = 0; rc == 0 && i < a->nparams; i++) {
    char *target = strdup(a->params[i]);
    if (!target) return BSIM_ERR_SIM;
    char *eq = strchr(target, '=');
    *eq = '\0';
    rc = bsim_design_param(r->design, target, eq + 1, err);
    free(target);
  }
  if (rc == 0)
    rc = a->manifest
             ? bsim_design_read_manifest(r->design, a->manifest, err)
             : bsim_design_build(r->design, a->kind, a->draws, a->seed, err);
  if (rc == 0) {
    r->sw = bsim_sweep_create(r->d, a->diagram, lib, &a->opt, r->design, err);
    rc = r->sw ? 0 : -1;
  }
  /* -p for the members compiled on their own too */
  for (int i = 0; rc == 0 && i < a->nfixed; i++) {
    char *target = strdup(a->fixed[i]);
    if (!target) return BSIM_ERR_SIM;
    char *eq = strchr(target, '=');
    *eq = '\0';
    const char *t[1] = {target}, *v[1] = {eq + 1};
    rc = bsim_sweep_fixed(r->sw, t, v, 1);
    free(target);
    if (rc != 0) bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
  }
  return rc ? bsim_cli_report(err) : 0;
}

int bsim_cli_sweep_open(sweep_run *r) {
  r->st =
      bsim_study_open(r->a->out, r->a->fmt, r->sw, r->design, r->fingerprint,
                      r->a->shards ? r->a->shard : 0, r->a->shards, r->err);
  if (!r->st) return -1;
  r->total = bsim_cli_shard_size(r);
  r->done0 = r->done = bsim_study_done(r->st, &r->failed);
  r->start = now_seconds();
  return 0;
}

/* The study complete: the exit status, and a word when members failed. */
int bsim_cli_sweep_end(sweep_run *r, int rc) {
  if (rc == 0 && r->done < r->total) {
    /* a worker gave up on members it was handed: keep the journal */
    bsim_error_set(r->err, BSIM_ERR_SIM,
                   "%ld of %ld members were not run (hint: run the same "
                   "command again to complete the study)",
                   r->total - r->done, r->total);
    rc = -1;
  }
  if (rc == 0 && bsim_study_finish(r->st, r->err) != 0) rc = -1;
  bsim_cli_progress(r, 1);
  int status = 0;
  if (rc != 0) {
    status = bsim_cli_report(r->err);
  } else if (r->failed > 0) {
    fprintf(stderr,
            "blocksim: %ld of %ld members failed (their status and message "
            "are in the summary of %s)\n",
            r->failed, r->total, r->a->out);
    status = BSIM_ERR_SIM;
  }
  return status;
}

void bsim_cli_sweep_release(sweep_run *r, sweep_args *a) {
  bsim_study_free(r->st);
  bsim_sweep_free(r->sw);
  bsim_design_free(r->design);
  bsim_diagram_free(r->d);
  for (int i = 0; i < a->nsp; i++)
    free(a->sp_names[i]);
  free(a->sp_names);
  free(a->sp_values);
  free(a->params);
  free(a->fixed);
}

int bsim_cli_sweep_args_init(sweep_args *a, int argc) {
  memset(a, 0, sizeof *a);
  a->params = calloc((size_t)argc + 1, sizeof(char *));
  a->fixed = calloc((size_t)argc + 1, sizeof(char *));
  a->sp_names = calloc((size_t)argc + 1, sizeof(char *));
  a->sp_values = calloc((size_t)argc + 1, sizeof(char *));
  return a->params && a->fixed && a->sp_names && a->sp_values ? 0 : -1;
}

/* --mpi: the command's mpi module (mpi.c), when this blocksim has one. */
static int sweep_mpi(sweep_run *r) {
  bsim_error why;
  bsim_error_clear(&why);
  void *sym = bsim_module_symbol("mpi", "bsim_cli_sweep_mpi", &why);
  if (!sym) {
    bsim_error_set(r->err, BSIM_ERR_INPUT,
                   "--mpi: %s; blocksim has MPI when it is built with "
                   "libopenmpi-dev installed, and without it --shard I/N runs "
                   "one process per shard",
                   why.message);
    return bsim_cli_report(r->err);
  }
  int (*run)(sweep_run *);
  memcpy(&run, &sym, sizeof run); /* POSIX: object to function pointer */
  return run(r);
}

int bsim_cli_sweep(const bsim_library *lib, int argc, char **argv) {
  sweep_args a;
  sweep_run r;
  bsim_error err;
  bsim_error_clear(&err);
  if (bsim_cli_sweep_args_init(&a, argc) != 0) return BSIM_ERR_SIM;
  int status = bsim_cli_sweep_prepare(lib, argc, argv, &a, &r, &err);
  if (status == 0 && a.mpi) {
    status = sweep_mpi(&r);
  } else if (status == 0) {
    struct sigaction sa, old[3];
    static const int sigs[3] = {SIGINT, SIGTERM, SIGHUP};
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 3; i++)
      sigaction(sigs[i], &sa, &old[i]);
    if (bsim_cli_sweep_open(&r) != 0)
      status = bsim_cli_report(&err);
    else
      status = bsim_cli_sweep_end(&r, run_local(&r));
    for (int i = 0; i < 3; i++)
      sigaction(sigs[i], &old[i], NULL);
  }
  bsim_cli_sweep_release(&r, &a);
  return status;
}

int bsim_cli_merge(int argc, char **argv) {
  const char *out = NULL;
  const char **in = calloc((size_t)argc + 1, sizeof(char *));
  int n = 0;
  if (!in) return BSIM_ERR_SIM;
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
      out = argv[++i];
    else if (argv[i][0] == '-' && argv[i][1]) {
      free(in);
      return bsim_cli_usage("unknown option '%s'", argv[i]);
    } else
      in[n++] = argv[i];
  }
  if (!out || n == 0) {
    free(in);
    return bsim_cli_usage("%s", "merge needs -o OUT and the shards' outputs");
  }
  bsim_error err;
  bsim_error_clear(&err);
  int rc = bsim_study_merge(out, in, n, &err) == 0 ? 0 : bsim_cli_report(&err);
  free(in);
  return rc;
}
