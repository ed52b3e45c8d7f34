/*
 * scifunc_block_m and scifunc_block: blocks whose behaviour is Scilab code
 * the user wrote, one piece per flag, run by the diagram layer's Scilab
 * interpreter through the service of block.h (bsim_define_scilab). The
 * define step reproduces what Xcos's dialog and its genfunc step make of
 * the fields (ports, states, events, feedthrough found in the outputs
 * code); the computational function gives the code Scilab's variables
 * (u1.., x, z, t, rpar, ipar, n_evi, %_flag) and takes back what Xcos's
 * type-3 glue takes at each flag (y1.., xd, x, z, t_evo).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocks/std.h"

/* Parameters: the dialog's nine fields, then the code, one part per flag
 * in the order of Xcos's second dialog (outputs first). */
enum {
  P_IN,
  P_OUT,
  P_EVIN,
  P_EVOUT,
  P_X0,
  P_Z0,
  P_RPAR,
  P_FIRING,
  P_ALWAYS,
  P_CODE /* seven code parameters follow */
};

#define NFLAGS 7 /* parts are indexed by flag: 0 derivatives ... 6 reinit */

/* bsim_scilab_code.user: when Xcos runs the outputs code. blocksim may ask
 * any block for its outputs while settling a diagram (flag 1 with nevprt
 * 0); code with effects (rand, a count in z) must run only where Xcos
 * runs it: at activations for a block with event inputs, once for a
 * constant block. */
enum {
  SF_AT_ACTIVATIONS = 1, /* event inputs, not always active, no x */
  SF_ONCE = 2            /* no inputs of any kind, not active, no x */
};

/* What a block keeps for its run. */
typedef struct sf_work {
  bsim_scilab_ws *ws;
  int computed; /* a constant block's outputs were computed */
} sf_work;

/* The code parameter of each flag, and its name in messages. */
static const char *const CODE_PARAM[NFLAGS] = {
    "derivatives", "outputs", "update", "events", "init", "end", "reinit"};
static const char *const PART_NAME[NFLAGS] = {
    "derivatives code (flag 0)", "outputs code (flag 1)",
    "update code (flag 2)",      "events code (flag 3)",
    "init code (flag 4)",        "end code (flag 5)",
    "reinit code (flag 6)"};

#define CODE_SPECS                                                             \
  {"outputs", BSIM_PARAM_STRING, "y1=sin(u1)",                                 \
   "code of flag 1: sets every output y1, y2, ... (Xcos: \"Define function "   \
   "which computes the output\")"},                                            \
      {"derivatives", BSIM_PARAM_STRING, "",                                   \
       "code of flag 0: sets xd, the derivative of x (with continuous "        \
       "states only)"},                                                        \
      {"update", BSIM_PARAM_STRING, "",                                        \
       "code of flag 2, at activations: may set new x and z (with discrete "   \
       "states, or with an event input and continuous states)"},               \
      {"events", BSIM_PARAM_STRING, "",                                        \
       "code of flag 3, at activations: sets t_evo, the dates of the event "   \
       "outputs (with event inputs and outputs)"},                             \
      {"init", BSIM_PARAM_STRING, "",                                          \
       "code of flag 4, at the start: may set x and z"},                       \
      {"end", BSIM_PARAM_STRING, "", "code of flag 5, at the end"},            \
      {"reinit", BSIM_PARAM_STRING, "",                                        \
       "code of flag 6, during the initial fixed point: may set x, z and "     \
       "outputs"},

#define COMMON_SPECS                                                           \
  {"event-in", BSIM_PARAM_REAL, "[]", "one entry (1) per event input"},        \
      {"event-out", BSIM_PARAM_REAL, "[]", "one entry (1) per event output"},  \
      {"x0", BSIM_PARAM_REAL, "[]", "initial continuous state (vector)"},      \
      {"z0", BSIM_PARAM_REAL, "[]", "initial discrete state (vector)"},        \
      {"rpar", BSIM_PARAM_REAL, "[]", "parameters vector, the code's rpar"},   \
      {"firing", BSIM_PARAM_REAL, "[]",                                        \
       "initial firing date of each event output (<0: none); [] none"},        \
      {"always-active", BSIM_PARAM_REAL, "0",                                  \
       "1: the block is always active (outputs at every time, not only at "    \
       "its activations)"},

static const bsim_param_spec scifunc_m_params[] = {
    {"in", BSIM_PARAM_REAL, "[1,1]",
     "input ports: one row [rows,cols] per input (-1, -2: inherited)"},
    {"out", BSIM_PARAM_REAL, "[1,1]",
     "output ports: one row [rows,cols] per output (-1, -2: inherited)"},
    COMMON_SPECS CODE_SPECS};

static const bsim_param_spec scifunc_params[] = {
    {"in", BSIM_PARAM_REAL, "1",
     "input ports: the size of each (a column each; -1: inherited)"},
    {"out", BSIM_PARAM_REAL, "1",
     "output ports: the size of each (a column each; -1: inherited)"},
    COMMON_SPECS CODE_SPECS};

_Static_assert(sizeof scifunc_m_params / sizeof *scifunc_m_params ==
                   P_CODE + NFLAGS,
               "nine fields and seven parts");

/* ------------------------------------------------------------ define step */

/* Port sizes from "in" or "out": k x 2 rows [rows, cols] (matrix form),
 * else a vector of rows. Sets n and fills rows/cols (NULL: count only). */
static int port_list(bsim_define_ctx *ctx, const char *name, int matrix, int *n,
                     int *rows, int *cols) {
  const bsim_value *v = bsim_param(ctx, name);
  int ne = bsim_std_numel(v);
  if (matrix && ne && v->cols != 2)
    return bsim_define_error(ctx,
                             "'%s' must have one row [rows,cols] per port, "
                             "got a %dx%d matrix",
                             name, v->rows, v->cols);
  *n = matrix ? (ne ? v->rows : 0) : ne;
  if (*n > 64)
    return bsim_define_error(ctx, "'%s': %d ports, at most 64", name, *n);
  for (int k = 0; k < *n; k++) {
    double r = v->v[k], c = matrix ? v->v[*n + k] : 1;
    /* the range first: converting a double beyond int is undefined */
    if (!(r >= -1e6 && r <= 1e6 && c >= -1e6 && c <= 1e6) || r != (int)r ||
        c != (int)c || r == 0 || c == 0)
      return bsim_define_error(ctx,
                               "'%s': port %d has size %gx%g; sizes are "
                               "nonzero integers (negative: inherited)",
                               name, k + 1, r, c);
    if (rows) rows[k] = (int)r, cols[k] = (int)c;
  }
  return 0;
}

static int event_ports(bsim_define_ctx *ctx, const char *name, int *n) {
  const bsim_value *v = bsim_param(ctx, name);
  *n = bsim_std_numel(v);
  for (int k = 0; k < *n; k++)
    if (v->v[k] != 1)
      return bsim_define_error(ctx,
                               "'%s': entry %d is %g; each event port is "
                               "one entry 1",
                               name, k + 1, v->v[k]);
  if (*n > 32)
    return bsim_define_error(ctx, "'%s': %d event ports, at most 32", name, *n);
  return 0;
}

static int copy_vector(bsim_define_ctx *ctx, const char *name,
                       double *(*alloc)(bsim_model *, int), bsim_model *m) {
  const bsim_value *v = bsim_param(ctx, name);
  int n = bsim_std_numel(v);
  if (n == 0) return 0;
  double *d = alloc(m, n);
  if (!d) return bsim_define_error(ctx, "out of memory");
  memcpy(d, v->v, sizeof *d * (size_t)n);
  return 0;
}

/* The variables a call sets, for the compile-time check of calls. */
typedef struct var_names {
  char buf[2 * 64 + 16][16];
  const char *ptr[2 * 64 + 16];
  int n;
} var_names;

/* Adds prefix k, or the prefix alone when k is 0. */
static void add_var(var_names *v, const char *prefix, int k) {
  if (k)
    snprintf(v->buf[v->n], sizeof v->buf[v->n], "%s%d", prefix, k);
  else
    snprintf(v->buf[v->n], sizeof v->buf[v->n], "%s", prefix);
  v->ptr[v->n] = v->buf[v->n];
  v->n++;
}

/* Which parts Xcos's genfunc step keeps (it blanks the others): outputs
 * only with outputs, derivatives with continuous states, updates with
 * discrete states (or an event input and continuous states), events with
 * event inputs and outputs, reinit with states or outputs. */
static int part_used(int flag, const bsim_model *m) {
  switch (flag) {
  case 0:
    return m->nx > 0;
  case 1:
    return m->nout > 0;
  case 2:
    return (m->nevin > 0 && (m->nx > 0 || m->nz > 0)) || m->nz > 0;
  case 3:
    return m->nevin > 0 && m->nevout > 0;
  case 6:
    return m->nx > 0 || m->nz > 0 || m->nout > 0;
  default:
    return 1;
  }
}

/* Compiles the code and checks what Xcos's dialog insists on: every
 * output set by the outputs code, xd by the derivatives code. */
static int compile(bsim_define_ctx *ctx, bsim_model *m) {
  const char *parts[NFLAGS];
  for (int f = 0; f < NFLAGS; f++) {
    const bsim_value *v = bsim_param(ctx, CODE_PARAM[f]);
    parts[f] = part_used(f, m) && v->str ? v->str : NULL;
  }
  var_names vars = {.n = 0};
  /* u, Xcos's list of all inputs, is named here only to be refused below
   * with a better message than "an unknown function" */
  static const char *const fixed[] = {"%_flag", "n_evi", "t",  "x",     "z",
                                      "rpar",   "ipar",  "xd", "t_evo", "u"};
  for (size_t k = 0; k < sizeof fixed / sizeof *fixed; k++)
    add_var(&vars, fixed[k], 0);
  for (int k = 1; k <= m->nin; k++)
    add_var(&vars, "u", k);
  for (int k = 1; k <= m->nout; k++)
    add_var(&vars, "y", k);
  m->script =
      bsim_define_scilab(ctx, NFLAGS, parts, PART_NAME, vars.n, vars.ptr);
  if (!m->script) return -1;
  const bsim_scilab_code *c = m->script;
  char name[16];
  for (int f = 0; f < NFLAGS; f++)
    if (parts[f] && c->ops->reads(c, f, "u"))
      return bsim_define_error(ctx,
                               "its %s reads u, Xcos's list of all the "
                               "inputs, which blocksim does not offer (use "
                               "u1, u2, ... instead)",
                               PART_NAME[f]);
  for (int k = 1; parts[1] && k <= m->nout; k++) {
    snprintf(name, sizeof name, "y%d", k);
    if (!c->ops->assigns(c, 1, name))
      return bsim_define_error(ctx,
                               "its outputs code (flag 1) never sets %s, the "
                               "value of output %d (Xcos's dialog requires "
                               "every output)",
                               name, k);
  }
  if (parts[0] && !c->ops->assigns(c, 0, "xd"))
    return bsim_define_error(ctx, "its derivatives code (flag 0) never sets "
                                  "xd (Xcos's dialog requires it)");
  /* Xcos's feedthrough: the outputs code reads an input */
  int dep_u = 0;
  for (int k = 1; parts[1] && k <= m->nin && !dep_u; k++) {
    snprintf(name, sizeof name, "u%d", k);
    dep_u = c->ops->reads(c, 1, name);
  }
  for (int k = 0; k < m->nin; k++)
    m->dep_u[k] = dep_u;
  if (!m->dep_t && m->nx == 0)
    m->script->user = m->nevin > 0  ? SF_AT_ACTIVATIONS
                      : m->nin == 0 ? SF_ONCE
                                    : 0;
  return 0;
}

static int scifunc_build(bsim_define_ctx *ctx, bsim_model *m, int matrix) {
  int nin, nout, nevin, nevout;
  int rin[64], cin[64], rout[64], cout[64];
  if (port_list(ctx, "in", matrix, &nin, rin, cin) ||
      port_list(ctx, "out", matrix, &nout, rout, cout) ||
      event_ports(ctx, "event-in", &nevin) ||
      event_ports(ctx, "event-out", &nevout))
    return -1;
  if (bsim_model_set_inputs(m, nin, 1, 1, 0) ||
      bsim_model_set_outputs(m, nout, 1, 1) ||
      bsim_model_set_events(m, nevin, nevout))
    return bsim_define_error(ctx, "out of memory");
  for (int k = 0; k < nin; k++)
    m->in[k] = rin[k], m->in2[k] = cin[k];
  for (int k = 0; k < nout; k++)
    m->out[k] = rout[k], m->out2[k] = cout[k];
  const bsim_value *f = bsim_param(ctx, "firing");
  int nf = bsim_std_numel(f);
  if (nf && nf != nevout)
    return bsim_define_error(ctx,
                             "'firing' has %d entries for %d event "
                             "output(s)",
                             nf, nevout);
  for (int k = 0; k < nf; k++)
    m->firing[k] = f->v[k];
  double always;
  if (bsim_std_scalar(ctx, "always-active", &always) ||
      copy_vector(ctx, "x0", bsim_model_alloc_x0, m) ||
      copy_vector(ctx, "z0", bsim_model_alloc_z0, m) ||
      copy_vector(ctx, "rpar", bsim_model_alloc_rpar, m))
    return -1;
  m->dep_t = always == 1;           /* Xcos: dep_ut(2) = (1 == deptime) */
  if (!bsim_model_alloc_ipar(m, 1)) /* Xcos's model.ipar = 0 */
    return bsim_define_error(ctx, "out of memory");
  return compile(ctx, m);
}

static int scifunc_m_define(bsim_define_ctx *ctx, bsim_model *m) {
  return scifunc_build(ctx, m, 1);
}

static int scifunc_define(bsim_define_ctx *ctx, bsim_model *m) {
  return scifunc_build(ctx, m, 0);
}

/* ------------------------------------------------------------- run time */

/* "u12": a port's variable, written without snprintf, which showed in
 * profiles of blocks called at every residual. */
static void port_var(char *buf, char prefix, int k) {
  char digits[12];
  int n = 0;
  do
    digits[n++] = (char)('0' + k % 10);
  while ((k /= 10) > 0 && n < 11);
  *buf++ = prefix;
  while (n > 0)
    *buf++ = digits[--n];
  *buf = '\0';
}

/* The variables of one call, as Xcos's type-3 glue passes them. */
static int set_vars(bsim_block *blk, bsim_scilab_ws *w, int flag) {
  const bsim_scilab_ops *o = blk->script->ops;
  double f = flag, ev = blk->nevprt, ip[64];
  int nip = blk->nipar < 64 ? blk->nipar : 64;
  for (int k = 0; k < nip; k++)
    ip[k] = blk->ipar[k];
  int rc = o->ws_set(w, "%_flag", 1, 1, &f) ||
           o->ws_set(w, "n_evi", 1, 1, &ev) ||
           o->ws_set(w, "t", 1, 1, &blk->t) ||
           o->ws_set(w, "x", blk->nx, 1, blk->x) ||
           o->ws_set(w, "z", blk->nz, blk->nz ? 1 : 0, blk->z) ||
           o->ws_set(w, "rpar", blk->nrpar, 1, blk->rpar) ||
           o->ws_set(w, "ipar", nip, 1, ip);
  for (int k = 0; rc == 0 && k < blk->nin; k++) {
    char name[16];
    port_var(name, 'u', k + 1);
    rc = o->ws_set(w, name, blk->insz[k], blk->insz[blk->nin + k],
                   blk->inptr[k]);
  }
  if (rc) bsim_block_error(blk, "out of memory");
  return rc;
}

/* Copies variable `name` (exactly n elements) into dst; a missing one is
 * left alone when `optional`. 0, or -1 after bsim_block_error. */
static int take(bsim_block *blk, bsim_scilab_ws *w, int flag, const char *name,
                double *dst, int n, int optional) {
  int r, c;
  const double *v;
  int rc = blk->script->ops->ws_get(w, name, &r, &c, &v);
  if (rc == 1 && optional) return 0;
  if (rc != 0) {
    bsim_block_error(blk, "its %s %s %s", PART_NAME[flag],
                     rc == 1 ? "leaves undefined" : "makes not a real matrix",
                     name);
    return -1;
  }
  if ((long)r * c != n) {
    bsim_block_error(blk,
                     "its %s makes %s %dx%d; the block needs %d "
                     "element(s) there",
                     PART_NAME[flag], name, r, c, n);
    return -1;
  }
  if (n) memcpy(dst, v, sizeof *dst * (size_t)n);
  return 0;
}

/* The outputs, as Xcos copies them back: from the last to the first,
 * stopping at the first whose size is not the port's (at flag 6, whose
 * leftover "y1=[]" lines mean "unchanged", the port's rows only). */
static int take_outputs(bsim_block *blk, bsim_scilab_ws *w, int flag) {
  for (int k = blk->nout - 1; k >= 0; k--) {
    char name[16];
    int r, c;
    const double *v;
    port_var(name, 'y', k + 1);
    int rc = blk->script->ops->ws_get(w, name, &r, &c, &v);
    if (rc == 1 && flag == BSIM_FLAG_REINIT) return 0;
    if (rc != 0) {
      bsim_block_error(blk, "its %s %s %s", PART_NAME[flag],
                       rc == 1 ? "leaves undefined"
                               : "makes not a real "
                                 "matrix",
                       name);
      return -1;
    }
    long want = (long)blk->outsz[k] *
                (flag == BSIM_FLAG_OUTPUTS ? blk->outsz[blk->nout + k] : 1);
    if ((long)r * c != want) return 0;
    memcpy(blk->outptr[k], v, sizeof(double) * (size_t)want);
  }
  return 0;
}

/* Event dates: t_evo(k) for event output k, as delays from now. */
static int take_events(bsim_block *blk, bsim_scilab_ws *w) {
  int r, c;
  const double *v;
  int rc = blk->script->ops->ws_get(w, "t_evo", &r, &c, &v);
  if (rc == 1) return 0; /* Xcos adds "t_evo=[]": no event */
  if (rc != 0) {
    bsim_block_error(blk, "its %s makes t_evo not a real matrix",
                     PART_NAME[BSIM_FLAG_EVENTS]);
    return -1;
  }
  long n = (long)r * c < blk->nevout ? (long)r * c : blk->nevout;
  for (long k = 0; k < n; k++)
    blk->evout[k] = v[k] - blk->t;
  return 0;
}

static void call(bsim_block *blk, bsim_scilab_ws *w, int flag) {
  const bsim_scilab_code *c = blk->script;
  if (c->ops->statements(c, flag) == 0) return;
  c->ops->ws_clear(w);
  if (set_vars(blk, w, flag)) return;
  char msg[600];
  if (c->ops->run(c, flag, w, msg, sizeof msg) != 0) {
    bsim_block_error(blk, "its %s, %s%s", PART_NAME[flag], msg,
                     strstr(msg, "unknown variable")
                         ? " (the code sees u1, u2, ..., x, z, t, rpar, "
                           "ipar, n_evi, %_flag and what it assigns itself, "
                           "not the diagram's context)"
                         : "");
    return;
  }
  switch (flag) {
  case BSIM_FLAG_DERIVATIVES:
    take(blk, w, flag, "xd", blk->xd, blk->nx, 0);
    return;
  case BSIM_FLAG_EVENTS:
    take_events(blk, w);
    return;
  default:
    break;
  }
  /* x is read back except at flag 1, where it is the integrator's */
  if (take(blk, w, flag, "z", blk->z, blk->nz, 0) ||
      (flag != BSIM_FLAG_OUTPUTS &&
       take(blk, w, flag, "x", blk->x, blk->nx, 0)))
    return;
  if (flag == BSIM_FLAG_OUTPUTS || flag == BSIM_FLAG_REINIT)
    take_outputs(blk, w, flag);
}

static void scifunc_fn(bsim_block *blk, int flag) {
  sf_work *w = *blk->work;
  if (flag == BSIM_FLAG_INIT) {
    if (!blk->script) {
      bsim_block_error(blk, "no compiled code (its model was not made by "
                            "its define step)");
      return;
    }
    w = *blk->work = calloc(1, sizeof *w);
    if (!w || !(w->ws = blk->script->ops->ws_create(
                    blk->script, bsim_block_scilab_rand(blk)))) {
      bsim_block_error(blk, "out of memory");
      return;
    }
  }
  if (!w || !w->ws || flag < 0 || flag >= NFLAGS) {
    if (flag == BSIM_FLAG_END && w) free(w), *blk->work = NULL;
    return;
  }
  int when = blk->script->user;
  if (flag == BSIM_FLAG_OUTPUTS &&
      (((when & SF_AT_ACTIVATIONS) && blk->nevprt == 0) ||
       ((when & SF_ONCE) && w->computed)))
    return; /* the outputs hold, as in Xcos */
  if (flag == BSIM_FLAG_OUTPUTS) w->computed = 1;
  call(blk, w->ws, flag);
  if (flag == BSIM_FLAG_END) {
    blk->script->ops->ws_free(w->ws);
    free(w);
    *blk->work = NULL;
  }
}

/* ------------------------------------------------------------ descriptors */

#define SCIFUNC_DOC_COMMON                                                     \
  "Each part of the code is Scilab statements (lines, or separated by ; or\n"  \
  ",) run by blocksim's Scilab interpreter (docs/format.md lists the\n"        \
  "language and functions) as a fresh function call: it sees u1, u2, ...\n"    \
  "(the inputs; not u, Xcos's list of them), x (continuous state, a\n"         \
  "column), z (discrete state), t, rpar, ipar (0), n_evi (the activation:\n"   \
  "1 for event input 1, 2 for input 2, 3 for both, 0 at the start or\n"        \
  "while integrating) and %_flag,\n"                                           \
  "and keeps nothing between calls but x and z. After the outputs code\n"      \
  "(flag 1) the block takes y1, y2, ... (each must have its port's size,\n"    \
  "else it and the outputs before it keep their values, as Xcos does) and\n"   \
  "z; after derivatives (flag 0) xd; after update (flag 2), init (4), end\n"   \
  "(5) and reinit (6, during the initial fixed point, outputs too) x and\n"    \
  "z; after events (flag 3) t_evo: the date of each event output (one\n"       \
  "before now: none). Parts that cannot apply are ignored, as Xcos's\n"        \
  "dialog blanks them: outputs without outputs, derivatives without x,\n"      \
  "update without z (or without an event input and x), events without\n"       \
  "event inputs and outputs. The outputs code must set every output and\n"     \
  "the derivatives code xd. The block has feedthrough when the outputs\n"      \
  "code reads an input it does not assign. As in Xcos, the outputs of a\n"     \
  "block with event inputs (not always active, without x) change only at\n"    \
  "its activations, those of a block without any input once.\n"                \
  "Random numbers: rand() draws from Scilab's session generator, shared\n"     \
  "by every such block of a run and starting where the diagram's context\n"    \
  "left it (rand('seed', s), rand('normal') act on it), so a diagram gives\n"  \
  "Scilab's sequence. Calling a function blocksim's interpreter lacks (a\n"    \
  "user function from a .sci file) is bad input when the diagram loads;\n"     \
  "a statement that fails while running (an unknown variable, a size\n"        \
  "mismatch) ends the run naming the block, the part and the line.\n"          \
  "Run-time layout: x0, z0, rpar and firing as given, ipar = 0, dep_u from\n"  \
  "the outputs code, dep_t = always-active; the code lives in\n"               \
  "model.script (Xcos keeps it in opar)."

const bsim_block_type bsim_type_scifunc_block_m = {
    "scifunc_block_m", "scifunc",
    "A block computed by Scilab code, one part per flag (matrix ports).",
    "Xcos's Scilab function block: ports, states and events as the\n"
    "parameters say, behaviour written in Scilab. in and out list the\n"
    "ports as rows [rows,cols].\n" SCIFUNC_DOC_COMMON,
    scifunc_m_params, P_CODE + NFLAGS, scifunc_m_define, scifunc_fn,
    /* the code's random numbers start where the context left Scilab's
     * generator: a derived run compiles it again */
    BSIM_TYPE_READS_CONTEXT,
    "in,out,event-in,event-out,x0,z0,rpar,firing,always-active;"
    "outputs,derivatives,update,events,init,end,reinit"};

const bsim_block_type bsim_type_scifunc_block = {
    "scifunc_block",
    "scifunc",
    "A block computed by Scilab code, one part per flag (column ports).",
    "The older form of scifunc_block_m: in and out give each port's size\n"
    "as one number (a column vector).\n" SCIFUNC_DOC_COMMON,
    scifunc_params,
    P_CODE + NFLAGS,
    scifunc_define,
    scifunc_fn,
    BSIM_TYPE_READS_CONTEXT,
    "in,out,event-in,event-out,x0,z0,rpar,firing,always-active|"
    "in,out,event-in,event-out,x0,z0,rpar,firing;"
    "outputs,derivatives,update,events,init,end,reinit"};

const bsim_block_type *const bsim_scifunc_types[] = {&bsim_type_scifunc_block_m,
                                                     &bsim_type_scifunc_block};
const int bsim_scifunc_ntypes = 2;
