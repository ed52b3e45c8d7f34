/*
 * The lexical half of the evaluator: characters, blanks and comments,
 * names, numbers and strings, and the error reporting every part shares.
 * Kept apart from the grammar (expr.c) so that each stays readable.
 */
#include <ctype.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/expr_int.h"

int ex_fail(parser *P, const char *fmt, ...) {
  /* The first error is the cause; later ones are fallout. */
  if (!P->failed && P->msg && P->msglen > 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(P->msg, P->msglen, fmt, ap);
    va_end(ap);
  }
  P->failed = 1;
  return -1;
}

/* Lookahead that never reads past the terminating NUL. */
char ex_at(const parser *P, size_t k) {
  const char *c = P->s + P->pos;
  for (size_t i = 0; i < k; i++)
    if (!c[i]) return '\0';
  return c[k];
}
int ex_is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}
int ex_is_name_start(char c) {
  return isalpha((unsigned char)c) || c == '_' || c == '%';
}
int ex_is_name_char(char c) {
  return isalnum((unsigned char)c) || c == '_';
}

/* How to name a character in "unexpected ..." messages. */
static const char *describe(char c, char *buf, size_t n) {
  if (c == '\0')
    snprintf(buf, n, "end of expression");
  else if (c == '\n')
    snprintf(buf, n, "end of line");
  else if (isprint((unsigned char)c))
    snprintf(buf, n, "'%c'", c);
  else
    snprintf(buf, n, "character 0x%02x", (unsigned)(unsigned char)c);
  return buf;
}

int ex_unexpected(parser *P, const char *expected) {
  char d[32];
  return ex_fail(P, "unexpected %s at column %zu, expected %s",
                 describe(ex_at(P, 0), d, sizeof d), col(P->pos), expected);
}

/* Skips blanks, "//" comments and ".." continuations; newlines too unless
 * directly inside brackets, where they end a row (script.c hands over one
 * statement at a time, so a newline never ends anything else). Returns
 * whether anything was skipped, which is what separates matrix elements. */
int ex_skip_ws(parser *P) {
  size_t start = P->pos;
  for (;;) {
    char c = ex_at(P, 0);
    if (ex_is_blank(c) || (c == '\n' && !P->bracket)) {
      P->pos++;
    } else if (c == '/' && ex_at(P, 1) == '/') {
      while (ex_at(P, 0) && ex_at(P, 0) != '\n')
        P->pos++;
    } else if (c == '.' && ex_at(P, 1) == '.') {
      size_t k = 2;
      while (ex_at(P, k) == '.' || ex_is_blank(ex_at(P, k)))
        k++;
      if (ex_at(P, k) != '\n' && ex_at(P, k) != '\0') break;
      P->pos += k + (ex_at(P, k) == '\n');
    } else {
      break;
    }
  }
  return P->pos != start;
}

int ex_read_name(parser *P, char *buf) {
  size_t start = P->pos, len = 1;
  while (ex_is_name_char(P->s[start + len]))
    len++;
  if (len > MAX_NAME)
    return ex_fail(P, "name too long at column %zu (at most %d characters)",
                   col(start), MAX_NAME);
  memcpy(buf, P->s + start, len);
  buf[len] = '\0';
  P->pos += len;
  return 0;
}

/* ---------------------------------------------------------------- syntax */

int ex_parse_number(parser *P, mat *out) {
  const char *s = P->s + P->pos;
  size_t i = 0;
  while (isdigit((unsigned char)s[i]))
    i++;
  /* A dot belongs to the number unless it starts an operator (.* ./ .^ .')
   * or a ".." continuation. */
  if (s[i] == '.' && s[i + 1] != '*' && s[i + 1] != '/' && s[i + 1] != '^' &&
      s[i + 1] != '\'' && s[i + 1] != '.') {
    i++;
    while (isdigit((unsigned char)s[i]))
      i++;
  }
  if (s[i] == 'e' || s[i] == 'E' || s[i] == 'd' || s[i] == 'D') {
    size_t j = i + 1;
    if (s[j] == '+' || s[j] == '-') j++;
    if (isdigit((unsigned char)s[j])) {
      while (isdigit((unsigned char)s[j]))
        j++;
      i = j;
    }
  }
  if (i > MAX_NUMBER)
    return ex_fail(P, "number too long at column %zu", col(P->pos));
  /* strtod follows the process locale; translate our '.' into its decimal
   * point so that an embedding program's setlocale cannot change values. */
  char buf[MAX_NUMBER + 1];
  char point = localeconv()->decimal_point[0];
  for (size_t k = 0; k < i; k++) {
    char c = s[k];
    buf[k] = (c == 'd' || c == 'D') ? 'e' : c == '.' ? point : c;
  }
  buf[i] = '\0';
  P->pos += i;
  return ex_mat_scalar(P, out, strtod(buf, NULL));
}

/* 'text' or "text"; a doubled quote of either kind stands for one. */
int ex_parse_string(parser *P, mat *out) {
  size_t open = P->pos++;
  size_t cap = 16, n = 0;
  char *buf = malloc(cap);
  if (!buf) return ex_fail(P, "out of memory");
  for (;;) {
    char c = ex_at(P, 0);
    if (c == '\0' || c == '\n') {
      free(buf);
      return ex_fail(P, "string starting at column %zu is not closed",
                     col(open));
    }
    if (c == '\'' || c == '"') {
      char d = ex_at(P, 1);
      if (d != '\'' && d != '"') {
        P->pos++;
        break;
      }
      P->pos++; /* a doubled quote: keep one */
    }
    if (n + 1 >= cap) {
      char *b = realloc(buf, cap *= 2);
      if (!b) {
        free(buf);
        return ex_fail(P, "out of memory");
      }
      buf = b;
    }
    buf[n++] = c;
    P->pos++;
  }
  int rc = ex_mat_string(P, out, buf, n);
  free(buf);
  return rc;
}
