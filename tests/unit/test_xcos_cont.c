/*
 * Whole runs of the continuous, math, nonlinear and matrix Xcos blocks
 * against Scilab: small diagrams built with Scilab's block macros (the
 * .sce scripts of tests/data/xcos/cont), run by Scilab's simulator to make
 * the reference CSVs there; each runs from that .xcos file and from its
 * native XML replica. Each case states its tolerance and why. Also the closed
 * forms a Scilab run cannot pin down (DERIV, whose result depends on the
 * solver's steps).
 */
#include "tests/unit/xcos_ref.h"

/* Each case runs twice: the native replica (diagram, sink) and the
 * Scilab-made .xcos itself (the same name with .xcos, the sink named by
 * the Xcos reader's rule, xsink; NULL when the case has no such file). */
typedef struct xr_case {
  const char *diagram; /* under tests/data */
  double tf;
  const char *sink, *csv;
  double rel_peak; /* allowed error / column peak */
  const char *what;
  const char *xsink;
} xr_case;

static const xr_case cases[] = {
    /* basic_f: every value is an algebraic function of sin() at the
     * sample times (no state, no solver error), computed in the same
     * order as Scilab: a few ulps, so 1e-12 of the peak. */
    {"xcos/cont/basic_f.xml", 3, "scope",
     "xcos/cont/ref_basic_f/CMSCOPE_14.csv", 1e-12,
     "basic_f sums, gains, inverse, sqrt", "CMSCOPE_1"},
    {"xcos/cont/basic_f.xml", 3, "scope2",
     "xcos/cont/ref_basic_f/CSCOPE_15.csv", 1e-12, "basic_f SAT_f", "CSCOPE_1"},
    /* linear_f: both simulators integrate with rtol = atol = 1e-10; the
     * differences seen are ~1e-8 of the peaks, so 1e-6 leaves margin
     * while a wrong matrix, jump or limit is off by O(1). */
    {"xcos/cont/linear_f.xml", 5, "scope",
     "xcos/cont/ref_linear_f/CMSCOPE_15.csv", 1e-6,
     "linear_f state space, jumps, integrators", "CMSCOPE_1"},
    /* DERIV is a difference quotient over the last interval between two
     * evaluations of the diagram, which the two solvers choose
     * differently: error ~ h max|u''| / 2 with steps h up to ~0.02 in
     * both, so 1e-2 of the peak (deriv_closed_form bounds the step and
     * checks against cos(t)). */
    {"xcos/cont/linear_f.xml", 5, "scope2",
     "xcos/cont/ref_linear_f/CSCOPE_16.csv", 1e-2, "linear_f DERIV",
     "CSCOPE_1"},
    /* tables: interpolation in tables of exact times (sin only through
     * LOOKUP_f and INTRPLBLK_f), spline data computed from the same
     * linear systems as Scilab's: a few ulps; 1e-12 of the peak. */
    {"xcos/cont/tables.xml", 7, "scope", "xcos/cont/ref_tables/CMSCOPE_17.csv",
     1e-12, "tables lookups, curve, square, sawtooth", "CMSCOPE_1"},
    {"xcos/cont/tables.xml", 7, "scope2", "xcos/cont/ref_tables/CMSCOPE_18.csv",
     1e-12, "tables CURVE_c, every method", "CMSCOPE_2"},
    /* matrix: products and copies are exact up to summation order; the
     * inverse, pseudo-inverse and divisions come from GSL's LU and SVD
     * where Scilab uses LAPACK's: rounding differences amplified by
     * condition numbers below 100 (seen: 4e-14 of the peak), so 1e-11. */
    {"xcos/cont/matrix.xml", 4, "scope", "xcos/cont/ref_matrix/CMSCOPE_25.csv",
     1e-11, "matrix blocks", "CMSCOPE_1"},
    /* switching: comparisons, selections and conversions are exact; the
     * one integrated signal (the time RELATIONALOP's zero crossings say
     * sin t > 0.5) comes from both integrators at 1e-10 and from the
     * located crossings, seen within 1e-14: 1e-8 of the peak. */
    {"xcos/cont/switching.xml", 6, "scope",
     "xcos/cont/ref_switching/CMSCOPE_28.csv", 1e-8,
     "switching blocks and CONVERT", "CMSCOPE_1"},
    /* bounce: every ball-ball collision amplifies the difference between
     * the two runs; Scilab's CVODE at 1e-10 is itself ~1e-8 off a 1e-13
     * run by t = 1 (blocksim ten times closer) and 2e-4 off by t = 4,
     * after some 20 collisions: 1e-3 of the peak. bounce_closed_form
     * checks the physics exactly. */
    {"xcos/cont/bounce.xml", 4, "scope", "xcos/cont/ref_bounce/CMSCOPE_2.csv",
     1e-3, "BOUNCE, three balls", "CMSCOPE_1"},
    /* pid: the native PID, and the same controller as the superblock Xcos
     * builds, against Xcos's PID. DERIV's quotient depends on the history
     * of evaluations, the solver's Jacobian evaluations included (their
     * perturbed inputs at the same instant move it by ~perturbation/step):
     * 2e-5 of the peak seen for either form, so 1e-4. */
    {"xcos/cont/pid.xml", 8, "scope", "xcos/cont/ref_pid/CMSCOPE_7.csv", 1e-4,
     "PID block", "CMSCOPE_1"},
    {"xcos/cont/pid.xml", 8, "scope2", "xcos/cont/ref_pid/CMSCOPE_7.csv", 1e-4,
     "PID as its superblock", NULL},
    /* expression: the same code evaluated in the same order, exact; the
     * one integrated signal (switched by located crossings) within 1e-8
     * as in switching. */
    {"xcos/cont/expression.xml", 5, "scope",
     "xcos/cont/ref_expression/CMSCOPE_10.csv", 1e-8, "EXPRESSION",
     "CMSCOPE_1"},
};

/* DERIV of sin(t) with the integrator's step bounded by 1e-3: the
 * quotient spans at most two steps, so |y - cos(t)| <= 2e-3 * max|sin''|
 * / 2 + rounding; 2e-3 allows for it, while a wrong sign or a stale value
 * is off by O(0.1) somewhere over five periods of samples. */
static void deriv_closed_form(void) {
  const char *name = "max-step", *value = "1e-3";
  bsim_options o;
  bsim_options_init(&o);
  o.solver_param_names = &name;
  o.solver_param_values = &value;
  o.nsolver_params = 1;
  bsim_sim *s = xr_run("xcos/cont/linear_f.xml", &o);
  size_t rows = 0;
  int cols = 0;
  const double *rec = s ? xr_record(s, "scope2", &rows, &cols) : NULL;
  double worst = 0;
  for (size_t k = 1; rec && k < rows; k++) { /* 0 until two times */
    double t = rec[2 * k], y = rec[2 * k + 1];
    worst = fmax(worst, fabs(y - cos(t)));
  }
  /* ticks at 0, 0.1, ..., 4.9: the one due at the final time is not
   * served, as in Xcos */
  CHECK(rec && rows == 50 && worst <= 2e-3,
        "DERIV of sin: %zu rows, |y - cos t| up to %.3g", rows, worst);
  fprintf(stderr, "  DERIV of sin, max-step 1e-3: |y - cos t| <= %.3g\n",
          worst);
  bsim_sim_free(s);
}

/* One ball: x = x0 + v0 (1 - exp(-C t)) / C (drag, no side wall within
 * reach) and y periodic: free fall from 4 to the floor at the radius 0.5
 * in T = sqrt(2 3.5 / g), back up elastically, period 2T. Integrated at
 * 1e-10 with the impacts located: 1e-7 absolute on values of a few units
 * (a wrong bounce or drag is off by O(0.1)). */
static void bounce_closed_form(void) {
  bsim_sim *s = xr_run("xcos/cont/bounce1.xml", NULL);
  size_t rows = 0;
  int cols = 0;
  const double *rec = s ? xr_record(s, "scope", &rows, &cols) : NULL;
  double g = 9.81, T = sqrt(2 * 3.5 / g), worst = 0;
  for (size_t k = 0; rec && k < rows; k++) {
    double t = rec[3 * k], x = rec[3 * k + 1], y = rec[3 * k + 2];
    double ph = fmod(t + T, 2 * T) - T; /* time from the last impact */
    double ye = 0.5 + 0.5 * g * (T * T - ph * ph);
    double xe = 1 + 2 * (1 - exp(-0.3 * t)) / 0.3;
    worst = fmax(worst, fmax(fabs(x - xe), fabs(y - ye)));
  }
  CHECK(rec && rows >= 600 && worst < 1e-7,
        "one ball: %zu rows, worst error %.3g", rows, worst);
  fprintf(stderr, "  BOUNCE one ball vs closed form: worst %.3g\n", worst);
  bsim_sim_free(s);
}

/* EXPRESSION reads context variables inside its text: a derived run
 * with another dd must recompile it (BSIM_TYPE_READS_CONTEXT), giving
 * exactly what a sim created with that dd gives. */
static void expression_derived(void) {
  char path[1024];
  bsim_error err;
  bsim_error_clear(&err);
  snprintf(path, sizeof path, "%s/xcos/cont/expression.xml", BSIM_TEST_DATA);
  bsim_diagram *d = bsim_diagram_load(path, test_library(), &err);
  bsim_diagram *d2 = bsim_diagram_load(path, test_library(), &err);
  bsim_options o;
  bsim_options_init(&o);
  const char *target = "dd", *value = "-0.2";
  int structural = 0;
  bsim_sim *base = d ? bsim_sim_create(d, &o, &err) : NULL;
  bsim_sim *der =
      base ? bsim_sim_derive(base, d, &target, &value, 1, &structural, &err)
           : NULL;
  bsim_sim *ref = d2 && bsim_diagram_override(d2, "dd", "-0.2", &err) == 0
                      ? bsim_sim_create(d2, &o, &err)
                      : NULL;
  CHECK(der && ref, "derive / create: %s", err.message);
  if (der && ref && bsim_sim_run(der, &err) == 0 &&
      bsim_sim_run(ref, &err) == 0 && bsim_sim_run(base, &err) == 0) {
    size_t r1, r2, r0;
    int c1, c2, c0;
    const double *a = xr_record(der, "scope", &r1, &c1);
    const double *b = xr_record(ref, "scope", &r2, &c2);
    const double *z = xr_record(base, "scope", &r0, &c0);
    CHECK(a && b && r1 == r2 && c1 == c2 &&
              memcmp(a, b, sizeof(double) * r1 * (size_t)(c1 + 1)) == 0,
          "a derived run with dd = -0.2 differs from a sim made with it");
    int moved = 0;
    for (size_t k = 0; a && z && k < r1 && k < r0; k++)
      moved |= a[k * 6 + 1] != z[k * 6 + 1];
    CHECK(moved, "dd = -0.2 changed nothing in EXPRESSION's output");
  }
  bsim_sim_free(der);
  bsim_sim_free(ref);
  bsim_sim_free(base);
  bsim_diagram_free(d);
  bsim_diagram_free(d2);
}

int main(void) {
  char loaded[256] = "";
  bsim_sim *s = NULL;
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
      const xr_case *c = &cases[i];
      const char *sink = pass ? c->xsink : c->sink;
      char file[256], what[128];
      snprintf(file, sizeof file, "%s", c->diagram);
      if (pass) { /* the .xcos the .sce made, beside the .xml */
        if (!sink) continue;
        snprintf(file + strlen(file) - 4, 8, ".xcos");
      }
      if (strcmp(loaded, file) != 0) {
        bsim_sim_free(s);
        s = xr_run(file, NULL);
        snprintf(loaded, sizeof loaded, "%s", file);
      }
      snprintf(what, sizeof what, "%s%s", c->what, pass ? " (.xcos)" : "");
      if (s) xr_compare(s, sink, c->csv, c->tf, c->rel_peak, what);
    }
  bsim_sim_free(s);
  deriv_closed_form();
  bounce_closed_form();
  expression_derived();
  return xr_finish("test_xcos_cont");
}
