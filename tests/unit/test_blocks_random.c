/*
 * The random sources (blocks/random.c) on views built by their define
 * steps: outputs change only at activations (a request for outputs in
 * between holds the value although the state already holds the next
 * draws), the draw sequence follows bsim_urand from the seed, parameters
 * are checked, and the define steps lay out what Scilab's macros store
 * (tests/data/layout). Scilab's own numbers are checked end to end by
 * test_scilab_events.c.
 */
#define BLOCK_HARNESS_FROM_DEFINE
#include "tests/unit/block_harness.h"

#define MAT(r, c, ...) ((bsim_value){r, c, (double[]){__VA_ARGS__}, NULL})
#define SCALAR(x) MAT(1, 1, x)
#define P(...) ((const char *const[]){__VA_ARGS__})
#define VALS(...) ((const bsim_value[]){__VA_ARGS__})

static bsim_block *mk(harness *h, const char *type, int n,
                      const char *const *names, const bsim_value *vals) {
  memset(h, 0, sizeof *h);
  bsim_error err;
  CHECK(define_named(type, &h->m, &err, n, names, vals, 5) == 0,
        "%s: define: %s", type, err.message);
  bsim_block *b = view_of_model(h, type);
  h->outsz[0] = h->m.out[0];
  h->outsz[1] = h->m.out2[0];
  h->rb.fn(b, BSIM_FLAG_INIT);
  return b;
}

/* Values are offset + scale * u with u = k / 2^31 exactly: one multiply
 * and one add, compared to the same expression: exact equality. */
static void uniform_sequence(void) {
  harness h;
  bsim_block *b = mk(&h, "RAND_m", 5,
                     P("datatype", "distribution", "offset", "scale", "seed"),
                     VALS(SCALAR(1), SCALAR(0), MAT(2, 1, 1, -2),
                          MAT(2, 1, 2, 3), MAT(1, 2, 12345, 0)));
  int seed = 12345;
  double u[2];
  u[0] = bsim_urand(&seed);
  u[1] = bsim_urand(&seed);
  /* flag 4 drew and output the first pair */
  CHECK(h.out[0] == 1 + 2 * u[0] && h.out[1] == -2 + 3 * u[1],
        "start: %.17g %.17g", h.out[0], h.out[1]);
  for (int k = 0; k < 5; k++) {
    b->nevprt = 1;
    h.rb.fn(b, BSIM_FLAG_OUTPUTS);
    CHECK(h.out[0] == 1 + 2 * u[0] && h.out[1] == -2 + 3 * u[1],
          "activation %d: %.17g %.17g", k, h.out[0], h.out[1]);
    h.rb.fn(b, BSIM_FLAG_UPDATE);
    b->nevprt = 0;
    /* between activations the output holds */
    h.rb.fn(b, BSIM_FLAG_OUTPUTS);
    CHECK(h.out[0] == 1 + 2 * u[0], "held after activation %d", k);
    u[0] = bsim_urand(&seed);
    u[1] = bsim_urand(&seed);
    CHECK(h.z[1] == u[0] && h.z[2] == u[1] && h.z[0] == seed,
          "state after activation %d", k);
  }
  done(&h);
}

/* RAND_f normal: the first deviate of each accepted pair, per element. */
static void normal_sequence(void) {
  harness h;
  bsim_block *b =
      mk(&h, "RAND_f", 4, P("distribution", "offset", "scale", "seed"),
         VALS(SCALAR(1), MAT(1, 2, 0.5, 1), MAT(2, 1, 2, 0.1), SCALAR(7.9)));
  CHECK(h.m.out[0] == 2 && h.m.out2[0] == 1, "RAND_f out %dx%d", h.m.out[0],
        h.m.out2[0]);
  int seed = 7; /* the fraction is dropped, as Scilab's int() */
  double p[2], q[2];
  bsim_nrand_pair(&seed, p);
  bsim_nrand_pair(&seed, q);
  b->nevprt = 1;
  h.rb.fn(b, BSIM_FLAG_OUTPUTS);
  CHECK(h.out[0] == 0.5 + 2 * p[0] && h.out[1] == 1 + 0.1 * q[0],
        "first activation: %.17g %.17g", h.out[0], h.out[1]);
  done(&h);
}

static void bad_parameters(void) {
  bsim_model m;
  bsim_error err;
  struct {
    const char *type, *what;
    int n;
    const char *const *names;
    const bsim_value *vals;
  } bad[] = {
      {"RAND_f", "'distribution'", 4,
       P("distribution", "offset", "scale", "seed"),
       VALS(SCALAR(2), SCALAR(0), SCALAR(1), SCALAR(0))},
      {"RAND_f", "'scale'", 4, P("distribution", "offset", "scale", "seed"),
       VALS(SCALAR(0), MAT(2, 1, 0, 0), SCALAR(1), SCALAR(0))},
      {"RAND_f", "'seed'", 4, P("distribution", "offset", "scale", "seed"),
       VALS(SCALAR(0), SCALAR(0), SCALAR(1), SCALAR(3e9))},
      {"RAND_m", "'scale'", 5,
       P("datatype", "distribution", "offset", "scale", "seed"),
       VALS(SCALAR(1), SCALAR(0), MAT(2, 1, 0, 0), MAT(1, 2, 1, 1),
            MAT(1, 2, 0, 0))},
      {"RAND_m", "'datatype'", 5,
       P("datatype", "distribution", "offset", "scale", "seed"),
       VALS(SCALAR(2), SCALAR(0), SCALAR(0), SCALAR(1), MAT(1, 2, 0, 0))},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    int rc = define_named(bad[i].type, &m, &err, bad[i].n, bad[i].names,
                          bad[i].vals, 5);
    CHECK(rc == -1 && err.status == BSIM_ERR_INPUT &&
              strstr(err.message, bad[i].what) &&
              strstr(err.message, "test/blk") &&
              strstr(err.message, "test.xml:5"),
          "%s bad %s: rc %d, %s", bad[i].type, bad[i].what, rc, err.message);
  }
}

int main(void) {
  uniform_sequence();
  normal_sequence();
  bad_parameters();
  static const char *const files[] = {"rand_f_plant.txt",
                                      "rand_f_controller.txt",
                                      "rand_m_cont_disc_observer.txt"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
    failures += layout_check(files[i]);
  return failures != 0;
}
