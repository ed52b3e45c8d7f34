/*
 * Whole runs of the continuous, math, nonlinear and matrix Xcos blocks
 * against Scilab: small diagrams built with Scilab's block macros
 * (the .sce scripts of tests/data/xcos/cont), run by Scilab's simulator to make the
 * reference CSVs there, and replicated as native XML. Each case states
 * its tolerance and why.
 */
#include "tests/unit/xcos_ref.h"

typedef struct xr_case {
  const char *diagram; /* under tests/data */
  double tf;
  const char *sink, *csv;
  double rel_peak; /* allowed error / column peak */
  const char *what;
} xr_case;

/* basic_f: every value is an algebraic function of sin() at the sample
 * times (no state, no solver error), computed in the same order as
 * Scilab: a few ulps, so 1e-12 of the peak. */
static const xr_case cases[] = {
    {"xcos/cont/basic_f.xml", 3, "scope",
     "xcos/cont/ref_basic_f/CMSCOPE_14.csv", 1e-12,
     "basic_f sums, gains, inverse, sqrt"},
    {"xcos/cont/basic_f.xml", 3, "scope2",
     "xcos/cont/ref_basic_f/CSCOPE_15.csv", 1e-12, "basic_f SAT_f"},
};

int main(void) {
  const char *loaded = NULL;
  bsim_sim *s = NULL;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const xr_case *c = &cases[i];
    if (!loaded || strcmp(loaded, c->diagram) != 0) {
      bsim_sim_free(s);
      s = xr_run(c->diagram);
      loaded = c->diagram;
    }
    if (s) xr_compare(s, c->sink, c->csv, c->tf, c->rel_peak, c->what);
  }
  bsim_sim_free(s);
  return xr_finish("test_xcos_cont");
}
