/*
 * Private to blocks/: the parameters of type-4 types (Xcos's model
 * fields) as a list both the generic types (scicos4_define.c) and the C
 * blocks carrying their source (cblock_type.c) put in their tables, and
 * what the type-1 adapter (scicos1.c) shares with the type-4 one.
 */
#ifndef BSIM_BLOCKS_SCICOS4_H
#define BSIM_BLOCKS_SCICOS4_H

#include "blocksim/scicos_block4.h"

#define BSIM_SCICOS4_PARAM_SPECS                                               \
  {"rpar", BSIM_PARAM_REAL, "[]", "real parameters (rpar), any shape"},        \
      {"ipar", BSIM_PARAM_REAL, "[]", "integer parameters (ipar), integers"},  \
      {"opar", BSIM_PARAM_REAL, "[]",                                          \
       "one real object parameter (opar(1)); [] for none"},                    \
      {"state", BSIM_PARAM_REAL, "[]", "initial continuous state (x0)"},       \
      {"dstate", BSIM_PARAM_REAL, "[]", "initial discrete state (z0)"},        \
      {"in", BSIM_PARAM_REAL, "[]",                                            \
       "rows of each input port; -k: a size shared with other ports"},         \
      {"in2", BSIM_PARAM_REAL, "[]",                                           \
       "columns of each input port; [] = all 1"},                              \
      {"out", BSIM_PARAM_REAL, "[]", "rows of each output port"},              \
      {"out2", BSIM_PARAM_REAL, "[]",                                          \
       "columns of each output port; [] = all 1"},                             \
      {"evtin", BSIM_PARAM_REAL, "[]", "one entry (1) per event input"},       \
      {"evtout", BSIM_PARAM_REAL, "[]", "one entry (1) per event output"},     \
      {"firing", BSIM_PARAM_REAL, "[]",                                        \
       "initial firing time of each event output, < 0 none; [] = none"},       \
      {"dep_ut", BSIM_PARAM_REAL, "[1 0]",                                     \
       "[feedthrough, always active] (Xcos's dep_ut), each 0 or 1"},           \
      {"nzcross", BSIM_PARAM_REAL, "0", "number of zero-crossing surfaces"},   \
      {"nmode", BSIM_PARAM_REAL, "0", "number of modes"},

/* Run fn with Xcos's services bound to blk: a type-4 function (kind 4,
 * kind 10004 implicit) or a type-1 one (kind 1, through
 * bsim_scicos1_invoke). scicos4.c. */
void bsim_scicos_run(bsim_block *blk, int flag, voidg fn, int kind);

/* One call of the type-1 function b->funpt from the Xcos view b: the flag
 * after the call (< 0: the function's error). scicos1.c. */
int bsim_scicos1_invoke(scicos_block *b, int flag);

/* Whether blk fits a type-1 function: 0, or -1 with the reason in buf. */
int bsim_scicos1_check(const bsim_block *blk, char *buf, size_t len);

#endif
