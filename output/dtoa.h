/*
 * Doubles as text for the result files: the shortest decimal that reads
 * back as the same double, laid out as printf's %.17g would (dtoa.c).
 * Private to output/.
 */
#ifndef BSIM_DTOA_H
#define BSIM_DTOA_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

/* Enough for any double (sign, 17 digits, point, "e-308", NUL) and for
 * the bytes out_dtoa writes past its result's end, up to 34. */
enum { OUT_DTOA_MAX = 40 };

/* v into buf (NUL-terminated): the fewest significant digits that
 * strtod reads back as v exactly (of those, the closest to v), in fixed
 * notation when the decimal exponent X of the first digit is in
 * [-4, 17), else as d.ddde±XX; -0 as "-0"; infinities and NaNs as printf
 * writes them. Returns the length. */
int out_dtoa(double v, char *buf);

/* CSV rows: row r is first[r fstride], then the n values from
 * v + r vstride, comma-separated, then a newline; written in blocks of a
 * few kilobytes. 0; -1 on a write error; -2 when *cancel (checked before
 * each row) is set. */
int out_csv_rows(FILE *f, size_t rows, const double *first, size_t fstride,
                 const double *v, size_t vstride, size_t n,
                 const volatile sig_atomic_t *cancel);

#endif
