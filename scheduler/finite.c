/*
 * Non-finite block outputs. A NaN or an infinity in a signal is almost
 * always a parameter or an input outside a block's domain (0/0, log of a
 * negative number, a blow-up), and once in the results it silently
 * poisons everything computed from them. The run checks every output
 * buffer at each sample time (cheap next to computing them) and fails
 * naming the first block, in evaluation order, whose output is not finite:
 * the source, not its victims downstream. bsim_options.allow_nonfinite
 * turns the check off for diagrams that mean it.
 */
#include <math.h>
#include <stdio.h>

#include "scheduler/run.h"

int bsim_run_check_finite(run_state *r, bsim_error *err) {
  const bsim_plan *p = r->p;
  const double *buf = r->run->outbufs;
  /* the buffers lie side by side: one pass finds whether to look closer */
  int all = 1;
  for (size_t i = 0; i < p->noutbuf; i++)
    all &= isfinite(buf[i]) != 0;
  if (all) return 0;
  for (int o = 0; o < p->nblocks; o++) {
    int b = p->order[o];
    const bsim_flat_block *fb = p->blocks[b].fb;
    const bsim_model *m = &fb->model;
    for (int k = 0; k < m->nout; k++) {
      const double *v = buf + p->outoff[p->portbase[b] + k];
      size_t n = (size_t)m->out[k] * (size_t)m->out2[k];
      for (size_t e = 0; e < n; e++) {
        if (isfinite(v[e])) continue;
        char elem[48] = "";
        if (n > 1) snprintf(elem, sizeof elem, " (element %zu)", e + 1);
        bsim_error_set(err, BSIM_ERR_SIM,
                       "block '%s' (%s): output %d%s is %s at t=%.17g (hint: "
                       "a parameter or an input outside the block's domain, "
                       "or a blow-up; --allow-nonfinite lets such values "
                       "through)",
                       fb->path, fb->type->name, k + 1, elem,
                       isnan(v[e]) ? "NaN"
                       : v[e] > 0  ? "+inf"
                                   : "-inf",
                       r->t);
        return -1;
      }
    }
  }
  return 0;
}
