/*
 * Xcos's scicos.h, for C blocks that include it: its functions come with
 * blocksim's scicos_block4.h.
 */
#include "blocksim/scicos_block4.h"
