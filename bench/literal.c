/*
 * Parsing cost of matrix literals as they grow: a parameter written as
 * [0 1 2 ... n-1] for n = 10^3 .. 10^6, timed through bsim_expr_eval. The
 * cost per element must stay flat (linear parsing); joining the literal at
 * every element made it grow with n (15 s for a 200 KB literal).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "diagrams/expr.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(void) {
  printf("%10s %12s %12s %14s\n", "elements", "bytes", "seconds", "ns/element");
  for (long n = 1000; n <= 1000000; n *= 10) {
    size_t cap = (size_t)n * 8 + 4, len = 0;
    char *text = malloc(cap);
    if (!text) return 1;
    text[len++] = '[';
    for (long i = 0; i < n; i++)
      len += (size_t)snprintf(text + len, cap - len, "%ld ", i % 1000);
    text[len++] = ']';
    text[len] = '\0';
    bsim_value v;
    char msg[256];
    double t0 = now();
    int rc = bsim_expr_eval(text, NULL, &v, msg, sizeof msg);
    double dt = now() - t0;
    if (rc != 0) {
      fprintf(stderr, "literal: %s\n", msg);
      return 1;
    }
    printf("%10ld %12zu %12.4f %14.1f\n", n, len, dt, 1e9 * dt / (double)n);
    bsim_value_clear(&v);
    free(text);
  }
  return 0;
}
