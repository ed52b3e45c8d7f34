/*
 * The blocksim command: run, check and document diagrams from a shell.
 * Exit status: 0 success, 1 the simulation failed, 2 bad input.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocksim/blocksim.h"
#include "cli/cli.h"

static const char usage_text[] =
    "usage: blocksim run DIAGRAM [-o OUT.csv|.mat|.h5] [--format FMT]\n"
    "                    [--tf T] [--rtol R] [--atol A]\n"
    "                    [--samples N] [--log-spacing] [--stats]\n"
    "                    [--scopes DIR] [--max-events N] [--max-restarts M]\n"
    "                    [--solver NAME] [--solver-param KEY=VALUE]...\n"
    "                    [--allow-nonfinite] [--no-carry]\n"
    "                    [--plot FILE.png|.svg|.pdf]\n"
    "                    [--observe NAME=PATH:PORT]...\n"
    "                    [-p BLOCKPATH.PARAM=VALUE]... [-p "
    "CONTEXTVAR=VALUE]...\n"
    "       blocksim check DIAGRAM\n"
    "       blocksim convert DIAGRAM [-o OUT.xml] [--observe "
    "NAME=PATH:PORT]...\n"
    "       blocksim analyze DIAGRAM [--at T] [--export-jacobian DIR] [-p "
    "...]\n"
    "       blocksim linearize DIAGRAM --inputs PATH:PORT,... --outputs "
    "NAME,...\n"
    "                          [--at T] [--export DIR] [-p ...]\n"
    "       blocksim blocks [TYPE | --markdown]\n"
    "       blocksim solvers [NAME]\n"
    "       blocksim sweep DIAGRAM -o study.h5|DIR [--param TARGET=VALUES]...\n"
    "                     [--zip] [--manifest FILE.csv] [--random N | --lhs "
    "N]\n"
    "                     [--seed S] [--jobs N] [--shard I/N] [--mpi]\n"
    "                     [--format h5|csv] [--progress | --no-progress]\n"
    "                     [run options: --tf, --rtol, -p ...]\n"
    "       blocksim merge -o OUT SHARD_OUTPUT...\n"
    "       blocksim plot RESULT -o FILE.png|.svg|.pdf [--signals A,B,...]\n"
    "                     [--panels table|one|each] [--title T]\n"
    "                     [--size WxH] [--run N]\n"
    "       blocksim --help | --version\n"
    "every command but --help/--version also takes --blocks PLUGIN.so\n"
    "(repeatable) and loads the plugins in $BLOCKSIM_PLUGIN_PATH (dir:dir)\n";

int bsim_cli_usage(const char *fmt, const char *arg) {
  fputs("blocksim: ", stderr);
  fprintf(stderr, fmt, arg);
  fputc('\n', stderr);
  fputs(usage_text, stderr);
  return BSIM_ERR_INPUT;
}

int bsim_cli_report(const bsim_error *err) {
  fprintf(stderr, "blocksim: %s\n", err->message);
  return err->status == BSIM_ERR_NOMEM ? BSIM_ERR_SIM : (int)err->status;
}

/* A strictly parsed positive number, or -1 on junk. */
static int parse_positive(const char *opt, const char *text, double *out) {
  char *end;
  errno = 0;
  double v = strtod(text, &end);
  /* strtod flags denormals with ERANGE too: those are positive numbers,
   * and the library says whether it can use them */
  if (end == text || *end || !(v > 0) || !isfinite(v)) {
    fprintf(stderr,
            "blocksim: bad value for %s: '%s' (expected a finite positive "
            "number%s)\n",
            opt, text,
            errno == ERANGE ? "; this one is beyond the range of doubles" : "");
    return -1;
  }
  *out = v;
  return 0;
}

/* A strictly parsed integer in [min, max], or -1 (reported) on junk. */
static int parse_count(const char *opt, const char *text, long min, long max,
                       long *out) {
  char *end;
  errno = 0;
  long v = strtol(text, &end, 10);
  if (errno || end == text || *end || v < min || v > max) {
    char msg[256];
    if (max == LONG_MAX)
      snprintf(msg, sizeof msg, "%s needs an integer >= %ld, got '%s'", opt,
               min, text);
    else
      snprintf(msg, sizeof msg, "%s needs an integer from %ld to %ld, got '%s'",
               opt, min, max, text);
    bsim_cli_usage("%s", msg);
    return -1;
  }
  *out = v;
  return 0;
}

typedef struct run_args {
  const char *diagram, *out, *scopes, *format, *plot;
  bsim_format out_format, scopes_format;
  int stats;
  bsim_options opt;
  const char **params;
  int nparams;
  const char **observes; /* NAME=PATH:PORT */
  int nobserves;
  /* --solver-param KEY=VALUE split at '=' (one allocation per value) */
  char **sp_names, **sp_values;
  int nsp;
} run_args;

static int parse_run(int argc, char **argv, run_args *a) {
  bsim_options_init(&a->opt);
  for (int i = 0; i < argc; i++) {
    const char *arg = argv[i];
    const char *val = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(arg, "--stats") == 0) {
      a->stats = 1;
    } else if (strcmp(arg, "--log-spacing") == 0) {
      a->opt.spacing = BSIM_SPACING_LOG;
    } else if (strcmp(arg, "--allow-nonfinite") == 0) {
      a->opt.allow_nonfinite = 1;
    } else if (strcmp(arg, "--no-carry") == 0) {
      a->opt.no_carry = 1;
    } else if (arg[0] == '-' && arg[1] != '\0') {
      static const char *const with_value[] = {"-o",
                                               "-p",
                                               "--samples",
                                               "--tf",
                                               "--rtol",
                                               "--atol",
                                               "--scopes",
                                               "--max-events",
                                               "--max-restarts",
                                               "--solver",
                                               "--solver-param",
                                               "--format",
                                               "--plot",
                                               "--observe"};
      int known = 0;
      for (size_t k = 0; k < sizeof with_value / sizeof *with_value; k++)
        known |= strcmp(arg, with_value[k]) == 0;
      if (!known) return bsim_cli_usage("unknown option '%s'", arg);
      if (!val) return bsim_cli_usage("option %s needs a value", arg);
      i++;
      if (strcmp(arg, "-o") == 0) {
        a->out = val;
      } else if (strcmp(arg, "-p") == 0) {
        if (!strchr(val, '='))
          return bsim_cli_usage("-p expects TARGET=VALUE, got '%s'", val);
        a->params[a->nparams++] = val;
      } else if (strcmp(arg, "--observe") == 0) {
        if (!strchr(val, '=') || val[0] == '=')
          return bsim_cli_usage("--observe expects NAME=PATH:PORT, got '%s'",
                                val);
        a->observes[a->nobserves++] = val;
      } else if (strcmp(arg, "--solver") == 0) {
        a->opt.solver = val;
      } else if (strcmp(arg, "--solver-param") == 0) {
        const char *eq = strchr(val, '=');
        if (!eq || eq == val)
          return bsim_cli_usage("--solver-param expects KEY=VALUE, got '%s'",
                                val);
        char *name = strndup(val, (size_t)(eq - val));
        if (!name) return BSIM_ERR_SIM;
        a->sp_names[a->nsp] = name;
        a->sp_values[a->nsp++] = (char *)eq + 1;
      } else if (strcmp(arg, "--scopes") == 0) {
        a->scopes = val;
      } else if (strcmp(arg, "--format") == 0) {
        a->format = val;
      } else if (strcmp(arg, "--plot") == 0) {
        if (!bsim_cli_plot_path_ok(val)) return BSIM_ERR_INPUT;
        a->plot = val;
      } else if (strcmp(arg, "--samples") == 0) {
        if (parse_count(arg, val, BSIM_MIN_SAMPLES, BSIM_MAX_SAMPLES,
                        &a->opt.samples))
          return BSIM_ERR_INPUT;
      } else if (strcmp(arg, "--max-events") == 0) {
        if (parse_count(arg, val, 1, LONG_MAX, &a->opt.max_events_per_instant))
          return BSIM_ERR_INPUT;
      } else if (strcmp(arg, "--max-restarts") == 0) {
        if (parse_count(arg, val, 1, LONG_MAX, &a->opt.max_fast_restarts))
          return BSIM_ERR_INPUT;
      } else if (strcmp(arg, "--tf") == 0) {
        if (parse_positive(arg, val, &a->opt.final_time)) return BSIM_ERR_INPUT;
      } else if (strcmp(arg, "--rtol") == 0) {
        if (parse_positive(arg, val, &a->opt.rtol)) return BSIM_ERR_INPUT;
      } else if (strcmp(arg, "--atol") == 0) {
        if (parse_positive(arg, val, &a->opt.atol)) return BSIM_ERR_INPUT;
      }
    } else if (!a->diagram) {
      a->diagram = arg;
    } else {
      return bsim_cli_usage("unexpected argument '%s'", arg);
    }
  }
  if (!a->diagram) return bsim_cli_usage("%s", "missing DIAGRAM");
  if (bsim_cli_formats(a->format, a->out, &a->out_format, &a->scopes_format))
    return BSIM_ERR_INPUT;
  a->opt.solver_param_names = (const char *const *)a->sp_names;
  a->opt.solver_param_values = (const char *const *)a->sp_values;
  a->opt.nsolver_params = a->nsp;
  return 0;
}

int bsim_cli_formats(const char *format, const char *out, bsim_format *of,
                     bsim_format *sf) {
  *of = *sf = BSIM_FORMAT_CSV;
  if (format && bsim_format_parse(format, of) != 0) {
    bsim_cli_usage("unknown --format '%s' (valid: csv, mat, h5)", format);
    return -1;
  }
  /* an unknown extension keeps CSV, as -o always wrote */
  if (!format && out && bsim_format_of_path(out, of) != 0)
    *of = BSIM_FORMAT_CSV;
  if (!out && *of != BSIM_FORMAT_CSV) {
    bsim_cli_usage("--format %s writes a file: give it with -o FILE", format);
    return -1;
  }
  *sf = format || out ? *of : BSIM_FORMAT_CSV;
  return 0;
}

/* Apply TARGET=VALUE pairs (each contains '=') with fn: -p overrides,
 * --observe NAME=SIGNAL. 0, or -1 with err. */
static int apply_pairs(bsim_diagram *d, const char *const *pairs, int n,
                       int (*fn)(bsim_diagram *, const char *, const char *,
                                 bsim_error *),
                       bsim_error *err) {
  for (int i = 0; i < n; i++) {
    char *target = strdup(pairs[i]);
    if (!target) {
      bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
      return -1;
    }
    char *eq = strchr(target, '=');
    *eq = '\0';
    int rc = fn(d, target, eq + 1, err);
    free(target);
    if (rc != 0) return -1;
  }
  return 0;
}

int bsim_cli_override(bsim_diagram *d, const char *const *params, int n,
                      bsim_error *err) {
  return apply_pairs(d, params, n, bsim_diagram_override, err);
}

void bsim_cli_notes(const bsim_diagram *d, const bsim_sim *s) {
  const char *n;
  for (size_t i = 0; d && (n = bsim_diagram_note_at(d, i)); i++)
    fprintf(stderr, "blocksim: note: %s\n", n);
  for (size_t i = 0; s && (n = bsim_sim_note_at(s, i)); i++)
    fprintf(stderr, "blocksim: note: %s\n", n);
}

static bsim_sim *prepare(const bsim_library *lib, const run_args *a,
                         bsim_diagram **dout, bsim_error *err) {
  bsim_diagram *d = bsim_diagram_load(a->diagram, lib, err);
  if (!d) return NULL;
  bsim_sim *s = bsim_cli_override(d, a->params, a->nparams, err) == 0 &&
                        apply_pairs(d, a->observes, a->nobserves,
                                    bsim_diagram_observe, err) == 0
                    ? bsim_sim_create(d, &a->opt, err)
                    : NULL;
  if (!s) {
    bsim_diagram_free(d);
    return NULL;
  }
  bsim_cli_notes(d, s);
  *dout = d;
  return s;
}

/* Set by SIGINT, SIGTERM or SIGHUP during the run or while the outputs
 * are written: the library then stops the run, or removes its
 * temporaries, and the signal is raised again once that is done. A
 * program may keep such state; the library may not. */
static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig) {
  stop_signal = sig;
}

static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP};
enum { NSTOP = sizeof stop_signals / sizeof stop_signals[0] };

static void catch_stop_signals(struct sigaction *old) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  /* no SA_RESTART: a write blocked on a slow device returns EINTR; a
   * second signal kills at once, as if nothing were caught */
  sa.sa_flags = SA_RESETHAND;
  for (int i = 0; i < NSTOP; i++) {
    sigaction(stop_signals[i], NULL, &old[i]);
    /* a signal ignored on entry (SIGINT of a background job, nohup's
     * SIGHUP) stays ignored: the caller chose so */
    if (old[i].sa_handler != SIG_IGN) sigaction(stop_signals[i], &sa, NULL);
  }
}

/* Default handling again; a signal caught meanwhile is raised once the
 * library has cleaned up, so the caller sees the command die of it. */
static void release_stop_signals(const struct sigaction *old,
                                 const bsim_error *err) {
  for (int i = 0; i < NSTOP; i++)
    sigaction(stop_signals[i], &old[i], NULL);
  if (!stop_signal) return;
  if (err->status != BSIM_OK) fprintf(stderr, "blocksim: %s\n", err->message);
  raise(stop_signal);
}

/* Results and records, all or nothing. A reader that closes stdout early
 * (`| head`) ends the CSV there; that is not a failure (status 0). */
static int write_outputs(const bsim_sim *s, const run_args *a, int want_csv,
                         bsim_error *err) {
  bsim_write_options o;
  bsim_write_options_init(&o);
  o.csv_path = a->out;
  /* An Xcos diagram keeps its results in its scopes: without observed
   * signals it writes no CSV unless -o asks for one. */
  o.csv_stream = want_csv ? stdout : NULL;
  o.format = a->out_format;
  o.scopes_dir = a->scopes;
  o.scopes_format = a->scopes_format;
  o.keep = a->diagram;
  o.cancel = &stop_signal;
  return bsim_sim_write(s, &o, err) < 0 ? -1 : 0;
}

/* What blocks printed (Xcos's sciprint), before any error about the run. */
static void print_messages(const bsim_sim *s) {
  const char *line;
  long dropped = 0;
  for (size_t i = 0; (line = bsim_sim_message_at(s, i, &dropped)) != NULL; i++)
    fprintf(stderr, "%s\n", line);
  if (dropped)
    fprintf(stderr, "blocksim: %ld more block message(s) not shown\n", dropped);
}

static int cmd_run(const bsim_library *lib, int argc, char **argv) {
  run_args a = {0};
  a.params = calloc((size_t)argc + 1, sizeof(char *));
  a.observes = calloc((size_t)argc + 1, sizeof(char *));
  a.sp_names = calloc((size_t)argc + 1, sizeof(char *));
  a.sp_values = calloc((size_t)argc + 1, sizeof(char *));
  if (!a.params || !a.observes || !a.sp_names || !a.sp_values) {
    free(a.params);
    free(a.observes);
    free(a.sp_names);
    free(a.sp_values);
    return BSIM_ERR_SIM;
  }
  int rc = parse_run(argc, argv, &a);
  a.opt.cancel = &stop_signal;
  bsim_error err;
  bsim_error_clear(&err);
  bsim_diagram *d = NULL;
  bsim_sim *s = rc ? NULL : prepare(lib, &a, &d, &err);
  if (!rc && !s) rc = bsim_cli_report(&err);
  if (s) {
    int want_csv = strcmp(bsim_diagram_format(d), "native") == 0 ||
                   bsim_result_cols(s) > 0;
    struct sigaction old[NSTOP];
    catch_stop_signals(old);
    int failed = bsim_sim_run(s, &err) != 0;
    print_messages(s);
    failed = failed || write_outputs(s, &a, want_csv, &err) != 0;
    release_stop_signals(old, &err);
    if (failed || (a.plot && bsim_cli_plot_sim(s, a.plot, &err) != 0))
      rc = bsim_cli_report(&err);
    if (a.stats) {
      double v;
      const char *name;
      fprintf(stderr, "solver: %s\n", bsim_sim_solver(s));
      const char *why = bsim_sim_solver_choice(s);
      if (why)
        fprintf(stderr, "solver-choice: %s%s\n",
                strcmp(bsim_sim_solver(s), "none") ? "auto: " : "", why);
      for (size_t i = 0; (name = bsim_stat_at(s, i, &v)) != NULL; i++)
        fprintf(stderr, "%s: %.6g\n", name, v);
    }
  }
  bsim_sim_free(s);
  bsim_diagram_free(d);
  free(a.params);
  free(a.observes);
  for (int i = 0; i < a.nsp; i++)
    free(a.sp_names[i]);
  free(a.sp_names);
  free(a.sp_values);
  return rc;
}

static int cmd_check(const bsim_library *lib, int argc, char **argv) {
  if (argc != 1) return bsim_cli_usage("%s", "check takes exactly one DIAGRAM");
  run_args a = {0};
  a.diagram = argv[0];
  bsim_options_init(&a.opt);
  bsim_error err;
  bsim_error_clear(&err);
  bsim_diagram *d = NULL;
  bsim_sim *s = prepare(lib, &a, &d, &err);
  if (!s) return bsim_cli_report(&err);
  bsim_system_info info;
  bsim_sim_info(s, &info);
  printf("%s: ok\nblocks: %d\nlinks: %d\nstates: %d\nalgebraic: %d\n"
         "zero-crossings: %d\n",
         argv[0], info.blocks, info.links, info.states, info.algebraic,
         info.zero_crossings);
  bsim_sim_free(s);
  bsim_diagram_free(d);
  return 0;
}

/* The command once the library exists. */
static int dispatch(const bsim_library *lib, const char *cmd, int argc,
                    char **argv) {
  if (strcmp(cmd, "run") == 0) return cmd_run(lib, argc, argv);
  if (strcmp(cmd, "check") == 0) return cmd_check(lib, argc, argv);
  if (strcmp(cmd, "blocks") == 0) return bsim_cli_blocks(lib, argc, argv);
  if (strcmp(cmd, "analyze") == 0) return bsim_cli_analyze(lib, argc, argv);
  if (strcmp(cmd, "linearize") == 0) return bsim_cli_linearize(lib, argc, argv);
  if (strcmp(cmd, "solvers") == 0) return bsim_cli_solvers(lib, argc, argv);
  if (strcmp(cmd, "plot") == 0) return bsim_cli_plot(argc, argv);
  if (strcmp(cmd, "sweep") == 0) return bsim_cli_sweep(lib, argc, argv);
  if (strcmp(cmd, "merge") == 0) return bsim_cli_merge(argc, argv);
  if (strcmp(cmd, "convert") == 0) return bsim_cli_convert(lib, argc, argv);
  return bsim_cli_usage("unknown command '%s'", cmd);
}

/* The library every command works with: the standard blocks, the plugins
 * of BLOCKSIM_PLUGIN_PATH, then those of --blocks options, which are taken
 * out of argv (*argc shrinks) wherever they stand. NULL after reporting. */
static bsim_library *make_library(int *argc, char **argv, int *status) {
  bsim_error err;
  bsim_error_clear(&err);
  bsim_library *lib = bsim_library_create(&err);
  const char *env = getenv("BLOCKSIM_PLUGIN_PATH");
  if (lib && env && bsim_library_load_dirs(lib, env, &err) != 0) {
    bsim_error env_err;
    bsim_error_clear(&env_err);
    bsim_error_set(&env_err, err.status, "BLOCKSIM_PLUGIN_PATH: %s",
                   err.message);
    err = env_err;
    bsim_library_free(lib);
    lib = NULL;
  }
  int kept = 0;
  for (int i = 0; lib && i < *argc; i++) {
    if (strcmp(argv[i], "--blocks") != 0) {
      argv[kept++] = argv[i];
      continue;
    }
    if (i + 1 >= *argc) {
      bsim_library_free(lib);
      *status = bsim_cli_usage("%s", "--blocks needs the path of a plugin");
      return NULL;
    }
    if (bsim_library_load(lib, argv[++i], &err) != 0) {
      bsim_library_free(lib);
      lib = NULL;
    }
  }
  if (!lib) {
    *status = bsim_cli_report(&err);
    return NULL;
  }
  *argc = kept;
  return lib;
}

int main(int argc, char **argv) {
  bsim_process_init();
  /* a closed stdout shows as EPIPE on write, handled where it happens,
   * instead of killing the run before --stats and --scopes are written */
  signal(SIGPIPE, SIG_IGN);
  if (argc < 2) return bsim_cli_usage("%s", "missing command");
  const char *cmd = argv[1];
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
    fputs(usage_text, stdout);
    return 0;
  }
  if (strcmp(cmd, "--version") == 0) {
    printf("blocksim %s (block ABI %d)\n", bsim_version(), bsim_abi_version());
    return 0;
  }
  int rc = 0, nargs = argc - 2;
  bsim_library *lib = make_library(&nargs, argv + 2, &rc);
  if (!lib) return rc;
  rc = dispatch(lib, cmd, nargs, argv + 2);
  bsim_library_free(lib);
  return rc;
}
