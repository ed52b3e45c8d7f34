/* (placeholder: the zcross family is being written) */
#include "blocks/std.h"

const bsim_block_type *const bsim_zc_types[] = {NULL};
const int bsim_zc_ntypes = 0;
