/*
 * The sinks of Xcos's Sinks palette in whole runs, against what Scilab's
 * own simulator recorded for the same diagrams: small diagrams built with
 * Scilab's block macros (the .sce scripts of tests/data/xcos/sinks), run by
 * xcos_ref.sh for the reference CSVs there, and run both from the .xcos
 * file itself and from its native XML replica. A record must have
 * Scilab's columns (same names), rows (same times) and values; each case
 * states its tolerance and why.
 */
#include <unistd.h>

#include "tests/unit/xcos_ref.h"

/* sink: its path in the native replica; xsink: in the .xcos file (named
 * TYPE_n by the reader, the blocks having no labels). */
typedef struct xr_case {
  const char *sink, *xsink, *csv;
  double rel_peak;
  const char *what;
} xr_case;

/* sinks_xy: every recorded value is sin() of a sample time, the time
 * itself or a constant, evaluated by the same libm as Scilab's: a few ulps
 * at most, so 1e-12 of the peak (a wrong input order, a missing input or
 * a shifted sample is off by O(1)). */
static const xr_case xy_cases[] = {
    {"xy", "CSCOPXY_1", "xcos/sinks/ref_sinks_xy/CSCOPXY_6.csv", 1e-12,
     "CSCOPXY"},
    {"xyz", "CSCOPXY3D_1", "xcos/sinks/ref_sinks_xy/CSCOPXY3D_7.csv", 1e-12,
     "CSCOPXY3D"},
    {"anim", "CANIMXY_1", "xcos/sinks/ref_sinks_xy/CANIMXY_8.csv", 1e-12,
     "CANIMXY"},
    {"anim3", "CANIMXY3D_1", "xcos/sinks/ref_sinks_xy/CANIMXY3D_9.csv", 1e-12,
     "CANIMXY3D"},
    {"bar", "BARXY_1", "xcos/sinks/ref_sinks_xy/BARXY_10.csv", 1e-12, "BARXY"},
    {"balls", "BOUNCEXY_1", "xcos/sinks/ref_sinks_xy/BOUNCEXY_11.csv", 1e-12,
     "BOUNCEXY"},
    {"platform", "BPLATFORM_1", "xcos/sinks/ref_sinks_xy/BPLATFORM_12.csv",
     1e-12, "BPLATFORM"},
    {"floating", "CFSCOPE_1", "xcos/sinks/ref_sinks_xy/CFSCOPE_13.csv", 1e-12,
     "CFSCOPE"},
    {"audio", "WRITEAU_f_1", "xcos/sinks/ref_sinks_xy/WRITEAU_f_19.csv", 1e-12,
     "WRITEAU_f"},
    {"scaled", "SCALE_CSCOPE_1", "xcos/sinks/ref_sinks_xy/SCALE_CSCOPE_20.csv",
     1e-12, "SCALE_CSCOPE"},
    /* activated through heritance, by the sample-and-holds' clock */
    {"mscaled", "SCALE_CMSCOPE_1",
     "xcos/sinks/ref_sinks_xy/SCALE_CMSCOPE_23.csv", 1e-12, "SCALE_CMSCOPE"},
    /* 0/1 flags: exact */
    {"events", "CEVENTSCOPE_1", "xcos/sinks/ref_sinks_xy/CEVENTSCOPE_16.csv",
     1e-300, "CEVENTSCOPE"},
};

/* sinks_store: RAND_m draws Scilab's sequence bit for bit (its seed and
 * generator are Scilab's) and the other inputs are sin() and t: 1e-12 of
 * the peak, as above. TOWS_c's record is what Scilab leaves in the
 * workspace (tows_A.csv, made by store_ref.sce), not its activations. */
static const xr_case store_cases[] = {
    {"show", "AFFICH_m_1", "xcos/sinks/ref_sinks_store/AFFICH_m_6.csv", 1e-12,
     "AFFICH_m"},
    {"view", "CMATVIEW_1", "xcos/sinks/ref_sinks_store/CMATVIEW_7.csv", 1e-12,
     "CMATVIEW"},
    {"surface", "CMAT3D_1", "xcos/sinks/ref_sinks_store/CMAT3D_8.csv", 1e-12,
     "CMAT3D"},
    {"trash", "TRASH_f_1", "xcos/sinks/ref_sinks_store/TRASH_f_9.csv", 1e-12,
     "TRASH_f"},
    {"wd", "WRITEC_f_1", "xcos/sinks/ref_sinks_store/WRITEC_f_13.csv", 1e-12,
     "WRITEC_f d"},
    {"ws", "WRITEC_f_2", "xcos/sinks/ref_sinks_store/WRITEC_f_15.csv", 1e-12,
     "WRITEC_f sb"},
    {"tows", "TOWS_c_1", "xcos/sinks/ref_sinks_store/tows_A.csv", 1e-12,
     "TOWS_c"},
};

/* sinks_timed: sinks the file stores as time-dependent are also called,
 * without event bits, at the other clock's ticks (except CFSCOPE, whose
 * dialog makes it event-driven again); each records or keeps a sample
 * there as Xcos's own block does: sin() at the same dates, 1e-12. */
static const xr_case timed_cases[] = {
    {NULL, "CSCOPE_1", "xcos/sinks/ref_sinks_timed/CSCOPE_5.csv", 1e-12,
     "CSCOPE timed"},
    {NULL, "AFFICH_m_1", "xcos/sinks/ref_sinks_timed/AFFICH_m_6.csv", 1e-12,
     "AFFICH_m timed"},
    {NULL, "TOWS_c_1", "xcos/sinks/ref_sinks_timed/tows_T.csv", 1e-12,
     "TOWS_c timed"},
    {NULL, "WRITEC_f_1", "xcos/sinks/ref_sinks_timed/WRITEC_f_8.csv", 1e-12,
     "WRITEC_f timed"},
    {NULL, "CFSCOPE_1", "xcos/sinks/ref_sinks_timed/CFSCOPE_9.csv", 1e-12,
     "CFSCOPE timed"},
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

/* The file a WRITEC_f wrote must be byte for byte the one Scilab's
 * WRITEC_f wrote for the same diagram (store_ref.sce). */
static void same_file(const char *ours, const char *ref) {
  char path[1024], a[4096], b[4096];
  snprintf(path, sizeof path, "%s/%s", BSIM_TEST_DATA, ref);
  FILE *fa = fopen(ours, "rb"), *fb = fopen(path, "rb");
  size_t na = fa ? fread(a, 1, sizeof a, fa) : 0;
  size_t nb = fb ? fread(b, 1, sizeof b, fb) : 0;
  CHECK(fa && fb && na == nb && memcmp(a, b, na) == 0,
        "%s (%zu bytes) differs from Scilab's %s (%zu bytes)", ours, na, ref,
        nb);
  if (fa) fclose(fa);
  if (fb) fclose(fb);
  remove(ours);
}

/* xcos: 1 to run the .xcos file and use the cases' xsink names. */
static void run_cases(const char *diagram, int xcos, const xr_case *cases,
                      size_t n, double tf) {
  bsim_sim *s = xr_run(diagram, NULL);
  for (size_t i = 0; s && i < n; i++) {
    const char *sink = xcos ? cases[i].xsink : cases[i].sink;
    xr_compare(s, sink, cases[i].csv, tf, cases[i].rel_peak, cases[i].what);
    same_names(s, sink, cases[i].csv);
  }
  bsim_sim_free(s);
}

int main(void) {
  for (int xcos = 0; xcos <= 1; xcos++) {
    run_cases(xcos ? "xcos/sinks/sinks_xy.xcos" : "xcos/sinks/sinks_xy.xml",
              xcos, xy_cases, sizeof xy_cases / sizeof xy_cases[0], 2);
    /* the WRITEC_f of sinks_store write to the current folder */
    char dir[] = "/tmp/test_xcos_sinks-XXXXXX", cwd[1024];
    CHECK(getcwd(cwd, sizeof cwd) && mkdtemp(dir) && chdir(dir) == 0,
          "cannot work in %s", dir);
    run_cases(
        xcos ? "xcos/sinks/sinks_store.xcos" : "xcos/sinks/sinks_store.xml",
        xcos, store_cases, sizeof store_cases / sizeof store_cases[0], 2.2);
    same_file("sinks_store_d.bin",
              "xcos/sinks/ref_sinks_store/sinks_store_d.bin");
    same_file("sinks_store_sb.bin",
              "xcos/sinks/ref_sinks_store/sinks_store_sb.bin");
    CHECK(chdir(cwd) == 0 && rmdir(dir) == 0, "cannot remove %s", dir);
  }
  /* the WRITEC_f of sinks_timed writes only at its clock's ticks */
  char dir[] = "/tmp/test_xcos_sinks-XXXXXX", cwd[1024];
  CHECK(getcwd(cwd, sizeof cwd) && mkdtemp(dir) && chdir(dir) == 0,
        "cannot work in %s", dir);
  run_cases("xcos/sinks/sinks_timed.xcos", 1, timed_cases,
            sizeof timed_cases / sizeof timed_cases[0], 2);
  same_file("sinks_timed_d.bin",
            "xcos/sinks/ref_sinks_timed/sinks_timed_d.bin");
  CHECK(chdir(cwd) == 0 && rmdir(dir) == 0, "cannot remove %s", dir);
  return xr_finish("test_xcos_sinks");
}
