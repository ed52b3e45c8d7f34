/*
 * The running library's version, which a program or plugin may compare
 * with the headers it was compiled against (blocksim/version.h).
 */
#include "blocksim/version.h"

const char *bsim_version(void) {
  return BSIM_VERSION_STRING;
}

int bsim_abi_version(void) {
  return BSIM_ABI_VERSION;
}
