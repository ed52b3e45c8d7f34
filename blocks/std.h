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
/* sinks_xy.c: CSCOPXY, CANIMXY, CSCOPXY3D, CANIMXY3D, BARXY, BOUNCEXY,
 * BPLATFORM */
extern const bsim_block_type *const bsim_sink_xy_types[];
extern const int bsim_sink_xy_ntypes;
/* sinks_display.c: AFFICH_m, CMATVIEW, CMAT3D, TRASH_f */
extern const bsim_block_type *const bsim_sink_display_types[];
extern const int bsim_sink_display_ntypes;
/* sinks_store.c: TOWS_c, WRITEC_f, WRITEAU_f */
extern const bsim_block_type *const bsim_sink_store_types[];
extern const int bsim_sink_store_ntypes;
/* sinks_events.c: CEVENTSCOPE */
extern const bsim_block_type *const bsim_sink_event_types[];
extern const int bsim_sink_event_ntypes;
/* random.c: RAND_f, RAND_m */
extern const bsim_block_type *const bsim_random_types[];
extern const int bsim_random_ntypes;
/* tags.c: GOTO, FROM, GotoTagVisibility and their CLK* forms */
extern const bsim_block_type *const bsim_tag_types[];
extern const int bsim_tag_ntypes;
/* counting.c: Modulo_Count, freq_div, ANDLOG_f, SELECT_f */
extern const bsim_block_type *const bsim_counting_types[];
extern const int bsim_counting_ntypes;

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
extern const bsim_block_type *const bsim_zeros_types[];   /* zeros.c */
extern const int bsim_zeros_ntypes;
extern const int bsim_basic_f_ntypes;
extern const bsim_block_type *const bsim_linear_f_types[]; /* linear_f.c */
extern const int bsim_linear_f_ntypes;
extern const bsim_block_type *const bsim_table_types[]; /* tables.c */
extern const int bsim_table_ntypes;
extern const bsim_block_type bsim_type_CURVE_c; /* curve.c, in tables.c's */
extern const bsim_block_type *const bsim_matrix_types[]; /* matrix.c */
extern const int bsim_matrix_ntypes;
extern const bsim_block_type *const bsim_bounce_types[]; /* bounce.c */
extern const bsim_block_type bsim_type_EXPRESSION; /* expression.c, in it */
extern const int bsim_bounce_ntypes;
extern const bsim_block_type *const bsim_switching_types[]; /* switching.c */
extern const int bsim_switching_ntypes;
/* cblock_type.c: CBLOCK, CBLOCK4 (C source compiled at load time). */
extern const bsim_block_type *const bsim_cblock_types[];
extern const int bsim_cblock_ntypes;
/* scifunc.c: scifunc_block_m, scifunc_block (Scilab code per flag). */
extern const bsim_block_type *const bsim_scifunc_types[];
extern const int bsim_scifunc_ntypes;
/* matrix_la.c, in matrix.c's table */
extern const bsim_block_type bsim_type_MATINV, bsim_type_MATPINV,
    bsim_type_MATBKSL, bsim_type_MATEIG, bsim_type_mat_vpv;

/* sink_common.c: what the sinks share. */
/* The computational function of a sink that records its inputs: names
 * the columns after them at flag 4 (so that a sink never activated still
 * has a record), then one row of all inputs per activation (flag 2). */
void bsim_std_record_fn(bsim_block *blk, int flag);
/* Name a record's n columns prefix<number>: numbers[k], or k + 1 when
 * numbers is NULL ("ev1,ev2", "link2,link7"). 0, or -1 (reported). */
int bsim_std_record_numbered(bsim_block *blk, const char *prefix, int n,
                             const int *numbers);
/* Parameters the sinks' dialogs share (checked by the functions below). */
#define BSIM_SINK_WINDOW                                                       \
  {                                                                            \
    "window", BSIM_PARAM_REAL, "-1",                                           \
        "output window number (-1: automatic); display only"                   \
  }
#define BSIM_SINK_POSITION                                                     \
  {                                                                            \
    "position", BSIM_PARAM_REAL, "[]",                                         \
        "window position, [] or [x y]; display only"                           \
  }
#define BSIM_SINK_SIZE(def)                                                    \
  { "size", BSIM_PARAM_REAL, def, "window size, [] or [w h]; display only" }
/* A display-only number: name, default, what it is. */
#define BSIM_SINK_SETTING(name, def, what)                                     \
  { name, BSIM_PARAM_REAL, def, what "; display only" }
/* Display settings, checked as Xcos's dialogs check them; each returns 0,
 * or -1 after reporting through ctx. */
/* The first n entries of v are usable as ints (stored in ipar). */
int bsim_std_check_ints(bsim_define_ctx *ctx, const char *name,
                        const bsim_value *v, int n);
/* A window position or size: [] (stored as -1, -1) or two integers. */
int bsim_std_window_pair(bsim_define_ctx *ctx, const char *name, int *out);
/* A window number: -1 (automatic) or an integer >= 0. */
int bsim_std_window(bsim_define_ctx *ctx, const char *name, int *out);
/* Two axis ends with lo < hi. */
int bsim_std_ordered(bsim_define_ctx *ctx, const char *lo_name, double lo,
                     const char *hi_name, double hi);
/* A parameter [min max] with min < max, into out[2]. */
int bsim_std_bounds(bsim_define_ctx *ctx, const char *name, double *out);
/* A parameter that must be 0 or 1. */
int bsim_std_switch(bsim_define_ctx *ctx, const char *name, int *out);

/* util.c */

/* (The helpers every block author may use, bsim_std_scalar & co, are
 * public: blocksim/block_util.h.) */

/* The "datatype" parameter of Xcos's matrix blocks: 1 (real double) is the
 * only one supported; anything else is reported. 0 or -1. */
int bsim_std_real_datatype(bsim_define_ctx *ctx);

/* A block whose dialog values do not evaluate runs on the model its .xcos
 * file stores, whose ports are the file's port elements and need not be
 * the ones the type's function indexes: call at flag 4. 0 when the block
 * has at least nin inputs and nout outputs; else -1 after a
 * bsim_block_error saying what it has and what it needs. */
int bsim_std_need_ports(bsim_block *blk, int nin, int nout);
/* The same for a function that reads its ports before it looks at the
 * flag, at every flag: 1 when the block lacks them (reported at flag 4
 * only), and the function must return - the scheduler still calls flag 5
 * after a flag 4 that failed. Inline: it guards the residual's calls. */
static inline int bsim_std_lacks_ports(bsim_block *blk, int flag, int nin,
                                       int nout) {
  if (blk->nin >= nin && blk->nout >= nout) return 0;
  if (flag == BSIM_FLAG_INIT) bsim_std_need_ports(blk, nin, nout);
  return 1;
}

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
