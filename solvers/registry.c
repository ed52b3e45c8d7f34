/*
 * The list of engines the library knows, looked up by name. Each engine is a
 * const descriptor defined in its own file as bsim_engine_<id>; adding one
 * (cvode, a GSL stepper) is writing that file and adding one X(...) line
 * below. The first entry is the default engine.
 */
#include <stddef.h>
#include <string.h>

#include "solvers/engine.h"

#define BSIM_ENGINE_LIST(X)                                                    \
  X(ida) X(cvode_bdf) X(cvode_adams) X(rk45) X(rk8pd) X(msbdf) X(rk4) X(euler)

#define BSIM_DECLARE_ENGINE(id) extern const bsim_engine_type bsim_engine_##id;
BSIM_ENGINE_LIST(BSIM_DECLARE_ENGINE)
#undef BSIM_DECLARE_ENGINE

#define BSIM_LIST_ENGINE(id) &bsim_engine_##id,
static const bsim_engine_type *const engines[] = {
    BSIM_ENGINE_LIST(BSIM_LIST_ENGINE)};
#undef BSIM_LIST_ENGINE

const bsim_engine_type *bsim_engine_at(size_t i) {
  return i < sizeof engines / sizeof engines[0] ? engines[i] : NULL;
}

/* NULL or "" selects the default engine. */
const bsim_engine_type *bsim_engine_find(const char *name) {
  if (!name || !*name) return engines[0];
  for (size_t i = 0; i < sizeof engines / sizeof engines[0]; i++)
    if (strcmp(engines[i]->name, name) == 0) return engines[i];
  return NULL;
}
