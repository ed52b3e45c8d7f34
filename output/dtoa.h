/*
 * Doubles as text for the result files: the shortest decimal that reads
 * back as the same double, laid out as printf's %.17g would (dtoa.c).
 * Private to output/.
 */
#ifndef BSIM_DTOA_H
#define BSIM_DTOA_H

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

/* A CSV row: first, then n values stride apart, comma-separated, then a
 * newline; written with few fwrite calls. 0, or -1 on a write error. */
int out_csv_row(FILE *f, double first, const double *v, size_t n,
                size_t stride);

#endif
