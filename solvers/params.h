/*
 * Engine parameters as name=value text, checked against an engine's
 * bsim_engine_param table. Shared so that every engine (ida, cvode, GSL,
 * fixed-step) rejects a typo with the same kind of message listing what is
 * valid, instead of each engine writing its own parser.
 *
 * Internal to solvers/: not part of the public API.
 */
#ifndef BSIM_SOLVERS_PARAMS_H
#define BSIM_SOLVERS_PARAMS_H

#include <stddef.h>

#include "solvers/engine.h"

/* One resolved parameter, in the order of the engine's table. */
typedef struct bsim_param_value {
  const char *text; /* as given, or the table's default */
  int given;        /* 1 if the settings named it */
  long i;           /* "int" */
  double r;         /* "real" (also set for "int") */
  int choice;       /* "choice": index into the '|' separated choices */
} bsim_param_value;

/* Fill out[0..t->nparams-1] from the defaults, then from s's name=value pairs.
 * Unknown names, repeated names, malformed numbers and unknown choices give
 * -1 with a message naming what is valid; 0 on success. */
int bsim_engine_params_resolve(const bsim_engine_type *t,
                               const bsim_engine_settings *s,
                               bsim_param_value *out, char *msg, size_t msglen);

/* The same checks without keeping the values: for validating settings
 * before an engine is created (bad input is then reported before the run
 * starts). 0, or -1 with a message. */
int bsim_engine_params_check(const bsim_engine_type *t,
                             const bsim_engine_settings *s, char *msg,
                             size_t msglen);

/* Range check for numeric parameter idx: lo <= value <= hi, else -1 with a
 * message. */
int bsim_engine_param_range(const bsim_engine_type *t, int idx,
                            const bsim_param_value *v, double lo, double hi,
                            char *msg, size_t msglen);

#endif
