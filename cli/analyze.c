/*
 * `blocksim analyze` and `blocksim linearize`: print what the library's
 * analysis found (partition of the unknowns, structural and index checks,
 * eigenvalues, A/B/C/D) in a layout meant for people, and export matrices
 * for other tools. The findings are a report, not a failure: exit status 0
 * whenever the analysis could be made, 2 on bad input, 1 when the diagram
 * cannot be evaluated.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocksim/blocksim.h"
#include "cli/cli.h"

typedef struct an_args {
  const char *diagram, *export_dir;
  double at;
  char *inputs, *outputs; /* comma-separated copies */
  const char **params;    /* -p TARGET=VALUE, argc slots */
  int nparams;
} an_args;

static int parse_at(const char *text, double *out) {
  char *end;
  errno = 0;
  double v = strtod(text, &end);
  if (errno || end == text || *end || !(v >= 0) || !isfinite(v)) {
    fprintf(stderr,
            "blocksim: bad value for --at: '%s' (expected a time >= 0)\n",
            text);
    return -1;
  }
  *out = v;
  return 0;
}

/* Options of both commands; `linear` allows --inputs/--outputs/--export. */
static int parse(int argc, char **argv, int linear, an_args *a) {
  for (int i = 0; i < argc; i++) {
    const char *arg = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
    int known = strcmp(arg, "--at") == 0 || strcmp(arg, "-p") == 0 ||
                (!linear && strcmp(arg, "--export-jacobian") == 0) ||
                (linear && (strcmp(arg, "--inputs") == 0 ||
                            strcmp(arg, "--outputs") == 0 ||
                            strcmp(arg, "--export") == 0));
    if (arg[0] == '-' && arg[1] != '\0') {
      if (!known) return bsim_cli_usage("unknown option '%s'", arg);
      if (!val) return bsim_cli_usage("option %s needs a value", arg);
      i++;
      if (strcmp(arg, "--at") == 0) {
        if (parse_at(val, &a->at) != 0) return BSIM_ERR_INPUT;
      } else if (strcmp(arg, "-p") == 0) {
        if (!strchr(val, '='))
          return bsim_cli_usage("-p expects TARGET=VALUE, got '%s'", val);
        a->params[a->nparams++] = val;
      } else if (strcmp(arg, "--inputs") == 0) {
        free(a->inputs);
        a->inputs = strdup(val);
      } else if (strcmp(arg, "--outputs") == 0) {
        free(a->outputs);
        a->outputs = strdup(val);
      } else {
        a->export_dir = val;
      }
    } else if (!a->diagram) {
      a->diagram = arg;
    } else {
      return bsim_cli_usage("unexpected argument '%s'", arg);
    }
  }
  if (!a->diagram) return bsim_cli_usage("%s", "missing DIAGRAM");
  if (linear && !a->outputs && !a->inputs)
    return bsim_cli_usage("%s", "linearize needs --inputs and/or --outputs");
  return 0;
}

/* Split "a,b,c" in place into a malloc'ed list sized by the commas (the
 * names may outnumber the command's arguments); NULL out of memory. */
static const char **split(char *text, int *n) {
  size_t cap = 1;
  for (const char *c = text; c && *c; c++)
    cap += *c == ',';
  const char **list = calloc(cap + 1, sizeof *list);
  *n = 0;
  if (!list) return NULL;
  for (char *tok = text ? strtok(text, ",") : NULL; tok;
       tok = strtok(NULL, ","))
    list[(*n)++] = tok;
  return list;
}

static bsim_analysis *load(const bsim_library *lib, const an_args *a,
                           bsim_diagram **d, bsim_error *err) {
  *d = bsim_diagram_load(a->diagram, lib, err);
  if (!*d || bsim_cli_override(*d, a->params, a->nparams, err) != 0)
    return NULL;
  return bsim_analysis_create(*d, NULL, a->at, err);
}

static void print_indented(const char *text) {
  const char *s = text;
  while (*s) {
    const char *nl = strchr(s, '\n');
    size_t len = nl ? (size_t)(nl - s) : strlen(s);
    printf("  %.*s\n", (int)len, s);
    s += len + (nl ? 1 : 0);
  }
}

static void print_partition(const bsim_analysis *an) {
  int nd, na, n = bsim_analysis_size(an, &nd, &na);
  printf("partition:\n  differential variables yd: %d\n", nd);
  for (int j = 0; j < nd; j++)
    printf("    y[%d]  %s  (%s, state)\n", j + 1, bsim_analysis_unknown(an, j),
           bsim_analysis_block_type(an, j));
  printf("  algebraic variables ya: %d\n", na);
  for (int j = nd; j < n; j++)
    printf("    y[%d]  %s  (%s, algebraic)\n", j + 1,
           bsim_analysis_unknown(an, j), bsim_analysis_block_type(an, j));
  printf("  derivatives yd': %d\n", nd);
  for (int j = 0; j < nd; j++)
    printf("    y'[%d]  %s'\n", j + 1, bsim_analysis_unknown(an, j));
  printf("  differential equations f: %d\n", nd);
  for (int i = 0; i < nd; i++)
    printf("    F[%d]  %s  (%s)\n", i + 1, bsim_analysis_equation(an, i),
           bsim_analysis_equation_type(an, i));
  printf("  algebraic equations g: %d\n", na);
  for (int i = nd; i < n; i++)
    printf("    F[%d]  %s  (%s)\n", i + 1, bsim_analysis_equation(an, i),
           bsim_analysis_equation_type(an, i));
}

static void print_checks(const bsim_analysis *an) {
  int nd, na, n = bsim_analysis_size(an, &nd, &na);
  const char *msg;
  int index = bsim_analysis_index(an, &msg);
  printf("\nstructural index: %d%s\n", index,
         index == 2 ? " (reduced to 1 before integration)" : "");
  if (msg[0]) print_indented(msg);
  int sr = bsim_analysis_structural_rank(an, &msg);
  printf("\nstructural check: %s (structural rank %d of %d, maximum matching "
         "over [dF/dyd' dF/dya])\n",
         sr == n ? "regular" : "STRUCTURALLY SINGULAR", sr, n);
  print_indented(msg);
  double thr;
  int ar = bsim_analysis_algebraic_rank(an, &thr, &msg);
  if (ar < 0)
    printf("\nindex check: by the structure (structural index above)\n");
  else if (na == 0)
    printf("\nindex check: index <= 1 (no algebraic unknowns)\n");
  else
    printf("\nindex check: %s (rank of dg/dya %d of %d; singular values "
           "counted above max(1e-10 sigma_max, finite-difference noise) = "
           "%.3g)\n",
           ar == na ? "index <= 1" : "HIGHER INDEX", ar, na, thr);
  print_indented(msg);
}

static void print_stability(const bsim_analysis *an) {
  const double *re, *im;
  int ne = bsim_analysis_eigenvalues(an, &re, &im);
  printf("\nstability: eigenvalues of dyd'/dyd = -(df/dyd')^-1 (df/dyd - "
         "df/dya (dg/dya)^-1 dg/dyd)\n");
  if (ne < 0) {
    printf("  not available: the algebraic unknowns cannot be eliminated\n");
    return;
  }
  for (int i = 0; i < ne; i++) {
    if (im[i] != 0.0)
      printf("  %.10g %c %.10gi\n", re[i], im[i] < 0 ? '-' : '+', fabs(im[i]));
    else
      printf("  %.10g\n", re[i]);
  }
  double stiff;
  static const char *const verdicts[] = {
      "stable (every Re < 0)",
      "marginal (largest Re within 1e-9 * max(1, |lambda|max) of 0)",
      "unstable (some Re > 0)", "unknown (no states)"};
  int v = bsim_analysis_stability(an, &stiff);
  printf("  verdict: %s\n", verdicts[v]);
  if (stiff > 0)
    printf("  stiffness ratio: %.6g (max |Re| / min |Re| over Re < 0)\n",
           stiff);
}

int bsim_cli_analyze(const bsim_library *lib, int argc, char **argv) {
  an_args a = {0};
  a.params = calloc((size_t)argc + 1, sizeof(char *));
  int rc = a.params ? parse(argc, argv, 0, &a) : BSIM_ERR_SIM;
  if (rc) {
    free(a.params);
    return rc;
  }
  bsim_error err;
  bsim_error_clear(&err);
  bsim_diagram *d = NULL;
  bsim_analysis *an = load(lib, &a, &d, &err);
  if (!an) {
    rc = bsim_cli_report(&err);
  } else {
    printf("analysis of %s at t = %.10g\n", a.diagram, bsim_analysis_time(an));
    if (bsim_analysis_note(an)[0]) printf("note: %s\n", bsim_analysis_note(an));
    print_partition(an);
    print_checks(an);
    print_stability(an);
    if (a.export_dir) {
      if (bsim_analysis_export_jacobian(an, a.export_dir, &err) != 0)
        rc = bsim_cli_report(&err);
      else
        printf("\nwrote %s/dFdy.mtx, %s/dFdyp.mtx, %s/unknowns.txt\n",
               a.export_dir, a.export_dir, a.export_dir);
    }
  }
  bsim_analysis_free(an);
  bsim_diagram_free(d);
  free(a.params);
  return rc;
}

static void print_matrix(const bsim_analysis *an, char which) {
  int r, c;
  const double *m = bsim_analysis_matrix(an, which, &r, &c);
  printf("%c (%d x %d) =\n", which, r, c);
  if (r == 0 || c == 0) printf("  []\n");
  for (int i = 0; i < r; i++) {
    printf("  [");
    for (int j = 0; j < c; j++)
      printf(" %17.10g", m[(size_t)i * (size_t)c + (size_t)j]);
    printf(" ]\n");
  }
}

int bsim_cli_linearize(const bsim_library *lib, int argc, char **argv) {
  an_args a = {0};
  const char **ins = NULL, **outs = NULL;
  a.params = calloc((size_t)argc + 1, sizeof(char *));
  int rc = a.params ? parse(argc, argv, 1, &a) : BSIM_ERR_SIM;
  bsim_error err;
  bsim_error_clear(&err);
  bsim_diagram *d = NULL;
  bsim_analysis *an = NULL;
  int ni = 0, no = 0;
  if (rc == 0 &&
      (!(ins = split(a.inputs, &ni)) || !(outs = split(a.outputs, &no)))) {
    fputs("blocksim: out of memory\n", stderr);
    rc = BSIM_ERR_SIM;
  }
  if (rc == 0) {
    an = load(lib, &a, &d, &err);
    if (!an || bsim_analysis_linearize(an, ins, ni, outs, no, &err) != 0)
      rc = bsim_cli_report(&err);
  }
  if (rc == 0) {
    int nd;
    bsim_analysis_size(an, &nd, NULL);
    printf("linearization of %s at t = %.10g: x' = A x + B u, y = C x + D u\n",
           a.diagram, bsim_analysis_time(an));
    if (bsim_analysis_note(an)[0]) printf("note: %s\n", bsim_analysis_note(an));
    printf("states x:");
    for (int j = 0; j < nd; j++)
      printf(" %s", bsim_analysis_unknown(an, j));
    printf("\ninputs u:");
    for (int k = 0; bsim_analysis_input(an, k); k++)
      printf(" %s", bsim_analysis_input(an, k));
    printf("\noutputs y:");
    for (int k = 0; bsim_analysis_output(an, k); k++)
      printf(" %s", bsim_analysis_output(an, k));
    printf("\n");
    for (const char *w = "ABCD"; *w; w++)
      print_matrix(an, *w);
    if (a.export_dir) {
      if (bsim_analysis_export_linear(an, a.export_dir, &err) != 0)
        rc = bsim_cli_report(&err);
      else
        printf("wrote %s/{A,B,C,D}.mtx, inputs.txt, outputs.txt\n",
               a.export_dir);
    }
  }
  bsim_analysis_free(an);
  bsim_diagram_free(d);
  free(a.inputs);
  free(a.outputs);
  free(a.params);
  free(ins);
  free(outs);
  return rc;
}
