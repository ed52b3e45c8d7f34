/*
 * Xcos's palettes, as Scilab 6.1 lists them (modules/xcos/etc/
 * palettes.xml), against the block library: the table that ends
 * docs/block-reference.md, so that what an Xcos user can run is known
 * without opening a diagram, and stays true as types are added.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

/* A leading '*' marks a block Xcos builds as a superblock (CLOCK_c,
 * PID, ...): the Xcos reader dissolves it, so it runs when the blocks
 * inside it do. */
static const struct {
  const char *palette;
  const char *blocks[32];
} palettes[] = {
    {"Continuous time systems",
     {"CLINDUMMY_f", "CLR", "CLSS", "DERIV", "INTEGRAL_f", "INTEGRAL_m", "*PID",
      "TCLSS", "TIME_DELAY", "VARIABLE_DELAY", "PDE", NULL}},
    {"Discontinuities",
     {"BACKLASH", "DEADBAND", "DELAYV_f", "HYSTHERESIS", "RATELIMITER",
      "QUANT_f", "SATURATION", NULL}},
    {"Discrete time systems",
     {"AUTOMAT", "DELAYV_f", "*DELAY_f", "DLR", "DLRADAPT_f", "DLSS",
      "DOLLAR_f", "DOLLAR", "DOLLAR_m", "SAMPHOLD_m", "TCLSS", "REGISTER",
      NULL}},
    {"Lookup Tables", {"INTRP2BLK_f", "INTRPLBLK_f", "LOOKUP_f", NULL}},
    {"Event handling",
     {"*CLOCK_c",
      "SampleCLK",
      "VirtualCLK0",
      "*ANDBLK",
      "ANDLOG_f",
      "CEVENTSCOPE",
      "CLKFROM",
      "CLKGOTO",
      "CLKGotoTagVisibility",
      "CLKOUTV_f",
      "CLKSOMV_f",
      "*EDGE_TRIGGER",
      "ENDBLK",
      "END_c",
      "ESELECT_f",
      "EVTDLY_c",
      "EVTGEN_f",
      "EVTVARDLY",
      "*Extract_Activation",
      "HALT_f",
      "IFTHEL_f",
      "M_freq",
      "*MCLOCK_f",
      "MFCLCK_f",
      "*freq_div",
      NULL}},
    {"Mathematical Operations",
     {"ABS_VALUE", "BIGSOM_f",     "COSBLK_f", "EXPBLK_m", "EXPRESSION",
      "GAINBLK_f", "GAINBLK",      "GAIN_f",   "INVBLK",   "LOGBLK_f",
      "MATMAGPHI", "MATZREIM",     "MAXMIN",   "MAX_f",    "MIN_f",
      "POWBLK_f",  "PRODUCT",      "PROD_f",   "SIGNUM",   "SINBLK_f",
      "SQRT",      "SUMMATION",    "SUM_f",    "SOM_f",    "TANBLK_f",
      "TrigFun",   "RELATIONALOP", NULL}},
    {"Matrix",
     {"CUMSUM", "EXTRACT",   "EXTTRI",   "MATBKSL",  "MATCATH", "MATCATV",
      "MATDET", "MATDIAG",   "MATDIV",   "MATEIG",   "MATEXPM", "MATINV",
      "MATLU",  "MATMAGPHI", "MATMUL",   "MATPINV",  "MATRESH", "MATSING",
      "MATSUM", "MATTRAN",   "MATZCONJ", "MATZREIM", "RICC",    "ROOTCOEF",
      "SQRT",   "SUBMAT",    NULL}},
    {"Electrical",
     {"CCS",
      "CVS",
      "Capacitor",
      "ConstantVoltage",
      "CurrentSensor",
      "Diode",
      "Ground",
      "Gyrator",
      "IdealTransformer",
      "Inductor",
      "NMOS",
      "NPN",
      "OpAmp",
      "PMOS",
      "PNP",
      "PotentialSensor",
      "Resistor",
      "SineVoltage",
      "Switch",
      "VVsourceAC",
      "VariableResistor",
      "VoltageSensor",
      "VsourceAC",
      NULL}},
    {"Integer",
     {"BITCLEAR", "BITSET", "CONVERT", "*DFLIPFLOP", "*DLATCH", "EXTRACTBITS",
      "INTMUL", "*JKFLIPFLOP", "LOGIC", "SHIFT", "*SRFLIPFLOP", "LOGICAL_OP",
      NULL}},
    {"Port & Subsystem",
     {"CLKINV_f", "CLKOUTV_f", "IN_f", "INIMPL_f", "OUTIMPL_f", "OUT_f",
      "*SUPER_f", NULL}},
    {"Zero crossing detection",
     {"GENERAL_f", "NEGTOPOS_f", "POSTONEG_f", "ZCROSS_f", NULL}},
    {"Signal Routing",
     {"DEMUX",
      "DEMUX_f",
      "EXTRACTOR",
      "SCALAR2VECTOR",
      "FROM",
      "FROMMO",
      "GOTO",
      "GOTOMO",
      "CLKFROM",
      "CLKGOTO",
      "GotoTagVisibility",
      "GotoTagVisibilityMO",
      "ISELECT_m",
      "MUX",
      "MUX_f",
      "M_SWITCH",
      "NRMSOM_f",
      "RELAY_f",
      "SELECT_m",
      "SWITCH2_m",
      "SWITCH_f",
      "*SELF_SWITCH",
      NULL}},
    {"Signal Processing", {"QUANT_f", "SAMPHOLD_m", NULL}},
    {"Implicit", {"CONSTRAINT_c", "CONSTRAINT2_c", "DIFF_f", NULL}},
    {"Annotations", {"TEXT_f", NULL}},
    {"Sinks",
     {"AFFICH_m",      "BARXY",     "CEVENTSCOPE",  "CANIMXY",   "CANIMXY3D",
      "CFSCOPE",       "CLKOUTV_f", "CMAT3D",       "CMATVIEW",  "CMSCOPE",
      "SCALE_CMSCOPE", "CSCOPE",    "SCALE_CSCOPE", "CSCOPXY",   "CSCOPXY3D",
      "ENDBLK",        "END_c",     "HALT_f",       "OUTIMPL_f", "OUT_f",
      "TOWS_c",        "TRASH_f",   "WRITEAU_f",    "WRITEC_f",  NULL}},
    {"Sources",
     {"CLKINV_f",  "*CLOCK_c",  "CONST_m",      "CONST",      "CONST_f",
      "CURV_f",    "Counter",   "FROMWSB",      "GENSIN_f",   "GENSQR_f",
      "INIMPL_f",  "IN_f",      "Modulo_Count", "RAMP",       "RAND_m",
      "READAU_f",  "READC_f",   "RFILE_f",      "SAWTOOTH_f", "*STEP_FUNCTION",
      "*PULSE_SC", "SampleCLK", "Sigbuilder",   "TIME_f",     "TKSCALE",
      NULL}},
    {"Thermo-Hydraulics",
     {"Bache", "PerteDP", "PuitsP", "SourceP", "VanneReglante", "Flowmeter",
      NULL}},
    {"Demonstrations Blocks", {"BOUNCE", "BOUNCEXY", "BPLATFORM", NULL}},
    {"User-Defined Functions",
     {"CBLOCK", "CBLOCK4", "DEBUG", "MBLOCK", "PDE", "*SUPER_f", "c_block",
      "fortran_block", "generic_block3", "scifunc_block_m", NULL}},
};

void bsim_cli_palettes_markdown(const bsim_library *lib) {
  printf("\n## Xcos palettes\n\n"
         "Every block of Xcos's palettes (Scilab 6.1) and how blocksim "
         "runs it\nfrom an .xcos or .zcos file (docs/xcos.md): *dialog* - "
         "a type of this\nreference with the block's dialog fields mapped "
         "to its parameters;\n*stored model* - a type without that "
         "mapping, run on the model the file\nstores; *superblock* - Xcos "
         "builds the block as a superblock, which the\nreader dissolves: "
         "it runs when the blocks inside it do; *port* - a\nsuperblock port, "
         "dissolved by flattening; *no* - not supported "
         "(an error naming the block).\n");
  for (size_t p = 0; p < sizeof palettes / sizeof palettes[0]; p++) {
    printf("\n### %s\n\n| block | blocksim |\n|---|---|\n",
           palettes[p].palette);
    for (int i = 0; palettes[p].blocks[i]; i++) {
      const char *b = palettes[p].blocks[i];
      int super = b[0] == '*';
      if (super) b++;
      const bsim_block_type *t = bsim_library_find(lib, b);
      int own = t && strcmp(t->name, b) == 0;
      const char *how = super                                ? "superblock"
                        : own && (t->flags & BSIM_TYPE_PORT) ? "port"
                        : own && t->xcos_exprs               ? "dialog"
                        : own                                ? "stored model"
                                                             : "no";
      printf("| `%s` | %s |\n", b, how);
    }
  }
}
