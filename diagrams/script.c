/*
 * The statement interpreter of context scripts (Xcos contexts, native
 * <script>): a script is first split into statements by a lexical scan
 * (separators, keywords, brackets and strings), the control structures are
 * matched (if/elseif/else/end, for, while), and the list is then run,
 * each expression being handed to the evaluator on its own. Splitting
 * before running is what lets a failed statement be stepped over: its
 * extent is known without understanding it, and the names it would have
 * assigned are found lexically and marked unknown, so that only what
 * depends on it fails later (an Xcos reader can then fall back to the
 * values stored in the file).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/expr_int.h"
#include "diagrams/script_int.h"

/* Statements executed at most, so that a runaway while loop ends. The
 * fuzz build stops far sooner, for the reason it lowers MAX_WORK: its
 * time went to scripts looping up to the bound, while 300 statements
 * still run any context of the demos. */
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
enum { MAX_STEPS = 100000 };
#else
enum { MAX_STEPS = 300 };
#endif

typedef struct script {
  const char *s;
  stmt *st;
  int n;
  bsim_scope *scope;
  char *msg;
  size_t msglen;
  int failed; /* statements that failed */
  long steps;
  int fatal;
  int strict; /* a failed statement ends the run (block code) */
} script;

static int fatal(script *S, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fatal(script *S, int line, const char *fmt, ...) {
  if (!S->fatal && S->msg && S->msglen) {
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(S->msg, S->msglen, "line %d: %s", line, what);
  }
  S->fatal = 1;
  return -1;
}

/* "line 3 (K=ppol(A,B,p)): <msg>", the reason recorded for unknown names
 * and the message of a statement that failed. */
static void describe(const script *S, const stmt *t, const char *msg, char *buf,
                     size_t n) {
  int len = (int)(t->end - t->start);
  snprintf(buf, n, "line %d (%.*s%s): %s", t->line, len > 60 ? 57 : len,
           S->s + t->start, len > 60 ? "..." : "", msg);
}

/* Marks every name the statements [from, to) assign as unknown. */
static int mark_unknown(script *S, int from, int to, const char *why) {
  for (int i = from; i < to; i++) {
    char names[8][MAX_NAME + 1];
    int k = dg_stmt_targets(S->s, &S->st[i], names, 8);
    for (int j = 0; j < k; j++)
      if (bsim_scope_set_unknown(S->scope, names[j], why))
        return fatal(S, S->st[i].line, "out of memory");
  }
  return 0;
}

/* A statement failed with msg: record it, make its names unknown (or, in
 * strict mode, stop with it). */
static int failed(script *S, int at, int upto, const char *msg) {
  char why[600];
  describe(S, &S->st[at], msg, why, sizeof why);
  S->failed++;
  if (S->strict) {
    if (!S->fatal && S->msg && S->msglen)
      snprintf(S->msg, S->msglen, "%s", why);
    S->fatal = 1;
    return -1;
  }
  return mark_unknown(S, at, upto, why);
}

/* Sets up a parser on a copy of the statement's text [a, b). */
static int sub_parser(script *S, size_t a, size_t b, parser *P, char **text,
                      char *msg, size_t msglen) {
  *text = malloc(b - a + 1);
  if (!*text) return -1;
  memcpy(*text, S->s + a, b - a);
  (*text)[b - a] = '\0';
  memset(P, 0, sizeof *P);
  P->s = *text;
  P->scope = S->scope;
  P->env = ex_scope_env(S->scope);
  P->msg = msg;
  P->msglen = msglen;
  msg[0] = '\0';
  return 0;
}

static int store(script *S, const stmt *t, const char *name, const mat *m) {
  return ex_scope_store(S->scope, name, m) ? fatal(S, t->line, "out of memory")
                                           : 0;
}

/* Evaluates [a, b) of the script as one expression. 0, or -1 with msg. */
static int eval_span(script *S, size_t a, size_t b, mat *out, char *msg,
                     size_t msglen) {
  parser P;
  char *text;
  memset(out, 0, sizeof *out);
  if (sub_parser(S, a, b, &P, &text, msg, msglen)) {
    snprintf(msg, msglen, "out of memory");
    return -1;
  }
  int rc = ex_eval_rest(&P, out);
  free(text);
  return rc;
}

/* x(args) = rhs with x the current value of name (empty if absent). */
static int assign_indexed(script *S, const stmt *t, const form *f, parser *P) {
  mat cur = {0}, rhs = {0}, args[MAX_ARGS];
  int n = 0, rc;
  memset(args, 0, sizeof args);
  rc = ex_lookup(P, f->name, 0, &cur) < 0 ? -1 : 0;
  P->pos = f->open;
  if (rc == 0) rc = ex_parse_index_args(P, &cur, args, &n);
  if (rc == 0) {
    P->pos = f->eq + 1;
    rc = ex_eval_rest(P, &rhs);
  }
  if (rc == 0) rc = ex_index_assign(P, &cur, args, n, &rhs, f->open);
  if (rc == 0) rc = store(S, t, f->name, &cur) ? -2 : 0;
  for (int i = 0; i < MAX_ARGS; i++)
    ex_clear(&args[i]);
  ex_clear(&cur);
  ex_clear(&rhs);
  return rc;
}

static int assign_multi(script *S, const stmt *t, const form *f, parser *P) {
  mat outs[8];
  memset(outs, 0, sizeof outs);
  P->pos = f->eq + 1;
  int rc = ex_parse_multi_call(P, outs, f->ntargets);
  for (int i = 0; rc == 0 && i < f->ntargets; i++)
    if (strcmp(f->targets[i], "~") != 0)
      rc = store(S, t, f->targets[i], &outs[i]) ? -2 : 0;
  for (int i = 0; i < 8; i++)
    ex_clear(&outs[i]);
  return rc;
}

static int run_simple(script *S, int i) {
  const stmt *t = &S->st[i];
  form f;
  char msg[400];
  parser P;
  char *text;
  if (dg_stmt_form(S->s, t, &f) != 0) return failed(S, i, i + 1, f.error);
  if (sub_parser(S, t->start, t->end, &P, &text, msg, sizeof msg))
    return fatal(S, t->line, "out of memory");
  int rc;
  if (f.kind == FORM_INDEXED) {
    rc = assign_indexed(S, t, &f, &P);
  } else if (f.kind == FORM_MULTI) {
    rc = assign_multi(S, t, &f, &P);
  } else {
    mat v = {0};
    P.pos = f.kind == FORM_ASSIGN ? f.eq + 1 : 0;
    rc = ex_eval_rest(&P, &v);
    if (rc == 0)
      rc = store(S, t, f.kind == FORM_ASSIGN ? f.name : "ans", &v) ? -2 : 0;
    ex_clear(&v);
  }
  free(text);
  if (rc == -2) return -1;
  return rc ? failed(S, i, i + 1, msg) : 0;
}

/* The value of a condition: Scilab's if is true when every element is
 * nonzero (and there is at least one). 1 true, 0 false, -1 failed. */
static int condition(script *S, const stmt *t, char *msg, size_t msglen) {
  mat v = {0};
  if (eval_span(S, t->start, t->end, &v, msg, msglen)) return -1;
  int truth = -1;
  if (!is_real(&v) || v.eye)
    snprintf(msg, msglen, "the condition is not a real or boolean value");
  else
    truth = numel(&v) > 0;
  for (long k = 0; truth == 1 && k < numel(&v); k++)
    truth = v.v[k] != 0;
  ex_clear(&v);
  return truth;
}

static int run_range(script *S, int from, int to, int *flow);

/* if ... elseif ... else ... end starting at i; returns the index after. */
static int run_if(script *S, int i, int *flow, int *next) {
  int end = i;
  while (S->st[end].kind != ST_END)
    end = S->st[end].match;
  *next = end + 1;
  for (int k = i; k != end; k = S->st[k].match) {
    const stmt *t = &S->st[k];
    int truth = 1;
    if (t->kind != ST_ELSE) {
      char msg[400];
      truth = condition(S, t, msg, sizeof msg);
      if (truth < 0) return failed(S, k, end, msg);
    }
    if (truth) return run_range(S, k + 1, t->match, flow);
  }
  return 0;
}

static int run_for(script *S, int i, int *flow) {
  const stmt *t = &S->st[i];
  char msg[400];
  mat v = {0};
  if (eval_span(S, t->expr, t->end, &v, msg, sizeof msg))
    return failed(S, i, t->match, msg);
  int rc = 0;
  if (!is_real(&v) || v.eye) {
    ex_clear(&v);
    return failed(S, i, t->match,
                  "a for loop runs over the columns of a "
                  "real matrix");
  }
  for (int j = 0; rc == 0 && j < v.cols; j++) {
    mat c = {0};
    parser P = {.msg = msg, .msglen = sizeof msg};
    if (ex_mat_new(&P, &c, v.rows, 1)) {
      rc = fatal(S, t->line, "%s", msg);
      break;
    }
    if (v.rows)
      memcpy(c.v, v.v + (long)j * v.rows, (size_t)v.rows * sizeof *c.v);
    rc = store(S, t, t->var, &c);
    ex_clear(&c);
    if (rc == 0) rc = run_range(S, i + 1, t->match, flow);
    if (*flow == FLOW_BREAK) {
      *flow = 0;
      break;
    }
    *flow = 0;
  }
  ex_clear(&v);
  return rc;
}

static int run_while(script *S, int i, int *flow) {
  const stmt *t = &S->st[i];
  for (;;) {
    char msg[400];
    int truth = condition(S, t, msg, sizeof msg);
    if (truth < 0) return failed(S, i, t->match, msg);
    if (!truth) return 0;
    if (run_range(S, i + 1, t->match, flow)) return -1;
    if (*flow == FLOW_BREAK) {
      *flow = 0;
      return 0;
    }
    *flow = 0;
    if (++S->steps > MAX_STEPS)
      return fatal(S, t->line,
                   "the script ran more than %d steps: is this "
                   "while loop endless?",
                   MAX_STEPS);
  }
}

static int run_range(script *S, int from, int to, int *flow) {
  int i = from;
  while (i < to && !*flow) {
    const stmt *t = &S->st[i];
    if (++S->steps > MAX_STEPS)
      return fatal(S, t->line,
                   "the script ran more than %d steps: is a "
                   "loop endless?",
                   MAX_STEPS);
    int rc = 0, next = i + 1;
    switch (t->kind) {
    case ST_SIMPLE:
      rc = run_simple(S, i);
      break;
    case ST_IF:
      rc = run_if(S, i, flow, &next);
      break;
    case ST_FOR:
      rc = run_for(S, i, flow);
      next = t->match + 1;
      break;
    case ST_WHILE:
      rc = run_while(S, i, flow);
      next = t->match + 1;
      break;
    case ST_BREAK:
      *flow = FLOW_BREAK;
      break;
    case ST_CONTINUE:
      *flow = FLOW_CONTINUE;
      break;
    default: /* matching keeps else/elseif/end out of reach */
      break;
    }
    if (rc) return -1;
    i = next;
  }
  return 0;
}

int bsim_script_run(const char *text, int first_line, bsim_scope *scope,
                    char *msg, size_t msglen, int *nfailed) {
  script S = {
      .s = text ? text : "", .scope = scope, .msg = msg, .msglen = msglen};
  if (msg && msglen) msg[0] = '\0';
  if (nfailed) *nfailed = 0;
  char err[400];
  int errline = 0;
  int rc = dg_script_split(S.s, &S.st, &S.n, err, sizeof err, &errline);
  /* Statements are numbered as the caller's file numbers them. */
  for (int i = 0; i < S.n; i++)
    S.st[i].line += first_line - 1;
  errline += first_line - 1;
  if (rc != 0) {
    /* Names assigned by the statements that could be split are unknown:
     * their values can no longer be trusted to be complete. */
    mark_unknown(&S, 0, S.n, err);
    free(S.st);
    fatal(&S, errline, "%s", err);
    return -1;
  }
  int flow = 0;
  rc = run_range(&S, 0, S.n, &flow);
  free(S.st);
  if (nfailed) *nfailed = S.failed;
  return rc;
}

int dg_program_init(dg_program *p, const char *text, char *err, size_t errlen) {
  memset(p, 0, sizeof *p);
  size_t n = strlen(text ? text : "");
  if (!(p->text = malloc(n + 1))) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  memcpy(p->text, text ? text : "", n + 1);
  char why[400];
  int line = 0;
  if (dg_script_split(p->text, &p->st, &p->n, why, sizeof why, &line) != 0) {
    snprintf(err, errlen, "line %d: %s", line, why);
    dg_program_clear(p);
    return -1;
  }
  return 0;
}

void dg_program_clear(dg_program *p) {
  free(p->text);
  free(p->st);
  memset(p, 0, sizeof *p);
}

int dg_program_run(const dg_program *p, bsim_scope *scope, char *msg,
                   size_t msglen) {
  script S = {.s = p->text,
              .st = p->st,
              .n = p->n,
              .scope = scope,
              .msg = msg,
              .msglen = msglen,
              .strict = 1};
  if (msg && msglen) msg[0] = '\0';
  int flow = 0;
  return run_range(&S, 0, S.n, &flow);
}
