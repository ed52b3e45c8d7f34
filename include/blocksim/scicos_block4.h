/*
 * Xcos's type-4 block interface, written for blocksim, so that the C file
 * of an existing Xcos block (a "computational function" `void f(scicos_block
 * *block, int flag)`) compiles unchanged and runs as a blocksim block type.
 *
 * It gives the scicos_block structure with Xcos's field names, the
 * accessor macros (GetNin, GetRealInPortPtrs, GetRparPtrs, GetState, ...)
 * and the simulator services blocks call (get_phase_simulation,
 * get_scicos_time, do_cold_restart, set_block_error, scicos_malloc, ...).
 * The services take no block argument in Xcos; blocksim's adapter tells
 * them which block is running through a thread-local pointer set for the
 * duration of each call, so blocks in several threads stay apart.
 *
 * Data are real (double) matrices only, as everywhere in blocksim: port,
 * opar types are SCSREAL_N; integer-typed ports and object states are not
 * available. docs/extending.md ("Porting an Xcos C block") has the rest.
 *
 * Registering a function as a block type (in a plugin's own file, so that
 * the Xcos file stays as it is):
 *
 *     #include <blocksim/scicos_block4.h>
 *     void my_block(scicos_block *block, int flag);   // the Xcos code
 *     BSIM_SCICOS4_TYPE(my_block, "What my_block computes.");
 *     ... bsim_library_add(lib, (const bsim_block_type *[]){
 *                               &BSIM_SCICOS4(my_block)}, 1, err);
 *
 * The type is named after the function (type="my_block" in a native
 * diagram; model.sim = "my_block" in an .xcos file) and takes the model
 * data as parameters named after Xcos's model fields (rpar, ipar, in,
 * out, state, dstate, ...; `blocksim blocks my_block` lists them).
 */
#ifndef BLOCKSIM_SCICOS_BLOCK4_H
#define BLOCKSIM_SCICOS_BLOCK4_H

#include "export.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "blocksim/plugin.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef NULL
#define NULL 0
#endif

typedef void (*voidg)(void);

/* The run-time view of one block, with Xcos's field names. */
typedef struct {
  int nevprt;   /* activation: bit i = event input i+1; -1 = own root */
  voidg funpt;  /* the computational function */
  int type;     /* 4; 10004 implicit; 1 for a type-1 function */
  void *scsptr; /* unused */
  int nz;       /* discrete state */
  double *z;
  int noz;   /* object states: always 0 in blocksim */
  int *ozsz; /* NULL */
  int *oztyp;
  void **ozptr;
  int nx; /* continuous state */
  double *x;
  double *xd;  /* derivative: out for explicit blocks, in (x') for implicit */
  double *res; /* residuals of implicit blocks */
  int *xprop;  /* per state: 1 differential, -1 algebraic */
  int nin;     /* input ports */
  int *insz;   /* rows[nin], cols[nin], types[nin] */
  void **inptr;
  int nout;   /* output ports */
  int *outsz; /* rows[nout], cols[nout], types[nout] */
  void **outptr;
  int nevout;    /* event outputs */
  double *evout; /* flag 3: delay of each, < 0 for none */
  int nrpar;
  double *rpar;
  int nipar;
  int *ipar;
  int nopar;    /* object parameters (real matrices) */
  int *oparsz;  /* rows[nopar], cols[nopar] */
  int *opartyp; /* types[nopar] */
  void **oparptr;
  int ng; /* zero-crossing surfaces */
  double *g;
  int ztyp;    /* 1 when the block may have surfaces */
  int *jroot;  /* which surfaces fired: +1 rising, -1 falling, 0 */
  char *label; /* the block's path */
  void **work; /* the block's own pointer: *work is its memory */
  int nmode;
  int *mode;
  char *uid; /* the block's path */
} scicos_block;

/* Flags, as Xcos names them (the same numbers as BSIM_FLAG_*). */
typedef enum {
  CosError = -5,
  DerivativeState = 0,
  OutputUpdate = 1,
  StateUpdate = 2,
  OutputEventTiming = 3,
  Initialization = 4,
  Ending = 5,
  ReInitialization = 6,
  ContinuousPropertiesUpdate = 7,
  ZeroCrossing = 9,
  Jacobian = 10
} scicos_flag;

/* Data type numbers and their C types. */
typedef enum {
  SCSREAL_N = 10,
  SCSCOMPLEX_N = 11,
  SCSINT_N = 80,
  SCSINT8_N = 81,
  SCSINT16_N = 82,
  SCSINT32_N = 84,
  SCSUINT_N = 800,
  SCSUINT8_N = 811,
  SCSUINT16_N = 812,
  SCSUINT32_N = 814,
  SCSUNKNOW_N = -1
} scicos_datatype_number;

#define SCSREAL_COP double
#define SCSCOMPLEX_COP double
#define SCSINT_COP int
#define SCSINT8_COP char
#define SCSINT16_COP short
#define SCSINT32_COP int
#define SCSUINT_COP unsigned int
#define SCSUINT8_COP unsigned char
#define SCSUINT16_COP unsigned short
#define SCSUINT32_COP unsigned int
#define SCSUNKNOW_COP double

/* ---- accessors (ports and parameters counted from 1) ------------------- */

#define GetNin(blk) ((blk)->nin)
#define GetNout(blk) ((blk)->nout)
#define GetInPortPtrs(blk, x) ((blk)->inptr[(x)-1])
#define GetOutPortPtrs(blk, x) ((blk)->outptr[(x)-1])
#define GetInPortRows(blk, x) ((blk)->insz[(x)-1])
#define GetInPortCols(blk, x) ((blk)->insz[(blk)->nin + (x)-1])
#define GetInPortSize(blk, x, y) ((blk)->insz[((y)-1) * (blk)->nin + (x)-1])
#define GetInType(blk, x) ((blk)->insz[2 * (blk)->nin + (x)-1])
#define GetOutPortRows(blk, x) ((blk)->outsz[(x)-1])
#define GetOutPortCols(blk, x) ((blk)->outsz[(blk)->nout + (x)-1])
#define GetOutPortSize(blk, x, y) ((blk)->outsz[((y)-1) * (blk)->nout + (x)-1])
#define GetOutType(blk, x) ((blk)->outsz[2 * (blk)->nout + (x)-1])
#define GetRealInPortPtrs(blk, x) ((SCSREAL_COP *)GetInPortPtrs(blk, x))
#define GetRealOutPortPtrs(blk, x) ((SCSREAL_COP *)GetOutPortPtrs(blk, x))
/* Complex data: the imaginary part follows the real one. */
#define GetImagInPortPtrs(blk, x)                                              \
  (GetRealInPortPtrs(blk, x) + GetInPortRows(blk, x) * GetInPortCols(blk, x))
#define GetImagOutPortPtrs(blk, x)                                             \
  (GetRealOutPortPtrs(blk, x) + GetOutPortRows(blk, x) * GetOutPortCols(blk, x))
#define Getint8InPortPtrs(blk, x) ((SCSINT8_COP *)GetInPortPtrs(blk, x))
#define Getint16InPortPtrs(blk, x) ((SCSINT16_COP *)GetInPortPtrs(blk, x))
#define Getint32InPortPtrs(blk, x) ((SCSINT32_COP *)GetInPortPtrs(blk, x))
#define Getuint8InPortPtrs(blk, x) ((SCSUINT8_COP *)GetInPortPtrs(blk, x))
#define Getuint16InPortPtrs(blk, x) ((SCSUINT16_COP *)GetInPortPtrs(blk, x))
#define Getuint32InPortPtrs(blk, x) ((SCSUINT32_COP *)GetInPortPtrs(blk, x))
#define Getint8OutPortPtrs(blk, x) ((SCSINT8_COP *)GetOutPortPtrs(blk, x))
#define Getint16OutPortPtrs(blk, x) ((SCSINT16_COP *)GetOutPortPtrs(blk, x))
#define Getint32OutPortPtrs(blk, x) ((SCSINT32_COP *)GetOutPortPtrs(blk, x))
#define Getuint8OutPortPtrs(blk, x) ((SCSUINT8_COP *)GetOutPortPtrs(blk, x))
#define Getuint16OutPortPtrs(blk, x) ((SCSUINT16_COP *)GetOutPortPtrs(blk, x))
#define Getuint32OutPortPtrs(blk, x) ((SCSUINT32_COP *)GetOutPortPtrs(blk, x))

#define GetNipar(blk) ((blk)->nipar)
#define GetIparPtrs(blk) ((blk)->ipar)
#define GetNrpar(blk) ((blk)->nrpar)
#define GetRparPtrs(blk) ((blk)->rpar)
#define GetWorkPtrs(blk) (*((blk)->work))
#define GetNstate(blk) ((blk)->nx)
#define GetState(blk) ((blk)->x)
#define GetDerState(blk) ((blk)->xd)
#define GetResState(blk) ((blk)->res)
#define GetXpropPtrs(blk) ((blk)->xprop)
#define GetNdstate(blk) ((blk)->nz)
#define GetDstate(blk) ((blk)->z)
#define GetNevIn(blk) ((blk)->nevprt)
#define GetNevOut(blk) ((blk)->nevout)
#define GetNev(blk) ((blk)->nevout) /* alias of GetNevOut */
#define GetNevOutPtrs(blk) ((blk)->evout)

#define GetNopar(blk) ((blk)->nopar)
#define GetOparType(blk, x) ((blk)->opartyp[(x)-1])
#define GetOparSize(blk, x, y) ((blk)->oparsz[((y)-1) * (blk)->nopar + (x)-1])
#define GetOparPtrs(blk, x) ((blk)->oparptr[(x)-1])
#define GetRealOparPtrs(blk, x) ((SCSREAL_COP *)GetOparPtrs(blk, x))
#define GetImagOparPtrs(blk, x)                                                \
  (GetRealOparPtrs(blk, x) + GetOparSize(blk, x, 1) * GetOparSize(blk, x, 2))
#define Getint8OparPtrs(blk, x) ((SCSINT8_COP *)GetOparPtrs(blk, x))
#define Getint16OparPtrs(blk, x) ((SCSINT16_COP *)GetOparPtrs(blk, x))
#define Getint32OparPtrs(blk, x) ((SCSINT32_COP *)GetOparPtrs(blk, x))
#define Getuint8OparPtrs(blk, x) ((SCSUINT8_COP *)GetOparPtrs(blk, x))
#define Getuint16OparPtrs(blk, x) ((SCSUINT16_COP *)GetOparPtrs(blk, x))
#define Getuint32OparPtrs(blk, x) ((SCSUINT32_COP *)GetOparPtrs(blk, x))

#define GetNoz(blk) ((blk)->noz)
#define GetOzType(blk, x) ((blk)->oztyp[(x)-1])
#define GetOzSize(blk, x, y) ((blk)->ozsz[((y)-1) * (blk)->noz + (x)-1])
#define GetOzPtrs(blk, x) ((blk)->ozptr[(x)-1])
#define GetRealOzPtrs(blk, x) ((SCSREAL_COP *)GetOzPtrs(blk, x))

/* Every blocksim datum is a double. */
#define GetSizeOfIn(blk, x) sizeof(SCSREAL_COP)
#define GetSizeOfOut(blk, x) sizeof(SCSREAL_COP)
#define GetSizeOfOpar(blk, x) sizeof(SCSREAL_COP)

#define GetNg(blk) ((blk)->ng)
#define GetGPtrs(blk) ((blk)->g)
#define GetJrootPtrs(blk) ((blk)->jroot)
#define GetNmode(blk) ((blk)->nmode)
#define GetModePtrs(blk) ((blk)->mode)
#define GetLabelPtrs(blk) ((blk)->label)

/* ---- simulator services ------------------------------------------------ */

/* Xcos's names, mapped by object-like macros onto blocksim's functions, so
 * that a block's own declarations of them (as in Scilab's scicos.h)
 * compile as well. Each acts on the block being called in this thread. */
#define get_phase_simulation bsim_scicos4_phase
#define get_scicos_time bsim_scicos4_time
#define do_cold_restart bsim_scicos4_cold_restart
#define set_block_error bsim_scicos4_set_error
#define get_block_error bsim_scicos4_get_error
#define set_pointer_xproperty bsim_scicos4_set_xproperty
#define get_pointer_xproperty bsim_scicos4_get_xproperty
#define get_npointer_xproperty bsim_scicos4_nxproperty
#define end_scicos_sim bsim_scicos4_end
#define Coserror bsim_scicos4_coserror
#define sciprint bsim_scicos4_print
#define scicos_malloc bsim_scicos4_malloc
#define scicos_free bsim_scicos4_free

/* 1 while events are handled (modes may change), 2 while integrating. */
BSIM_API int bsim_scicos4_phase(void);
BSIM_API double bsim_scicos4_time(void);
/* Ask for a cold restart of the integrator after the current event. */
BSIM_API void bsim_scicos4_cold_restart(void);
/* Report a failure after the call: -1 input out of the block's domain,
 * -2 singularity (both recoverable while integrating), -3 internal error,
 * -16 out of memory, other values a generic failure. */
BSIM_API void bsim_scicos4_set_error(int err);
BSIM_API int bsim_scicos4_get_error(void);
/* Implicit blocks: where the property of each state (1 differential,
 * -1 algebraic) is kept; blocksim copies it into the block's xprop. */
BSIM_API void bsim_scicos4_set_xproperty(int *pointer);
BSIM_API int *bsim_scicos4_get_xproperty(void);
BSIM_API int bsim_scicos4_nxproperty(void);
/* End the simulation (successfully) after the current activation. */
BSIM_API void bsim_scicos4_end(void);
/* Fail with a message (printf format), as Xcos's Coserror. */
BSIM_API void bsim_scicos4_coserror(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
/* A line for the user: kept with the run (bsim_sim_message_at), printed by
 * the blocksim command on stderr. */
BSIM_API void bsim_scicos4_print(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
BSIM_API void *bsim_scicos4_malloc(size_t size);
BSIM_API void bsim_scicos4_free(void *p);

/* ---- registration ------------------------------------------------------ */

typedef void (*bsim_scicos4_fn)(scicos_block *block, int flag);

/* Run a type-4 function as the computational function of blk. */
BSIM_API void bsim_scicos4_call(bsim_block *blk, int flag, bsim_scicos4_fn fn);
/* Likewise for an implicit type-4 function (Xcos's 10004/12004: flag 0
 * computes residuals from x and x'). */
BSIM_API void bsim_scicos4_call_implicit(bsim_block *blk, int flag,
                                         bsim_scicos4_fn fn);

/* The generic parameters of type-4 types (Xcos's model fields) and their
 * define step, shared by every type BSIM_SCICOS4_TYPE declares. */
#define BSIM_SCICOS4_NPARAMS 15
BSIM_API extern const bsim_param_spec bsim_scicos4_params[BSIM_SCICOS4_NPARAMS];
BSIM_API int bsim_scicos4_define(bsim_define_ctx *ctx, bsim_model *m);
BSIM_API int bsim_scicos4_define_implicit(bsim_define_ctx *ctx, bsim_model *m);
BSIM_API extern const char bsim_scicos4_doc[];

/* The descriptor BSIM_SCICOS4_TYPE(fn, ...) defines. */
#define BSIM_SCICOS4(fn) bsim_scicos4_type_##fn

/* Declare the block type of function fn (file scope, after fn's
 * prototype). BSIM_SCICOS4_IMPLICIT_TYPE for an implicit function. */
#define BSIM_SCICOS4_TYPE(fn, summary)                                         \
  BSIM_SCICOS4_TYPE_(fn, summary, bsim_scicos4_call, bsim_scicos4_define)
#define BSIM_SCICOS4_IMPLICIT_TYPE(fn, summary)                                \
  BSIM_SCICOS4_TYPE_(fn, summary, bsim_scicos4_call_implicit,                  \
                     bsim_scicos4_define_implicit)
#define BSIM_SCICOS4_TYPE_(fn, summary, call, define)                          \
  static void bsim_scicos4_run_##fn(bsim_block *blk, int flag) {               \
    call(blk, flag, fn);                                                       \
  }                                                                            \
  const bsim_block_type bsim_scicos4_type_##fn = {#fn,                         \
                                                  #fn,                         \
                                                  summary,                     \
                                                  bsim_scicos4_doc,            \
                                                  bsim_scicos4_params,         \
                                                  BSIM_SCICOS4_NPARAMS,        \
                                                  define,                      \
                                                  bsim_scicos4_run_##fn,       \
                                                  0,                           \
                                                  NULL}

#ifdef __cplusplus
}
#endif
#endif
