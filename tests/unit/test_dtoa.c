/*
 * The result files' number formatter (output/dtoa.c): every double it
 * writes reads back bit-identical through strtod, with the fewest digits
 * any decimal that reads back has, laid out as %.17g lays out its digits.
 * The reference for "fewest" is glibc: the smallest precision p for which
 * printf's correctly rounded %.{p-1}e reads back. Exact comparisons (no
 * tolerance: the point is bit-identity).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/dtoa.h"
#include "tests/unit/test_check.h"

static uint64_t rng = 88172645463325252u;
static uint64_t next(void) { /* xorshift64 */
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static double from_bits(uint64_t b) {
  double v;
  memcpy(&v, &b, sizeof v);
  return v;
}

static int same(double a, double b) {
  return memcmp(&a, &b, sizeof a) == 0;
}

/* significant digits of a formatted number */
static int ndigits(const char *s) {
  int n = 0, started = 0, last = 0;
  for (; *s && *s != 'e'; s++) {
    if (*s < '0' || *s > '9') continue;
    if (*s != '0') started = 1;
    if (started) {
      n++;
      if (*s != '0') last = n;
    }
  }
  return last; /* trailing zeros of an integer are not significant */
}

/* the round trip; with brute, the count of digits too */
static void check(double v, int brute) {
  char buf[OUT_DTOA_MAX], ref[64];
  int len = out_dtoa(v, buf);
  if (len != (int)strlen(buf) || !same(strtod(buf, NULL), v)) {
    if (failures++ < 10)
      fprintf(stderr, "FAIL %.17g -> '%s' reads back as %.17g\n", v, buf,
              strtod(buf, NULL));
    return;
  }
  if (!brute) return;
  int p = 1;
  for (; p < 17; p++) {
    snprintf(ref, sizeof ref, "%.*e", p - 1, v);
    if (same(strtod(ref, NULL), v)) break;
  }
  /* fewer digits than glibc's closest p-digit decimal is possible (a
   * farther one that still reads back), more is not */
  if (ndigits(buf) > p) {
    if (failures++ < 10)
      fprintf(stderr, "FAIL %.17g -> '%s' has %d digits, %d suffice\n", v, buf,
              ndigits(buf), p);
  }
  /* with 17 digits the closest is printf's own */
  snprintf(ref, sizeof ref, "%.17g", v);
  if (ndigits(buf) == 17 && strcmp(buf, ref) != 0 && failures++ < 10)
    fprintf(stderr, "FAIL %.17g -> '%s', printf '%s'\n", v, buf, ref);
}

int main(void) {
  /* layout, against printf where the digits agree */
  const struct {
    double v;
    const char *text;
  } cases[] = {{0.0, "0"},
               {-0.0, "-0"},
               {1.0, "1"},
               {-2.5, "-2.5"},
               {0.1, "0.1"},
               {100.0, "100"},
               {1e16, "10000000000000000"},
               {1e17, "1e+17"},
               {1.5e-4, "0.00015"},
               {1.5e-5, "1.5e-05"},
               {123456.789, "123456.789"},
               {1e100, "1e+100"},
               {5e-324, "4.9406564584124654e-324"},
               {1.7976931348623157e308, "1.7976931348623157e+308"},
               {2.2250738585072014e-308, "2.2250738585072014e-308"},
               {9007199254740993.0, "9007199254740992"},
               {0.3, "0.3"},
               {2.0 / 3.0, "0.6666666666666666"},
               {18014398509481988.0, "18014398509481988"},
               {1125899906842624.25, "1125899906842624.2"},
               {0x1p-25, "2.9802322387695312e-08"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char buf[OUT_DTOA_MAX];
    out_dtoa(cases[i].v, buf);
    if (strcmp(buf, cases[i].text) != 0 &&
        !(cases[i].v == 5e-324 && strcmp(buf, "5e-324") == 0)) {
      fprintf(stderr, "FAIL %.17g -> '%s', want '%s'\n", cases[i].v, buf,
              cases[i].text);
      failures++;
    }
  }
  char buf[OUT_DTOA_MAX];
  out_dtoa(INFINITY, buf);
  CHECK(strcmp(buf, "inf") == 0, "got '%s'", buf);
  out_dtoa(-INFINITY, buf);
  CHECK(strcmp(buf, "-inf") == 0, "got '%s'", buf);
  out_dtoa(NAN, buf);
  CHECK(strcmp(buf, "nan") == 0 || strcmp(buf, "-nan") == 0, "got '%s'", buf);

  /* every binade's edges: powers of two (the asymmetric intervals) and
   * their neighbours, all subnormals' first values */
  for (int e = -1074; e <= 1023; e++)
    for (int d = -2; d <= 2; d++) {
      double p = ldexp(1.0, e);
      uint64_t b;
      memcpy(&b, &p, sizeof b);
      if (d >= 0 || b > 2) check(from_bits(b + (uint64_t)d), 1);
    }
  /* values whose scaled interval ends are integers: multiples of large
   * powers of five, times powers of two, and their neighbours */
  for (int k = 0; k <= 27; k++)
    for (int m = -60; m <= 80; m++)
      for (uint64_t odd = 1; odd < 40; odd += 2) {
        double v = ldexp((double)odd * pow(5.0, k), m);
        uint64_t b;
        memcpy(&b, &v, sizeof b);
        if (!isfinite(v) || v == 0) continue;
        for (int d = -1; d <= 1; d++)
          check(from_bits(b + (uint64_t)d), 1);
      }
  for (uint64_t b = 1; b < 20000; b++)
    check(from_bits(b), b < 2000);
  /* random bit patterns (every exponent), random decimals of a few
   * digits (ties and exact cases), values of a simulation's kind */
  for (int i = 0; i < 1000000; i++) {
    uint64_t b = next() & ~((uint64_t)1 << 63);
    if ((b >> 52) == 0x7ff) continue;
    check(from_bits(b), i < 100000);
  }
  for (int i = 0; i < 100000; i++) {
    double v = (double)(next() % 100000) * pow(10.0, (int)(next() % 40) - 20);
    check(v, 1);
  }
  for (int i = 0; i < 100000; i++)
    check(sin(i * 1e-3) * exp(i % 40 - 20.0), i % 4 == 0);
  for (long i = 0; i < 100000; i++) /* clock times t(k+1) = t(k) + T */
    check(i * 0.1, 0);
  if (failures) fprintf(stderr, "test_dtoa: %d failures\n", failures);
  return failures != 0;
}
