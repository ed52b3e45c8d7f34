/*
 * Time plots of result tables with cairo: PNG, SVG or PDF by extension.
 * Panels are stacked vertically; each has a frame, a light grid at "nice"
 * tick values (1, 2 or 5 times a power of ten), tick labels, "time" under
 * its x axis, a title and a legend; all panels share one time axis, and
 * sparse series get a dot on each point. Long series are thinned to the first,
 * lowest, highest and last value of each pixel column, which draws the
 * same picture with a bounded number of points. blocksim's optional plot
 * module (bsim_plot_write, plot_entry.c, loads it).
 */
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "blocksim/plot.h"
#include "modules/module.h"
#include "output/atomic.h"
#include "output/plot_module.h"

enum { DEFAULT_WIDTH = 900, PANEL_HEIGHT = 280, MAX_HEIGHT = 4000 };
static const double margin_left = 78, margin_right = 24, margin_top = 30,
                    margin_bottom = 46, font_size = 12;

/* Distinguishable colours (a qualitative palette), cycled. */
static const double palette[][3] = {{0.12, 0.47, 0.71}, {1.00, 0.50, 0.05},
                                    {0.17, 0.63, 0.17}, {0.84, 0.15, 0.16},
                                    {0.58, 0.40, 0.74}, {0.55, 0.34, 0.29},
                                    {0.89, 0.47, 0.76}, {0.50, 0.50, 0.50},
                                    {0.74, 0.74, 0.13}, {0.09, 0.75, 0.81}};
enum { NCOLORS = sizeof palette / sizeof palette[0] };

typedef struct curve {
  size_t table, col;
  char *label;
  int panel;
} curve;

typedef struct plot {
  const bsim_tables *T;
  curve *c;
  int n, npanels;
  char **titles; /* per panel */
} plot;

static void plot_free(plot *p) {
  for (int i = 0; i < p->n; i++)
    free(p->c[i].label);
  for (int i = 0; p->titles && i < p->npanels; i++)
    free(p->titles[i]);
  free(p->c);
  free(p->titles);
}

static char *label_of(const bsim_tables *T, size_t t, size_t c) {
  const char *col = bsim_table_column_name(T, t, c);
  if (t == 0) return strdup(col);
  const char *tab = bsim_table_name(T, t);
  size_t len = strlen(tab) + strlen(col) + 2;
  char *s = malloc(len);
  if (s) snprintf(s, len, "%s.%s", tab, col);
  return s;
}

static int add_curve(plot *p, size_t t, size_t c) {
  for (int i = 0; i < p->n; i++) /* named twice: drawn once */
    if (p->c[i].table == t && p->c[i].col == c) return 0;
  curve *g = realloc(p->c, sizeof *g * (size_t)(p->n + 1));
  if (!g) return -1;
  p->c = g;
  g[p->n] = (curve){t, c, label_of(p->T, t, c), 0};
  return g[p->n++].label ? 0 : -1;
}

/* The curves one selector names; 0 when it names none. */
static int select_one(plot *p, const char *sel, int *found) {
  const bsim_tables *T = p->T;
  *found = 0;
  for (size_t t = 0; t < bsim_tables_count(T); t++) {
    const char *tab = bsim_table_name(T, t);
    size_t tl = strlen(tab);
    int whole = t > 0 && strcmp(sel, tab) == 0;
    int prefixed = strncmp(sel, tab, tl) == 0 && sel[tl] == '.';
    for (size_t c = 0; c < bsim_table_cols(T, t); c++) {
      const char *col = bsim_table_column_name(T, t, c);
      if (whole || (t == 0 && strcmp(sel, col) == 0) ||
          (prefixed && strcmp(sel + tl + 1, col) == 0)) {
        if (add_curve(p, t, c) != 0) return -1;
        *found = 1;
      }
    }
  }
  return 0;
}

static void valid_names(const bsim_tables *T, char *buf, size_t len) {
  size_t used = 0;
  buf[0] = '\0';
  for (size_t t = 0; t < bsim_tables_count(T) && used < len; t++)
    for (size_t c = 0; c < bsim_table_cols(T, t) && used < len; c++) {
      char *l = label_of(T, t, c);
      int w = snprintf(buf + used, len - used, "%s%s", used ? ", " : "",
                       l ? l : "?");
      free(l);
      if (w < 0) return;
      used += (size_t)w;
    }
  if (used >= len && len > 4) strcpy(buf + len - 4, "...");
}

static int select_curves(plot *p, const bsim_plot_options *o, bsim_error *err) {
  const bsim_tables *T = p->T;
  if (!o->signals || o->nsignals <= 0) {
    for (size_t t = 0; t < bsim_tables_count(T); t++)
      for (size_t c = 0; c < bsim_table_cols(T, t); c++)
        if (add_curve(p, t, c) != 0) goto nomem;
  }
  for (int i = 0; o->signals && i < o->nsignals; i++) {
    int found;
    if (select_one(p, o->signals[i], &found) != 0) goto nomem;
    if (!found) {
      char names[1024];
      valid_names(T, names, sizeof names);
      bsim_error_set(err, BSIM_ERR_INPUT,
                     "plot: no signal '%s' in the result (valid: %s)",
                     o->signals[i], names);
      return -1;
    }
  }
  if (p->n == 0) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "plot: the result holds no signal to draw (hint: add an "
                   "<observe> to the diagram)");
    return -1;
  }
  /* panels */
  p->titles = calloc((size_t)p->n, sizeof(char *));
  if (!p->titles) goto nomem;
  for (int i = 0; i < p->n; i++) {
    curve *c = &p->c[i];
    const char *title = NULL;
    if (o->panels == BSIM_PANELS_ONE) {
      c->panel = 0;
      title = o->title ? o->title : "";
    } else if (o->panels == BSIM_PANELS_EACH) {
      c->panel = p->npanels;
      title = c->label;
    } else {
      c->panel = -1;
      for (int j = 0; j < i; j++)
        if (p->c[j].table == c->table) c->panel = p->c[j].panel;
      if (c->panel < 0) c->panel = p->npanels;
      title = bsim_table_name(T, c->table);
    }
    if (c->panel == p->npanels) {
      if (!(p->titles[p->npanels] = strdup(title))) goto nomem;
      p->npanels++;
    }
  }
  return 0;
nomem:
  bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
  return -1;
}

/* ------------------------------------------------------------------ */
/* Axes                                                                */
/* ------------------------------------------------------------------ */

typedef struct range {
  double lo, hi;
} range;

/* A step of 1, 2 or 5 times a power of ten giving about `target` ticks. */
static double tick_step(range r, int target) {
  double raw = (r.hi - r.lo) / target;
  double mag = pow(10.0, floor(log10(raw)));
  double f = raw / mag;
  return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * mag;
}

/* Widen a range so that it is not empty and its data does not touch the
 * frame. */
static range pad(range r, double frac) {
  if (!(r.hi >= r.lo)) return (range){-1, 1}; /* no finite data */
  if (r.hi - r.lo <= 1e-12 * fmax(fabs(r.lo), fabs(r.hi))) {
    double d = r.lo == 0 ? 1 : 0.1 * fabs(r.lo);
    return (range){r.lo - d, r.hi + d};
  }
  double d = frac * (r.hi - r.lo);
  return (range){r.lo - d, r.hi + d};
}

static void format_tick(double v, double step, char *buf, size_t len) {
  if (fabs(v) < 1e-9 * step) v = 0;
  snprintf(buf, len, "%.6g", v);
}

typedef struct box {
  double x, y, w, h; /* plot area in device units */
  range xr, yr;
} box;

static double px(const box *b, double x) {
  return b->x + (x - b->xr.lo) / (b->xr.hi - b->xr.lo) * b->w;
}
static double py(const box *b, double y) {
  return b->y + b->h - (y - b->yr.lo) / (b->yr.hi - b->yr.lo) * b->h;
}

static void text_at(cairo_t *cr, const char *s, double x, double y, double ax,
                    double ay) {
  cairo_text_extents_t e;
  cairo_text_extents(cr, s, &e);
  cairo_move_to(cr, x - ax * e.width - e.x_bearing,
                y - ay * e.height - e.y_bearing);
  cairo_show_text(cr, s);
}

static void axes(cairo_t *cr, const box *b, const char *title) {
  cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
  cairo_set_line_width(cr, 1);
  double xs = tick_step(b->xr, 8), ys = tick_step(b->yr, 6);
  char buf[64];
  /* grid and tick labels: x */
  for (double v = ceil(b->xr.lo / xs) * xs; v <= b->xr.hi + 1e-9 * xs;
       v += xs) {
    double x = px(b, v);
    cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
    cairo_move_to(cr, x, b->y);
    cairo_line_to(cr, x, b->y + b->h);
    cairo_stroke(cr);
    cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
    cairo_move_to(cr, x, b->y + b->h);
    cairo_line_to(cr, x, b->y + b->h + 5);
    cairo_stroke(cr);
    format_tick(v, xs, buf, sizeof buf);
    text_at(cr, buf, x, b->y + b->h + 8, 0.5, 0);
  }
  for (double v = ceil(b->yr.lo / ys) * ys; v <= b->yr.hi + 1e-9 * ys;
       v += ys) {
    double y = py(b, v);
    cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
    cairo_move_to(cr, b->x, y);
    cairo_line_to(cr, b->x + b->w, y);
    cairo_stroke(cr);
    cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
    cairo_move_to(cr, b->x - 5, y);
    cairo_line_to(cr, b->x, y);
    cairo_stroke(cr);
    format_tick(v, ys, buf, sizeof buf);
    text_at(cr, buf, b->x - 8, y, 1, 0.5);
  }
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_rectangle(cr, b->x, b->y, b->w, b->h);
  cairo_stroke(cr);
  text_at(cr, "time", b->x + b->w / 2, b->y + b->h + 26, 0.5, 0);
  if (title && *title) text_at(cr, title, b->x + b->w / 2, b->y - 8, 0.5, 1);
}

/* ------------------------------------------------------------------ */
/* Curves                                                              */
/* ------------------------------------------------------------------ */

/* The polyline of one curve, thinned per pixel column and broken at
 * non-finite values. */
static void draw_curve(cairo_t *cr, const box *b, const double *t,
                       const double *v, size_t n) {
  int pen = 0;
  double col = -1, lo = 0, hi = 0, last = 0;
  int have = 0;
  for (size_t i = 0; i < n; i++) {
    if (!isfinite(t[i]) || !isfinite(v[i])) {
      pen = 0;
      continue;
    }
    double x = px(b, t[i]), y = py(b, v[i]);
    double c = floor(x);
    if (n > 4 * (size_t)b->w && pen && have && c == col) {
      lo = fmin(lo, y);
      hi = fmax(hi, y);
      last = y;
      continue;
    }
    if (have && pen) { /* close the previous column: its extremes, last */
      cairo_line_to(cr, col + 0.5, lo);
      cairo_line_to(cr, col + 0.5, hi);
      cairo_line_to(cr, col + 0.5, last);
    }
    if (pen)
      cairo_line_to(cr, x, y);
    else
      cairo_move_to(cr, x, y);
    pen = 1;
    have = n > 4 * (size_t)b->w;
    col = c;
    lo = hi = last = y;
  }
  cairo_stroke(cr);
}

static void legend(cairo_t *cr, const box *b, const plot *p, int panel) {
  double w = 0, h = 0, line = font_size + 6;
  for (int i = 0; i < p->n; i++) {
    if (p->c[i].panel != panel) continue;
    cairo_text_extents_t e;
    cairo_text_extents(cr, p->c[i].label, &e);
    w = fmax(w, e.x_advance);
    h += line;
  }
  double x0 = b->x + b->w - w - 44, y0 = b->y + 8;
  cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
  cairo_rectangle(cr, x0, y0, w + 36, h + 6);
  cairo_fill_preserve(cr);
  cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
  cairo_set_line_width(cr, 1);
  cairo_stroke(cr);
  double y = y0 + 3 + line / 2;
  for (int i = 0; i < p->n; i++) {
    if (p->c[i].panel != panel) continue;
    const double *rgb = palette[i % NCOLORS];
    cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
    cairo_set_line_width(cr, 3); /* swatches: thicker than curves */
    cairo_move_to(cr, x0 + 6, y);
    cairo_line_to(cr, x0 + 24, y);
    cairo_stroke(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    text_at(cr, p->c[i].label, x0 + 30, y, 0, 0.5);
    y += line;
  }
}

/* The finite extent of the times (y = 0) or values (y = 1) of the curves
 * of panel k (every panel when k < 0). */
static range extent(const plot *p, int k, int y) {
  const bsim_tables *T = p->T;
  range r = {INFINITY, -INFINITY};
  for (int i = 0; i < p->n; i++) {
    if (k >= 0 && p->c[i].panel != k) continue;
    size_t t = p->c[i].table, n = bsim_table_rows(T, t);
    const double *v =
        y ? bsim_table_column(T, t, p->c[i].col) : bsim_table_time(T, t);
    for (size_t j = 0; j < n; j++)
      if (isfinite(v[j])) {
        r.lo = fmin(r.lo, v[j]);
        r.hi = fmax(r.hi, v[j]);
      }
  }
  return r;
}

/* Dots on the points of a sparse series (a sink's few activations), so
 * that a line between two samples does not pass for data. */
static void draw_marks(cairo_t *cr, const box *b, const double *t,
                       const double *v, size_t n) {
  if (n == 0 || (double)n > b->w / 8) return;
  for (size_t i = 0; i < n; i++) {
    if (!isfinite(t[i]) || !isfinite(v[i])) continue;
    cairo_new_sub_path(cr);
    cairo_arc(cr, px(b, t[i]), py(b, v[i]), 2.5, 0, 2 * 3.14159265358979323846);
  }
  cairo_fill(cr);
}

static void panel(cairo_t *cr, const plot *p, int k, range xr, double top,
                  double width, double height) {
  const bsim_tables *T = p->T;
  box b = {margin_left,
           top + margin_top,
           width - margin_left - margin_right,
           height - margin_top - margin_bottom,
           pad(xr, 0),
           pad(extent(p, k, 1), 0.05)};
  axes(cr, &b, p->titles[k]);
  cairo_save(cr);
  cairo_rectangle(cr, b.x, b.y, b.w, b.h);
  cairo_clip(cr);
  cairo_set_line_width(cr, 1.5);
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
  for (int i = 0; i < p->n; i++) {
    if (p->c[i].panel != k) continue;
    size_t t = p->c[i].table;
    const double *rgb = palette[i % NCOLORS];
    cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
    const double *tt = bsim_table_time(T, t),
                 *v = bsim_table_column(T, t, p->c[i].col);
    draw_curve(cr, &b, tt, v, bsim_table_rows(T, t));
    draw_marks(cr, &b, tt, v, bsim_table_rows(T, t));
  }
  cairo_restore(cr);
  legend(cr, &b, p, k);
}

static void draw(cairo_t *cr, const plot *p, const bsim_plot_options *o,
                 double width, double height) {
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_paint(cr);
  cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                         CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, font_size);
  double head = o->title && o->panels != BSIM_PANELS_ONE ? 24 : 0;
  if (head) {
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_font_size(cr, font_size + 3);
    text_at(cr, o->title, width / 2, 6, 0.5, 0);
    cairo_set_font_size(cr, font_size);
  }
  /* one time axis for all panels, so that they line up */
  range xr = extent(p, -1, 0);
  double ph = (height - head) / p->npanels;
  for (int k = 0; k < p->npanels; k++)
    panel(cr, p, k, xr, head + k * ph, width, ph);
}

/* ------------------------------------------------------------------ */
/* Files                                                               */
/* ------------------------------------------------------------------ */

static cairo_status_t to_file(void *closure, const unsigned char *data,
                              unsigned int len) {
  return fwrite(data, 1, len, (FILE *)closure) == len
             ? CAIRO_STATUS_SUCCESS
             : CAIRO_STATUS_WRITE_ERROR;
}

enum { PNG, SVG, PDF };

static int plot_write(const bsim_tables *T, const char *path,
                      const bsim_plot_options *o, bsim_error *err) {
  const char *dot = strrchr(path, '.');
  int kind = !dot                           ? -1
             : strcasecmp(dot, ".png") == 0 ? PNG
             : strcasecmp(dot, ".svg") == 0 ? SVG
             : strcasecmp(dot, ".pdf") == 0 ? PDF
                                            : -1;
  if (kind < 0) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "plot '%s': unknown image format (hint: name it .png, "
                   ".svg or .pdf)",
                   path);
    return -1;
  }
  plot p = {T, NULL, 0, 0, NULL};
  if (select_curves(&p, o, err) != 0) {
    plot_free(&p);
    return -1;
  }
  double width = o->width > 0 ? o->width : DEFAULT_WIDTH;
  double height = o->height > 0
                      ? o->height
                      : fmin(MAX_HEIGHT, 40 + PANEL_HEIGHT * p.npanels);
  bsim_atomic a;
  int rc = bsim_atomic_open(&a, path, NULL);
  if (rc != 0) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "cannot create '%s': %s (hint: does the folder exist and "
                   "is it writable?)",
                   path, strerror(errno));
    plot_free(&p);
    return -1;
  }
  cairo_surface_t *s =
      kind == PNG ? cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)width,
                                               (int)height)
      : kind == SVG
          ? cairo_svg_surface_create_for_stream(to_file, a.f, width, height)
          : cairo_pdf_surface_create_for_stream(to_file, a.f, width, height);
  cairo_t *cr = cairo_create(s);
  draw(cr, &p, o, width, height);
  cairo_status_t st = cairo_status(cr);
  cairo_destroy(cr);
  if (st == CAIRO_STATUS_SUCCESS && kind == PNG)
    st = cairo_surface_write_to_png_stream(s, to_file, a.f);
  cairo_surface_finish(s);
  if (st == CAIRO_STATUS_SUCCESS) st = cairo_surface_status(s);
  cairo_surface_destroy(s);
  plot_free(&p);
  if (st != CAIRO_STATUS_SUCCESS || bsim_atomic_finish(&a) != 0 ||
      bsim_atomic_commit(&a) != 0) {
    int e = errno;
    bsim_atomic_discard(&a);
    bsim_error_set(err, BSIM_ERR_SIM, "cannot write '%s': %s", path,
                   st != CAIRO_STATUS_SUCCESS ? cairo_status_to_string(st)
                                              : strerror(e));
    return -1;
  }
  return 0;
}

static const out_plot_module plot_module = {plot_write};

const void *bsim_module_plot(void) {
  return &plot_module;
}
