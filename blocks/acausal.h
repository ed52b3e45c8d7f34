/*
 * What the acausal component families (elec_*.c, hydraulics.c) share:
 * the standard domains, the define step of a component's model, and
 * small helpers for residuals and the flag-10 layout of implicit blocks
 * (block.h: rows = residuals then outputs; columns = x, x', connector
 * variables, inputs). Private to blocks/.
 */
#ifndef BSIM_BLOCKS_ACAUSAL_H
#define BSIM_BLOCKS_ACAUSAL_H

#include "blocks/std.h"

/* Electrical pins (Modelica's Pin): potential v, current i into the
 * component. Thermohydraulic ports (Scilab's PortPHQ): pressure P,
 * specific enthalpy H, mass flow Q and mixing enthalpy Hm, all four
 * equal across a connection (no flow variable: Q's sign is fixed by the
 * port's side, inlet or outlet). */
extern const bsim_domain bsim_domain_electrical;
extern const bsim_domain bsim_domain_thermohydraulic;

/* Scilab's value of pi in its Modelica models. */
#define AC_PI 3.141592653589793

/* A component's model: ncon connectors of one domain named names[]
 * (static), nx states (x0 = 0, all differential), nres residuals, nin
 * scalar inputs (read only in residuals: no feedthrough) and nout scalar
 * outputs. 0, or -1 reported. */
int bsim_ac_model(bsim_define_ctx *ctx, bsim_model *m, const bsim_domain *dom,
                  const char *const *names, int ncon, int nx, int nres, int nin,
                  int nout);
/* rpar = the n parameters of params (in order), each a finite scalar;
 * NULL reported. */
double *bsim_ac_scalars(bsim_define_ctx *ctx, bsim_model *m,
                        const bsim_param_spec *params, int n);
/* A parameter that must be a finite scalar != 0 (> 0 when positive). */
int bsim_ac_nonzero(bsim_define_ctx *ctx, const char *name, int positive,
                    double *out);

/* What a component's function indexes: at least ncon connectors, nres
 * residuals, nx states, nrpar rpar entries, nin inputs and nout outputs
 * (each with an element: it reads or writes [0]), ng surfaces and nmode
 * modes. A block whose dialog values do not evaluate runs on the model
 * its .xcos file stores, which has no connectors (Xcos stores none) and
 * whatever rpar and ports the file gives. */
typedef struct ac_need {
  int ncon, nres, nx, nrpar, nin, nout, ng, nmode;
} ac_need;
/* 1 when blk lacks part of need, reported at flag 4 (which stops the
 * run, or the analysis that called it): the function must then return,
 * as the scheduler still calls flag 5 after a failed flag 4. Checked at
 * flags 4 and 5 only, the only ones such a block gets: the residual's
 * flags, thousands of calls a run, pay one comparison. 0 otherwise. */
int bsim_ac_lacks_check(bsim_block *blk, int flag, const ac_need *need);
static inline int bsim_ac_lacks(bsim_block *blk, int flag,
                                const ac_need *need) {
  return (flag == BSIM_FLAG_INIT || flag == BSIM_FLAG_END) &&
         bsim_ac_lacks_check(blk, flag, need);
}

/* The flag-10 matrix of an implicit block. */
typedef struct ac_jac {
  double *a;
  int nrow; /* residuals + output elements */
  int nx;
  int ncv; /* connector variables */
} ac_jac;

/* The view of blk's matrix when every connector has `width` variables. */
ac_jac bsim_ac_jac(const bsim_block *blk, int width);

static inline void ac_put(const ac_jac *j, int row, int col, double v) {
  j->a[row + (size_t)j->nrow * (size_t)col] += v;
}
static inline int ac_cx(const ac_jac *j, int i) {
  (void)j;
  return i;
}
static inline int ac_cxd(const ac_jac *j, int i) {
  return j->nx + i;
}
/* Variable `var` of connector k when every connector has `width`. */
static inline int ac_ccon(const ac_jac *j, int k, int width, int var) {
  return 2 * j->nx + k * width + var;
}
static inline int ac_cu(const ac_jac *j, int e) {
  return 2 * j->nx + j->ncv + e;
}

/* Electrical connectors: potential and current of pin k. */
static inline double ac_v(const bsim_block *blk, int k) {
  return blk->pot[k][0];
}
static inline double ac_i(const bsim_block *blk, int k) {
  return blk->flow[k][0];
}
static inline int ac_cv(const ac_jac *j, int k) {
  return ac_ccon(j, k, 2, 0);
}
static inline int ac_ci(const ac_jac *j, int k) {
  return ac_ccon(j, k, 2, 1);
}
/* row += a * d(pin kp's potential - pin kn's)/d(...) */
static inline void ac_put_dv(const ac_jac *j, int row, int kp, int kn,
                             double a) {
  ac_put(j, row, ac_cv(j, kp), a);
  ac_put(j, row, ac_cv(j, kn), -a);
}

/* Two-pin components: pins p = 0 and n = 1, v = p.v - n.v. */
extern const char *const bsim_ac_pn[2];
#define AC_TWOPIN_DOC                                                          \
  "Pins p and n (electrical: potential v, current i into the pin);\n"          \
  "v = p.v - n.v, i = p.i, and p.i + n.i = 0.\n"
static inline double ac_vpn(const bsim_block *blk) {
  return ac_v(blk, 0) - ac_v(blk, 1);
}

/* Two-pin components (pins p = 0, n = 1): residual 0 is p.i + n.i = 0
 * (what enters at p leaves at n), written at flag 0 or 10. */
void bsim_ac_twopin_balance(bsim_block *blk, int flag);

/* Component families (registered in registry.c). */
extern const bsim_block_type *const bsim_elec_basic_types[];
extern const int bsim_elec_basic_ntypes;
extern const bsim_block_type *const bsim_elec_ideal_types[];
extern const int bsim_elec_ideal_ntypes;
extern const bsim_block_type *const bsim_elec_semi_types[];
extern const int bsim_elec_semi_ntypes;
extern const bsim_block_type *const bsim_hydraulic_types[];
extern const int bsim_hydraulic_ntypes;

#endif
