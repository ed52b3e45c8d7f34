/*
 * Lets an Xcos block's `#include "scicos_block4.h"` find blocksim's
 * version: compile Xcos C files with -I<include>/blocksim/scicos (the
 * folder holds only Xcos's header names, so nothing else is shadowed).
 */
#include "blocksim/scicos_block4.h"
