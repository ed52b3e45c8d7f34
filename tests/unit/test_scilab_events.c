/*
 * The event, discrete and random blocks against Scilab: small diagrams
 * built by Scilab scripts (the .sce files in tests/data/xcos/<topic>/), run by
 * Scilab's own simulator (xcos_ref.sh, whose CSVs are kept beside them), and
 * run here from their native replicas; every sink record must match Scilab's at
 * Scilab's row times. The tolerance of each case says why.
 */
#include "tests/unit/scilab_ref.h"

typedef struct ref_case {
  const char *dir, *diagram;
  const char *sinks[6];
  double tol; /* relative to each column's peak */
  const char *why;
} ref_case;

/* Row times are compared as doubles: they are clock dates computed with
 * Scilab's own arithmetic (init-time + k period for CLOCK_c, t + period
 * for CLOCK_f, nearly simultaneous events served together within the
 * diagram's time tolerance), so they must be Scilab's to the bit. */
#define TIME_TOL 0.0

static const ref_case cases[] = {
    {"xcos/random",
     "rand_blocks.xml",
     {"CSCOPE_5", "CSCOPE_6", "CSCOPE_7"},
     1e-14,
     "uniform draws are exact (k / 2^31); normal ones go through one log "
     "and one sqrt, where libm may differ from Scilab's by an ulp"},
    {"xcos/sync",
     "sync_routing.xml",
     {"CSCOPE_20", "CSCOPE_23"},
     0,
     "counters: integers, exact; a block activated through a synchronous "
     "router (IFTHEL_f, ESELECT_f, freq_div) shows its new count in the "
     "same tick, event unions count once per tick, and IFTHEL_f's surface "
     "is not watched when it has an event input"},
    {"xcos/sync",
     "simple_demo.xml",
     {"simple_demo_CSCOPE_2", "simple_demo_CSCOPE_18"},
     1e-14,
     "Scilab's Simple_Demo: the square wave flipped by freq_div shows at "
     "the clock tick that flips it; values are +-1 and a sine at the same "
     "dates, libm's sin to an ulp"},
    {"xcos/sync",
     "if_then_else.xml",
     {"ifthen_CSCOPE_2", "ifthen_CEVENTSCOPE_6"},
     1e-14,
     "Scilab's Event-if_then_else: the IFTHEL_f with an event input fires "
     "on its 157 activations only (a watched surface would add events at "
     "each crossing of the sine); sine values to an ulp of libm"},
    {"xcos/tags",
     "tags.xml",
     {"CSCOPE_9"},
     1e-14,
     "GOTO/FROM and CLKGOTO/CLKFROM at the three visibilities across two "
     "superblock levels: a sine (to an ulp of libm), 3 t sampled at the "
     "ticks and a constant 5"},
    {"xcos/sampleclk",
     "event_and.xml",
     {"event_and_CEVENTSCOPE_1", "event_and_CEVENTSCOPE_5",
      "event_and_CEVENTSCOPE_6"},
     0,
     "Scilab's Event-event_and: the two SampleCLKs merged into one clock, "
     "the event 'and' fires where they coincide; event flags are exact"},
};

int main(void) {
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    const ref_case *k = &cases[c];
    bsim_sim *s = ref_run(k->dir, k->diagram);
    if (!s) continue;
    for (int i = 0; i < 6 && k->sinks[i]; i++)
      ref_compare(s, k->dir, k->sinks[i], k->tol, TIME_TOL);
    bsim_sim_free(s);
  }
  return failures != 0;
}
