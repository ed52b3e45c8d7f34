/*
 * A scratch folder for tests that write files: made under /tmp at start,
 * removed at the end only when the test passed, so that a failure leaves
 * its files for a look.
 */
#ifndef BSIM_TEST_TMPDIR_H
#define BSIM_TEST_TMPDIR_H

#include <stdio.h>
#include <stdlib.h>

/* dir (at least 64 bytes) becomes /tmp/bsim_<name>_XXXXXX; 0 or -1. */
static inline int test_tmpdir_make(char *dir, size_t len, const char *name) {
  snprintf(dir, len, "/tmp/bsim_%s_XXXXXX", name);
  return mkdtemp(dir) ? 0 : -1;
}

/* Remove dir when nothing failed, and say the test passed. */
static inline void test_tmpdir_done(const char *dir, int failed,
                                    const char *test) {
  if (failed) {
    fprintf(stderr, "%s: files kept in %s\n", test, dir);
    return;
  }
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
  printf("%s: ok\n", test);
}

#endif
