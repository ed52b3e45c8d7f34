/*
 * The failure counter and CHECK macro every unit test program uses, in one
 * place so that a failed check reads the same in every test's output: the
 * file and line, the condition, then the test's own message. A test
 * returns non-zero when `failures` is not 0 at the end of main.
 */
#ifndef BSIM_TEST_CHECK_H
#define BSIM_TEST_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: FAILED %s: ", __FILE__, __LINE__, #cond);        \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                     \
      failures++;                                                              \
    }                                                                          \
  } while (0)

#endif
