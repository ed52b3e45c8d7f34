/*
 * Life and edits of the Diagram tree after it has been read: freeing it,
 * command-line overrides (-p block.param=value, -p var=value), and the small
 * lookups that the reader and the flattener share.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/dg_util.h"

static void free_params(dg_param *p, int n) {
  for (int i = 0; i < n; i++) {
    free(p[i].name);
    free(p[i].expr);
  }
  free(p);
}

void dg_diagram_free(dg_diagram *d) {
  if (!d) return;
  free(d->name);
  free(d->script);
  free_params(d->pinned, d->npinned);
  free_params(d->context, d->ncontext);
  for (int i = 0; i < d->nblocks; i++) {
    dg_block *b = &d->blocks[i];
    free(b->id);
    free(b->type);
    dg_diagram_free(b->sub);
    free_params(b->params, b->nparams);
    free(b->gui);
    free(b->xcos_links);
    if (b->stored) bsim_model_clear(b->stored);
    free(b->stored);
  }
  free(d->blocks);
  for (int i = 0; i < d->nlinks; i++) {
    free(d->links[i].from.block);
    free(d->links[i].to.block);
    free(d->links[i].from.con);
    free(d->links[i].to.con);
  }
  free(d->links);
  free(d);
}

void bsim_diagram_free(bsim_diagram *d) {
  if (!d) return;
  free(d->file);
  dg_diagram_free(d->root);
  free(d->settings.solver);
  free(d->settings.solver_fallback);
  free_params(d->settings.solver_params, d->settings.nsolver_params);
  for (int i = 0; i < d->nobserves; i++) {
    free(d->observes[i].name);
    free(d->observes[i].signal.block);
  }
  free(d->observes);
  for (int i = 0; i < d->nnotes; i++)
    free(d->notes[i]);
  free(d->notes);
  bsim_library_release(d->lib);
  free(d);
}

int dg_add_notev(char ***notes, int *nnotes, const char *fmt, va_list ap) {
  char text[2600];
  vsnprintf(text, sizeof text, fmt, ap);
  char **g = realloc(*notes, (size_t)(*nnotes + 1) * sizeof *g);
  if (!g) return -1;
  *notes = g;
  if (!(g[*nnotes] = strdup(text))) return -1;
  (*nnotes)++;
  return 0;
}

const char *bsim_diagram_note_at(const bsim_diagram *d, size_t i) {
  return d && i < (size_t)d->nnotes ? d->notes[i] : NULL;
}

/* Copy n elements of size `size` from src into a fresh array (never empty,
 * as the model helpers allocate; a NULL src stays NULL). -1 when out of
 * memory. */
static int dup_array(void **dst, const void *src, int n, size_t size) {
  *dst = NULL;
  if (!src) return 0;
  *dst = calloc(n > 0 ? (size_t)n : 1, size);
  if (!*dst) return -1;
  if (n > 0) memcpy(*dst, src, (size_t)n * size);
  return 0;
}

int dg_model_copy(bsim_model *dst, const bsim_model *src) {
  *dst = *src;
  if (dst->script) dst->script->ops->ref(dst->script); /* shared, counted */
  dst->in = dst->in2 = dst->dep_u = dst->out = dst->out2 = NULL;
  dst->firing = dst->x0 = dst->z0 = dst->rpar = NULL;
  dst->ipar = dst->zcdirs = NULL;
  dst->opar = NULL;
  dst->condom = NULL;
  dst->conname = NULL;
  dst->xprop = NULL;
  dst->nopar = 0;
  int bad =
      dup_array((void **)&dst->in, src->in, src->nin, sizeof(int)) ||
      dup_array((void **)&dst->in2, src->in2, src->nin, sizeof(int)) ||
      dup_array((void **)&dst->dep_u, src->dep_u, src->nin, sizeof(int)) ||
      dup_array((void **)&dst->out, src->out, src->nout, sizeof(int)) ||
      dup_array((void **)&dst->out2, src->out2, src->nout, sizeof(int)) ||
      dup_array((void **)&dst->firing, src->firing, src->nevout,
                sizeof(double)) ||
      dup_array((void **)&dst->x0, src->x0, src->nx, sizeof(double)) ||
      dup_array((void **)&dst->z0, src->z0, src->nz, sizeof(double)) ||
      dup_array((void **)&dst->rpar, src->rpar, src->nrpar, sizeof(double)) ||
      dup_array((void **)&dst->ipar, src->ipar, src->nipar, sizeof(int)) ||
      dup_array((void **)&dst->zcdirs, src->zcdirs, src->zcdirs ? src->ng : 0,
                sizeof(int)) ||
      dup_array((void **)&dst->condom, src->condom, src->ncon,
                sizeof *src->condom) ||
      dup_array((void **)&dst->conname, src->conname, src->ncon,
                sizeof *src->conname) ||
      dup_array((void **)&dst->xprop, src->xprop, src->xprop ? src->nx : 0,
                sizeof(int));
  for (int i = 0; !bad && i < src->nopar; i++)
    bad = bsim_model_add_opar(dst, &src->opar[i]) != 0;
  if (bad) {
    bsim_model_clear(dst);
    return -1;
  }
  return 0;
}

/* ------------------------------------------------------------------ */
/* Shared lookups                                                      */
/* ------------------------------------------------------------------ */

/* qsort has no user pointer, so the sort runs over (id, position) pairs. */
typedef struct keyed {
  const char *id;
  int pos;
} keyed;

static int cmp_keyed(const void *a, const void *b) {
  const keyed *x = a, *y = b;
  int c = strcmp(x->id, y->id);
  return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

int *dg_block_index(const dg_diagram *d) {
  if (d->nblocks == 0) return NULL;
  keyed *k = malloc((size_t)d->nblocks * sizeof *k);
  int *idx = malloc((size_t)d->nblocks * sizeof *idx);
  if (!k || !idx) {
    free(k);
    free(idx);
    return NULL;
  }
  for (int i = 0; i < d->nblocks; i++)
    k[i] = (keyed){d->blocks[i].id, i};
  qsort(k, (size_t)d->nblocks, sizeof *k, cmp_keyed);
  for (int i = 0; i < d->nblocks; i++)
    idx[i] = k[i].pos;
  free(k);
  return idx;
}

/* strcmp of a length-limited key against a NUL-terminated id. */
static int cmp_len(const char *key, size_t len, const char *id) {
  size_t n = strlen(id);
  int c = strncmp(key, id, len < n ? len : n);
  if (c) return c;
  return (len > n) - (len < n);
}

int dg_block_lookup(const dg_diagram *d, const int *index, const char *id,
                    size_t len) {
  if (len == SIZE_MAX) len = strlen(id);
  int lo = 0, hi = d->nblocks - 1;
  if (!index) return -1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    int c = cmp_len(id, len, d->blocks[index[mid]].id);
    if (c == 0) {
      while (mid > 0 && cmp_len(id, len, d->blocks[index[mid - 1]].id) == 0)
        mid--; /* the first of duplicates, as written in the file */
      return index[mid];
    }
    if (c < 0)
      hi = mid - 1;
    else
      lo = mid + 1;
  }
  return -1;
}

void dg_param_list(const bsim_block_type *t, char *buf, size_t n) {
  size_t used = 0;
  buf[0] = '\0';
  if (t->nparams == 0) {
    snprintf(buf, n, "(none)");
    return;
  }
  for (int i = 0; i < t->nparams && used < n; i++) {
    int w = snprintf(buf + used, n - used, "%s%s", i ? ", " : "",
                     t->params[i].name);
    if (w < 0) break;
    used += (size_t)w;
  }
}

int dg_valid_name(const char *name) {
  if (!name ||
      !(isalpha((unsigned char)name[0]) || name[0] == '_' || name[0] == '%'))
    return 0;
  for (const char *c = name + 1; *c; c++)
    if (!isalnum((unsigned char)*c) && *c != '_') return 0;
  return 1;
}

int dg_param_find(const bsim_block_type *t, const char *name) {
  for (int i = 0; i < t->nparams; i++)
    if (strcmp(t->params[i].name, name) == 0) return i;
  return -1;
}

int dg_parse_portref(const char *text, dg_portref *out) {
  const char *colon = strrchr(text, ':');
  char *end = NULL;
  long port = 0;
  if (colon && colon[1] >= '0' && colon[1] <= '9') {
    errno = 0;
    port = strtol(colon + 1, &end, 10);
    if (errno || *end) port = 0;
  }
  if (!colon || colon == text || port < 1 || port > INT32_MAX) return -1;
  out->block = strndup(text, (size_t)(colon - text));
  out->port = (int)port;
  return out->block ? 0 : -2;
}

int dg_parse_conref(const char *text, dg_portref *out) {
  const char *colon = strrchr(text, ':');
  if (!colon || colon == text || !colon[1]) return -1;
  if (colon[1] >= '0' && colon[1] <= '9') return dg_parse_portref(text, out);
  for (const char *c = colon + 1; *c; c++)
    if (!(*c == '_' || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
          (*c >= '0' && *c <= '9')))
      return -1;
  out->port = 0;
  out->block = strndup(text, (size_t)(colon - text));
  out->con = strdup(colon + 1);
  return out->block && out->con ? 0 : -2;
}

const char *bsim_diagram_format(const bsim_diagram *d) {
  return d && d->format ? d->format : "native";
}

int bsim_diagram_observe(bsim_diagram *d, const char *name, const char *signal,
                         bsim_error *err) {
  if (!d || !name || !*name || !signal) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "observe: empty name (write NAME=PATH:PORT)");
    return -1;
  }
  for (int i = 0; i < d->nobserves; i++)
    if (strcmp(d->observes[i].name, name) == 0) {
      bsim_error_set(err, BSIM_ERR_INPUT,
                     "observe '%s': the name is already used (names must "
                     "be unique)",
                     name);
      return -1;
    }
  dg_observe o = {0};
  int rc = dg_parse_portref(signal, &o.signal);
  if (rc == -1) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "observe '%s': bad signal '%s': expected PATH:PORT with "
                   "the output port counted from 1 (e.g. 'plant/x:1')",
                   name, signal);
    return -1;
  }
  dg_observe *g =
      rc ? NULL : realloc(d->observes, (size_t)(d->nobserves + 1) * sizeof *g);
  if (!g || !(o.name = strdup(name))) {
    if (g) d->observes = g;
    free(o.signal.block);
    bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
    return -1;
  }
  d->observes = g;
  d->observes[d->nobserves++] = o;
  return 0;
}

/* ------------------------------------------------------------------ */
/* Overrides                                                           */
/* ------------------------------------------------------------------ */

/* Replace or append name=expr in a parameter list (line 0 marks "set by an
 * override" for messages). */
static int set_param(dg_param **list, int *n, const char *name,
                     const char *value, bsim_error *err) {
  char *copy = strdup(value);
  if (!copy) goto nomem;
  for (int i = 0; i < *n; i++) {
    if (strcmp((*list)[i].name, name) == 0) {
      free((*list)[i].expr);
      (*list)[i].expr = copy;
      (*list)[i].line = 0;
      return 0;
    }
  }
  char *nm = strdup(name);
  dg_param *grown = realloc(*list, (size_t)(*n + 1) * sizeof **list);
  if (!nm || !grown) {
    free(nm);
    free(copy);
    if (grown) *list = grown;
    goto nomem;
  }
  *list = grown;
  grown[*n] = (dg_param){nm, copy, 0};
  (*n)++;
  return 0;
nomem:
  bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory while applying override");
  return -1;
}

/* A context variable of a level: a <var> of that name takes the new
 * expression in place (later <var>s see it); otherwise, if the level has a
 * script, the value is pinned before the script runs (the script's own
 * assignment of the name is then ignored, and exists() sees it); otherwise
 * it is appended as a new <var>. */
static int set_context(dg_diagram *level, const char *name, const char *value,
                       bsim_error *err) {
  for (int i = 0; i < level->ncontext; i++)
    if (strcmp(level->context[i].name, name) == 0)
      return set_param(&level->context, &level->ncontext, name, value, err);
  if (level->script)
    return set_param(&level->pinned, &level->npinned, name, value, err);
  return set_param(&level->context, &level->ncontext, name, value, err);
}

/* "x, g, inner" — the ids of a level, for the hint of a bad path. */
static void list_ids(const dg_diagram *d, char *buf, size_t n) {
  size_t used = 0;
  buf[0] = '\0';
  if (d->nblocks == 0) snprintf(buf, n, "no blocks");
  for (int i = 0; i < d->nblocks && used < n; i++) {
    int w =
        snprintf(buf + used, n - used, "%s%s", i ? ", " : "", d->blocks[i].id);
    if (w < 0) break;
    used += (size_t)w;
  }
}

int dg_override_resolve(const bsim_diagram *d, const char *target,
                        dg_diagram **level, dg_block **block,
                        const char **param, bsim_error *err) {
  *level = NULL;
  *block = NULL;
  *param = NULL;
  if (!d || !target || !*target) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "override: empty target (write block/path.param=value or "
                   "var=value)");
    return -1;
  }
  const char *dot = strrchr(target, '.');
  if (!dot) {
    if (strchr(target, '/')) {
      bsim_error_set(err, BSIM_ERR_INPUT,
                     "override '%s': no parameter named (write "
                     "block/path.param=value, or var=value for a context "
                     "variable)",
                     target);
      return -1;
    }
    if (!dg_valid_name(target)) {
      bsim_error_set(err, BSIM_ERR_INPUT,
                     "override '%s': not a variable name (a letter, '_' or "
                     "'%%' followed by letters, digits and '_'; write "
                     "var=value, or block/path.param=value)",
                     target);
      return -1;
    }
    *level = d->root;
    *param = target;
    return 0;
  }
  if (dot == target || dot[1] == '\0') {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "override '%s': expected block/path.param (both parts "
                   "non-empty)",
                   target);
    return -1;
  }
  *param = dot + 1;
  size_t pathlen = (size_t)(dot - target);
  dg_diagram *lv = d->root;
  const char *seg = target;
  for (;;) {
    const char *slash = memchr(seg, '/', pathlen - (size_t)(seg - target));
    size_t len =
        slash ? (size_t)(slash - seg) : pathlen - (size_t)(seg - target);
    dg_block *found = NULL;
    for (int i = 0; i < lv->nblocks; i++) {
      const char *id = lv->blocks[i].id;
      if (strlen(id) == len && strncmp(id, seg, len) == 0) {
        found = &lv->blocks[i];
        break;
      }
    }
    if (!found || (slash && !found->sub)) {
      char ids[512];
      list_ids(lv, ids, sizeof ids);
      int upto = (int)(seg - target) - (seg > target ? 1 : 0);
      int bad = (int)(seg - target + len);
      if (!found)
        bsim_error_set(err, BSIM_ERR_INPUT,
                       "override '%s': no block '%.*s'; the nearest existing "
                       "level is %s%.*s%s, which holds: %s",
                       target, bad, target, upto > 0 ? "'" : "the top level",
                       upto > 0 ? upto : 0, target, upto > 0 ? "'" : "", ids);
      else
        bsim_error_set(err, BSIM_ERR_INPUT,
                       "override '%s': '%.*s' is a block, not a superblock, so "
                       "nothing lies inside it",
                       target, bad, target);
      return -1;
    }
    if (!slash) {
      /* A superblock's "parameters" are its context variables. */
      if (found->sub)
        *level = found->sub;
      else
        *block = found;
      return 0;
    }
    lv = found->sub;
    seg = slash + 1;
  }
}

int bsim_diagram_override(bsim_diagram *d, const char *target,
                          const char *value, bsim_error *err) {
  dg_diagram *level;
  dg_block *block;
  const char *param;
  if (!value) {
    bsim_error_set(err, BSIM_ERR_INPUT, "override '%s': no value",
                   target ? target : "");
    return -1;
  }
  if (dg_override_resolve(d, target, &level, &block, &param, err) != 0)
    return -1;
  if (block)
    return set_param(&block->params, &block->nparams, param, value, err);
  return set_context(level, param, value, err);
}
