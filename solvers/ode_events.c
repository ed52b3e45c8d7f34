/*
 * One-step methods made into engines: the loop towards tout that never
 * passes tout or the stop time, zero-crossing detection after every
 * accepted step, and the location of a crossing on the method's own
 * solution (the method re-integrates from the start of the step), so that
 * GSL's steppers and the fixed-step methods behave like IDA towards the
 * scheduler.
 *
 * Root location is a bracketing secant (Illinois) search: each trial time
 * costs one re-integration from the saved start of the step plus one g
 * evaluation, and the bracket shrinks to event-tol * max(1, |t|). The root
 * is reported at the bracket's upper end, where g has already changed sign,
 * as SUNDIALS does: restarting there never finds the same crossing again.
 */
#include "solvers/ode_events.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bracket iterations before falling back to plain bisection, and in all. */
enum { SECANT_ITERS = 40, MAX_LOCATE_ITERS = 200 };

int bsim_ode_fail(bsim_ode *o, const char *fmt, ...) {
  int k = snprintf(o->err, sizeof o->err, "%s: ", o->name);
  if (k < 0 || (size_t)k >= sizeof o->err) return -1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(o->err + k, sizeof o->err - (size_t)k, fmt, ap);
  va_end(ap);
  return -1;
}

int bsim_ode_check_problem(const char *name, const bsim_problem *p,
                           const bsim_engine_settings *s, double t0, char *msg,
                           size_t msglen) {
  if (!p || p->n < 1 || !p->residual) {
    snprintf(msg, msglen,
             "%s: the problem needs at least one unknown and a "
             "residual function",
             name);
    return -1;
  }
  if (!p->ode_form) {
    snprintf(msg, msglen,
             "solver '%s' integrates ODEs only, but the diagram has algebraic "
             "unknowns (algebraic loops) or implicit blocks; use solver "
             "\"ida\"",
             name);
    return -1;
  }
  if (p->ng < 0 || (p->ng > 0 && !p->roots)) {
    snprintf(msg, msglen,
             "%s: %d zero-crossing functions declared but no "
             "root function given",
             name, p->ng);
    return -1;
  }
  if (s && (!(s->rtol >= 0) || !(s->atol >= 0) || !isfinite(s->rtol) ||
            !isfinite(s->atol) || (s->rtol == 0 && s->atol == 0))) {
    snprintf(msg, msglen,
             "%s: rtol=%g and atol=%g must be finite, >= 0 and "
             "not both zero",
             name, s->rtol, s->atol);
    return -1;
  }
  if (!isfinite(t0)) {
    snprintf(msg, msglen, "%s: the start time must be finite", name);
    return -1;
  }
  return 0;
}

int bsim_ode_check_params(const bsim_engine_type *type, const bsim_problem *p,
                          const bsim_engine_settings *s, double t0,
                          bsim_param_value *v, char *msg, size_t msglen) {
  if (bsim_ode_check_problem(type->name, p, s, t0, msg, msglen) ||
      bsim_engine_params_resolve(type, s, v, msg, msglen))
    return -1;
  return 0;
}

/* ---- memory ------------------------------------------------------------- */

/* The engine's first member is its bsim_ode (ode_events.h), so a pointer
 * to the engine, converted, points to the core. */
static bsim_ode *core(bsim_engine *e) {
  return (bsim_ode *)(void *)e;
}

static const bsim_ode *const_core(const bsim_engine *e) {
  return (const bsim_ode *)(const void *)e;
}

/* Start afresh at (t0, y0): no last step, f and g still to compute. */
static void place(bsim_ode *o, double t0, const double *y0) {
  o->t = o->ta = o->t0 = t0;
  if (y0)
    memcpy(o->y, y0, (size_t)o->n * sizeof(double));
  else
    memset(o->y, 0, (size_t)o->n * sizeof(double));
  memcpy(o->ya, o->y, (size_t)o->n * sizeof(double));
  o->have_f = o->have_g = 0;
  o->root_pending = 0;
}

static void release(bsim_ode *o) {
  double *v[] = {o->y,    o->f,    o->ya,  o->fa,  o->zero, o->res,  o->ynew,
                 o->fnew, o->ylo,  o->flo, o->yhi, o->fhi,  o->ytry, o->ftry,
                 o->g,    o->gnew, o->glo, o->ghi, o->gtry};
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
    free(v[i]);
  free(o->gdir);
  free(o->fired);
  free(o->gsign);
  free(o->slo);
  free(o->work);
}

static int init(bsim_ode *o, const char *name, const bsim_problem *p,
                const bsim_ode_method *m, void *impl, double t0,
                const double *y0, double event_tol, long max_steps, int nwork,
                char *msg, size_t msglen) {
  memset(o, 0, sizeof *o);
  o->name = name;
  o->m = m;
  o->impl = impl;
  o->n = p->n;
  o->ng = p->ng;
  o->residual = p->residual;
  o->roots = p->roots;
  o->user = p->user;
  o->event_tol = event_tol;
  o->max_steps = max_steps;
  size_t n = (size_t)o->n, ng = (size_t)(o->ng > 0 ? o->ng : 1);
  double **vn[] = {&o->y,   &o->f,    &o->ya,   &o->fa,  &o->zero,
                   &o->res, &o->ynew, &o->fnew, &o->ylo, &o->flo,
                   &o->yhi, &o->fhi,  &o->ytry, &o->ftry};
  double **vg[] = {&o->g, &o->gnew, &o->glo, &o->ghi, &o->gtry};
  int ok = 1;
  for (size_t i = 0; i < sizeof vn / sizeof vn[0]; i++)
    ok &= (*vn[i] = calloc(n, sizeof(double))) != NULL;
  for (size_t i = 0; i < sizeof vg / sizeof vg[0]; i++)
    ok &= (*vg[i] = calloc(ng, sizeof(double))) != NULL;
  ok &= (o->gdir = calloc(ng, sizeof(int))) != NULL;
  ok &= (o->fired = calloc(ng, sizeof(int))) != NULL;
  ok &= (o->gsign = calloc(ng, 1)) != NULL;
  ok &= (o->slo = calloc(ng, 1)) != NULL;
  if (nwork > 0)
    ok &= (o->work = calloc((size_t)nwork * n, sizeof(double))) != NULL;
  if (!ok) {
    snprintf(msg, msglen, "%s: out of memory", name);
    release(o);
    return -1;
  }
  if (p->gdir) memcpy(o->gdir, p->gdir, (size_t)o->ng * sizeof(int));
  place(o, t0, y0);
  return 0;
}

bsim_engine *bsim_ode_engine_new(size_t size, const char *name,
                                 const bsim_problem *p,
                                 const bsim_ode_method *m, double t0,
                                 const double *y0, double event_tol,
                                 long max_steps, int nwork, char *msg,
                                 size_t msglen) {
  bsim_engine *e = calloc(1, size);
  if (!e) {
    snprintf(msg, msglen, "%s: out of memory", name);
    return NULL;
  }
  if (init(core(e), name, p, m, e, t0, y0, event_tol, max_steps, nwork, msg,
           msglen) != 0) {
    free(e);
    return NULL;
  }
  return e;
}

void bsim_ode_engine_free(bsim_engine *e) {
  if (!e) return;
  release(core(e));
  free(e);
}

/* ---- evaluations -------------------------------------------------------- */

int bsim_ode_rhs(bsim_ode *o, double t, const double *y, double *f) {
  o->st.residual_evals++;
  int rc = o->residual(t, y, o->zero, o->res, o->user);
  if (rc < 0) return BSIM_CB_FATAL;
  if (rc > 0) return BSIM_CB_RECOVERABLE;
  for (int i = 0; i < o->n; i++) {
    f[i] = -o->res[i];
    if (!isfinite(f[i])) return BSIM_CB_RECOVERABLE;
  }
  return BSIM_CB_OK;
}

static int eval_g(bsim_ode *o, double t, const double *y, const double *f,
                  double *g) {
  o->st.root_evals++;
  if (o->roots(t, y, f, g, o->user) != BSIM_CB_OK)
    return bsim_ode_fail(o,
                         "a zero-crossing function failed at t=%.17g; "
                         "hint: check the blocks with zero crossings",
                         t);
  return 0;
}

static int sgn(double x) {
  return x > 0 ? 1 : x < 0 ? -1 : 0;
}

/* f, and g with the signs it starts from, at the current point. */
static int ensure_start(bsim_ode *o) {
  if (!o->have_f) {
    int rc = bsim_ode_rhs(o, o->t, o->y, o->f);
    if (rc != BSIM_CB_OK)
      return bsim_ode_fail(o,
                           "the equations failed (%s) at the start "
                           "t=%.17g; hint: check the initial values",
                           rc == BSIM_CB_FATAL ? "fatal"
                                               : "domain error or "
                                                 "NaN",
                           o->t);
    o->have_f = 1;
  }
  if (o->ng > 0 && !o->have_g) {
    if (eval_g(o, o->t, o->y, o->f, o->g) != 0) return -1;
    /* A g that starts at zero is not a crossing: its side is learnt from
     * the first nonzero value. */
    for (int i = 0; i < o->ng; i++)
      o->gsign[i] = (signed char)sgn(o->g[i]);
    o->have_g = 1;
  }
  return 0;
}

/* ---- life cycle --------------------------------------------------------- */

int bsim_ode_reinit(bsim_engine *e, double t0, const double *y0,
                    const double *yp0) {
  bsim_ode *o = core(e);
  if (!isfinite(t0)) return bsim_ode_fail(o, "restart time must be finite");
  place(o, t0, y0);
  if (o->tstop_set && !(o->tstop > t0)) o->tstop_set = 0;
  if (o->m->forget) o->m->forget(o);
  return 0;
}

/* An ODE has nothing to make consistent: y' is f(t, y). */
int bsim_ode_calc_ic(bsim_engine *e, double tout1, double *y, double *yp) {
  bsim_ode *o = core(e);
  if (ensure_start(o) != 0) return -1;
  memcpy(o->fa, o->f, (size_t)o->n * sizeof(double));
  if (y) memcpy(y, o->y, (size_t)o->n * sizeof(double));
  if (yp) memcpy(yp, o->f, (size_t)o->n * sizeof(double));
  return 0;
}

int bsim_ode_set_stop_time(bsim_engine *e, double tstop) {
  bsim_ode *o = core(e);
  o->tstop_set = tstop > o->t;
  o->tstop = tstop;
  return 0;
}

/* ---- roots -------------------------------------------------------------- */

/* Does component i cross, in a direction it watches, between a side `from`
 * (nonzero) and the value g? Returns the direction, or 0. */
static int crossing(const bsim_ode *o, int i, int from, double g) {
  int to = sgn(g);
  if (from == 0 || to == from) return 0;
  int dir = from < 0 ? 1 : -1;
  return (o->gdir[i] == 0 || o->gdir[i] == dir) ? dir : 0;
}

static int any_crossing(const bsim_ode *o, const signed char *from,
                        const double *g) {
  for (int i = 0; i < o->ng; i++)
    if (crossing(o, i, from[i], g[i])) return 1;
  return 0;
}

static void copy(double *d, const double *s, int n) {
  memcpy(d, s, (size_t)n * sizeof(double));
}

/* A watched crossing happened in the step [o->ta, tb] (values in ynew,
 * fnew, gnew). Narrow it down; leave the current point at the bracket's
 * upper end with o->fired set. */
static int locate(bsim_ode *o, double tb) {
  int n = o->n, ng = o->ng;
  signed char *slo = o->slo;
  memcpy(slo, o->gsign, (size_t)ng);
  double lo = o->ta, hi = tb;
  copy(o->glo, o->g, ng);
  copy(o->ghi, o->gnew, ng);
  copy(o->yhi, o->ynew, n);
  copy(o->fhi, o->fnew, n);
  double wlo = 1, whi = 1;
  int last_side = 0;
  for (int it = 0; it < MAX_LOCATE_ITERS; it++) {
    double tol = o->event_tol * fmax(1.0, fabs(hi));
    if (hi - lo <= tol) break;
    /* The component whose secant estimate comes first leads. */
    double tt = 0.5 * (lo + hi);
    if (it < SECANT_ITERS) {
      double best = -1;
      for (int i = 0; i < ng; i++) {
        if (!crossing(o, i, slo[i], o->ghi[i])) continue;
        double a = wlo * o->glo[i], b = whi * o->ghi[i];
        double back = (b == a) ? 0.5 : b / (b - a); /* fraction from hi */
        if (back > best) {
          best = back;
          tt = hi - back * (hi - lo);
        }
      }
    }
    double margin = 0.5 * tol;
    if (tt < lo + margin) tt = lo + margin;
    if (tt > hi - margin) tt = hi - margin;
    if (o->m->redo(o, o->ta, o->ya, o->fa, tt, o->ytry, o->ftry) != 0)
      return -1;
    if (eval_g(o, tt, o->ytry, o->ftry, o->gtry) != 0) return -1;
    if (any_crossing(o, slo, o->gtry)) {
      hi = tt;
      copy(o->ghi, o->gtry, ng);
      copy(o->yhi, o->ytry, n);
      copy(o->fhi, o->ftry, n);
      whi = 1;
      if (last_side == 1)
        wlo *= 0.5; /* Illinois: the end that stays gets less say */
      last_side = 1;
    } else {
      lo = tt;
      copy(o->glo, o->gtry, ng);
      for (int i = 0; i < ng; i++)
        if (o->gtry[i] != 0) slo[i] = (signed char)sgn(o->gtry[i]);
      wlo = 1;
      if (last_side == -1) whi *= 0.5;
      last_side = -1;
    }
  }
  for (int i = 0; i < ng; i++) {
    o->fired[i] = crossing(o, i, slo[i], o->ghi[i]);
    /* Sitting exactly on zero: the side is learnt again later. */
    o->gsign[i] = o->ghi[i] != 0 ? (signed char)sgn(o->ghi[i])
                  : o->fired[i]  ? 0
                                 : slo[i];
  }
  o->t = hi;
  copy(o->y, o->yhi, n);
  copy(o->f, o->fhi, n);
  copy(o->g, o->ghi, ng);
  if (o->m->forget)
    o->m->forget(o); /* the method's history ends at tb, not at hi */
  return 0;
}

/* ---- integration -------------------------------------------------------- */

static void hand_out(const bsim_ode *o, double *tret, double *y, double *yp) {
  *tret = o->t;
  if (y) copy(y, o->y, o->n);
  if (yp) copy(yp, o->f, o->n);
}

bsim_adv_status bsim_ode_advance(bsim_engine *e, double tout, double *tret,
                                 double *y, double *yp) {
  bsim_ode *o = core(e);
  o->root_pending = 0;
  if (!(tout >= o->t)) {
    bsim_ode_fail(o,
                  "asked to integrate back from t=%.17g to t=%.17g; "
                  "hint: restart (reinit) to go back in time",
                  o->t, tout);
    return BSIM_ADV_ERROR;
  }
  if (ensure_start(o) != 0) return BSIM_ADV_ERROR;
  double target = tout;
  if (o->tstop_set && o->tstop < target) target = o->tstop;
  long steps = 0;
  while (o->t < target) {
    if (o->max_steps > 0 && steps >= o->max_steps) {
      bsim_ode_fail(o,
                    "integrating failed at t=%.17g: %ld steps did not "
                    "reach t=%.17g; hint: raise max-steps, or the model "
                    "may be stiff (try solver \"cvode-bdf\" or \"ida\")",
                    o->t, steps, target);
      hand_out(o, tret, y, yp);
      return BSIM_ADV_ERROR;
    }
    double tb = o->t;
    if (o->m->step(o, target, &tb, o->ynew, o->fnew) != 0) {
      hand_out(o, tret, y, yp);
      return BSIM_ADV_ERROR;
    }
    if (!(tb > o->t) || tb > target) {
      bsim_ode_fail(o, "the method made no progress at t=%.17g", o->t);
      hand_out(o, tret, y, yp);
      return BSIM_ADV_ERROR;
    }
    steps++;
    o->ta = o->t;
    copy(o->ya, o->y, o->n);
    copy(o->fa, o->f, o->n);
    if (o->ng > 0) {
      if (eval_g(o, tb, o->ynew, o->fnew, o->gnew) != 0) {
        hand_out(o, tret, y, yp);
        return BSIM_ADV_ERROR;
      }
      if (any_crossing(o, o->gsign, o->gnew)) {
        if (locate(o, tb) != 0) {
          hand_out(o, tret, y, yp);
          return BSIM_ADV_ERROR;
        }
        o->root_pending = 1;
        hand_out(o, tret, y, yp);
        return BSIM_ADV_ROOT;
      }
      /* Unwatched crossings and first nonzero values move the sides. */
      for (int i = 0; i < o->ng; i++)
        if (o->gnew[i] != 0 || o->gsign[i] != 0)
          o->gsign[i] = (signed char)sgn(o->gnew[i]);
      copy(o->g, o->gnew, o->ng);
    }
    o->t = tb;
    copy(o->y, o->ynew, o->n);
    copy(o->f, o->fnew, o->n);
  }
  bsim_adv_status st = BSIM_ADV_OK;
  if (o->tstop_set && o->t >= o->tstop) {
    st = BSIM_ADV_TSTOP; /* reaching tout == tstop is reaching tstop */
    o->tstop_set = 0;
  }
  hand_out(o, tret, y, yp);
  return st;
}

/* Cubic Hermite interpolation on the last step from y and f at both ends:
 * third order, continuous with the step values, exact for cubics. */
int bsim_ode_interpolate(bsim_engine *e, double t, int k, double *dky) {
  bsim_ode *o = core(e);
  if (k < 0 || k > 1)
    return bsim_ode_fail(o,
                         "interpolating derivative %d failed; hint: only "
                         "k = 0 (y) and k = 1 (y') are available",
                         k);
  double h = o->t - o->ta;
  double slack = 100 * DBL_EPSILON * fmax(fabs(o->t), fabs(o->ta));
  if (t < o->ta - slack || t > o->t + slack || (h <= 0 && t != o->t))
    return bsim_ode_fail(o,
                         "interpolating at t=%.17g failed: t must lie "
                         "inside the last step [%.17g, %.17g]",
                         t, o->ta, o->t);
  if (h <= 0 || t == o->t) {
    if (ensure_start(o) != 0) return -1;
    copy(dky, k == 0 ? o->y : o->f, o->n);
    return 0;
  }
  double s = (t - o->ta) / h, s2 = s * s, s3 = s2 * s;
  for (int i = 0; i < o->n; i++) {
    if (k == 0)
      dky[i] = (2 * s3 - 3 * s2 + 1) * o->ya[i] +
               (s3 - 2 * s2 + s) * h * o->fa[i] + (3 * s2 - 2 * s3) * o->y[i] +
               (s3 - s2) * h * o->f[i];
    else
      dky[i] = (6 * s2 - 6 * s) / h * (o->ya[i] - o->y[i]) +
               (3 * s2 - 4 * s + 1) * o->fa[i] + (3 * s2 - 2 * s) * o->f[i];
  }
  return 0;
}

int bsim_ode_roots_found(bsim_engine *e, int *dirs) {
  bsim_ode *o = core(e);
  for (int i = 0; i < o->ng; i++)
    dirs[i] = o->root_pending ? o->fired[i] : 0;
  return 0;
}

void bsim_ode_stats(const bsim_engine *e, bsim_engine_stats *st) {
  *st = const_core(e)->st;
}

const char *bsim_ode_last_error(const bsim_engine *e) {
  const bsim_ode *o = e ? const_core(e) : NULL;
  if (o && o->err[0]) return o->err;
  return "no error";
}
