/*
 * The plugins a diagram names (<library path="..."/>): a path is relative
 * to the diagram's own folder, so that a diagram and its plugin can move
 * together, and a failure points at the element that named it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/dg_util.h"

int dg_load_plugin(bsim_library *lib, const char *file, int line,
                   const char *path, bsim_error *err) {
  const char *slash = strrchr(file, '/');
  int dirlen = path[0] == '/' || !slash ? 0 : (int)(slash - file) + 1;
  size_t n = (size_t)dirlen + strlen(path) + 1;
  char *full = malloc(n);
  if (!full) {
    bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
    return -1;
  }
  snprintf(full, n, "%.*s%s", dirlen, file, path);
  bsim_error why;
  bsim_error_clear(&why);
  int rc = bsim_library_load(lib, full, &why);
  if (rc)
    bsim_error_set(err, why.status, "%s:%d: <library path=\"%s\">: %s", file,
                   line, path, why.message);
  free(full);
  return rc;
}
