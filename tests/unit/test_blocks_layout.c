/*
 * Do our define steps lay blocks out exactly as Scilab does? Each file in
 * tests/data/layout holds the parameters of one block of a Scilab demo
 * diagram and the run-time data Scilab stored for it (see the README
 * there); we run the type's define step on the same parameters and compare.
 * Also: a define error names the block and the faulty matrix, and the
 * registry answers to interface and simulation-function names.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocksim/blocksim.h"
#include "diagrams/define.h"

#ifndef BSIM_TEST_DATA
#error "BSIM_TEST_DATA must name the tests/data folder"
#endif

#include "tests/unit/test_check.h"
#include "tests/unit/test_library.h"

/* Scilab writes the stored doubles with ~17 significant digits and our
 * realisations divide in the same order as Scilab, so agreement to a few
 * ulps is expected: 1e-12 relative (absolute near zero) is generous. */
#define REL_TOL 1e-12

enum { MAXV = 64, MAXP = 8 };

typedef struct expect {
  int n;
  double v[MAXV];
  int given;
} expect;

typedef struct layout_case {
  char type[64];
  int nparams;
  char pname[MAXP][32];
  bsim_value pval[MAXP];
  double pdata[MAXP][MAXV];
  char pstr[MAXP][64];
  expect rpar, ipar, x0, firing, in, in2, out, out2, dep_u;
  expect dep_t, ng, nmode, nevin, nevout;
  expect opar; /* rows, cols, values */
} layout_case;

static int read_numbers(char *rest, double *v, int max) {
  int n = 0;
  for (char *tok = strtok(rest, " \t\r\n"); tok && n < max;
       tok = strtok(NULL, " \t\r\n"))
    v[n++] = strtod(tok, NULL);
  return n;
}

static void set_expect(expect *e, char *rest) {
  e->n = read_numbers(rest, e->v, MAXV);
  e->given = 1;
}

static int load_case(const char *file, layout_case *c) {
  char path[1024], line[2048];
  snprintf(path, sizeof path, "%s/layout/%s", BSIM_TEST_DATA, file);
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "FAILED: cannot open %s\n", path);
    failures++;
    return -1;
  }
  memset(c, 0, sizeof *c);
  while (fgets(line, sizeof line, f)) {
    char *hash = strchr(line, '#');
    if (hash) *hash = '\0';
    char key[32], name[32];
    int used = 0;
    if (sscanf(line, "%31s%n", key, &used) != 1) continue;
    char *rest = line + used;
    if (strcmp(key, "type") == 0) {
      sscanf(rest, "%63s", c->type);
    } else if ((strcmp(key, "param") == 0 || strcmp(key, "sparam") == 0) &&
               c->nparams < MAXP) {
      int k = c->nparams++, u2 = 0;
      if (sscanf(rest, "%31s%n", name, &u2) != 1) continue;
      snprintf(c->pname[k], sizeof c->pname[k], "%s", name);
      bsim_value *v = &c->pval[k];
      if (key[0] == 's') {
        sscanf(rest + u2, "%63s", c->pstr[k]);
        v->str = c->pstr[k];
      } else {
        double tmp[MAXV + 2];
        int n = read_numbers(rest + u2, tmp, MAXV + 2);
        v->rows = n > 0 ? (int)tmp[0] : 0;
        v->cols = n > 1 ? (int)tmp[1] : 0;
        memcpy(c->pdata[k], tmp + 2,
               (size_t)(n > 2 ? n - 2 : 0) * sizeof(double));
        v->v = c->pdata[k];
      }
    } else {
      struct {
        const char *key;
        expect *e;
      } keys[] = {
          {"rpar", &c->rpar},     {"ipar", &c->ipar},     {"x0", &c->x0},
          {"firing", &c->firing}, {"in", &c->in},         {"in2", &c->in2},
          {"out", &c->out},       {"out2", &c->out2},     {"dep_u", &c->dep_u},
          {"dep_t", &c->dep_t},   {"ng", &c->ng},         {"nmode", &c->nmode},
          {"nevin", &c->nevin},   {"nevout", &c->nevout}, {"opar", &c->opar}};
      for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strcmp(key, keys[i].key) == 0) set_expect(keys[i].e, rest);
    }
  }
  fclose(f);
  return 0;
}

static int close_enough(double a, double b) {
  return fabs(a - b) <= REL_TOL * fmax(1.0, fmax(fabs(a), fabs(b)));
}

static void cmp_doubles(const char *file, const char *what, const expect *e,
                        const double *got, int n) {
  CHECK(e->n == n, "%s: %s has %d entries, Scilab stored %d", file, what, n,
        e->n);
  for (int i = 0; i < n && i < e->n; i++)
    CHECK(close_enough(got[i], e->v[i]), "%s: %s[%d] = %.17g, Scilab %.17g",
          file, what, i, got[i], e->v[i]);
}

static void cmp_ints(const char *file, const char *what, const expect *e,
                     const int *got, int n) {
  CHECK(e->n == n, "%s: %s has %d entries, Scilab stored %d", file, what, n,
        e->n);
  for (int i = 0; i < n && i < e->n; i++)
    CHECK(got[i] == (int)e->v[i], "%s: %s[%d] = %d, Scilab %d", file, what, i,
          got[i], (int)e->v[i]);
}

static void cmp_scalar(const char *file, const char *what, const expect *e,
                       int got) {
  if (e->given)
    CHECK(e->n == 1 && got == (int)e->v[0], "%s: %s = %d, Scilab %g", file,
          what, got, e->v[0]);
}

static void run_case(const char *file) {
  layout_case *c = calloc(1, sizeof *c);
  if (!c || load_case(file, c) != 0) {
    free(c);
    return;
  }
  const bsim_block_type *t = std_type(c->type);
  CHECK(t != NULL, "%s: type %s not registered", file, c->type);
  if (!t) {
    free(c);
    return;
  }
  /* values in the type's parameter order */
  bsim_value values[MAXP];
  memset(values, 0, sizeof values);
  for (int i = 0; i < t->nparams && i < MAXP; i++) {
    int found = 0;
    for (int k = 0; k < c->nparams; k++)
      if (strcmp(c->pname[k], t->params[i].name) == 0) {
        values[i] = c->pval[k];
        found = 1;
      }
    CHECK(found, "%s: data file lacks parameter '%s' of %s", file,
          t->params[i].name, t->name);
  }
  bsim_error err;
  bsim_error_clear(&err);
  bsim_define_ctx ctx = {file, NULL, 0, t, values, &err};
  bsim_model m;
  int rc = bsim_define_run(&ctx, &m);
  CHECK(rc == 0, "%s: define failed: %s", file, err.message);
  if (rc == 0) {
    cmp_doubles(file, "rpar", &c->rpar, m.rpar, m.nrpar);
    cmp_ints(file, "ipar", &c->ipar, m.ipar, m.nipar);
    cmp_doubles(file, "x0", &c->x0, m.x0, m.nx);
    if (c->firing.given)
      cmp_doubles(file, "firing", &c->firing, m.firing, m.nevout);
    if (c->in.given) cmp_ints(file, "in", &c->in, m.in, m.nin);
    if (c->in2.given) cmp_ints(file, "in2", &c->in2, m.in2, m.nin);
    if (c->dep_u.given) cmp_ints(file, "dep_u", &c->dep_u, m.dep_u, m.nin);
    if (c->out.given) cmp_ints(file, "out", &c->out, m.out, m.nout);
    if (c->out2.given) cmp_ints(file, "out2", &c->out2, m.out2, m.nout);
    cmp_scalar(file, "dep_t", &c->dep_t, m.dep_t);
    cmp_scalar(file, "ng", &c->ng, m.ng);
    cmp_scalar(file, "nmode", &c->nmode, m.nmode);
    cmp_scalar(file, "nevin", &c->nevin, m.nevin);
    cmp_scalar(file, "nevout", &c->nevout, m.nevout);
    if (c->opar.given) {
      CHECK(m.nopar == 1, "%s: %d object parameters, Scilab 1", file, m.nopar);
      if (m.nopar == 1) {
        CHECK(m.opar[0].rows == (int)c->opar.v[0] &&
                  m.opar[0].cols == (int)c->opar.v[1],
              "%s: opar is %dx%d, Scilab %gx%g", file, m.opar[0].rows,
              m.opar[0].cols, c->opar.v[0], c->opar.v[1]);
        expect vals = {c->opar.n - 2, {0}, 1};
        memcpy(vals.v, c->opar.v + 2, (size_t)vals.n * sizeof(double));
        cmp_doubles(file, "opar[0]", &vals, m.opar[0].v,
                    m.opar[0].rows * m.opar[0].cols);
      }
    }
    bsim_model_clear(&m);
  }
  free(c);
}

/* A B with the wrong number of rows must be a BSIM_ERR_INPUT whose message
 * names the block path and the matrix. */
static void clss_bad_b(void) {
  const bsim_block_type *t = std_type("CLSS");
  double A[4] = {0, -2, 1, -3}, B[3] = {0, 1, 1}, C[2] = {1, 0}, D[1] = {0},
         x0[2] = {1, 0};
  bsim_value v[5] = {{2, 2, A, NULL},
                     {3, 1, B, NULL},
                     {1, 2, C, NULL},
                     {1, 1, D, NULL},
                     {2, 1, x0, NULL}};
  bsim_error err;
  bsim_error_clear(&err);
  bsim_define_ctx ctx = {"plant/ctrl/ss", "model.xml", 12, t, v, &err};
  bsim_model m;
  int rc = bsim_define_run(&ctx, &m);
  CHECK(rc == -1, "CLSS with a 3x1 B for a 2x2 A was accepted");
  CHECK(err.status == BSIM_ERR_INPUT, "status %d", (int)err.status);
  CHECK(strstr(err.message, "plant/ctrl/ss") != NULL,
        "message lacks the path: %s", err.message);
  CHECK(strstr(err.message, "'B'") != NULL, "message lacks 'B': %s",
        err.message);
  CHECK(strstr(err.message, "model.xml:12") != NULL,
        "message lacks file:line: %s", err.message);
  CHECK(m.rpar == NULL && m.in == NULL, "model not cleared after an error");

  /* An improper CLR is an error too. */
  const bsim_block_type *clr = std_type("CLR");
  double num[3] = {1, 0, 0}, den[2] = {1, 1};
  bsim_value w[2] = {{1, 3, num, NULL}, {1, 2, den, NULL}};
  bsim_error_clear(&err);
  bsim_define_ctx c2 = {"tf", NULL, 0, clr, w, &err};
  CHECK(bsim_define_run(&c2, &m) == -1 && err.status == BSIM_ERR_INPUT &&
            strstr(err.message, "improper") != NULL,
        "improper CLR: %s", err.message);
}

/* The allocation helpers define steps rely on: sizes, -1 firings, opar
 * copies, and a clear that leaves a zeroed model (exact comparisons: no
 * arithmetic involved). */
static void model_helpers(void) {
  bsim_model m;
  memset(&m, 0, sizeof m);
  CHECK(bsim_model_set_inputs(&m, 2, -1, -2, 1) == 0 && m.nin == 2 &&
            m.in[1] == -1 && m.in2[1] == -2 && m.dep_u[0] == 1,
        "set_inputs");
  CHECK(bsim_model_set_inputs(&m, 1, 3, 1, 0) == 0 && m.nin == 1 &&
            m.in[0] == 3 && m.dep_u[0] == 0,
        "set_inputs again");
  CHECK(bsim_model_set_outputs(&m, 1, 0, 1) == 0 && m.nout == 1, "outputs");
  CHECK(bsim_model_set_events(&m, 1, 2) == 0 && m.nevin == 1 && m.nevout == 2 &&
            m.firing[0] == -1 && m.firing[1] == -1,
        "set_events fills firing with -1");
  double *r = bsim_model_alloc_rpar(&m, 3);
  CHECK(r && m.nrpar == 3 && r[0] == 0 && r[2] == 0, "alloc_rpar zeroed");
  int *ip = bsim_model_alloc_ipar(&m, 0);
  CHECK(ip && m.nipar == 0, "alloc_ipar(0) is not an out-of-memory");
  CHECK(bsim_model_alloc_x0(&m, 2) && m.nx == 2, "alloc_x0");
  CHECK(bsim_model_alloc_z0(&m, 1) && m.nz == 1, "alloc_z0");
  double data[2] = {4, 5};
  bsim_value v = {2, 1, data, NULL};
  CHECK(bsim_model_add_opar(&m, &v) == 0 && bsim_model_add_opar(&m, &v) == 0 &&
            m.nopar == 2 && m.opar[1].v != data && m.opar[1].v[1] == 5 &&
            m.opar[1].rows == 2,
        "add_opar copies");
  bsim_model_clear(&m);
  bsim_model zero;
  memset(&zero, 0, sizeof zero);
  CHECK(memcmp(&m, &zero, sizeof m) == 0, "clear leaves a zeroed model");
}

static void registry(void) {
  struct {
    const char *name, *expect;
  } finds[] = {{"CLSS", "CLSS"},         {"csslti4", "CLSS"},
               {"CLR", "CLR"},           {"summation", "SUMMATION"},
               {"multiplex", "MUX"},     {"cos_blk", "cos_blk"},
               {"TrigFun", "TrigFun"},   {"step_func", "STEP"},
               {"cstblk4_m", "CONST_m"}, {"integral_func", "INTEGRAL_m"}};
  for (size_t i = 0; i < sizeof finds / sizeof finds[0]; i++) {
    const bsim_block_type *t = std_type(finds[i].name);
    CHECK(t && strcmp(t->name, finds[i].expect) == 0, "find(%s) gave %s",
          finds[i].name, t ? t->name : "NULL");
  }
  CHECK(std_type("NO_SUCH_BLOCK") == NULL, "unknown name found");
  size_t n = 0;
  for (const bsim_block_type *t;
       (t = bsim_library_type_at(test_library(), n, NULL)) != NULL; n++) {
    CHECK(t->name && t->sim_name && t->summary && t->doc && t->define && t->fn,
          "type %zu (%s) lacks a field", n, t->name ? t->name : "?");
    CHECK(t->nparams == 0 || t->params != NULL, "%s: params NULL", t->name);
    CHECK(std_type(t->name) == t, "%s not found by its name", t->name);
  }
  /* Every type the issues promise is registered under its Xcos name (a
   * count would break with every new family; names say what matters). */
  static const char *const required[] = {
      "CONST_m",     "GENSIN_f",   "STEP_FUNCTION", "TIME_f",    "GAINBLK",
      "SUMMATION",   "PRODUCT",    "INTEGRAL_m",    "CLSS",      "CLR",
      "MUX",         "DEMUX",      "TrigFun",       "EXPBLK_m",  "ABS_VALUE",
      "IN_f",        "OUT_f",      "CLOCK_c",       "SampleCLK", "EVTDLY_c",
      "IFTHEL_f",    "ESELECT_f",  "CLKSOMV_f",     "END_c",     "HALT_f",
      "ZCROSS_f",    "POSTONEG_f", "NEGTOPOS_f",    "GENERAL_f", "DOLLAR_m",
      "SAMPHOLD_m",  "DLR",        "DLSS",          "Counter",   "SATURATION",
      "HYSTHERESIS", "SWITCH2_m",  "SIGNUM",        "CSCOPE",    "CMSCOPE",
      "CLKINV_f",    "CLKOUTV_f"};
  for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
    const bsim_block_type *t = std_type(required[i]);
    CHECK(t && strcmp(t->name, required[i]) == 0, "%s is not registered",
          required[i]);
  }
  CHECK(n >= sizeof required / sizeof required[0], "%zu registered types", n);
  const bsim_block_type *sf = std_type("STEP_FUNCTION");
  CHECK(sf && (sf->flags & BSIM_TYPE_SELF_ACTIVATED), "STEP_FUNCTION flags");
  const bsim_block_type *inf = std_type("IN_f");
  CHECK(inf && (inf->flags & BSIM_TYPE_PORT), "IN_f flags");
}

int main(void) {
  static const char *const files[] = {"clss_cont_disc_observer.txt",
                                      "clr_command.txt",
                                      "summation_inverted_pendulum.txt",
                                      "gainblk_bouncing_ball.txt",
                                      "const_m_kalman.txt",
                                      "step_susp.txt",
                                      "step_command.txt",
                                      "integral_m_kalman.txt",
                                      "mux_cont_disc_observer.txt",
                                      "demux_cont_disc_observer.txt",
                                      "abs_value_if_block.txt",
                                      "gensin_f_cont_disc_observer.txt",
                                      "out_f_command.txt"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
    run_case(files[i]);
  clss_bad_b();
  model_helpers();
  registry();
  if (failures) {
    fprintf(stderr, "test_blocks_layout: %d failure(s)\n", failures);
    return 1;
  }
  printf("test_blocks_layout: %zu layouts match Scilab's\n",
         sizeof files / sizeof files[0]);
  return 0;
}
