/*
 * Plots and the result tables they draw from.
 *
 * Tables: the same run read back from its CSV, MAT and HDF5 files gives
 * exactly the tables of the sim in memory (names, times, values bit for
 * bit: the formats store doubles losslessly).
 *
 * Plots: each format's file is produced with its signature (PNG header and
 * size in IHDR, "%PDF-", an SVG of the requested size); an SVG holds one
 * stroked path per curve (line width 1.5, the width only curves use) and
 * one legend swatch per curve (width 3), for the default panels, one
 * panel, one panel per curve and a --signals selection; an unknown signal
 * and an unknown extension are refused with their messages.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocksim/plot.h"
#include "tests/unit/test_check.h"
#include "tests/unit/test_library.h"
#include "tests/unit/test_tmpdir.h"

static char dir[256];

static void same_tables(const bsim_tables *a, const bsim_tables *b,
                        const char *what, int first_name) {
  size_t n = bsim_tables_count(a);
  CHECK(n == bsim_tables_count(b), "%s: %zu tables, want %zu", what,
        bsim_tables_count(b), n);
  for (size_t i = 0; i < n && n == bsim_tables_count(b); i++) {
    size_t rows = bsim_table_rows(a, i), cols = bsim_table_cols(a, i);
    if (i > 0 || first_name)
      CHECK(strcmp(bsim_table_name(a, i), bsim_table_name(b, i)) == 0,
            "%s: table %zu named %s", what, i, bsim_table_name(b, i));
    CHECK(rows == bsim_table_rows(b, i) && cols == bsim_table_cols(b, i),
          "%s: table %zu is %zux%zu", what, i, bsim_table_rows(b, i),
          bsim_table_cols(b, i));
    if (rows != bsim_table_rows(b, i) || cols != bsim_table_cols(b, i))
      continue;
    CHECK(memcmp(bsim_table_time(a, i), bsim_table_time(b, i),
                 rows * sizeof(double)) == 0,
          "%s: table %zu times", what, i);
    for (size_t c = 0; c < cols; c++) {
      CHECK(strcmp(bsim_table_column_name(a, i, c),
                   bsim_table_column_name(b, i, c)) == 0,
            "%s: table %zu column %zu named %s", what, i, c,
            bsim_table_column_name(b, i, c));
      CHECK(memcmp(bsim_table_column(a, i, c), bsim_table_column(b, i, c),
                   rows * sizeof(double)) == 0,
            "%s: table %zu column %zu values", what, i, c);
    }
  }
}

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  if (s && fread(s, 1, (size_t)n, f) != (size_t)n) n = 0;
  if (s) s[n] = '\0';
  fclose(f);
  *len = (size_t)n;
  return s;
}

static int count(const char *hay, const char *needle) {
  int n = 0;
  for (const char *p = hay; (p = strstr(p, needle)) != NULL; p++)
    n++;
  return n;
}

static unsigned be32(const unsigned char *p) {
  return (unsigned)p[0] << 24 | (unsigned)p[1] << 16 | (unsigned)p[2] << 8 |
         (unsigned)p[3];
}

/* Plot t with o into name; SVG: check curves and size. */
static void plot_svg(const bsim_tables *t, const bsim_plot_options *o,
                     int curves, int height, const char *what) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s.svg", dir, what);
  bsim_error err;
  bsim_error_clear(&err);
  CHECK(bsim_plot_write(t, path, o, &err) == 0, "%s: %s", what, err.message);
  size_t len;
  char *svg = slurp(path, &len);
  CHECK(svg && strncmp(svg, "<?xml", 5) == 0 && strstr(svg, "<svg"),
        "%s: not an SVG", what);
  if (!svg) return;
  char size[64];
  snprintf(size, sizeof size, "width=\"900pt\" height=\"%dpt\"", height);
  CHECK(strstr(svg, size) != NULL, "%s: size is not %s", what, size);
  CHECK(count(svg, "stroke-width:1.5;") == curves, "%s: %d curves, want %d",
        what, count(svg, "stroke-width:1.5;"), curves);
  CHECK(count(svg, "stroke-width:3;") == curves,
        "%s: %d legend swatches, want %d", what, count(svg, "stroke-width:3;"),
        curves);
  /* text: titles, "time" per panel, legend labels, tick labels */
  int texts = count(svg, "<g style=\"fill:rgb(");
  CHECK(texts >= curves + 2 * 4, "%s: only %d labels", what, texts);
  free(svg);
}

static void test_plots(const bsim_tables *t) {
  bsim_plot_options o;
  bsim_plot_options_init(&o);
  /* default: a panel for the signals (y, u) and one for the record */
  plot_svg(t, &o, 4, 40 + 2 * 280, "tables");
  o.panels = BSIM_PANELS_ONE;
  plot_svg(t, &o, 4, 40 + 280, "one");
  o.panels = BSIM_PANELS_EACH;
  plot_svg(t, &o, 4, 40 + 4 * 280, "each");
  const char *sel[2] = {"u", "samples.u2"};
  o.signals = sel;
  o.nsignals = 2;
  o.panels = BSIM_PANELS_TABLE;
  plot_svg(t, &o, 2, 40 + 2 * 280, "selected");
  const char *whole[1] = {"samples"};
  o.signals = whole;
  o.nsignals = 1;
  plot_svg(t, &o, 2, 40 + 280, "record");

  /* PNG and PDF */
  char path[512];
  bsim_error err;
  bsim_error_clear(&err);
  bsim_plot_options_init(&o);
  o.width = 640;
  o.height = 480;
  snprintf(path, sizeof path, "%s/p.png", dir);
  CHECK(bsim_plot_write(t, path, &o, &err) == 0, "png: %s", err.message);
  size_t len;
  unsigned char *png = (unsigned char *)slurp(path, &len);
  CHECK(png && len > 1000 && memcmp(png, "\211PNG\r\n\032\n", 8) == 0 &&
            memcmp(png + 12, "IHDR", 4) == 0 && be32(png + 16) == 640 &&
            be32(png + 20) == 480,
        "PNG header or size");
  free(png);
  snprintf(path, sizeof path, "%s/p.pdf", dir);
  CHECK(bsim_plot_write(t, path, &o, &err) == 0, "pdf: %s", err.message);
  char *pdf = slurp(path, &len);
  CHECK(pdf && len > 1000 && strncmp(pdf, "%PDF-", 5) == 0, "PDF header");
  free(pdf);

  /* refusals */
  const char *bad[1] = {"nosuch"};
  o.signals = bad;
  o.nsignals = 1;
  bsim_error_clear(&err);
  snprintf(path, sizeof path, "%s/bad.svg", dir);
  CHECK(bsim_plot_write(t, path, &o, &err) != 0 &&
            err.status == BSIM_ERR_INPUT &&
            strstr(err.message, "no signal 'nosuch'") &&
            strstr(err.message, "valid: y, u, samples.u1, samples.u2"),
        "unknown signal: '%s'", err.message);
  bsim_plot_options_init(&o);
  bsim_error_clear(&err);
  snprintf(path, sizeof path, "%s/p.gif", dir);
  CHECK(bsim_plot_write(t, path, &o, &err) != 0 &&
            strstr(err.message, ".png, .svg or .pdf"),
        "extension: '%s'", err.message);
  FILE *f = fopen(path, "r");
  CHECK(f == NULL, "a refused plot left %s", path);
  if (f) fclose(f);
}

int main(void) {
  bsim_process_init();
  CHECK(test_tmpdir_make(dir, sizeof dir, "plot") == 0, "mkdtemp");
  char path[512];
  snprintf(path, sizeof path, "%s/batch/member.xml", BSIM_TEST_DATA);
  bsim_error err;
  bsim_error_clear(&err);
  bsim_diagram *d = bsim_diagram_load(path, test_library(), &err);
  bsim_sim *s = d ? bsim_sim_create(d, NULL, &err) : NULL;
  CHECK(s && bsim_sim_run(s, &err) == 0, "run: %s", err.message);
  if (!s) return 1;
  bsim_tables *mem = bsim_tables_of_sim(s, &err);
  CHECK(mem && bsim_tables_count(mem) == 2 &&
            strcmp(bsim_table_name(mem, 1), "samples") == 0,
        "tables of the sim");
  static const char *const ext[3] = {"csv", "mat", "h5"};
  for (int k = 0; mem && k < 3; k++) {
    char out[700], scopes[400];
    snprintf(out, sizeof out, "%s/r.%s", dir, ext[k]);
    snprintf(scopes, sizeof scopes, "%s/scopes_%s", dir, ext[k]);
    bsim_write_options o;
    bsim_write_options_init(&o);
    o.csv_path = out;
    o.format = (bsim_format)k;
    o.scopes_dir = scopes;
    o.scopes_format = (bsim_format)k;
    CHECK(bsim_sim_write(s, &o, &err) == 0, "write %s: %s", out, err.message);
    bsim_tables *back = bsim_tables_read(out, -1, &err);
    CHECK(back != NULL, "read %s: %s", out, err.message);
    if (back && k > 0) same_tables(mem, back, out, 0);
    if (back && k == 0) { /* CSV: the signals only */
      CHECK(bsim_tables_count(back) == 1 &&
                strcmp(bsim_table_name(back, 0), "r") == 0,
            "CSV tables");
      CHECK(bsim_table_rows(back, 0) == bsim_table_rows(mem, 0) &&
                memcmp(bsim_table_column(back, 0, 1),
                       bsim_table_column(mem, 0, 1),
                       sizeof(double) * bsim_table_rows(mem, 0)) == 0,
            "CSV column u");
    }
    bsim_tables_free(back);
    /* a scope file alone: one table named after the file; 30 ticks, 0 to
     * 2.9 (the one due at the final time 3 is not served, as in Xcos) */
    snprintf(out, sizeof out, "%s/samples.%s", scopes, ext[k]);
    back = bsim_tables_read(out, -1, &err);
    CHECK(back && bsim_tables_count(back) == 1 &&
              bsim_table_rows(back, 0) == 30 && bsim_table_cols(back, 0) == 2 &&
              memcmp(bsim_table_column(back, 0, 1),
                     bsim_table_column(mem, 1, 1), 30 * sizeof(double)) == 0,
          "scope file %s: %s", out, err.message);
    bsim_tables_free(back);
  }
  bsim_error_clear(&err);
  CHECK(bsim_tables_read("/nonexistent/x.h5", -1, &err) == NULL &&
            err.status == BSIM_ERR_INPUT,
        "missing file");
  if (mem) test_plots(mem);
  bsim_tables_free(mem);
  bsim_sim_free(s);
  bsim_diagram_free(d);
  test_tmpdir_done(dir, failures, "test_plot");
  return failures ? 1 : 0;
}
