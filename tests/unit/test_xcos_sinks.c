/*
 * The sinks of Xcos's Sinks palette in whole runs, against what Scilab's
 * own simulator recorded for the same diagrams: small diagrams built with
 * Scilab's block macros (the .sce scripts of tests/data/xcos/sinks), run by
 * xcos_ref.sh for the reference CSVs there, and replicated as native XML.
 * A record must have Scilab's columns (same names), rows (same times) and
 * values; each case states its tolerance and why.
 */
#include "tests/unit/xcos_ref.h"

typedef struct xr_case {
  const char *sink, *csv;
  double rel_peak;
  const char *what;
} xr_case;

/* sinks_xy: every recorded value is sin() of a sample time, the time
 * itself or a constant, evaluated by the same libm as Scilab's: a few ulps
 * at most, so 1e-12 of the peak (a wrong input order, a missing input or
 * a shifted sample is off by O(1)). */
static const xr_case xy_cases[] = {
    {"xy", "xcos/sinks/ref_sinks_xy/CSCOPXY_6.csv", 1e-12, "CSCOPXY"},
    {"xyz", "xcos/sinks/ref_sinks_xy/CSCOPXY3D_7.csv", 1e-12, "CSCOPXY3D"},
    {"anim", "xcos/sinks/ref_sinks_xy/CANIMXY_8.csv", 1e-12, "CANIMXY"},
    {"anim3", "xcos/sinks/ref_sinks_xy/CANIMXY3D_9.csv", 1e-12, "CANIMXY3D"},
    {"bar", "xcos/sinks/ref_sinks_xy/BARXY_10.csv", 1e-12, "BARXY"},
    {"balls", "xcos/sinks/ref_sinks_xy/BOUNCEXY_11.csv", 1e-12, "BOUNCEXY"},
    {"platform", "xcos/sinks/ref_sinks_xy/BPLATFORM_12.csv", 1e-12,
     "BPLATFORM"},
    {"floating", "xcos/sinks/ref_sinks_xy/CFSCOPE_13.csv", 1e-12, "CFSCOPE"},
    /* 0/1 flags: exact */
    {"events", "xcos/sinks/ref_sinks_xy/CEVENTSCOPE_16.csv", 1e-300,
     "CEVENTSCOPE"},
};

/* The header of a reference CSV after "t," must be the record's column
 * names: the same columns, in the same order, under the same names. */
static void same_names(const bsim_sim *s, const char *sink, const char *csv) {
  char path[1024], line[4096];
  snprintf(path, sizeof path, "%s/%s", BSIM_TEST_DATA, csv);
  FILE *f = fopen(path, "r");
  const char *names = NULL, *p;
  size_t rows;
  int cols;
  const double *data;
  for (size_t i = 0; (p = bsim_record_at(s, i, &rows, &cols, &data)); i++)
    if (strcmp(p, sink) == 0) names = bsim_record_names(s, i);
  if (!f || !fgets(line, sizeof line, f)) {
    CHECK(0, "cannot read %s", path);
  } else {
    line[strcspn(line, "\r\n")] = '\0';
    CHECK(names && strncmp(line, "t,", 2) == 0 && strcmp(line + 2, names) == 0,
          "%s: columns '%s', Scilab '%s'", sink, names ? names : "(none)",
          line);
  }
  if (f) fclose(f);
}

int main(void) {
  bsim_sim *s = xr_run("xcos/sinks/sinks_xy.xml", NULL);
  for (size_t i = 0; s && i < sizeof xy_cases / sizeof xy_cases[0]; i++) {
    const xr_case *c = &xy_cases[i];
    xr_compare(s, c->sink, c->csv, 2, c->rel_peak, c->what);
    same_names(s, c->sink, c->csv);
  }
  bsim_sim_free(s);
  return xr_finish("test_xcos_sinks");
}
