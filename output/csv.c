/*
 * CSV results: header "time,<names>", one row per sample, every number with
 * %.17g so that a double survives the round trip. A file is written under a
 * temporary name in the same folder and renamed only when complete, so a
 * reader never sees half a result.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blocksim/blocksim.h"

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
  size_t len = strlen(path) + 16;
  char *tmp = malloc(len);
  if (!tmp) {
    bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
    return -1;
  }
  snprintf(tmp, len, "%s.tmpXXXXXX", path);
  int fd = mkstemp(tmp);
  /* mkstemp's 0600 would survive the rename; results are ordinary files */
  if (fd >= 0)
    fchmod(fd, 0644);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!f) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "cannot create '%s': %s (hint: does the folder exist and "
                   "is it writable?)",
                   path, strerror(errno));
    if (fd >= 0) {
      close(fd);
      unlink(tmp);
    }
    free(tmp);
    return -1;
  }
  int rc = write_rows(s, f);
  if (fclose(f) != 0)
    rc = -1;
  if (rc == 0 && rename(tmp, path) != 0)
    rc = -1;
  if (rc != 0) {
    bsim_error_set(err, BSIM_ERR_SIM, "cannot write '%s': %s", path,
                   strerror(errno));
    unlink(tmp);
  }
  free(tmp);
  return rc;
}
