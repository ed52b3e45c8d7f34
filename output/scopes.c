/*
 * Sink records as files, one per recording block: DIR/<block path>.csv
 * with "time," then the sink's column names (u1,...,un when it gave none),
 * or .mat / .h5 (mat.c, h5.c); superblock paths become folders. Block ids come
 * from files we do not trust, so each path component is made a safe file
 * name before it touches the file system: a component "." or ".." would
 * climb out of DIR, a leading '-' reads as an option to shell tools, and
 * control characters hide in listings. Those characters are written as
 * %XX (and '%' itself as %25, so that no two paths map to one name).
 */
#include <stdlib.h>
#include <string.h>

#include "output/dtoa.h"
#include "output/output.h"

int bsim_out_record(FILE *out, size_t rows, int cols, const char *names,
                    const double *data, const volatile sig_atomic_t *cancel) {
  fputs("time", out);
  if (names && *names)
    fprintf(out, ",%s", names);
  else
    for (int c = 0; c < cols; c++)
      fprintf(out, ",u%d", c + 1);
  fputc('\n', out);
  /* a sink that recorded nothing may have no data at all (NULL) */
  size_t w = (size_t)cols + 1;
  int rc =
      rows ? out_csv_rows(out, rows, data, w, data + 1, w, (size_t)cols, cancel)
           : 0;
  return rc != 0 ? rc : ferror(out) ? -1 : 0;
}

/* Whether byte k of the component [c, c+len) must be escaped. */
static int unsafe(const char *c, size_t len, size_t k) {
  unsigned char ch = (unsigned char)c[k];
  int all_dots = len <= 2 && strspn(c, ".") >= len;
  return ch == '%' || ch < 0x20 || ch == 0x7f || ch == '\\' ||
         (k == 0 && ch == '-') || (all_dots && ch == '.');
}

char *bsim_out_record_path(const char *dir, const char *block_path,
                           const char *ext) {
  /* each byte becomes at most 3; an empty component becomes "%" */
  size_t cap = strlen(dir) + 3 * strlen(block_path) + strlen(ext) + 64;
  char *out = malloc(cap);
  if (!out) return NULL;
  size_t n = (size_t)snprintf(out, cap, "%s/", dir);
  const char *c = block_path;
  for (;;) {
    size_t len = strcspn(c, "/");
    if (len == 0) out[n++] = '%';
    for (size_t k = 0; k < len; k++) {
      if (unsafe(c, len, k))
        n += (size_t)snprintf(out + n, cap - n, "%%%02X",
                              (unsigned)(unsigned char)c[k]);
      else
        out[n++] = c[k];
    }
    if (c[len] == '\0') break;
    out[n++] = '/';
    c += len + 1;
  }
  snprintf(out + n, cap - n, ".%s", ext);
  return out;
}

int bsim_records_write_csv(const bsim_sim *s, const char *dir,
                           bsim_error *err) {
  bsim_write_options o;
  bsim_write_options_init(&o);
  o.scopes_dir = dir;
  return bsim_sim_write(s, &o, err) < 0 ? -1 : 0;
}
