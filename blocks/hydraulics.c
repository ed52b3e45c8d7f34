/*
 * Xcos's Thermo-hydraulics palette: a pressure source and sink, a pipe
 * with friction, a regulating valve and a tank, with the equations of
 * the Modelica models Scilab ships for them (its ThermoLib subset). A
 * port carries pressure P, specific enthalpy H, mass flow Q and mixing
 * enthalpy Hm, all four equal across a connection; each component states
 * two of them per connected port (a pressure-flow law and the direction
 * of the enthalpy), so a connection joins exactly two ports. The density
 * is 998 kg/m^3 (as Scilab's models, which ignore p_rho) unless p_rho > 0.
 * The models' piecewise relations (flow direction, levels against the
 * tank's outlets) are evaluated as written, without events.
 */
#include <math.h>

#include "blocks/acausal.h"

enum { HP = 0, HH = 1, HQ = 2, HM = 3, HW = 4 }; /* variables of a port */

static const double g_earth = 9.80665, q_eps = 1.0;

static double port(const bsim_block *blk, int k, int var) {
  return blk->pot[k][var];
}

static int col(const ac_jac *j, int k, int var) {
  return ac_ccon(j, k, HW, var);
}

/* Q |Q| made linear for |Q| <= eps (Scilab's ThermoCar), and its slope. */
static double quad(double Q, double *d) {
  if (fabs(Q) > q_eps) {
    *d = 2 * fabs(Q);
    return Q * fabs(Q);
  }
  *d = q_eps;
  return Q * q_eps;
}

static double density(double p_rho) {
  return p_rho > 0 ? p_rho : 998.0;
}

/* ------------------------------------------------------------------ */
/* SourceP, PuitsP                                                     */
/* ------------------------------------------------------------------ */

static const bsim_param_spec source_params[] = {
    {"P0", BSIM_PARAM_REAL, "300000", "pressure (Pa)"},
    {"T0", BSIM_PARAM_REAL, "290", "temperature (K)"},
    {"H0", BSIM_PARAM_REAL, "100000", "specific enthalpy (J/kg)"},
    {"option_temperature", BSIM_PARAM_REAL, "1",
     "1: temperature fixed, 2: enthalpy fixed (no effect on the flow)"},
};

static int source_define(bsim_define_ctx *ctx, bsim_model *m) {
  static const char *const c[] = {"C"};
  double *r = bsim_ac_scalars(ctx, m, source_params, 4);
  if (!r) return -1;
  return bsim_ac_model(ctx, m, &bsim_domain_thermohydraulic, c, 1, 0, 2, 0, 0);
}

/* C.P = P0, C.Hm = H0 */
static void source_fn(bsim_block *blk, int flag) {
  static const ac_need need = {.ncon = 1, .nres = 2, .nrpar = 3};
  if (bsim_ac_lacks(blk, flag, &need)) return;
  if (flag == BSIM_FLAG_DERIVATIVES) {
    blk->res[0] = port(blk, 0, HP) - blk->rpar[0];
    blk->res[1] = port(blk, 0, HM) - blk->rpar[2];
  } else if (flag == BSIM_FLAG_JACOBIAN) {
    ac_jac j = bsim_ac_jac(blk, HW);
    ac_put(&j, 0, col(&j, 0, HP), 1.0);
    ac_put(&j, 1, col(&j, 0, HM), 1.0);
  }
}

#define SOURCE_DOC                                                             \
  "One port C (thermohydraulic: P, H, Q, Hm): C.P = P0, C.Hm = H0; the\n"      \
  "flow is whatever the circuit takes. Run-time layout: rpar = [P0; T0;\n"     \
  "H0; option_temperature]."

static const bsim_block_type type_SourceP = {
    "SourceP",
    "Source",
    "Fluid source at fixed pressure and enthalpy.",
    SOURCE_DOC,
    source_params,
    4,
    source_define,
    source_fn,
    BSIM_TYPE_JACOBIAN,
    "P0,T0,H0,option_temperature"};

static const bsim_block_type type_PuitsP = {
    "PuitsP",
    "Puits",
    "Fluid sink at fixed pressure and enthalpy.",
    SOURCE_DOC,
    source_params,
    4,
    source_define,
    source_fn,
    BSIM_TYPE_JACOBIAN,
    "P0,T0,H0,option_temperature"};

/* ------------------------------------------------------------------ */
/* Two-port components: PerteDP, VanneReglante                         */
/* ------------------------------------------------------------------ */

static const char *const c12[] = {"C1", "C2"};

/* C2.Q = C1.Q, C2.H = C1.H, and the enthalpy upstream: C1.H = C1.Hm
 * when Q > 0, else C2.H = C2.Hm (rows 1, 2, 3). */
static void through(bsim_block *blk, int flag) {
  int up = port(blk, 0, HQ) > 0 ? 0 : 1;
  if (flag == BSIM_FLAG_DERIVATIVES) {
    blk->res[1] = port(blk, 1, HQ) - port(blk, 0, HQ);
    blk->res[2] = port(blk, 1, HH) - port(blk, 0, HH);
    blk->res[3] = port(blk, up, HH) - port(blk, up, HM);
  } else if (flag == BSIM_FLAG_JACOBIAN) {
    ac_jac j = bsim_ac_jac(blk, HW);
    ac_put(&j, 1, col(&j, 1, HQ), 1.0);
    ac_put(&j, 1, col(&j, 0, HQ), -1.0);
    ac_put(&j, 2, col(&j, 1, HH), 1.0);
    ac_put(&j, 2, col(&j, 0, HH), -1.0);
    ac_put(&j, 3, col(&j, up, HH), 1.0);
    ac_put(&j, 3, col(&j, up, HM), -1.0);
  }
}

static const bsim_param_spec pipe_params[] = {
    {"L", BSIM_PARAM_REAL, "10", "length (m)"},
    {"D", BSIM_PARAM_REAL, "0.2", "inner diameter (m), > 0"},
    {"lambda", BSIM_PARAM_REAL, "0.03", "friction coefficient"},
    {"z1", BSIM_PARAM_REAL, "0", "inlet altitude (m)"},
    {"z2", BSIM_PARAM_REAL, "0", "outlet altitude (m)"},
    {"p_rho", BSIM_PARAM_REAL, "0", "density if > 0 (kg/m^3)"},
};

static int pipe_define(bsim_define_ctx *ctx, bsim_model *m) {
  double *r = bsim_ac_scalars(ctx, m, pipe_params, 6);
  if (!r) return -1;
  if (!(r[1] > 0)) return bsim_define_error(ctx, "'D' must be positive");
  return bsim_ac_model(ctx, m, &bsim_domain_thermohydraulic, c12, 2, 0, 4, 0,
                       0);
}

/* C1.P - C2.P = 8 khi Q|Q| / (pi^2 D^4 rho) + rho g (z2 - z1), with
 * khi = lambda L / D and pi = 3.1415927 as in Scilab's model. */
static void pipe_fn(bsim_block *blk, int flag) {
  static const ac_need need = {.ncon = 2, .nres = 4, .nrpar = 6};
  if (bsim_ac_lacks(blk, flag, &need)) return;
  const double *r = blk->rpar;
  if (flag != BSIM_FLAG_DERIVATIVES && flag != BSIM_FLAG_JACOBIAN) return;
  double rho = density(r[5]), pi = 3.1415927, D = r[1];
  double khi = r[2] * r[0] / D, dq;
  double f = 8 * khi / (pi * pi * pow(D, 4.0) * rho);
  double q = quad(port(blk, 0, HQ), &dq);
  if (flag == BSIM_FLAG_DERIVATIVES) {
    blk->res[0] = port(blk, 0, HP) - port(blk, 1, HP) -
                  (f * q + rho * g_earth * (r[4] - r[3]));
  } else {
    ac_jac j = bsim_ac_jac(blk, HW);
    ac_put(&j, 0, col(&j, 0, HP), 1.0);
    ac_put(&j, 0, col(&j, 1, HP), -1.0);
    ac_put(&j, 0, col(&j, 0, HQ), -f * dq);
  }
  through(blk, flag);
}

static const bsim_block_type type_PerteDP = {
    "PerteDP",
    "PerteDP",
    "Pipe with quadratic friction losses and a change of altitude.",
    "Ports C1 (inlet) and C2 (outlet): C1.Q = C2.Q = Q, C1.H = C2.H,\n"
    "the upstream port's H = its Hm, and C1.P - C2.P = 8 khi Q|Q| /\n"
    "(pi^2 D^4 rho) + rho g (z2 - z1), khi = lambda L / D (Q|Q| is Q eps\n"
    "for |Q| <= eps = 1). Run-time layout: rpar = [L; D; lambda; z1; z2;\n"
    "p_rho].",
    pipe_params,
    6,
    pipe_define,
    pipe_fn,
    BSIM_TYPE_JACOBIAN,
    "L,D,lambda,z1,z2,p_rho"};

static const bsim_param_spec valve_params[] = {
    {"Cvmax", BSIM_PARAM_REAL, "8005.42", "flow coefficient fully open"},
    {"p_rho", BSIM_PARAM_REAL, "0", "density if > 0 (kg/m^3)"},
};

static int valve_define(bsim_define_ctx *ctx, bsim_model *m) {
  if (!bsim_ac_scalars(ctx, m, valve_params, 2)) return -1;
  return bsim_ac_model(ctx, m, &bsim_domain_thermohydraulic, c12, 2, 0, 4, 1,
                       0);
}

/* (C1.P - C2.P) Cv |Cv| = 1.733e12 Q|Q| / rho^2, Cv = Ouv Cvmax. */
static void valve_fn(bsim_block *blk, int flag) {
  static const ac_need need = {.ncon = 2, .nres = 4, .nrpar = 2, .nin = 1};
  if (bsim_ac_lacks(blk, flag, &need)) return;
  if (flag != BSIM_FLAG_DERIVATIVES && flag != BSIM_FLAG_JACOBIAN) return;
  double rho = density(blk->rpar[1]), Cvmax = blk->rpar[0];
  double Cv = blk->inptr[0][0] * Cvmax, dq;
  double dp = port(blk, 0, HP) - port(blk, 1, HP);
  double q = quad(port(blk, 0, HQ), &dq), k = 1.733e12 / (rho * rho);
  if (flag == BSIM_FLAG_DERIVATIVES) {
    blk->res[0] = dp * Cv * fabs(Cv) - k * q;
  } else {
    ac_jac j = bsim_ac_jac(blk, HW);
    ac_put(&j, 0, col(&j, 0, HP), Cv * fabs(Cv));
    ac_put(&j, 0, col(&j, 1, HP), -Cv * fabs(Cv));
    ac_put(&j, 0, col(&j, 0, HQ), -k * dq);
    ac_put(&j, 0, ac_cu(&j, 0), dp * 2 * fabs(Cv) * Cvmax);
  }
  through(blk, flag);
}

static const bsim_block_type type_VanneReglante = {
    "VanneReglante",
    "VanneReglante",
    "Regulating valve; input 1 is its opening.",
    "Ports C1 (inlet) and C2 (outlet): C1.Q = C2.Q = Q, C1.H = C2.H,\n"
    "the upstream port's H = its Hm, and (C1.P - C2.P) Cv |Cv| =\n"
    "1.733e12 Q|Q| / rho^2 with Cv = Ouv Cvmax, Ouv = input 1 (Q|Q| is\n"
    "Q eps for |Q| <= eps = 1). Run-time layout: rpar = [Cvmax; p_rho].",
    valve_params,
    2,
    valve_define,
    valve_fn,
    BSIM_TYPE_JACOBIAN,
    "Cvmax,p_rho"};

/* ------------------------------------------------------------------ */
/* Bache                                                               */
/* ------------------------------------------------------------------ */

enum { CE1 = 0, CE2 = 1, CS1 = 2, CS2 = 3 };
enum { B_PATM, B_A, B_ZE1, B_ZE2, B_ZS1, B_ZS2, B_Z0, B_T0, B_RHO, B_N };

static const bsim_param_spec tank_params[B_N] = {
    {"Patm", BSIM_PARAM_REAL, "101300", "pressure above the fluid (Pa)"},
    {"A", BSIM_PARAM_REAL, "1", "cross-section (m^2), > 0"},
    {"ze1", BSIM_PARAM_REAL, "40", "altitude of inlet 1 (m)"},
    {"ze2", BSIM_PARAM_REAL, "0", "altitude of inlet 2 (m)"},
    {"zs1", BSIM_PARAM_REAL, "40", "altitude of outlet 1 (m)"},
    {"zs2", BSIM_PARAM_REAL, "0", "altitude of outlet 2 (m)"},
    {"z0", BSIM_PARAM_REAL, "30", "initial level (m)"},
    {"T0", BSIM_PARAM_REAL, "290", "initial temperature (K)"},
    {"p_rho", BSIM_PARAM_REAL, "0", "density if > 0 (kg/m^3)"},
};

static int tank_define(bsim_define_ctx *ctx, bsim_model *m) {
  static const char *const ports[] = {"Ce1", "Ce2", "Cs1", "Cs2"};
  double *r = bsim_ac_scalars(ctx, m, tank_params, B_N);
  if (!r) return -1;
  if (!(r[B_A] > 0)) return bsim_define_error(ctx, "'A' must be positive");
  if (bsim_ac_model(ctx, m, &bsim_domain_thermohydraulic, ports, 4, 2, 14, 0,
                    1) != 0)
    return -1;
  m->x0[0] = r[B_Z0];
  m->x0[1] = 1e5; /* Hm's start value in Scilab's model */
  return 0;
}

/* Fraction of a port open at level z: 1 when the flow goes the way it
 * flows freely (sign of Q times dir >= 0 for an inlet, <= 0 ...), else
 * by how much the port lies under the surface (over e = 0.25 m). */
static double opening(double Q, int inlet, double z, double zp, double *dz) {
  const double e = 0.25;
  *dz = 0;
  if (inlet ? Q >= 0 : Q <= 0) return 1.0;
  if (z > zp + e) return 1.0;
  if (z < zp) return 0.0;
  *dz = 1 / e;
  return (z - zp) / e;
}

/* Rows 0-7: the unused ports Ce2, Cs1 (no flow, H = 1e5, P the
 * hydrostatic pressure, Hm the tank's). Rows 8-11: Ce1 and Cs2, whose
 * flow obeys (Patm + rho g max(z - zp, 0) - P) O = k Q|Q| / (2 rho).
 * Rows 12, 13: the mass and energy balances. */
static void tank_fn(bsim_block *blk, int flag) {
  static const ac_need need = {
      .ncon = 4, .nres = 14, .nx = 2, .nrpar = B_N, .nout = 1};
  if (bsim_ac_lacks(blk, flag, &need)) return;
  const double *r = blk->rpar;
  if (flag == BSIM_FLAG_OUTPUTS) {
    blk->outptr[0][0] = blk->x[0];
    return;
  }
  if (flag != BSIM_FLAG_DERIVATIVES && flag != BSIM_FLAG_JACOBIAN) return;
  double z = blk->x[0], Hm = blk->x[1], rho = density(r[B_RHO]);
  double A = r[B_A], zmin = 1e-6, kloss = 1.0;
  const int pk[4] = {CE1, CE2, CS1, CS2};
  const double zp[4] = {r[B_ZE1], r[B_ZE2], r[B_ZS1], r[B_ZS2]};
  double head[4], dhead[4];
  for (int i = 0; i < 4; i++) {
    int wet = z - zp[i] >= 0;
    head[i] = r[B_PATM] + rho * g_earth * (wet ? z - zp[i] : 0);
    dhead[i] = wet ? rho * g_earth : 0;
  }
  double Qs[4], Hs[4];
  for (int i = 0; i < 4; i++) {
    Qs[i] = port(blk, pk[i], HQ);
    Hs[i] = port(blk, pk[i], HH);
  }
  const double sgn[4] = {1, 1, -1, -1}; /* inlets add, outlets take */
  double BQ = 0, BH = 0;
  for (int i = 0; i < 4; i++) {
    BQ += sgn[i] * Qs[i];
    BH += sgn[i] * Qs[i] * (Hs[i] - Hm);
  }
  int full = z > zmin;
  double mass = rho * A * z;
  ac_jac j = {0};
  if (flag == BSIM_FLAG_JACOBIAN) j = bsim_ac_jac(blk, HW);
  /* unused ports */
  for (int u = 0; u < 2; u++) {
    int k = u ? CS1 : CE2, i = u ? 2 : 1, r0 = 4 * u;
    if (flag == BSIM_FLAG_DERIVATIVES) {
      blk->res[r0] = port(blk, k, HQ);
      blk->res[r0 + 1] = port(blk, k, HH) - 1e5;
      blk->res[r0 + 2] = port(blk, k, HP) - head[i];
      blk->res[r0 + 3] = port(blk, k, HM) - Hm;
    } else {
      ac_put(&j, r0, col(&j, k, HQ), 1.0);
      ac_put(&j, r0 + 1, col(&j, k, HH), 1.0);
      ac_put(&j, r0 + 2, col(&j, k, HP), 1.0);
      ac_put(&j, r0 + 2, ac_cx(&j, 0), -dhead[i]);
      ac_put(&j, r0 + 3, col(&j, k, HM), 1.0);
      ac_put(&j, r0 + 3, ac_cx(&j, 1), -1.0);
    }
  }
  /* used ports */
  for (int u = 0; u < 2; u++) {
    int k = u ? CS2 : CE1, i = u ? 3 : 0, r0 = 8 + 2 * u;
    double dO, O = opening(Qs[i], !u, z, zp[i], &dO), dq;
    double q = quad(Qs[i], &dq), lhs = head[i] - port(blk, k, HP);
    if (flag == BSIM_FLAG_DERIVATIVES) {
      blk->res[r0] = lhs * O - kloss * q / 2 / rho;
      blk->res[r0 + 1] = port(blk, k, HM) - Hm;
    } else {
      ac_put(&j, r0, col(&j, k, HP), -O);
      ac_put(&j, r0, ac_cx(&j, 0), dhead[i] * O + lhs * dO);
      ac_put(&j, r0, col(&j, k, HQ), -kloss * dq / 2 / rho);
      ac_put(&j, r0 + 1, col(&j, k, HM), 1.0);
      ac_put(&j, r0 + 1, ac_cx(&j, 1), -1.0);
    }
  }
  if (flag == BSIM_FLAG_DERIVATIVES) {
    blk->res[12] = rho * A * blk->xd[0] - BQ;
    blk->res[13] = blk->xd[1] - (full ? BH / mass : 0.0);
    return;
  }
  ac_put(&j, 12, ac_cxd(&j, 0), rho * A);
  ac_put(&j, 13, ac_cxd(&j, 1), 1.0);
  for (int i = 0; i < 4; i++) {
    ac_put(&j, 12, col(&j, pk[i], HQ), -sgn[i]);
    if (!full) continue;
    ac_put(&j, 13, col(&j, pk[i], HQ), -sgn[i] * (Hs[i] - Hm) / mass);
    ac_put(&j, 13, col(&j, pk[i], HH), -sgn[i] * Qs[i] / mass);
  }
  if (full) {
    ac_put(&j, 13, ac_cx(&j, 1), BQ / mass);
    ac_put(&j, 13, ac_cx(&j, 0), BH / (mass * z));
  }
  ac_put(&j, 14, ac_cx(&j, 0), 1.0); /* the output, yNiveau = z */
}

static const bsim_block_type type_Bache = {
    "Bache",
    "Bache",
    "Open tank with two inlets and two outlets; output 1 is the level.",
    "Ports Ce1, Ce2 (inlets at altitudes ze1, ze2) and Cs1, Cs2 (outlets\n"
    "at zs1, zs2); as in Scilab's model, Ce2 and Cs1 carry no flow (leave\n"
    "them unconnected). States: the level z (from z0) and the mixing\n"
    "enthalpy Hm (from 1e5). rho A z' = Ce1.Q + Ce2.Q - Cs1.Q - Cs2.Q;\n"
    "Hm' = sum of +-Q (H - Hm) / (rho A z) while z > 1e-6; each used port\n"
    "obeys (Patm + rho g max(z - zp, 0) - P) O = Q|Q| / (2 rho), O = 1\n"
    "when the fluid flows its way, else the part of the opening (0.25 m)\n"
    "under the surface; every port's Hm is the tank's. Output 1 = z.\n"
    "Run-time layout: rpar = [Patm; A; ze1; ze2; zs1; zs2; z0; T0; p_rho],\n"
    "x0 = [z0; 1e5].",
    tank_params,
    B_N,
    tank_define,
    tank_fn,
    BSIM_TYPE_JACOBIAN,
    "Patm,A,ze1,ze2,zs1,zs2,z0,T0,p_rho"};

const bsim_block_type *const bsim_hydraulic_types[] = {
    &type_SourceP, &type_PuitsP,        &type_PerteDP,
    &type_Bache,   &type_VanneReglante,
};
const int bsim_hydraulic_ntypes =
    sizeof bsim_hydraulic_types / sizeof bsim_hydraulic_types[0];
