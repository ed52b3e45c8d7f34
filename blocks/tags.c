/*
 * Tag blocks: GOTO / FROM carry a signal, CLKGOTO / CLKFROM an activation,
 * between places of a diagram that no link joins, by a tag name; the
 * GotoTagVisibility blocks bound the reach of "scoped" tags. Like
 * superblock ports they never run: flattening matches each FROM with its
 * GOTO (diagrams/tags.c) and joins what feeds the GOTO to what the FROM
 * feeds, so the scheduler sees ordinary links.
 */
#include "blocks/std.h"

/* The flattener reads 'tag' (and the visibility from ipar) itself. */
static const bsim_param_spec goto_params[] = {
    {"tag", BSIM_PARAM_STRING, "A",
     "name that pairs this GOTO with FROM blocks (the same kind: data or "
     "events)"},
    {"visibility", BSIM_PARAM_REAL, "1",
     "1: local (FROMs of the same level), 2: scoped (FROMs at and below the "
     "level of a visibility block with the same tag), 3: global (FROMs "
     "anywhere)"},
};

static const bsim_param_spec from_params[] = {
    {"tag", BSIM_PARAM_STRING, "A",
     "name of the GOTO whose input this block outputs"},
};

static const bsim_param_spec vis_params[] = {
    {"tag", BSIM_PARAM_STRING, "A",
     "scoped GOTOs with this tag are seen by FROMs at this level and in the "
     "superblocks below it"},
};

static int tag_string(bsim_define_ctx *ctx) {
  const bsim_value *t = bsim_param(ctx, "tag");
  if (!t->str || !t->str[0])
    return bsim_define_error(ctx, "'tag' must not be empty");
  return 0;
}

/* Data or event goto: one input port of its kind, ipar = [visibility]. */
static int goto_model(bsim_define_ctx *ctx, bsim_model *m, int events) {
  int vis;
  if (tag_string(ctx) || bsim_std_int(ctx, "visibility", 1, &vis)) return -1;
  if (vis > 3)
    return bsim_define_error(
        ctx, "'visibility' must be 1 (local), 2 (scoped) or 3 (global), got %d",
        vis);
  int *ip = bsim_model_alloc_ipar(m, 1);
  if (!ip || (events ? bsim_model_set_events(m, 1, 0)
                     : bsim_model_set_inputs(m, 1, -1, -2, 0)) != 0)
    return bsim_define_error(ctx, "out of memory");
  ip[0] = vis;
  return 0;
}

static int goto_define(bsim_define_ctx *ctx, bsim_model *m) {
  return goto_model(ctx, m, 0);
}

static int clkgoto_define(bsim_define_ctx *ctx, bsim_model *m) {
  return goto_model(ctx, m, 1);
}

static int from_define(bsim_define_ctx *ctx, bsim_model *m) {
  if (tag_string(ctx)) return -1;
  if (bsim_model_set_outputs(m, 1, -1, -2) != 0)
    return bsim_define_error(ctx, "out of memory");
  return 0;
}

static int clkfrom_define(bsim_define_ctx *ctx, bsim_model *m) {
  if (tag_string(ctx)) return -1;
  if (bsim_model_set_events(m, 0, 1) != 0)
    return bsim_define_error(ctx, "out of memory");
  return 0;
}

static int vis_define(bsim_define_ctx *ctx, bsim_model *m) {
  return tag_string(ctx);
}

/* Tag blocks never run: flattening replaces them by links. */
static void tag_fn(bsim_block *blk, int flag) {}

#define TAG_LAYOUT_NOTE                                                        \
  "Xcos keeps the tag as a string in opar; here it stays the 'tag'\n"          \
  "parameter (opar holds real matrices only)."

static const bsim_block_type bsim_type_GOTO = {
    "GOTO",
    "goto",
    "Send a signal to the FROM blocks with the same tag.",
    "The signal at its input is what every matching FROM outputs, as if a\n"
    "link joined them. Visibility 1 pairs it with the FROMs of its own\n"
    "level (one local GOTO per tag and level); 2 with the FROMs at and\n"
    "below the level of the GotoTagVisibility of its tag that encloses it\n"
    "(one scoped GOTO per such block); 3 with every FROM of its tag not\n"
    "paired otherwise (one global GOTO per tag). Dissolved by flattening.\n"
    "Run-time layout: ipar = [visibility], in = -1, in2 = -2, no "
    "outputs.\n" TAG_LAYOUT_NOTE,
    goto_params,
    2,
    goto_define,
    tag_fn,
    BSIM_TYPE_TAG,
    "tag,visibility"};

static const bsim_block_type bsim_type_FROM = {
    "FROM",
    "from",
    "Output the signal of the GOTO with the same tag.",
    "Outputs what the matching GOTO (see GOTO for the visibility rules)\n"
    "receives; a FROM without a visible GOTO is an error. Dissolved by\n"
    "flattening.\n"
    "Run-time layout: ipar empty, out = -1, out2 = -2, no "
    "inputs.\n" TAG_LAYOUT_NOTE,
    from_params,
    1,
    from_define,
    tag_fn,
    BSIM_TYPE_TAG,
    "tag"};

static const bsim_block_type bsim_type_GotoTagVisibility = {
    "GotoTagVisibility",
    "gototagvisibility",
    "Scope of the scoped GOTO blocks with its tag.",
    "Makes the scoped (visibility 2) GOTO with its tag at this level or\n"
    "below visible to the FROM blocks at this level and below. One per tag\n"
    "and level. No ports; dissolved by flattening.\n" TAG_LAYOUT_NOTE,
    vis_params,
    1,
    vis_define,
    tag_fn,
    BSIM_TYPE_TAG,
    "tag"};

static const bsim_block_type bsim_type_CLKGOTO = {
    "CLKGOTO",
    "clkgoto",
    "Send activations to the CLKFROM blocks with the same tag.",
    "What activates its event input activates what every matching\n"
    "CLKFROM's event output reaches, as if an activation link joined them;\n"
    "visibility as GOTO's (tags of events and of data are separate).\n"
    "Dissolved by flattening.\n"
    "Run-time layout: ipar = [visibility], nevin = 1, firing "
    "none.\n" TAG_LAYOUT_NOTE,
    goto_params,
    2,
    clkgoto_define,
    tag_fn,
    BSIM_TYPE_TAG | BSIM_TYPE_EVENT_TAG,
    "tag,visibility"};

static const bsim_block_type bsim_type_CLKFROM = {
    "CLKFROM",
    "clkfrom",
    "Output the activations of the CLKGOTO with the same tag.",
    "Fires whenever the matching CLKGOTO is activated (visibility as\n"
    "GOTO's). Dissolved by flattening.\n"
    "Run-time layout: ipar empty, nevout = 1, firing = [-1].\n" TAG_LAYOUT_NOTE,
    from_params,
    1,
    clkfrom_define,
    tag_fn,
    BSIM_TYPE_TAG | BSIM_TYPE_EVENT_TAG,
    "tag"};

static const bsim_block_type bsim_type_CLKGotoTagVisibility = {
    "CLKGotoTagVisibility",
    "clkgototagvisibility",
    "Scope of the scoped CLKGOTO blocks with its tag.",
    "GotoTagVisibility for event tags (CLKGOTO / CLKFROM). No ports;\n"
    "dissolved by flattening.\n" TAG_LAYOUT_NOTE,
    vis_params,
    1,
    vis_define,
    tag_fn,
    BSIM_TYPE_TAG | BSIM_TYPE_EVENT_TAG,
    "tag"};

const bsim_block_type *const bsim_tag_types[] = {
    &bsim_type_GOTO,    &bsim_type_FROM,    &bsim_type_GotoTagVisibility,
    &bsim_type_CLKGOTO, &bsim_type_CLKFROM, &bsim_type_CLKGotoTagVisibility};
const int bsim_tag_ntypes =
    (int)(sizeof bsim_tag_types / sizeof bsim_tag_types[0]);
