/*
 * Cutting a context script into statements without evaluating anything:
 * separators (newline, ';', ',') count only outside brackets, parentheses
 * and strings; keywords (if, elseif, else, end, for, while, then, do,
 * break, continue) are whole words at that level. Because this needs no
 * values, a statement's extent and the names it assigns are known even
 * when evaluating it fails, which is what script.c relies on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/script_int.h"

static int name_char(char c) {
  return ex_is_name_char(c);
}

/* Whether the word at s+i is w (a whole word). */
static int word_at(const char *s, size_t i, const char *w) {
  size_t n = strlen(w);
  return strncmp(s + i, w, n) == 0 && !name_char(s[i + n]) &&
         (i == 0 || (!name_char(s[i - 1]) && s[i - 1] != '%'));
}

static const char *const STOP_SIMPLE[] = {"else", "elseif", "end", NULL};
static const char *const STOP_COND[] = {"then", "do", NULL};

/* From i, the end of a statement or condition: a separator or a comment at
 * depth 0, a stop word at depth 0, or the end of the text. Newlines inside
 * brackets are counted into *line. Returns (size_t)-1 when a bracket or
 * parenthesis is never closed. */
static size_t scan(const char *s, size_t i, const char *const *stop,
                   int *line) {
  char stack[64];
  int depth = 0;
  char prev = ' ';
  int blank = 1;
  for (;;) {
    char c = s[i];
    if (c == '\0') return depth ? (size_t)-1 : i;
    if (c == '.' && s[i + 1] == '.') { /* continuation: the line goes on */
      size_t k = i + 2;
      while (s[k] == '.' || s[k] == ' ' || s[k] == '\t' || s[k] == '\r')
        k++;
      if (s[k] == '\n' || s[k] == '\0') {
        if (s[k] == '\n') (*line)++;
        i = s[k] ? k + 1 : k;
        blank = 1;
        continue;
      }
    }
    if (c == '/' && s[i + 1] == '/') {
      if (depth == 0) return i;
      while (s[i] && s[i] != '\n')
        i++;
      continue;
    }
    if (depth == 0 && (c == ';' || c == ',' || c == '\n')) return i;
    if (c == '\n') (*line)++;
    if (c == '\'' || c == '"') {
      int transpose = c == '\'' &&
                      !(depth && stack[depth - 1] == '[' && blank) &&
                      (name_char(prev) || prev == ')' || prev == ']' ||
                       prev == '\'' || prev == '.');
      if (!transpose) {
        for (i++; s[i] && s[i] != '\n'; i++) {
          if (s[i] == '\'' || s[i] == '"') {
            if (s[i + 1] != '\'' && s[i + 1] != '"') break;
            i++;
          }
        }
        if (s[i] == '\'' || s[i] == '"') i++;
        prev = '\'';
        blank = 0;
        continue;
      }
    }
    if (c == '(' || c == '[' || c == '{') {
      if (depth == (int)sizeof stack) return (size_t)-1;
      stack[depth++] = c;
    } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
      depth--;
    }
    if (depth == 0 && stop && (i == 0 || !name_char(s[i - 1])))
      for (int k = 0; stop[k]; k++)
        if (word_at(s, i, stop[k])) return i;
    if (c == ' ' || c == '\t' || c == '\r') {
      blank = 1;
    } else {
      prev = c;
      blank = 0;
    }
    i++;
  }
}

static size_t skip_blanks(const char *s, size_t i) {
  while (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')
    i++;
  return i;
}

/* The word at i (up to MAX_NAME characters) into w; its length. */
static size_t word(const char *s, size_t i, char *w) {
  size_t n = 0;
  if (ex_is_name_start(s[i]))
    while ((n == 0 || name_char(s[i + n])) && n < MAX_NAME) {
      w[n] = s[i + n];
      n++;
    }
  w[n] = '\0';
  return n;
}

static const char *const UNSUPPORTED[] = {
    "function", "endfunction", "select", "switch", "case",   "otherwise",
    "try",      "catch",       "return", "global", "resume", NULL};

typedef struct splitter {
  stmt *st;
  int n, cap;
  char *err;
  size_t errlen;
  int *errline;
} splitter;

static int split_fail(splitter *sp, int line, const char *fmt, const char *a) {
  snprintf(sp->err, sp->errlen, fmt, a);
  *sp->errline = line;
  return -1;
}

static stmt *add(splitter *sp, st_kind kind, int line) {
  if (sp->n == sp->cap) {
    int cap = sp->cap ? 2 * sp->cap : 32;
    stmt *st = realloc(sp->st, (size_t)cap * sizeof *st);
    if (!st) return NULL;
    sp->st = st;
    sp->cap = cap;
  }
  stmt *t = &sp->st[sp->n++];
  memset(t, 0, sizeof *t);
  t->kind = kind;
  t->line = line;
  t->match = -1;
  return t;
}

/* A condition (if, elseif, while) or a for's range: from i up to a
 * separator or then/do, which is consumed. Returns the position after. */
static size_t condition(splitter *sp, const char *s, size_t i, stmt *t,
                        int *line, const char *kw) {
  t->start = t->expr = skip_blanks(s, i);
  size_t e = scan(s, t->start, STOP_COND, line);
  if (e == (size_t)-1) {
    split_fail(sp, t->line,
               "a bracket or parenthesis opened after '%s' is "
               "never closed",
               kw);
    return e;
  }
  t->end = e;
  while (t->end > t->start && strchr(" \t\r", s[t->end - 1]))
    t->end--;
  if (t->end == t->start) {
    split_fail(sp, t->line, "'%s' without a condition", kw);
    return (size_t)-1;
  }
  if (word_at(s, e, "then"))
    e += 4;
  else if (word_at(s, e, "do"))
    e += 2;
  return e;
}

static size_t loop_header(splitter *sp, const char *s, size_t i, stmt *t,
                          int *line) {
  i = skip_blanks(s, i);
  if (word(s, i, t->var) == 0) {
    split_fail(sp, t->line, "'for' needs a loop variable: for %s = ...", "k");
    return (size_t)-1;
  }
  i = skip_blanks(s, i + strlen(t->var));
  if (s[i] != '=' || s[i + 1] == '=') {
    split_fail(sp, t->line, "'for %s' needs '=' and the values to run over",
               t->var);
    return (size_t)-1;
  }
  return condition(sp, s, i + 1, t, line, "for");
}

/* Links if/elseif/else/end chains and loops; 0 or -1. */
static int match(splitter *sp) {
  int stack[256], depth = 0;
  for (int i = 0; i < sp->n; i++) {
    stmt *t = &sp->st[i];
    if (t->kind == ST_IF || t->kind == ST_FOR || t->kind == ST_WHILE) {
      if (depth == 256)
        return split_fail(sp, t->line, "control structures nested too deeply%s",
                          "");
      stack[depth++] = i;
    } else if (t->kind == ST_ELSEIF || t->kind == ST_ELSE) {
      const char *kw = t->kind == ST_ELSE ? "else" : "elseif";
      if (depth == 0 || sp->st[stack[depth - 1]].kind == ST_FOR ||
          sp->st[stack[depth - 1]].kind == ST_WHILE ||
          sp->st[stack[depth - 1]].kind == ST_ELSE)
        return split_fail(sp, t->line, "'%s' without a matching 'if'", kw);
      sp->st[stack[depth - 1]].match = i;
      stack[depth - 1] = i;
    } else if (t->kind == ST_END) {
      if (depth == 0)
        return split_fail(sp, t->line,
                          "'%s' without a matching 'if', 'for' or 'while'",
                          "end");
      sp->st[stack[--depth]].match = i;
    } else if ((t->kind == ST_BREAK || t->kind == ST_CONTINUE)) {
      int inloop = 0;
      for (int k = 0; k < depth; k++)
        inloop |= sp->st[stack[k]].kind == ST_FOR ||
                  sp->st[stack[k]].kind == ST_WHILE;
      if (!inloop)
        return split_fail(sp, t->line, "'%s' outside a loop",
                          t->kind == ST_BREAK ? "break" : "continue");
    }
  }
  if (depth > 0) {
    const stmt *t = &sp->st[stack[depth - 1]];
    return split_fail(sp, t->line, "this '%s' has no matching 'end'",
                      t->kind == ST_FOR     ? "for"
                      : t->kind == ST_WHILE ? "while"
                      : t->kind == ST_IF    ? "if"
                                            : "else");
  }
  /* An ELSEIF or ELSE that ends a chain points at the END (set above when
   * the END popped it); an END's opener is not needed. */
  return 0;
}

int dg_script_split(const char *s, stmt **out, int *n, char *err, size_t errlen,
                    int *errline) {
  splitter sp = {NULL, 0, 0, err, errlen, errline};
  size_t i = 0;
  int line = 1, rc = 0;
  while (rc == 0) {
    i = skip_blanks(s, i);
    char c = s[i];
    if (c == '\0') break;
    if (c == '\n' || c == ';' || c == ',') {
      line += c == '\n';
      i++;
      continue;
    }
    if ((c == '/' && s[i + 1] == '/') || (c == '.' && s[i + 1] == '.')) {
      while (s[i] && s[i] != '\n')
        i++;
      continue;
    }
    char w[MAX_NAME + 1];
    size_t wl = word(s, i, w);
    for (int k = 0; UNSUPPORTED[k]; k++)
      if (wl && !strcmp(w, UNSUPPORTED[k]))
        rc = split_fail(
            &sp, line,
            "'%s' is not supported (docs/format.md lists the Scilab subset)",
            w);
    if (rc) break;
    st_kind kind = ST_SIMPLE;
    if (wl && !name_char(s[i + wl])) {
      kind = !strcmp(w, "if")         ? ST_IF
             : !strcmp(w, "elseif")   ? ST_ELSEIF
             : !strcmp(w, "else")     ? ST_ELSE
             : !strcmp(w, "end")      ? ST_END
             : !strcmp(w, "for")      ? ST_FOR
             : !strcmp(w, "while")    ? ST_WHILE
             : !strcmp(w, "break")    ? ST_BREAK
             : !strcmp(w, "continue") ? ST_CONTINUE
                                      : ST_SIMPLE;
    }
    stmt *t = add(&sp, kind, line);
    if (!t) {
      rc = split_fail(&sp, line, "%s", "out of memory");
      break;
    }
    size_t next;
    if (kind == ST_IF || kind == ST_ELSEIF || kind == ST_WHILE)
      next = condition(&sp, s, i + wl, t, &line, w);
    else if (kind == ST_FOR)
      next = loop_header(&sp, s, i + wl, t, &line);
    else if (kind != ST_SIMPLE)
      next = i + wl;
    else {
      t->start = i;
      next = scan(s, i, STOP_SIMPLE, &line);
      if (next == (size_t)-1)
        split_fail(&sp, t->line, "%s",
                   "a bracket or parenthesis is never closed");
      else
        for (t->end = next; t->end > i && strchr(" \t\r", s[t->end - 1]);)
          t->end--;
    }
    if (next == (size_t)-1) {
      sp.n--; /* the statement was not complete */
      rc = -1;
      break;
    }
    i = next;
  }
  if (rc == 0) rc = match(&sp);
  *out = sp.st;
  *n = sp.n;
  return rc;
}

/* From i at an opener, the position after its closer (or of the end). */
static size_t closer(const char *s, size_t i) {
  int depth = 0;
  for (; s[i]; i++) {
    if (s[i] == '\'' || s[i] == '"') {
      char q = s[i];
      if (q == '\'' && i > 0 &&
          (name_char(s[i - 1]) || s[i - 1] == ')' || s[i - 1] == ']'))
        continue;
      for (i++; s[i] && s[i] != q; i++)
        ;
      if (!s[i]) break;
      continue;
    }
    if (s[i] == '(' || s[i] == '[') depth++;
    if ((s[i] == ')' || s[i] == ']') && --depth == 0) return i + 1;
  }
  return i;
}

int dg_stmt_form(const char *s, const stmt *t, form *f) {
  memset(f, 0, sizeof *f);
  size_t b = t->start, i = skip_blanks(s, b), e = t->end;
  f->kind = FORM_EXPR;
  if (s[i] == '[') {
    size_t close = closer(s, i);
    size_t q = skip_blanks(s, close);
    if (close > e || q >= e || s[q] != '=' || s[q + 1] == '=') return 0;
    f->kind = FORM_MULTI;
    f->eq = q - b;
    for (size_t k = i + 1; k < close - 1;) {
      k = skip_blanks(s, k);
      if (s[k] == ',' || s[k] == ' ') {
        k++;
        continue;
      }
      if (k >= close - 1) break;
      if (f->ntargets == MAX_TARGETS) {
        f->error = "too many names on the left of [...] = (at most 8)";
        return -1;
      }
      char *nm = f->targets[f->ntargets];
      size_t wl = s[k] == '~' ? 1 : word(s, k, nm);
      if (s[k] == '~') strcpy(nm, "~");
      if (wl == 0 || (s[k] != '~' && s[k] == '%')) {
        f->error = "the left of [...] = must list names, e.g. [r, c] = size(A)";
        return -1;
      }
      f->ntargets++;
      k += wl;
    }
    if (f->ntargets == 0) {
      f->error = "the left of [...] = names nothing";
      return -1;
    }
    return 0;
  }
  size_t wl = word(s, i, f->name);
  if (wl == 0) return 0;
  size_t k = skip_blanks(s, i + wl);
  if (s[k] == '(') {
    size_t close = closer(s, k);
    size_t q = skip_blanks(s, close);
    if (close <= e && q < e && s[q] == '=' && s[q + 1] != '=') {
      f->kind = FORM_INDEXED;
      f->open = k - b;
      f->eq = q - b;
    }
    return 0;
  }
  if (k < e && s[k] == '=' && s[k + 1] != '=') {
    f->kind = FORM_ASSIGN;
    f->eq = k - b;
  }
  return 0;
}

int dg_stmt_targets(const char *s, const stmt *t, char (*names)[MAX_NAME + 1],
                    int max) {
  if (t->kind == ST_FOR) {
    if (max < 1) return 0;
    strcpy(names[0], t->var);
    return 1;
  }
  if (t->kind != ST_SIMPLE) return 0;
  form f;
  if (dg_stmt_form(s, t, &f) != 0) return 0;
  if (f.kind == FORM_ASSIGN || f.kind == FORM_INDEXED) {
    if (max < 1) return 0;
    strcpy(names[0], f.name);
    return 1;
  }
  int n = 0;
  for (int k = 0; k < f.ntargets && n < max; k++)
    if (strcmp(f.targets[k], "~")) strcpy(names[n++], f.targets[k]);
  return n;
}
