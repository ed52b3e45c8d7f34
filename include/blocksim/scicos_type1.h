/*
 * Xcos's older "type 1" computational functions (model.sim = list(name, 1)
 * or 2001 for C; what Xcos's c_block writes), so that such a function runs
 * unchanged as a blocksim block type. A type-1 function receives every
 * datum as a pointer, in this order:
 *
 *   flag, nevprt, t, xd, x, nx, z, nz, tvec, ntvec, rpar, nrpar, ipar,
 *   nipar, u1, nu1, ..., un, nun, y1, ny1, ..., ym, nym [, g, ng]
 *
 * (ints: flag nevprt nx nz ntvec nrpar nipar ipar nu ny ng; the rest
 * double). nu/ny are each port's number of entries; g and ng come last
 * when the block has zero-crossing surfaces. At flag 3 the function writes
 * in tvec the absolute time of each event output (t + delay; left alone:
 * no event). It reports an error by setting *flag < 0 (-1: input out of
 * its domain, -2: singularity, other: failure), or by set_block_error.
 * Xcos's services of scicos_block4.h (get_scicos_time, sciprint, ...) act
 * on the block being called, as for type-4 functions.
 *
 * As in Xcos, at most 18 ports and surface vectors together (inputs +
 * outputs + 1 if the block has surfaces); a type-1 function has no modes
 * and no object parameters.
 *
 * Registering a function as a block type, in a plugin:
 *
 *     #include <blocksim/scicos_type1.h>
 *     void my_block(int *flag, int *nevprt, double *t, ...);  // the code
 *     BSIM_SCICOS1_TYPE(my_block, "What my_block computes.");
 *     ... bsim_library_add(lib, (const bsim_block_type *[]){
 *                               &BSIM_SCICOS1(my_block)}, 1, err);
 *
 * The type is named after the function and takes the same model-data
 * parameters as a type-4 type (rpar, ipar, in, out, state, dstate, ...).
 */
#ifndef BLOCKSIM_SCICOS_TYPE1_H
#define BLOCKSIM_SCICOS_TYPE1_H

#include "scicos_block4.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How many (pointer, size) pairs of ports a type-1 function can receive. */
#define BSIM_SCICOS1_MAXARGS 18

/* The call as blocksim makes it: the 14 fixed arguments and 18 pairs
 * (those past the block's ports are NULL). A function declared with fewer
 * parameters is called through this type, as Xcos itself calls it. */
typedef void (*bsim_scicos1_fn)(
    int *flag, int *nevprt, double *t, double *xd, double *x, int *nx,
    double *z, int *nz, double *tvec, int *ntvec, double *rpar, int *nrpar,
    int *ipar, int *nipar, double *a1, int *n1, double *a2, int *n2, double *a3,
    int *n3, double *a4, int *n4, double *a5, int *n5, double *a6, int *n6,
    double *a7, int *n7, double *a8, int *n8, double *a9, int *n9, double *a10,
    int *n10, double *a11, int *n11, double *a12, int *n12, double *a13,
    int *n13, double *a14, int *n14, double *a15, int *n15, double *a16,
    int *n16, double *a17, int *n17, double *a18, int *n18);

/* Run a type-1 function as the computational function of blk. */
BSIM_API void bsim_scicos1_call(bsim_block *blk, int flag, bsim_scicos1_fn fn);

/* The define step of type-1 types: bsim_scicos4_define's, refusing what a
 * type-1 function cannot receive (more than 18 ports, modes, opar). */
BSIM_API int bsim_scicos1_define(bsim_define_ctx *ctx, bsim_model *m);
BSIM_API extern const char bsim_scicos1_doc[];

/* The descriptor BSIM_SCICOS1_TYPE(fn, ...) defines. */
#define BSIM_SCICOS1(fn) bsim_scicos1_type_##fn

/* Declare the block type of function fn (file scope, after fn's
 * declaration, whatever its parameter list). */
#define BSIM_SCICOS1_TYPE(fn, summary)                                         \
  static void bsim_scicos1_run_##fn(bsim_block *blk, int flag) {               \
    bsim_scicos1_call(blk, flag, (bsim_scicos1_fn)(void (*)(void))fn);         \
  }                                                                            \
  const bsim_block_type bsim_scicos1_type_##fn = {#fn,                         \
                                                  #fn,                         \
                                                  summary,                     \
                                                  bsim_scicos1_doc,            \
                                                  bsim_scicos4_params,         \
                                                  BSIM_SCICOS4_NPARAMS,        \
                                                  bsim_scicos1_define,         \
                                                  bsim_scicos1_run_##fn,       \
                                                  0,                           \
                                                  NULL}

#ifdef __cplusplus
}
#endif
#endif
