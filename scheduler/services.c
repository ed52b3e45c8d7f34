/*
 * Services the scheduler offers blocks beyond their flags: ending the run,
 * asking for a cold restart, printing a line for the user and recording
 * rows for sinks. Records and messages live in the run, not in the blocks,
 * so that the library (not each block) decides how they are written.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scheduler/plan.h"

void bsim_block_stop(bsim_block *blk) {
  ((bsim_run_errors *)blk->ctx_)->stop = 1;
}

void bsim_block_cold_restart(bsim_block *blk) {
  ((bsim_run_errors *)blk->ctx_)->cold = 1;
}

bsim_scilab_rand *bsim_block_scilab_rand(bsim_block *blk) {
  return &((bsim_run_errors *)blk->ctx_)->scilab_rand;
}

void bsim_block_message(bsim_block *blk, const char *fmt, ...) {
  bsim_run_errors *e = blk->ctx_;
  if (e->nmessages >= BSIM_MAX_MESSAGES) {
    e->dropped++;
    return;
  }
  char text[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  size_t n = strlen(text);
  while (n > 0 && text[n - 1] == '\n')
    text[--n] = '\0';
  size_t len = strlen(blk->path) + n + 3;
  char *line = malloc(len);
  if (e->nmessages == e->capmessages) {
    int cap = e->capmessages ? 2 * e->capmessages : 16;
    char **grown = realloc(e->messages, (size_t)cap * sizeof *grown);
    if (grown) {
      e->messages = grown;
      e->capmessages = cap;
    }
  }
  if (!line || e->nmessages == e->capmessages) {
    free(line); /* a lost message is not worth failing the run for */
    e->dropped++;
    return;
  }
  snprintf(line, len, "%s: %s", blk->path, text);
  e->messages[e->nmessages++] = line;
}

void bsim_run_clear_messages(bsim_run_errors *e) {
  for (int i = 0; i < e->nmessages; i++)
    free(e->messages[i]);
  free(e->messages);
  e->messages = NULL;
  e->nmessages = e->capmessages = 0;
  e->dropped = 0;
}

/* Room for one more row of n values; NULL (after bsim_block_error) out of
 * memory or when n differs from the earlier rows. */
static double *new_row(bsim_block *blk, int n) {
  rt_block *rb = (rt_block *)blk; /* b is rt_block's first member */
  if (rb->rec_rows == 0 && rb->rec_cols == 0) rb->rec_cols = n;
  if (n != rb->rec_cols || n < 0) {
    bsim_block_error(blk, "recorded %d values after %d in earlier rows", n,
                     rb->rec_cols);
    return NULL;
  }
  size_t width = (size_t)n + 1;
  if (rb->rec_rows == rb->rec_cap) {
    size_t cap = rb->rec_cap ? 2 * rb->rec_cap : 64;
    double *r = realloc(rb->rec, cap * width * sizeof(double));
    if (!r) {
      bsim_block_error(blk, "out of memory recording its input");
      return NULL;
    }
    rb->rec = r;
    rb->rec_cap = cap;
  }
  return rb->rec + rb->rec_rows++ * width;
}

int bsim_block_record_at(bsim_block *blk, double t, const double *values,
                         int n) {
  double *row = new_row(blk, n);
  if (!row) return -1;
  row[0] = t;
  memcpy(row + 1, values, sizeof(double) * (size_t)n);
  return 0;
}

int bsim_block_record(bsim_block *blk, const double *values, int n) {
  return bsim_block_record_at(blk, blk->t, values, n);
}

static int numel(const bsim_block *blk, int k) {
  return blk->insz[k] * blk->insz[blk->nin + k];
}

int bsim_block_record_inputs(bsim_block *blk) {
  int n = 0;
  for (int k = 0; k < blk->nin; k++)
    n += numel(blk, k);
  double *row = new_row(blk, n);
  if (!row) return -1;
  *row++ = blk->t;
  for (int k = 0; k < blk->nin; k++) {
    memcpy(row, blk->inptr[k], sizeof(double) * (size_t)numel(blk, k));
    row += numel(blk, k);
  }
  return 0;
}

/* "u1,u2_1,u2_2,..." for the block's inputs; malloc'd, NULL out of memory. */
static char *input_names(const bsim_block *blk) {
  size_t len = 1;
  for (int k = 0; k < blk->nin; k++)
    len += (size_t)numel(blk, k) * 40;
  char *s = malloc(len), *p = s;
  if (!s) return NULL;
  *s = '\0';
  for (int k = 0; k < blk->nin; k++) {
    int rows = blk->insz[k], cols = blk->insz[blk->nin + k];
    for (int j = 1; j <= cols; j++)
      for (int i = 1; i <= rows; i++) {
        const char *sep = p == s ? "" : ",";
        if (rows * cols == 1)
          p += sprintf(p, "%su%d", sep, k + 1);
        else if (cols == 1)
          p += sprintf(p, "%su%d_%d", sep, k + 1, i);
        else
          p += sprintf(p, "%su%d_%d_%d", sep, k + 1, i, j);
      }
  }
  return s;
}

int bsim_block_record_names(bsim_block *blk, const char *names) {
  rt_block *rb = (rt_block *)blk;
  char *copy = names ? strdup(names) : input_names(blk);
  if (!copy) {
    bsim_block_error(blk, "out of memory naming its record's columns");
    return -1;
  }
  free(rb->rec_names);
  rb->rec_names = copy;
  return 0;
}
