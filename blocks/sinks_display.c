/*
 * The sinks that show values rather than curves: AFFICH_m (prints its
 * input in the diagram), CMATVIEW and CMAT3D (draw a matrix input as a
 * coloured grid or surface), and TRASH_f, which shows nothing. Headless,
 * each records its input at each activation, as Scilab's recorder does; the
 * display settings are checked and stored as Xcos's dialogs store them.
 */
#include <math.h>

#include "blocks/std.h"

/* --------------------------------------------------------------- AFFICH_m */

static const bsim_param_spec affich_params[] = {
    {"in", BSIM_PARAM_REAL, "[1 1]", "size of the input, [rows cols]"},
    BSIM_SINK_SETTING("font", "1", "font number (> 0)"),
    BSIM_SINK_SETTING("font-size", "1", "font size (> 0)"),
    BSIM_SINK_SETTING("color", "1", "text colour"),
    BSIM_SINK_SETTING("digits", "5", "total number of digits (> 3)"),
    BSIM_SINK_SETTING("fraction-digits", "1",
                      "digits after the decimal point (>= 0)"),
    {"heritance", BSIM_PARAM_REAL, "0",
     "0: one event input activates the block; 1: no event input, it "
     "records whenever the blocks feeding it are activated"},
};

static int affich_define(bsim_define_ctx *ctx, bsim_model *m) {
  const bsim_value *in = bsim_param(ctx, "in");
  double font, fsize, color, nt, nd;
  int herit, n;
  if (bsim_std_numel(in) != 2 || !(in->v[0] >= 1 && in->v[0] <= 1e9) ||
      !(in->v[1] >= 1 && in->v[1] <= 1e9) || in->v[0] != floor(in->v[0]) ||
      in->v[1] != floor(in->v[1]))
    return bsim_define_error(ctx, "'in' must be [rows cols], two integers "
                                  "from 1 to 1e9");
  if (bsim_std_scalar(ctx, "font", &font) != 0 ||
      bsim_std_scalar(ctx, "font-size", &fsize) != 0 ||
      bsim_std_scalar(ctx, "color", &color) != 0 ||
      bsim_std_scalar(ctx, "digits", &nt) != 0 ||
      bsim_std_scalar(ctx, "fraction-digits", &nd) != 0 ||
      bsim_std_switch(ctx, "heritance", &herit) != 0 ||
      bsim_std_elems(ctx, "the input", (long)in->v[0], (long)in->v[1], &n))
    return -1;
  if (!(font > 0) || !(fsize > 0))
    return bsim_define_error(ctx,
                             "'font' and 'font-size' must be > 0, got %g "
                             "and %g",
                             font, fsize);
  if (!(nt > 3) || !(nd >= 0))
    return bsim_define_error(ctx,
                             "'digits' must be > 3 and 'fraction-digits' "
                             ">= 0, got %g and %g",
                             nt, nd);
  double v[5] = {font, fsize, color, nt, nd};
  for (int k = 0; k < 5; k++)
    if (fabs(v[k]) > 1e9)
      return bsim_define_error(ctx, "display setting %g is out of range", v[k]);
  int *ip = bsim_model_alloc_ipar(m, 6);
  double *z = bsim_model_alloc_z0(m, 6 + n);
  if (!ip || !z || bsim_model_set_inputs(m, 1, (int)in->v[0], 1, 1) != 0 ||
      bsim_model_set_events(m, 1 - herit, 0) != 0)
    return bsim_define_error(ctx, "out of memory");
  m->in2[0] = (int)in->v[1];
  for (int k = 0; k < 5; k++)
    ip[k] = (int)v[k];
  ip[5] = (int)in->v[0];
  /* z: what Xcos keeps of the text drawn, then the last values shown */
  z[0] = -1;
  z[3] = z[4] = 1;
  return 0;
}

static const bsim_block_type type_AFFICH_m = {
    "AFFICH_m",
    "affich2",
    "Display: records its input (a matrix) at each activation.",
    "Xcos prints the input's value in the diagram. Each activation records\n"
    "one row: the time, then the input's elements, column-major. The font\n"
    "settings are only stored.\n"
    "Run-time layout: ipar = [font; font-size; color; digits;\n"
    "fraction-digits; rows], z0 = [-1; 0; 0; 1; 1; 0; zeros(rows*cols)],\n"
    "in = rows, in2 = cols, dep_u = 1, nevin = 1 - heritance.",
    affich_params,
    7,
    affich_define,
    bsim_std_record_fn,
    0,
    "in,font,font-size,color,digits,fraction-digits,heritance"};

/* ------------------------------------------------------ CMATVIEW, CMAT3D */

/* The colour map and the level range, both kinds. size_c: elements of
 * the colour map (3 per colour). */
static int levels(bsim_define_ctx *ctx, const char *lo_name,
                  const char *hi_name, double *lo, double *hi, int *size_c) {
  if (bsim_std_scalar(ctx, lo_name, lo) != 0 ||
      bsim_std_scalar(ctx, hi_name, hi) != 0)
    return -1;
  if (!(*hi > *lo) || fabs(*lo) > 1e9 || fabs(*hi) > 1e9)
    return bsim_define_error(ctx,
                             "'%s' must be greater than '%s' (got %g and %g)",
                             hi_name, lo_name, *hi, *lo);
  *size_c = bsim_std_numel(bsim_param(ctx, "colormap"));
  return 0;
}

/* A matrix input of any size, one event input, feedthrough. */
static int matrix_sink(bsim_define_ctx *ctx, bsim_model *m) {
  if (bsim_model_set_inputs(m, 1, -1, -2, 1) != 0 ||
      bsim_model_set_events(m, 1, 0) != 0)
    return bsim_define_error(ctx, "out of memory");
  return 0;
}

static const bsim_param_spec cmatview_params[] = {
    BSIM_SINK_SETTING("colormap", "jetcolormap(25)",
                      "colour map, one RGB row per colour (Scilab's "
                      "jetcolormap(n), hotcolormap(n), graycolormap(n))"),
    BSIM_SINK_SETTING("cmin", "0", "value drawn with the first colour"),
    BSIM_SINK_SETTING("cmax", "100",
                      "value drawn with the last colour (> cmin)"),
};

static int cmatview_define(bsim_define_ctx *ctx, bsim_model *m) {
  double lo, hi;
  int nc;
  if (levels(ctx, "cmin", "cmax", &lo, &hi, &nc) != 0) return -1;
  const bsim_value *map = bsim_param(ctx, "colormap");
  double *r = bsim_model_alloc_rpar(m, 2 + nc);
  int *ip = bsim_model_alloc_ipar(m, 3);
  if (!r || !ip) return bsim_define_error(ctx, "out of memory");
  /* [alpha; beta] solve [cmin 1; cmax 1] [alpha; beta] = [1; nc/3]: the
   * colour index is alpha * value + beta */
  r[0] = (1 - nc / 3.0) / (lo - hi);
  r[1] = (lo * (nc / 3.0) - hi) / (lo - hi);
  for (int k = 0; k < nc; k++)
    r[2 + k] = map->v[k];
  ip[0] = (int)lo, ip[1] = (int)hi, ip[2] = nc;
  return matrix_sink(ctx, m);
}

static const bsim_block_type type_CMATVIEW = {
    "CMATVIEW",
    "cmatview",
    "Matrix view: records its matrix input at each activation.",
    "Xcos draws the input matrix as a grid of colours, a value v taking\n"
    "colour alpha v + beta of the colour map. Each activation records one\n"
    "row: the time, then the matrix's elements, column-major.\n"
    "Run-time layout: rpar = [alpha; beta; colormap(:)] where [cmin 1;\n"
    "cmax 1] [alpha; beta] = [1; size_c / 3], ipar = [cmin; cmax; size_c]\n"
    "(size_c = elements of the colour map, cmin and cmax truncated),\n"
    "in = -1, in2 = -2, dep_u = 1, nevin = 1.",
    cmatview_params,
    3,
    cmatview_define,
    bsim_std_record_fn,
    0,
    "colormap,cmin,cmax"};

static const bsim_param_spec cmat3d_params[] = {
    BSIM_SINK_SETTING("x", "-1",
                      "x of the grid's columns (-1: 1, 2, ...), as many as "
                      "'y'"),
    BSIM_SINK_SETTING("y", "-1", "y of the grid's rows (-1: 1, 2, ...)"),
    BSIM_SINK_SETTING("colormap", "jetcolormap(25)",
                      "colour map, one RGB row per colour"),
    BSIM_SINK_SETTING("zmin", "0", "value drawn with the first colour"),
    BSIM_SINK_SETTING("zmax", "100",
                      "value drawn with the last colour (> zmin)"),
};

static int cmat3d_define(bsim_define_ctx *ctx, bsim_model *m) {
  const bsim_value *x = bsim_param(ctx, "x"), *y = bsim_param(ctx, "y");
  const bsim_value *map = bsim_param(ctx, "colormap");
  int nx = bsim_std_numel(x), nc;
  double lo, hi;
  if (nx != bsim_std_numel(y))
    return bsim_define_error(ctx,
                             "'x' and 'y' must have as many entries, got %d "
                             "and %d",
                             nx, bsim_std_numel(y));
  if (levels(ctx, "zmin", "zmax", &lo, &hi, &nc) != 0) return -1;
  double *r = bsim_model_alloc_rpar(m, nc + 2 * nx);
  int *ip = bsim_model_alloc_ipar(m, 4);
  if (!r || !ip) return bsim_define_error(ctx, "out of memory");
  for (int k = 0; k < nc; k++)
    r[k] = map->v[k];
  for (int k = 0; k < nx; k++) {
    r[nc + k] = x->v[k];
    r[nc + nx + k] = y->v[k];
  }
  ip[0] = (int)lo, ip[1] = (int)hi, ip[2] = nc, ip[3] = nx;
  return matrix_sink(ctx, m);
}

static const bsim_block_type type_CMAT3D = {
    "CMAT3D",
    "cmat3d",
    "Matrix surface: records its matrix input at each activation.",
    "Xcos draws the input matrix as a coloured surface over the grid x, y.\n"
    "Each activation records one row: the time, then the matrix's\n"
    "elements, column-major.\n"
    "Run-time layout: rpar = [colormap(:); x(:); y(:)], ipar = [zmin;\n"
    "zmax; size_c; size(x)] (size_c = elements of the colour map, zmin and\n"
    "zmax truncated), in = -1, in2 = -2, dep_u = 1, nevin = 1.",
    cmat3d_params,
    5,
    cmat3d_define,
    bsim_std_record_fn,
    0,
    "x,y,colormap,zmin,zmax"};

/* ---------------------------------------------------------------- TRASH_f */

static int trash_define(bsim_define_ctx *ctx, bsim_model *m) {
  if (bsim_model_set_inputs(m, 1, -1, 1, 0) != 0 ||
      bsim_model_set_events(m, 1, 0) != 0)
    return bsim_define_error(ctx, "out of memory");
  return 0;
}

static const bsim_block_type type_TRASH_f = {
    "TRASH_f",
    "trash",
    "Trash: ends a signal; records its input at each activation.",
    "Xcos's trash does nothing with its input. Like Scilab's recorder,\n"
    "blocksim still records one row per activation: the time, then the\n"
    "input's elements.\n"
    "Run-time layout: no parameters, in = -1, in2 = 1, dep_u = 0,\n"
    "nevin = 1.",
    NULL,
    0,
    trash_define,
    bsim_std_record_fn,
    0,
    "-"};

const bsim_block_type *const bsim_sink_display_types[] = {
    &type_AFFICH_m, &type_CMATVIEW, &type_CMAT3D, &type_TRASH_f};
const int bsim_sink_display_ntypes =
    (int)(sizeof bsim_sink_display_types / sizeof bsim_sink_display_types[0]);
