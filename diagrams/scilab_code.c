/*
 * The Scilab interpreter as a service to blocks (bsim_define_scilab and the
 * ops of a bsim_scilab_code, block.h): a block that runs its user's code
 * (scifunc_block_m) compiles it in its define step and runs it at each
 * call without knowing diagrams/. Compiling splits each part into
 * statements once (script.c runs them, stopping at the first failure as a
 * Scilab function does) and refuses calls of functions the interpreter
 * does not have, so that a diagram needing a user's .sci file is bad input
 * at load time rather than a failure in the middle of a run. A workspace
 * is a scope of its own whose random generator is the run's session
 * generator, copied in and out around each run.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/define.h"
#include "diagrams/expr_int.h"
#include "diagrams/script_int.h"

typedef struct content {
  atomic_int refs;
  int nparts;
  dg_program *prog; /* one per part; an empty part has no statements */
  char **names;     /* what each part is called in messages */
  bsim_scilab_rand start;
} content;

struct bsim_scilab_ws {
  bsim_scope *scope;
  bsim_scilab_rand *rand;
};

/* ------------------------------------------------------------- scanning */

static const char *const KEYWORDS[] = {
    "if",     "then",      "else",     "elseif",      "end",    "for",
    "while",  "do",        "break",    "continue",    "select", "case",
    "switch", "otherwise", "function", "endfunction", "try",    "catch",
    "return", "global",    NULL};

static int is_keyword(const char *w) {
  for (int k = 0; KEYWORDS[k]; k++)
    if (!strcmp(KEYWORDS[k], w)) return 1;
  return 0;
}

/* Called for every name of a text: its position, and whether '(' follows
 * (a call, or the indexing of a variable). Nonzero stops the scan. */
typedef int (*name_fn)(void *user, const char *name, size_t pos, int paren);

/* Walks the names of s outside strings, comments and numbers, telling a
 * quote that starts a string from a transpose as the splitter does. */
static int each_name(const char *s, name_fn fn, void *user) {
  int brackets = 0; /* inside [ ]: a blank separates elements */
  char prev = ' ';
  int blank = 1;
  for (size_t i = 0; s[i];) {
    char c = s[i];
    if ((c == '/' && s[i + 1] == '/') || (c == '.' && s[i + 1] == '.')) {
      while (s[i] && s[i] != '\n') /* comment or continuation */
        i++;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      blank = 1;
      i++;
      continue;
    }
    if (c == '\'' || c == '"') {
      int transpose = c == '\'' && !(brackets && blank) &&
                      (ex_is_name_char(prev) || prev == ')' || prev == ']' ||
                       prev == '\'' || prev == '.');
      i++;
      if (!transpose) {
        for (; s[i] && s[i] != '\n'; i++)
          if (s[i] == '\'' || s[i] == '"') {
            if (s[i + 1] != '\'' && s[i + 1] != '"') break;
            i++; /* a doubled quote stands for itself */
          }
        if (s[i] == '\'' || s[i] == '"') i++;
      }
      prev = '\'';
      blank = 0;
      continue;
    }
    if ((c >= '0' && c <= '9') || (c == '.' && s[i + 1] >= '0' &&
                                   s[i + 1] <= '9' && !ex_is_name_char(prev))) {
      while ((s[i] >= '0' && s[i] <= '9') || s[i] == '.')
        i++;
      if (strchr("eEdD", s[i]) && s[i] &&
          ((s[i + 1] >= '0' && s[i + 1] <= '9') ||
           ((s[i + 1] == '+' || s[i + 1] == '-') && s[i + 2] >= '0' &&
            s[i + 2] <= '9'))) {
        i += 2;
        while (s[i] >= '0' && s[i] <= '9')
          i++;
      }
      prev = '0';
      blank = 0;
      continue;
    }
    if (ex_is_name_start(c)) {
      char w[MAX_NAME + 1];
      size_t start = i, n = 0;
      while (s[i] && (i == start || ex_is_name_char(s[i]))) {
        if (n < MAX_NAME) w[n++] = s[i];
        i++;
      }
      w[n] = '\0';
      size_t k = i;
      if (!brackets)
        while (s[k] == ' ' || s[k] == '\t')
          k++;
      if (!is_keyword(w) && fn(user, w, start, s[k] == '(')) return 1;
      prev = 'a';
      blank = 0;
      continue;
    }
    if (c == '[') brackets++;
    if (c == ']' && brackets > 0) brackets--;
    prev = c;
    blank = 0;
    i++;
  }
  return 0;
}

/* Whether `name` is assigned by a statement of p (or is a loop variable). */
static int assigned(const dg_program *p, const char *name) {
  for (int i = 0; i < p->n; i++) {
    char names[MAX_TARGETS][MAX_NAME + 1];
    int k = dg_stmt_targets(p->text, &p->st[i], names, MAX_TARGETS);
    for (int j = 0; j < k; j++)
      if (!strcmp(names[j], name)) return 1;
  }
  return 0;
}

typedef struct find_ref {
  const char *name;
  int found;
} find_ref;

static int is_ref(void *user, const char *name, size_t pos, int paren) {
  (void)pos;
  (void)paren;
  find_ref *f = user;
  f->found = !strcmp(f->name, name);
  return f->found;
}

typedef struct call_check {
  const dg_program *p;
  int nvars;
  const char *const *vars;
  char bad[MAX_NAME + 1];
  int line;
} call_check;

static int line_of(const char *s, size_t pos) {
  int line = 1;
  for (size_t i = 0; i < pos && s[i]; i++)
    line += s[i] == '\n';
  return line;
}

static int unknown_call(void *user, const char *name, size_t pos, int paren) {
  call_check *c = user;
  if (!paren || ex_is_function(name) || assigned(c->p, name)) return 0;
  for (int k = 0; k < c->nvars; k++)
    if (!strcmp(c->vars[k], name)) return 0;
  snprintf(c->bad, sizeof c->bad, "%s", name);
  c->line = line_of(c->p->text, pos);
  return 1;
}

/* ------------------------------------------------------------------ ops */

static bsim_scilab_code *code_ref(bsim_scilab_code *c) {
  atomic_fetch_add(&((content *)c->content)->refs, 1);
  return c;
}

static void code_free(bsim_scilab_code *c) {
  content *k = c->content;
  for (int i = 0; k && i < k->nparts; i++) {
    if (k->prog) dg_program_clear(&k->prog[i]);
    if (k->names) free(k->names[i]);
  }
  if (k) {
    free(k->prog);
    free(k->names);
    free(k);
  }
  free(c);
}

static void code_unref(bsim_scilab_code *c) {
  if (c && atomic_fetch_sub(&((content *)c->content)->refs, 1) == 1)
    code_free(c);
}

static int code_reads(const bsim_scilab_code *c, int part, const char *name) {
  const content *k = c->content;
  if (part < 0 || part >= k->nparts || !k->prog[part].text) return 0;
  find_ref f = {name, 0};
  each_name(k->prog[part].text, is_ref, &f);
  return f.found && !assigned(&k->prog[part], name);
}

static int code_assigns(const bsim_scilab_code *c, int part, const char *name) {
  const content *k = c->content;
  return part >= 0 && part < k->nparts && assigned(&k->prog[part], name);
}

static int code_statements(const bsim_scilab_code *c, int part) {
  const content *k = c->content;
  return part >= 0 && part < k->nparts ? k->prog[part].n : 0;
}

static bsim_scope *new_scope(void) {
  bsim_scope *s = bsim_scope_create(NULL);
  if (s) bsim_scope_set_scilab(s, 1);
  return s;
}

static bsim_scilab_ws *ws_create(const bsim_scilab_code *c,
                                 bsim_scilab_rand *rand) {
  const content *k = c->content;
  bsim_scilab_ws *w = calloc(1, sizeof *w);
  if (!w || !(w->scope = new_scope())) {
    free(w);
    return NULL;
  }
  if (!rand->initialised) {
    *rand = k->start;
    rand->initialised = 1;
  }
  w->rand = rand;
  return w;
}

static void ws_free(bsim_scilab_ws *w) {
  if (!w) return;
  bsim_scope_free(w->scope);
  free(w);
}

static void ws_clear(bsim_scilab_ws *w) {
  bsim_scope *s = new_scope();
  if (!s) return; /* keep the old variables; ws_set reports the shortage */
  bsim_scope_free(w->scope);
  w->scope = s;
}

static int ws_set(bsim_scilab_ws *w, const char *name, int rows, int cols,
                  const double *v) {
  bsim_value val = {rows, cols, (double *)v, NULL};
  return bsim_scope_set(w->scope, name, &val) ? -1 : 0;
}

static int ws_get(bsim_scilab_ws *w, const char *name, int *rows, int *cols,
                  const double **v) {
  const bsim_value *val;
  char var = 0;
  const char *why;
  if (ex_scope_find(w->scope, name, &val, &var, &why) != 0) return 1;
  if (val->str || var) return 2;
  *rows = val->rows;
  *cols = val->cols;
  *v = val->v;
  return 0;
}

static int code_run(const bsim_scilab_code *c, int part, bsim_scilab_ws *w,
                    char *msg, size_t msglen) {
  const content *k = c->content;
  if (part < 0 || part >= k->nparts) {
    snprintf(msg, msglen, "no code part %d", part);
    return -1;
  }
  if (k->prog[part].n == 0) return 0;
  ex_env *env = ex_scope_env(w->scope);
  env->rand_seed = w->rand->seed;
  env->rand_normal = w->rand->normal;
  env->have_spare = w->rand->have_spare;
  env->spare = w->rand->spare;
  int rc = dg_program_run(&k->prog[part], w->scope, msg, msglen);
  w->rand->seed = env->rand_seed;
  w->rand->normal = env->rand_normal;
  w->rand->have_spare = env->have_spare;
  w->rand->spare = env->spare;
  return rc;
}

static const bsim_scilab_ops OPS = {
    code_ref, code_unref, code_reads, code_assigns, code_statements, ws_create,
    ws_free,  ws_clear,   ws_set,     ws_get,       code_run,
};

/* ------------------------------------------------------------- compiling */

static bsim_scilab_code *nomem(bsim_define_ctx *ctx, bsim_scilab_code *c) {
  code_free(c);
  bsim_define_error(ctx, "out of memory");
  return NULL;
}

bsim_scilab_code *bsim_define_scilab(bsim_define_ctx *ctx, int nparts,
                                     const char *const *parts,
                                     const char *const *names, int nvars,
                                     const char *const *vars) {
  bsim_scilab_code *c = calloc(1, sizeof *c);
  content *k = c ? calloc(1, sizeof *k) : NULL;
  if (!k) {
    free(c);
    bsim_define_error(ctx, "out of memory");
    return NULL;
  }
  c->ops = &OPS;
  c->content = k;
  atomic_init(&k->refs, 1);
  k->nparts = nparts > 0 ? nparts : 0;
  k->prog = calloc((size_t)k->nparts + 1, sizeof *k->prog);
  k->names = calloc((size_t)k->nparts + 1, sizeof *k->names);
  if (!k->prog || !k->names) return nomem(ctx, c);
  for (int i = 0; i < k->nparts; i++) {
    const char *label = names && names[i] ? names[i] : "code";
    if (!(k->names[i] = strdup(label))) return nomem(ctx, c);
    char err[512];
    if (dg_program_init(&k->prog[i], parts[i] ? parts[i] : "", err,
                        sizeof err) != 0) {
      code_free(c);
      bsim_define_error(ctx, "its %s, %s", label, err);
      return NULL;
    }
    call_check cc = {&k->prog[i], nvars, vars, "", 0};
    if (each_name(k->prog[i].text, unknown_call, &cc)) {
      code_free(c);
      bsim_define_error(
          ctx,
          "its %s, line %d, calls '%s', which is neither a variable nor a "
          "function of blocksim's Scilab interpreter (a function of the "
          "user's own, loaded from a .sci file? blocksim cannot run it; "
          "docs/format.md lists the functions it has)",
          label, cc.line, cc.bad);
      return NULL;
    }
  }
  if (ctx->scope) {
    const ex_env *env = ex_scope_env(ctx->scope);
    k->start.seed = env->rand_seed;
    k->start.normal = env->rand_normal;
    k->start.have_spare = env->have_spare;
    k->start.spare = env->spare;
  }
  return c;
}
