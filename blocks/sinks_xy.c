/*
 * The sinks that draw their inputs against each other instead of against
 * time: the XY scopes (CSCOPXY, CANIMXY, in 2D; CSCOPXY3D, CANIMXY3D in
 * 3D) and the animations of Xcos's demos (BARXY, BOUNCEXY, BPLATFORM).
 * Headless, each records its inputs at each activation, side by side, as
 * Scilab's recorder does; their drawing settings are checked and stored as
 * Xcos's dialogs store them.
 */
#include <math.h>

#include "blocks/std.h"

/* ----------------------------------------------------- 2D: CSCOPXY, CANIMXY */

/* CSCOPXY and CANIMXY have the same dialog; their defaults differ. */
#define XY_PARAMS(colors, size)                                                \
  {"curves", BSIM_PARAM_REAL, "1",                                             \
   "number of curves: the size of both inputs (x and y of each curve)"},       \
      BSIM_SINK_SETTING("colors", colors,                                      \
                        "curve colour (> 0) or mark (< 0), the same for all "  \
                        "curves"),                                             \
      BSIM_SINK_SETTING("thickness", "1", "line thickness or mark size"),      \
      BSIM_SINK_WINDOW, BSIM_SINK_POSITION, BSIM_SINK_SIZE(size),              \
      BSIM_SINK_SETTING("xmin", "-15", "lower end of the x axis"),             \
      BSIM_SINK_SETTING("xmax", "15", "upper end of the x axis"),              \
      BSIM_SINK_SETTING("ymin", "-15", "lower end of the y axis"),             \
      BSIM_SINK_SETTING("ymax", "15", "upper end of the y axis"),              \
      BSIM_SINK_SETTING("buffer-size", "2",                                    \
                        "points drawn at once (>= 1; >= 2 when drawing "       \
                        "lines)")

static const bsim_param_spec xy_params[] = {XY_PARAMS("4", "[600;400]")};
static const bsim_param_spec animxy_params[] = {XY_PARAMS("-4", "[]")};

static const char xy_exprs[] = "curves,colors,thickness,window,position,size,"
                               "xmin,xmax,ymin,ymax,buffer-size";

/* The window, the buffer and the curves' colours, as both kinds check
 * them; colors has nclr entries. */
typedef struct xy_common {
  int curves, win, buffer, pos[2], dim[2];
  const bsim_value *clr, *siz;
} xy_common;

static int xy_common_read(bsim_define_ctx *ctx, xy_common *c, int nclr) {
  if (bsim_std_int(ctx, "curves", 1, &c->curves) != 0 ||
      bsim_std_window(ctx, "window", &c->win) != 0 ||
      bsim_std_window_pair(ctx, "position", c->pos) != 0 ||
      bsim_std_window_pair(ctx, "size", c->dim) != 0 ||
      bsim_std_int(ctx, "buffer-size", 1, &c->buffer) != 0)
    return -1;
  c->clr = bsim_param(ctx, "colors");
  c->siz = bsim_param(ctx, "thickness");
  int n = bsim_std_numel(c->clr);
  if (bsim_std_check_ints(ctx, "colors", c->clr, n) != 0 ||
      bsim_std_check_ints(ctx, "thickness", c->siz, bsim_std_numel(c->siz)) !=
          0)
    return -1;
  for (int k = 0; k < nclr && k < n; k++)
    if (c->buffer < 2 && c->clr->v[k] > 0)
      return bsim_define_error(ctx,
                               "'buffer-size' must be >= 2 to draw lines "
                               "('colors' > 0), got %d",
                               c->buffer);
  return 0;
}

/* mode: ipar(6), 1 for CSCOPXY, 0 for CANIMXY (Xcos's interface macros). */
static int xy_define(bsim_define_ctx *ctx, bsim_model *m, int mode) {
  xy_common c;
  double x0, x1, y0, y1;
  if (xy_common_read(ctx, &c, 1) != 0 || bsim_std_scalar(ctx, "xmin", &x0) ||
      bsim_std_scalar(ctx, "xmax", &x1) || bsim_std_scalar(ctx, "ymin", &y0) ||
      bsim_std_scalar(ctx, "ymax", &y1) ||
      bsim_std_ordered(ctx, "ymin", y0, "ymax", y1) != 0 ||
      bsim_std_ordered(ctx, "xmin", x0, "xmax", x1) != 0)
    return -1;
  if (bsim_std_numel(c.clr) != 1 || bsim_std_numel(c.siz) != 1)
    return bsim_define_error(ctx, "'colors' and 'thickness' must be scalars "
                                  "(one style for all curves)");
  double *r = bsim_model_alloc_rpar(m, 4);
  int *ip = bsim_model_alloc_ipar(m, 11);
  if (!r || !ip || bsim_model_set_inputs(m, 2, c.curves, 1, 0) != 0 ||
      bsim_model_set_events(m, 1, 0) != 0)
    return bsim_define_error(ctx, "out of memory");
  r[0] = x0, r[1] = x1, r[2] = y0, r[3] = y1;
  int v[11] = {c.win,   1,        c.buffer, (int)c.clr->v[0], (int)c.siz->v[0],
               mode,    c.pos[0], c.pos[1], c.dim[0],         c.dim[1],
               c.curves};
  for (int k = 0; k < 11; k++)
    ip[k] = v[k];
  return 0;
}

static int cscopxy_define(bsim_define_ctx *ctx, bsim_model *m) {
  return xy_define(ctx, m, 1);
}

static int canimxy_define(bsim_define_ctx *ctx, bsim_model *m) {
  return xy_define(ctx, m, 0);
}

#define XY_LAYOUT(mode)                                                        \
  "Run-time layout: rpar = [xmin; xmax; ymin; ymax], ipar = [window; 1;\n"     \
  "buffer-size; colors; thickness; " mode "; position (2); size (2);\n"        \
  "curves] ([] is stored as [-1; -1]), in = [curves; curves],\n"               \
  "in2 = [1; 1], dep_u = [0 0], nevin = 1."

static const bsim_block_type type_CSCOPXY = {
    "CSCOPXY",
    "cscopxy",
    "XY scope: records its x and y inputs at each activation.",
    "Xcos draws y against x for each of 'curves' curves (input 1 holds\n"
    "their x, input 2 their y). Each activation records one row: the time,\n"
    "then the elements of input 1 and of input 2. The other parameters\n"
    "describe Xcos's plot window and are only stored.\n" XY_LAYOUT("1"),
    xy_params,
    11,
    cscopxy_define,
    bsim_std_record_fn,
    0,
    xy_exprs};

static const bsim_block_type type_CANIMXY = {
    "CANIMXY",
    "canimxy",
    "Animated XY scope: records its x and y inputs at each activation.",
    "As CSCOPXY (Xcos animates the last 'buffer-size' points instead of\n"
    "drawing the whole trajectory): each activation records one row, the\n"
    "time, then the elements of input 1 (x) and input 2 (y).\n" XY_LAYOUT("0"),
    animxy_params,
    11,
    canimxy_define,
    bsim_std_record_fn,
    0,
    xy_exprs};

/* ------------------------------------------------ 3D: CSCOPXY3D, CANIMXY3D */

/* CSCOPXY3D and CANIMXY3D: the same dialog, but for the window size. */
#define XYZ_PARAMS(size)                                                       \
  {"curves", BSIM_PARAM_REAL, "1",                                             \
   "number of curves: the size of the three inputs (x, y, z)"},                \
      BSIM_SINK_SETTING("colors", "[1 2 3 4 5 6 7 13]",                        \
                        "curve colours (> 0) or marks (< 0), one per curve "   \
                        "at least"),                                           \
      BSIM_SINK_SETTING("thickness", "[1 1 1 1 1 1 1 1]",                      \
                        "line thicknesses or mark sizes, as many as "          \
                        "colours"),                                            \
      BSIM_SINK_WINDOW, BSIM_SINK_POSITION, BSIM_SINK_SIZE(size),              \
      BSIM_SINK_SETTING("x-bounds", "[-15 15]", "[xmin xmax]"),                \
      BSIM_SINK_SETTING("y-bounds", "[-15 15]", "[ymin ymax]"),                \
      BSIM_SINK_SETTING("z-bounds", "[-15 15]", "[zmin zmax]"),                \
      BSIM_SINK_SETTING("view", "[50 280]",                                    \
                        "viewing angles [alpha theta] in degrees"),            \
      BSIM_SINK_SETTING("buffer-size", "2",                                    \
                        "points drawn at once (>= 1; >= 2 when drawing "       \
                        "lines)")

static const bsim_param_spec xyz_params[] = {XYZ_PARAMS("[600;400]")};
static const bsim_param_spec animxyz_params[] = {XYZ_PARAMS("[]")};

static const char xyz_exprs[] = "curves,colors,thickness,window,position,size,"
                                "x-bounds,y-bounds,z-bounds,view,buffer-size";

/* CSCOPXY3D's dialog checks every colour against the buffer size,
 * CANIMXY3D's only those of the curves drawn (and wants that many). */
static int xyz_define(bsim_define_ctx *ctx, bsim_model *m, int anim) {
  xy_common c;
  double bx[2], by[2], bz[2];
  if (bsim_std_int(ctx, "curves", 1, &c.curves) != 0) return -1;
  int nclr = bsim_std_numel(bsim_param(ctx, "colors"));
  if (anim && nclr < c.curves)
    return bsim_define_error(ctx,
                             "'colors' needs at least one entry per curve "
                             "(%d), got %d",
                             c.curves, nclr);
  if (xy_common_read(ctx, &c, anim ? c.curves : nclr) != 0 ||
      bsim_std_bounds(ctx, "y-bounds", by) != 0 ||
      bsim_std_bounds(ctx, "x-bounds", bx) != 0 ||
      bsim_std_bounds(ctx, "z-bounds", bz) != 0)
    return -1;
  const bsim_value *view = bsim_param(ctx, "view");
  int nsiz = bsim_std_numel(c.siz);
  if (nsiz != nclr)
    return bsim_define_error(ctx,
                             "'colors' and 'thickness' must have as many "
                             "entries, got %d and %d",
                             nclr, nsiz);
  if (bsim_std_numel(view) != 2)
    return bsim_define_error(ctx,
                             "'view' must be [alpha theta], got %d "
                             "entries",
                             bsim_std_numel(view));
  double *r = bsim_model_alloc_rpar(m, 8);
  int *ip = bsim_model_alloc_ipar(m, 3 + 2 * nclr + 6);
  if (!r || !ip || bsim_model_set_inputs(m, 3, c.curves, 1, 0) != 0 ||
      bsim_model_set_events(m, 1, 0) != 0)
    return bsim_define_error(ctx, "out of memory");
  double rv[8] = {bx[0], bx[1], by[0],      by[1],
                  bz[0], bz[1], view->v[0], view->v[1]};
  for (int k = 0; k < 8; k++)
    r[k] = rv[k];
  *ip++ = c.win;
  *ip++ = nsiz;
  *ip++ = c.buffer;
  for (int k = 0; k < nclr; k++)
    *ip++ = (int)c.clr->v[k];
  for (int k = 0; k < nsiz; k++)
    *ip++ = (int)c.siz->v[k];
  *ip++ = 1;
  *ip++ = c.pos[0], *ip++ = c.pos[1];
  *ip++ = c.dim[0], *ip++ = c.dim[1];
  *ip = c.curves;
  return 0;
}

static int cscopxy3d_define(bsim_define_ctx *ctx, bsim_model *m) {
  return xyz_define(ctx, m, 0);
}

static int canimxy3d_define(bsim_define_ctx *ctx, bsim_model *m) {
  return xyz_define(ctx, m, 1);
}

#define XYZ_LAYOUT                                                             \
  "Run-time layout: rpar = [x-bounds(:); y-bounds(:); z-bounds(:);\n"          \
  "view(:)], ipar = [window; number of thicknesses; buffer-size;\n"            \
  "colors(:); thickness(:); 1; position (2); size (2); curves] ([] is\n"       \
  "stored as [-1; -1]), in = [curves; curves; curves], in2 = [1; 1; 1],\n"     \
  "dep_u = [0 0 0], nevin = 1."

static const bsim_block_type type_CSCOPXY3D = {
    "CSCOPXY3D",
    "cscopxy3d",
    "3D XY scope: records its x, y and z inputs at each activation.",
    "Xcos draws the points (x, y, z) of 'curves' curves (inputs 1, 2, 3\n"
    "hold their x, y and z). Each activation records one row: the time,\n"
    "then the elements of inputs 1, 2 and 3. The other parameters describe\n"
    "Xcos's plot window and are only stored.\n" XYZ_LAYOUT,
    xyz_params,
    11,
    cscopxy3d_define,
    bsim_std_record_fn,
    0,
    xyz_exprs};

static const bsim_block_type type_CANIMXY3D = {
    "CANIMXY3D",
    "canimxy3d",
    "Animated 3D XY scope: records its x, y and z inputs.",
    "As CSCOPXY3D (Xcos animates the last 'buffer-size' points): each\n"
    "activation records one row, the time, then the elements of inputs 1,\n"
    "2 and 3. 'colors' needs one entry per curve at least.\n" XYZ_LAYOUT,
    animxyz_params,
    11,
    canimxy3d_define,
    bsim_std_record_fn,
    0,
    xyz_exprs};

/* ------------------------------------------------------------------ BARXY */

static const bsim_param_spec barxy_params[] = {
    BSIM_SINK_SETTING("xmin", "-15", "lower end of the x axis"),
    BSIM_SINK_SETTING("xmax", "15", "upper end of the x axis"),
    BSIM_SINK_SETTING("ymin", "-15", "lower end of the y axis"),
    BSIM_SINK_SETTING("ymax", "15", "upper end of the y axis"),
    BSIM_SINK_SETTING("thickness", "1", "thickness of the segments (> 0)"),
};

/* The four axis ends of a 2D drawing, checked in Xcos's order. */
static int axes(bsim_define_ctx *ctx, double *r) {
  return bsim_std_scalar(ctx, "xmin", &r[0]) ||
                 bsim_std_scalar(ctx, "xmax", &r[1]) ||
                 bsim_std_scalar(ctx, "ymin", &r[2]) ||
                 bsim_std_scalar(ctx, "ymax", &r[3]) ||
                 bsim_std_ordered(ctx, "ymin", r[2], "ymax", r[3]) ||
                 bsim_std_ordered(ctx, "xmin", r[0], "xmax", r[1])
             ? -1
             : 0;
}

static int barxy_define(bsim_define_ctx *ctx, bsim_model *m) {
  double a[4], th;
  if (axes(ctx, a) != 0 || bsim_std_scalar(ctx, "thickness", &th) != 0)
    return -1;
  if (!(th > 0) || th > 1e9)
    return bsim_define_error(ctx, "'thickness' must be > 0, got %g", th);
  double *r = bsim_model_alloc_rpar(m, 4);
  int *ip = bsim_model_alloc_ipar(m, 1);
  if (!r || !ip || bsim_model_set_inputs(m, 2, -1, 1, 1) != 0 ||
      bsim_model_set_events(m, 1, 0) != 0)
    return bsim_define_error(ctx, "out of memory");
  for (int k = 0; k < 4; k++)
    r[k] = a[k];
  ip[0] = (int)th; /* Xcos's ipar holds it truncated */
  return 0;
}

static const bsim_block_type type_BARXY = {
    "BARXY",
    "BARXY_sim",
    "Segments animation: records its two inputs at each activation.",
    "Xcos draws segments whose ends it reads from its two inputs (of the\n"
    "same size). Each activation records one row: the time, then the\n"
    "elements of input 1 and of input 2.\n"
    "Run-time layout: rpar = [xmin; xmax; ymin; ymax], ipar = thickness\n"
    "(truncated to an integer), in = [-1; -1], in2 = [1; 1],\n"
    "dep_u = [1 1], nevin = 1.",
    barxy_params,
    5,
    barxy_define,
    bsim_std_record_fn,
    0,
    "xmin,xmax,ymin,ymax,thickness"};

/* --------------------------------------------------------------- BOUNCEXY */

static const bsim_param_spec bouncexy_params[] = {
    BSIM_SINK_SETTING("colors", "[1;2]", "colour of each ball"),
    BSIM_SINK_SETTING("radii", "[1;1]",
                      "radius of each ball, as many as colours"),
    BSIM_SINK_WINDOW,
    BSIM_SINK_SETTING("mode", "1", "animation mode (0 or 1)"),
    BSIM_SINK_SETTING("xmin", "-5", "lower end of the x axis"),
    BSIM_SINK_SETTING("xmax", "5", "upper end of the x axis"),
    BSIM_SINK_SETTING("ymin", "0", "lower end of the y axis"),
    BSIM_SINK_SETTING("ymax", "15", "upper end of the y axis"),
};

static int bouncexy_define(bsim_define_ctx *ctx, bsim_model *m) {
  double a[4], mode;
  int win;
  const bsim_value *clr = bsim_param(ctx, "colors");
  const bsim_value *rad = bsim_param(ctx, "radii");
  int n = bsim_std_numel(clr);
  if (n != bsim_std_numel(rad))
    return bsim_define_error(ctx,
                             "'colors' and 'radii' must have one entry per "
                             "ball, got %d and %d",
                             n, bsim_std_numel(rad));
  if (bsim_std_window(ctx, "window", &win) != 0 || axes(ctx, a) != 0 ||
      bsim_std_scalar(ctx, "mode", &mode) != 0 ||
      bsim_std_check_ints(ctx, "colors", clr, n) != 0)
    return -1;
  if (fabs(mode) > 1e9)
    return bsim_define_error(ctx, "'mode' must be 0 or 1, got %g", mode);
  double *r = bsim_model_alloc_rpar(m, 4);
  int *ip = bsim_model_alloc_ipar(m, 2 + n);
  double *z = bsim_model_alloc_z0(m, 6 * n);
  if (!r || !ip || !z || bsim_model_set_inputs(m, 2, -1, 1, 0) != 0 ||
      bsim_model_set_events(m, 1, 0) != 0)
    return bsim_define_error(ctx, "out of memory");
  for (int k = 0; k < 4; k++)
    r[k] = a[k];
  ip[0] = win;
  ip[1] = (int)mode;
  /* z holds what Xcos draws each ball with: [x; y; w; h; angle; arc] */
  for (int k = 0; k < n; k++) {
    ip[2 + k] = (int)clr->v[k];
    z[6 * k + 2] = z[6 * k + 3] = 2 * rad->v[k];
    z[6 * k + 5] = 64.0 * 360.0;
  }
  return 0;
}

static const bsim_block_type type_BOUNCEXY = {
    "BOUNCEXY",
    "bouncexy",
    "Balls animation: records the balls' x and y at each activation.",
    "Xcos draws balls (the 'bounce' demo) at the x coordinates of input 1\n"
    "and the y coordinates of input 2. Each activation records one row:\n"
    "the time, then the elements of input 1 and of input 2.\n"
    "Run-time layout: rpar = [xmin; xmax; ymin; ymax], ipar = [window;\n"
    "mode; colors(:)], z0 = [0; 0; 2 r; 2 r; 0; 23040] per ball of radius\n"
    "r, in = [-1; -1], in2 = [1; 1], dep_u = [0 0], nevin = 1.",
    bouncexy_params,
    8,
    bouncexy_define,
    bsim_std_record_fn,
    0,
    "colors,radii,window,mode,xmin,xmax,ymin,ymax"};

/* -------------------------------------------------------------- BPLATFORM */

static const bsim_param_spec bplatform_params[] = {
    BSIM_SINK_SETTING("length", "2", "pendulum length (> 0)"),
    BSIM_SINK_SETTING("cart-size", "2", "side of the square cart (> 0)"),
    BSIM_SINK_SETTING("slope", "0", "slope of the platform"),
    BSIM_SINK_SETTING("xmin", "-5", "lower end of the x axis"),
    BSIM_SINK_SETTING("xmax", "5", "upper end of the x axis"),
    BSIM_SINK_SETTING("ymin", "0", "lower end of the y axis"),
    BSIM_SINK_SETTING("ymax", "15", "upper end of the y axis"),
};

static int bplatform_define(bsim_define_ctx *ctx, bsim_model *m) {
  double len, cart, slope, a[4];
  if (bsim_std_scalar(ctx, "length", &len) != 0 ||
      bsim_std_scalar(ctx, "cart-size", &cart) != 0 ||
      bsim_std_scalar(ctx, "slope", &slope) != 0)
    return -1;
  if (!(len > 0) || !(cart > 0))
    return bsim_define_error(ctx,
                             "'length' and 'cart-size' must be > 0, got %g "
                             "and %g",
                             len, cart);
  if (axes(ctx, a) != 0) return -1;
  double *r = bsim_model_alloc_rpar(m, 7);
  if (!r || !bsim_model_alloc_z0(m, 1) ||
      bsim_model_set_inputs(m, 2, 1, 1, 0) != 0 ||
      bsim_model_set_events(m, 1, 0) != 0)
    return bsim_define_error(ctx, "out of memory");
  double rv[7] = {len, cart, slope, a[0], a[1], a[2], a[3]};
  for (int k = 0; k < 7; k++)
    r[k] = rv[k];
  return 0;
}

static const bsim_block_type type_BPLATFORM = {
    "BPLATFORM",
    "bplatform2",
    "Ball-on-platform animation: records its two inputs.",
    "Xcos draws the platform and the cart of the Ball_Platform demo from\n"
    "its two scalar inputs. Each activation records one row: the time,\n"
    "then input 1 and input 2.\n"
    "Run-time layout: rpar = [length; cart-size; slope; xmin; xmax; ymin;\n"
    "ymax], z0 = 0, in = [1; 1], in2 = [1; 1], dep_u = [0 0], nevin = 1.",
    bplatform_params,
    7,
    bplatform_define,
    bsim_std_record_fn,
    0,
    "length,cart-size,slope,xmin,xmax,ymin,ymax"};

const bsim_block_type *const bsim_sink_xy_types[] = {
    &type_CSCOPXY, &type_CANIMXY,  &type_CSCOPXY3D, &type_CANIMXY3D,
    &type_BARXY,   &type_BOUNCEXY, &type_BPLATFORM};
const int bsim_sink_xy_ntypes =
    (int)(sizeof bsim_sink_xy_types / sizeof bsim_sink_xy_types[0]);
