/*
 * Checks engine parameters given as text against the engine's table. Every
 * message names the engine, the offending parameter and what would have been
 * accepted, because a user who mistypes "max-ordr" needs the list, not a code.
 */
#include "solvers/params.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Index of word in a '|' separated list, or -1. */
static int choice_index(const char *choices, const char *word) {
  size_t wl = strlen(word);
  int idx = 0;
  const char *p = choices;
  while (p && *p) {
    const char *bar = strchr(p, '|');
    size_t len = bar ? (size_t)(bar - p) : strlen(p);
    if (len == wl && strncmp(p, word, len) == 0) return idx;
    idx++;
    p = bar ? bar + 1 : NULL;
  }
  return -1;
}

static int parse_value(const bsim_engine_type *t, const bsim_engine_param *d,
                       const char *text, bsim_param_value *v, char *msg,
                       size_t msglen) {
  v->text = text;
  if (strcmp(d->type, "choice") == 0) {
    v->choice = choice_index(d->choices, text);
    if (v->choice < 0) {
      snprintf(msg, msglen, "%s: %s must be one of %s, not '%s'", t->name,
               d->name, d->choices, text);
      return -1;
    }
    return 0;
  }
  char *end = NULL;
  errno = 0;
  if (strcmp(d->type, "int") == 0) {
    long x = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE) {
      snprintf(msg, msglen, "%s: %s must be an integer, not '%s'", t->name,
               d->name, text);
      return -1;
    }
    v->i = x;
    v->r = (double)x;
    return 0;
  }
  double x = strtod(text, &end);
  if (end == text || *end != '\0' || errno == ERANGE || !isfinite(x)) {
    snprintf(msg, msglen, "%s: %s must be a finite real number, not '%s'",
             t->name, d->name, text);
    return -1;
  }
  v->r = x;
  v->i = (long)x;
  return 0;
}

static void list_names(const bsim_engine_type *t, char *buf, size_t len) {
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; i < t->nparams && used < len; i++) {
    int k = snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
                     t->params[i].name);
    if (k < 0) break;
    used += (size_t)k;
  }
}

int bsim_engine_params_resolve(const bsim_engine_type *t,
                               const bsim_engine_settings *s,
                               bsim_param_value *out, char *msg,
                               size_t msglen) {
  for (int i = 0; i < t->nparams; i++) {
    memset(&out[i], 0, sizeof out[i]);
    /* A default that does not parse is a bug in the engine's table. */
    if (parse_value(t, &t->params[i], t->params[i].default_value, &out[i], msg,
                    msglen) != 0)
      return -1;
  }
  int n = s ? s->nparams : 0;
  for (int k = 0; k < n; k++) {
    const char *name = s->param_names ? s->param_names[k] : NULL;
    const char *value = s->param_values ? s->param_values[k] : NULL;
    if (!name || !value) {
      snprintf(msg, msglen, "%s: parameter %d has no name or no value", t->name,
               k + 1);
      return -1;
    }
    int idx = -1;
    for (int i = 0; i < t->nparams; i++)
      if (strcmp(t->params[i].name, name) == 0) idx = i;
    if (idx < 0) {
      char names[512];
      list_names(t, names, sizeof names);
      snprintf(msg, msglen, "%s: unknown parameter '%s'; valid parameters: %s",
               t->name, name, t->nparams ? names : "(none)");
      return -1;
    }
    if (out[idx].given) {
      snprintf(msg, msglen, "%s: parameter '%s' given twice", t->name, name);
      return -1;
    }
    if (parse_value(t, &t->params[idx], value, &out[idx], msg, msglen) != 0)
      return -1;
    out[idx].given = 1;
  }
  return 0;
}

int bsim_engine_params_check(const bsim_engine_type *t,
                             const bsim_engine_settings *s, char *msg,
                             size_t msglen) {
  bsim_param_value *v =
      calloc((size_t)(t->nparams ? t->nparams : 1), sizeof *v);
  if (!v) {
    snprintf(msg, msglen, "%s: out of memory", t->name);
    return -1;
  }
  int rc = bsim_engine_params_resolve(t, s, v, msg, msglen);
  free(v);
  return rc;
}

int bsim_engine_param_range(const bsim_engine_type *t, int idx,
                            const bsim_param_value *v, double lo, double hi,
                            char *msg, size_t msglen) {
  double x = v[idx].r;
  if (x >= lo && x <= hi) return 0;
  if (hi >= HUGE_VAL)
    snprintf(msg, msglen, "%s: %s must be >= %g, not %s", t->name,
             t->params[idx].name, lo, v[idx].text);
  else
    snprintf(msg, msglen, "%s: %s must be between %g and %g, not %s", t->name,
             t->params[idx].name, lo, hi, v[idx].text);
  return -1;
}
