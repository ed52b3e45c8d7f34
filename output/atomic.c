/*
 * Atomic result files (see atomic.h). rename() within one folder is atomic
 * on POSIX file systems, so readers see the old file or the new one.
 */
#include "output/atomic.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int bsim_atomic_open(bsim_atomic *a, const char *path) {
  size_t len = strlen(path) + 16;
  a->f = NULL;
  a->tmp = malloc(len);
  if (!a->tmp) {
    errno = ENOMEM;
    return -1;
  }
  snprintf(a->tmp, len, "%s.tmpXXXXXX", path);
  int fd = mkstemp(a->tmp);
  if (fd >= 0) {
    /* mkstemp's 0600 would survive the rename; results are ordinary files */
    fchmod(fd, 0644);
    a->f = fdopen(fd, "w");
  }
  if (!a->f) {
    int e = errno;
    if (fd >= 0) {
      close(fd);
      unlink(a->tmp);
    }
    free(a->tmp);
    a->tmp = NULL;
    errno = e;
    return -1;
  }
  return 0;
}

int bsim_atomic_close(bsim_atomic *a, const char *path, int ok) {
  int rc = ok && !ferror(a->f) ? 0 : -1;
  if (fclose(a->f) != 0) rc = -1;
  if (rc == 0 && rename(a->tmp, path) != 0) rc = -1;
  int e = errno;
  if (rc != 0) unlink(a->tmp);
  free(a->tmp);
  a->f = NULL;
  a->tmp = NULL;
  errno = e;
  return rc;
}
