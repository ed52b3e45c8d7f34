/*
 * The event blocks (blocks/events.c, blocks/evroute.c) on hand-built block
 * views: the delays their flag 3 writes (clock periods, event delays), how
 * IFTHEL_f / ESELECT_f / CLKSOMV_f / ANDBLK route activations, that END_c
 * and HALT_f ask the scheduler to stop, and their define steps compared
 * with blocks Scilab stored in its demo diagrams (tests/data/layout).
 *
 * Each block is built from its own define step, so the run-time data the
 * computational function sees are the ones a diagram would give it. The
 * view is embedded in the scheduler's rt_block, as the scheduler does, so
 * that bsim_block_error / bsim_block_stop land in a bsim_run_errors here.
 */
#define BLOCK_HARNESS_FROM_DEFINE
#include "tests/unit/block_harness.h"

/* Delays are differences of a few exactly-known sums (base + k * period
 * minus the current time), so they agree with the decimal value to a few
 * ulps of the times involved (<= 100 here): 1e-13 absolute is ample and
 * still far below any period we use. */
#define TOL 1e-13

#define CHECK_NEAR(got, want, what)                                            \
  CHECK(fabs((got) - (want)) <= TOL, "%s: got %.17g, want %.17g", what,        \
        (double)(got), (double)(want))

/* Run TYPE's define with scalar parameters given by name, in any order;
 * every parameter of the type must be given. 0 on success, else -1 with
 * the message in *err. */
static int define(const char *type, bsim_model *m, bsim_error *err, int n,
                  const char *const *names, const double *vals) {
  bsim_value v[MAXP];
  double store[MAXP];
  for (int k = 0; k < n && k < MAXP; k++) {
    store[k] = vals[k];
    v[k] = (bsim_value){1, 1, &store[k], NULL};
  }
  return define_named(type, m, err, n < MAXP ? n : MAXP, names, v, 7);
}

/* Build the view of a block from its define step. Data ports are scalars
 * (all the event blocks with data have one scalar input). */
static bsim_block *mk(harness *h, const char *type, int n,
                      const char *const *names, const double *vals) {
  memset(h, 0, sizeof *h);
  bsim_error err;
  int rc = define(type, &h->m, &err, n, names, vals);
  CHECK(rc == 0, "%s: define failed: %s", type, err.message);
  bsim_block *b = view_of_model(h, type);
  h->insz[0] = h->insz[1] = h->outsz[0] = h->outsz[1] = 1;
  b->ng = h->m.ng;
  b->nmode = h->m.nmode;
  b->g = h->g;
  b->mode = h->mode;
  b->jroot = h->jroot;
  b->nevout = h->m.nevout;
  b->evout = h->evout;
  if (h->rb.fn) h->rb.fn(b, BSIM_FLAG_INIT);
  return b;
}

/* One activation as the scheduler serves it: flags 1, 3 (evout pre-filled
 * with -1), 2. Returns the index of the one output event fired with delay
 * 0, -1 if none, -2 if several or a positive delay. */
static int activate(harness *h, double t, int nevprt) {
  bsim_block *b = h->b;
  b->t = t;
  b->nevprt = nevprt;
  h->rb.fn(b, BSIM_FLAG_OUTPUTS);
  for (int k = 0; k < b->nevout; k++)
    h->evout[k] = -1;
  if (b->nevout) h->rb.fn(b, BSIM_FLAG_EVENTS);
  h->rb.fn(b, BSIM_FLAG_UPDATE);
  b->nevprt = 0;
  int fired = -1;
  for (int k = 0; k < b->nevout; k++)
    if (h->evout[k] >= 0) fired = fired == -1 && h->evout[k] == 0 ? k : -2;
  return fired;
}

#define P(...) ((const char *const[]){__VA_ARGS__})
#define V(...) ((const double[]){__VA_ARGS__})

/* A clock served by the scheduler: each tick at the time the previous one
 * asked for. The k-th tick must be init + k * period to rounding, where a
 * naive t += period would drift by many ulps over 1000 ticks. */
static void test_clocks(void) {
  harness h;
  bsim_block *b = mk(&h, "CLOCK_c", 2, P("period", "init-time"), V(0.1, 0.1));
  CHECK(h.m.nevin == 1 && h.m.nevout == 1 && h.m.firing[0] == 0.1,
        "CLOCK_c model: nevin %d nevout %d firing %g", h.m.nevin, h.m.nevout,
        h.m.firing[0]);
  CHECK(h.fb.type->flags & BSIM_TYPE_SELF_ACTIVATED, "CLOCK_c not self-act.");
  double t = h.m.firing[0], worst = 0;
  for (int k = 0; k < 1000; k++) {
    activate(&h, t, 1);
    if (k < 3) CHECK_NEAR(h.evout[0], 0.1, "CLOCK_c period (flag 3 delay)");
    t += h.evout[0];
    worst = fmax(worst, fabs(t - (0.1 + (k + 1) * 0.1)));
  }
  /* 2 ulps of 100 */
  CHECK(worst <= 3e-14, "CLOCK_c drifts by %g after 1000 ticks", worst);
  (void)b;
  done(&h);

  /* SampleCLK itself is Xcos's layout only: the flattener merges every
   * sample clock into one M_freq (test_mfreq). */
  mk(&h, "SampleCLK", 2, P("period", "offset"), V(2, 0.5));
  CHECK(h.m.nevin == 0 && h.m.nevout == 1 && h.m.firing[0] == -1 &&
            h.m.nrpar == 2 && h.m.rpar[0] == 2 && h.m.rpar[1] == 0.5,
        "SampleCLK model: nevin %d firing %g rpar [%g %g]", h.m.nevin,
        h.m.firing[0], h.m.rpar[0], h.m.rpar[1]);
  CHECK(h.fb.type->flags & BSIM_TYPE_SAMPLE_CLOCK, "SampleCLK flags");
  done(&h);

  bsim_model m;
  bsim_error err;
  CHECK(define("CLOCK_c", &m, &err, 2, P("period", "init-time"), V(0, 1)) !=
                0 &&
            strstr(err.message, "period") && strstr(err.message, "test/blk"),
        "CLOCK_c period 0 accepted or message unclear: %s", err.message);
  CHECK(define("SampleCLK", &m, &err, 2, P("period", "offset"), V(1, 2)) != 0,
        "SampleCLK offset > period accepted");
  CHECK(define("SampleCLK", &m, &err, 2, P("period", "offset"), V(1, -0.25)) !=
            0,
        "SampleCLK negative offset accepted (Scilab's merged clock cannot "
        "start before 0)");
}

static void test_evtdly(void) {
  harness h;
  mk(&h, "EVTDLY_c", 2, P("delay", "init-time"), V(0.3, -1));
  CHECK(h.m.firing[0] == -1 && h.m.rpar[0] == 0.3 && h.m.rpar[1] == -1,
        "EVTDLY_c model: firing %g rpar [%g %g]", h.m.firing[0], h.m.rpar[0],
        h.m.rpar[1]);
  CHECK(!(h.fb.type->flags & BSIM_TYPE_SELF_ACTIVATED), "EVTDLY_c self-act.");
  /* activations from outside at arbitrary times: each fires 0.3 later */
  activate(&h, 1.234, 1);
  CHECK_NEAR(h.evout[0], 0.3, "EVTDLY_c delay");
  activate(&h, 1.4, 1); /* retriggered before the output fired */
  CHECK_NEAR(h.evout[0], 0.3, "EVTDLY_c retriggered");
  activate(&h, 1.7, 1); /* exactly one delay later: same delay */
  CHECK_NEAR(h.evout[0], 0.3, "EVTDLY_c one delay later");
  activate(&h, 5, 1);
  CHECK_NEAR(h.evout[0], 0.3, "EVTDLY_c after a pause");
  /* not activated: writes nothing */
  h.b->nevprt = 0;
  h.evout[0] = -1;
  h.rb.fn(h.b, BSIM_FLAG_EVENTS);
  CHECK(h.evout[0] == -1, "EVTDLY_c fired without activation");
  done(&h);

  /* With an initial firing, Xcos's evtdly4 counts activations: the k-th
   * asks for init + k delay, whoever activated it (a date already past
   * fires nothing). */
  mk(&h, "EVTDLY_c", 2, P("delay", "init-time"), V(0.5, 2));
  CHECK(h.m.firing[0] == 2, "EVTDLY_c initial firing %g", h.m.firing[0]);
  activate(&h, 2, 1);
  CHECK_NEAR(h.evout[0], 0.5, "EVTDLY_c first count");
  activate(&h, 2.5, 1);
  CHECK_NEAR(h.evout[0], 0.5, "EVTDLY_c second count");
  activate(&h, 2.7, 1); /* third activation from outside: 2 + 1.5 */
  CHECK_NEAR(h.evout[0], 0.8, "EVTDLY_c counts outside activations");
  activate(&h, 9, 1); /* 2 + 2 is past: no event */
  CHECK(h.evout[0] < 0, "EVTDLY_c past date fired: %g", h.evout[0]);
  done(&h);
  bsim_model m;
  bsim_error err;
  CHECK(define("EVTDLY_c", &m, &err, 2, P("delay", "init-time"), V(-1, 0)) != 0,
        "EVTDLY_c negative delay accepted");
}

static void test_ifthel(void) {
  harness h;
  bsim_block *b =
      mk(&h, "IFTHEL_f", 2, P("event-input", "zero-crossing"), V(1, 1));
  CHECK(h.m.nin == 1 && h.m.dep_u[0] == 1 && h.m.nevin == 1 &&
            h.m.nevout == 2 && h.m.firing[0] == -1 && h.m.firing[1] == -1 &&
            h.m.ng == 1 && h.m.nmode == 1,
        "IFTHEL_f model");
  static const struct {
    double u;
    int out;
  } cases[] = {{0.5, 0}, {1e-300, 0}, {0, 1}, {-0.0, 1}, {-2, 1}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    h.in[0] = cases[i].u;
    int got = activate(&h, 1, 1);
    CHECK(got == cases[i].out, "IFTHEL_f u = %g fired output %d, want %d",
          cases[i].u, got + 1, cases[i].out + 1);
  }
  /* surface and mode; the mode only moves in the discrete phase */
  h.in[0] = -3;
  h.rb.fn(b, BSIM_FLAG_ZCROSS);
  CHECK(h.g[0] == -3 && h.mode[0] == 2, "IFTHEL_f g %g mode %d", h.g[0],
        h.mode[0]);
  b->phase = BSIM_PHASE_CONTINUOUS;
  h.in[0] = 4;
  h.rb.fn(b, BSIM_FLAG_ZCROSS);
  CHECK(h.g[0] == 4 && h.mode[0] == 2,
        "IFTHEL_f mode moved while "
        "integrating: %d",
        h.mode[0]);
  b->phase = BSIM_PHASE_DISCRETE;
  /* its own crossing: the direction decides, even when u is still on the
   * old side by a rounding error at the located root */
  h.in[0] = -1e-17;
  h.jroot[0] = 1;
  CHECK(activate(&h, 2, -1) == 0, "IFTHEL_f rising crossing not 'then'");
  h.in[0] = 1e-17;
  h.jroot[0] = -1;
  CHECK(activate(&h, 3, -1) == 1, "IFTHEL_f falling crossing not 'else'");
  done(&h);

  mk(&h, "IFTHEL_f", 2, P("event-input", "zero-crossing"), V(0, 0));
  CHECK(h.m.nevin == 0 && h.m.ng == 0 && h.m.nmode == 0,
        "IFTHEL_f event-input=0 zc=0: nevin %d ng %d nmode %d", h.m.nevin,
        h.m.ng, h.m.nmode);
  h.in[0] = 0.25;
  CHECK(activate(&h, 1, 1) == 0, "IFTHEL_f without surfaces, u > 0");
  h.in[0] = -0.25;
  CHECK(activate(&h, 1, 1) == 1, "IFTHEL_f without surfaces, u < 0");
  done(&h);
}

static void test_eselect(void) {
  harness h;
  mk(&h, "ESELECT_f", 3, P("outputs", "event-input", "zero-crossing"),
     V(3, 1, 0));
  CHECK(h.m.nevout == 3 && h.m.nevin == 1 && h.m.ng == 0 && h.m.nmode == 0,
        "ESELECT_f model");
  static const struct {
    double u;
    int out;
  } cases[] = {{-4, 0}, {0.5, 0},  {1, 0}, {1.9, 0},
               {2, 1},  {2.99, 1}, {3, 2}, {7, 2}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    h.in[0] = cases[i].u;
    int got = activate(&h, 1, 1);
    CHECK(got == cases[i].out, "ESELECT_f u = %g fired output %d, want %d",
          cases[i].u, got + 1, cases[i].out + 1);
  }
  h.in[0] = NAN;
  CHECK(activate(&h, 1, 1) == 0, "ESELECT_f NaN not routed to output 1");
  done(&h);

  bsim_block *b = mk(&h, "ESELECT_f", 3,
                     P("outputs", "event-input", "zero-crossing"), V(3, 0, 1));
  CHECK(h.m.nevin == 0 && h.m.ng == 2 && h.m.nmode == 1, "ESELECT_f zc model");
  h.in[0] = 2.5;
  h.rb.fn(b, BSIM_FLAG_ZCROSS);
  CHECK(h.g[0] == 0.5 && h.g[1] == -0.5 && h.mode[0] == 2,
        "ESELECT_f g [%g %g] mode %d", h.g[0], h.g[1], h.mode[0]);
  /* crossings: rising through 3 enters output 3, falling through 2
   * enters output 1 */
  h.in[0] = 3 - 1e-15;
  h.jroot[0] = 0, h.jroot[1] = 1;
  CHECK(activate(&h, 1, -1) == 2, "ESELECT_f rising through 3");
  h.in[0] = 2;
  h.jroot[0] = -1, h.jroot[1] = 0;
  CHECK(activate(&h, 2, -1) == 0, "ESELECT_f falling through 2");
  h.jroot[0] = 1, h.jroot[1] = 0;
  CHECK(activate(&h, 3, -1) == 1, "ESELECT_f rising through 2");
  done(&h);
  bsim_model m;
  bsim_error err;
  CHECK(define("ESELECT_f", &m, &err, 3,
               P("outputs", "event-input", "zero-crossing"), V(1, 1, 0)) != 0,
        "ESELECT_f with one output accepted");
}

static void test_union_and(void) {
  harness h;
  mk(&h, "CLKSOMV_f", 0, NULL, NULL);
  CHECK(h.m.nevin == 3 && h.m.nevout == 1, "CLKSOMV_f ports");
  CHECK(activate(&h, 1, 4) == 0, "CLKSOMV_f input 3 not passed on");
  CHECK(activate(&h, 1, 3) == 0, "CLKSOMV_f inputs 1+2 not one event");
  h.evout[0] = -1;
  h.b->nevprt = 0;
  h.rb.fn(h.b, BSIM_FLAG_EVENTS);
  CHECK(h.evout[0] == -1, "CLKSOMV_f fired without activation");
  done(&h);

  /* ANDBLK: one activation carrying both inputs fires, anything else
   * (even both inputs at one instant in two activations) does not */
  mk(&h, "ANDBLK", 0, NULL, NULL);
  CHECK(h.m.nevin == 2 && h.m.nevout == 1, "ANDBLK ports");
  CHECK(h.fb.type->flags & BSIM_TYPE_SYNCHRONOUS, "ANDBLK not synchronous");
  CHECK(activate(&h, 1, 1) == -1, "ANDBLK fired on input 1 alone");
  CHECK(activate(&h, 1, 2) == -1, "ANDBLK fired on input 2 alone");
  CHECK(activate(&h, 2, 3) == 0, "ANDBLK: one activation of both inputs");
  CHECK(activate(&h, 2, 3) == 0, "ANDBLK: again at the same instant");
  done(&h);
}

static void test_stop(void) {
  harness h;
  mk(&h, "END_c", 1, P("time"), V(30));
  CHECK(h.m.firing[0] == 30 && h.m.nevin == 1 && h.m.nevout == 1 &&
            (h.fb.type->flags & BSIM_TYPE_SELF_ACTIVATED),
        "END_c model: firing %g", h.m.firing[0]);
  h.b->nevprt = 0;
  h.rb.fn(h.b, BSIM_FLAG_UPDATE);
  CHECK(!h.errs.stop, "END_c stopped without activation");
  CHECK(activate(&h, 30, 1) == -1, "END_c scheduled an event");
  CHECK(h.errs.stop == 1, "END_c did not stop the run");
  done(&h);

  mk(&h, "HALT_f", 1, P("state"), V(7));
  CHECK(h.m.nipar == 1 && h.m.ipar[0] == 7 && h.m.nz == 1 && h.m.nevin == 1 &&
            h.m.nevout == 0,
        "HALT_f model");
  h.b->nevprt = 0;
  h.rb.fn(h.b, BSIM_FLAG_OUTPUTS);
  CHECK(!h.errs.stop, "HALT_f stopped without activation");
  activate(&h, 2.5, 1);
  CHECK(h.errs.stop == 1 && h.z[0] == 7, "HALT_f: stop %d z %g", h.errs.stop,
        h.z[0]);
  done(&h);
}

static void test_ports(void) {
  harness h;
  mk(&h, "CLKINV_f", 1, P("port"), V(2));
  CHECK(h.m.nipar == 1 && h.m.ipar[0] == 2 && h.m.nevin == 0 &&
            h.m.nevout == 1 && h.m.nin == 0 && h.m.nout == 0 &&
            (h.fb.type->flags & BSIM_TYPE_PORT),
        "CLKINV_f model");
  done(&h);
  mk(&h, "CLKOUTV_f", 1, P("port"), V(3));
  CHECK(h.m.nipar == 1 && h.m.ipar[0] == 3 && h.m.nevin == 1 &&
            h.m.nevout == 0 && (h.fb.type->flags & BSIM_TYPE_PORT),
        "CLKOUTV_f model");
  done(&h);
  bsim_model m;
  bsim_error err;
  CHECK(define("CLKINV_f", &m, &err, 1, P("port"), V(0)) != 0,
        "CLKINV_f port 0 accepted");
}

/* ---------------------------------------------- layouts against Scilab's */

/* The format of tests/data/layout/README.md (real parameters and the keys
 * the event blocks need). rpar and ipar are expected empty when absent. */
static void layout(const char *file) {
  char path[1024], line[1024], type[64] = "";
  snprintf(path, sizeof path, "%s/layout/%s", BSIM_TEST_DATA, file);
  FILE *f = fopen(path, "r");
  CHECK(f != NULL, "cannot open %s", path);
  if (!f) return;
  const char *names[MAXP];
  char namebuf[MAXP][32];
  double vals[MAXP];
  int np = 0;
  expect rpar = {0, 1, {0}}, ipar = {0, 1, {0}}, firing = {0}, in = {0},
         dep_u = {0}, nevin = {0}, nevout = {0}, ng = {0}, nmode = {0};
  while (fgets(line, sizeof line, f)) {
    char *hash = strchr(line, '#'), key[32], name[32];
    int used = 0, u2 = 0;
    if (hash) *hash = '\0';
    if (sscanf(line, "%31s%n", key, &used) != 1) continue;
    char *rest = line + used;
    if (!strcmp(key, "type")) {
      sscanf(rest, "%63s", type);
    } else if (!strcmp(key, "param") && np < MAXP &&
               sscanf(rest, "%31s %*d %*d%n", name, &u2) == 1) {
      snprintf(namebuf[np], sizeof namebuf[np], "%s", name);
      names[np] = namebuf[np];
      vals[np++] = strtod(rest + u2, NULL); /* scalars only here */
    } else {
      struct {
        const char *k;
        expect *e;
      } keys[] = {{"rpar", &rpar},     {"ipar", &ipar},   {"firing", &firing},
                  {"in", &in},         {"dep_u", &dep_u}, {"nevin", &nevin},
                  {"nevout", &nevout}, {"ng", &ng},       {"nmode", &nmode}};
      for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!strcmp(key, keys[i].k)) numbers(rest, keys[i].e);
    }
  }
  fclose(f);
  bsim_model m;
  bsim_error err;
  if (define(type, &m, &err, np, names, vals) != 0) {
    CHECK(0, "%s: define failed: %s", file, err.message);
    return;
  }
  cmp(file, "rpar", &rpar, m.rpar, m.nrpar);
  cmp_int(file, "ipar", &ipar, m.ipar, m.nipar);
  cmp(file, "firing", &firing, m.firing, m.nevout);
  cmp_int(file, "in", &in, m.in, m.nin);
  cmp_int(file, "dep_u", &dep_u, m.dep_u, m.nin);
  cmp_int(file, "nevin", &nevin, &m.nevin, 1);
  cmp_int(file, "nevout", &nevout, &m.nevout, 1);
  cmp_int(file, "ng", &ng, &m.ng, 1);
  cmp_int(file, "nmode", &nmode, &m.nmode, 1);
  bsim_model_clear(&m);
}

/* M_freq on a view with its object parameters: the outputs it fires
 * (combinations of clocks) and the dates offset + counter / den, compared
 * exactly with k / den as Scilab's m_frequ divides. */
static void mfreq_run(const double *periods, const double *offsets, int n,
                      const int *outs, const double *dates, int nticks,
                      const char *what) {
  harness h;
  memset(&h, 0, sizeof h);
  bsim_error err;
  bsim_value v[2] = {{n, 1, (double *)periods, NULL},
                     {n, 1, (double *)offsets, NULL}};
  CHECK(define_named("M_freq", &h.m, &err, 2, P("sample-times", "offsets"), v,
                     9) == 0,
        "%s: define: %s", what, err.message);
  bsim_block *b = view_of_model(&h, "M_freq");
  int sz[8];
  double *op[4];
  for (int k = 0; k < h.m.nopar && k < 4; k++) {
    sz[k] = h.m.opar[k].rows;
    sz[h.m.nopar + k] = h.m.opar[k].cols;
    op[k] = h.m.opar[k].v;
  }
  b->nopar = h.m.nopar;
  b->oparsz = sz;
  b->oparptr = op;
  b->nevout = h.m.nevout;
  b->evout = h.evout;
  h.rb.fn(b, BSIM_FLAG_INIT);
  /* the first date is the firing of its output */
  int first = -1;
  for (int k = 0; k < h.m.nevout; k++)
    if (h.m.firing[k] >= 0) first = k;
  CHECK(first + 1 == outs[0] && h.m.firing[first] == dates[0],
        "%s: first tick on output %d at %g, want %d at %g", what, first + 1,
        first >= 0 ? h.m.firing[first] : -1, outs[0], dates[0]);
  double t = dates[0];
  for (int i = 1; i < nticks; i++) {
    int got = -1;
    b->t = t;
    b->nevprt = 1;
    for (int k = 0; k < h.m.nevout; k++)
      h.evout[k] = -1;
    h.rb.fn(b, BSIM_FLAG_EVENTS);
    for (int k = 0; k < h.m.nevout; k++)
      if (h.evout[k] >= 0) got = k;
    t = got >= 0 ? t + h.evout[got] : -1;
    CHECK(got + 1 == outs[i] && t == dates[i],
          "%s: tick %d on output %d at %.17g, want %d at %.17g", what, i,
          got + 1, t, outs[i], dates[i]);
  }
  done(&h);
}

static void test_mfreq(void) {
  /* periods 3 and 2 from 0: both at 0 (output 3), then 2 (2), 3 (1),
   * 4 (2), 6 (3), 8 (2) */
  mfreq_run((double[]){3, 2}, (double[]){0, 0}, 2, (int[]){3, 2, 1, 2, 3, 2},
            (double[]){0, 2, 3, 4, 6, 8}, 6, "M_freq 3 and 2");
  /* one clock of 0.1 from 0.05: dates 0.05 + k / 20 ... as k * 2 / 20
   * (den 20), the exact quotients, not sums */
  mfreq_run((double[]){0.1}, (double[]){0.05}, 1, (int[]){1, 1, 1, 1},
            (double[]){0.05, 0.05 + 2.0 / 20, 0.05 + 4.0 / 20, 0.05 + 6.0 / 20},
            4, "M_freq 0.1 from 0.05");
  bsim_model m;
  bsim_error err;
  bsim_value bad[2] = {{1, 1, (double[]){1}, NULL},
                       {1, 1, (double[]){2}, NULL}};
  CHECK(define_named("M_freq", &m, &err, 2, P("sample-times", "offsets"), bad,
                     3) != 0 &&
            strstr(err.message, "offset"),
        "M_freq offset beyond its period accepted: %s", err.message);
}

int main(void) {
  test_clocks();
  test_mfreq();
  test_evtdly();
  test_ifthel();
  test_eselect();
  test_union_and();
  test_stop();
  test_ports();
  static const char *const files[] = {
      "clock_c_command.txt",      "evtdly_c_plant.txt",
      "sampleclk_event_and.txt",  "ifthel_f_event_and.txt",
      "ifthel_f_simple_demo.txt", "end_c_command.txt",
      "clkinv_f_kalman.txt",      "clkoutv_f_plant.txt",
      "evtdly_f_simple_demo.txt", "clock_f_simple_demo.txt",
      "clkin_f_event_and.txt",    "clkout_f_command.txt",
      "endblk_command.txt"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
    layout(files[i]);
  /* tag blocks have a string parameter, counting.c's ports have columns:
   * the harness's fuller reader takes those */
  static const char *const tag_files[] = {
      "goto_goto_demo.txt",    "from_goto_demo.txt",
      "clkgoto_goto_demo.txt", "clkfrom_goto_demo.txt",
      "select_f_if_block.txt", "modulo_count_simple_demo.txt",
      "andlog_f_event_and.txt"};
  for (size_t i = 0; i < sizeof tag_files / sizeof tag_files[0]; i++)
    failures += layout_check(tag_files[i]);
  if (failures) {
    fprintf(stderr, "test_blocks_events: %d failure(s)\n", failures);
    return 1;
  }
  printf("test_blocks_events: ok (%zu layouts match Scilab's)\n",
         sizeof files / sizeof files[0]);
  return 0;
}
