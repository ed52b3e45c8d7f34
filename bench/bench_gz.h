/*
 * Unpacking the demos' .xcos.gz for the benchmarks that run them
 * (bench/xcos, bench/scilab): Scilab and blocksim are both timed on the
 * plain .xcos, so the unpacking is done once, outside the clocks.
 * Header-only, static; the including program links zlib.
 */
#ifndef BSIM_BENCH_GZ_H
#define BSIM_BENCH_GZ_H

#include <stdio.h>
#include <zlib.h>

/* gunzip src into dst; 0 on success */
static inline int bench_gunzip(const char *src, const char *dst) {
  gzFile in = gzopen(src, "rb");
  FILE *out = in ? fopen(dst, "wb") : NULL;
  char buf[1 << 15];
  int n = 0, rc = out ? 0 : -1;
  while (rc == 0 && (n = gzread(in, buf, sizeof buf)) > 0)
    if (fwrite(buf, 1, (size_t)n, out) != (size_t)n) rc = -1;
  if (n < 0) rc = -1;
  if (in) gzclose(in);
  if (out && fclose(out) != 0) rc = -1;
  return rc;
}

#endif
