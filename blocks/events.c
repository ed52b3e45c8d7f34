/* (placeholder: the events family is being written) */
#include "blocks/std.h"

const bsim_block_type *const bsim_event_types[] = {NULL};
const int bsim_event_ntypes = 0;
