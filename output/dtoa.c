/*
 * The shortest decimal that reads back as the same double. Result files
 * hold every sample of every signal, and glibc's exact %.17g costs about
 * 0.7 us a number (multi-precision arithmetic): formatting was most of the
 * time of a run that records much (Scilab's Lorenz demo). This follows
 * Giulietti's Schubfach method: the interval of reals that round to v is
 * scaled by 10^-k, k chosen so that it is between 1 and 10 units wide; an
 * integer in it, a multiple of ten if there is one, gives the digits. The
 * scaling multiplies by 10^-k in 126 bits (pow10.h) and rounds to odd,
 * which keeps every comparison with the interval's ends exact: the table
 * is exact where the scaled values can be integers (ends and ties), and
 * over by less than a unit elsewhere, where they cannot, except for the
 * divisions by 10^1..10^27, done exactly instead. Own derivation of the
 * method; tests/unit/test_dtoa.c checks the round trip, the shortness and
 * the ties against glibc.
 */
#include "output/dtoa.h"

#include <stdint.h>
#include <string.h>

#include "output/pow10.h"

/* floor(log10(2^q)), floor(log10(3/4 2^q)) for |q| <= 1100 and
 * floor(log2(10^e)) for |e| <= 330, as multiply-and-shift: checked
 * exhaustively over those ranges with exact rationals. The shifts are
 * arithmetic (GCC and Clang document it). */
static int floor_log10_pow2(int q) {
  return (int)(((int64_t)q * 315653) >> 20);
}
static int floor_log10_three_quarters_pow2(int q) {
  return (int)(((int64_t)q * 315653 - 131008) >> 20);
}
static int floor_log2_pow10(int e) {
  return (int)(((int64_t)e * 1741647) >> 19);
}

/* floor(g cp / 2^127), its last bit set when the division is inexact
 * ("round to odd"): g < 2^127 (pow10.h), cp < 2^63. */
static uint64_t round_odd(const uint64_t g[2], uint64_t cp) {
  unsigned __int128 lo = (unsigned __int128)g[1] * cp;
  unsigned __int128 mid = (unsigned __int128)g[0] * cp + (lo >> 64);
  uint64_t inexact =
      ((uint64_t)mid & (((uint64_t)1 << 63) - 1)) != 0 || (uint64_t)lo != 0;
  return (uint64_t)(mid >> 63) | inexact;
}

/* 5^k for the exact divisions */
static const uint64_t pow5[28] = {1u,
                                  5u,
                                  25u,
                                  125u,
                                  625u,
                                  3125u,
                                  15625u,
                                  78125u,
                                  390625u,
                                  1953125u,
                                  9765625u,
                                  48828125u,
                                  244140625u,
                                  1220703125u,
                                  6103515625u,
                                  30517578125u,
                                  152587890625u,
                                  762939453125u,
                                  3814697265625u,
                                  19073486328125u,
                                  95367431640625u,
                                  476837158203125u,
                                  2384185791015625u,
                                  11920928955078125u,
                                  59604644775390625u,
                                  298023223876953125u,
                                  1490116119384765625u,
                                  7450580596923828125u};

/* x 2^q 10^-k rounded to odd, for x (< 2^55) in quarters of 2^q. From
 * the table, except for k = 1..27, where x 2^q 10^-k = (x 2^(q-k)) / 5^k
 * can be an integer and the table's 10^-k is not exact: the division is
 * (q - k <= 66 there, so x 2^(q-k) < 2^121). */
static uint64_t scaled(uint64_t x, int q, int k, const uint64_t *g, int h) {
  if (k < 1 || k > 27) return round_odd(g, x << h);
  unsigned __int128 n = (unsigned __int128)x << (q - k);
  unsigned __int128 quot = n / pow5[k];
  return (uint64_t)quot | (quot * pow5[k] != n);
}

/* v = c 2^q > 0 as f 10^e, f with the fewest digits; asym: c = 2^52
 * with a smaller exponent below, so the lower half of the interval is
 * half as wide. */
static void shortest(uint64_t c, int q, int asym, uint64_t *f, int *e) {
  /* the interval's ends round to v only when c is even */
  uint64_t out = c & 1;
  /* in quarters of 2^q: v, its ends */
  uint64_t cb = c << 2, cbr = cb + 2, cbl = asym ? cb - 1 : cb - 2;
  int k = asym ? floor_log10_three_quarters_pow2(q) : floor_log10_pow2(q);
  const uint64_t *g = pow10_table[-k - POW10_MIN];
  int h = q + floor_log2_pow10(-k) + 2; /* 2..5 */
  /* 4 v 10^-k and the ends, rounded to odd */
  uint64_t vb = scaled(cb, q, k, g, h), vbl = scaled(cbl, q, k, g, h),
           vbr = scaled(cbr, q, k, g, h);
  uint64_t s = vb >> 2;
  /* a multiple of ten in the interval has a digit fewer; the interval is
   * less than ten wide, so at most one is */
  uint64_t sp = s / 10 * 10, tp = sp + 10;
  int upin = vbl + out <= sp << 2, wpin = (tp << 2) + out <= vbr;
  *e = k;
  if (upin != wpin) {
    *f = upin ? sp : tp;
    return;
  }
  /* else s or s + 1: the one inside, or the closer (ties to even) */
  uint64_t t = s + 1;
  int uin = vbl + out <= s << 2, win = (t << 2) + out <= vbr;
  if (uin != win) {
    *f = uin ? s : t;
    return;
  }
  int64_t cmp = (int64_t)(vb - ((s + t) << 1));
  *f = cmp < 0 || (cmp == 0 && (s & 1) == 0) ? s : t;
}

static const char two_digits[] = "00010203040506070809"
                                 "10111213141516171819"
                                 "20212223242526272829"
                                 "30313233343536373839"
                                 "40414243444546474849"
                                 "50515253545556575859"
                                 "60616263646566676869"
                                 "70717273747576777879"
                                 "80818283848586878889"
                                 "90919293949596979899";

/* The 8 decimal digits of v < 10^8, leading zeros included, two at a
 * time without division: y = v M with M = 2^57 / 10^6 rounded up, so y's
 * top 7 bits are v's first two digits and each 100 times y's fraction
 * gives the next two. M exceeds 2^57 / 10^6 by 0.15, so y is over by
 * less than 0.15 v < 1.5e7 units, and 10^6 times that stays below the
 * 2^57 10^-6 a digit's fraction leaves: no digit is off (also checked
 * for every v once). y < 10^8 M and 100 2^57 both fit in 64 bits. */
static void eight_digits(char *d, uint32_t v) {
  const uint64_t mask = ((uint64_t)1 << 57) - 1;
  uint64_t y = (uint64_t)v * 144115188076u;
  memcpy(d, two_digits + 2 * (y >> 57), 2);
  y = (y & mask) * 100;
  memcpy(d + 2, two_digits + 2 * (y >> 57), 2);
  y = (y & mask) * 100;
  memcpy(d + 4, two_digits + 2 * (y >> 57), 2);
  y = (y & mask) * 100;
  memcpy(d + 6, two_digits + 2 * (y >> 57), 2);
}

/* The n digits of f < 10^17, f < 10^n, ending at end. */
static void put_digits(char *end, uint64_t f, int n) {
  uint64_t hi = f / 100000000u;
  eight_digits(end - 8, (uint32_t)(f - hi * 100000000u));
  if (n <= 8) return;
  uint64_t top = hi / 100000000u;
  eight_digits(end - 16, (uint32_t)(hi - top * 100000000u));
  if (n > 16) end[-17] = (char)('0' + top);
}

static const uint64_t pow10_u64[20] = {1u,
                                       10u,
                                       100u,
                                       1000u,
                                       10000u,
                                       100000u,
                                       1000000u,
                                       10000000u,
                                       100000000u,
                                       1000000000u,
                                       10000000000u,
                                       100000000000u,
                                       1000000000000u,
                                       10000000000000u,
                                       100000000000000u,
                                       1000000000000000u,
                                       10000000000000000u,
                                       100000000000000000u,
                                       1000000000000000000u,
                                       10000000000000000000u};

/* The number of decimal digits of f > 0: from its bit length (log10 2 is
 * about 1233 / 4096), corrected by one comparison. */
static int count_digits(uint64_t f) {
  int n = ((64 - __builtin_clzll(f)) * 1233) >> 12;
  return n + (f >= pow10_u64[n]);
}

/* f 10^e (f < 10^17) laid out as %.17g lays out its digits. The digits
 * are written once into a scratch array and copied in blocks of fixed
 * size (the compiler turns those into a few moves): buf may be written
 * past the result's end, within OUT_DTOA_MAX. */
static int layout(char *buf, uint64_t f, int e) {
  char tmp[48];
  int n = count_digits(f), x = e + n - 1, len;
  put_digits(tmp + 24, f, n);
  memset(tmp + 24, '0', 24); /* what the blocks copy past the digits */
  const char *d = tmp + 24 - n;
  while (d[n - 1] == '0') /* f > 0: its first digit is not 0 */
    n--;
  if (x < -4 || x >= 17) {
    /* d.ddd, the first digit moved before the point */
    buf[0] = d[0];
    buf[1] = '.';
    memcpy(buf + 2, d + 1, 16);
    len = n > 1 ? n + 1 : 1;
    buf[len++] = 'e';
    buf[len++] = x < 0 ? '-' : '+';
    int ax = x < 0 ? -x : x;
    if (ax >= 100) {
      buf[len++] = (char)('0' + ax / 100);
      ax %= 100;
    }
    memcpy(buf + len, two_digits + 2 * ax, 2);
    len += 2;
  } else if (x < 0) {
    memcpy(buf, "0.0000", 6);
    memcpy(buf + 1 - x, d, 17);
    len = 1 - x + n;
  } else if (n <= x + 1) {
    memcpy(buf, d, 17);
    memset(buf + n, '0', (size_t)(x + 1 - n));
    len = x + 1;
  } else {
    /* the integer part, the point, the rest */
    memcpy(buf, d, 16);
    buf[x + 1] = '.';
    memcpy(buf + x + 2, d + x + 1, 16);
    len = n + 1;
  }
  buf[len] = '\0';
  return len;
}

int out_dtoa(double v, char *buf) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  int neg = (int)(bits >> 63), be = (int)(bits >> 52) & 0x7ff;
  uint64_t frac = bits & (((uint64_t)1 << 52) - 1);
  if (be == 0x7ff) return snprintf(buf, OUT_DTOA_MAX, "%.17g", v);
  char *p = buf + neg;
  if (neg) buf[0] = '-';
  if (be == 0 && frac == 0) {
    memcpy(p, "0", 2);
    return neg + 1;
  }
  uint64_t c = be ? frac | ((uint64_t)1 << 52) : frac;
  int q = be ? be - 1075 : -1074;
  /* integers below 2^53 (spaced at most 1 apart, so nothing with fewer
   * digits rounds to them) are their own shortest form */
  if (q <= 0 && q > -53 && (c & (((uint64_t)1 << -q) - 1)) == 0)
    return neg + layout(p, c >> -q, 0);
  uint64_t f;
  int e;
  shortest(c, q, be > 1 && frac == 0, &f, &e);
  return neg + layout(p, f, e);
}

int out_csv_rows(FILE *f, size_t rows, const double *first, size_t fstride,
                 const double *v, size_t vstride, size_t n,
                 const volatile sig_atomic_t *cancel) {
  /* rows go out in blocks of this buffer: one fwrite per row was a tenth
   * of the writing of a record of a few columns */
  char buf[16384];
  size_t len = 0;
  for (size_t r = 0; r < rows; r++) {
    if (cancel && *cancel) return -2;
    const double *row = n ? v + r * vstride : NULL; /* v: NULL when n = 0 */
    for (size_t i = 0; i <= n; i++) {
      if (len > sizeof buf - OUT_DTOA_MAX - 2) {
        if (fwrite(buf, 1, len, f) != len) return -1;
        len = 0;
      }
      if (i) buf[len++] = ',';
      len += (size_t)out_dtoa(i ? row[i - 1] : first[r * fstride], buf + len);
    }
    buf[len++] = '\n';
  }
  return fwrite(buf, 1, len, f) == len ? 0 : -1;
}
