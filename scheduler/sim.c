/*
 * The embedding API around a run: settings resolved from the diagram and the
 * caller's options, sample times, observed columns, results and statistics.
 */
#include "scheduler/sim.h"
#include "scheduler/index.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/diagram.h"
#include "solvers/params.h"

/* Xcos's defaults, so that a diagram without settings behaves as there. */
static const double default_rtol = 1e-6, default_atol = 1e-6;
static const long default_samples = 101;
static const double min_rtol = 100 * DBL_EPSILON;
static const double min_final_time = 1e-300, max_final_time = 1e300;

void bsim_options_init(bsim_options *o) {
  o->final_time = -1;
  o->rtol = -1;
  o->atol = -1;
  o->samples = -1;
  o->spacing = -1;
  o->solver = NULL;
  o->max_events_per_instant = -1;
  o->max_fast_restarts = -1;
  o->allow_nonfinite = 0;
  o->no_carry = 0;
  o->cancel = NULL;
  o->solver_param_names = NULL;
  o->solver_param_values = NULL;
  o->nsolver_params = 0;
}

const char *bsim_solver_at(const bsim_library *lib, size_t i,
                           const char **summary) {
  const bsim_engine_type *t = bsim_library_engine_at(lib, i, NULL);
  if (summary) *summary = t ? t->summary : NULL;
  return t ? t->name : NULL;
}

int bsim_solver_param_at(const bsim_library *lib, const char *solver, size_t i,
                         bsim_solver_param_doc *out) {
  const bsim_engine_type *t =
      solver ? bsim_library_engine_find(lib, solver) : NULL;
  if (!t || i >= (size_t)t->nparams) return -1;
  const bsim_engine_param *p = &t->params[i];
  out->name = p->name;
  out->type = p->type;
  out->default_value = p->default_value;
  out->choices = p->choices;
  out->doc = p->doc;
  return 0;
}

static void engine_names(const bsim_library *lib, char *names, size_t len) {
  const bsim_engine_type *e;
  names[0] = '\0';
  for (size_t i = 0; (e = bsim_library_engine_at(lib, i, NULL)) != NULL; i++) {
    if (i) strncat(names, ", ", len - strlen(names) - 1);
    strncat(names, e->name, len - strlen(names) - 1);
  }
}

static int add_param(bsim_sim *s, const char *name, const char *value) {
  char *n = strdup(name), *v = strdup(value);
  if (!n || !v) {
    free(n);
    free(v);
    return -1;
  }
  s->param_names[s->nparams] = n;
  s->param_values[s->nparams++] = v;
  return 0;
}

/* The diagram's <solver-param> belong to the diagram's engine; the
 * options' win per name. Each is checked alone first, so that a message can
 * say where the bad one came from, then all together (repeats). */
static int resolve_solver_params(bsim_sim *s, const dg_settings *ds,
                                 const bsim_options *o, bsim_error *err) {
  const char *file_engine = ds->solver ? ds->solver : bsim_engine_at(0)->name;
  int use_file = strcmp(s->engine->name, file_engine) == 0 ||
                 (s->auto_solver && strcmp(file_engine, "auto") == 0);
  int nopt = o && o->nsolver_params > 0 ? o->nsolver_params : 0;
  size_t cap = (size_t)(nopt + (use_file ? ds->nsolver_params : 0)) + 1;
  s->param_names = calloc(cap, sizeof(char *));
  s->param_values = calloc(cap, sizeof(char *));
  if (!s->param_names || !s->param_values) goto nomem;
  char msg[1024];
  for (int i = 0; use_file && i < ds->nsolver_params; i++) {
    const dg_param *dp = &ds->solver_params[i];
    int overridden = 0;
    for (int k = 0; k < nopt; k++)
      overridden |= o->solver_param_names && o->solver_param_names[k] &&
                    strcmp(o->solver_param_names[k], dp->name) == 0;
    if (overridden) continue;
    const char *nm[1] = {dp->name}, *vl[1] = {dp->expr};
    bsim_engine_settings one = {0, 0, nm, vl, 1};
    if (bsim_engine_params_check(s->engine, &one, msg, sizeof msg) != 0) {
      bsim_error_set(err, BSIM_ERR_INPUT,
                     "%s:%d: <solver-param name=\"%s\">: %s (hint: "
                     "`blocksim solvers %s` lists the parameters)",
                     s->flat->file, dp->line, dp->name, msg, s->engine->name);
      return -1;
    }
    if (add_param(s, dp->name, dp->expr) != 0) goto nomem;
  }
  for (int k = 0; k < nopt; k++) {
    const char *name = o->solver_param_names ? o->solver_param_names[k] : NULL;
    const char *value =
        o->solver_param_values ? o->solver_param_values[k] : NULL;
    if (!name || !value) {
      bsim_error_set(err, BSIM_ERR_INPUT,
                     "solver parameter %d of the run options has no name or "
                     "no value",
                     k + 1);
      return -1;
    }
    if (add_param(s, name, value) != 0) goto nomem;
  }
  bsim_engine_settings all = {0, 0, (const char *const *)s->param_names,
                              (const char *const *)s->param_values, s->nparams};
  if (bsim_engine_params_check(s->engine, &all, msg, sizeof msg) != 0) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "%s: solver parameters: %s (hint: `blocksim solvers %s` "
                   "lists the parameters)",
                   s->flat->file, msg, s->engine->name);
    return -1;
  }
  return 0;
nomem:
  bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
  return -1;
}

/* Linear: N points from t0 to tf. Log: t0, then N-1 points geometrically
 * spaced over the three decades below tf (tf/1000 .. tf). */
static int sample_times(bsim_sim *s) {
  long n = (long)s->nrows;
  if (s->times) return 0;
  s->times = s->own_times = malloc(sizeof(double) * (size_t)n);
  if (!s->times) return -1;
  double span = s->tf - s->t0;
  for (long i = 0; i < n; i++) {
    if (s->spacing == BSIM_SPACING_LOG && n > 2 && i > 0) {
      double e = -3.0 + 3.0 * (double)(i - 1) / (double)(n - 2);
      s->times[i] = s->t0 + span * pow(10.0, e);
    } else {
      s->times[i] = s->t0 + span * (double)i / (double)(n - 1);
    }
  }
  s->times[n - 1] = s->tf;
  return 0;
}

static int observed_columns(bsim_sim *s, bsim_error *err) {
  const bsim_flat *f = s->flat;
  size_t n = 0;
  for (int i = 0; i < f->nobserves; i++) {
    const bsim_model *m = &f->blocks[f->observes[i].block].model;
    int k = f->observes[i].port;
    n += (size_t)(m->out[k] * m->out2[k]);
  }
  s->ncols = n;
  s->names = calloc(n ? n : 1, sizeof(char *));
  s->colsrc = calloc(n ? n : 1, sizeof(size_t));
  if (!s->names || !s->colsrc) goto nomem;
  size_t c = 0;
  for (int i = 0; i < f->nobserves; i++) {
    const bsim_flat_observe *ob = &f->observes[i];
    const bsim_model *m = &f->blocks[ob->block].model;
    int size = m->out[ob->port] * m->out2[ob->port];
    size_t src = s->plan->outoff[s->plan->portbase[ob->block] + ob->port];
    for (int j = 0; j < size; j++, c++) {
      size_t len = strlen(ob->name) + 16;
      s->names[c] = malloc(len);
      if (!s->names[c]) goto nomem;
      if (size == 1)
        snprintf(s->names[c], len, "%s", ob->name);
      else
        snprintf(s->names[c], len, "%s[%d]", ob->name, j + 1);
      s->colsrc[c] = src + (size_t)j;
    }
  }
  return 0;
nomem:
  bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
  return -1;
}

static int resolve_settings(bsim_sim *s, const dg_settings *ds,
                            const bsim_options *o, bsim_error *err) {
  s->t0 = 0.0;
  s->max_events = o ? o->max_events_per_instant : -1;
  s->max_fast_restarts = o ? o->max_fast_restarts : -1;
  s->allow_nonfinite = o ? o->allow_nonfinite : 0;
  s->no_carry = o ? o->no_carry : 0;
  s->cancel = o ? o->cancel : NULL;
  s->tf = o && o->final_time >= 0 ? o->final_time : ds->final_time;
  s->rtol = o && o->rtol >= 0 ? o->rtol
            : ds->rtol >= 0   ? ds->rtol
                              : default_rtol;
  s->atol = o && o->atol >= 0 ? o->atol
            : ds->atol >= 0   ? ds->atol
                              : default_atol;
  s->ttol = ds->ttol > 0 ? ds->ttol : 0;
  long n = o && o->samples >= 0 ? o->samples
           : ds->samples >= 0   ? ds->samples
                                : default_samples;
  int spacing = o && o->spacing >= 0 ? o->spacing
                : ds->spacing >= 0   ? ds->spacing
                                     : BSIM_SPACING_LINEAR;
  const char *solver = o && o->solver ? o->solver
                       : ds->solver   ? ds->solver
                                      : "ida";
  if (!(s->tf > s->t0) || !isfinite(s->tf)) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "%s: final time %g must be a finite number > 0 "
                   "(hint: the diagram's final time, or --tf)",
                   s->flat->file, s->tf);
    return -1;
  }
  /* The integrator's step arithmetic (steps, their ratios, t + h) leaves
   * the range of normal doubles beyond these: 1e307 used to fail as "no
   * consistent initial values", 4.9e-324 as a bad number. */
  if (s->tf < min_final_time || s->tf > max_final_time) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "%s: final time %g is outside the range that can be "
                   "integrated, %g to %g (hint: choose another time unit)",
                   s->flat->file, s->tf, min_final_time, max_final_time);
    return -1;
  }
  if (!(s->rtol > 0) || !(s->atol > 0) || !isfinite(s->rtol) ||
      !isfinite(s->atol)) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "%s: tolerances must be positive (rtol=%g, atol=%g)",
                   s->flat->file, s->rtol, s->atol);
    return -1;
  }
  /* Below this a step's rounding alone exceeds the tolerance: the engine
   * could only fail with "too much accuracy requested", so say it now. */
  if (s->rtol < min_rtol) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "%s: rtol=%g asks for more accuracy than double precision "
                   "can give (hint: use rtol >= %g)",
                   s->flat->file, s->rtol, min_rtol);
    return -1;
  }
  if (n < BSIM_MIN_SAMPLES || n > BSIM_MAX_SAMPLES) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "%s: samples must be from %ld to %ld (got %ld)",
                   s->flat->file, BSIM_MIN_SAMPLES, BSIM_MAX_SAMPLES, n);
    return -1;
  }
  /* "auto" decides when the run starts (auto.c); until then, and for what
   * every engine it may choose must accept, ida stands for it */
  s->auto_solver = strcmp(solver, "auto") == 0;
  s->solver_why[0] = '\0';
  if (s->auto_solver) solver = "ida";
  s->engine = *solver ? bsim_library_engine_find(s->flat->lib, solver) : NULL;
  /* An Xcos file's ODE solver on a system with algebraic unknowns: Scilab
   * switches to its implicit solver, and so does the diagram's fallback. */
  if (s->engine && s->engine->needs_ode && s->plan->nw > 0 &&
      !(o && o->solver) && ds->solver_fallback)
    s->engine =
        bsim_library_engine_find(s->flat->lib, solver = ds->solver_fallback);
  if (!s->engine) {
    char names[512];
    engine_names(s->flat->lib, names, sizeof names);
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "%s: unknown solver '%s' (valid: %s; hint: `blocksim "
                   "solvers` describes them)",
                   s->flat->file, solver, names);
    return -1;
  }
  if (resolve_solver_params(s, ds, o, err) != 0) return -1;
  s->nrows = (size_t)n;
  s->spacing = spacing;
  return 0;
}

void bsim_sim_problem(const bsim_sim *s, bsim_problem *prob) {
  const bsim_plan *p = s->plan;
  memset(prob, 0, sizeof *prob);
  prob->n = p->ny;
  prob->id = p->id;
  prob->ng = p->ng;
  prob->gdir = p->gdir;
  prob->residual = bsim_run_residual;
  prob->roots = bsim_run_roots;
  prob->user = s->run;
  prob->ode_form = p->ode_form;
  prob->pattern_colptr = p->pat_colptr;
  prob->pattern_rowidx = p->pat_rowidx;
  prob->groups = p->groups;
  prob->error_test = p->error_test;
  prob->jacobian = p->ix    ? bsim_run_index_jacobian
                   : p->jac ? bsim_run_jacobian
                            : NULL;
}

/* Create the engine for this problem with these parameters and free it:
 * 0, or -1 with the engine's message. */
static int try_engine(const bsim_sim *s, const char *const *names,
                      const char *const *values, int n, const double *zero,
                      char *msg, size_t len) {
  bsim_problem prob;
  bsim_sim_problem(s, &prob);
  bsim_engine_settings set = {s->rtol, s->atol, names, values, n};
  bsim_engine *e = s->engine->create(&prob, &set, s->t0, zero, zero, msg, len);
  if (e) s->engine->free(e);
  return e ? 0 : -1;
}

/* Whatever the engine's create would refuse when the run starts (a
 * parameter out of its range, a band solver without bandwidths, a dense
 * matrix too large to allocate) is refused here already, so that `check`
 * validates what `run` does: a trial engine is made for this very problem
 * and freed (it evaluates nothing). A refusal caused by one <solver-param>
 * of the file is reported at its line. */
static int trial_engine(const bsim_sim *s, const dg_settings *ds,
                        bsim_error *err) {
  double *zero = calloc((size_t)s->plan->ny, sizeof *zero);
  if (!zero) {
    bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
    return -1;
  }
  char msg[1024] = "";
  int rc = try_engine(s, (const char *const *)s->param_names,
                      (const char *const *)s->param_values, s->nparams, zero,
                      msg, sizeof msg);
  for (int i = 0; rc != 0 && i < ds->nsolver_params; i++) {
    const dg_param *dp = &ds->solver_params[i];
    int used = 0; /* the file's value, not replaced by the options' */
    for (int k = 0; k < s->nparams; k++)
      used |= strcmp(s->param_names[k], dp->name) == 0 &&
              strcmp(s->param_values[k], dp->expr) == 0;
    const char *nm[1] = {dp->name}, *vl[1] = {dp->expr};
    char one[1024];
    if (!used || try_engine(s, nm, vl, 1, zero, one, sizeof one) == 0) continue;
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "%s:%d: <solver-param name=\"%s\">: %s (hint: `blocksim "
                   "solvers %s` lists the parameters)",
                   s->flat->file, dp->line, dp->name, one, s->engine->name);
    free(zero);
    return -1;
  }
  free(zero);
  if (rc != 0)
    bsim_error_set(err, BSIM_ERR_INPUT, "%s: solver '%s': %s", s->flat->file,
                   s->engine->name, msg);
  return rc;
}

/* Solver "auto" on an ODE may run cvode-bdf or cvode-adams as well as ida
 * (auto.c): the parameters must suit each, and each must accept the
 * problem, as for a named engine. */
static int auto_trials(bsim_sim *s, const dg_settings *ds, bsim_error *err) {
  static const char *const others[] = {"cvode-bdf", "cvode-adams"};
  const bsim_engine_type *ida = s->engine;
  int rc = 0;
  for (size_t i = 0; rc == 0 && s->plan->ode_form && i < 2; i++) {
    s->engine = bsim_library_engine_find(s->flat->lib, others[i]);
    bsim_engine_settings all = {0, 0, (const char *const *)s->param_names,
                                (const char *const *)s->param_values,
                                s->nparams};
    char msg[1024];
    if (!s->engine) continue;
    if (bsim_engine_params_check(s->engine, &all, msg, sizeof msg) != 0) {
      bsim_error_set(err, BSIM_ERR_INPUT,
                     "%s: solver 'auto' may choose '%s', whose parameters "
                     "these are not: %s (hint: give only parameters ida, "
                     "cvode-bdf and cvode-adams all take, such as max-step, "
                     "or name the solver)",
                     s->flat->file, others[i], msg);
      rc = -1;
    } else {
      rc = trial_engine(s, ds, err);
    }
  }
  s->engine = ida;
  return rc;
}

bsim_sim *bsim_sim_create(const bsim_diagram *d, const bsim_options *o,
                          bsim_error *err) {
  bsim_sim *s = calloc(1, sizeof *s);
  if (!s) {
    bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
    return NULL;
  }
  s->flat = bsim_flatten(d, err);
  if (!s->flat) goto fail;
  s->plan = bsim_plan_create(s->flat, err);
  if (!s->plan) goto fail;
  if (resolve_settings(s, &d->settings, o, err) != 0 ||
      observed_columns(s, err) != 0 || bsim_sim_attach_run(s, NULL, err) != 0)
    goto fail;
  if (s->engine->needs_ode && s->plan->nw > 0) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "%s: solver '%s' integrates ODEs only, but the diagram has "
                   "%d algebraic unknown(s) from algebraic loops (hint: use "
                   "solver \"ida\")",
                   s->flat->file, s->engine->name, s->plan->nw);
    goto fail;
  }
  if (trial_engine(s, &d->settings, err) != 0) goto fail;
  if (s->auto_solver && auto_trials(s, &d->settings, err) != 0) goto fail;
  s->named = s->engine;
  /* Nothing to integrate: the solver named had its parameters checked
   * above, and time moves from event to event (solvers/none.c), as in
   * Scilab, with the same results. */
  if (s->plan->dummy && s->plan->ng == 0) {
    s->engine = &bsim_engine_none;
    s->auto_solver = 0;
    snprintf(s->solver_why, sizeof s->solver_why,
             "no continuous unknowns or zero-crossing surfaces: nothing "
             "to integrate");
  }
  return s;
fail:
  bsim_sim_free(s);
  return NULL;
}

int bsim_sim_attach_run(bsim_sim *s, const bsim_model *const *models,
                        bsim_error *err) {
  s->run = bsim_run_create(s->plan, models);
  s->sources = calloc(s->ncols ? s->ncols : 1, sizeof(double *));
  if (!s->run || !s->sources) {
    bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
    return -1;
  }
  for (size_t c = 0; c < s->ncols; c++)
    s->sources[c] = s->run->outbufs + s->colsrc[c];
  return 0;
}

void bsim_sim_free(bsim_sim *s) {
  if (!s) return;
  bsim_run_free(s->run);
  free(s->sources);
  free(s->data);
  free(s->own_times);
  for (int i = 0; s->models && i < s->flat->nblocks; i++)
    if (s->models[i]) {
      bsim_model_clear(s->models[i]);
      free(s->models[i]);
    }
  free(s->models);
  if (!s->base) {
    for (size_t c = 0; s->names && c < s->ncols; c++)
      free(s->names[c]);
    free(s->names);
    free(s->colsrc);
    for (int i = 0; i < s->nparams; i++) {
      free(s->param_names[i]);
      free(s->param_values[i]);
    }
    free(s->param_names);
    free(s->param_values);
    bsim_plan_free(s->plan);
    bsim_flat_free(s->flat);
  }
  free(s);
}

void bsim_sim_info(const bsim_sim *s, bsim_system_info *info) {
  memset(info, 0, sizeof *info);
  info->blocks = s->flat->nblocks;
  const bsim_plan *p = s->plan;
  int adiff = 0; /* differential states of acausal components */
  for (int i = p->nx + p->nw; i < p->nx + p->nw + p->na; i++)
    adiff += p->id[i] != 0;
  info->states = p->nx + adiff;
  info->algebraic = p->nw + p->na - adiff;
  info->zero_crossings = s->plan->ng;
  info->links = s->flat->nlinks;
}

int bsim_sim_run(bsim_sim *s, bsim_error *err) {
  free(s->data);
  size_t cols = s->ncols ? s->ncols : 1;
  /* nrows <= BSIM_MAX_SAMPLES; the product is checked all the same */
  s->data = cols <= SIZE_MAX / sizeof(double) / s->nrows
                ? calloc(s->nrows * cols, sizeof(double))
                : NULL;
  s->filled = 0;
  s->nstats = 0;
  if (!s->data || sample_times(s) != 0) {
    bsim_error_set(err, BSIM_ERR_NOMEM,
                   "out of memory for the results (%zu samples x %zu "
                   "columns; hint: fewer samples)",
                   s->nrows, s->ncols);
    return -1;
  }
  return bsim_run_loop(s, err);
}

size_t bsim_sim_samples(const bsim_sim *s) {
  return s->nrows;
}

const double *bsim_sim_times(bsim_sim *s) {
  return sample_times(s) == 0 ? s->times : NULL;
}

const char *bsim_sim_diagram_file(const bsim_sim *s) {
  return s->flat->file;
}

size_t bsim_result_rows(const bsim_sim *s) {
  return s->filled;
}
size_t bsim_result_cols(const bsim_sim *s) {
  return s->ncols;
}
const char *bsim_result_name(const bsim_sim *s, size_t col) {
  return col < s->ncols ? s->names[col] : NULL;
}
const double *bsim_result_times(const bsim_sim *s) {
  return s->times;
}
const double *bsim_result_data(const bsim_sim *s) {
  return s->data;
}

const char *bsim_sim_note_at(const bsim_sim *s, size_t i) {
  if (!s) return NULL;
  if (i < (size_t)s->flat->nnotes) return s->flat->notes[i];
  return i == (size_t)s->flat->nnotes ? s->plan->index_note : NULL;
}

const char *bsim_sim_solver(const bsim_sim *s) {
  return s->engine->name;
}

const char *bsim_sim_solver_choice(const bsim_sim *s) {
  return s->solver_why[0] ? s->solver_why : NULL;
}

const char *bsim_sim_message_at(const bsim_sim *s, size_t i, long *dropped) {
  const bsim_run_errors *e = &s->run->errs;
  if (dropped) *dropped = e->dropped;
  return i < (size_t)e->nmessages ? e->messages[i] : NULL;
}

const char *bsim_stat_at(const bsim_sim *s, size_t i, double *value) {
  if (i >= (size_t)s->nstats) return NULL;
  if (value) *value = s->stat_values[i];
  return s->stat_names[i];
}

/* The i-th block that recorded rows or named its record's columns. */
static const rt_block *record_block(const bsim_sim *s, size_t i) {
  for (int b = 0; b < s->plan->nblocks; b++) {
    const rt_block *rb = &s->run->blocks[b];
    if (rb->rec_rows == 0 && !rb->rec_names) continue;
    if (i-- > 0) continue;
    return rb;
  }
  return NULL;
}

/* Columns of a record without rows: as many as it has names. */
static int named_columns(const char *names) {
  int n = *names ? 1 : 0;
  for (; *names; names++)
    n += *names == ',';
  return n;
}

const char *bsim_record_at(const bsim_sim *s, size_t i, size_t *rows, int *cols,
                           const double **data) {
  const rt_block *rb = record_block(s, i);
  if (!rb) return NULL;
  *rows = rb->rec_rows;
  *cols = rb->rec_rows || !rb->rec_names ? rb->rec_cols
                                         : named_columns(rb->rec_names);
  *data = rb->rec;
  return rb->b.path;
}

const char *bsim_record_names(const bsim_sim *s, size_t i) {
  const rt_block *rb = record_block(s, i);
  return rb ? rb->rec_names : NULL;
}
