/*
 * The Xcos block types of the continuous, math, nonlinear and matrix
 * families (blocks/basic_f.c, ...): their define steps against the
 * run-time data Scilab stored for the same blocks in its demo diagrams
 * (tests/data/layout/), their refusals of bad parameters (message with the
 * block path, status BSIM_ERR_INPUT), and the behaviours a diagram run
 * does not show (numeric failures and what they are reported as). The
 * numbers of whole runs against Scilab are in test_xcos_cont.c.
 */
#include "blocks/expr_code.h"
#include "blocks/spline.h"
#include "tests/unit/block_harness.h"

static void layouts(void) {
  static const char *const files[] = {
      "sum_f_kalman.txt",
      "bigsom_f_kalman.txt",
      "prod_f_lorenz.txt",
      "gain_f_kalman.txt",
      "gainblk_f_cont_disc_observer.txt",
      "invblk_f_fibonacci.txt",
      "sqrt_demo_watertank.txt",
      "sat_f_if_block.txt",
      "mux_f_controller.txt",
      "demux_f_kalman_1.txt",
      "clss_f_controller.txt",
      "clr_f_codegen_controller.txt",
      "clr_f_hydraulics.txt",
      "tclss_f_bouncing_ball.txt",
      "tclss_cont_disc_observer.txt",
      "tclss_f_linear_f.txt",
      "integral_lorenz.txt",
      "integral_linear_f.txt",
      "integral_f_temperature_controller.txt",
      "deriv_demo_watertank.txt",
      "clindummy_f_batch_simulation.txt",
      "samplehold_f_if_block.txt",
      "lookup_f_table_lookup.txt",
      "intrplblk_f_tables.txt",
      "curv_f_temperature_controller.txt",
      "curv_f_hydraulics.txt",
      "gensqr_f_if_block.txt",
      "sawtooth_f_buck_converter.txt",
      "curve_c_steps.txt",
      "curve_c_linear.txt",
      "curve_c_order2.txt",
      "curve_c_not_a_knot.txt",
      "curve_c_periodic.txt",
      "curve_c_monotone.txt",
      "curve_c_fast.txt",
      "curve_c_clamped.txt",
      "curve_c_cleaned.txt",
      "matmul_kalman.txt",
      "matmul_rule2_matrix.txt",
      "matmul_rule3_matrix.txt",
      "mattran_discrete_kalman.txt",
      "matbksl_discrete_kalman.txt",
      "matpinv_discrete_kalman.txt",
      "matcatv_discrete_kalman.txt",
      "matcath_discrete_kalman.txt",
      "extract_discrete_kalman.txt",
      "matinv_inverted_pendulum.txt",
      "rootcoef_inverted_pendulum.txt",
      "mateig_inverted_pendulum.txt",
      "convert_demo_datatype.txt",
      "convert_back_demo_datatype.txt",
      "select_m_goto_demo.txt",
      "relationalop_goto_demo.txt",
      "m_switch_switching.txt",
      "m_switch_vector_switching.txt",
      "relationalop_zc_switching.txt",
      "bounce_bounce.txt",
      "expression_three_inputs.txt",
      "expression_vector.txt",
  };
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
    failures += layout_check(files[i]);
  fprintf(stderr, "  %zu layouts checked\n", sizeof files / sizeof files[0]);
}

/* Bad parameters: each refusal names the parameter (and define_fails
 * checks the path and BSIM_ERR_INPUT). */
static void define_errors(void) {
  const char *g[] = {"gains"};
  define_fails("BIGSOM_f", 1, g, (bsim_value[]){{0, 0, NULL, NULL}}, "'gains'");
  const char *gn[] = {"gain"};
  define_fails("GAIN_f", 1, gn, (bsim_value[]){{0, 0, NULL, NULL}}, "'gain'");
  const char *dt[] = {"datatype"};
  define_fails("SQRT", 1, dt, (bsim_value[]){SCALAR(2)}, "'datatype' 2");
  const char *sat[] = {"min", "max", "slope"};
  define_fails("SAT_f", 3, sat,
               (bsim_value[]){SCALAR(-1), SCALAR(0), SCALAR(1)}, "'max'");
  define_fails("SAT_f", 3, sat,
               (bsim_value[]){SCALAR(-1), SCALAR(1), SCALAR(-2)}, "'slope'");
  const char *in[] = {"in"}, *out[] = {"out"};
  define_fails("MUX_f", 1, in, (bsim_value[]){SCALAR(9)},
               "between 2 and 8 ports");
  define_fails("DEMUX_f", 1, out, (bsim_value[]){{1, 9, (double[9]){1}, NULL}},
               "between 2 and 8 port sizes");
}

/* TCLSS without D names the tcsltj form, which the library must know;
 * INTEGRAL takes a row x0 as a column (Xcos's x0(:)). */
static void linear_f(void) {
  harness h;
  const char *n[] = {"A", "B", "C", "D", "x0"};
  mk(&h, "TCLSS", 0, 0, NULL);
  define_into(
      &h, 5, n,
      (bsim_value[]){
          SCALAR(-1), SCALAR(1), SCALAR(2), {0, 0, NULL, NULL}, SCALAR(0)});
  CHECK(h.m.sim && strcmp(h.m.sim, "tcsltj4") == 0 && std_type(h.m.sim),
        "TCLSS without D runs as %s", h.m.sim ? h.m.sim : "(itself)");
  CHECK(h.m.nrpar == 3, "TCLSS without D: rpar has %d entries, want 3",
        h.m.nrpar);
  done(&h);
  mk(&h, "INTEGRAL", 0, 0, NULL);
  define_into(&h, 1, (const char *[]){"x0"},
              (bsim_value[]){{1, 3, (double[]){1, 2, 3}, NULL}});
  CHECK(h.m.in[0] == 3 && h.m.in2[0] == 1 && h.m.out[0] == 3,
        "INTEGRAL with a 1x3 x0: in %dx%d, out %d", h.m.in[0], h.m.in2[0],
        h.m.out[0]);
  done(&h);
  const char *sat[] = {"x0", "satur", "max", "min"};
  define_fails("INTEGRAL", 4, sat,
               (bsim_value[]){{2, 1, (double[]){0, 0}, NULL},
                              SCALAR(1),
                              {1, 3, (double[]){1, 1, 1}, NULL},
                              SCALAR(-1)},
               "'max'");
}

/* Tables refuse what Xcos's dialogs refuse, and what would make Xcos read
 * past its data (INTRPLBLK_f with one point, CURVE_c's quadratic with two
 * points). */
static void table_errors(void) {
  const char *xy[] = {"x", "y"};
  define_fails("LOOKUP_f", 2, xy,
               (bsim_value[]){{1, 3, (double[]){0, 2, 1}, NULL},
                              {1, 3, (double[]){0, 1, 2}, NULL}},
               "strictly increasing");
  define_fails("INTRPLBLK_f", 2, xy,
               (bsim_value[]){{1, 2, (double[]){0, 1}, NULL},
                              {1, 3, (double[]){0, 1, 2}, NULL}},
               "as many elements");
  define_fails("INTRPLBLK_f", 2, xy, (bsim_value[]){SCALAR(0), SCALAR(1)},
               "at least 2 points");
  const char *cn[] = {"method", "x", "y", "periodic"};
  define_fails("CURVE_c", 4, cn,
               (bsim_value[]){SCALAR(2),
                              {1, 2, (double[]){0, 1}, NULL},
                              {1, 2, (double[]){3, 4}, NULL},
                              {0, 0, NULL, "n"}},
               "at least 3 points");
  define_fails("CURVE_c", 4, cn,
               (bsim_value[]){SCALAR(3),
                              {1, 3, (double[]){0, 1, 1}, NULL},
                              {1, 3, (double[]){3, 4, 5}, NULL},
                              {0, 0, NULL, "n"}},
               "distinct times");
}

/* Splines against closed forms: the not-a-knot cubic reproduces a cubic
 * exactly, the three-point ("fast") slopes a parabola; only rounding
 * remains (1e-12 on values of order 10). */
static void spline_closed_forms(void) {
  double x[] = {0, 0.4, 1.1, 1.5, 2.6, 3}, y[6], d[6], q[6], dq[6];
  for (int i = 0; i < 6; i++) {
    y[i] = x[i] * x[i] * x[i] - 2 * x[i] + 1;
    q[i] = 0.5 * x[i] * x[i] - 3 * x[i];
  }
  CHECK(bsim_spline_derivatives(BSIM_SPLINE_NOT_A_KNOT, x, y, 6, d) == 0 &&
            bsim_spline_derivatives(BSIM_SPLINE_FAST, x, q, 6, dq) == 0,
        "spline derivatives failed");
  for (int i = 0; i < 6; i++) {
    CHECK(fabs(d[i] - (3 * x[i] * x[i] - 2)) < 1e-12,
          "not-a-knot slope at %g: %.17g, exact %.17g", x[i], d[i],
          3 * x[i] * x[i] - 2);
    CHECK(fabs(dq[i] - (x[i] - 3)) < 1e-12, "fast slope at %g: %.17g", x[i],
          dq[i]);
  }
  double h;
  bsim_spline_hermite(0.7, 0.4, 1.1, y[1], y[2], d[1], d[2], &h);
  CHECK(fabs(h - (0.343 - 1.4 + 1)) < 1e-12, "Hermite cubic at 0.7: %.17g", h);
}

/* MATEIG against Scilab's spec (tests/data/xcos/cont/eig_ref.txt, made
 * by eig_ref.sce): the same eigenvalues in the same order, 1e-12 of the
 * largest modulus (LAPACK and GSL reach them by different rotations, a
 * few ulps apart); the eigenvectors the same up to the sign of a real one
 * (LAPACK fixes only the phase of complex ones, as blocksim does), 1e-10
 * (eigenvector errors scale with 1/gap). */
static void mateig_vs_scilab(void) {
  char path[1024], line[8192];
  snprintf(path, sizeof path, "%s/xcos/cont/eig_ref.txt", BSIM_TEST_DATA);
  FILE *f = fopen(path, "r");
  CHECK(f != NULL, "cannot open %s", path);
  if (!f) return;
  double a[64], vre[64], vim[64], vecre[64], vecim[64];
  int n = 0, cases = 0;
  while (fgets(line, sizeof line, f)) {
    char key[16];
    int used;
    if (sscanf(line, "%15s%n", key, &used) != 1) continue;
    double *dst = strcmp(key, "matrix") == 0       ? a
                  : strcmp(key, "values-re") == 0  ? vre
                  : strcmp(key, "values-im") == 0  ? vim
                  : strcmp(key, "vectors-re") == 0 ? vecre
                                                   : vecim;
    char *p = line + used;
    if (dst == a) n = (int)strtol(p, &p, 10);
    for (int i = 0; i < (dst == vre || dst == vim ? n : n * n); i++)
      dst[i] = strtod(p, &p);
    if (dst != vecim) continue;
    cases++;
    for (int d = 1; d <= 2; d++) {
      harness h;
      int sz[] = {n, n, n, d == 1 ? 2 : 2 * n, n, 2 * n};
      mk(&h, "MATEIG", 1, d, sz);
      define_into(&h, 1, (const char *[]){"decomposition"},
                  (bsim_value[]){SCALAR(d)});
      memcpy(h.in[0], a, sizeof(double) * (size_t)(n * n));
      call(&h, BSIM_FLAG_INIT);
      call(&h, BSIM_FLAG_OUTPUTS);
      no_error(&h, "MATEIG");
      double big = 0;
      for (int i = 0; i < n; i++)
        big = fmax(big, hypot(vre[i], vim[i]));
      int ny = d == 1 ? n : n * n;
      for (int i = 0; i < n; i++) {
        int at = d == 1 ? i : i + n * i;
        CHECK(fabs(h.out[0][at] - vre[i]) <= 1e-12 * big &&
                  fabs(h.out[0][ny + at] - vim[i]) <= 1e-12 * big,
              "matrix %d (n = %d), eigenvalue %d: %.17g%+.17gi, Scilab "
              "%.17g%+.17gi",
              cases, n, i + 1, h.out[0][at], h.out[0][ny + at], vre[i], vim[i]);
      }
      for (int j = 0; d == 2 && j < n; j++) {
        double sign = 1; /* a real eigenvector's sign is free */
        for (int i = 0; i < n; i++)
          if (fabs(vecre[i + n * j]) > 0.1) {
            sign = (h.out[1][i + n * j] * vecre[i + n * j]) < 0 ? -1 : 1;
            break;
          }
        if (vim[j] != 0) sign = 1;
        for (int i = 0; i < n; i++)
          CHECK(fabs(sign * h.out[1][i + n * j] - vecre[i + n * j]) < 1e-10 &&
                    fabs(sign * h.out[1][n * n + i + n * j] -
                         vecim[i + n * j]) < 1e-10,
                "matrix %d, eigenvector %d, entry %d: %.17g%+.17gi, Scilab "
                "%.17g%+.17gi",
                cases, j + 1, i + 1, h.out[1][i + n * j],
                h.out[1][n * n + i + n * j], vecre[i + n * j],
                vecim[i + n * j]);
      }
      done(&h);
    }
  }
  fclose(f);
  CHECK(cases == 8, "eig_ref.txt has %d matrices, expected 8", cases);
}

/* The matrix blocks refuse what Xcos refuses, and what blocksim does not
 * support (complex data); MATINV fails on a singular matrix as INVBLK_f on
 * 0; EXTRACT checks its indices against the input it gets. */
static void matrix_errors(void) {
  const char *mm[] = {"datatype", "rule"};
  define_fails("MATMUL", 2, mm, (bsim_value[]){SCALAR(1), SCALAR(4)}, "'rule'");
  define_fails("MATMUL", 2, mm, (bsim_value[]){SCALAR(2), SCALAR(1)},
               "'datatype' 2 is not supported");
  const char *ex[] = {"datatype", "rows", "cols"};
  define_fails(
      "EXTRACT", 3, ex,
      (bsim_value[]){SCALAR(1), {1, 2, (double[]){1, 0}, NULL}, SCALAR(1)},
      "'rows'");
  define_fails("MATEIG", 2, (const char *[]){"datatype", "decomposition"},
               (bsim_value[]){SCALAR(1), SCALAR(3)}, "'decomposition'");
  harness h;
  bsim_block *b = mk(&h, "MATINV", 1, 1, (const int[]){2, 2, 2, 2});
  define_into(&h, 0, NULL, NULL);
  call(&h, BSIM_FLAG_INIT);
  double sing[] = {1, 2, 2, 4};
  memcpy(h.in[0], sing, sizeof sing);
  b->phase = BSIM_PHASE_CONTINUOUS;
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK(h.errs.recoverable && !h.errs.fatal &&
            strstr(h.errs.last_recoverable, "singular"),
        "MATINV of a singular matrix while integrating: %s",
        h.errs.last_recoverable);
  b->phase = BSIM_PHASE_DISCRETE;
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK(h.errs.fatal, "MATINV of a singular matrix at an event is not fatal");
  done(&h);
  b = mk(&h, "EXTRACT", 1, 1, (const int[]){2, 2, 1, 1});
  define_into(&h, 3, ex, (bsim_value[]){SCALAR(1), SCALAR(3), SCALAR(1)});
  call(&h, BSIM_FLAG_INIT);
  CHECK(h.errs.fatal && strstr(h.errs.err.message, "row index 3"),
        "EXTRACT of row 3 from a 2x2 input: %s", h.errs.err.message);
  done(&h);
}

/* CONVERT's code for every (input type, output type, overflow) triple is
 * Xcos's (tests/data/xcos/cont/convert_ipar.txt, made by
 * convert_ipar.sce); the refusals of the selection blocks. */
static void switching_defines(void) {
  char path[1024];
  snprintf(path, sizeof path, "%s/xcos/cont/convert_ipar.txt", BSIM_TEST_DATA);
  FILE *f = fopen(path, "r");
  CHECK(f != NULL, "cannot open %s", path);
  int it, ot, np, code, n = 0;
  const char *cn[] = {"in-type", "out-type", "overflow"};
  while (f && fscanf(f, "%d %d %d %d", &it, &ot, &np, &code) == 4) {
    harness h;
    mk(&h, "CONVERT", 0, 0, NULL);
    define_into(&h, 3, cn, (bsim_value[]){SCALAR(it), SCALAR(ot), SCALAR(np)});
    CHECK(h.m.nipar == 1 && h.m.ipar[0] == code,
          "CONVERT %d -> %d, overflow %d: code %d, Xcos %d", it, ot, np,
          h.m.nipar ? h.m.ipar[0] : -1, code);
    done(&h);
    n++;
  }
  if (f) fclose(f);
  CHECK(n == 192, "convert_ipar.txt has %d triples, expected 192", n);
  define_fails("CONVERT", 3, cn,
               (bsim_value[]){SCALAR(1), SCALAR(9), SCALAR(0)}, "'out-type'");
  define_fails("SELECT_m", 3, (const char *[]){"datatype", "in", "z0"},
               (bsim_value[]){SCALAR(1), SCALAR(2), SCALAR(3)}, "'z0'");
  define_fails("M_SWITCH", 3, (const char *[]){"in", "base", "rule"},
               (bsim_value[]){SCALAR(2), SCALAR(2), SCALAR(1)}, "'base'");
  define_fails("RELATIONALOP", 3,
               (const char *[]){"operator", "zero-crossing", "datatype"},
               (bsim_value[]){SCALAR(6), SCALAR(0), SCALAR(1)}, "'operator'");
}

/* CONVERT refuses an overflow when told to (overflow = 2), with the
 * value and the element, recoverable while integrating. */
static void convert_overflow(void) {
  harness h;
  bsim_block *b = mk(&h, "CONVERT", 1, 1, (const int[]){2, 1, 2, 1});
  define_into(&h, 3, (const char *[]){"in-type", "out-type", "overflow"},
              (bsim_value[]){SCALAR(1), SCALAR(5), SCALAR(2)});
  call(&h, BSIM_FLAG_INIT);
  h.in[0][0] = 3.7;
  h.in[0][1] = -130;
  b->phase = BSIM_PHASE_CONTINUOUS;
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK(h.errs.recoverable && strstr(h.errs.last_recoverable, "-130") &&
            strstr(h.errs.last_recoverable, "element 2"),
        "CONVERT overflow: %s", h.errs.last_recoverable);
  CHECK_NEAR(h.out[0][0], 3, "CONVERT truncates toward 0");
  done(&h);
}

/* BOUNCE's refusals, and its collision: two equal balls meeting head-on
 * along x exchange their speeds (momentum and energy conserved; exact
 * here, the line of centres being the x axis); a ball reaching a wall has
 * its speed across the wall reversed. */
static void bounce_collisions(void) {
  const char *n[] = {"mass", "radius", "x"};
  define_fails(
      "BOUNCE", 3, n,
      (bsim_value[]){SCALAR(1), SCALAR(1), {2, 1, (double[]){1, 2}, NULL}},
      "one entry per ball");
  define_fails("BOUNCE", 3, n, (bsim_value[]){SCALAR(1), SCALAR(-1), SCALAR(2)},
               "'radius'");
  harness h;
  const char *p[] = {"mass", "radius", "x", "vx", "y", "vy", "walls"};
  mk(&h, "BOUNCE", 0, 2, (const int[]){2, 1, 2, 1});
  define_into(&h, 7, p,
              (bsim_value[]){{2, 1, (double[]){1, 1}, NULL},
                             {2, 1, (double[]){0.5, 0.5}, NULL},
                             {2, 1, (double[]){2, 3}, NULL},
                             {2, 1, (double[]){1, -3}, NULL},
                             {2, 1, (double[]){2, 2}, NULL},
                             {2, 1, (double[]){0, 0}, NULL},
                             {4, 1, (double[]){0, 5, 0, 5}, NULL}});
  call(&h, BSIM_FLAG_INIT);
  no_error(&h, "BOUNCE init");
  call(&h, BSIM_FLAG_ZCROSS);
  CHECK_NEAR(h.g[0], 0, "BOUNCE: the balls touch"); /* 1^2 - (0.5+0.5)^2 */
  CHECK_NEAR(h.g[1 + 3], 5 - 0.5 - 2, "BOUNCE: ball 1 to the right wall");
  h.b->nevprt = -1;
  h.jroot[0] = -1;
  h.jroot[1 + 4 + 3] = -1; /* ball 2 on the right wall as well */
  call(&h, BSIM_FLAG_UPDATE);
  CHECK_NEAR(h.x[1], -3, "BOUNCE: ball 1 takes ball 2's speed");
  CHECK_NEAR(h.x[5], -1, "BOUNCE: ball 2 takes 1's, then the wall reverses it");
  done(&h);
}

/* PID takes scalar gains (matrix gains need its superblock form). */
static void pid_errors(void) {
  define_fails("PID", 1, (const char *[]){"P"},
               (bsim_value[]){{1, 2, (double[]){1, 2}, NULL}}, "'P'");
}

/* EXPRESSION's compiler gives the code Xcos's dialog stores
 * (tests/data/xcos/cont/expr_ref.txt, made by expr_ref.sce: ipar, rpar
 * and nzcross of 53 expressions of three inputs with dd = 0.25, kk = 3),
 * and refuses what Xcos refuses. */
static int ref_context(void *user, const char *name, double *out) {
  (void)user;
  if (strcmp(name, "dd") == 0)
    *out = 0.25;
  else if (strcmp(name, "kk") == 0)
    *out = 3;
  else
    return -1;
  return 0;
}

static void expression_vs_scilab(void) {
  char path[1024], line[1024], text[1024] = "";
  snprintf(path, sizeof path, "%s/xcos/cont/expr_ref.txt", BSIM_TEST_DATA);
  FILE *f = fopen(path, "r");
  CHECK(f != NULL, "cannot open %s", path);
  int n = 0;
  bsim_expr_code c;
  memset(&c, 0, sizeof c);
  int compiled = 0;
  char msg[256];
  while (f && fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = '\0';
    if (strncmp(line, "EXPR ", 5) == 0) {
      bsim_expr_code_clear(&c);
      snprintf(text, sizeof text, "%s", line + 5);
      compiled = bsim_expr_compile(text, 3, ref_context, NULL, &c, msg,
                                   sizeof msg) == 0;
      n++;
    } else if (strcmp(line, "ERROR") == 0) {
      CHECK(!compiled, "'%s': Xcos refuses it, blocksim compiled it", text);
    } else if (strncmp(line, "IPAR", 4) == 0) {
      CHECK(compiled, "'%s': %s", text, msg);
      char *p = line + 4, *end;
      int k = 0;
      for (long v = strtol(p, &end, 10); compiled && end != p;
           v = strtol(p, &end, 10), k++) {
        p = end;
        CHECK(k < c.nipar && c.ipar[k] == v, "'%s': ipar[%d] = %d, Xcos %ld",
              text, k, k < c.nipar ? c.ipar[k] : -1, v);
      }
      CHECK(!compiled || k == c.nipar, "'%s': %d ipar entries, Xcos %d", text,
            c.nipar, k);
    } else if (strncmp(line, "RPAR", 4) == 0 && compiled) {
      char *p = line + 4, *end;
      int k = 0;
      for (double v = strtod(p, &end); end != p; v = strtod(p, &end), k++) {
        p = end;
        CHECK(k < c.nrpar && (c.rpar[k] == v || (isnan(v) && isnan(c.rpar[k]))),
              "'%s': rpar[%d] = %.17g, Xcos %.17g", text, k,
              k < c.nrpar ? c.rpar[k] : 0.0, v);
      }
      CHECK(k == c.nrpar, "'%s': %d rpar entries, Xcos %d", text, c.nrpar, k);
    } else if (strncmp(line, "NZ", 2) == 0 && compiled) {
      int nz = atoi(line + 3);
      CHECK((c.boolean ? 0 : c.nz) == nz, "'%s': nzcross %d, Xcos %d", text,
            c.boolean ? 0 : c.nz, nz);
    }
  }
  bsim_expr_code_clear(&c);
  if (f) fclose(f);
  CHECK(n == 53, "expr_ref.txt has %d expressions, expected 53", n);
}

/* EXPRESSION at run time: a comparison's mode holds its result while
 * integrating (the surface u1 - 0 is what locates the switch), a root
 * exactly on the surface is read on the side it heads to, and a value
 * that is not finite is a failure, recoverable while integrating. */
static void expression_runtime(void) {
  harness h;
  const char *n[] = {"in", "expression"};
  bsim_block *b = mk(&h, "EXPRESSION", 2, 1, (const int[]){1, 1, 1, 1, 1, 1});
  define_into(&h, 2, n,
              (bsim_value[]){SCALAR(2), {0, 0, NULL, "(u1>0)*u2 + 1/u1"}});
  CHECK(b->ng == 1 && b->nmode == 1, "one surface and mode, got %d %d", b->ng,
        b->nmode);
  call(&h, BSIM_FLAG_INIT);
  no_error(&h, "EXPRESSION init");
  h.in[0][0] = 2;
  h.in[1][0] = 3;
  call(&h, BSIM_FLAG_ZCROSS);
  CHECK(h.mode[0] == 1 && near(h.g[0], 2), "mode %d, g %g", h.mode[0], h.g[0]);
  b->phase = BSIM_PHASE_CONTINUOUS;
  h.in[0][0] = -0.5; /* past the switch, not located yet: the mode holds */
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK_NEAR(h.out[0][0], 3 - 2, "EXPRESSION follows its mode");
  h.in[0][0] = 0; /* a root exactly on the surface, u1 rising */
  b->phase = BSIM_PHASE_DISCRETE;
  b->t = 1.5;
  b->nevprt = -1;
  h.jroot[0] = 1;
  call(&h, BSIM_FLAG_UPDATE);
  call(&h, BSIM_FLAG_ZCROSS);
  CHECK(h.mode[0] == 1, "at the root, u1 heading up reads as u1 > 0");
  call(&h, BSIM_FLAG_OUTPUTS); /* 1/0 */
  CHECK(h.errs.fatal && strstr(h.errs.err.message, "not finite"),
        "1/0 at an event: %s", h.errs.err.message);
  done(&h);
  b = mk(&h, "EXPRESSION", 1, 1, (const int[]){2, 1, 1, 1});
  define_into(&h, 2, n, (bsim_value[]){SCALAR(1), {0, 0, NULL, "log(u2)"}});
  call(&h, BSIM_FLAG_INIT);
  h.in[0][1] = -1;
  b->phase = BSIM_PHASE_CONTINUOUS;
  call(&h, BSIM_FLAG_OUTPUTS);
  CHECK(h.errs.recoverable && !h.errs.fatal, "log(-1) while integrating");
  done(&h);
  /* | and & truncate their operands as Scilab does (0.5 is false), and a
   * value beyond an int is true, not converted (undefined behaviour that
   * the sanitizer build stops on) */
  static const struct {
    const char *expr;
    double u1, u2, want;
  } logic[] = {{"u1 | u2", 0.5, 0, 0},
               {"u1 | u2", 1e300, 0, 1},
               {"u1 & u2", 3e10, -2, 1},
               {"u1 & u2", 1e300, 0.25, 0},
               {"u1 | u2", -0.75, 0.5, 0}};
  for (size_t i = 0; i < sizeof logic / sizeof *logic; i++) {
    b = mk(&h, "EXPRESSION", 1, 1, (const int[]){2, 1, 1, 1});
    define_into(&h, 2, n,
                (bsim_value[]){SCALAR(2), {0, 0, NULL, (char *)logic[i].expr}});
    call(&h, BSIM_FLAG_INIT);
    h.in[0][0] = logic[i].u1;
    h.in[0][1] = logic[i].u2;
    b->phase = BSIM_PHASE_DISCRETE;
    call(&h, BSIM_FLAG_OUTPUTS);
    CHECK(!h.errs.fatal && h.out[0][0] == logic[i].want, "%s at %g, %g: %g",
          logic[i].expr, logic[i].u1, logic[i].u2, h.out[0][0]);
    done(&h);
  }
}

/* INVBLK_f at u = 0 and SQRT below 0: recoverable while integrating (the
 * solver retries with a smaller step), fatal at an event; INVBLK_f keeps
 * its output during the initial fixed point, as Xcos's flag 6 does. */
static void numeric_failures(void) {
  const int v2[] = {2, 1, 2, 1};
  const char *types[] = {"INVBLK_f", "SQRT"};
  const double bad[] = {0.0, -1.0};
  for (int i = 0; i < 2; i++) {
    harness h;
    bsim_block *b = mk(&h, types[i], 1, 1, v2);
    define_into(&h, 0, NULL, NULL);
    h.in[0][0] = 4;
    h.in[0][1] = bad[i];
    b->phase = BSIM_PHASE_CONTINUOUS;
    call(&h, BSIM_FLAG_OUTPUTS);
    CHECK(h.errs.recoverable && !h.errs.fatal,
          "%s: u = %g while integrating is not recoverable", types[i], bad[i]);
    CHECK(strstr(h.errs.last_recoverable, "element 2") != NULL,
          "%s: message '%s' does not name the element", types[i],
          h.errs.last_recoverable);
    b->phase = BSIM_PHASE_DISCRETE;
    call(&h, BSIM_FLAG_OUTPUTS);
    CHECK(h.errs.fatal, "%s: u = %g at an event is not fatal", types[i],
          bad[i]);
    done(&h);
  }
  harness h;
  mk(&h, "INVBLK_f", 1, 1, v2);
  define_into(&h, 0, NULL, NULL);
  h.in[0][0] = 4;
  h.out[0][1] = 7;
  call(&h, BSIM_FLAG_REINIT);
  no_error(&h, "INVBLK_f flag 6 at 0");
  CHECK_NEAR(h.out[0][0], 0.25, "INVBLK_f flag 6 y1");
  CHECK_NEAR(h.out[0][1], 7, "INVBLK_f flag 6 keeps y2");
  done(&h);
}

/* SAT_f: the thresholds are on u (limits / slope) and the output is the
 * clipped slope * u; both surfaces cross where slope * u meets a limit.
 * Values are products of exact binary fractions: exact. */
static void sat_f(void) {
  harness h;
  const char *n[] = {"min", "max", "slope"};
  mk(&h, "SAT_f", 1, 1, (const int[]){1, 1, 1, 1});
  define_into(&h, 3, n, (bsim_value[]){SCALAR(-0.75), SCALAR(1.5), SCALAR(2)});
  const double u[] = {-1, -0.375, 0.25, 0.75, 3},
               y[] = {-0.75, -0.75, 0.5, 1.5, 1.5};
  for (int i = 0; i < 5; i++) {
    h.in[0][0] = u[i];
    call(&h, BSIM_FLAG_OUTPUTS);
    CHECK_NEAR(h.out[0][0], y[i], "SAT_f y");
    call(&h, BSIM_FLAG_ZCROSS);
    CHECK_NEAR(h.g[0], u[i] + 0.375, "SAT_f g1");
    CHECK_NEAR(h.g[1], u[i] - 0.75, "SAT_f g2");
  }
  done(&h);
}

int main(void) {
  layouts();
  define_errors();
  linear_f();
  table_errors();
  spline_closed_forms();
  mateig_vs_scilab();
  matrix_errors();
  switching_defines();
  convert_overflow();
  bounce_collisions();
  pid_errors();
  expression_vs_scilab();
  expression_runtime();
  numeric_failures();
  sat_f();
  if (failures) {
    fprintf(stderr, "test_blocks_cont: %d failure(s)\n", failures);
    return 1;
  }
  fprintf(stderr, "test_blocks_cont: all passed\n");
  return 0;
}
