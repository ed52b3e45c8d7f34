/*
 * Basic electrical components of Xcos's Electrical palette, as implicit
 * blocks with analytic Jacobians: ground, passive two-pins, sources,
 * controlled sources and sensors. Each follows the equations of the
 * Modelica model Scilab ships for it (the Modelica Standard Library's
 * Analog.Basic / Sources / Sensors): pins p and n, v = p.v - n.v, i = p.i,
 * and residual 0 is always p.i + n.i = 0 (bsim_ac_twopin_balance).
 * Sensors give causal outputs, controlled sources read causal inputs, so
 * mixed diagrams work. Also here: the superblock connector ports.
 */
#include <math.h>

#include "blocks/acausal.h"

/* A two-pin component's model: nx states, 2 + nx residuals. */
static int twopin(bsim_define_ctx *ctx, bsim_model *m, int nx, int nin,
                  int nout) {
  return bsim_ac_model(ctx, m, &bsim_domain_electrical, bsim_ac_pn, 2, nx,
                       2 + nx, nin, nout);
}

/* ------------------------------------------------------------------ */
/* Ground                                                              */
/* ------------------------------------------------------------------ */

static int ground_define(bsim_define_ctx *ctx, bsim_model *m) {
  static const char *const p[] = {"p"};
  return bsim_ac_model(ctx, m, &bsim_domain_electrical, p, 1, 0, 1, 0, 0);
}

static void ground_fn(bsim_block *blk, int flag) {
  static const ac_need need = {.ncon = 1, .nres = 1};
  if (bsim_ac_lacks(blk, flag, &need)) return;
  if (flag == BSIM_FLAG_DERIVATIVES) {
    blk->res[0] = ac_v(blk, 0);
  } else if (flag == BSIM_FLAG_JACOBIAN) {
    ac_jac j = bsim_ac_jac(blk, 2);
    ac_put(&j, 0, ac_cv(&j, 0), 1.0);
  }
}

static const bsim_block_type type_Ground = {
    "Ground",
    "Ground",
    "Electrical ground: the potential reference.",
    "One pin p with p.v = 0. Every circuit needs one: potentials are\n"
    "otherwise defined only up to a constant.",
    NULL,
    0,
    ground_define,
    ground_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    "-"};

/* ------------------------------------------------------------------ */
/* Resistor, VariableResistor                                          */
/* ------------------------------------------------------------------ */

static const bsim_param_spec resistor_params[] = {
    {"R", BSIM_PARAM_REAL, "0.01", "resistance (ohm)"},
};

static int resistor_define(bsim_define_ctx *ctx, bsim_model *m) {
  if (!bsim_ac_scalars(ctx, m, resistor_params, 1)) return -1;
  return twopin(ctx, m, 0, 0, 0);
}

/* R i = v, with R a parameter or the input (VariableResistor). */
static void resistance_law(bsim_block *blk, int flag, double R, int input) {
  bsim_ac_twopin_balance(blk, flag);
  if (flag == BSIM_FLAG_DERIVATIVES) {
    blk->res[1] = R * ac_i(blk, 0) - ac_vpn(blk);
  } else if (flag == BSIM_FLAG_JACOBIAN) {
    ac_jac j = bsim_ac_jac(blk, 2);
    ac_put(&j, 1, ac_ci(&j, 0), R);
    ac_put_dv(&j, 1, 0, 1, -1.0);
    if (input) ac_put(&j, 1, ac_cu(&j, 0), ac_i(blk, 0));
  }
}

static void resistor_fn(bsim_block *blk, int flag) {
  static const ac_need need = {.ncon = 2, .nres = 2, .nrpar = 1};
  if (bsim_ac_lacks(blk, flag, &need)) return;
  resistance_law(blk, flag, blk->rpar[0], 0);
}

static const bsim_block_type type_Resistor = {
    "Resistor",
    "Resistor",
    "Ideal linear resistor.",
    AC_TWOPIN_DOC "R i = v.\nRun-time layout: rpar = [R].",
    resistor_params,
    1,
    resistor_define,
    resistor_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    "R"};

static int varres_define(bsim_define_ctx *ctx, bsim_model *m) {
  return twopin(ctx, m, 0, 1, 0);
}

static void varres_fn(bsim_block *blk, int flag) {
  static const ac_need need = {.ncon = 2, .nres = 2, .nin = 1};
  if (bsim_ac_lacks(blk, flag, &need)) return;
  if (flag == BSIM_FLAG_DERIVATIVES || flag == BSIM_FLAG_JACOBIAN)
    resistance_law(blk, flag, blk->inptr[0][0], 1);
}

static const bsim_block_type type_VariableResistor = {
    "VariableResistor",
    "VariableResistor",
    "Resistor whose resistance is the input.",
    AC_TWOPIN_DOC "R i = v with R = input 1.",
    NULL,
    0,
    varres_define,
    varres_fn,
    BSIM_TYPE_JACOBIAN,
    ""};

/* ------------------------------------------------------------------ */
/* Capacitor, Inductor                                                 */
/* ------------------------------------------------------------------ */

static const bsim_param_spec capacitor_params[] = {
    {"C", BSIM_PARAM_REAL, "0.01", "capacitance (F), > 0"},
    {"v", BSIM_PARAM_REAL, "0", "initial voltage (V): start value of v"},
};

static int capacitor_define(bsim_define_ctx *ctx, bsim_model *m) {
  double C, v;
  if (bsim_ac_nonzero(ctx, "C", 1, &C) != 0 ||
      bsim_std_scalar(ctx, "v", &v) != 0 || twopin(ctx, m, 1, 0, 0) != 0)
    return -1;
  double *r = bsim_model_alloc_rpar(m, 2);
  if (!r) return bsim_define_error(ctx, "out of memory");
  r[0] = C;
  r[1] = v;
  m->x0[0] = v;
  return 0;
}

/* State x = v (C) or i (L): x - (what it stands for) = 0 and
 * k x' - (the other) = 0. */
static void storage_fn(bsim_block *blk, int flag, int inductor) {
  static const ac_need need = {.ncon = 2, .nres = 3, .nx = 1, .nrpar = 1};
  if (bsim_ac_lacks(blk, flag, &need)) return;
  double k = blk->rpar[0];
  bsim_ac_twopin_balance(blk, flag);
  if (flag == BSIM_FLAG_DERIVATIVES) {
    double v = ac_vpn(blk), i = ac_i(blk, 0);
    blk->res[1] = blk->x[0] - (inductor ? i : v);
    blk->res[2] = k * blk->xd[0] - (inductor ? v : i);
  } else if (flag == BSIM_FLAG_JACOBIAN) {
    ac_jac j = bsim_ac_jac(blk, 2);
    ac_put(&j, 1, ac_cx(&j, 0), 1.0);
    ac_put(&j, 2, ac_cxd(&j, 0), k);
    if (inductor) {
      ac_put(&j, 1, ac_ci(&j, 0), -1.0);
      ac_put_dv(&j, 2, 0, 1, -1.0);
    } else {
      ac_put_dv(&j, 1, 0, 1, -1.0);
      ac_put(&j, 2, ac_ci(&j, 0), -1.0);
    }
  }
}

static void capacitor_fn(bsim_block *blk, int flag) {
  storage_fn(blk, flag, 0);
}

static const bsim_block_type type_Capacitor = {
    "Capacitor",
    "Capacitor",
    "Ideal linear capacitor.",
    AC_TWOPIN_DOC "C dv/dt = i; the state is v, starting from parameter v.\n"
                  "Run-time layout: rpar = [C; v], x0 = [v].",
    capacitor_params,
    2,
    capacitor_define,
    capacitor_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    "C,v"};

static const bsim_param_spec inductor_params[] = {
    {"L", BSIM_PARAM_REAL, "1e-4", "inductance (H), > 0"},
};

static int inductor_define(bsim_define_ctx *ctx, bsim_model *m) {
  double L;
  if (bsim_ac_nonzero(ctx, "L", 1, &L) != 0 || twopin(ctx, m, 1, 0, 0) != 0)
    return -1;
  double *r = bsim_model_alloc_rpar(m, 1);
  if (!r) return bsim_define_error(ctx, "out of memory");
  r[0] = L;
  return 0;
}

static void inductor_fn(bsim_block *blk, int flag) {
  storage_fn(blk, flag, 1);
}

static const bsim_block_type type_Inductor = {
    "Inductor",
    "Inductor",
    "Ideal linear inductor.",
    AC_TWOPIN_DOC "L di/dt = v; the state is i, starting from 0.\n"
                  "Run-time layout: rpar = [L], x0 = [0].",
    inductor_params,
    1,
    inductor_define,
    inductor_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    "L"};

/* ------------------------------------------------------------------ */
/* Voltage and current sources                                         */
/* ------------------------------------------------------------------ */

/* v = e(t) (or i = e(t)), de/du = dedu for an input-driven source. */
static void source_law(bsim_block *blk, int flag, double e, int current,
                       double dedu) {
  bsim_ac_twopin_balance(blk, flag);
  if (flag == BSIM_FLAG_DERIVATIVES) {
    blk->res[1] = (current ? ac_i(blk, 0) : ac_vpn(blk)) - e;
  } else if (flag == BSIM_FLAG_JACOBIAN) {
    ac_jac j = bsim_ac_jac(blk, 2);
    if (current)
      ac_put(&j, 1, ac_ci(&j, 0), 1.0);
    else
      ac_put_dv(&j, 1, 0, 1, 1.0);
    if (dedu != 0) ac_put(&j, 1, ac_cu(&j, 0), -dedu);
  }
}

static const bsim_param_spec constv_params[] = {
    {"V", BSIM_PARAM_REAL, "0.01", "voltage (V)"},
};

static int constv_define(bsim_define_ctx *ctx, bsim_model *m) {
  if (!bsim_ac_scalars(ctx, m, constv_params, 1)) return -1;
  return twopin(ctx, m, 0, 0, 0);
}

static void constv_fn(bsim_block *blk, int flag) {
  static const ac_need need = {.ncon = 2, .nres = 2, .nrpar = 1};
  if (bsim_ac_lacks(blk, flag, &need)) return;
  source_law(blk, flag, blk->rpar[0], 0, 0);
}

static const bsim_block_type type_ConstantVoltage = {
    "ConstantVoltage",
    "ConstantVoltage",
    "Source of constant voltage.",
    AC_TWOPIN_DOC "v = V.\nRun-time layout: rpar = [V].",
    constv_params,
    1,
    constv_define,
    constv_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    "V"};

static const bsim_param_spec sinev_params[] = {
    {"V", BSIM_PARAM_REAL, "1", "amplitude (V)"},
    {"phase", BSIM_PARAM_REAL, "0", "phase (rad)"},
    {"freqHz", BSIM_PARAM_REAL, "1", "frequency (Hz)"},
    {"offset", BSIM_PARAM_REAL, "0", "offset (V)"},
    {"startTime", BSIM_PARAM_REAL, "0", "start time (s)"},
};

static int sinev_define(bsim_define_ctx *ctx, bsim_model *m) {
  double *r = bsim_ac_scalars(ctx, m, sinev_params, 5);
  if (!r || twopin(ctx, m, 0, 0, 0) != 0) return -1;
  /* the wave starts with a jump of the source at startTime: an event */
  if (r[4] > 0) m->ng = m->nmode = 1;
  return 0;
}

static void sinev_fn(bsim_block *blk, int flag) {
  static const ac_need need = {.ncon = 2, .nres = 2, .nrpar = 5};
  if (bsim_ac_lacks(blk, flag, &need)) return;
  const double *r = blk->rpar;
  if (flag == BSIM_FLAG_ZCROSS && blk->ng > 0) {
    blk->g[0] = blk->t - r[4];
    /* a stored model may give the surface without its mode */
    if (blk->phase == BSIM_PHASE_DISCRETE && blk->nmode > 0)
      blk->mode[0] = blk->t >= r[4];
    return;
  }
  int on = blk->nmode > 0 ? blk->mode[0] : blk->t >= r[4];
  double e =
      r[3] + (on ? r[0] * sin(2 * AC_PI * r[2] * (blk->t - r[4]) + r[1]) : 0.0);
  source_law(blk, flag, e, 0, 0);
}

static const bsim_block_type type_SineVoltage = {
    "SineVoltage",
    "SineVoltage",
    "Sine voltage source with offset and start time.",
    AC_TWOPIN_DOC
    "v = offset + (t < startTime ? 0 : V sin(2 pi freqHz (t - startTime)\n"
    "+ phase)); a start time > 0 is an event (one surface, one mode).\n"
    "Run-time layout: rpar = [V; phase; freqHz; offset; startTime].",
    sinev_params,
    5,
    sinev_define,
    sinev_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    "V,phase,freqHz,offset,startTime"};

static const bsim_param_spec vsac_params[] = {
    {"VA", BSIM_PARAM_REAL, "220", "amplitude (V)"},
    {"f", BSIM_PARAM_REAL, "50", "frequency (Hz)"},
};

static int vsac_define(bsim_define_ctx *ctx, bsim_model *m) {
  if (!bsim_ac_scalars(ctx, m, vsac_params, 2)) return -1;
  return twopin(ctx, m, 0, 0, 0);
}

static void vsac_fn(bsim_block *blk, int flag) {
  static const ac_need need = {.ncon = 2, .nres = 2, .nrpar = 2};
  if (bsim_ac_lacks(blk, flag, &need)) return;
  source_law(blk, flag, blk->rpar[0] * sin(2 * AC_PI * blk->rpar[1] * blk->t),
             0, 0);
}

static const bsim_block_type type_VsourceAC = {
    "VsourceAC",
    "VsourceAC",
    "Sine-wave voltage source.",
    AC_TWOPIN_DOC "v = VA sin(2 pi f t).\nRun-time layout: rpar = [VA; f].",
    vsac_params,
    2,
    vsac_define,
    vsac_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    "VA,f"};

static const bsim_param_spec vvsac_params[] = {
    {"f", BSIM_PARAM_REAL, "50", "frequency (Hz)"},
};

static int vvsac_define(bsim_define_ctx *ctx, bsim_model *m) {
  if (!bsim_ac_scalars(ctx, m, vvsac_params, 1)) return -1;
  return twopin(ctx, m, 0, 1, 0);
}

static void vvsac_fn(bsim_block *blk, int flag) {
  static const ac_need need = {.ncon = 2, .nres = 2, .nrpar = 1, .nin = 1};
  if (bsim_ac_lacks(blk, flag, &need)) return;
  if (flag != BSIM_FLAG_DERIVATIVES && flag != BSIM_FLAG_JACOBIAN) return;
  double s = sin(2 * AC_PI * blk->rpar[0] * blk->t);
  source_law(blk, flag, blk->inptr[0][0] * s, 0, s);
}

static const bsim_block_type type_VVsourceAC = {
    "VVsourceAC",
    "VVsourceAC",
    "Sine-wave voltage source with its amplitude as input.",
    AC_TWOPIN_DOC "v = VA sin(2 pi f t), VA = input 1.\n"
                  "Run-time layout: rpar = [f].",
    vvsac_params,
    1,
    vvsac_define,
    vvsac_fn,
    BSIM_TYPE_JACOBIAN,
    "f"};

static int controlled_define(bsim_define_ctx *ctx, bsim_model *m) {
  return twopin(ctx, m, 0, 1, 0);
}

static const ac_need controlled_need = {.ncon = 2, .nres = 2, .nin = 1};

static void ccs_fn(bsim_block *blk, int flag) {
  if (bsim_ac_lacks(blk, flag, &controlled_need)) return;
  if (flag == BSIM_FLAG_DERIVATIVES || flag == BSIM_FLAG_JACOBIAN)
    source_law(blk, flag, blk->inptr[0][0], 1, 1.0);
}

static void cvs_fn(bsim_block *blk, int flag) {
  if (bsim_ac_lacks(blk, flag, &controlled_need)) return;
  if (flag == BSIM_FLAG_DERIVATIVES || flag == BSIM_FLAG_JACOBIAN)
    source_law(blk, flag, blk->inptr[0][0], 0, 1.0);
}

static const bsim_block_type type_CCS = {
    "CCS",
    "CCS",
    "Current source controlled by its input.",
    AC_TWOPIN_DOC
    "i = Iin, the input: the current entering at p, leaving at n.",
    NULL,
    0,
    controlled_define,
    ccs_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    ""};

static const bsim_block_type type_CVS = {
    "CVS",
    "CVS",
    "Voltage source controlled by its input.",
    AC_TWOPIN_DOC "v = vin, the input.",
    NULL,
    0,
    controlled_define,
    cvs_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    ""};

/* ------------------------------------------------------------------ */
/* Sensors                                                             */
/* ------------------------------------------------------------------ */

static int sensor_define(bsim_define_ctx *ctx, bsim_model *m) {
  return twopin(ctx, m, 0, 0, 1);
}

/* current = 0: a voltmeter (i = 0, output v); else an ammeter (v = 0,
 * output i). */
static void sensor_law(bsim_block *blk, int flag, int current) {
  static const ac_need need = {.ncon = 2, .nres = 2, .nout = 1};
  if (bsim_ac_lacks(blk, flag, &need)) return;
  bsim_ac_twopin_balance(blk, flag);
  if (flag == BSIM_FLAG_OUTPUTS) {
    blk->outptr[0][0] = current ? ac_i(blk, 0) : ac_vpn(blk);
  } else if (flag == BSIM_FLAG_DERIVATIVES) {
    blk->res[1] = current ? ac_vpn(blk) : ac_i(blk, 0);
  } else if (flag == BSIM_FLAG_JACOBIAN) {
    ac_jac j = bsim_ac_jac(blk, 2);
    if (current) {
      ac_put_dv(&j, 1, 0, 1, 1.0);
      ac_put(&j, 2, ac_ci(&j, 0), 1.0);
    } else {
      ac_put(&j, 1, ac_ci(&j, 0), 1.0);
      ac_put_dv(&j, 2, 0, 1, 1.0);
    }
  }
}

static void vsensor_fn(bsim_block *blk, int flag) {
  sensor_law(blk, flag, 0);
}

static void isensor_fn(bsim_block *blk, int flag) {
  sensor_law(blk, flag, 1);
}

static const bsim_block_type type_VoltageSensor = {
    "VoltageSensor",
    "VoltageSensor",
    "Ideal voltmeter: output 1 is the voltage between its pins.",
    AC_TWOPIN_DOC "i = 0; output 1 = v.",
    NULL,
    0,
    sensor_define,
    vsensor_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    ""};

static const bsim_block_type type_CurrentSensor = {
    "CurrentSensor",
    "CurrentSensor",
    "Ideal ammeter: output 1 is the current through it.",
    AC_TWOPIN_DOC "v = 0; output 1 = i.",
    NULL,
    0,
    sensor_define,
    isensor_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    ""};

static int psensor_define(bsim_define_ctx *ctx, bsim_model *m) {
  static const char *const p[] = {"p"};
  return bsim_ac_model(ctx, m, &bsim_domain_electrical, p, 1, 0, 1, 0, 1);
}

static void psensor_fn(bsim_block *blk, int flag) {
  static const ac_need need = {.ncon = 1, .nres = 1, .nout = 1};
  if (bsim_ac_lacks(blk, flag, &need)) return;
  if (flag == BSIM_FLAG_OUTPUTS) {
    blk->outptr[0][0] = ac_v(blk, 0);
  } else if (flag == BSIM_FLAG_DERIVATIVES) {
    blk->res[0] = ac_i(blk, 0);
  } else if (flag == BSIM_FLAG_JACOBIAN) {
    ac_jac j = bsim_ac_jac(blk, 2);
    ac_put(&j, 0, ac_ci(&j, 0), 1.0);
    ac_put(&j, 1, ac_cv(&j, 0), 1.0);
  }
}

static const bsim_block_type type_PotentialSensor = {
    "PotentialSensor",
    "PotentialSensor",
    "Output 1 is the potential of its pin.",
    "One pin p: p.i = 0; output 1 = p.v.",
    NULL,
    0,
    psensor_define,
    psensor_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    "-"};

/* ------------------------------------------------------------------ */
/* Superblock connector ports                                          */
/* ------------------------------------------------------------------ */

static const bsim_param_spec conport_params[] = {
    {"port", BSIM_PARAM_REAL, "1",
     "the superblock's connector number it stands for (from 1)"},
};

static int conport_define(bsim_define_ctx *ctx, bsim_model *m) {
  int port;
  static const char *const n[] = {"n"};
  if (bsim_std_int(ctx, "port", 1, &port) != 0) return -1;
  int *ip = bsim_model_alloc_ipar(m, 1);
  if (!ip || bsim_model_set_connectors(m, 1) != 0)
    return bsim_define_error(ctx, "out of memory");
  ip[0] = port;
  m->conname[0] = n[0]; /* any domain: the connection set decides */
  return 0;
}

static void conport_fn(bsim_block *blk, int flag) {
  (void)blk;
  (void)flag;
}

static const bsim_block_type type_INIMPL_f = {
    "INIMPL_f",
    "INIMPL_f",
    "Connector port of a superblock (acausal).",
    "Inside a superblock, joins what its connector 'n' connects to the\n"
    "superblock's connector number 'port' outside; dissolved by\n"
    "flattening. INIMPL_f and OUTIMPL_f are the same port (Xcos draws\n"
    "them on either side).",
    conport_params,
    1,
    conport_define,
    conport_fn,
    BSIM_TYPE_PORT,
    "port"};

static const bsim_block_type type_OUTIMPL_f = {
    "OUTIMPL_f",
    "OUTIMPL_f",
    "Connector port of a superblock (acausal).",
    "The same as INIMPL_f.",
    conport_params,
    1,
    conport_define,
    conport_fn,
    BSIM_TYPE_PORT,
    "port"};

const bsim_block_type *const bsim_elec_basic_types[] = {
    &type_Ground,
    &type_Resistor,
    &type_VariableResistor,
    &type_Capacitor,
    &type_Inductor,
    &type_ConstantVoltage,
    &type_SineVoltage,
    &type_VsourceAC,
    &type_VVsourceAC,
    &type_CCS,
    &type_CVS,
    &type_VoltageSensor,
    &type_CurrentSensor,
    &type_PotentialSensor,
    &type_INIMPL_f,
    &type_OUTIMPL_f,
};
const int bsim_elec_basic_ntypes =
    sizeof bsim_elec_basic_types / sizeof bsim_elec_basic_types[0];
