/*
 * The built-in engines (solvers/registry.c). The ops table itself is public
 * (blocksim/engine.h), since plugins register engines too; the scheduler
 * looks a name up among a library's plugin engines and these.
 */
#ifndef BSIM_ENGINE_H
#define BSIM_ENGINE_H

#include "blocksim/engine.h"

/* NULL or "" gives the default engine (the first). */
const bsim_engine_type *bsim_engine_find(const char *name);
/* For a diagram with nothing to integrate (solvers/none.c); not listed. */
extern const bsim_engine_type bsim_engine_none;
/* Iterate; NULL past the end. */
const bsim_engine_type *bsim_engine_at(size_t i);

#endif
