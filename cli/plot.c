/*
 * `blocksim plot RESULT -o FILE`: time plots of a result file (CSV, MAT,
 * HDF5, a scope record, or one run of a study file), and the plot that
 * `blocksim run --plot FILE` draws at the end of a run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "blocksim/plot.h"
#include "cli/cli.h"

/* "a,b,c" split in place into at most n names; returns the count. */
static int split_list(char *s, const char **out, int n) {
  int k = 0;
  char *save = NULL;
  for (char *tok = strtok_r(s, ",", &save); tok && k < n;
       tok = strtok_r(NULL, ",", &save))
    out[k++] = tok;
  return k;
}

/* One plot option at argv[*i]: 1 used (with its value), 0 not a plot
 * option, -1 bad (reported). */
static int plot_option(int argc, char **argv, int *i, bsim_plot_options *o,
                       char **signals_buf, const char **signals, int nmax) {
  const char *arg = argv[*i], *val = *i + 1 < argc ? argv[*i + 1] : NULL;
  if (strcmp(arg, "--signals") && strcmp(arg, "--panels") &&
      strcmp(arg, "--title") && strcmp(arg, "--size"))
    return 0;
  if (!val) {
    bsim_cli_usage("option %s needs a value", arg);
    return -1;
  }
  (*i)++;
  if (strcmp(arg, "--signals") == 0) {
    free(*signals_buf);
    if (!(*signals_buf = strdup(val))) return -1;
    o->nsignals = split_list(*signals_buf, signals, nmax);
    o->signals = signals;
  } else if (strcmp(arg, "--panels") == 0) {
    if (strcmp(val, "table") == 0)
      o->panels = BSIM_PANELS_TABLE;
    else if (strcmp(val, "one") == 0)
      o->panels = BSIM_PANELS_ONE;
    else if (strcmp(val, "each") == 0)
      o->panels = BSIM_PANELS_EACH;
    else {
      bsim_cli_usage("--panels takes table, one or each, not '%s'", val);
      return -1;
    }
  } else if (strcmp(arg, "--title") == 0) {
    o->title = val;
  } else {
    char *end;
    long w = strtol(val, &end, 10), h = 0;
    if (*end == 'x') h = strtol(end + 1, &end, 10);
    if (*end || w < 100 || h < 100 || w > 20000 || h > 20000) {
      bsim_cli_usage("--size takes WIDTHxHEIGHT in pixels (100 to 20000), "
                     "not '%s'",
                     val);
      return -1;
    }
    o->width = (int)w;
    o->height = (int)h;
  }
  return 1;
}

int bsim_cli_plot(int argc, char **argv) {
  const char *result = NULL, *out = NULL;
  long run = -1;
  bsim_plot_options o;
  bsim_plot_options_init(&o);
  const char **signals = calloc((size_t)argc + 1, sizeof(char *));
  char *signals_buf = NULL;
  int rc = signals ? 0 : BSIM_ERR_SIM;
  for (int i = 0; rc == 0 && i < argc; i++) {
    int used = plot_option(argc, argv, &i, &o, &signals_buf, signals, argc);
    if (used < 0) {
      rc = BSIM_ERR_INPUT;
    } else if (used) {
      continue;
    } else if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--run") == 0) {
      if (i + 1 >= argc) {
        rc = bsim_cli_usage("option %s needs a value", argv[i]);
      } else if (argv[i][1] == 'o') {
        out = argv[++i];
      } else {
        char *end;
        errno = 0;
        run = strtol(argv[++i], &end, 10);
        if (errno || *end || run < 0)
          rc = bsim_cli_usage("--run takes a run index (0, 1, ...), not '%s'",
                              argv[i]);
      }
    } else if (argv[i][0] == '-' && argv[i][1]) {
      rc = bsim_cli_usage("unknown option '%s'", argv[i]);
    } else if (!result) {
      result = argv[i];
    } else {
      rc = bsim_cli_usage("unexpected argument '%s'", argv[i]);
    }
  }
  if (rc == 0 && (!result || !out))
    rc = bsim_cli_usage("%s", "plot needs a RESULT file and -o FILE");
  if (rc == 0) {
    bsim_error err;
    bsim_error_clear(&err);
    bsim_tables *t = bsim_tables_read(result, run, &err);
    if (!t || bsim_plot_write(t, out, &o, &err) != 0)
      rc = bsim_cli_report(&err);
    bsim_tables_free(t);
  }
  free(signals_buf);
  free(signals);
  return rc;
}

int bsim_cli_plot_sim(const bsim_sim *s, const char *path, bsim_error *err) {
  bsim_tables *t = bsim_tables_of_sim(s, err);
  int rc = t ? bsim_plot_write(t, path, NULL, err) : -1;
  bsim_tables_free(t);
  return rc;
}

int bsim_cli_plot_path_ok(const char *path) {
  const char *dot = strrchr(path, '.');
  if (!dot || (strcasecmp(dot, ".png") != 0 && strcasecmp(dot, ".svg") != 0 &&
               strcasecmp(dot, ".pdf") != 0)) {
    bsim_cli_usage("--plot '%s': name the image .png, .svg or .pdf", path);
    return 0;
  }
  /* the plot module is loaded now rather than after a long run */
  bsim_error err;
  bsim_error_clear(&err);
  if (!bsim_module_symbol("plot", "bsim_module_plot", &err)) {
    fprintf(stderr, "blocksim: --plot: %s\n", err.message);
    return 0;
  }
  return 1;
}
