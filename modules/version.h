/*
 * The version a module must carry to be loaded (dynamic.c, version.c):
 * the library's version and block ABI. Modules are installed with their
 * library; this catches one left over from another installation.
 */
#ifndef BSIM_MODULE_VERSION_H
#define BSIM_MODULE_VERSION_H

#include "blocksim/version.h"

#define BSIM_MODULE_STR_(x) #x
#define BSIM_MODULE_STR(x) BSIM_MODULE_STR_(x)
#define BSIM_MODULE_VERSION                                                    \
  BSIM_VERSION_STRING " abi " BSIM_MODULE_STR(BSIM_ABI_VERSION)

#endif
