/*
 * Shared pieces of the acausal component families: the standard domains,
 * a component's model, the flag-10 view of an implicit block, and the
 * superblock connector ports INIMPL_f / OUTIMPL_f (one connector, passed
 * through the superblock's boundary by flattening, diagrams/connect.c).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "blocks/acausal.h"

const bsim_domain bsim_domain_electrical = {"electrical", 1, 1, "v,i"};
const bsim_domain bsim_domain_thermohydraulic = {"thermohydraulic", 4, 0,
                                                 "P,H,Q,Hm"};

int bsim_ac_model(bsim_define_ctx *ctx, bsim_model *m, const bsim_domain *dom,
                  const char *const *names, int ncon, int nx, int nres, int nin,
                  int nout) {
  if (bsim_model_set_connectors(m, ncon) != 0 ||
      (nx > 0 && !bsim_model_alloc_x0(m, nx)) ||
      bsim_model_set_inputs(m, nin, 1, 1, 0) != 0 ||
      bsim_model_set_outputs(m, nout, 1, 1) != 0)
    return bsim_define_error(ctx, "out of memory");
  for (int k = 0; k < ncon; k++) {
    m->condom[k] = dom;
    m->conname[k] = names[k];
  }
  m->nres = nres;
  m->implicit = 1;
  return 0;
}

const char *const bsim_ac_pn[2] = {"p", "n"};

double *bsim_ac_scalars(bsim_define_ctx *ctx, bsim_model *m,
                        const bsim_param_spec *params, int n) {
  double *r = bsim_model_alloc_rpar(m, n);
  if (!r) {
    bsim_define_error(ctx, "out of memory");
    return NULL;
  }
  for (int k = 0; k < n; k++)
    if (bsim_std_scalar(ctx, params[k].name, &r[k]) != 0) return NULL;
  return r;
}

int bsim_ac_nonzero(bsim_define_ctx *ctx, const char *name, int positive,
                    double *out) {
  if (bsim_std_scalar(ctx, name, out) != 0) return -1;
  if (positive ? !(*out > 0) : *out == 0)
    return bsim_define_error(ctx, "'%s' must be %s (got %g)", name,
                             positive ? "positive" : "nonzero", *out);
  return 0;
}

/* Appends ", " or " and " before item i of n, then the text. */
static void list_add(char *buf, size_t size, int i, int n, const char *fmt,
                     int v, const char *unit) {
  size_t len = strlen(buf);
  if (len >= size) return;
  snprintf(buf + len, size - len, "%s",
           i == 0       ? ""
           : i == n - 1 ? " and "
                        : ", ");
  len = strlen(buf);
  if (len < size) snprintf(buf + len, size - len, fmt, v, unit);
}

int bsim_ac_lacks_check(bsim_block *blk, int flag, const ac_need *need) {
  static const char *const unit[][2] = {
      {"connector", "connectors"}, {"residual", "residuals"},
      {"state", "states"},         {"rpar entry", "rpar entries"},
      {"input", "inputs"},         {"output", "outputs"},
      {"surface", "surfaces"},     {"mode", "modes"},
  };
  const int have[8] = {blk->ncon, blk->nres, blk->nx, blk->nrpar,
                       blk->nin,  blk->nout, blk->ng, blk->nmode};
  const int want[8] = {need->ncon, need->nres, need->nx, need->nrpar,
                       need->nin,  need->nout, need->ng, need->nmode};
  int nshort = 0, empty_in = 0, empty_out = 0;
  for (int i = 0; i < 8; i++)
    nshort += have[i] < want[i];
  /* a port of no element: its [0] is outside its buffer */
  for (int k = 0; k < need->nin && k < blk->nin && !empty_in; k++)
    if (bsim_std_insize(blk, k) < 1) empty_in = k + 1;
  for (int k = 0; k < need->nout && k < blk->nout && !empty_out; k++)
    if (bsim_std_outsize(blk, k) < 1) empty_out = k + 1;
  if (nshort == 0 && !empty_in && !empty_out) return 0;
  if (flag != BSIM_FLAG_INIT) return 1;
  char has[256] = "", needs[128] = "", ports[96] = "";
  for (int i = 0, j = 0; i < 8; i++) {
    if (have[i] >= want[i]) continue;
    list_add(has, sizeof has, j, nshort, "%d %s", have[i],
             unit[i][have[i] != 1]);
    list_add(needs, sizeof needs, j++, nshort, "%d%s", want[i], "");
  }
  if (empty_in || empty_out)
    snprintf(ports, sizeof ports, "%s %d has no element, where it reads one",
             empty_in ? "input" : "output", empty_in ? empty_in : empty_out);
  if (nshort && ports[0])
    bsim_block_error(blk, "it has %s, where it needs at least %s; its %s", has,
                     needs, ports);
  else if (nshort)
    bsim_block_error(blk, "it has %s, where it needs at least %s", has, needs);
  else
    bsim_block_error(blk, "its %s", ports);
  return 1;
}

ac_jac bsim_ac_jac(const bsim_block *blk, int width) {
  int ny = 0;
  for (int k = 0; k < blk->nout; k++)
    ny += bsim_std_outsize(blk, k);
  ac_jac j = {blk->jac, blk->nres + ny, blk->nx, width * blk->ncon};
  return j;
}

void bsim_ac_twopin_balance(bsim_block *blk, int flag) {
  if (flag == BSIM_FLAG_DERIVATIVES) {
    blk->res[0] = ac_i(blk, 0) + ac_i(blk, 1);
  } else if (flag == BSIM_FLAG_JACOBIAN) {
    ac_jac j = bsim_ac_jac(blk, 2);
    ac_put(&j, 0, ac_ci(&j, 0), 1.0);
    ac_put(&j, 0, ac_ci(&j, 1), 1.0);
  }
}
