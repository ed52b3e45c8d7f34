/*
 * The native form of a type-4 (Xcos C) block: its model data given as
 * parameters named after Xcos's model fields (rpar, ipar, in, out, state,
 * ...), so that any computational function a plugin provides can be used
 * from a native diagram without a hand-written define step, and an .xcos
 * reader can pass a block's stored model through unchanged.
 */
#include <math.h>
#include <string.h>

#include "blocks/scicos4.h"

enum {
  P_RPAR,
  P_IPAR,
  P_OPAR,
  P_STATE,
  P_DSTATE,
  P_IN,
  P_IN2,
  P_OUT,
  P_OUT2,
  P_EVTIN,
  P_EVTOUT,
  P_FIRING,
  P_DEP_UT,
  P_NZCROSS,
  P_NMODE,
  P_COUNT
};

_Static_assert(P_COUNT == BSIM_SCICOS4_NPARAMS, "one spec per parameter");

const bsim_param_spec bsim_scicos4_params[BSIM_SCICOS4_NPARAMS] = {
    BSIM_SCICOS4_PARAM_SPECS};

const char bsim_scicos4_doc[] =
    "An Xcos type-4 computational function, run unchanged through blocksim's\n"
    "scicos_block4.h. The parameters are the block's model data as Xcos\n"
    "stores them: rpar, ipar, opar (one real matrix), state (x0), dstate\n"
    "(z0), port sizes in/in2/out/out2 (Xcos's conventions: -k shares a size,\n"
    "in2/out2 [] means one column), evtin/evtout (one entry per event port),\n"
    "firing, dep_ut = [feedthrough always-active], nzcross, nmode.\n"
    "All data are real. docs/extending.md: porting an Xcos C block.";

static int check_int(bsim_define_ctx *ctx, const char *name, const double *v,
                     int n, int min) {
  for (int i = 0; i < n; i++)
    if (v[i] != floor(v[i]) || v[i] < min || v[i] > 1e9)
      return bsim_define_error(ctx, "%s(%d) must be an integer >= %d, got %g",
                               name, i + 1, min, v[i]);
  return 0;
}

static int copy_reals(const bsim_value *v, double *(*alloc)(bsim_model *, int),
                      bsim_model *m) {
  int n = bsim_std_numel(v);
  if (n == 0) return 0;
  double *dst = alloc(m, n);
  if (!dst) return -1;
  memcpy(dst, v->v, (size_t)n * sizeof *dst);
  return 0;
}

/* rows (and columns, [] = 1) of n ports from two parameters. */
static int port_sizes(bsim_define_ctx *ctx, int rows_p, int cols_p, int *n,
                      const double **rows, const double **cols) {
  const bsim_value *r = bsim_param(ctx, bsim_scicos4_params[rows_p].name);
  const bsim_value *c = bsim_param(ctx, bsim_scicos4_params[cols_p].name);
  *n = bsim_std_numel(r);
  *rows = r->v;
  *cols = bsim_std_numel(c) ? c->v : NULL;
  if (*cols && bsim_std_numel(c) != *n)
    return bsim_define_error(ctx, "%s has %d entries, %s %d (one per port)",
                             bsim_scicos4_params[cols_p].name,
                             bsim_std_numel(c),
                             bsim_scicos4_params[rows_p].name, *n);
  /* in range before they are converted to int */
  for (int i = 0; i < *n; i++)
    if (!(fabs((*rows)[i]) <= 1e9) || (*rows)[i] != floor((*rows)[i]) ||
        ((*cols) &&
         (!(fabs((*cols)[i]) <= 1e9) || (*cols)[i] != floor((*cols)[i]))))
      return bsim_define_error(ctx, "port sizes must be integers of at most "
                                    "1e9 in size");
  return 0;
}

static int ports(bsim_define_ctx *ctx, bsim_model *m, int dep_u) {
  int nin, nout;
  const double *r, *c;
  if (port_sizes(ctx, P_IN, P_IN2, &nin, &r, &c)) return -1;
  if (bsim_model_set_inputs(m, nin, 1, 1, dep_u))
    return bsim_define_error(ctx, "out of memory");
  for (int i = 0; i < nin; i++) {
    m->in[i] = (int)r[i];
    m->in2[i] = c ? (int)c[i] : 1;
  }
  if (port_sizes(ctx, P_OUT, P_OUT2, &nout, &r, &c)) return -1;
  if (bsim_model_set_outputs(m, nout, 1, 1))
    return bsim_define_error(ctx, "out of memory");
  for (int i = 0; i < nout; i++) {
    m->out[i] = (int)r[i];
    m->out2[i] = c ? (int)c[i] : 1;
  }
  return 0;
}

static int events(bsim_define_ctx *ctx, bsim_model *m) {
  int nevin = bsim_std_numel(bsim_param(ctx, "evtin"));
  int nevout = bsim_std_numel(bsim_param(ctx, "evtout"));
  const bsim_value *f = bsim_param(ctx, "firing");
  if (bsim_model_set_events(m, nevin, nevout))
    return bsim_define_error(ctx, "out of memory");
  int nf = bsim_std_numel(f);
  if (nf && nf != nevout)
    return bsim_define_error(
        ctx, "firing has %d entries for %d event output(s)", nf, nevout);
  for (int i = 0; i < nf; i++)
    m->firing[i] = f->v[i];
  return 0;
}

static int data(bsim_define_ctx *ctx, bsim_model *m) {
  const bsim_value *ip = bsim_param(ctx, "ipar");
  int nip = bsim_std_numel(ip);
  if (check_int(ctx, "ipar", ip->v, nip, -1000000000)) return -1;
  int *ipar = nip ? bsim_model_alloc_ipar(m, nip) : NULL;
  if (nip && !ipar) return bsim_define_error(ctx, "out of memory");
  for (int i = 0; i < nip; i++)
    ipar[i] = (int)ip->v[i];
  const bsim_value *op = bsim_param(ctx, "opar");
  if (copy_reals(bsim_param(ctx, "rpar"), bsim_model_alloc_rpar, m) ||
      copy_reals(bsim_param(ctx, "state"), bsim_model_alloc_x0, m) ||
      copy_reals(bsim_param(ctx, "dstate"), bsim_model_alloc_z0, m) ||
      (bsim_std_numel(op) && bsim_model_add_opar(m, op)))
    return bsim_define_error(ctx, "out of memory");
  return 0;
}

static int define(bsim_define_ctx *ctx, bsim_model *m, int implicit) {
  const bsim_value *dep = bsim_param(ctx, "dep_ut");
  int ndep = bsim_std_numel(dep);
  if (ndep != 2 || check_int(ctx, "dep_ut", dep->v, 2, 0) || dep->v[0] > 1 ||
      dep->v[1] > 1)
    return bsim_define_error(ctx, "dep_ut must be [u t], each 0 or 1 "
                                  "(direct feedthrough, always active)");
  int ng = 0, nmode = 0;
  if (ports(ctx, m, dep->v[0] != 0) || events(ctx, m) || data(ctx, m) ||
      bsim_std_int(ctx, "nzcross", 0, &ng) ||
      bsim_std_int(ctx, "nmode", 0, &nmode))
    return -1;
  m->dep_t = dep->v[1] != 0;
  m->ng = ng;
  m->nmode = nmode;
  m->implicit = implicit;
  if (implicit && m->nx == 0)
    return bsim_define_error(ctx, "an implicit block needs continuous "
                                  "states (state = initial values)");
  return 0;
}

int bsim_scicos4_define(bsim_define_ctx *ctx, bsim_model *m) {
  return define(ctx, m, 0);
}

int bsim_scicos4_define_implicit(bsim_define_ctx *ctx, bsim_model *m) {
  return define(ctx, m, 1);
}
