/*
 * The event, discrete and random blocks against Scilab: small diagrams
 * built by Scilab scripts (the .sce files in tests/data/xcos/<topic>/), run by
 * Scilab's own simulator (xcos_ref.sh, whose CSVs are kept beside them), and
 * run here from their native replicas and from the .xcos files themselves
 * (through the Xcos reader); every sink record must match Scilab's at
 * Scilab's row times. The tolerance of each case says why.
 */
#include "tests/unit/scilab_ref.h"

typedef struct ref_case {
  const char *dir, *diagram;
  const char *sinks[6];
  /* the Scilab-made .xcos itself, when kept, and its sinks' names as the
   * Xcos reader gives them (TYPE_n), in the order of sinks[] */
  const char *xcos;
  const char *xsinks[6];
  double tol; /* relative to each column's peak */
  const char *why;
} ref_case;

/* Row times are compared as doubles: they are clock dates computed with
 * Scilab's own arithmetic (init-time + k period for CLOCK_c, t + period
 * for CLOCK_f, nearly simultaneous events served together within the
 * diagram's time tolerance), so they must be Scilab's to the bit. */
#define TIME_TOL 0.0

static const ref_case cases[] = {
    {.dir = "xcos/random",
     .diagram = "rand_blocks.xml",
     .sinks = {"CSCOPE_5", "CSCOPE_6", "CSCOPE_7"},
     .xcos = "rand_blocks.xcos",
     .xsinks = {"CSCOPE_1", "CSCOPE_2", "CSCOPE_3"},
     .tol = 1e-14,
     .why = "uniform draws are exact (k / 2^31); normal ones go through one "
            "log and one sqrt, where libm may differ from Scilab's by an "
            "ulp"},
    {.dir = "xcos/sync",
     .diagram = "sync_routing.xml",
     .sinks = {"CSCOPE_20", "CSCOPE_23"},
     .xcos = "sync_routing.xcos",
     .xsinks = {"CSCOPE_1", "CSCOPE_2"},
     .tol = 0,
     .why = "counters: integers, exact; a block activated through a "
            "synchronous router (IFTHEL_f, ESELECT_f, freq_div) shows its new "
            "count in the same tick, event unions count once per tick, and "
            "IFTHEL_f's surface is not watched when it has an event input"},
    {.dir = "xcos/sync",
     .diagram = "simple_demo.xml",
     .sinks = {"simple_demo_CSCOPE_2", "simple_demo_CSCOPE_18"},
     .xcos = "Simple_Demo.xcos",
     .xsinks = {"CSCOPE_1", "CSCOPE_2"},
     .tol = 1e-14,
     .why = "Scilab's Simple_Demo: the square wave flipped by freq_div shows "
            "at the clock tick that flips it; values are +-1 and a sine at "
            "the same dates, libm's sin to an ulp"},
    {.dir = "xcos/sync",
     .diagram = "if_then_else.xml",
     .sinks = {"ifthen_CSCOPE_2", "ifthen_CEVENTSCOPE_6"},
     .xcos = "Event-if_then_else.xcos",
     .xsinks = {"CSCOPE_1", "CEVENTSCOPE_1"},
     .tol = 1e-14,
     .why = "Scilab's Event-if_then_else: the IFTHEL_f with an event input "
            "fires on its 157 activations only (a watched surface would add "
            "events at each crossing of the sine); sine values to an ulp of "
            "libm"},
    {.dir = "xcos/sync",
     .diagram = "reroute.xml",
     .sinks = {"reroute_CEVENTSCOPE_7", "reroute_CSCOPE_8"},
     .xcos = "reroute.xcos",
     .xsinks = {"CEVENTSCOPE_1", "CSCOPE_1"},
     .tol = 0,
     .why = "event flags and a counter: exact; a block activated by a clock "
            "both directly and through an IFTHEL_f on the same clock runs "
            "once per tick, behind the IFTHEL_f, with both bits (one "
            "CEVENTSCOPE row, +1 on the counter), and the IFTHEL_f's other "
            "clock runs only what its outputs activate"},
    {.dir = "xcos/tags",
     .diagram = "tags.xml",
     .sinks = {"CSCOPE_9"},
     .xcos = "tags.xcos",
     .xsinks = {"CSCOPE_1"},
     .tol = 1e-14,
     .why = "GOTO/FROM and CLKGOTO/CLKFROM at the three visibilities across "
            "two superblock levels: a sine (to an ulp of libm), 3 t sampled "
            "at the ticks and a constant 5"},
    {.dir = "xcos/sampleclk",
     .diagram = "event_and.xml",
     .sinks = {"event_and_CEVENTSCOPE_1", "event_and_CEVENTSCOPE_5",
               "event_and_CEVENTSCOPE_6"},
     .xcos = "Event-event_and.xcos",
     .xsinks = {"CEVENTSCOPE_1", "CEVENTSCOPE_2", "CEVENTSCOPE_3"},
     .tol = 0,
     .why = "Scilab's Event-event_and: the two SampleCLKs merged into one "
            "clock, the event 'and' fires where they coincide; event flags "
            "are exact"},
    {.dir = "xcos/sampleclk",
     .diagram = "event_and_leaf.xml",
     .sinks = {"event_and_CEVENTSCOPE_1", "event_and_CEVENTSCOPE_5",
               "event_and_CEVENTSCOPE_6"},
     .tol = 0,
     .why = "the same with blocksim's ANDBLK leaf: exact"},
};

/* The native replica, then the .xcos itself through the Xcos reader:
 * both must give Scilab's records. */
int main(void) {
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    const ref_case *k = &cases[c];
    for (int pass = 0; pass < 2; pass++) {
      const char *file = pass ? k->xcos : k->diagram;
      if (!file) continue;
      bsim_sim *s = ref_run(k->dir, file);
      if (!s) continue;
      for (int i = 0; i < 6 && k->sinks[i]; i++)
        ref_compare(s, k->dir, k->sinks[i], pass ? k->xsinks[i] : NULL, k->tol,
                    TIME_TOL);
      bsim_sim_free(s);
    }
  }
  return failures != 0;
}
