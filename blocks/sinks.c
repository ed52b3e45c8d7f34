/* (placeholder: the sinks family is being written) */
#include "blocks/std.h"

const bsim_block_type *const bsim_sink_types[] = {NULL};
const int bsim_sink_ntypes = 0;
