/*
 * Sweeps: a diagram compiled once, its members run from the compiled sim
 * (bsim_sim_derive), each in whatever thread calls bsim_sweep_member. A
 * member whose overrides change the structure (another port size, a
 * saturation that adds surfaces, ...) cannot share the plan: it is loaded
 * and compiled on its own, exactly as `blocksim run -p` would, so every
 * member's results are those of a separate run with the same overrides.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blocksim/batch.h"
#include "output/member.h"

struct bsim_sweep {
  const bsim_diagram *d;
  char *path;
  const bsim_library *lib;
  bsim_options opt;
  const bsim_design *design;
  bsim_sim *base;
  const char **targets;
  int np;
  char **fixed; /* target, value, target, value, ... */
  int nfixed;
};

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

bsim_sweep *bsim_sweep_create(const bsim_diagram *d, const char *path,
                              const bsim_library *lib, const bsim_options *o,
                              const bsim_design *design, bsim_error *err) {
  bsim_sweep *sw = calloc(1, sizeof *sw);
  if (!sw || !(sw->path = strdup(path))) {
    free(sw);
    bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
    return NULL;
  }
  sw->d = d;
  sw->lib = lib;
  sw->design = design;
  if (o)
    sw->opt = *o;
  else
    bsim_options_init(&sw->opt);
  sw->np = bsim_design_params(design);
  sw->targets = calloc((size_t)sw->np + 1, sizeof(char *));
  if (!sw->targets) {
    bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
    bsim_sweep_free(sw);
    return NULL;
  }
  for (int j = 0; j < sw->np; j++) {
    sw->targets[j] = bsim_design_target(design, j);
    /* a target that names nothing is the sweep's error, not each member's */
    if (bsim_diagram_target_check(d, sw->targets[j], err) != 0) {
      bsim_sweep_free(sw);
      return NULL;
    }
  }
  sw->base = bsim_sim_create(d, &sw->opt, err);
  /* the times now, before threads derive from the base */
  if (sw->base && !bsim_sim_times(sw->base))
    bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
  if (!sw->base || !bsim_sim_times(sw->base)) {
    bsim_sweep_free(sw);
    return NULL;
  }
  return sw;
}

int bsim_sweep_fixed(bsim_sweep *sw, const char *const *targets,
                     const char *const *values, int n) {
  char **f =
      realloc(sw->fixed, sizeof(char *) * (size_t)(2 * (sw->nfixed + n)));
  if (!f && n > 0) return -1;
  sw->fixed = f;
  for (int i = 0; i < n; i++) {
    f[2 * sw->nfixed] = strdup(targets[i]);
    f[2 * sw->nfixed + 1] = strdup(values[i]);
    if (!f[2 * sw->nfixed] || !f[2 * sw->nfixed + 1]) {
      free(f[2 * sw->nfixed]);
      free(f[2 * sw->nfixed + 1]);
      return -1;
    }
    sw->nfixed++;
  }
  return 0;
}

void bsim_sweep_free(bsim_sweep *sw) {
  if (!sw) return;
  for (int i = 0; i < 2 * sw->nfixed; i++)
    free(sw->fixed[i]);
  free(sw->fixed);
  bsim_sim_free(sw->base);
  free(sw->targets);
  free(sw->path);
  free(sw);
}

size_t bsim_sweep_rows(const bsim_sweep *sw) {
  return bsim_sim_samples(sw->base);
}
const double *bsim_sweep_times(const bsim_sweep *sw) {
  return bsim_result_times(sw->base); /* made by bsim_sweep_create */
}
size_t bsim_sweep_cols(const bsim_sweep *sw) {
  return bsim_result_cols(sw->base);
}
const char *bsim_sweep_name(const bsim_sweep *sw, size_t c) {
  return bsim_result_name(sw->base, c);
}
const char *bsim_sweep_diagram(const bsim_sweep *sw) {
  return sw->path;
}

/* A member that cannot share the plan: its own load and compile. */
static bsim_sim *alone(const bsim_sweep *sw, const char *const *values,
                       bsim_error *err) {
  bsim_diagram *d = bsim_diagram_load(sw->path, sw->lib, err);
  for (int j = 0; d && j < sw->nfixed; j++)
    if (bsim_diagram_override(d, sw->fixed[2 * j], sw->fixed[2 * j + 1], err) !=
        0) {
      bsim_diagram_free(d);
      return NULL;
    }
  for (int j = 0; d && j < sw->np; j++)
    if (bsim_diagram_override(d, sw->targets[j], values[j], err) != 0) {
      bsim_diagram_free(d);
      return NULL;
    }
  bsim_sim *s = d ? bsim_sim_create(d, &sw->opt, err) : NULL;
  bsim_diagram_free(d);
  return s;
}

void *bsim_sweep_member(bsim_sweep *sw, long i, size_t *len, int *failed) {
  double t0 = now_seconds();
  const char **values = calloc((size_t)sw->np + 1, sizeof(char *));
  if (!values) return NULL;
  for (int j = 0; j < sw->np; j++)
    values[j] = bsim_design_value(sw->design, i, j);
  bsim_error err;
  bsim_error_clear(&err);
  int structural = 0, rc;
  bsim_sim *s = bsim_sim_derive(sw->base, sw->d, sw->targets, values, sw->np,
                                &structural, &err);
  if (!s && structural) {
    bsim_error_clear(&err);
    s = alone(sw, values, &err);
  }
  out_member m;
  if (!s)
    rc = out_member_failed(&m, i, err.status == BSIM_ERR_INPUT ? 2 : 1,
                           err.message, now_seconds() - t0);
  else if (bsim_sim_run(s, &err) != 0)
    rc = out_member_failed(&m, i, 1, err.message, now_seconds() - t0);
  else
    rc = out_member_of_sim(&m, i, s, now_seconds() - t0);
  bsim_sim_free(s);
  free(values);
  void *blob = rc == 0 ? out_member_encode(&m, len) : NULL;
  *failed = rc == 0 ? m.status : 1;
  if (rc == 0) out_member_clear(&m);
  return blob;
}
