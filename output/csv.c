/*
 * CSV results: header "time,<names>", one row per sample, every number with
 * %.17g so that a double survives the round trip; files are written
 * atomically (atomic.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "blocksim/blocksim.h"
#include "output/atomic.h"

static int write_rows(const bsim_sim *s, FILE *out) {
  size_t rows = bsim_result_rows(s), cols = bsim_result_cols(s);
  const double *t = bsim_result_times(s), *d = bsim_result_data(s);
  fputs("time", out);
  for (size_t c = 0; c < cols; c++)
    fprintf(out, ",%s", bsim_result_name(s, c));
  fputc('\n', out);
  for (size_t r = 0; r < rows; r++) {
    fprintf(out, "%.17g", t[r]);
    for (size_t c = 0; c < cols; c++)
      fprintf(out, ",%.17g", d[r * cols + c]);
    fputc('\n', out);
  }
  return ferror(out) ? -1 : 0;
}

int bsim_result_write_csv(const bsim_sim *s, const char *path, void *out_file,
                          bsim_error *err) {
  if (!path) {
    if (write_rows(s, (FILE *)out_file) != 0 || fflush((FILE *)out_file)) {
      bsim_error_set(err, BSIM_ERR_SIM, "cannot write results: %s",
                     strerror(errno));
      return -1;
    }
    return 0;
  }
  bsim_atomic a;
  if (bsim_atomic_open(&a, path) != 0) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "cannot create '%s': %s (hint: does the folder exist and "
                   "is it writable?)",
                   path, strerror(errno));
    return -1;
  }
  if (bsim_atomic_close(&a, path, write_rows(s, a.f) == 0) != 0) {
    bsim_error_set(err, BSIM_ERR_SIM, "cannot write '%s': %s", path,
                   strerror(errno));
    return -1;
  }
  return 0;
}
