/*
 * Checks the "ida" engine against problems with known solutions, through the
 * engine interface only (as the scheduler will use it): decay, an index-1 DAE
 * with inconsistent start, root finding, stop times, failures, parameters,
 * interpolation and the registry.
 */
#include "tests/unit/engine_harness.h"

static const bsim_engine_type *ida(void) {
  return bsim_engine_find("ida");
}

/* ---- problems ----------------------------------------------------------- */

static const double K = 0.5;

static int decay_res(double t, const double *y, const double *yp, double *r,
                     void *u) {
  r[0] = yp[0] + K * y[0];
  return BSIM_CB_OK;
}

/* y1' = -y1, 0 = y2 - 2 y1 */
static int dae_res(double t, const double *y, const double *yp, double *r,
                   void *u) {
  r[0] = yp[0] + y[0];
  r[1] = y[1] - 2.0 * y[0];
  return BSIM_CB_OK;
}

/* Fatal once t passes 0.7. */
static int fatal_decay_res(double t, const double *y, const double *yp,
                           double *r, void *u) {
  r[0] = yp[0] + K * y[0];
  return t > 0.7 ? BSIM_CB_FATAL : BSIM_CB_OK;
}

/* Recoverable when asked for t beyond 0.5 with a large step: counts the
 * refusals so the test can see that IDA retried. */
typedef struct {
  int refusals;
} refuse_state;

static int refuse_res(double t, const double *y, const double *yp, double *r,
                      void *u) {
  refuse_state *s = u;
  r[0] = yp[0] + K * y[0];
  if (t > 0.5 && t < 0.6 && s->refusals < 3) {
    s->refusals++;
    return BSIM_CB_RECOVERABLE;
  }
  return BSIM_CB_OK;
}

static bsim_engine *make(bsim_problem *p, double rtol, double atol,
                         const char *const *names, const char *const *values,
                         int nparams, double t0, const double *y0,
                         const double *yp0, char *msg, size_t msglen) {
  return make_engine("ida", p, rtol, atol, names, values, nparams, t0, y0, yp0,
                     msg, msglen);
}

/* ---- tests -------------------------------------------------------------- */

static void test_decay_and_interpolate(void) {
  bsim_problem p = {.n = 1, .id = (const double[]){1}, .residual = decay_res};
  double y = 1, yp = -K;
  char err[512];
  bsim_engine *e =
      make(&p, 1e-8, 1e-10, NULL, NULL, 0, 0, &y, &yp, err, sizeof err);
  CHECK(e != NULL, "create: %s", err);
  if (!e) return;
  for (int k = 1; k <= 10; k++) {
    double tret = -1;
    bsim_adv_status st = ida()->advance(e, k, &tret, &y, &yp);
    double exact = exp(-K * k);
    CHECK(st == BSIM_ADV_OK, "advance to %d: %s", k, ida()->last_error(e));
    CHECK(tret == k, "tret %.17g", tret);
    /* rtol 1e-8 accumulated over up to ~100 steps stays far below 1e-6. */
    CHECK(fabs(y - exact) <= 1e-6 * exact, "y(%d)=%.12g exact %.12g", k, y,
          exact);
    CHECK(fabs(yp + K * exact) <= 1e-6 * K * exact, "y'(%d)=%.12g", k, yp);
  }
  /* Interpolation inside the last step: IDA stepped past t=10, so t=9.99
   * lies in [tn - h, tn]; same 1e-6 relative as the step values. */
  double d0, d1;
  CHECK(ida()->interpolate(e, 9.99, 0, &d0) == 0, "%s", ida()->last_error(e));
  CHECK(ida()->interpolate(e, 9.99, 1, &d1) == 0, "%s", ida()->last_error(e));
  double ex = exp(-K * 9.99);
  CHECK(fabs(d0 - ex) <= 1e-6 * ex, "dky0 %.12g vs %.12g", d0, ex);
  /* The derivative of the interpolant is one order less accurate. */
  CHECK(fabs(d1 + K * ex) <= 1e-5 * K * ex, "dky1 %.12g vs %.12g", d1, -K * ex);
  /* Far outside the last step must fail with a message, not crash. */
  CHECK(ida()->interpolate(e, 2.0, 0, &d0) == -1, "interpolate at 2");
  CHECK(strstr(ida()->last_error(e), "t=2") != NULL, "%s",
        ida()->last_error(e));

  bsim_engine_stats st;
  ida()->stats(e, &st);
  CHECK(st.steps > 10 && st.steps < 2000, "steps %ld", st.steps);
  CHECK(st.residual_evals >= st.steps, "res evals %ld", st.residual_evals);
  CHECK(st.root_evals == 0, "root evals %ld", st.root_evals);
  ida()->free(e);
}

static void test_dae_calc_ic(void) {
  bsim_problem p = {.n = 2, .id = (const double[]){1, 0}, .residual = dae_res};
  double y[2] = {1, 0}, yp[2] = {0, 0};
  char err[512];
  bsim_engine *e =
      make(&p, 1e-8, 1e-10, NULL, NULL, 0, 0, y, yp, err, sizeof err);
  CHECK(e != NULL, "create: %s", err);
  if (!e) return;
  int rc = ida()->calc_ic(e, 0.1, y, yp);
  CHECK(rc == 0, "calc_ic: %s", ida()->last_error(e));
  /* IDACalcIC's Newton iteration stops at a fraction of the tolerances:
   * 1e-8 is generous for a linear problem. */
  CHECK(fabs(y[0] - 1) <= 1e-12, "y1 %.17g", y[0]);
  CHECK(fabs(y[1] - 2) <= 1e-8, "y2 %.17g", y[1]);
  CHECK(fabs(yp[0] + 1) <= 1e-8, "y1' %.17g", yp[0]);
  double tret;
  bsim_adv_status st = ida()->advance(e, 2.0, &tret, y, yp);
  CHECK(st == BSIM_ADV_OK, "%s", ida()->last_error(e));
  double ex = exp(-2.0);
  /* Global error of a few rtol; 1e-6 absolute on O(1) values. */
  CHECK(fabs(y[0] - ex) <= 1e-6, "y1(2) %.12g vs %.12g", y[0], ex);
  CHECK(fabs(y[1] - 2 * ex) <= 1e-6, "y2(2) %.12g vs %.12g", y[1], 2 * ex);

  /* Calling calc_ic with tout1 <= t0 is refused with a message. */
  double t0y[2] = {1, 0}, t0yp[2] = {0, 0};
  CHECK(ida()->reinit(e, 2.0, t0y, t0yp) == 0, "%s", ida()->last_error(e));
  CHECK(ida()->calc_ic(e, 2.0, y, yp) == -1, "calc_ic at tout1 == t0");
  CHECK(strstr(ida()->last_error(e), "tout1") != NULL, "%s",
        ida()->last_error(e));
  ida()->free(e);
}

static void test_root_and_reinit(void) {
  bsim_problem p = {.n = 1,
                    .id = (const double[]){1},
                    .ng = 1,
                    .residual = ramp_res,
                    .roots = ramp_roots};
  double y = 0, yp = 1, tret = -1;
  char err[512];
  bsim_engine *e =
      make(&p, 1e-8, 1e-10, NULL, NULL, 0, 0, &y, &yp, err, sizeof err);
  CHECK(e != NULL, "create: %s", err);
  if (!e) return;
  bsim_adv_status st = ida()->advance(e, 1.0, &tret, &y, &yp);
  CHECK(st == BSIM_ADV_ROOT, "status %d: %s", st, ida()->last_error(e));
  /* IDA locates roots to about 100 * unit roundoff * (|t| + |h|): 1e-8 is
   * far looser. */
  CHECK(fabs(tret - 0.5) <= 1e-8, "root at %.17g", tret);
  CHECK(fabs(y - 0.5) <= 1e-8, "y at root %.17g", y);
  int dir = 0;
  CHECK(ida()->roots_found(e, &dir) == 0, "%s", ida()->last_error(e));
  CHECK(dir == 1, "direction %d", dir);

  /* Cold restart at the root, then continue: no second root since g only
   * grows. */
  CHECK(ida()->reinit(e, tret, &y, &yp) == 0, "%s", ida()->last_error(e));
  CHECK(ida()->calc_ic(e, 1.0, &y, &yp) == 0, "%s", ida()->last_error(e));
  st = ida()->advance(e, 1.0, &tret, &y, &yp);
  CHECK(st == BSIM_ADV_OK, "status %d: %s", st, ida()->last_error(e));
  CHECK(tret == 1.0 && fabs(y - 1.0) <= 1e-8, "t %.17g y %.17g", tret, y);
  CHECK(ida()->roots_found(e, &dir) == 0 && dir == 0, "dir after OK %d", dir);

  bsim_engine_stats s;
  ida()->stats(e, &s);
  CHECK(s.root_evals > 0, "root evals %ld", s.root_evals);
  CHECK(s.steps > 0, "steps %ld", s.steps);
  ida()->free(e);
}

static void test_stop_time(void) {
  bsim_problem p = {.n = 1, .id = (const double[]){1}, .residual = decay_res};
  double y = 1, yp = -K, tret = -1;
  char err[512];
  bsim_engine *e =
      make(&p, 1e-8, 1e-10, NULL, NULL, 0, 0, &y, &yp, err, sizeof err);
  CHECK(e != NULL, "create: %s", err);
  if (!e) return;
  CHECK(ida()->set_stop_time(e, 0.3) == 0, "%s", ida()->last_error(e));
  bsim_adv_status st = ida()->advance(e, 1.0, &tret, &y, &yp);
  CHECK(st == BSIM_ADV_TSTOP, "status %d: %s", st, ida()->last_error(e));
  CHECK(tret == 0.3, "tret %.17g (must be exact)", tret);
  CHECK(fabs(y - exp(-K * 0.3)) <= 1e-6, "y %.12g", y);

  /* Past the stop time, integration goes on (the stop time is spent). */
  st = ida()->advance(e, 0.4, &tret, &y, &yp);
  CHECK(st == BSIM_ADV_OK && tret == 0.4, "status %d t %.17g: %s", st, tret,
        ida()->last_error(e));
  /* A stop time behind IDA's internal time (IDA stepped beyond 0.4) but
   * after the last output is still honoured exactly. */
  double tn_target = 0.4 + 1e-9;
  CHECK(ida()->set_stop_time(e, tn_target) == 0, "%s", ida()->last_error(e));
  st = ida()->advance(e, 1.0, &tret, &y, &yp);
  CHECK(st == BSIM_ADV_TSTOP && tret == tn_target, "status %d t %.17g: %s", st,
        tret, ida()->last_error(e));
  /* A stop time in the past clears it. */
  CHECK(ida()->set_stop_time(e, 0.1) == 0, "clear");
  st = ida()->advance(e, 2.0, &tret, &y, &yp);
  CHECK(st == BSIM_ADV_OK && tret == 2.0, "status %d t %.17g", st, tret);
  CHECK(fabs(y - exp(-K * 2)) <= 1e-6, "y(2) %.12g", y);
  /* A stop time survives a reinit that starts before it. */
  CHECK(ida()->set_stop_time(e, 2.5) == 0, "%s", ida()->last_error(e));
  CHECK(ida()->reinit(e, 2.0, &y, &yp) == 0, "%s", ida()->last_error(e));
  st = ida()->advance(e, 3.0, &tret, &y, &yp);
  CHECK(st == BSIM_ADV_TSTOP && tret == 2.5, "status %d t %.17g: %s", st, tret,
        ida()->last_error(e));
  /* Going backwards is refused. */
  st = ida()->advance(e, 1.0, &tret, &y, &yp);
  CHECK(st == BSIM_ADV_ERROR, "backwards status %d", st);
  ida()->free(e);
}

static void test_failures(void) {
  char err[512];
  /* Fatal: error, with the time in the message. */
  bsim_problem p = {
      .n = 1, .id = (const double[]){1}, .residual = fatal_decay_res};
  double y = 1, yp = -K, tret = -1;
  bsim_engine *e =
      make(&p, 1e-8, 1e-10, NULL, NULL, 0, 0, &y, &yp, err, sizeof err);
  CHECK(e != NULL, "create: %s", err);
  if (e) {
    bsim_adv_status st = ida()->advance(e, 1.0, &tret, &y, &yp);
    const char *m = ida()->last_error(e);
    CHECK(st == BSIM_ADV_ERROR, "status %d", st);
    CHECK(strstr(m, "t=0.7") != NULL || strstr(m, "t=0.6") != NULL, "%s", m);
    CHECK(strstr(m, "IDA_RES_FAIL") != NULL, "%s", m);
    CHECK(strstr(m, "hint") != NULL, "%s", m);
    ida()->free(e);
  }
  /* Recoverable: IDA retries with a smaller step and the answer is right. */
  refuse_state rs = {0};
  bsim_problem q = {
      .n = 1, .id = (const double[]){1}, .residual = refuse_res, .user = &rs};
  y = 1;
  yp = -K;
  e = make(&q, 1e-8, 1e-10, NULL, NULL, 0, 0, &y, &yp, err, sizeof err);
  CHECK(e != NULL, "create: %s", err);
  if (e) {
    bsim_adv_status st = ida()->advance(e, 1.0, &tret, &y, &yp);
    CHECK(st == BSIM_ADV_OK, "status %d: %s", st, ida()->last_error(e));
    CHECK(rs.refusals > 0, "no refusal happened");
    CHECK(fabs(y - exp(-K)) <= 1e-6, "y(1) %.12g", y);
    ida()->free(e);
  }
  /* Too much work: from IDA's tiny first step, 5 steps cannot reach t=100. */
  const char *n1[] = {"max-steps"}, *v1[] = {"5"};
  bsim_problem d = {.n = 1, .id = (const double[]){1}, .residual = decay_res};
  y = 1;
  yp = -K;
  e = make(&d, 1e-8, 1e-10, n1, v1, 1, 0, &y, &yp, err, sizeof err);
  CHECK(e != NULL, "create: %s", err);
  if (e) {
    bsim_adv_status st = ida()->advance(e, 100.0, &tret, &y, &yp);
    CHECK(st == BSIM_ADV_ERROR, "status %d", st);
    CHECK(strstr(ida()->last_error(e), "max-steps") != NULL, "%s",
          ida()->last_error(e));
    ida()->free(e);
  }
}

static void test_params(void) {
  bsim_problem p = {.n = 1, .id = (const double[]){1}, .residual = decay_res};
  double y = 1, yp = -K;
  char err[512];
  const char *n1[] = {"max-ordr"}, *v1[] = {"3"};
  bsim_engine *e = make(&p, 1e-6, 1e-8, n1, v1, 1, 0, &y, &yp, err, sizeof err);
  CHECK(e == NULL, "unknown name accepted");
  CHECK(strstr(err, "max-ordr") && strstr(err, "max-order") &&
            strstr(err, "linear-solver") && strstr(err, "calcic"),
        "message: %s", err);

  const char *n2[] = {"max-order"}, *v2[] = {"9"};
  e = make(&p, 1e-6, 1e-8, n2, v2, 1, 0, &y, &yp, err, sizeof err);
  CHECK(e == NULL, "max-order 9 accepted");
  CHECK(strstr(err, "between 1 and 5") != NULL, "message: %s", err);

  const char *n3[] = {"calcic"}, *v3[] = {"maybe"};
  e = make(&p, 1e-6, 1e-8, n3, v3, 1, 0, &y, &yp, err, sizeof err);
  CHECK(e == NULL && strstr(err, "ya_ydp|y|none"), "message: %s", err);

  const char *n4[] = {"max-steps"}, *v4[] = {"12x"};
  e = make(&p, 1e-6, 1e-8, n4, v4, 1, 0, &y, &yp, err, sizeof err);
  CHECK(e == NULL && strstr(err, "integer"), "message: %s", err);

  const char *n5[] = {"linear-solver"}, *v5[] = {"klu"};
  e = make(&p, 1e-6, 1e-8, n5, v5, 1, 0, &y, &yp, err, sizeof err);
  CHECK(e == NULL && strstr(err, "not available yet"), "message: %s", err);

  e = make(&p, -1, 1e-8, NULL, NULL, 0, 0, &y, &yp, err, sizeof err);
  CHECK(e == NULL && strstr(err, "rtol"), "message: %s", err);

  /* All parameters valid at once, band solver: decay still right (1e-6
   * relative, as in the decay test, with max-order 3 and a step cap). */
  const char *n6[] = {"linear-solver",   "band-upper", "band-lower",
                      "max-order",       "max-steps",  "init-step",
                      "max-step",        "calcic",     "suppress-alg",
                      "max-nonlin-iters"};
  const char *v6[] = {"band", "0",    "0", "3",  "5000",
                      "1e-4", "0.05", "y", "on", "5"};
  e = make(&p, 1e-8, 1e-10, n6, v6, 10, 0, &y, &yp, err, sizeof err);
  CHECK(e != NULL, "create: %s", err);
  if (e) {
    double tret;
    CHECK(ida()->calc_ic(e, 1.0, &y, &yp) == 0, "%s", ida()->last_error(e));
    bsim_adv_status st = ida()->advance(e, 1.0, &tret, &y, &yp);
    CHECK(st == BSIM_ADV_OK, "%s", ida()->last_error(e));
    CHECK(fabs(y - exp(-K)) <= 1e-6 * exp(-K), "y(1) %.12g", y);
    bsim_engine_stats s;
    ida()->stats(e, &s);
    /* max-step 0.05 forces at least 20 steps over [0, 1]. */
    CHECK(s.steps >= 20, "steps %ld", s.steps);
    ida()->free(e);
  }
}

static void test_registry(void) {
  CHECK(bsim_engine_find("ida") != NULL, "ida not registered");
  CHECK(bsim_engine_find("no-such") == NULL, "unknown engine found");
  CHECK(bsim_engine_at(0) == bsim_engine_find("ida"), "ida not first");
  size_t n = 0;
  while (bsim_engine_at(n))
    n++;
  CHECK(n >= 1, "registry empty");
  const bsim_engine_type *t = ida();
  CHECK(t->nparams == 13 && t->needs_ode == 0, "nparams %d", t->nparams);
}

int main(void) {
  test_registry();
  test_decay_and_interpolate();
  test_dae_calc_ic();
  test_root_and_reinit();
  test_stop_time();
  test_failures();
  test_params();
  if (failures) {
    fprintf(stderr, "test_engine_ida: %d check(s) failed\n", failures);
    return 1;
  }
  return 0;
}
