/*
 * CSV results: header "time,<names>", one row per sample, every number the
 * shortest decimal that reads back as the same double (dtoa.c). Files are
 * written through write.c (all outputs of a run committed together).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "output/dtoa.h"
#include "output/output.h"

int bsim_out_results(const bsim_sim *s, FILE *out,
                     const volatile sig_atomic_t *cancel) {
  size_t rows = bsim_result_rows(s), cols = bsim_result_cols(s);
  const double *t = bsim_result_times(s), *d = bsim_result_data(s);
  fputs("time", out);
  for (size_t c = 0; c < cols; c++)
    fprintf(out, ",%s", bsim_result_name(s, c));
  fputc('\n', out);
  int rc = out_csv_rows(out, rows, t, 1, d, cols, cols, cancel);
  return rc != 0 ? rc : ferror(out) ? -1 : 0;
}

int bsim_result_write_csv(const bsim_sim *s, const char *path, void *out_file,
                          bsim_error *err) {
  bsim_write_options o;
  bsim_write_options_init(&o);
  o.csv_path = path;
  o.csv_stream = path ? NULL : out_file;
  return bsim_sim_write(s, &o, err);
}
