/*
 * A sink's record by block path, for unit tests that read a run's
 * records directly (the end-to-end headers have their own, with their
 * failure counters).
 */
#ifndef BSIM_TEST_RECORD_H
#define BSIM_TEST_RECORD_H

#include <string.h>

#include "blocksim/blocksim.h"

/* The rows (t, then the values) of the sink at path, or NULL with
 * *rows = 0 when it recorded nothing or does not exist. */
static inline const double *test_record(const bsim_sim *s, const char *path,
                                        size_t *rows) {
  int cols = 0;
  const double *data = NULL;
  const char *p;
  for (size_t i = 0; (p = bsim_record_at(s, i, rows, &cols, &data)); i++)
    if (strcmp(p, path) == 0) return data;
  *rows = 0;
  return NULL;
}

#endif
