/*
 * Semiconductors of Xcos's Electrical palette, with the equations of the
 * Modelica models Scilab ships (those of the Modelica Standard Library's
 * Analog.Semiconductors): the MOS transistors of Shichman and Hodges
 * (NMOS, PMOS: no charges, so algebraic) and the bipolar transistors of
 * Ebers and Moll with junction and diffusion capacitances (NPN, PNP).
 * A PMOS is an NMOS with every voltage and current negated (and Vt
 * with them); a PNP an NPN likewise. Their piecewise definitions are
 * evaluated as written, without events (noEvent in the models, or
 * continuous pieces whose slope only changes).
 */
#include <math.h>

#include "blocks/acausal.h"

/* Pins in the order of the Modelica Standard Library. */
enum { MD = 0, MG = 1, MS = 2, MB = 3 };
static const char *const mos_pins[] = {"D", "G", "S", "B"};
enum { BC = 0, BB = 1, BE = 2 };
static const char *const bjt_pins[] = {"C", "B", "E"};

/* ------------------------------------------------------------------ */
/* MOS                                                                 */
/* ------------------------------------------------------------------ */

static const bsim_param_spec nmos_params[] = {
    {"W", BSIM_PARAM_REAL, "20e-6", "width (m)"},
    {"L", BSIM_PARAM_REAL, "6e-6", "length (m)"},
    {"Beta", BSIM_PARAM_REAL, "0.041e-3", "transconductance (A/V^2)"},
    {"Vt", BSIM_PARAM_REAL, "0.8", "zero bias threshold voltage (V)"},
    {"K2", BSIM_PARAM_REAL, "1.144", "bulk threshold parameter"},
    {"K5", BSIM_PARAM_REAL, "0.7311", "reduction of pinch-off region"},
    {"dW", BSIM_PARAM_REAL, "-2.5e-6", "narrowing of channel (m)"},
    {"dL", BSIM_PARAM_REAL, "-1.5e-6", "shortening of channel (m)"},
    {"RDS", BSIM_PARAM_REAL, "1e7", "drain-source resistance (ohm)"},
};

static const bsim_param_spec pmos_params[] = {
    {"W", BSIM_PARAM_REAL, "50e-6", "width (m)"},
    {"L", BSIM_PARAM_REAL, "6e-6", "length (m)"},
    {"Beta", BSIM_PARAM_REAL, "0.0105e-3", "transconductance (A/V^2)"},
    {"Vt", BSIM_PARAM_REAL, "-1", "zero bias threshold voltage (V)"},
    {"K2", BSIM_PARAM_REAL, "0.41", "bulk threshold parameter"},
    {"K5", BSIM_PARAM_REAL, "0.839", "reduction of pinch-off region"},
    {"dW", BSIM_PARAM_REAL, "-2.5e-6", "narrowing of channel (m)"},
    {"dL", BSIM_PARAM_REAL, "-2.1e-6", "shortening of channel (m)"},
    {"RDS", BSIM_PARAM_REAL, "1e7", "drain-source resistance (ohm)"},
};

static int mos_define(bsim_define_ctx *ctx, bsim_model *m) {
  double *r = bsim_ac_scalars(ctx, m, nmos_params, 9);
  if (!r) return -1;
  if (!(r[1] + r[7] != 0))
    return bsim_define_error(ctx, "the effective length L + dL is zero");
  if (r[8] == 0) return bsim_define_error(ctx, "'RDS' must be nonzero");
  return bsim_ac_model(ctx, m, &bsim_domain_electrical, mos_pins, 4, 0, 4, 0,
                       0);
}

/* NMOS drain current D.i at pin potentials u (D, G, S, B) and its
 * gradient g over them. vt is the threshold as an NMOS sees it. */
static double nmos_id(const double *rp, double vt, const double *u, double *g) {
  double W = rp[0], L = rp[1], Beta = rp[2], K2 = rp[4], K5 = rp[5];
  double dW = rp[6], dL = rp[7], RDS = rp[8];
  double gds = RDS < 1e-20 && RDS > -1e-20 ? 1e20 : 1 / RDS;
  double k = Beta * (W + dW) / (L + dL);
  int sw = u[MD] < u[MS]; /* drain and source swap roles */
  double ud = sw ? u[MS] : u[MD], us = sw ? u[MD] : u[MS];
  double dud[4] = {0}, dus[4] = {0};
  dud[sw ? MS : MD] = 1;
  dus[sw ? MD : MS] = 1;
  double uds = ud - us;
  int bulk = !(u[MB] > us);
  double ubs = bulk ? u[MB] - us : 0;
  double ugst = (u[MG] - us - vt + K2 * ubs) * K5;
  double id;
  double a_uds, a_ugst; /* d id / d uds, d id / d ugst */
  if (ugst <= 0) {
    id = uds * gds;
    a_uds = gds;
    a_ugst = 0;
  } else if (ugst > uds) {
    id = k * uds * (ugst - uds / 2) + uds * gds;
    a_uds = k * (ugst - uds) + gds;
    a_ugst = k * uds;
  } else {
    id = k * ugst * ugst / 2 + uds * gds;
    a_uds = gds;
    a_ugst = k * ugst;
  }
  for (int q = 0; q < 4; q++) {
    double duds = dud[q] - dus[q];
    double dubs = bulk ? (q == MB) - dus[q] : 0;
    double dugst = ((q == MG) - dus[q] + K2 * dubs) * K5;
    g[q] = (sw ? -1 : 1) * (a_uds * duds + a_ugst * dugst);
  }
  return sw ? -id : id;
}

/* G.i = 0, B.i = 0, D.i = drain current, S.i = -D.i. */
static void mos_fn(bsim_block *blk, int flag, int pmos) {
  static const ac_need need = {.ncon = 4, .nres = 4, .nrpar = 9};
  if (bsim_ac_lacks(blk, flag, &need)) return;
  if (flag != BSIM_FLAG_DERIVATIVES && flag != BSIM_FLAG_JACOBIAN) return;
  double s = pmos ? -1 : 1, u[4], g[4];
  for (int q = 0; q < 4; q++)
    u[q] = s * ac_v(blk, q);
  double di = s * nmos_id(blk->rpar, s * blk->rpar[3], u, g);
  if (flag == BSIM_FLAG_DERIVATIVES) {
    blk->res[0] = ac_i(blk, MG);
    blk->res[1] = ac_i(blk, MB);
    blk->res[2] = ac_i(blk, MD) - di;
    blk->res[3] = ac_i(blk, MS) + ac_i(blk, MD);
    return;
  }
  ac_jac j = bsim_ac_jac(blk, 2);
  ac_put(&j, 0, ac_ci(&j, MG), 1.0);
  ac_put(&j, 1, ac_ci(&j, MB), 1.0);
  ac_put(&j, 2, ac_ci(&j, MD), 1.0);
  for (int q = 0; q < 4; q++) /* d(s f(s u))/du = s s f' = f' */
    ac_put(&j, 2, ac_cv(&j, q), -g[q]);
  ac_put(&j, 3, ac_ci(&j, MS), 1.0);
  ac_put(&j, 3, ac_ci(&j, MD), 1.0);
}

static void nmos_fn(bsim_block *blk, int flag) {
  mos_fn(blk, flag, 0);
}

static void pmos_fn(bsim_block *blk, int flag) {
  mos_fn(blk, flag, 1);
}

#define MOS_DOC                                                                \
  "Pins D (drain), G (gate), S (source), B (bulk); G.i = B.i = 0,\n"           \
  "S.i = -D.i. Shichman-Hodges: with k = Beta (W + dW)/(L + dL),\n"            \
  "gds = 1/RDS, the drain and source exchanged when D.v < S.v (NMOS),\n"       \
  "uds = ud - us, ubs = min(B.v - us, 0), ugst = (G.v - us - Vt +\n"           \
  "K2 ubs) K5: id = uds gds if ugst <= 0, k uds (ugst - uds/2) + uds\n"        \
  "gds if ugst > uds, else k ugst^2/2 + uds gds; D.i = +-id. A PMOS is\n"      \
  "the same with every voltage and current negated.\n"                         \
  "Run-time layout: rpar = [W; L; Beta; Vt; K2; K5; dW; dL; RDS]."

static const bsim_block_type type_NMOS = {
    "NMOS",
    "NMOS",
    "N-channel MOS transistor (Shichman-Hodges).",
    MOS_DOC,
    nmos_params,
    9,
    mos_define,
    nmos_fn,
    BSIM_TYPE_JACOBIAN,
    "W,L,Beta,Vt,K2,K5,dW,dL,RDS"};

static const bsim_block_type type_PMOS = {
    "PMOS",
    "PMOS",
    "P-channel MOS transistor (Shichman-Hodges).",
    MOS_DOC,
    pmos_params,
    9,
    mos_define,
    pmos_fn,
    BSIM_TYPE_JACOBIAN,
    "W,L,Beta,Vt,K2,K5,dW,dL,RDS"};

/* ------------------------------------------------------------------ */
/* Bipolar transistors                                                 */
/* ------------------------------------------------------------------ */

enum {
  P_BF,
  P_BR,
  P_IS,
  P_VAK,
  P_TAUF,
  P_TAUR,
  P_CCS,
  P_CJE,
  P_CJC,
  P_PHIE,
  P_ME,
  P_PHIC,
  P_MC,
  P_GBC,
  P_GBE,
  P_VT,
  P_EMINMAX,
  P_N
};

static const bsim_param_spec bjt_params[P_N] = {
    {"Bf", BSIM_PARAM_REAL, "50", "forward beta"},
    {"Br", BSIM_PARAM_REAL, "0.1", "reverse beta"},
    {"Is", BSIM_PARAM_REAL, "1e-16", "transport saturation current (A)"},
    {"Vak", BSIM_PARAM_REAL, "0.02", "early voltage, inverse (1/V)"},
    {"Tauf", BSIM_PARAM_REAL, "0.12e-9", "ideal forward transit time (s)"},
    {"Taur", BSIM_PARAM_REAL, "5e-9", "ideal reverse transit time (s)"},
    {"Ccs", BSIM_PARAM_REAL, "1e-12", "collector-substrate capacitance (F)"},
    {"Cje", BSIM_PARAM_REAL, "0.4e-12",
     "base-emitter zero bias depletion capacitance (F)"},
    {"Cjc", BSIM_PARAM_REAL, "0.5e-12",
     "base-collector zero bias depletion capacitance (F)"},
    {"Phie", BSIM_PARAM_REAL, "0.8", "base-emitter diffusion voltage (V)"},
    {"Me", BSIM_PARAM_REAL, "0.4", "base-emitter gradation exponent"},
    {"Phic", BSIM_PARAM_REAL, "0.8", "base-collector diffusion voltage (V)"},
    {"Mc", BSIM_PARAM_REAL, "0.333", "base-collector gradation exponent"},
    {"Gbc", BSIM_PARAM_REAL, "1e-15", "base-collector conductance (S)"},
    {"Gbe", BSIM_PARAM_REAL, "1e-15", "base-emitter conductance (S)"},
    {"Vt", BSIM_PARAM_REAL, "0.02585", "voltage equivalent of temperature"},
    {"EMinMax", BSIM_PARAM_REAL, "40",
     "exp(x) is continued linearly beyond x = EMinMax and below -2 EMinMax"},
};

static int bjt_define(bsim_define_ctx *ctx, bsim_model *m) {
  double *r = bsim_ac_scalars(ctx, m, bjt_params, P_N);
  if (!r) return -1;
  if (!(r[P_VT] > 0)) return bsim_define_error(ctx, "'Vt' must be positive");
  if (r[P_BF] == 0 || r[P_BR] == 0 || r[P_PHIE] == 0 || r[P_PHIC] == 0)
    return bsim_define_error(ctx, "'Bf', 'Br', 'Phie' and 'Phic' must be "
                                  "nonzero");
  /* states vbc, vbe, C.v (their derivatives carry the charges) */
  if (bsim_ac_model(ctx, m, &bsim_domain_electrical, bjt_pins, 3, 3, 6, 0, 0) !=
      0)
    return -1;
  int *xp = bsim_model_alloc_xprop(m, 3);
  if (!xp) return bsim_define_error(ctx, "out of memory");
  /* a state whose derivative has a zero factor is algebraic */
  xp[0] = r[P_TAUR] != 0 || r[P_CJC] != 0 ? 1 : -1;
  xp[1] = r[P_TAUF] != 0 || r[P_CJE] != 0 ? 1 : -1;
  xp[2] = r[P_CCS] != 0 ? 1 : -1;
  return 0;
}

/* Junction current Is (exp(x) - 1) + v G with x = v/Vt continued
 * linearly outside [EMin, EMax]: its value, slope dv, and e = the
 * (continued) exponential term for the diffusion capacitance. */
static double junction(const double *r, double v, double G, double *dv,
                       double *e, double *de) {
  double Vt = r[P_VT], EMax = r[P_EMINMAX], EMin = -2 * r[P_EMINMAX];
  double x = v / Vt;
  if (x < EMin) {
    double ex = exp(EMin);
    *e = ex * (x - EMin + 1);
    *de = ex / Vt;
  } else if (x > EMax) {
    double ex = exp(EMax);
    *e = ex * (x - EMax + 1);
    *de = ex / Vt;
  } else {
    *e = exp(x);
    *de = *e / Vt;
  }
  *dv = r[P_IS] * *de + G;
  return r[P_IS] * (*e - 1) + v * G;
}

/* Depletion capacitance C0 (1 + M v/Phi) for v/Phi > 0, else C0 (1 -
 * v/Phi)^-M; and its slope. */
static double depletion(double C0, double Phi, double M, double v, double *dv) {
  if (v / Phi > 0) {
    *dv = C0 * M / Phi;
    return C0 * (1 + M * v / Phi);
  }
  double b = 1 - v / Phi;
  *dv = C0 * M / Phi * pow(b, -M - 1);
  return C0 * pow(b, -M);
}

/* Residuals: x0 = vbc, x1 = vbe, x2 = C.v as definitions; then
 * C.i = s ((ibe - ibc) qbk - ibc/Br - cbc vbc' + Ccs C.v'),
 * B.i = s (ibe/Bf + ibc/Br + cbc vbc' + cbe vbe'),
 * E.i = -B.i - C.i + s Ccs C.v', with vbc = s (B.v - C.v), vbe =
 * s (B.v - E.v) (s = 1 NPN, -1 PNP). */
static void bjt_fn(bsim_block *blk, int flag, double s) {
  static const ac_need need = {.ncon = 3, .nres = 6, .nx = 3, .nrpar = P_N};
  if (bsim_ac_lacks(blk, flag, &need)) return;
  if (flag != BSIM_FLAG_DERIVATIVES && flag != BSIM_FLAG_JACOBIAN) return;
  const double *r = blk->rpar, *x = blk->x, *xd = blk->xd;
  double vbc = x[0], vbe = x[1];
  double gbc, ebc, debc, gbe, ebe, debe, dcjc, dcje;
  double ibc = junction(r, vbc, r[P_GBC], &gbc, &ebc, &debc);
  double ibe = junction(r, vbe, r[P_GBE], &gbe, &ebe, &debe);
  double capc = depletion(r[P_CJC], r[P_PHIC], r[P_MC], vbc, &dcjc);
  double cape = depletion(r[P_CJE], r[P_PHIE], r[P_ME], vbe, &dcje);
  double kc = r[P_TAUR] * r[P_IS] / r[P_VT], ke = r[P_TAUF] * r[P_IS] / r[P_VT];
  double cbc = kc * ebc + capc, cbe = ke * ebe + cape;
  double dcbc = kc * debc + dcjc, dcbe = ke * debe + dcje;
  double qbk = 1 - vbc * r[P_VAK];
  double Br = r[P_BR], Bf = r[P_BF], Ccs = r[P_CCS];
  double ic = (ibe - ibc) * qbk - ibc / Br - cbc * xd[0] + Ccs * xd[2];
  double ib = ibe / Bf + ibc / Br + cbc * xd[0] + cbe * xd[1];
  if (flag == BSIM_FLAG_DERIVATIVES) {
    blk->res[0] = x[0] - s * (ac_v(blk, BB) - ac_v(blk, BC));
    blk->res[1] = x[1] - s * (ac_v(blk, BB) - ac_v(blk, BE));
    blk->res[2] = x[2] - ac_v(blk, BC);
    blk->res[3] = ac_i(blk, BC) - s * ic;
    blk->res[4] = ac_i(blk, BB) - s * ib;
    blk->res[5] =
        ac_i(blk, BE) + ac_i(blk, BB) + ac_i(blk, BC) - s * Ccs * xd[2];
    return;
  }
  ac_jac j = bsim_ac_jac(blk, 2);
  for (int k = 0; k < 3; k++)
    ac_put(&j, k, ac_cx(&j, k), 1.0);
  ac_put_dv(&j, 0, BB, BC, -s);
  ac_put_dv(&j, 1, BB, BE, -s);
  ac_put(&j, 2, ac_cv(&j, BC), -1.0);
  /* row 3: C.i - s ic */
  ac_put(&j, 3, ac_ci(&j, BC), 1.0);
  ac_put(&j, 3, ac_cx(&j, 0),
         -s * (-gbc * qbk - (ibe - ibc) * r[P_VAK] - gbc / Br - dcbc * xd[0]));
  ac_put(&j, 3, ac_cx(&j, 1), -s * gbe * qbk);
  ac_put(&j, 3, ac_cxd(&j, 0), s * cbc);
  ac_put(&j, 3, ac_cxd(&j, 2), -s * Ccs);
  /* row 4: B.i - s ib */
  ac_put(&j, 4, ac_ci(&j, BB), 1.0);
  ac_put(&j, 4, ac_cx(&j, 0), -s * (gbc / Br + dcbc * xd[0]));
  ac_put(&j, 4, ac_cx(&j, 1), -s * (gbe / Bf + dcbe * xd[1]));
  ac_put(&j, 4, ac_cxd(&j, 0), -s * cbc);
  ac_put(&j, 4, ac_cxd(&j, 1), -s * cbe);
  /* row 5: E.i + B.i + C.i - s Ccs C.v' */
  for (int k = 0; k < 3; k++)
    ac_put(&j, 5, ac_ci(&j, k), 1.0);
  ac_put(&j, 5, ac_cxd(&j, 2), -s * Ccs);
}

static void npn_fn(bsim_block *blk, int flag) {
  bjt_fn(blk, flag, 1.0);
}

static void pnp_fn(bsim_block *blk, int flag) {
  bjt_fn(blk, flag, -1.0);
}

#define BJT_DOC                                                                \
  "Pins C (collector), B (base), E (emitter); Ebers-Moll with charges.\n"      \
  "vbc = B.v - C.v, vbe = B.v - E.v (NPN), qbk = 1 - vbc Vak; junction\n"      \
  "currents ibc = Is (exp(vbc/Vt) - 1) + vbc Gbc, ibe likewise, the\n"         \
  "exponential continued linearly below -2 EMinMax and above EMinMax;\n"       \
  "capacitances cbc = Taur Is/Vt exp(vbc/Vt) + Cjc (1 + Mc vbc/Phic)\n"        \
  "(vbc > 0) or Cjc (1 - vbc/Phic)^-Mc, cbe likewise with Tauf, Cje,\n"        \
  "Me, Phie. C.i = (ibe - ibc) qbk - ibc/Br - cbc vbc' + Ccs C.v',\n"          \
  "B.i = ibe/Bf + ibc/Br + cbc vbc' + cbe vbe', E.i = -B.i - C.i +\n"          \
  "Ccs C.v'. A PNP is the same with every voltage and current negated.\n"      \
  "The states are vbc, vbe and C.v (each defined by an algebraic\n"            \
  "equation; their derivatives carry the charges).\n"                          \
  "Run-time layout: rpar = [Bf; Br; Is; Vak; Tauf; Taur; Ccs; Cje; Cjc;\n"     \
  "Phie; Me; Phic; Mc; Gbc; Gbe; Vt; EMinMax], x0 = [0; 0; 0]."

#define BJT_EXPRS                                                              \
  "Bf,Br,Is,Vak,Tauf,Taur,Ccs,Cje,Cjc,Phie,Me,Phic,Mc,Gbc,Gbe,Vt,EMinMax"

static const bsim_block_type type_NPN = {
    "NPN",      "NPN",      "NPN bipolar transistor (Ebers-Moll).",
    BJT_DOC,    bjt_params, P_N,
    bjt_define, npn_fn,     BSIM_TYPE_JACOBIAN,
    BJT_EXPRS};

static const bsim_block_type type_PNP = {
    "PNP",      "PNP",      "PNP bipolar transistor (Ebers-Moll).",
    BJT_DOC,    bjt_params, P_N,
    bjt_define, pnp_fn,     BSIM_TYPE_JACOBIAN,
    BJT_EXPRS};

const bsim_block_type *const bsim_elec_semi_types[] = {
    &type_NMOS,
    &type_PMOS,
    &type_NPN,
    &type_PNP,
};
const int bsim_elec_semi_ntypes =
    sizeof bsim_elec_semi_types / sizeof bsim_elec_semi_types[0];
