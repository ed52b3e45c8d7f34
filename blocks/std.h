/*
 * Private header of the standard block library: the type descriptors each
 * family file defines (so that registry.c can list them) and the few helpers
 * the families share for checking parameters and port sizes. Not installed;
 * block authors outside blocks/ need only include/blocksim/block.h.
 */
#ifndef BSIM_BLOCKS_STD_H
#define BSIM_BLOCKS_STD_H

#include "blocksim/block.h"
#include "blocksim/block_util.h"

/* registry.c: the standard types in registration order (the table, then
 * each family's), NULL past the end. */
const bsim_block_type *bsim_std_type_at(size_t i);

/* sources.c */
extern const bsim_block_type bsim_type_CONST_m;
extern const bsim_block_type bsim_type_CONST;
extern const bsim_block_type bsim_type_CONST_f;
extern const bsim_block_type bsim_type_GENSIN_f;
extern const bsim_block_type bsim_type_STEP;
extern const bsim_block_type bsim_type_STEP_FUNCTION;
extern const bsim_block_type bsim_type_TIME_f;

/* math.c */
extern const bsim_block_type bsim_type_GAINBLK;
extern const bsim_block_type bsim_type_SUMMATION;
extern const bsim_block_type bsim_type_PRODUCT;
extern const bsim_block_type bsim_type_EXPBLK_m;
extern const bsim_block_type bsim_type_ABS_VALUE;

/* trig.c: the interface and one hidden type per simulation function, so
 * that the scheduler finds "cos_blk" etc. by name. */
extern const bsim_block_type bsim_type_TrigFun;
extern const bsim_block_type *const bsim_trig_types[];
extern const int bsim_trig_ntypes;

/* linear.c */
extern const bsim_block_type bsim_type_INTEGRAL_m;
extern const bsim_block_type bsim_type_CLSS;
extern const bsim_block_type bsim_type_CLR;

/* routing.c */
extern const bsim_block_type bsim_type_MUX;
extern const bsim_block_type bsim_type_DEMUX;
extern const bsim_block_type bsim_type_IN_f;
extern const bsim_block_type bsim_type_OUT_f;

/* Hybrid families, each with its own table:
 * events.c (clocks, delays, synchro, end), discrete.c (discrete states,
 * holds, counters), zcross.c (zero crossings and blocks with modes),
 * sinks.c (scopes). */
extern const bsim_block_type *const bsim_event_types[];
extern const int bsim_event_ntypes;
extern const bsim_block_type *const bsim_discrete_types[];
extern const int bsim_discrete_ntypes;
extern const bsim_block_type *const bsim_zc_types[];
extern const int bsim_zc_ntypes;
extern const bsim_block_type *const bsim_sink_types[];
extern const int bsim_sink_ntypes;
/* random.c: RAND_f, RAND_m */
extern const bsim_block_type *const bsim_random_types[];
extern const int bsim_random_ntypes;

/* Computational functions and define steps shared with the Xcos
 * families that reuse a block's semantics under another interface name
 * (GAIN_f uses GAINBLK's function, CLSS_f CLSS's, MUX_f MUX's, ...). */
void bsim_std_gain_fn(bsim_block *blk, int flag);         /* math.c */
void bsim_std_csslti4_fn(bsim_block *blk, int flag);      /* linear.c */
void bsim_std_integral_fn(bsim_block *blk, int flag);     /* linear.c */
extern const bsim_param_spec bsim_std_integral_params[5]; /* linear.c */
/* INTEGRAL_m's define; vector = 1 makes x0 a column (INTEGRAL). */
int bsim_std_integral_model(bsim_define_ctx *ctx, bsim_model *m, int vector);
extern const bsim_param_spec bsim_std_tf_params[2];    /* linear.c */
void bsim_std_multiplex_fn(bsim_block *blk, int flag); /* routing.c */
void bsim_std_samphold_fn(bsim_block *blk, int flag);  /* discrete.c */
/* MUX (demux = 0) or DEMUX (1) from the parameter `name`: a port count or
 * a vector of sizes, between 2 and max_ports ports. */
int bsim_std_mux_model(bsim_define_ctx *ctx, bsim_model *m, const char *name,
                       int demux, int max_ports);

/* Xcos families, each with its own table (registered in registry.c). */
extern const bsim_block_type *const bsim_basic_f_types[]; /* basic_f.c */
extern const int bsim_basic_f_ntypes;
extern const bsim_block_type *const bsim_linear_f_types[]; /* linear_f.c */
extern const int bsim_linear_f_ntypes;
extern const bsim_block_type *const bsim_table_types[]; /* tables.c */
extern const bsim_block_type bsim_type_CURVE_c; /* curve.c, in tables.c's */
extern const int bsim_table_ntypes;

/* util.c */

/* (The helpers every block author may use, bsim_std_scalar & co, are
 * public: blocksim/block_util.h.) */

/* Model of an n-state LTI system with nu inputs and ny outputs (D is
 * ny x nu): rpar = [A(:); B(:); C(:); D(:)], dep_u = (D <> 0); continuous
 * (csslti4: x0, dep_t) or discrete (dsslti4: z0, one event input). */
/* CLSS / DLSS: parameters A, B, C, D, x0 checked against each other and
 * laid out as an LTI model (continuous or discrete). */
extern const bsim_param_spec bsim_std_ss_params[5];
int bsim_std_ss_model(bsim_define_ctx *ctx, bsim_model *m, int discrete);
/* CLR / DLR: the transfer function's realisation as an LTI model. */
int bsim_std_tf_model(bsim_define_ctx *ctx, bsim_model *m, int discrete);
int bsim_std_lti_model(bsim_define_ctx *ctx, bsim_model *m, int discrete, int n,
                       int nu, int ny, const double *A, const double *B,
                       const double *C, const double *D, const double *x0);

#endif
