/*
 * Sink records as CSV files, one per recording block: DIR/<block path>.csv
 * with "time," then the sink's column names (u1,...,un when it gave none).
 * Superblock paths become folders. Each file is written atomically
 * (atomic.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "blocksim/blocksim.h"
#include "output/atomic.h"

/* mkdir -p for the folders of path (not its last component). */
static int make_parents(char *path) {
  for (char *p = path + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    int rc = mkdir(path, 0755);
    *p = '/';
    if (rc != 0 && errno != EEXIST) return -1;
  }
  return 0;
}

static int write_one(const char *path, size_t rows, int cols, const char *names,
                     const double *data) {
  bsim_atomic a;
  if (bsim_atomic_open(&a, path) != 0) return -1;
  fputs("time", a.f);
  if (names && *names)
    fprintf(a.f, ",%s", names);
  else
    for (int c = 0; c < cols; c++)
      fprintf(a.f, ",u%d", c + 1);
  fputc('\n', a.f);
  for (size_t r = 0; r < rows; r++) {
    const double *row = data + r * (size_t)(cols + 1);
    fprintf(a.f, "%.17g", row[0]);
    for (int c = 0; c < cols; c++)
      fprintf(a.f, ",%.17g", row[c + 1]);
    fputc('\n', a.f);
  }
  return bsim_atomic_close(&a, path, 1);
}

int bsim_records_write_csv(const bsim_sim *s, const char *dir,
                           bsim_error *err) {
  size_t rows;
  int cols;
  const double *data;
  const char *blk;
  if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
    bsim_error_set(err, BSIM_ERR_INPUT, "cannot create folder '%s': %s", dir,
                   strerror(errno));
    return -1;
  }
  for (size_t i = 0; (blk = bsim_record_at(s, i, &rows, &cols, &data)); i++) {
    size_t len = strlen(dir) + strlen(blk) + 8;
    char *path = malloc(len);
    if (!path) {
      bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
      return -1;
    }
    snprintf(path, len, "%s/%s.csv", dir, blk);
    if (make_parents(path) != 0 ||
        write_one(path, rows, cols, bsim_record_names(s, i), data) != 0) {
      bsim_error_set(err, BSIM_ERR_SIM, "cannot write '%s': %s", path,
                     strerror(errno));
      free(path);
      return -1;
    }
    free(path);
  }
  return 0;
}
