/* (placeholder: the discrete family is being written) */
#include "blocks/std.h"

const bsim_block_type *const bsim_discrete_types[] = {NULL};
const int bsim_discrete_ntypes = 0;
