/*
 * What the two SUNDIALS engines (solvers/ida.c, solvers/cvode.c) do alike:
 * capturing SUNDIALS' messages, building failure messages, keeping the
 * caller's stop time across SUNDIALS 6.4's quirks, banking statistics
 * across restarts, and the advance loop around one IDASolve/CVode call.
 * Each engine embeds a bsim_sun and gives a table of the few calls that
 * differ between the two packages.
 *
 * Internal to solvers/: not part of the public API.
 */
#ifndef BSIM_SOLVERS_SUNDIALS_COMMON_H
#define BSIM_SOLVERS_SUNDIALS_COMMON_H

#include <stddef.h>

#include <sundials/sundials_nvector.h>
#include <sundials/sundials_types.h>

#include "solvers/engine.h"

/* The package-specific calls; mem is the CVODE or IDA memory. */
typedef struct bsim_sun_ops {
  const char *module; /* named in a message when SUNDIALS names no function */
  int warning;        /* the code of a warning, which is not captured */
  int mem_fail;       /* the package's out-of-memory flag */
  char *(*flag_name)(long int flag); /* malloc'ed by SUNDIALS */
  int (*set_stop_time)(void *mem, realtype tstop);
  int (*current_time)(void *mem, realtype *tcur);
  int (*dky)(void *mem, realtype t, int k, N_Vector dky);
  int (*root_info)(void *mem, int *rootsfound);
  int (*root_direction)(void *mem, int *rootdir);
  /* The hint that ends a failure message for flag at time t. */
  void (*hint)(int flag, double t, char *buf, size_t len);
  /* The package's counters since its last (re)init. */
  void (*counters)(const bsim_engine *e, bsim_engine_stats *st);
  /* One solve towards tout: a flag < 0, or the bsim_adv_status of the
   * package's success flag. */
  int (*solve)(bsim_engine *e, double tout, double *tret);
  /* Hand out y and y' at t (either may be NULL). */
  void (*store)(bsim_engine *e, double t, double *y, double *yp);
} bsim_sun_ops;

typedef struct bsim_sun {
  const bsim_sun_ops *ops;
  const char *name;  /* engine name, for messages */
  bsim_engine *self; /* the engine this is part of, for ops */
  void *mem;         /* a copy of the engine's CVODE/IDA memory pointer */
  double t;          /* time of the values last handed out */
  int stepped;       /* a solve was made since the last (re)init */
  int tstop_set;     /* the caller's stop time is pending */
  double tstop;
  int own_tstop; /* SUNDIALS itself holds a finite stop time */
  bsim_adv_status last_adv;
  bsim_engine_stats before; /* counters up to the last reinit */
  int banked;       /* SUNDIALS' counters are in before and not yet reset */
  char sunmsg[512]; /* last error message from SUNDIALS */
  char err[1024];
} bsim_sun;

/* In a create function: the text of the call in `step`, its flag in
 * `flag`, and on to `fail` when it failed. */
#define BSIM_SUN_TRY(call)                                                     \
  do {                                                                         \
    step = #call;                                                              \
    if ((flag = (call)) < 0) goto fail;                                        \
  } while (0)

/* Fill s for a new engine at t0; s->mem is set once the package made it. */
void bsim_sun_init(bsim_sun *s, const bsim_sun_ops *ops, const char *name,
                   bsim_engine *self, double t0);

/* The error handler to give SUNDIALS, with the bsim_sun as its data. */
void bsim_sun_capture(int code, const char *module, const char *function,
                      char *msg, void *ud);

/* s->err: "<name>: <op> failed at t=... with <flag> (<SUNDIALS' message>);
 * hint: ...". */
void bsim_sun_fail(bsim_sun *s, const char *op, int flag, double t);
/* The same for a failure while creating, into msg. */
void bsim_sun_setup_failed(const bsim_sun *s, const char *step, int flag,
                           char *msg, size_t msglen);

/* n doubles from src (zeros when NULL) into v, and from v into dst (nothing
 * when NULL). */
void bsim_sun_load(N_Vector v, const double *src, int n);
void bsim_sun_store(N_Vector v, double *dst, int n);

/* Give SUNDIALS the watched directions of ng roots (gdir may be NULL): a
 * flag, < 0 on failure. */
int bsim_sun_root_direction(bsim_sun *s, const int *gdir, int ng);

/* Totals since create (without what the engine counts itself). */
void bsim_sun_stats(const bsim_sun *s, bsim_engine_stats *st);

/* Around XReInit: bank the counters and clear the message before it, set
 * the times and the stop time again after it succeeded at t0. */
void bsim_sun_before_restart(bsim_sun *s);
int bsim_sun_restarted(bsim_sun *s, double t0);

/* The engine operations shared by both packages. */
int bsim_sun_set_stop_time(bsim_sun *s, double tstop);
bsim_adv_status bsim_sun_advance(bsim_sun *s, double tout, double *tret,
                                 double *y, double *yp);
int bsim_sun_interpolate(bsim_sun *s, double t, int k, N_Vector tmp,
                         double *dky, int n);
int bsim_sun_roots_found(bsim_sun *s, int ng, int *dirs);

#endif
