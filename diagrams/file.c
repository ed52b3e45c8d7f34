/*
 * Reading a whole file into memory with our own messages: libxml2's (and
 * libzip's) own file opening report failures through process-wide
 * handlers, which the library must not use.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/dg_util.h"

char *dg_slurp(const char *path, size_t *len, bsim_error *err) {
  FILE *fp = fopen(path, "rb");
  if (!fp) {
    bsim_error_set(err, BSIM_ERR_INPUT, "%s: cannot open: %s", path,
                   strerror(errno));
    return NULL;
  }
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    n += fread(buf + n, 1, cap - n, fp);
    if (n < cap) break;
    char *grown = cap > (size_t)INT32_MAX / 2 ? NULL : realloc(buf, cap * 2);
    if (!grown) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = grown;
    cap *= 2;
  }
  int failed = ferror(fp), why = errno;
  fclose(fp);
  if (!buf) {
    bsim_error_set(err, BSIM_ERR_NOMEM, "%s: out of memory or file too large",
                   path);
    return NULL;
  }
  if (failed) {
    free(buf);
    bsim_error_set(err, BSIM_ERR_INPUT, "%s: cannot read: %s%s", path,
                   strerror(why),
                   why == EISDIR ? " (hint: name the diagram file, not its "
                                   "folder)"
                                 : "");
    return NULL;
  }
  *len = n;
  return buf;
}
