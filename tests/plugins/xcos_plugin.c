/*
 * The plugin that registers the Xcos-style test blocks of tests/plugins/
 * xcos/ (type 4, and one of type 1), which stay exactly as an Xcos user
 * writes them: this file only
 * declares their types (named after their functions) and adds them.
 */
#include "blocksim/scicos_type1.h"

void xs_oscillator(scicos_block *block, int flag);
void xs_satmode(scicos_block *block, int flag);
void xs_runmean(scicos_block *block, int flag);
void xs_implicit(scicos_block *block, int flag);
void xs_crossings1(int *flag, int *nevprt, double *t, double *xd, double *x,
                   int *nx, double *z, int *nz, double *tvec, int *ntvec,
                   double *rpar, int *nrpar, int *ipar, int *nipar, double *u1,
                   int *nu1, double *y1, int *ny1, double *g, int *ng);

BSIM_PLUGIN_DECLARE_ABI;

BSIM_SCICOS4_TYPE(xs_oscillator, "Second-order system (Xcos-style test).");
BSIM_SCICOS4_TYPE(xs_satmode, "Saturation with modes (Xcos-style test).");
BSIM_SCICOS4_TYPE(xs_runmean, "Running mean in work memory (Xcos-style).");
BSIM_SCICOS4_IMPLICIT_TYPE(xs_implicit, "Implicit first order (Xcos-style).");
BSIM_SCICOS1_TYPE(xs_crossings1, "Counts crossings (Xcos type-1 style).");

int bsim_plugin_init(bsim_library *lib, bsim_error *err) {
  static const bsim_block_type *const types[] = {
      &BSIM_SCICOS4(xs_oscillator), &BSIM_SCICOS4(xs_satmode),
      &BSIM_SCICOS4(xs_runmean), &BSIM_SCICOS4(xs_implicit),
      &BSIM_SCICOS1(xs_crossings1)};
  return bsim_library_add(lib, types, 5, err);
}
