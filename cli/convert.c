/*
 * `blocksim convert DIAGRAM [-o OUT.xml] [--observe NAME=PATH:PORT]...`:
 * the diagram (an Xcos .xcos or .zcos, typically) in the native format,
 * on stdout or into OUT.xml; running the result gives the same numbers
 * (bsim_diagram_to_native). Observed signals given here are written as
 * <observe> elements.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static int write_all(const char *path, const char *text, size_t len,
                     bsim_error *err) {
  FILE *f = path ? fopen(path, "wb") : stdout;
  if (!f) {
    bsim_error_set(err, BSIM_ERR_INPUT, "%s: cannot write: %s", path,
                   strerror(errno));
    return -1;
  }
  int ok = fwrite(text, 1, len, f) == len;
  ok = (path ? fclose(f) : fflush(f)) == 0 && ok;
  if (!ok) {
    bsim_error_set(err, BSIM_ERR_INPUT, "%s: cannot write: %s",
                   path ? path : "standard output", strerror(errno));
    if (path) remove(path);
    return -1;
  }
  return 0;
}

int bsim_cli_convert(const bsim_library *lib, int argc, char **argv) {
  const char *in = NULL, *out = NULL;
  const char **observes = calloc((size_t)argc + 1, sizeof *observes);
  int nobserves = 0;
  if (!observes) return BSIM_ERR_SIM;
  for (int i = 0; i < argc; i++) {
    const char *arg = argv[i];
    if (strcmp(arg, "-o") == 0 || strcmp(arg, "--observe") == 0) {
      if (i + 1 >= argc) {
        free(observes);
        return bsim_cli_usage("%s needs a value", arg);
      }
      const char *val = argv[++i];
      if (arg[1] == 'o') {
        out = val;
      } else if (!strchr(val, '=')) {
        free(observes);
        return bsim_cli_usage("--observe expects NAME=PATH:PORT, got '%s'",
                              val);
      } else {
        observes[nobserves++] = val;
      }
    } else if (arg[0] == '-' && arg[1]) {
      free(observes);
      return bsim_cli_usage("convert: unknown option '%s'", arg);
    } else if (in) {
      free(observes);
      return bsim_cli_usage("%s", "convert takes exactly one DIAGRAM");
    } else {
      in = arg;
    }
  }
  if (!in) {
    free(observes);
    return bsim_cli_usage("%s", "convert needs a DIAGRAM");
  }
  bsim_error err;
  bsim_error_clear(&err);
  char *text = NULL;
  size_t len = 0;
  int rc = 0;
  bsim_diagram *d = bsim_diagram_load(in, lib, &err);
  for (int i = 0; d && rc == 0 && i < nobserves; i++) {
    char *name = strdup(observes[i]);
    if (!name) {
      bsim_error_set(&err, BSIM_ERR_NOMEM, "out of memory");
      rc = -1;
      break;
    }
    char *eq = strchr(name, '=');
    *eq = '\0';
    rc = bsim_diagram_observe(d, name, eq + 1, &err);
    free(name);
  }
  bsim_sim *s = d && rc == 0 ? bsim_sim_create(d, NULL, &err) : NULL;
  if (!s || bsim_diagram_to_native(d, s, &text, &len, &err) != 0 ||
      write_all(out, text, len, &err) != 0)
    rc = bsim_cli_report(&err);
  else
    bsim_cli_notes(d, s);
  free(text);
  bsim_sim_free(s);
  bsim_diagram_free(d);
  free(observes);
  return rc;
}
