/*
 * The standard block library's registry: one static table of descriptors,
 * which bsim_library_create (library.c) registers in this order. Adding a
 * block type is adding its file and one line here.
 */
#include "blocks/acausal.h"
#include "blocks/std.h"

/* Order matters only for simulation-function names shared by several
 * interfaces ("csslti4": CLSS and CLR, "multiplex": MUX and DEMUX,
 * "step_func": STEP and STEP_FUNCTION): the first one listed answers, and
 * they must share their computational function (the library refuses
 * otherwise). */
static const bsim_block_type *const table[] = {
    &bsim_type_CONST_m,  &bsim_type_CONST,      &bsim_type_CONST_f,
    &bsim_type_GENSIN_f, &bsim_type_STEP,       &bsim_type_STEP_FUNCTION,
    &bsim_type_TIME_f,   &bsim_type_GAINBLK,    &bsim_type_SUMMATION,
    &bsim_type_PRODUCT,  &bsim_type_EXPBLK_m,   &bsim_type_ABS_VALUE,
    &bsim_type_TrigFun,  &bsim_type_INTEGRAL_m, &bsim_type_CLSS,
    &bsim_type_CLR,      &bsim_type_MUX,        &bsim_type_DEMUX,
    &bsim_type_IN_f,     &bsim_type_OUT_f,
};

#define NTABLE (sizeof table / sizeof table[0])

/* Families that keep their own table (trig.c's hidden sin_blk, ...; the
 * hybrid families). */
static const struct {
  const bsim_block_type *const *types;
  const int *n;
} families[] = {
    {bsim_trig_types, &bsim_trig_ntypes},
    {bsim_event_types, &bsim_event_ntypes},
    {bsim_discrete_types, &bsim_discrete_ntypes},
    {bsim_zc_types, &bsim_zc_ntypes},
    {bsim_sink_types, &bsim_sink_ntypes},
    {bsim_sink_event_types, &bsim_sink_event_ntypes},
    {bsim_sink_xy_types, &bsim_sink_xy_ntypes},
    {bsim_sink_display_types, &bsim_sink_display_ntypes},
    {bsim_sink_store_types, &bsim_sink_store_ntypes},
    {bsim_basic_f_types, &bsim_basic_f_ntypes},
    {bsim_random_types, &bsim_random_ntypes},
    {bsim_linear_f_types, &bsim_linear_f_ntypes},
    {bsim_table_types, &bsim_table_ntypes},
    {bsim_counting_types, &bsim_counting_ntypes},
    {bsim_matrix_types, &bsim_matrix_ntypes},
    {bsim_tag_types, &bsim_tag_ntypes},
    {bsim_switching_types, &bsim_switching_ntypes},
    {bsim_bounce_types, &bsim_bounce_ntypes},
    {bsim_cblock_types, &bsim_cblock_ntypes},
    {bsim_scifunc_types, &bsim_scifunc_ntypes},
    {bsim_zeros_types, &bsim_zeros_ntypes},
    {bsim_elec_basic_types, &bsim_elec_basic_ntypes},
    {bsim_elec_ideal_types, &bsim_elec_ideal_ntypes},
    {bsim_elec_semi_types, &bsim_elec_semi_ntypes},
    {bsim_hydraulic_types, &bsim_hydraulic_ntypes},
};

const bsim_block_type *bsim_std_type_at(size_t i) {
  if (i < NTABLE) return table[i];
  i -= NTABLE;
  for (size_t f = 0; f < sizeof families / sizeof families[0]; f++) {
    if (i < (size_t)*families[f].n) return families[f].types[i];
    i -= (size_t)*families[f].n;
  }
  return NULL;
}
