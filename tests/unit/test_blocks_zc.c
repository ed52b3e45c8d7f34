/*
 * The zero-crossing family and INTEGRAL_m's hybrid options, called flag by
 * flag on hand-built block views (no diagram, no solver): surfaces and the
 * modes chosen for given inputs, outputs in both phases (frozen modes while
 * integrating), the event delays of the zcross blocks for given roots, the
 * integrator's re-init jump and saturation, and the define steps' layouts
 * against blocks of Scilab's demo diagrams (tests/data/layout/).
 *
 * As in test_blocks_fn.c the view is embedded in the scheduler's rt_block
 * so that bsim_block_error records into a bsim_run_errors we can inspect.
 */
#include "tests/unit/block_harness.h"
#include "tests/unit/test_library.h"

/* ---------------------------------------------------------- SATURATION */

static void test_saturation(void) {
  harness h;
  bsim_block *b = mk(&h, "SATURATION", 1, 1, (int[]){1, 1, 1, 1});
  define_into(&h, 2, (const char *[]){"upper", "lower"},
              (bsim_value[]){SCALAR(2), SCALAR(-0.5)});
  CHECK(b->ng == 2 && b->nmode == 1, "ng %d nmode %d", b->ng, b->nmode);
  call(&h, BSIM_FLAG_INIT);
  /* surfaces u - upper, u - lower, and the piece for three inputs */
  struct {
    double u, y;
    int mode;
  } cases[] = {{3, 2, 1}, {-1, -0.5, 2}, {0.75, 0.75, 3}, {2, 2, 1}};
  for (int i = 0; i < 4; i++) {
    h.in[0][0] = cases[i].u;
    call(&h, BSIM_FLAG_ZCROSS);
    CHECK_NEAR(h.g[0], cases[i].u - 2, "SATURATION g1 = u - upper");
    CHECK_NEAR(h.g[1], cases[i].u + 0.5, "SATURATION g2 = u - lower");
    CHECK(h.mode[0] == cases[i].mode, "u = %g: mode %d, want %d", cases[i].u,
          h.mode[0], cases[i].mode);
    call(&h, BSIM_FLAG_OUTPUTS);
    CHECK_NEAR(h.out[0][0], cases[i].y, "SATURATION y at an event");
  }
  /* While integrating: mode 3 (linear) holds even though u is slightly
   * past the upper limit, and the surfaces still move. */
  h.in[0][0] = 1;
  call(&h, BSIM_FLAG_ZCROSS);
  CHECK(h.mode[0] == 3, "mode %d", h.mode[0]);
  b->phase = BSIM_PHASE_CONTINUOUS;
  h.in[0][0] = 2.01;
  call(&h, BSIM_FLAG_ZCROSS);
  CHECK(h.mode[0] == 3, "mode changed while integrating: %d", h.mode[0]);
  CHECK_NEAR(h.g[0], 2.01 - 2, "g1 while integrating");
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK_NEAR(h.out[0][0], 2.01, "SATURATION frozen linear branch");
  /* mode 2 (lower) holds while u is back above the limit */
  h.mode[0] = 2;
  h.in[0][0] = 0.2;
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK_NEAR(h.out[0][0], -0.5, "SATURATION frozen lower branch");
  no_error(&h, "SATURATION");
  done(&h);

  /* zero-crossing = 0: no surfaces, clipping the current value always */
  b = mk(&h, "satur", 1, 1, (int[]){1, 1, 1, 1});
  define_into(&h, 1, (const char *[]){"zero-crossing"},
              (bsim_value[]){SCALAR(0)});
  CHECK(b->ng == 0 && b->nmode == 0, "ng %d nmode %d", b->ng, b->nmode);
  b->phase = BSIM_PHASE_CONTINUOUS;
  h.in[0][0] = 1.5;
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK_NEAR(h.out[0][0], 1, "SATURATION without zero crossings");
  done(&h);

  define_fails("SATURATION", 2, (const char *[]){"upper", "lower"},
               (bsim_value[]){SCALAR(1), SCALAR(1)}, "'upper'");
}

/* --------------------------------------------------------- HYSTHERESIS */

static void test_hystheresis(void) {
  harness h;
  bsim_block *b = mk(&h, "HYSTHERESIS", 1, 1, (int[]){1, 1, 1, 1});
  define_into(&h, 4, (const char *[]){"high", "low", "out-high", "out-low"},
              (bsim_value[]){SCALAR(1), SCALAR(-1), SCALAR(5), SCALAR(-3)});
  CHECK(b->ng == 2 && b->nmode == 1, "ng %d nmode %d", b->ng, b->nmode);
  call(&h, BSIM_FLAG_INIT);
  /* starting between the thresholds: off */
  h.in[0][0] = 0.5;
  call(&h, BSIM_FLAG_ZCROSS);
  CHECK_NEAR(h.g[0], -0.5, "HYSTHERESIS g1 = u - high");
  CHECK_NEAR(h.g[1], 1.5, "HYSTHERESIS g2 = u - low");
  CHECK(h.mode[0] == 1, "initial mode %d, want 1 (off)", h.mode[0]);
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK_NEAR(h.out[0][0], -3, "HYSTHERESIS starts off");
  /* a sequence of events: on at high, memory in between, off at low */
  struct {
    double u, y;
    int mode;
  } seq[] = {{1, 5, 2},    {0.2, 5, 2}, {-0.99, 5, 2}, {-1, -3, 1},
             {0.9, -3, 1}, {1.3, 5, 2}, {-2, -3, 1}};
  for (int i = 0; i < 7; i++) {
    h.in[0][0] = seq[i].u;
    call(&h, BSIM_FLAG_OUTPUTS);
    CHECK_NEAR(h.out[0][0], seq[i].y, "HYSTHERESIS at an event");
    call(&h, BSIM_FLAG_ZCROSS);
    CHECK(h.mode[0] == seq[i].mode, "step %d (u = %g): mode %d, want %d", i,
          seq[i].u, h.mode[0], seq[i].mode);
  }
  /* while integrating the mode rules: off although u is above high */
  b->phase = BSIM_PHASE_CONTINUOUS;
  h.in[0][0] = 1.2;
  call(&h, BSIM_FLAG_ZCROSS);
  CHECK(h.mode[0] == 1, "mode changed while integrating");
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK_NEAR(h.out[0][0], -3, "HYSTHERESIS frozen off");
  /* the event at the crossing switches it on */
  b->phase = BSIM_PHASE_DISCRETE;
  call(&h, BSIM_FLAG_ZCROSS);
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK(h.mode[0] == 2, "mode after the event %d", h.mode[0]);
  CHECK_NEAR(h.out[0][0], 5, "HYSTHERESIS on after the event");
  no_error(&h, "HYSTHERESIS");
  done(&h);
  CHECK(h.work == NULL, "HYSTHERESIS work not released");

  /* the initial mode follows the initial input: on when it starts high */
  b = mk(&h, "hystheresis", 1, 1, (int[]){1, 1, 1, 1});
  define_into(&h, 0, NULL, NULL);
  call(&h, BSIM_FLAG_INIT);
  h.in[0][0] = 1.5; /* defaults: high 1, low 0, out 1 / 0 */
  call(&h, BSIM_FLAG_ZCROSS);
  CHECK(h.mode[0] == 2, "initial mode %d for a high start", h.mode[0]);
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK_NEAR(h.out[0][0], 1, "HYSTHERESIS starts on");
  done(&h);

  /* without zero crossings the switch follows the values seen, memory
   * included, in either phase */
  b = mk(&h, "HYSTHERESIS", 1, 1, (int[]){1, 1, 1, 1});
  define_into(&h, 1, (const char *[]){"zero-crossing"},
              (bsim_value[]){SCALAR(0)});
  CHECK(b->ng == 0 && b->nmode == 0, "ng %d nmode %d", b->ng, b->nmode);
  call(&h, BSIM_FLAG_INIT);
  b->phase = BSIM_PHASE_CONTINUOUS;
  double us[4] = {0.5, 1.0, 0.5, 0.0}, ys[4] = {0, 1, 1, 0};
  for (int i = 0; i < 4; i++) {
    h.in[0][0] = us[i];
    call(&h, BSIM_FLAG_OUTPUTS);
    CHECK_NEAR(h.out[0][0], ys[i], "HYSTHERESIS without zero crossings");
  }
  no_error(&h, "HYSTHERESIS zc = 0");
  done(&h);

  define_fails("HYSTHERESIS", 2, (const char *[]){"high", "low"},
               (bsim_value[]){SCALAR(0), SCALAR(1)}, "'low'");
}

/* ----------------------------------------------------------- SWITCH2_m */

static void test_switch2(void) {
  /* rule, u2, passes input 1? (threshold a = 0.5) */
  struct {
    int rule;
    double u2;
    int first;
  } cases[] = {{0, 0.5, 1}, {0, 0.7, 1}, {0, 0.2, 0}, {1, 0.5, 0}, {1, 0.7, 1},
               {1, 0.2, 0}, {2, 0.5, 0}, {2, 0.7, 1}, {2, 0.2, 1}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    harness h;
    bsim_block *b = mk(&h, "SWITCH2_m", 3, 1, (int[]){2, 1, 1, 1, 2, 1, 2, 1});
    define_into(&h, 2, (const char *[]){"rule", "threshold"},
                (bsim_value[]){SCALAR(cases[c].rule), SCALAR(0.5)});
    CHECK(b->nipar == 1 && b->ipar[0] == cases[c].rule, "ipar");
    call(&h, BSIM_FLAG_INIT);
    h.in[0][0] = 1, h.in[0][1] = 2;
    h.in[1][0] = cases[c].u2;
    h.in[2][0] = -1, h.in[2][1] = -2;
    call(&h, BSIM_FLAG_ZCROSS);
    CHECK_NEAR(h.g[0], cases[c].u2 - 0.5, "SWITCH2_m g = u2 - a");
    CHECK(h.mode[0] == (cases[c].first ? 1 : 2), "rule %d u2 %g: mode %d",
          cases[c].rule, cases[c].u2, h.mode[0]);
    call(&h, BSIM_FLAG_OUTPUTS);
    double want = cases[c].first ? 1 : -1;
    CHECK(near(h.out[0][0], want) && near(h.out[0][1], 2 * want),
          "rule %d u2 %g: y = [%g %g]", cases[c].rule, cases[c].u2, h.out[0][0],
          h.out[0][1]);
    /* while integrating the mode holds after u2 moves across a */
    b->phase = BSIM_PHASE_CONTINUOUS;
    h.in[1][0] = cases[c].first ? -10 : 10;
    if (cases[c].rule == 2) h.in[1][0] = cases[c].first ? 0.5 : 3;
    call(&h, BSIM_FLAG_OUTPUTS);
    CHECK(near(h.out[0][0], want), "rule %d: frozen choice lost",
          cases[c].rule);
    no_error(&h, "SWITCH2_m");
    done(&h);
  }
  harness h;
  bsim_block *b = mk(&h, "switch2_m", 3, 1, (int[]){1, 1, 1, 1, 1, 1, 1, 1});
  define_into(&h, 1, (const char *[]){"zero-crossing"},
              (bsim_value[]){SCALAR(0)});
  CHECK(b->ng == 0 && b->nmode == 0 && h.m.in[1] == 1 && h.m.in2[1] == 1 &&
            h.m.in[0] == -1 && h.m.in2[2] == -2,
        "SWITCH2_m layout");
  b->phase = BSIM_PHASE_CONTINUOUS;
  h.in[0][0] = 4, h.in[1][0] = -0.1, h.in[2][0] = 6;
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK_NEAR(h.out[0][0], 6, "SWITCH2_m without zero crossings");
  done(&h);
  define_fails("SWITCH2_m", 1, (const char *[]){"rule"},
               (bsim_value[]){SCALAR(3)}, "'rule'");
}

/* -------------------------------------------------------------- SIGNUM */

static void test_signum(void) {
  harness h;
  bsim_block *b = mk(&h, "SIGNUM", 1, 1, (int[]){3, 1, 3, 1});
  define_into(&h, 0, NULL, NULL);
  CHECK(b->ng == 3 && b->nmode == 3, "ng %d nmode %d", b->ng, b->nmode);
  call(&h, BSIM_FLAG_INIT);
  h.in[0][0] = -2, h.in[0][1] = 0, h.in[0][2] = 0.25;
  call(&h, BSIM_FLAG_ZCROSS);
  CHECK_NEAR(h.g[0], -2, "SIGNUM g = u");
  CHECK_NEAR(h.g[2], 0.25, "SIGNUM g = u");
  CHECK(h.mode[0] == 2 && h.mode[1] == 1 && h.mode[2] == 1, "modes %d %d %d",
        h.mode[0], h.mode[1], h.mode[2]);
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK_NEAR(h.out[0][0], -1, "sign(-2)");
  CHECK_NEAR(h.out[0][1], 0, "sign(0)");
  CHECK_NEAR(h.out[0][2], 1, "sign(0.25)");
  /* while integrating: modes rule (+1 for mode 1 even at u = 0) */
  b->phase = BSIM_PHASE_CONTINUOUS;
  h.in[0][0] = 0.1, h.in[0][2] = -0.1;
  call(&h, BSIM_FLAG_ZCROSS);
  CHECK(h.mode[0] == 2, "mode changed while integrating");
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK_NEAR(h.out[0][0], -1, "SIGNUM frozen negative");
  CHECK_NEAR(h.out[0][1], 1, "SIGNUM frozen mode 1 at u = 0");
  CHECK_NEAR(h.out[0][2], 1, "SIGNUM frozen positive");
  no_error(&h, "SIGNUM");
  done(&h);

  b = mk(&h, "signum", 1, 1, (int[]){2, 1, 2, 1});
  define_into(&h, 1, (const char *[]){"zero-crossing"},
              (bsim_value[]){SCALAR(0)});
  CHECK(b->ng == 0 && b->nmode == 0, "ng %d", b->ng);
  b->phase = BSIM_PHASE_CONTINUOUS;
  h.in[0][0] = -3, h.in[0][1] = 7;
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK(near(h.out[0][0], -1) && near(h.out[0][1], 1), "SIGNUM zc = 0");
  done(&h);
}

/* ------------------------------------------------------ zcross blocks */

/* Flag 3 after a root with the given jroot: the delays written. */
static void fire(harness *h, const int *jroot) {
  for (int i = 0; i < h->b->ng; i++)
    h->jroot[i] = jroot[i];
  for (int k = 0; k < MAXEV; k++)
    h->evout[k] = -1;
  h->b->nevprt = -1;
  call(h, BSIM_FLAG_EVENTS);
}

static void test_zcross(void) {
  harness h;
  /* NEGTOPOS_f fires on a rising crossing only, POSTONEG_f on a falling */
  const char *types[2] = {"NEGTOPOS_f", "POSTONEG_f"};
  for (int t = 0; t < 2; t++) {
    mk(&h, types[t], 1, 0, (int[]){1, 1});
    define_into(&h, 0, NULL, NULL);
    call(&h, BSIM_FLAG_INIT);
    h.in[0][0] = -0.3;
    call(&h, BSIM_FLAG_ZCROSS);
    CHECK_NEAR(h.g[0], -0.3, "zcross g = u");
    fire(&h, (int[]){1});
    CHECK(h.evout[0] == (t == 0 ? 0.0 : -1.0), "%s rising: evout %g", types[t],
          h.evout[0]);
    fire(&h, (int[]){-1});
    CHECK(h.evout[0] == (t == 0 ? -1.0 : 0.0), "%s falling: evout %g", types[t],
          h.evout[0]);
    /* an activation that is not its own root schedules nothing */
    h.evout[0] = -1;
    h.b->nevprt = 1;
    call(&h, BSIM_FLAG_EVENTS);
    CHECK(h.evout[0] == -1, "%s fired without a root", types[t]);
    no_error(&h, types[t]);
    done(&h);
  }

  /* ZCROSS_f with 2 surfaces: fires only when both cross together */
  mk(&h, "ZCROSS_f", 1, 0, (int[]){2, 1});
  define_into(&h, 1, (const char *[]){"in"}, (bsim_value[]){SCALAR(2)});
  CHECK(h.b->ng == 2 && h.b->nrpar == 16, "ng %d nrpar %d", h.b->ng,
        h.b->nrpar);
  call(&h, BSIM_FLAG_INIT);
  fire(&h, (int[]){1, 0});
  CHECK(h.evout[0] == -1, "ZCROSS_f one surface: %g", h.evout[0]);
  fire(&h, (int[]){0, -1});
  CHECK(h.evout[0] == -1, "ZCROSS_f other surface: %g", h.evout[0]);
  fire(&h, (int[]){1, -1});
  CHECK(h.evout[0] == 0, "ZCROSS_f both: %g", h.evout[0]);
  fire(&h, (int[]){-1, -1});
  CHECK(h.evout[0] == 0, "ZCROSS_f both falling: %g", h.evout[0]);
  no_error(&h, "ZCROSS_f");
  done(&h);

  /* GENERAL_f, 2 surfaces and 2 outputs. Column c = 4 F + D (bit i of F:
   * surface i+1 fired, of D: it fell); row k = delay of output k+1. Every
   * entry gets a distinct value 0.01 (10 c + k) so that a wrong column or
   * row shows. */
  double tab[32];
  for (int c = 0; c < 16; c++)
    for (int k = 0; k < 2; k++)
      tab[2 * c + k] = 0.01 * (10 * c + k);
  bsim_block *b = mk(&h, "GENERAL_f", 1, 0, (int[]){2, 1});
  define_into(&h, 3, (const char *[]){"in", "out", "table"},
              (bsim_value[]){SCALAR(2), SCALAR(2), {2, 16, tab, NULL}});
  CHECK(b->nevout == 2 && b->nrpar == 32, "nevout %d nrpar %d", b->nevout,
        b->nrpar);
  call(&h, BSIM_FLAG_INIT);
  struct {
    int j1, j2, col;
  } pats[] = {{1, 0, 4},  {-1, 0, 5},  {0, 1, 8},   {0, -1, 10},
              {1, 1, 12}, {-1, 1, 13}, {1, -1, 14}, {-1, -1, 15}};
  for (int p = 0; p < 8; p++) {
    fire(&h, (int[]){pats[p].j1, pats[p].j2});
    int c = pats[p].col;
    CHECK_NEAR(h.evout[0], 0.01 * (10 * c), "GENERAL_f output 1");
    CHECK_NEAR(h.evout[1], 0.01 * (10 * c + 1), "GENERAL_f output 2");
  }
  done(&h);
  /* negative entries keep an output quiet: one surface, columns 2 (rose)
   * and 3 (fell) */
  b = mk(&h, "GENERAL_f", 1, 0, (int[]){1, 1});
  define_into(
      &h, 3, (const char *[]){"in", "out", "table"},
      (bsim_value[]){SCALAR(1),
                     SCALAR(2),
                     {2, 4, (double[]){9, 9, 9, 9, 0.5, -1, -1, 2}, NULL}});
  call(&h, BSIM_FLAG_INIT);
  fire(&h, (int[]){1});
  CHECK(h.evout[0] == 0.5 && h.evout[1] == -1, "GENERAL_f rose: %g %g",
        h.evout[0], h.evout[1]);
  fire(&h, (int[]){-1});
  CHECK(h.evout[0] == -1 && h.evout[1] == 2, "GENERAL_f fell: %g %g",
        h.evout[0], h.evout[1]);
  no_error(&h, "GENERAL_f");
  done(&h);
  define_fails(
      "GENERAL_f", 3, (const char *[]){"in", "out", "table"},
      (bsim_value[]){SCALAR(1), SCALAR(2), {1, 3, (double[]){0, 0, 0}, NULL}},
      "'table'");
}

/* ------------------------------------------------------------ INTEGRAL_m */

static void test_integral(void) {
  harness h;
  /* re-init: a second input and one event input; x jumps on the event */
  bsim_block *b = mk(&h, "INTEGRAL_m", 2, 1, (int[]){2, 1, 2, 1, 2, 1});
  define_into(&h, 2, (const char *[]){"x0", "reinit"},
              (bsim_value[]){{2, 1, (double[]){1, 2}, NULL}, SCALAR(1)});
  CHECK(h.m.nin == 2 && h.m.nevin == 1 && h.m.in[1] == 2 && h.m.dep_u[0] == 0 &&
            h.m.dep_u[1] == 0 && h.m.ng == 0,
        "INTEGRAL_m reinit layout");
  call(&h, BSIM_FLAG_INIT);
  h.in[0][0] = 3, h.in[0][1] = -4;
  h.in[1][0] = 10, h.in[1][1] = 20;
  call(&h, BSIM_FLAG_DERIVATIVES);
  CHECK_NEAR(h.xd[0], 3, "INTEGRAL_m xd = u");
  b->nevprt = 0; /* an update without its event: no jump */
  call(&h, BSIM_FLAG_UPDATE);
  CHECK_NEAR(h.x[0], 1, "INTEGRAL_m jumped without its event");
  b->nevprt = 1;
  call(&h, BSIM_FLAG_UPDATE);
  CHECK_NEAR(h.x[0], 10, "INTEGRAL_m re-init x1");
  CHECK_NEAR(h.x[1], 20, "INTEGRAL_m re-init x2");
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK_NEAR(h.out[0][1], 20, "INTEGRAL_m y after re-init");
  no_error(&h, "INTEGRAL_m reinit");
  done(&h);

  /* saturation: limits [-1, 2] on element 1, [0, 5] on element 2 */
  b = mk(&h, "INTEGRAL_m", 1, 1, (int[]){2, 1, 2, 1});
  define_into(&h, 4, (const char *[]){"x0", "satur", "max", "min"},
              (bsim_value[]){{2, 1, (double[]){0, 1}, NULL},
                             SCALAR(1),
                             {2, 1, (double[]){2, 5}, NULL},
                             {2, 1, (double[]){-1, 0}, NULL}});
  CHECK(b->ng == 2 && b->nmode == 2 && b->nrpar == 4, "ng %d nmode %d", b->ng,
        b->nmode);
  CHECK(b->nrpar == 4 && b->rpar[0] == 2 && b->rpar[1] == 5 &&
            b->rpar[2] == -1 && b->rpar[3] == 0,
        "rpar = [max; min]");
  call(&h, BSIM_FLAG_INIT);
  /* free inside: mode 3, surface (x - max)(x - min) */
  h.x[0] = 0.5, h.x[1] = 5;
  h.in[0][0] = 1, h.in[0][1] = 3;
  call(&h, BSIM_FLAG_ZCROSS);
  CHECK(h.mode[0] == 3, "inside: mode %d", h.mode[0]);
  CHECK_NEAR(h.g[0], (0.5 - 2) * (0.5 + 1), "free surface");
  /* element 2 at its max with u pushing up: held, surface = u */
  CHECK(h.mode[1] == 1, "at max pushing up: mode %d", h.mode[1]);
  CHECK_NEAR(h.g[1], 3, "held surface = u");
  call(&h, BSIM_FLAG_DERIVATIVES);
  CHECK_NEAR(h.xd[0], 1, "free xd = u");
  CHECK_NEAR(h.xd[1], 0, "held xd = 0");
  /* while integrating, the held element's y stays at the limit even if x
   * is a solver tolerance beyond it */
  b->phase = BSIM_PHASE_CONTINUOUS;
  h.x[1] = 5 + 1e-9;
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK_NEAR(h.out[0][0], 0.5, "free y = x");
  CHECK_NEAR(h.out[0][1], 5, "held y = max");
  /* u turning back releases it at the next event */
  h.in[0][1] = -0.5;
  call(&h, BSIM_FLAG_ZCROSS);
  CHECK(h.mode[1] == 1, "mode changed while integrating");
  CHECK_NEAR(h.g[1], -0.5, "held surface follows u");
  b->phase = BSIM_PHASE_DISCRETE;
  b->nevprt = -1; /* its own root: x goes back onto the limit */
  call(&h, BSIM_FLAG_UPDATE);
  CHECK_NEAR(h.x[1], 5, "x put on the limit at the root");
  call(&h, BSIM_FLAG_ZCROSS);
  CHECK(h.mode[1] == 3, "released: mode %d", h.mode[1]);
  CHECK_NEAR(h.g[1], 0, "released at the limit: surface 0");
  call(&h, BSIM_FLAG_DERIVATIVES);
  CHECK_NEAR(h.xd[1], -0.5, "released xd = u");
  /* at the lower limit pushing down: mode 2, y = min */
  h.x[0] = -1, h.in[0][0] = -2;
  call(&h, BSIM_FLAG_ZCROSS);
  CHECK(h.mode[0] == 2, "at min pushing down: mode %d", h.mode[0]);
  b->phase = BSIM_PHASE_CONTINUOUS;
  h.x[0] = -1 - 1e-9;
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK_NEAR(h.out[0][0], -1, "held y = min");
  call(&h, BSIM_FLAG_DERIVATIVES);
  CHECK_NEAR(h.xd[0], 0, "held at min: xd = 0");
  no_error(&h, "INTEGRAL_m saturation");
  done(&h);

  /* scalar limits spread; x0 outside them and max <= min are errors */
  mk(&h, "INTEGRAL_m", 1, 1, (int[]){3, 1, 3, 1});
  define_into(
      &h, 2, (const char *[]){"x0", "satur"},
      (bsim_value[]){{3, 1, (double[]){0, 0.5, -0.5}, NULL}, SCALAR(1)});
  CHECK(h.b->nrpar == 6 && h.b->rpar[2] == 1 && h.b->rpar[3] == -1,
        "spread limits");
  done(&h);
  define_fails("INTEGRAL_m", 2, (const char *[]){"x0", "satur"},
               (bsim_value[]){SCALAR(3), SCALAR(1)}, "within the limits");
  define_fails("INTEGRAL_m", 4, (const char *[]){"satur", "max", "min", "x0"},
               (bsim_value[]){SCALAR(1), SCALAR(0), SCALAR(0), SCALAR(0)},
               "'max'");
}

/* ---------------------------------------------------- ties at a root */

/* A root that leaves a surface exactly at 0: flag 2 (nevprt = -1) with the
 * crossing's direction, then the mode choice at the same instant. */
static void root_then_modes(harness *h, double t, const int *jroot) {
  h->b->t = t;
  for (int k = 0; k < h->b->ng; k++)
    h->jroot[k] = jroot[k];
  h->b->nevprt = -1;
  call(h, BSIM_FLAG_UPDATE);
  h->b->nevprt = 0;
  for (int k = 0; k < h->b->ng; k++)
    h->jroot[k] = 0; /* the scheduler clears jroot before modes */
  h->b->phase = BSIM_PHASE_DISCRETE;
  call(h, BSIM_FLAG_ZCROSS);
}

static void test_ties(void) {
  harness h;
  /* SATURATION: u falls exactly onto the upper limit. By value alone the
   * mode would stay 1 (u >= upper); the root's direction says linear. */
  mk(&h, "SATURATION", 1, 1, (int[]){1, 1, 1, 1});
  define_into(&h, 2, (const char *[]){"upper", "lower"},
              (bsim_value[]){SCALAR(0.5), SCALAR(-0.5)});
  call(&h, BSIM_FLAG_INIT);
  h.in[0][0] = 0.5;
  call(&h, BSIM_FLAG_ZCROSS);
  CHECK(h.mode[0] == 1, "u = upper without a root: mode %d", h.mode[0]);
  root_then_modes(&h, 1.5, (int[]){-1, 0});
  CHECK(h.mode[0] == 3, "u fell onto upper: mode %d, want 3", h.mode[0]);
  /* a later event at another time no longer uses that direction */
  h.b->t = 2;
  call(&h, BSIM_FLAG_ZCROSS);
  CHECK(h.mode[0] == 1, "stale direction used: mode %d", h.mode[0]);
  /* u rises exactly onto the lower limit: linear again */
  h.in[0][0] = -0.5;
  root_then_modes(&h, 3, (int[]){0, 1});
  CHECK(h.mode[0] == 3, "u rose onto lower: mode %d, want 3", h.mode[0]);
  no_error(&h, "SATURATION ties");
  done(&h);
  CHECK(h.work == NULL, "SATURATION work not released");

  /* SIGNUM: u falls exactly to 0 -> negative mode */
  mk(&h, "SIGNUM", 1, 1, (int[]){2, 1, 2, 1});
  define_into(&h, 0, NULL, NULL);
  call(&h, BSIM_FLAG_INIT);
  h.in[0][0] = 0, h.in[0][1] = 0;
  root_then_modes(&h, 1, (int[]){-1, 1});
  CHECK(h.mode[0] == 2 && h.mode[1] == 1, "SIGNUM ties: modes %d %d", h.mode[0],
        h.mode[1]);
  done(&h);

  /* SWITCH2_m rule 0 (u2 >= a): u2 falls exactly onto a -> input 3 */
  mk(&h, "SWITCH2_m", 3, 1, (int[]){1, 1, 1, 1, 1, 1, 1, 1});
  define_into(&h, 1, (const char *[]){"threshold"},
              (bsim_value[]){SCALAR(0.25)});
  call(&h, BSIM_FLAG_INIT);
  h.in[1][0] = 0.25;
  root_then_modes(&h, 1, (int[]){-1});
  CHECK(h.mode[0] == 2, "SWITCH2_m tie: mode %d, want 2", h.mode[0]);
  done(&h);

  /* INTEGRAL_m held at max: u falls exactly to 0 -> released */
  mk(&h, "INTEGRAL_m", 1, 1, (int[]){1, 1, 1, 1});
  define_into(&h, 2, (const char *[]){"x0", "satur"},
              (bsim_value[]){SCALAR(1), SCALAR(1)});
  call(&h, BSIM_FLAG_INIT);
  h.in[0][0] = 0;
  call(&h, BSIM_FLAG_ZCROSS);
  CHECK(h.mode[0] == 1, "x = max, u = 0: held, mode %d", h.mode[0]);
  root_then_modes(&h, 2, (int[]){-1});
  CHECK(h.mode[0] == 3, "u fell to 0 while held: mode %d, want 3", h.mode[0]);
  no_error(&h, "INTEGRAL_m ties");
  done(&h);
}

static void test_registry(void) {
  static const char *const names[] = {
      "ZCROSS_f", "POSTONEG_f",  "NEGTOPOS_f", "GENERAL_f", "SATURATION",
      "satur",    "HYSTHERESIS", "SWITCH2_m",  "switch2_m", "SIGNUM",
      "signum",   "hystheresis", "zcross"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    CHECK(std_type(names[i]) != NULL, "%s not registered", names[i]);
  /* every default model must build (blocksim blocks shows them) */
  static const char *const ifaces[] = {"ZCROSS_f",  "POSTONEG_f", "NEGTOPOS_f",
                                       "GENERAL_f", "SATURATION", "HYSTHERESIS",
                                       "SWITCH2_m", "SIGNUM",     "INTEGRAL_m"};
  for (size_t i = 0; i < sizeof ifaces / sizeof ifaces[0]; i++) {
    harness h;
    mk(&h, ifaces[i], 1, 1, (int[]){1, 1, 1, 1});
    define_into(&h, 0, NULL, NULL);
    done(&h);
  }
}

int main(void) {
  test_saturation();
  test_hystheresis();
  test_switch2();
  test_signum();
  test_zcross();
  test_integral();
  test_ties();
  test_registry();
  static const char *const files[] = {
      "saturation_hydraulics.txt", "signum_buck_converter.txt",
      "negtopos_f_bouncing_ball.txt", "postoneg_f_bouncing_ball.txt",
      "integral_m_kalman.txt"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
    failures += layout_check(files[i]);
  if (failures) {
    fprintf(stderr, "test_blocks_zc: %d failure(s)\n", failures);
    return 1;
  }
  printf("test_blocks_zc: zero-crossing blocks and %zu layouts agree\n",
         sizeof files / sizeof files[0]);
  return 0;
}
