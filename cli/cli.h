/* Shared between the command's files. */
#ifndef BSIM_CLI_H
#define BSIM_CLI_H

#include "blocksim/blocksim.h"

/* Print a usage error (fmt with one %s) and return exit status 2. */
int bsim_cli_usage(const char *fmt, const char *arg);
/* Print err and return its exit status. */
int bsim_cli_report(const bsim_error *err);
/* palettes.c: the Xcos palette table that ends --markdown. */
void bsim_cli_palettes_markdown(const bsim_library *lib);
int bsim_cli_blocks(const bsim_library *lib, int argc, char **argv);
/* Print the diagram's and the run's notes (what was done as Xcos does)
 * to stderr; either may be NULL. */
void bsim_cli_notes(const bsim_diagram *d, const bsim_sim *s);
/* Apply -p TARGET=VALUE overrides (each contains '='). 0, or -1 with err. */
int bsim_cli_override(bsim_diagram *d, const char *const *params, int n,
                      bsim_error *err);
int bsim_cli_solvers(const bsim_library *lib, int argc, char **argv);
/* The formats of -o and --scopes from --format (may be NULL) and -o's
 * extension: 0, or -1 after a usage message. */
int bsim_cli_formats(const char *format, const char *out, bsim_format *of,
                     bsim_format *sf);
/* plot.c: `blocksim plot`; the plot of a sim's results (run --plot); a
 * check of an image name's extension (0 after a usage message). */
int bsim_cli_plot(int argc, char **argv);
int bsim_cli_plot_sim(const bsim_sim *s, const char *path, bsim_error *err);
int bsim_cli_plot_path_ok(const char *path);
/* sweep.c: `blocksim sweep`, `blocksim merge` */
int bsim_cli_sweep(const bsim_library *lib, int argc, char **argv);
int bsim_cli_merge(int argc, char **argv);
/* convert.c: `blocksim convert` */
int bsim_cli_convert(const bsim_library *lib, int argc, char **argv);
/* analyze.c */
int bsim_cli_analyze(const bsim_library *lib, int argc, char **argv);
int bsim_cli_linearize(const bsim_library *lib, int argc, char **argv);

#endif
