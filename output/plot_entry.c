/*
 * The plotting entry points of the public API (blocksim/plot.h). Drawing
 * needs cairo, which a run without plots should not load: it lives in the
 * plot module (plot.c), loaded here on first use.
 */
#include <string.h>

#include "blocksim/plot.h"
#include "modules/module.h"
#include "output/plot_module.h"

void bsim_plot_options_init(bsim_plot_options *o) {
  memset(o, 0, sizeof *o);
}

int bsim_plot_write(const bsim_tables *T, const char *path,
                    const bsim_plot_options *o, bsim_error *err) {
  const out_plot_module *m = bsim_module("plot", "plotting", err);
  bsim_plot_options defaults;
  if (!o) {
    bsim_plot_options_init(&defaults);
    o = &defaults;
  }
  return m ? m->write(T, path, o, err) : -1;
}
