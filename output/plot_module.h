/*
 * The plot module (plot.c, with cairo) as the library reaches it
 * (plot_entry.c). Private to output/.
 */
#ifndef BSIM_PLOT_MODULE_H
#define BSIM_PLOT_MODULE_H

#include "blocksim/plot.h"

typedef struct out_plot_module {
  /* bsim_plot_write (blocksim/plot.h); o is never NULL here. */
  int (*write)(const bsim_tables *T, const char *path,
               const bsim_plot_options *o, bsim_error *err);
} out_plot_module;

#endif
