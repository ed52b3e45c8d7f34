/*
 * Designs of experiments: the parameter values of every member of a
 * study, computed once, up front, from the arguments alone. Members are
 * then numbered 0..n-1 and each is a fixed list of override texts, so a
 * member's results do not depend on which thread, process or shard runs it
 * or in which order. Random draws come from GSL's MT19937 seeded by the
 * user; numbers are kept as %.17g text, which gives back the same double
 * when the override is evaluated, exactly as `blocksim run -p` would.
 */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocksim/batch.h"
#include "diagrams/expr.h"
#include "output/csvsplit.h"

/* A parameter: its list of values, or its distribution. */
typedef struct dparam {
  char *target, *spec;
  double *list;
  size_t nlist;
  int dist; /* 0 none, 1 uniform, 2 normal */
  double a, b;
} dparam;

struct bsim_design {
  dparam *p;
  int np;
  long n;
  char **values; /* n x np texts */
};

bsim_design *bsim_design_create(bsim_error *err) {
  bsim_design *d = calloc(1, sizeof *d);
  if (!d) bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
  return d;
}

static void clear_members(bsim_design *d) {
  for (long i = 0; d->values && i < d->n * d->np; i++)
    free(d->values[i]);
  free(d->values);
  d->values = NULL;
  d->n = 0;
}

void bsim_design_free(bsim_design *d) {
  if (!d) return;
  clear_members(d);
  for (int j = 0; j < d->np; j++) {
    free(d->p[j].target);
    free(d->p[j].spec);
    free(d->p[j].list);
  }
  free(d->p);
  free(d);
}

/* An expression's value as a list of numbers (a matrix in column order). */
static int eval_list(const char *expr, double **out, size_t *n, char *msg,
                     size_t len) {
  bsim_value v = {0};
  if (bsim_expr_eval(expr, NULL, &v, msg, len) != 0) return -1;
  if (v.str || v.rows <= 0 || v.cols <= 0) {
    snprintf(msg, len, "gives no numbers");
    bsim_value_clear(&v);
    return -1;
  }
  *n = (size_t)v.rows * (size_t)v.cols;
  *out = v.v; /* taken */
  v.v = NULL;
  bsim_value_clear(&v);
  for (size_t i = 0; i < *n; i++)
    if (!isfinite((*out)[i])) {
      snprintf(msg, len, "value %zu is not finite", i + 1);
      return -1;
    }
  return 0;
}

/* "uniform(a,b)" / "normal(m,s)": 0, 1 not a distribution, -1 bad one. */
static int parse_dist(dparam *p, char *msg, size_t len) {
  const char *s = p->spec;
  while (*s == ' ')
    s++;
  int kind = strncmp(s, "uniform", 7) == 0  ? 1
             : strncmp(s, "normal", 6) == 0 ? 2
                                            : 0;
  if (!kind) return 1;
  const char *open = strchr(s, '(');
  const char *close = strrchr(s, ')');
  if (!open || !close || close < open) return 1;
  char *args = strndup(open, (size_t)(close - open + 1));
  /* evaluate "(a,b)" as the row vector [a,b] */
  if (!args) return -1;
  args[0] = '[';
  args[close - open] = ']';
  double *v = NULL;
  size_t n = 0;
  int rc = eval_list(args, &v, &n, msg, len);
  free(args);
  if (rc == 0 && n != 2) {
    snprintf(msg, len, "takes two arguments");
    rc = -1;
  }
  if (rc == 0 && kind == 1 && !(v[0] < v[1])) {
    snprintf(msg, len, "needs a < b");
    rc = -1;
  }
  if (rc == 0 && kind == 2 && !(v[1] > 0)) {
    snprintf(msg, len, "needs a standard deviation > 0");
    rc = -1;
  }
  if (rc == 0) {
    p->dist = kind;
    p->a = v[0];
    p->b = v[1];
  }
  free(v);
  return rc;
}

int bsim_design_param(bsim_design *d, const char *target, const char *spec,
                      bsim_error *err) {
  if (!target || !*target || !spec || !*spec) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "design: a parameter needs TARGET=VALUES (e.g. "
                   "k=linspace(0,1,11) or k=uniform(0,1))");
    return -1;
  }
  for (int j = 0; j < d->np; j++)
    if (strcmp(d->p[j].target, target) == 0) {
      bsim_error_set(err, BSIM_ERR_INPUT,
                     "design: parameter '%s' given twice (hint: give all its "
                     "values in one list)",
                     target);
      return -1;
    }
  dparam *g = realloc(d->p, sizeof *g * (size_t)(d->np + 1));
  if (!g) {
    bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
    return -1;
  }
  d->p = g;
  dparam *p = &g[d->np];
  memset(p, 0, sizeof *p);
  p->target = strdup(target);
  p->spec = strdup(spec);
  if (!p->target || !p->spec) {
    free(p->target);
    free(p->spec);
    bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
    return -1;
  }
  d->np++;
  return 0;
}

static int set_value(bsim_design *d, long i, int j, double v) {
  char buf[40];
  snprintf(buf, sizeof buf, "%.17g", v);
  return (d->values[i * d->np + j] = strdup(buf)) ? 0 : -1;
}

/* Evaluate every parameter as a list (GRID, ZIP) or a distribution. */
static int prepare(bsim_design *d, int want_dist, bsim_error *err) {
  for (int j = 0; j < d->np; j++) {
    dparam *p = &d->p[j];
    char msg[512] = "";
    int rc;
    if (want_dist) {
      rc = parse_dist(p, msg, sizeof msg);
      if (rc == 1) {
        bsim_error_set(err, BSIM_ERR_INPUT,
                       "design: '%s=%s' is not a distribution (hint: "
                       "uniform(a,b) or normal(mean,sd) with --random or "
                       "--lhs)",
                       p->target, p->spec);
        return -1;
      }
    } else {
      free(p->list);
      p->list = NULL;
      rc = eval_list(p->spec, &p->list, &p->nlist, msg, sizeof msg);
    }
    if (rc != 0) {
      bsim_error_set(err, BSIM_ERR_INPUT, "design: '%s=%s': %s", p->target,
                     p->spec, msg);
      return -1;
    }
  }
  return 0;
}

static double draw(const dparam *p, gsl_rng *r) {
  return p->dist == 1 ? gsl_ran_flat(r, p->a, p->b)
                      : p->b * gsl_ran_gaussian(r, 1.0) + p->a;
}

static double quantile(const dparam *p, double u) {
  return p->dist == 1 ? p->a + u * (p->b - p->a)
                      : p->a + p->b * gsl_cdf_ugaussian_Pinv(u);
}

static int fill(bsim_design *d, bsim_design_kind kind, unsigned long seed) {
  int rc = 0;
  gsl_rng *r = NULL;
  long *perm = NULL;
  if (kind == BSIM_DESIGN_RANDOM || kind == BSIM_DESIGN_LHS) {
    r = gsl_rng_alloc(gsl_rng_mt19937);
    if (!r) return -1;
    gsl_rng_set(r, seed);
  }
  if (kind == BSIM_DESIGN_LHS) {
    /* per parameter: a random permutation of the n strata, then a uniform
     * position inside each stratum */
    perm = malloc(sizeof(long) * (size_t)d->n);
    if (!perm) rc = -1;
    for (int j = 0; rc == 0 && j < d->np; j++) {
      for (long i = 0; i < d->n; i++)
        perm[i] = i;
      gsl_ran_shuffle(r, perm, (size_t)d->n, sizeof(long));
      for (long i = 0; rc == 0 && i < d->n; i++) {
        double u = ((double)perm[i] + gsl_rng_uniform_pos(r)) / (double)d->n;
        rc = set_value(d, i, j, quantile(&d->p[j], u));
      }
    }
  }
  for (long i = 0; kind != BSIM_DESIGN_LHS && rc == 0 && i < d->n; i++) {
    long rest = i;
    for (int j = d->np - 1; rc == 0 && j >= 0; j--) {
      const dparam *p = &d->p[j];
      double v;
      if (kind == BSIM_DESIGN_RANDOM) {
        v = 0; /* drawn below in parameter order */
      } else if (kind == BSIM_DESIGN_ZIP) {
        v = p->list[i];
      } else { /* the last parameter varies fastest */
        v = p->list[rest % (long)p->nlist];
        rest /= (long)p->nlist;
      }
      if (kind != BSIM_DESIGN_RANDOM) rc = set_value(d, i, j, v);
    }
    for (int j = 0; kind == BSIM_DESIGN_RANDOM && rc == 0 && j < d->np; j++)
      rc = set_value(d, i, j, draw(&d->p[j], r));
  }
  free(perm);
  if (r) gsl_rng_free(r);
  return rc;
}

int bsim_design_build(bsim_design *d, bsim_design_kind kind, long n,
                      unsigned long seed, bsim_error *err) {
  clear_members(d);
  if (d->np == 0) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "design: no parameter to vary (hint: --param "
                   "TARGET=VALUES)");
    return -1;
  }
  int dist = kind == BSIM_DESIGN_RANDOM || kind == BSIM_DESIGN_LHS;
  if (prepare(d, dist, err) != 0) return -1;
  if (dist) {
    if (n < 1) {
      bsim_error_set(err, BSIM_ERR_INPUT,
                     "design: --random and --lhs need a number of members "
                     ">= 1");
      return -1;
    }
    d->n = n;
  } else if (kind == BSIM_DESIGN_ZIP) {
    d->n = (long)d->p[0].nlist;
    for (int j = 1; j < d->np; j++)
      if ((long)d->p[j].nlist != d->n) {
        bsim_error_set(err, BSIM_ERR_INPUT,
                       "design: --zip pairs lists of one length, but '%s' "
                       "has %zu values and '%s' %ld",
                       d->p[j].target, d->p[j].nlist, d->p[0].target, d->n);
        d->n = 0;
        return -1;
      }
  } else {
    double total = 1;
    for (int j = 0; j < d->np; j++)
      total *= (double)d->p[j].nlist;
    if (total > 1e9) {
      bsim_error_set(err, BSIM_ERR_INPUT,
                     "design: the grid has %.3g members, more than 1e9 "
                     "(hint: --zip, --random or --lhs sample fewer)",
                     total);
      return -1;
    }
    d->n = (long)total;
  }
  d->values = calloc((size_t)(d->n * d->np) + 1, sizeof(char *));
  if (!d->values || fill(d, kind, seed) != 0) {
    clear_members(d);
    bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory for %ld members", n);
    return -1;
  }
  return 0;
}

/* ------------------------------------------------------------------ */
/* Manifests                                                           */
/* ------------------------------------------------------------------ */

int bsim_design_read_manifest(bsim_design *d, const char *path,
                              bsim_error *err) {
  FILE *fp = fopen(path, "r");
  if (!fp) {
    bsim_error_set(err, BSIM_ERR_INPUT, "cannot open the manifest '%s'", path);
    return -1;
  }
  clear_members(d);
  char *line = NULL;
  size_t cap = 0;
  int lineno = 0, rc = 0;
  long capm = 0;
  while (rc == 0 && getline(&line, &cap, fp) >= 0) {
    lineno++;
    line[strcspn(line, "\r\n")] = '\0';
    if (!*line) continue;
    char **f;
    int n;
    if (out_csv_split(line, &f, &n) != 0) {
      rc = -1;
      bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
      break;
    }
    if (d->np == 0) { /* the header: targets */
      for (int j = 0; rc == 0 && j < n; j++)
        rc = bsim_design_param(d, f[j], f[j], err);
    } else if (n != d->np) {
      bsim_error_set(err, BSIM_ERR_INPUT,
                     "%s:%d: %d values for %d columns (hint: one value per "
                     "target of the header; quote values with commas)",
                     path, lineno, n, d->np);
      rc = -1;
    } else {
      for (int j = 0; rc == 0 && j < n; j++)
        if (!*f[j]) {
          bsim_error_set(err, BSIM_ERR_INPUT, "%s:%d: empty value for '%s'",
                         path, lineno, d->p[j].target);
          rc = -1;
        }
      if (rc == 0 && d->n == capm) {
        capm = capm ? 2 * capm : 64;
        char **g = realloc(d->values, sizeof(char *) * (size_t)(capm * d->np));
        if (!g) {
          bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
          rc = -1;
        } else {
          d->values = g;
        }
      }
      for (int j = 0; rc == 0 && j < n; j++) {
        d->values[d->n * d->np + j] = f[j]; /* taken */
        f[j] = NULL;
      }
      if (rc == 0) d->n++;
    }
    out_csv_free(f, n);
  }
  free(line);
  fclose(fp);
  if (rc == 0 && (d->np == 0 || d->n == 0)) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "%s: the manifest needs a header of targets and at least "
                   "one row",
                   path);
    rc = -1;
  }
  if (rc != 0) clear_members(d);
  return rc;
}

long bsim_design_members(const bsim_design *d) {
  return d->n;
}
int bsim_design_params(const bsim_design *d) {
  return d->np;
}
const char *bsim_design_target(const bsim_design *d, int j) {
  return j >= 0 && j < d->np ? d->p[j].target : NULL;
}
const char *bsim_design_value(const bsim_design *d, long i, int j) {
  return i >= 0 && i < d->n && j >= 0 && j < d->np ? d->values[i * d->np + j]
                                                   : NULL;
}
