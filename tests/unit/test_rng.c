/*
 * Scilab's generators in the block API (blocks/rng.c): the same seed must
 * give Scilab's own sequence. The reference values were printed by Scilab
 * 6.1.1 with tests/data/xcos/random/rand_sequences.sce (rand('seed', s)
 * then rand(1, n), 'uniform' and 'normal').
 */
#include <math.h>
#include <stdint.h>

#include "blocksim/block.h"
#include "tests/unit/test_check.h"

/* Uniforms are k / 2^31 exactly and Scilab printed 17 significant digits,
 * so they must agree to the last bit: compared for equality. The normal
 * deviates go through sqrt and log, where libm and Scilab's may differ by
 * an ulp or two: 1e-15 relative. */
#define NORMAL_REL_TOL 1e-15

static const struct {
  int seed;
  double u[5], n[4];
} ref[] = {
    {0,
     {0.2113248654641211, 0.75604385416954756, 0.00022113462910056114,
      0.33032709173858166, 0.66538110421970487},
     {-0.76164910984482592, 0.67555376365551223, 1.4739762438341595,
      1.1443051297248743}},
    {12345,
     {0.081514117307960987, 0.71842567948624492, 0.24609804898500443,
      0.18348506325855851, 0.82879234384745359},
     {-0.42516663110024772, 0.22191264779483535, -0.57188672986590716,
      -0.71291571964363065}},
    {2147483647,
     {0.81862578168511391, 0.50412304559722543, 0.33604568894952536,
      0.67744307732209563, 0.7986201960593462},
     {1.3422840885207703, 0.017369273986970243, -1.1575560122985322,
      1.2527898759045806}},
};

int main(void) {
  for (size_t c = 0; c < sizeof ref / sizeof ref[0]; c++) {
    int seed = ref[c].seed;
    for (int k = 0; k < 5; k++) {
      double u = bsim_urand(&seed);
      CHECK(u == ref[c].u[k], "seed %d, draw %d: %.17g, Scilab %.17g",
            ref[c].seed, k + 1, u, ref[c].u[k]);
      /* the state is the numerator of the value drawn */
      CHECK((double)seed == u * 2147483648.0, "seed %d: state %d after %.17g",
            ref[c].seed, seed, u);
    }
    seed = ref[c].seed;
    for (int k = 0; k < 4; k += 2) {
      double pair[2];
      bsim_nrand_pair(&seed, pair);
      for (int j = 0; j < 2; j++)
        CHECK(fabs(pair[j] - ref[c].n[k + j]) <=
                  NORMAL_REL_TOL * fabs(ref[c].n[k + j]),
              "seed %d, normal %d: %.17g, Scilab %.17g", ref[c].seed, k + j + 1,
              pair[j], ref[c].n[k + j]);
    }
  }
  /* Every value stays in [0, 1), the state in [0, 2^31), from any seed a
   * block may hold (negative ones included). */
  int seeds[] = {-1, -2147483647 - 1, 1, 1073741824, 7};
  for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++) {
    int seed = seeds[s];
    for (int k = 0; k < 1000; k++) {
      double u = bsim_urand(&seed);
      CHECK(u >= 0 && u < 1 && seed >= 0, "seed %d: draw %.17g, state %d",
            seeds[s], u, seed);
    }
  }
  return failures != 0;
}
