/*
 * Scilab's random generators, part of the public block API so that the
 * random blocks and the context evaluator (rand) draw the very sequences
 * Scilab draws from the same seed. The generator state is the caller's
 * seed, never a global, so parallel runs stay independent.
 */
#include <math.h>
#include <stdint.h>

#include "blocksim/block.h"

/* Scilab derives these from the 32-bit word length (multiplier close to
 * 2^30 pi/4 and 5 mod 8, increment close to 2^31 (1/2 - sqrt(3)/6), odd);
 * its overflow handling amounts to arithmetic modulo 2^31, which unsigned
 * 32-bit arithmetic gives exactly. */
enum { URAND_A = 843314861u, URAND_C = 453816693u };

double bsim_urand(int *seed) {
  uint32_t s = (uint32_t)*seed * (uint32_t)URAND_A + (uint32_t)URAND_C;
  s &= 0x7fffffffu;
  *seed = (int)s;
  return (double)s / 2147483648.0;
}

void bsim_nrand_pair(int *seed, double pair[2]) {
  double a, b, r;
  /* r = 0 needs two draws of exactly 1/2 in a row, which the congruence
   * never gives (seed 2^30 is not followed by 2^30). */
  do {
    a = 2.0 * bsim_urand(seed) - 1.0;
    b = 2.0 * bsim_urand(seed) - 1.0;
    r = a * a + b * b;
  } while (r > 1.0);
  double f = sqrt(-2.0 * log(r) / r);
  pair[0] = a * f;
  pair[1] = b * f;
}
