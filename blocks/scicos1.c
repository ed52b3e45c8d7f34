/*
 * Xcos's type-1 computational functions (c_block's, and any plugin's
 * function named by model.sim = list(name, 1) or 2001) run as blocksim
 * blocks. Xcos calls them from the same block view as type-4 functions,
 * spreading it into a long argument list; so does this adapter, through
 * scicos4.c's instance and services, so that only the argument list and
 * the conventions that differ (absolute event times, errors in *flag,
 * crossings told through g) live here.
 */
#include <stdio.h>

#include "blocks/scicos4.h"
#include "blocksim/scicos_type1.h"

const char bsim_scicos1_doc[] =
    "An Xcos type-1 computational function (model.sim = list(name, 1) or\n"
    "2001, the convention of Xcos's c_block), run unchanged: it receives\n"
    "flag, nevprt, t, xd, x, nx, z, nz, tvec, ntvec, rpar, nrpar, ipar,\n"
    "nipar, then (u, nu) per input, (y, ny) per output, and (g, ng) if it\n"
    "has zero-crossing surfaces, all as pointers (blocksim/scicos_type1.h).\n"
    "The parameters are the block's model data as Xcos stores them: rpar,\n"
    "ipar, state (x0), dstate (z0), port sizes in/out, evtin/evtout,\n"
    "firing, dep_ut = [feedthrough always-active], nzcross. At most 18\n"
    "ports (+1 with surfaces); no modes, no opar. docs/extending.md.";

/* What a type-1 function cannot receive; NULL when the block fits. */
static const char *misfit(int nin, int nout, int ng, int nmode, int nopar,
                          char *buf, size_t len) {
  if (nin + nout + (ng > 0) > BSIM_SCICOS1_MAXARGS) {
    snprintf(buf, len,
             "a type-1 function takes at most %d ports and surface "
             "vectors, this block has %d inputs, %d outputs%s (hint: "
             "group signals with a multiplexer, or write a type-4 "
             "function)",
             BSIM_SCICOS1_MAXARGS, nin, nout, ng > 0 ? " and surfaces" : "");
    return buf;
  }
  if (nmode > 0)
    return "a type-1 function has no modes (nmode must be 0; hint: write a "
           "type-4 function)";
  if (nopar > 0)
    return "a type-1 function receives no object parameters (opar must be "
           "[]; hint: put the numbers in rpar)";
  return NULL;
}

int bsim_scicos1_define(bsim_define_ctx *ctx, bsim_model *m) {
  if (bsim_scicos4_define(ctx, m) != 0) return -1;
  char buf[320];
  const char *why =
      misfit(m->nin, m->nout, m->ng, m->nmode, m->nopar, buf, sizeof buf);
  return why ? bsim_define_error(ctx, "%s", why) : 0;
}

int bsim_scicos1_check(const bsim_block *blk, char *buf, size_t len) {
  const char *why =
      misfit(blk->nin, blk->nout, blk->ng, blk->nmode, blk->nopar, buf, len);
  if (why && why != buf) snprintf(buf, len, "%s", why);
  return why ? -1 : 0;
}

int bsim_scicos1_invoke(scicos_block *b, int flag) {
  double *a[BSIM_SCICOS1_MAXARGS] = {0};
  int n[BSIM_SCICOS1_MAXARGS] = {0};
  int k = 0;
  for (int i = 0; i < b->nin; i++, k++) {
    a[k] = b->inptr[i];
    n[k] = b->insz[i] * b->insz[b->nin + i];
  }
  for (int i = 0; i < b->nout; i++, k++) {
    a[k] = b->outptr[i];
    n[k] = b->outsz[i] * b->outsz[b->nout + i];
  }
  if (b->ng > 0) {
    /* Xcos's convention for functions without jroot: a call caused by the
     * block's own crossing (nevprt < 0) finds which surfaces crossed in
     * g, which flag 9 recomputes anyway */
    if (b->nevprt < 0 && b->jroot)
      for (int j = 0; j < b->ng; j++)
        b->g[j] = (double)b->jroot[j];
    a[k] = b->g;
    n[k] = b->ng;
  }
  double t = bsim_scicos4_time();
  bsim_scicos1_fn fn = (bsim_scicos1_fn)b->funpt;
  fn(&flag, &b->nevprt, &t, b->xd, b->x, &b->nx, b->z, &b->nz, b->evout,
     &b->nevout, b->rpar, &b->nrpar, b->ipar, &b->nipar, a[0], &n[0], a[1],
     &n[1], a[2], &n[2], a[3], &n[3], a[4], &n[4], a[5], &n[5], a[6], &n[6],
     a[7], &n[7], a[8], &n[8], a[9], &n[9], a[10], &n[10], a[11], &n[11], a[12],
     &n[12], a[13], &n[13], a[14], &n[14], a[15], &n[15], a[16], &n[16], a[17],
     &n[17]);
  /* the function wrote absolute times; blocksim wants delays (an output
   * left at -1 stays negative: no event) */
  if (flag == BSIM_FLAG_EVENTS && b->evout)
    for (int i = 0; i < b->nevout; i++)
      b->evout[i] -= t;
  return flag;
}

void bsim_scicos1_call(bsim_block *blk, int flag, bsim_scicos1_fn fn) {
  bsim_scicos_run(blk, flag, (voidg)fn, 1);
}
