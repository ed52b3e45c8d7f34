/*
 * The context a block type's define step sees: its evaluated parameters and
 * where to report a bad one. Built by the flattener for every leaf block;
 * tests build one directly to check a type's run-time layout.
 */
#ifndef BSIM_DEFINE_H
#define BSIM_DEFINE_H

#include "blocksim/blocksim.h"

struct bsim_define_ctx {
  const char *path; /* block path for messages */
  const char *file; /* source file, may be NULL */
  int line;         /* source line of the <block>, 0 if unknown */
  const bsim_block_type *type;
  const bsim_value *values; /* type->nparams entries, in spec order */
  bsim_error *err;
  /* the block's context, for bsim_define_lookup; NULL: none (tests) */
  const struct bsim_scope *scope;
};

/* Run type->define on m (zeroed first). 0, or -1 with err set
 * (BSIM_ERR_INPUT). */
int bsim_define_run(bsim_define_ctx *ctx, bsim_model *m);

#endif
