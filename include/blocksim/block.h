/*
 * The block API: everything a block author needs and nothing else.
 *
 * A block type is a descriptor (bsim_block_type): names, documentation, the
 * named parameters of the native XML format, a *define* step that turns those
 * into the run-time data Xcos stores for the same block (rpar, ipar, x0, z0,
 * port sizes), and a computational function called with Xcos's flags. Keeping
 * Xcos's run-time layout means an .xcos file, which stores exactly that data,
 * can run without translation.
 *
 * This header depends on libc only, so that blocks never see the solver.
 */
#ifndef BLOCKSIM_BLOCK_H
#define BLOCKSIM_BLOCK_H

#include "export.h"

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Flags of the computational function; values are Xcos's. */
enum {
  BSIM_FLAG_DERIVATIVES = 0, /* xd = f(t,x,u), or res(t,x,x',u) if implicit */
  BSIM_FLAG_OUTPUTS = 1,     /* y = h(t,x,z,u) */
  BSIM_FLAG_UPDATE = 2,      /* discrete update of z, or jump of x */
  BSIM_FLAG_EVENTS = 3,      /* schedule output events */
  BSIM_FLAG_INIT = 4,        /* allocate work, check parameters */
  BSIM_FLAG_END = 5,         /* release what flag 4 took */
  BSIM_FLAG_REINIT = 6,      /* initial fixed point on outputs */
  BSIM_FLAG_ZCROSS = 9,      /* zero-crossing surfaces g, and modes */
  BSIM_FLAG_JACOBIAN = 10    /* analytic Jacobian into jac (see below) */
};

/* Phase of the simulation, as Xcos's get_phase_simulation(): 1 while the
 * scheduler handles discrete activity (modes may change), 2 while the
 * integrator is running (modes are frozen, surfaces must stay smooth). */
enum { BSIM_PHASE_DISCRETE = 1, BSIM_PHASE_CONTINUOUS = 2 };

/*
 * The run-time view of one block, laid out in the spirit of Xcos's
 * scicos_block. The scheduler owns every pointer; a block writes only to
 * outptr[], xd / res, z, g, mode, evout and *work.
 */
typedef struct bsim_block {
  const char *path; /* e.g. "plant/pid/gain", for messages */
  double t;         /* current time */
  int phase;        /* BSIM_PHASE_* */

  int nin;
  const int *insz; /* rows of input i at insz[i], cols at insz[nin+i] */
  double **inptr;
  int nout;
  const int *outsz; /* rows at outsz[i], cols at outsz[nout+i] */
  double **outptr;

  int nx;
  double *x; /* continuous state */
  double *
      xd; /* its derivative (in: x' for implicit blocks; out: f for explicit) */
  double *res; /* residuals of implicit blocks */

  int nz;
  double *z; /* discrete state */

  int nrpar;
  double *rpar;
  int nipar;
  int *ipar;
  int nopar;
  const int *oparsz; /* rows at oparsz[i], cols at oparsz[nopar+i] */
  double **oparptr;  /* real matrices, column-major */

  int ng;
  double *g;  /* zero-crossing surfaces */
  int *jroot; /* which surfaces fired: +1 upward, -1 downward, 0 none */
  int nmode;
  int *mode;

  int nevprt; /* activation: bit i set = event input i+1; -1 = own root */
  int nevout;
  double *evout; /* flag 3: delay before each event output fires, <0 = none */

  void **work; /* the block's private memory, set at flag 4 */

  /* Flag 10 (types flagged BSIM_TYPE_JACOBIAN only): the block writes the
   * dense matrix [dxd/dx dxd/du; dy/dx dy/du] at the current t, x and
   * inputs, column-major, (nx + ny) rows by (nx + nu) columns, where u is
   * every input's elements concatenated (input 1 first, each column-major)
   * and y likewise every output's. Without states it is just dy/du. The
   * scheduler allocates it and zeroes it before each call, so a block
   * writes only its nonzero entries. NULL for other blocks.
   * An implicit block (model.implicit, acausal components included)
   * writes instead, column-major, (nres + ny) rows by (2 nx + nc + nu)
   * columns: rows are its residuals then its output elements; columns
   * are d/dx, d/dx' (xd), d/d(connector variables: connector 1's
   * potentials then flows, then connector 2's, ...; nc in all), d/du.
   * Outputs must not depend on x'. */
  double *jac;

  /* Signal elements the block reads without a link (model.probes, CFSCOPE's
   * "links to view"): probe[k] points at the element model.probes[k]
   * names, valid while the block runs. NULL / 0 for other blocks. */
  int nprobe;
  const double *const *probe;

  /* Private to the scheduler: error reporting and bookkeeping. */
  void *ctx_;

  /* Acausal components (model.ncon > 0, docs/acausal.md). Connector k's
   * across variables (potential: voltage, pressure) are pot[k][0 ..
   * npot-1] and its through variables (flow: current into the component
   * at that connector) flow[k][0 .. nflow-1], unknowns of the system the
   * block reads (never writes) at flags 0, 1, 9 and 10. The block's own
   * unknowns are its states x (derivatives in xd); at flag 0 it writes
   * nres residuals into res. */
  int ncon;
  const double *const *pot;
  const double *const *flow;
  int nres;

  /* Scilab code the define step compiled for the block (model.script,
   * scifunc_block_m), NULL for other blocks. See "Scilab code run by
   * blocks" below. */
  const struct bsim_scilab_code *script;
} bsim_block;

/* Report a failure from inside the computational function. A *recoverable*
 * failure (e.g. a domain error during a residual call) lets the integrator
 * retry with a smaller step; a fatal one ends the run. The message names the
 * block's path by itself. */
BSIM_API void bsim_block_error(bsim_block *blk, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
BSIM_API void bsim_block_recoverable(bsim_block *blk, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* End the simulation at the current time once this activation has been
 * served (END_c, HALT_f). The run then succeeds with results up to now. */
BSIM_API void bsim_block_stop(bsim_block *blk);

/* Restart the integrator cold once the current event has been served,
 * even when the scheduler would otherwise continue hot (Xcos's
 * do_cold_restart): for blocks that change what the continuous part sees
 * in ways the scheduler cannot know. */
BSIM_API void bsim_block_cold_restart(bsim_block *blk);

/* A line for the user (Xcos's sciprint), kept with the run prefixed by the
 * block's path (bsim_sim_message_at); the blocksim command prints them on
 * stderr. The library itself never prints. */
BSIM_API void bsim_block_message(bsim_block *blk, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Sinks (CSCOPE, CMSCOPE, ...): append one row (current time, n values) to
 * the block's record, which the scheduler keeps and writes out when asked
 * (`blocksim run --scopes DIR`). Every row of one block must have the same
 * n. Returns 0, or -1 (after bsim_block_error) out of memory or on a change
 * of n. */
BSIM_API int bsim_block_record(bsim_block *blk, const double *values, int n);
/* The same row with its time given, for a sink that writes out a buffer
 * of earlier samples (TOWS_c, at flag 5). */
BSIM_API int bsim_block_record_at(bsim_block *blk, double t,
                                  const double *values, int n);
/* The usual sink row: the time, then the elements of every input side by
 * side (input 1 first, each column-major). */
BSIM_API int bsim_block_record_inputs(bsim_block *blk);
/* Name the record's columns, comma-separated ("ev1,ev2"); NULL names them
 * after the inputs as Xcos's recorder does: u<p> for a scalar input p,
 * u<p>_<i> for a vector, u<p>_<i>_<j> for a matrix. Called at flag 4, it
 * also makes the record exist when no row follows (a sink never
 * activated still gets its file, header only). Unnamed records have
 * columns u1..un. 0, or -1 (after bsim_block_error) out of memory. */
BSIM_API int bsim_block_record_names(bsim_block *blk, const char *names);

/* ------------------------------------------------------------------------
 * Scilab's random generators
 * ------------------------------------------------------------------------ */

/* Scilab's uniform generator `urand` (behind `rand()` and the RAND_f /
 * RAND_m blocks), so that the same seed gives Scilab's sequence exactly:
 * the linear congruence seed <- (843314861 seed + 453816693) mod 2^31,
 * returning seed / 2^31 in [0, 1). The caller owns the seed (a block keeps
 * it in its discrete state, as Scilab does): there is no hidden state. */
BSIM_API double bsim_urand(int *seed);
/* Two independent N(0, 1) deviates from bsim_urand by Marsaglia's polar
 * method: uniform pairs (2u - 1, 2v - 1) are drawn until one lies in the
 * unit disc (radius^2 r <= 1), scaled by sqrt(-2 ln r / r). RAND_f and
 * RAND_m use the first of each pair only; Scilab's rand('normal') returns
 * both, first then second. */
BSIM_API void bsim_nrand_pair(int *seed, double pair[2]);

/* ------------------------------------------------------------------------
 * Parameters and the define step
 * ------------------------------------------------------------------------ */

/* Most elements one parameter matrix, block matrix or signal may have:
 * beyond it a size is a typo or an attack, and products of sizes would no
 * longer fit an int. Larger inputs are refused as bad input. */
enum { BSIM_MAX_ELEMS = 10000000 };

/* What a parameter's text means. REAL: an expression giving a real matrix.
 * STRING: the text itself. POLY: a polynomial, written as a coefficient
 * vector (highest power first) or as an expression in s, z, %s or %z
 * ("1+2*s+s^2", "(1+s)*(2+s)", "poly([1 2],'s','c')"); the define step
 * sees the coefficient row vector, highest power first, either way. */
typedef enum {
  BSIM_PARAM_REAL = 0,
  BSIM_PARAM_STRING = 1,
  BSIM_PARAM_POLY = 2
} bsim_param_kind;

/* A parameter value: a real matrix (column-major, as Scilab stores it), or a
 * string for BSIM_PARAM_STRING parameters. */
typedef struct bsim_value {
  int rows, cols;
  double *v;
  char *str;
} bsim_value;

typedef struct bsim_param_spec {
  const char *name;
  bsim_param_kind kind;
  const char *default_expr; /* NULL = required */
  const char *doc;
} bsim_param_spec;

/*
 * Run-time data of a block, as Xcos's model structure. Port sizes follow
 * Xcos's convention: a positive number is a fixed size; a negative number -k
 * is an unknown shared by every port of this block that says -k (so
 * SUMMATION's in = [-1 -1], out = -1 forces all three equal); 0 on an output
 * (input) means "the sum of the input (output) rows", as MUX (DEMUX) use it,
 * and in out2 (in2) the sum of the columns (MATCATH).
 * All arrays are owned by the model and released by bsim_model_clear().
 */
typedef struct bsim_model {
  /* Simulation function name, as Xcos's model.sim; NULL = the type's own.
   * Lets one interface pick among several functions (TrigFun: sin_blk, ...).
   * Must name a registered type; points to static storage. */
  const char *sim;
  int nin;
  int *in, *in2; /* rows, cols */
  int *dep_u;    /* direct feedthrough of each input */
  int nout;
  int *out, *out2;
  int nevin, nevout;
  double *firing; /* initial firing time of each event output, <0 = none */
  int dep_t;      /* always active (outputs depend on time) */
  int implicit;   /* residual form: flag 0 writes res */

  int nx;
  double *x0;
  int nz;
  double *z0;
  int nrpar;
  double *rpar;
  int nipar;
  int *ipar;
  int nopar;
  bsim_value *opar; /* object parameters (real matrices), as Xcos's opar */
  /* Zero-crossing surfaces and modes. A negative value -k means "one per
   * element of input k", resolved by the flattener after size inference
   * (ABS_VALUE, SATURATION: one surface per element of an inherited input). */
  int ng;
  int nmode;
  /* Which crossings of its surfaces the block wants reported: 0 both,
   * +1 rising only, -1 falling only (all its surfaces alike). Crossings it
   * does not want are not located at all, so they cost nothing. */
  int zcdir;
  /* Optional, for a fixed ng > 0: one direction per surface, overriding
   * zcdir (HYSTHERESIS: its upper threshold matters rising, its lower one
   * falling). Set with bsim_model_alloc_zcdirs. */
  int *zcdirs;
  /* 1: this instance cannot give flag 10 although its type is flagged
   * BSIM_TYPE_JACOBIAN (e.g. INTEGRAL_m with saturation, whose Jacobian
   * depends on modes); the solver then uses finite differences. */
  int no_jacobian;
  /* Signal elements read without a link (CFSCOPE): numbers counted from 1
   * over the elements of every output port, ports in the order Xcos
   * numbers its link buffers (docs/blocks.md, "Floating probes"). The
   * block finds them in bsim_block.probe. Set with
   * bsim_model_alloc_probes. */
  int nprobes;
  int *probes;
  /* Acausal connectors (components, docs/acausal.md): connector k has
   * domain condom[k] and name conname[k] (both static storage; names
   * are what native <connect> elements and messages use). Set with
   * bsim_model_set_connectors. A component is implicit: it writes nres
   * residuals (0 = nx) at flag 0 over its states, their derivatives, its
   * connectors' variables and its inputs; every connection set adds the
   * equality of its across variables and a zero sum of its through
   * variables. */
  int ncon;
  const struct bsim_domain **condom;
  const char **conname;
  int nres;
  /* Implicit blocks: per state, 1 when its derivative appears in the
   * residuals (differential), -1 when it does not (algebraic), as Xcos's
   * xprop; NULL = all differential. Set with bsim_model_alloc_xprop. */
  int *xprop;
  /* Scilab code the computational function runs (scifunc_block_m):
   * compiled by the define step with bsim_define_scilab; the model owns
   * one reference (bsim_model_clear drops it, a copy of the model takes
   * another). The block finds it in bsim_block.script. */
  struct bsim_scilab_code *script;
} bsim_model;

/* A physical domain of acausal connectors: npot across variables, equal
 * in a connection set, and nflow through variables, summing to zero
 * there (Kirchhoff). Connectors join only within one domain, told apart
 * by name; vars names them all, comma-separated ("v,i"). */
typedef struct bsim_domain {
  const char *name;
  int npot, nflow;
  const char *vars;
} bsim_domain;

/* Allocate n connectors (domains and names zeroed, for the caller to
 * fill); 0, or -1 out of memory. */
BSIM_API int bsim_model_set_connectors(bsim_model *m, int n);
BSIM_API int *bsim_model_alloc_xprop(bsim_model *m, int n);

/* Allocation helpers for define steps: each (re)allocates the arrays and
 * zero-fills them; they return 0, or -1 when out of memory. */
BSIM_API int bsim_model_set_inputs(bsim_model *m, int n, int rows, int cols,
                                   int dep_u);
BSIM_API int bsim_model_set_outputs(bsim_model *m, int n, int rows, int cols);
BSIM_API int bsim_model_set_events(bsim_model *m, int nevin, int nevout);
BSIM_API double *bsim_model_alloc_rpar(bsim_model *m, int n);
BSIM_API int *bsim_model_alloc_ipar(bsim_model *m, int n);
BSIM_API double *bsim_model_alloc_x0(bsim_model *m, int n);
BSIM_API double *bsim_model_alloc_z0(bsim_model *m, int n);
BSIM_API int *bsim_model_alloc_zcdirs(bsim_model *m, int n);
BSIM_API int *bsim_model_alloc_probes(bsim_model *m, int n);
/* Append a copy of a real matrix to opar; 0, or -1 out of memory. */
BSIM_API int bsim_model_add_opar(bsim_model *m, const bsim_value *v);
BSIM_API void bsim_model_clear(bsim_model *m);

typedef struct bsim_define_ctx bsim_define_ctx;

/* The value of a named parameter, evaluated (default applied); never NULL for
 * a declared parameter. */
BSIM_API const bsim_value *bsim_param(bsim_define_ctx *ctx, const char *name);
/* The context variable `name` as the block's level sees it (an inner
 * level's variable shadowing an outer one), for a define step that finds
 * names inside a text parameter; NULL when no such variable is defined or
 * outside a diagram. A type that calls it sets BSIM_TYPE_READS_CONTEXT. */
BSIM_API const bsim_value *bsim_define_lookup(bsim_define_ctx *ctx,
                                              const char *name);
/* Report a bad parameter; the message gets the block's path and source line.
 * Returns -1 so that a define step can `return bsim_define_error(...)`. */
BSIM_API int bsim_define_error(bsim_define_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* ------------------------------------------------------------------------
 * Scilab code run by blocks
 * ------------------------------------------------------------------------ */

/* A block may run Scilab statements its user wrote (scifunc_block_m runs
 * one piece of code per flag). The interpreter belongs to the diagram
 * layer; blocks reach it only through this service:
 *   - the define step compiles the code with bsim_define_scilab (syntax
 *     and calls of functions the interpreter lacks are bad input, reported
 *     with the block's path) and stores the result in model.script;
 *   - at flag 4 the block makes a workspace (ops->ws_create) for its run;
 *   - at each call it empties the workspace (ws_clear), sets the
 *     variables the code reads (ws_set), runs one part (run) and reads
 *     back the variables the code set (ws_get);
 *   - at flag 5 it frees the workspace.
 * Compiled code never changes, so the runs of one plan share it, also in
 * several threads; a workspace belongs to one block in one run. Values are
 * real matrices, column-major. docs/extending.md has an example. */

/* Scilab's session random generator (rand, rand('normal'), rand('seed')):
 * one per run, shared by every workspace of the run, as Scilab's is shared
 * by every block of a simulation. */
typedef struct bsim_scilab_rand {
  int seed;        /* bsim_urand's state */
  int normal;      /* rand('normal') is in force */
  int have_spare;  /* the second deviate of a normal pair is waiting */
  double spare;    /* ... and this is it */
  int initialised; /* 0 until the run's first workspace sets it from the
                      state its code was compiled in (after the context's
                      own draws) */
} bsim_scilab_rand;

/* The run's session generator, which every workspace of Scilab code
 * (bsim_scilab_ops.ws_create) of this run shares; reset (initialised = 0)
 * at the start of every run. */
BSIM_API bsim_scilab_rand *bsim_block_scilab_rand(bsim_block *blk);

typedef struct bsim_scilab_code bsim_scilab_code;
typedef struct bsim_scilab_ws bsim_scilab_ws; /* opaque */

typedef struct bsim_scilab_ops {
  /* Another reference to c (a copy of the model holding it); c itself. */
  bsim_scilab_code *(*ref)(bsim_scilab_code *c);
  /* Drops a reference; the last frees the code. */
  void (*unref)(bsim_scilab_code *c);
  /* 1 when part k reads variable `name` without assigning it anywhere in
   * the part (Scilab's macrovar "nolocal" test, which Xcos uses to decide
   * a scifunc block's feedthrough); 0 else. */
  int (*reads)(const bsim_scilab_code *c, int part, const char *name);
  /* 1 when a statement of part k assigns `name` (name = ..., name(i) =
   * ..., [a, name] = ..., for name = ...); 0 else. */
  int (*assigns)(const bsim_scilab_code *c, int part, const char *name);
  /* The number of statements of part k; 0 for an empty part, which run
   * leaves alone (so a block need not prepare a call). */
  int (*statements)(const bsim_scilab_code *c, int part);
  /* A workspace for one block in one run, drawing random numbers from
   * *rand (the run's session generator, bsim_block_scilab_rand), which
   * it sets from the code's start state when rand->initialised is 0.
   * NULL when out of memory. */
  bsim_scilab_ws *(*ws_create)(const bsim_scilab_code *c,
                               bsim_scilab_rand *rand);
  void (*ws_free)(bsim_scilab_ws *w);
  /* Forgets every variable: the next part runs as a fresh function call
   * (Scilab's scifunc blocks keep nothing between calls but x and z). */
  void (*ws_clear)(bsim_scilab_ws *w);
  /* Sets `name` to a rows x cols real matrix (a copy of v). 0, or -1 out
   * of memory. */
  int (*ws_set)(bsim_scilab_ws *w, const char *name, int rows, int cols,
                const double *v);
  /* The variable `name`: 0 a real matrix (*v valid until the next call
   * on w; booleans read as 0/1), 1 not defined, 2 another kind of value
   * (a string, a polynomial). */
  int (*ws_get)(bsim_scilab_ws *w, const char *name, int *rows, int *cols,
                const double **v);
  /* Runs part k in w, stopping at the first statement that fails. 0, or
   * -1 with a message ("line 2 (y1=x(3)): index 3 out of bounds ...",
   * NUL-terminated, at most msglen bytes). An empty part does nothing. */
  int (*run)(const bsim_scilab_code *c, int part, bsim_scilab_ws *w, char *msg,
             size_t msglen);
} bsim_scilab_ops;

/* Compiled code: the ops of the interpreter that made it and its private
 * content, as SUNDIALS pairs an N_Vector with its ops. */
struct bsim_scilab_code {
  const bsim_scilab_ops *ops;
  void *content;
  /* Free for the define step that compiled the code (0 until it sets
   * it): what the computational function needs to know of the model and
   * Xcos's layout has no place for (scifunc_block_m: whether its outputs
   * follow activations only). Never changed afterwards. */
  int user;
};

/* Compiles nparts pieces of Scilab statements (parts[k] may be NULL or
 * empty: nothing to run). names[k] names part k in messages ("outputs
 * code"). vars lists the variables the block will set before running a
 * part, so that x(2) is taken for indexing them: a name called with
 * parentheses that is neither one of those, nor assigned in its part, nor
 * one of the interpreter's functions is refused, since running it could
 * only fail (a user function Scilab would load from a .sci file). The
 * code's random numbers start where the diagram's context left Scilab's
 * generator. NULL after bsim_define_error on bad code or out of memory;
 * else one reference, which the caller stores in model.script. */
BSIM_API bsim_scilab_code *bsim_define_scilab(bsim_define_ctx *ctx, int nparts,
                                              const char *const *parts,
                                              const char *const *names,
                                              int nvars,
                                              const char *const *vars);

/* bsim_block_type.flags */
enum {
  /* Event output 1 feeds the block's own event input 1, as inside Xcos's
   * STEP_FUNCTION superblock: the flattener adds that activation link. */
  BSIM_TYPE_SELF_ACTIVATED = 1u << 0,
  /* A superblock port (IN_f, OUT_f): dissolved by flattening, never run. */
  BSIM_TYPE_PORT = 1u << 1,
  /* The computational function implements flag 10 (bsim_block.jac) for
   * every instance whose model does not set no_jacobian. When every block
   * the residual evaluates does, the solver gets an analytic Jacobian. */
  BSIM_TYPE_JACOBIAN = 1u << 2,
  /* Synchronous event routing, as Xcos's blocktype 'l' (IFTHEL_f,
   * ESELECT_f): the block's flag 3 runs right after its flag 1, and each
   * event output it fires with delay 0 is served at once, inside the
   * activation that ran the block: the blocks it activates compute their
   * outputs there (before the blocks of the activation that read them),
   * and their updates follow the activation's own. Such an output never
   * goes through the calendar. A positive delay is an ordinary event. */
  BSIM_TYPE_SYNCHRONOUS = 1u << 3,
  /* Event union (CLKSOM_f, CLKSOMV_f): never run; an activation of any of
   * its event inputs is an activation of its event output 1, merged at
   * compile time as Xcos removes these blocks, so a block reached through
   * several inputs of one activation runs once. */
  BSIM_TYPE_EVENT_UNION = 1u << 4,
  /* A tag block (GOTO, FROM, GotoTagVisibility and, with
   * BSIM_TYPE_EVENT_TAG too, their CLK* event forms): never run; the
   * flattener pairs FROMs with GOTOs by their string parameter 'tag' and
   * the visibility in ipar[0] (1 local, 2 scoped, 3 global) and joins what
   * feeds a GOTO to what its FROMs feed. One data (event) input makes a
   * GOTO, one output a FROM, no port a visibility block. */
  BSIM_TYPE_TAG = 1u << 5,
  BSIM_TYPE_EVENT_TAG = 1u << 6,
  /* A sample clock (SampleCLK), rpar = [period; offset]: the flattener
   * merges all of a diagram's sample clocks into one M_freq block, as
   * Xcos's compiler does, so that clocks due at one date give one
   * activation. */
  BSIM_TYPE_SAMPLE_CLOCK = 1u << 7,
  /* The define step reads context variables by name through
   * bsim_define_lookup (EXPRESSION: the names inside its expression), so
   * its result can change while the parameter values stay the same: a
   * derived run (bsim_sim_derive) always runs it again. */
  BSIM_TYPE_READS_CONTEXT = 1u << 8,
  /* Linear with constant coefficients while the integrator runs: with its
   * modes frozen, the outputs and state derivatives are affine functions of
   * the inputs and states whose coefficients come from parameters only
   * (never from t, z or the work memory). Terms that depend on t alone are
   * allowed. When an event changes only inputs of such blocks, the jump of
   * every derivative of the solution follows exactly from their Jacobian,
   * and the scheduler can carry the integrator's history across the event
   * instead of restarting it (docs/scheduler.md). For an acausal component:
   * with its modes frozen, its residuals are affine functions of its
   * unknowns, their derivatives and its inputs, with coefficients from
   * parameters only (a resistor, a capacitor, a switch given its mode):
   * the Newton matrix is then formed once per mode of the diagram. An
   * instance without states (nx = nz = 0) gets no flag 2 at its
   * activations: there is nothing to update. */
  BSIM_TYPE_LINEAR = 1u << 9,
  /* The outputs depend on the times at which the integrator evaluated the
   * diagram, not only on the current values (DERIV: a difference quotient
   * over its last two evaluations). Such a block, active while
   * integrating, keeps every event a restart, as in Scilab: the short
   * first steps after it are what makes the quotient accurate there, and
   * a history carried across would keep the step long (ABI 5). */
  BSIM_TYPE_STEP_MEMORY = 1u << 10
};

typedef struct bsim_block_type {
  const char *name;     /* Xcos interface name, e.g. "CLSS" */
  const char *sim_name; /* Xcos simulation function, e.g. "csslti4" */
  const char *summary;  /* one line */
  const char *doc;      /* full description: semantics, ports, layout */
  const bsim_param_spec *params;
  int nparams;
  /* Fill the model from the named parameters. 0 on success, -1 on error
   * (after bsim_define_error). */
  int (*define)(bsim_define_ctx *ctx, bsim_model *m);
  void (*fn)(bsim_block *blk, int flag);
  unsigned flags; /* BSIM_TYPE_* */
  /* Xcos import (fields appended here keep older descriptors valid): what
   * each entry of the block's Xcos `exprs` (its dialog fields, in dialog
   * order) sets, comma-separated. An entry is
   *   NAME     one of `params`: the field's text becomes that parameter's
   *            expression, evaluated in the diagram's context (a numeric
   *            field as "[" text "]", as Xcos's dialogs evaluate it, so
   *            "1 3 5" is a vector; a BSIM_PARAM_STRING one as written);
   *   NAME(T)  the same through a conversion: T with each '$' replaced by
   *            the field, e.g. "inherit(1-$)" when the dialog asks the
   *            opposite question;
   *   -        a field blocksim ignores (display settings that change
   *            nothing computed);
   *   =V       a field that must hold V (e.g. "=1" for a data type field
   *            where blocksim computes in doubles only); anything else is
   *            bad input naming the block;
   *   *        (last) this and any further fields are ignored.
   * Entries are separated by commas outside parentheses, so a conversion
   * may call functions: "in(size($,'*'))". Older dialogs of a block may
   * have had other fields: alternatives separated by '|' are tried, the
   * one with as many entries as the file has fields wins, else the first
   * with more (the missing trailing parameters keep their defaults).
   * A dialog Xcos stores as list(fields, texts) (scifunc_block_m: its
   * fields, then one text of code per flag) is mapped by "FIELDS;TEXTS":
   * FIELDS as above, TEXTS naming, comma-separated, the (string)
   * parameter each text sets, its lines joined by newlines. "" = a block
   * without dialog fields. NULL: the type has no mapping; an .xcos reader
   * then falls back to the model data stored in the file when it names a
   * known simulation function. docs/xcos.md documents all of this for
   * users. */
  const char *xcos_exprs;
} bsim_block_type;

/* Types are registered in, and looked up through, a bsim_library
 * (blocksim/library.h). */

#ifdef __cplusplus
}
#endif
#endif
