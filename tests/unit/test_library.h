/*
 * The block library every test program shares: created on first use with
 * the standard blocks, freed at exit, so that tests read like the code they
 * exercise (bsim_diagram_load(path, test_library(), &err)) without each
 * one managing a library. Programs that start threads call test_library()
 * before they do.
 */
#ifndef BSIM_TEST_LIBRARY_H
#define BSIM_TEST_LIBRARY_H

#include <stdio.h>
#include <stdlib.h>

#include "blocksim/blocksim.h"

static bsim_library *test_library_;

static void test_library_free(void) {
  bsim_library_free(test_library_);
  test_library_ = NULL;
}

static inline const bsim_library *test_library(void) {
  if (!test_library_) {
    bsim_error err;
    bsim_error_clear(&err);
    test_library_ = bsim_library_create(&err);
    if (!test_library_) {
      fprintf(stderr, "FAILED: creating the block library: %s\n", err.message);
      exit(1);
    }
    atexit(test_library_free);
  }
  return test_library_;
}

/* A standard block type by interface or simulation-function name. */
static inline const bsim_block_type *std_type(const char *name) {
  return bsim_library_find(test_library(), name);
}

#endif
