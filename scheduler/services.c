/*
 * Services the scheduler offers blocks beyond their flags: ending the run
 * and recording rows for sinks. Records live in the plan, not in the
 * blocks, so that the library (not each scope) decides how they are
 * written.
 */
#include <stdlib.h>
#include <string.h>

#include "scheduler/plan.h"

void bsim_block_stop(bsim_block *blk) {
  ((bsim_run_errors *)blk->ctx_)->stop = 1;
}

int bsim_block_record(bsim_block *blk, const double *values, int n) {
  rt_block *rb = (rt_block *)blk; /* b is rt_block's first member */
  if (rb->rec_rows == 0 && rb->rec_cols == 0) rb->rec_cols = n;
  if (n != rb->rec_cols || n < 0) {
    bsim_block_error(blk, "recorded %d values after %d in earlier rows", n,
                     rb->rec_cols);
    return -1;
  }
  size_t width = (size_t)n + 1;
  if (rb->rec_rows == rb->rec_cap) {
    size_t cap = rb->rec_cap ? 2 * rb->rec_cap : 64;
    double *r = realloc(rb->rec, cap * width * sizeof(double));
    if (!r) {
      bsim_block_error(blk, "out of memory recording its input");
      return -1;
    }
    rb->rec = r;
    rb->rec_cap = cap;
  }
  double *row = rb->rec + rb->rec_rows * width;
  row[0] = blk->t;
  memcpy(row + 1, values, sizeof(double) * (size_t)n);
  rb->rec_rows++;
  return 0;
}
