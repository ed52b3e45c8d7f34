/*
 * Derived sims: many runs of one compiled diagram (a sweep's members), each
 * with its own run state, results and parameter overrides, sharing the
 * flat diagram, the plan, the settings and the column names of the sim
 * they come from.
 */
#include <stdlib.h>
#include <string.h>

#include "scheduler/sim.h"

bsim_sim *bsim_sim_derive(const bsim_sim *base, const bsim_diagram *d,
                          const char *const *targets, const char *const *values,
                          int n, int *structural, bsim_error *err) {
  int dummy;
  if (!structural) structural = &dummy;
  *structural = 0;
  if (!base) {
    bsim_error_set(err, BSIM_ERR_INPUT, "derive: no sim to derive from");
    return NULL;
  }
  if (base->base) base = base->base; /* share with the owner, not a peer */
  bsim_sim *s = malloc(sizeof *s);
  if (!s) {
    bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
    return NULL;
  }
  /* the shared part by copy, then a clean own part */
  *s = *base;
  s->base = base;
  s->run = NULL;
  s->models = NULL;
  s->sources = NULL;
  s->data = NULL;
  s->own_times = NULL;
  s->filled = 0;
  s->stop_after_start = 0;
  s->final_y = s->final_yp = NULL;
  s->final_t = 0;
  s->nstats = 0;
  if (n > 0) {
    s->models = calloc((size_t)s->flat->nblocks + 1, sizeof(bsim_model *));
    if (!s->models) {
      bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
      goto fail;
    }
    if (bsim_flat_vary(d, s->flat, targets, values, n, s->models, structural,
                       err) != 0)
      goto fail;
  }
  if (bsim_sim_attach_run(s, (const bsim_model *const *)s->models, err) != 0)
    goto fail;
  return s;
fail:
  bsim_sim_free(s);
  return NULL;
}
