/*
 * Electrical components that switch, rectify or couple: Xcos's Switch
 * (two resistances chosen by the sign of an input, an event at each
 * change), the exponential Diode of Scilab's Modelica library (smooth:
 * noEvent), the ideal diode of the Modelica Standard Library (a mode,
 * changed at zero crossings with cold restarts), the ideal transformer,
 * the gyrator and the ideal operational amplifier (a nullor, as Scilab's
 * OpAmp model). Equations as in the Modelica models Scilab ships.
 */
#include <math.h>

#include "blocks/acausal.h"

/* ------------------------------------------------------------------ */
/* Switch                                                              */
/* ------------------------------------------------------------------ */

static const bsim_param_spec switch_params[] = {
    {"Ron", BSIM_PARAM_REAL, "0.01", "resistance when closed (ohm)"},
    {"Roff", BSIM_PARAM_REAL, "1e5", "resistance when open (ohm)"},
};

static int switch_define(bsim_define_ctx *ctx, bsim_model *m) {
  if (!bsim_ac_scalars(ctx, m, switch_params, 2) ||
      bsim_ac_model(ctx, m, &bsim_domain_electrical, bsim_ac_pn, 2, 0, 2, 1,
                    0) != 0)
    return -1;
  m->ng = m->nmode = 1;
  return 0;
}

static void switch_fn(bsim_block *blk, int flag) {
  static const ac_need need = {
      .ncon = 2, .nres = 2, .nrpar = 2, .nin = 1, .ng = 1, .nmode = 1};
  if (bsim_ac_lacks(blk, flag, &need)) return;
  if (flag != BSIM_FLAG_ZCROSS && flag != BSIM_FLAG_DERIVATIVES &&
      flag != BSIM_FLAG_JACOBIAN)
    return;
  double u = blk->inptr[0][0];
  if (flag == BSIM_FLAG_ZCROSS) {
    blk->g[0] = u;
    if (blk->phase == BSIM_PHASE_DISCRETE) blk->mode[0] = u > 0;
    return;
  }
  double R = blk->mode[0] ? blk->rpar[0] : blk->rpar[1];
  bsim_ac_twopin_balance(blk, flag);
  if (flag == BSIM_FLAG_DERIVATIVES) {
    blk->res[1] = R * ac_i(blk, 0) - ac_vpn(blk);
  } else if (flag == BSIM_FLAG_JACOBIAN) {
    ac_jac j = bsim_ac_jac(blk, 2);
    ac_put(&j, 1, ac_ci(&j, 0), R);
    ac_put_dv(&j, 1, 0, 1, -1.0);
  }
}

static const bsim_block_type type_Switch = {
    "Switch",
    "Switch",
    "Switch: resistance Ron when its input is > 0, Roff otherwise.",
    AC_TWOPIN_DOC "R i = v with R = (inp > 0 ? Ron : Roff), inp = input 1.\n"
                  "The input's sign changes are zero crossings (one surface, "
                  "one\nmode): the resistance changes at the crossing, with a "
                  "cold\nrestart. Run-time layout: rpar = [Ron; Roff].",
    switch_params,
    2,
    switch_define,
    switch_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    "Ron,Roff"};

/* ------------------------------------------------------------------ */
/* Diode (exponential), IdealDiode                                     */
/* ------------------------------------------------------------------ */

static const bsim_param_spec diode_params[] = {
    {"Ids", BSIM_PARAM_REAL, "1e-6", "saturation current (A)"},
    {"Vt", BSIM_PARAM_REAL, "0.04",
     "voltage equivalent of temperature kT/qn (V), > 0"},
    {"Maxexp", BSIM_PARAM_REAL, "15",
     "exponent beyond which the exponential continues linearly"},
    {"R", BSIM_PARAM_REAL, "1e8", "parallel ohmic resistance (ohm), != 0"},
};

static int diode_define(bsim_define_ctx *ctx, bsim_model *m) {
  double *r = bsim_model_alloc_rpar(m, 4);
  if (!r) return bsim_define_error(ctx, "out of memory");
  if (bsim_std_scalar(ctx, "Ids", &r[0]) != 0 ||
      bsim_ac_nonzero(ctx, "Vt", 1, &r[1]) != 0 ||
      bsim_std_scalar(ctx, "Maxexp", &r[2]) != 0 ||
      bsim_ac_nonzero(ctx, "R", 0, &r[3]) != 0)
    return -1;
  return bsim_ac_model(ctx, m, &bsim_domain_electrical, bsim_ac_pn, 2, 0, 2, 0,
                       0);
}

static void diode_fn(bsim_block *blk, int flag) {
  static const ac_need need = {.ncon = 2, .nres = 2, .nrpar = 4};
  if (bsim_ac_lacks(blk, flag, &need)) return;
  const double *r = blk->rpar;
  bsim_ac_twopin_balance(blk, flag);
  if (flag != BSIM_FLAG_DERIVATIVES && flag != BSIM_FLAG_JACOBIAN) return;
  double Ids = r[0], Vt = r[1], Maxexp = r[2], R = r[3], v = ac_vpn(blk);
  double id, did;
  if (v / Vt > Maxexp) {
    double e = exp(Maxexp);
    id = Ids * (e * (1 + v / Vt - Maxexp) - 1) + v / R;
    did = Ids * e / Vt + 1 / R;
  } else {
    double e = exp(v / Vt);
    id = Ids * (e - 1) + v / R;
    did = Ids * e / Vt + 1 / R;
  }
  if (flag == BSIM_FLAG_DERIVATIVES) {
    blk->res[1] = ac_i(blk, 0) - id;
  } else {
    ac_jac j = bsim_ac_jac(blk, 2);
    ac_put(&j, 1, ac_ci(&j, 0), 1.0);
    ac_put_dv(&j, 1, 0, 1, -did);
  }
}

static const bsim_block_type type_Diode = {
    "Diode",
    "Diode",
    "Diode with an exponential characteristic (smooth, no events).",
    AC_TWOPIN_DOC "i = Ids (exp(v/Vt) - 1) + v/R, continued linearly beyond\n"
                  "v/Vt = Maxexp: Ids (exp(Maxexp) (1 + v/Vt - Maxexp) - 1) + "
                  "v/R.\nRun-time layout: rpar = [Ids; Vt; Maxexp; R].",
    diode_params,
    4,
    diode_define,
    diode_fn,
    BSIM_TYPE_JACOBIAN,
    "Ids,Vt,Maxexp,R"};

static const bsim_param_spec idiode_params[] = {
    {"Ron", BSIM_PARAM_REAL, "1e-5",
     "forward state-on differential resistance"},
    {"Goff", BSIM_PARAM_REAL, "1e-5", "backward state-off conductance"},
    {"Vknee", BSIM_PARAM_REAL, "0", "forward threshold voltage (V)"},
};

static int idiode_define(bsim_define_ctx *ctx, bsim_model *m) {
  if (!bsim_ac_scalars(ctx, m, idiode_params, 3) ||
      bsim_ac_model(ctx, m, &bsim_domain_electrical, bsim_ac_pn, 2, 1, 3, 0,
                    0) != 0)
    return -1;
  int *xp = bsim_model_alloc_xprop(m, 1);
  if (!xp) return bsim_define_error(ctx, "out of memory");
  xp[0] = -1; /* s, the curve parameter, is algebraic */
  m->ng = m->nmode = 1;
  return 0;
}

static void idiode_fn(bsim_block *blk, int flag) {
  static const ac_need need = {
      .ncon = 2, .nres = 3, .nx = 1, .nrpar = 3, .ng = 1, .nmode = 1};
  if (bsim_ac_lacks(blk, flag, &need)) return;
  double Ron = blk->rpar[0], Goff = blk->rpar[1], Vknee = blk->rpar[2];
  if (flag != BSIM_FLAG_ZCROSS && flag != BSIM_FLAG_DERIVATIVES &&
      flag != BSIM_FLAG_JACOBIAN)
    return;
  double s = blk->x[0];
  if (flag == BSIM_FLAG_ZCROSS) {
    blk->g[0] = s;
    if (blk->phase == BSIM_PHASE_DISCRETE) blk->mode[0] = s >= 0;
    return;
  }
  int on = blk->mode[0];
  double kv = on ? Ron : 1.0, ki = on ? 1.0 : Goff;
  bsim_ac_twopin_balance(blk, flag);
  if (flag == BSIM_FLAG_DERIVATIVES) {
    blk->res[1] = ac_vpn(blk) - (s * kv + Vknee);
    blk->res[2] = ac_i(blk, 0) - (s * ki + Goff * Vknee);
  } else if (flag == BSIM_FLAG_JACOBIAN) {
    ac_jac j = bsim_ac_jac(blk, 2);
    ac_put_dv(&j, 1, 0, 1, 1.0);
    ac_put(&j, 1, ac_cx(&j, 0), -kv);
    ac_put(&j, 2, ac_ci(&j, 0), 1.0);
    ac_put(&j, 2, ac_cx(&j, 0), -ki);
  }
}

static const bsim_block_type type_IdealDiode = {
    "IdealDiode",
    "IdealDiode",
    "Ideal diode: two linear pieces, switched at zero crossings.",
    AC_TWOPIN_DOC
    "With the curve parameter s (an algebraic state) and the mode\n"
    "off = s < 0: v = s (off ? 1 : Ron) + Vknee, i = s (off ? "
    "Goff : 1)\n+ Goff Vknee (the Modelica Standard Library's "
    "IdealDiode). s\ncrossing zero is an event: the mode "
    "changes there, with a cold\nrestart. Run-time layout: rpar "
    "= [Ron; Goff; Vknee], x0 = [0].",
    idiode_params,
    3,
    idiode_define,
    idiode_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    "Ron,Goff,Vknee"};

/* ------------------------------------------------------------------ */
/* IdealTransformer, Gyrator                                           */
/* ------------------------------------------------------------------ */

static const char *const twoport[] = {"p1", "n1", "p2", "n2"};

#define TWOPORT_DOC                                                            \
  "Pins p1, n1 (port 1) and p2, n2 (port 2): v1 = p1.v - n1.v, i1 =\n"         \
  "p1.i, p1.i + n1.i = 0; likewise port 2.\n"

static int twoport_define(bsim_define_ctx *ctx, bsim_model *m,
                          const bsim_param_spec *params, int n) {
  if (!bsim_ac_scalars(ctx, m, params, n)) return -1;
  return bsim_ac_model(ctx, m, &bsim_domain_electrical, twoport, 4, 0, 4, 0, 0);
}

/* The two port balances; then rows 2 and 3:
 * transformer (gyrator = 0): v1 - N v2 = 0, i2 + N i1 = 0;
 * gyrator: i1 - G2 v2 = 0, i2 + G1 v1 = 0. */
static void twoport_fn(bsim_block *blk, int flag, int gyrator) {
  static const ac_need transformer = {.ncon = 4, .nres = 4, .nrpar = 1};
  static const ac_need gyr = {.ncon = 4, .nres = 4, .nrpar = 2};
  if (bsim_ac_lacks(blk, flag, gyrator ? &gyr : &transformer)) return;
  double a = blk->rpar[0], b = gyrator ? blk->rpar[1] : 0;
  if (flag == BSIM_FLAG_DERIVATIVES) {
    double v1 = ac_v(blk, 0) - ac_v(blk, 1), v2 = ac_v(blk, 2) - ac_v(blk, 3);
    double i1 = ac_i(blk, 0), i2 = ac_i(blk, 2);
    blk->res[0] = i1 + ac_i(blk, 1);
    blk->res[1] = i2 + ac_i(blk, 3);
    blk->res[2] = gyrator ? i1 - b * v2 : v1 - a * v2;
    blk->res[3] = gyrator ? i2 + a * v1 : i2 + a * i1;
  } else if (flag == BSIM_FLAG_JACOBIAN) {
    ac_jac j = bsim_ac_jac(blk, 2);
    for (int k = 0; k < 4; k++)
      ac_put(&j, k / 2, ac_ci(&j, k), 1.0);
    if (gyrator) {
      ac_put(&j, 2, ac_ci(&j, 0), 1.0);
      ac_put_dv(&j, 2, 2, 3, -b);
      ac_put(&j, 3, ac_ci(&j, 2), 1.0);
      ac_put_dv(&j, 3, 0, 1, a);
    } else {
      ac_put_dv(&j, 2, 0, 1, 1.0);
      ac_put_dv(&j, 2, 2, 3, -a);
      ac_put(&j, 3, ac_ci(&j, 2), 1.0);
      ac_put(&j, 3, ac_ci(&j, 0), a);
    }
  }
}

static const bsim_param_spec transformer_params[] = {
    {"N", BSIM_PARAM_REAL, "1", "turns ratio N1/N2"},
};

static int transformer_define(bsim_define_ctx *ctx, bsim_model *m) {
  return twoport_define(ctx, m, transformer_params, 1);
}

static void transformer_fn(bsim_block *blk, int flag) {
  twoport_fn(blk, flag, 0);
}

static const bsim_block_type type_IdealTransformer = {
    "IdealTransformer",
    "IdealTransformer",
    "Ideal transformer with turns ratio N.",
    TWOPORT_DOC "v1 = N v2, i2 = -N i1.\nRun-time layout: rpar = [N].",
    transformer_params,
    1,
    transformer_define,
    transformer_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    "N"};

static const bsim_param_spec gyrator_params[] = {
    {"G1", BSIM_PARAM_REAL, "1", "gyration conductance (S)"},
    {"G2", BSIM_PARAM_REAL, "1", "gyration conductance (S)"},
};

static int gyrator_define(bsim_define_ctx *ctx, bsim_model *m) {
  return twoport_define(ctx, m, gyrator_params, 2);
}

static void gyrator_fn(bsim_block *blk, int flag) {
  twoport_fn(blk, flag, 1);
}

static const bsim_block_type type_Gyrator = {
    "Gyrator",
    "Gyrator",
    "Gyrator.",
    TWOPORT_DOC "i1 = G2 v2, i2 = -G1 v1.\nRun-time layout: rpar = [G1; G2].",
    gyrator_params,
    2,
    gyrator_define,
    gyrator_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    "G1,G2"};

/* ------------------------------------------------------------------ */
/* OpAmp                                                               */
/* ------------------------------------------------------------------ */

static int opamp_define(bsim_define_ctx *ctx, bsim_model *m) {
  static const char *const pins[] = {"in_p", "in_n", "out"};
  return bsim_ac_model(ctx, m, &bsim_domain_electrical, pins, 3, 0, 3, 0, 0);
}

static void opamp_fn(bsim_block *blk, int flag) {
  static const ac_need need = {.ncon = 3, .nres = 3};
  if (bsim_ac_lacks(blk, flag, &need)) return;
  if (flag == BSIM_FLAG_DERIVATIVES) {
    blk->res[0] = ac_i(blk, 0);
    blk->res[1] = ac_i(blk, 1);
    blk->res[2] = ac_v(blk, 0) - ac_v(blk, 1);
  } else if (flag == BSIM_FLAG_JACOBIAN) {
    ac_jac j = bsim_ac_jac(blk, 2);
    ac_put(&j, 0, ac_ci(&j, 0), 1.0);
    ac_put(&j, 1, ac_ci(&j, 1), 1.0);
    ac_put_dv(&j, 2, 0, 1, 1.0);
  }
}

static const bsim_block_type type_OpAmp = {
    "OpAmp",
    "OpAmp",
    "Ideal operational amplifier (nullor).",
    "Pins in_p, in_n and out: in_p.i = in_n.i = 0, in_p.v = in_n.v; the\n"
    "output's potential and current are whatever the circuit needs (no\n"
    "gain or saturation limit, as Scilab's OpAmp model: its dialog's\n"
    "gain and saturation fields are not used).",
    NULL,
    0,
    opamp_define,
    opamp_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    "-,-,-"};

const bsim_block_type *const bsim_elec_ideal_types[] = {
    &type_Switch,           &type_Diode,   &type_IdealDiode,
    &type_IdealTransformer, &type_Gyrator, &type_OpAmp,
};
const int bsim_elec_ideal_ntypes =
    sizeof bsim_elec_ideal_types / sizeof bsim_elec_ideal_types[0];
