/*
 * Splitting a CSV line into fields (csvsplit.h), for manifests and for
 * merging summary files: commas separate fields except inside double
 * quotes ("" is a quote) or brackets, so that a value like [1,2] or
 * uniform(0,1) stays one field.
 */
#include "output/csvsplit.h"

#include <stdlib.h>
#include <string.h>

/* The fields of one CSV line: commas split, except inside double quotes
 * (which "" escapes) or brackets, so that [1,2] stays one value. */
int out_csv_split(const char *line, char ***out, int *n) {
  int cap = 8;
  char **f = malloc(sizeof(char *) * (size_t)cap);
  *n = 0;
  const char *p = line;
  while (f) {
    size_t len = strlen(p);
    char *buf = malloc(len + 1), *w = buf;
    int quoted = 0, depth = 0;
    if (!buf) break;
    for (; *p; p++) {
      if (quoted) {
        if (*p == '"' && p[1] == '"')
          *w++ = *p++;
        else if (*p == '"')
          quoted = 0;
        else
          *w++ = *p;
      } else if (*p == '"') {
        quoted = 1;
      } else if (*p == ',' && depth == 0) {
        break;
      } else {
        depth += (*p == '[' || *p == '(') - (*p == ']' || *p == ')');
        *w++ = *p;
      }
    }
    *w = '\0';
    /* trim blanks */
    char *s = buf;
    while (*s == ' ' || *s == '\t')
      s++;
    for (char *e = s + strlen(s);
         e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r');)
      *--e = '\0';
    memmove(buf, s, strlen(s) + 1);
    if (*n == cap) {
      char **g = realloc(f, sizeof(char *) * (size_t)(cap *= 2));
      if (!g) {
        free(buf);
        break;
      }
      f = g;
    }
    f[(*n)++] = buf;
    if (*p != ',') {
      *out = f;
      return 0;
    }
    p++;
  }
  for (int i = 0; f && i < *n; i++)
    free(f[i]);
  free(f);
  return -1;
}

void out_csv_free(char **f, int n) {
  for (int i = 0; i < n; i++)
    free(f[i]);
  free(f);
}
