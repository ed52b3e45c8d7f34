/*
 * Linked into every module's shared object (never into the libraries): the
 * version of blocksim the module was built with, which the loader
 * (dynamic.c) checks, since a module calls into its library's internals
 * and must come from the same build.
 */
#include "modules/version.h"
#include "modules/module.h"

BSIM_MODULE_EXPORT const char bsim_module_version[] = BSIM_MODULE_VERSION;
