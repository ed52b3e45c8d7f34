/*
 * The Xcos reader: a diagram written by Scilab 6.1.1 (tests/data/xcos/
 * basic, made by basic.sce) read as .xcos and .zcos into the Diagram tree
 * (names, superblocks, splits gone, dialog fields as parameters), run and
 * compared with the closed form and with Scilab's own record; loading from
 * memory; -p and --observe on an Xcos file; what Xcos does with blocks
 * whose inputs are unconnected (ignored, with notes) and with dialog
 * fields that do not evaluate (the stored values kept, with a note); and
 * the Scilab 5.5 format's stored superblocks, whose link-end marks are
 * sometimes backwards.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/diagram.h"
#include "diagrams/xcos/xcos.h"
#include "tests/unit/diagram_harness.h"
#include "tests/unit/xcos_compare.h"

#define BASIC BSIM_TEST_DATA "/xcos/basic/"

static int has_link(const dg_diagram *d, int kind, const char *from, int fp,
                    const char *to, int tp) {
  for (int i = 0; i < d->nlinks; i++) {
    const dg_link *l = &d->links[i];
    if ((int)l->kind == kind && strcmp(l->from.block, from) == 0 &&
        l->from.port == fp && strcmp(l->to.block, to) == 0 && l->to.port == tp)
      return 1;
  }
  return 0;
}

static void test_tree(void) {
  bsim_error err;
  bsim_error_clear(&err);
  bsim_diagram *d = bsim_diagram_load(BASIC "basic.xcos", test_library(), &err);
  CHECK(d != NULL, "load: %s", err.message);
  if (!d) return;
  const dg_diagram *r = d->root;
  CHECK(strcmp(bsim_diagram_format(d), "xcos") == 0, "format");
  /* Settings from the XcosDiagram attributes; solver code 1 = CVODE BDF. */
  CHECK(d->settings.final_time == 2 && d->settings.rtol == 1e-6 &&
            d->settings.atol == 1e-6,
        "settings %g %g %g", d->settings.final_time, d->settings.rtol,
        d->settings.atol);
  CHECK(d->settings.solver && strcmp(d->settings.solver, "cvode-bdf") == 0,
        "solver %s", d->settings.solver);
  /* Labels name blocks (scope, times3); unlabelled ones are GUI_n; the
   * SPLIT_f is gone. */
  CHECK(r->nblocks == 5, "%d blocks", r->nblocks);
  const dg_block *sin = find_block(r, "GENSIN_f_1"),
                 *sc = find_block(r, "scope");
  const dg_block *sb = find_block(r, "times3"),
                 *clk = find_block(r, "CLOCK_c_1");
  CHECK(sin && strcmp(sin->type, "GENSIN_f") == 0 &&
            strcmp(param_expr(sin, "amplitude"), "[2]") == 0 &&
            strcmp(param_expr(sin, "frequency"), "[3]") == 0,
        "GENSIN_f_1 and its dialog fields");
  CHECK(sc && strcmp(sc->type, "CMSCOPE") == 0 &&
            strcmp(param_expr(sc, "in"), "[1 1]") == 0 &&
            strcmp(param_expr(sc, "name"), "") == 0,
        "scope: numeric fields in brackets, text fields as written");
  CHECK(sb && sb->sub && find_block(sb->sub, "GAINBLK_1") &&
            strcmp(param_expr(find_block(sb->sub, "GAINBLK_1"), "gain"),
                   "[3]") == 0,
        "superblock times3 with its gain");
  CHECK(clk && clk->sub && find_block(clk->sub, "EVTDLY_c_1"),
        "CLOCK_c dissolved");
  /* The split's two branches became a fan-out of GENSIN_f_1. */
  CHECK(has_link(r, DG_LINK_DATA, "GENSIN_f_1", 1, "times3", 1) &&
            has_link(r, DG_LINK_DATA, "GENSIN_f_1", 1, "scope", 2) &&
            has_link(r, DG_LINK_ACTIVATION, "CLOCK_c_1", 1, "scope", 1),
        "links through the split");
  bsim_diagram_free(d);
}

static bsim_sim *run(const char *path, const char *const *p, int np,
                     bsim_error *err) {
  bsim_diagram *d = bsim_diagram_load(path, test_library(), err);
  if (!d) return NULL;
  for (int i = 0; i < np; i += 2)
    if (bsim_diagram_override(d, p[i], p[i + 1], err) != 0) {
      bsim_diagram_free(d);
      return NULL;
    }
  bsim_sim *s = bsim_sim_create(d, NULL, err);
  bsim_diagram_free(d);
  if (s && bsim_sim_run(s, err) != 0) {
    bsim_sim_free(s);
    return NULL;
  }
  return s;
}

static void test_run(void) {
  bsim_error err;
  bsim_error_clear(&err);
  bsim_sim *s = run(BASIC "basic.xcos", NULL, 0, &err);
  CHECK(s != NULL, "run: %s", err.message);
  if (!s) return;
  size_t rows;
  int cols;
  const double *rec = record_of(s, "scope", &rows, &cols);
  ref_csv *ref = ref_csv_load(BASIC "scope.csv");
  CHECK(rec && ref, "record and reference");
  if (rec && ref) {
    /* Both simulators integrate with rtol = atol = 1e-6 and sit up to
     * 9e-5 from the closed form, in opposite directions: 1e-4 of the
     * integral's peak (5) covers both, as the demo suite allows. */
    double worst;
    char msg[512];
    int rc =
        compare_record(rec, rows, cols, ref, 1e-4, &worst, msg, sizeof msg);
    CHECK(rc == 0, "scope vs Scilab: %s", msg);
    printf("  basic: scope vs Scilab, worst %.3g of the peak\n", worst);
    /* y = 1 + 2 (1 - cos 3t) and u = 2 sin 3t; the integral within 2e-4
     * (the CVODE global error above), the sine to rounding. */
    for (size_t i = 0; i < rows; i++) {
      double t = rec[3 * i], y = rec[3 * i + 1], u = rec[3 * i + 2];
      CHECK(fabs(y - (3 - 2 * cos(3 * t))) < 2e-4, "y(%g) = %.12g", t, y);
      CHECK(fabs(u - 2 * sin(3 * t)) < 1e-12, "u(%g) = %.17g", t, u);
    }
  }
  ref_csv_free(ref);
  CHECK(strcmp(bsim_sim_solver(s), "cvode-bdf") == 0, "engine %s",
        bsim_sim_solver(s));
  /* The .zcos Scilab wrote from the same diagram gives the same bits. */
  bsim_sim *z = run(BASIC "basic.zcos", NULL, 0, &err);
  CHECK(z != NULL, "zcos: %s", err.message);
  size_t zrows;
  int zcols;
  const double *zrec = z ? record_of(z, "scope", &zrows, &zcols) : NULL;
  CHECK(zrec && rec && zrows == rows && zcols == cols &&
            memcmp(zrec, rec, rows * (size_t)(cols + 1) * sizeof *rec) == 0,
        ".zcos and .xcos differ");
  bsim_sim_free(z);
  bsim_sim_free(s);
}

/* -p reaches a dialog field inside a superblock; the derivative doubles. */
static void test_override(void) {
  bsim_error err;
  bsim_error_clear(&err);
  const char *p[] = {"times3/GAINBLK_1.gain", "6"};
  bsim_sim *s = run(BASIC "basic.xcos", p, 2, &err);
  CHECK(s != NULL, "run with -p: %s", err.message);
  size_t rows;
  int cols;
  const double *rec = s ? record_of(s, "scope", &rows, &cols) : NULL;
  for (size_t i = 0; rec && i < rows; i++) {
    double t = rec[3 * i], y = rec[3 * i + 1];
    CHECK(fabs(y - (1 + 4 * (1 - cos(3 * t)))) < 4e-4, "y(%g) = %.12g", t, y);
  }
  bsim_sim_free(s);
}

static void test_memory_and_observe(void) {
  FILE *f = fopen(BASIC "basic.zcos", "rb");
  char buf[1 << 16];
  size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
  if (f) fclose(f);
  bsim_error err;
  bsim_error_clear(&err);
  bsim_diagram *d =
      bsim_diagram_load_memory("basic.zcos", buf, n, test_library(), &err);
  CHECK(d && strcmp(bsim_diagram_format(d), "zcos") == 0, "memory: %s",
        err.message);
  if (!d) return;
  CHECK(bsim_diagram_observe(d, "y", "INTEGRAL_m_1:1", &err) == 0 &&
            bsim_diagram_observe(d, "g", "times3:1", &err) == 0,
        "observe: %s", err.message);
  CHECK(bsim_diagram_observe(d, "y", "scope:1", &err) != 0 &&
            strstr(err.message, "already used"),
        "a repeated observe name: %s", err.message);
  bsim_error_clear(&err);
  CHECK(bsim_diagram_observe(d, "z", "scope", &err) != 0 &&
            strstr(err.message, "PATH:PORT"),
        "a signal without port: %s", err.message);
  bsim_error_clear(&err);
  bsim_sim *s = bsim_sim_create(d, NULL, &err);
  CHECK(s && bsim_sim_run(s, &err) == 0, "run: %s", err.message);
  if (s) {
    size_t rows = bsim_result_rows(s);
    const double *t = bsim_result_times(s), *v = bsim_result_data(s);
    CHECK(bsim_result_cols(s) == 2 && rows == 101, "columns");
    for (size_t i = 0; i < rows; i++) {
      CHECK(fabs(v[2 * i] - (3 - 2 * cos(3 * t[i]))) < 2e-4, "y(%g)", t[i]);
      CHECK(fabs(v[2 * i + 1] - 6 * sin(3 * t[i])) < 1e-12, "g(%g)", t[i]);
    }
  }
  bsim_sim_free(s);
  bsim_diagram_free(d);
}

/* Scilab 5.5: the contents of a csuper block are an scs_m diagram in the
 * dictionary, and some event links have their end marks swapped; the
 * reader recovers EVTDLY -> split -> {CLKOUT, EVTDLY}. */
static void test_v55_clock(const char *file, int item, const char *delay) {
  FILE *f = fopen(file, "rb");
  static unsigned char buf[1 << 16];
  size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
  if (f) fclose(f);
  unsigned char *content = NULL, *dict = NULL;
  size_t clen, dlen;
  char msg[512];
  CHECK(dg_zcos_unpack(buf, n, &content, &clen, &dict, &dlen, msg,
                       sizeof msg) == 0 &&
            dict,
        "%s: %s", file, msg);
  sciv *v = dict ? xc_dictionary_decode(dict, dlen, msg, sizeof msg) : NULL;
  CHECK(v != NULL, "%s: dictionary: %s", file, msg);
  const sciv *diag = v ? sciv_item(v, item) : NULL;
  CHECK(diag && sciv_type_name(diag) &&
            strcmp(sciv_type_name(diag), "diagram") == 0,
        "%s: entry %d is a diagram", file, item);
  bsim_error err;
  bsim_error_clear(&err);
  xc_ctx c = {file, &err, NULL, test_library(), v, NULL};
  xc_level *l = diag ? xc_level_from_scsm(&c, diag, "CLOCK", 1) : NULL;
  CHECK(l && l->nblocks == 3 && l->nlinks == 3, "%s: %s", file, err.message);
  int evtdly = -1, split = -1, out = -1;
  for (int i = 0; l && i < l->nblocks; i++) {
    if (strncmp(l->blocks[i].gui, "EVTDLY", 6) == 0) evtdly = i;
    if (strcmp(l->blocks[i].gui, "CLKSPLIT_f") == 0) split = i;
    if (strcmp(l->blocks[i].gui, "CLKOUT_f") == 0) out = i;
  }
  CHECK(evtdly >= 0 && split >= 0 && out >= 0, "%s: the three blocks", file);
  int seen = 0;
  for (int i = 0; l && evtdly >= 0 && split >= 0 && i < l->nlinks; i++) {
    const xc_link *k = &l->links[i];
    int fk = l->blocks[k->from_block].ports[k->from_port].kind;
    int tk = l->blocks[k->to_block].ports[k->to_port].kind;
    CHECK(k->kind == 1 && fk == XP_EVOUT && tk == XP_EVIN,
          "%s: link %d joins an event output to an event input", file, i);
    seen |= (k->from_block == evtdly && k->to_block == split) << 0;
    seen |= (k->from_block == split && k->to_block == out) << 1;
    seen |= (k->from_block == split && k->to_block == evtdly) << 2;
  }
  CHECK(seen == 7, "%s: links EVTDLY->split->{CLKOUT, EVTDLY} (%d)", file,
        seen);
  if (evtdly >= 0) {
    const xc_block *e = &l->blocks[evtdly];
    CHECK(sciv_str(e->exprs, 0) && strcmp(sciv_str(e->exprs, 0), delay) == 0,
          "%s: delay field", file);
  }
  xc_level_free(l);
  sciv_free(v);
  free(content);
  free(dict);
}

#define VARIANTS BSIM_TEST_DATA "/xcos/variants/"

/* variants/unconnected.xcos: the integrator lost its input link, so Xcos
 * ignores it, then the scope it fed; the rest still runs. */
static void test_unconnected(void) {
  bsim_error err;
  bsim_error_clear(&err);
  bsim_diagram *d =
      bsim_diagram_load(VARIANTS "unconnected.xcos", test_library(), &err);
  CHECK(d != NULL, "load: %s", err.message);
  if (!d) return;
  const char *n0 = bsim_diagram_note_at(d, 0), *n1 = bsim_diagram_note_at(d, 1);
  CHECK(n0 && strstr(n0, "'INTEGRAL_m' (INTEGRAL_m) is ignored because of "
                         "undefined input(s)"),
        "note 0: %s", n0 ? n0 : "(none)");
  CHECK(n1 && strstr(n1, "'scope' (CMSCOPE) is ignored"), "note 1: %s",
        n1 ? n1 : "(none)");
  CHECK(!bsim_diagram_note_at(d, 2), "two notes only");
  CHECK(d->root->nblocks == 3 && find_block(d->root, "times3") &&
            !find_block(d->root, "scope"),
        "%d blocks left", d->root->nblocks);
  bsim_sim *s = bsim_sim_create(d, NULL, &err);
  CHECK(s && bsim_sim_run(s, &err) == 0, "run: %s", err.message);
  bsim_sim_free(s);
  bsim_diagram_free(d);
}

/* variants/stale_gain.xcos: the gain's field names an undefined variable;
 * the block keeps its stored gain 3 (a note says so), so the integral is
 * the basic diagram's. An override that fails is an error, not a fall
 * back. */
static void test_stale_gain(void) {
  bsim_error err;
  bsim_error_clear(&err);
  bsim_diagram *d =
      bsim_diagram_load(VARIANTS "stale_gain.xcos", test_library(), &err);
  CHECK(d != NULL, "load: %s", err.message);
  if (!d) return;
  bsim_sim *s = bsim_sim_create(d, NULL, &err);
  CHECK(s != NULL, "create: %s", err.message);
  const char *n = s ? bsim_sim_note_at(s, 0) : NULL;
  CHECK(n && strstr(n, "times3/GAINBLK_1") && strstr(n, "k_undefined") &&
            strstr(n, "keeps the parameters stored in the file"),
        "note: %s", n ? n : "(none)");
  if (s && bsim_sim_run(s, &err) == 0) {
    size_t rows;
    int cols;
    const double *rec = record_of(s, "scope", &rows, &cols);
    for (size_t i = 0; rec && i < rows; i++) /* as test_run */
      CHECK(fabs(rec[3 * i + 1] - (3 - 2 * cos(3 * rec[3 * i]))) < 2e-4,
            "y(%g)", rec[3 * i]);
    CHECK(rec && rows == 20, "scope rows");
  }
  bsim_sim_free(s);
  CHECK(bsim_diagram_override(d, "times3/GAINBLK_1.gain", "k_undefined",
                              &err) == 0,
        "override");
  s = bsim_sim_create(d, NULL, &err);
  CHECK(!s && err.status == BSIM_ERR_INPUT &&
            strstr(err.message, "k_undefined"),
        "an overridden field that fails is an error: %s", err.message);
  bsim_sim_free(s);
  bsim_diagram_free(d);
}

int main(void) {
  test_unconnected();
  test_stale_gain();
  test_tree();
  test_run();
  test_override();
  test_memory_and_observe();
  test_v55_clock(BSIM_TEST_DATA "/xcos/v55/Simple_Demo.zcos", 1, "0.1");
  test_v55_clock(BSIM_TEST_DATA "/xcos/v55/Command.zcos", 9, "0.1");
  if (failures) fprintf(stderr, "test_xcos_read: %d failure(s)\n", failures);
  return failures != 0;
}
