/*
 * What the block library and its extensions cost: creating a library
 * with the standard types, looking a type up by name (the flattener asks
 * once per block), the per-call overhead of running an Xcos type-4 function
 * through the adapter rather than as a native blocksim function, and
 * compiling a C block (CBLOCK) the first time against loading it from the
 * cache. Prints one line per figure.
 *
 * usage: library [CALLS]   (calls of each computational function, 10^7)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "blocksim/blocksim.h"
#include "blocksim/scicos_block4.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The same gain, written both ways. */
static void native_gain(bsim_block *blk, int flag) {
  if (flag == BSIM_FLAG_OUTPUTS)
    blk->outptr[0][0] = blk->rpar[0] * blk->inptr[0][0];
}

static void xcos_gain(scicos_block *block, int flag) {
  if (flag == OutputUpdate)
    GetRealOutPortPtrs(block, 1)[0] =
        GetRparPtrs(block)[0] * GetRealInPortPtrs(block, 1)[0];
}
BSIM_SCICOS4_TYPE(xcos_gain, "bench");

/* ns per flag-1 call of fn on a one-input, one-output block view. */
static double per_call(void (*fn)(bsim_block *, int), long calls) {
  double u = 1.5, y = 0, k = 2, *in = &u, *out = &y;
  int sizes[4] = {1, 1, 1, 1};
  void *work = NULL;
  bsim_block b;
  memset(&b, 0, sizeof b);
  b.path = "bench";
  b.nin = b.nout = 1;
  b.insz = sizes;
  b.outsz = sizes + 2;
  b.inptr = &in;
  b.outptr = &out;
  b.nrpar = 1;
  b.rpar = &k;
  b.work = &work;
  b.phase = BSIM_PHASE_CONTINUOUS;
  fn(&b, BSIM_FLAG_INIT);
  double t0 = now();
  for (long i = 0; i < calls; i++) {
    u = (double)(i & 1023);
    fn(&b, BSIM_FLAG_OUTPUTS);
  }
  double t = now() - t0;
  fn(&b, BSIM_FLAG_END);
  if (y != 2 * (double)((calls - 1) & 1023)) fprintf(stderr, "wrong y\n");
  return 1e9 * t / (double)calls;
}

static const char code[] =
    "#include \"scicos_block4.h\"\n"
    "void bench_cgain(scicos_block *block, int flag) {\n"
    "  if (flag == 1) GetRealOutPortPtrs(block, 1)[0] =\n"
    "      GetRparPtrs(block)[0] * GetRealInPortPtrs(block, 1)[0];\n"
    "}\n";

int main(int argc, char **argv) {
  long calls = argc > 1 ? atol(argv[1]) : 10000000;
  if (calls < 1) calls = 1;
  bsim_error err;
  bsim_error_clear(&err);

  double t0 = now();
  int n = 100;
  for (int i = 0; i < n; i++)
    bsim_library_free(bsim_library_create(&err));
  printf("bsim_library_create (standard types):  %.1f us\n",
         1e6 * (now() - t0) / n);

  bsim_library *lib = bsim_library_create(&err);
  const bsim_block_type *t;
  size_t ntypes = 0;
  while (bsim_library_type_at(lib, ntypes, NULL))
    ntypes++;
  long lookups = 1000000, found = 0;
  t0 = now();
  for (long i = 0; i < lookups; i++) {
    t = bsim_library_type_at(lib, (size_t)i % ntypes, NULL);
    found += bsim_library_find(lib, t->name) == t;
  }
  printf("bsim_library_find (%zu types):          %.1f ns per lookup%s\n",
         ntypes, 1e9 * (now() - t0) / (double)lookups,
         found == lookups ? "" : " (WRONG)");

  double nat = per_call(native_gain, calls);
  double x4 = per_call(BSIM_SCICOS4(xcos_gain).fn, calls);
  printf("flag-1 call, native function:          %.2f ns\n", nat);
  printf("flag-1 call, type-4 through adapter:   %.2f ns (+%.2f ns)\n", x4,
         x4 - nat);

  char dir[] = "/tmp/bsim_bench_cache_XXXXXX";
  if (mkdtemp(dir) && bsim_library_set_c_compiler(lib, NULL, dir, &err) == 0) {
    bsim_library *a = bsim_library_create_child(lib, &err);
    t0 = now();
    int rc =
        a ? bsim_library_compile_c(a, "bench_cgain", code, 0, "bench", &err)
          : -1;
    double first = now() - t0;
    bsim_library_free(a); /* unloads the object: the next load reads it */
    a = NULL;
    bsim_library *b = bsim_library_create_child(lib, &err);
    t0 = now();
    rc |= b ? bsim_library_compile_c(b, "bench_cgain", code, 0, "bench", &err)
            : -1;
    double cached = now() - t0;
    if (rc == 0)
      printf("C block, compiled:                     %.3f s\n"
             "C block, from the cache:               %.2f ms\n",
             first, 1e3 * cached);
    else
      printf("C block: %s\n", err.message);
    bsim_library_free(a);
    bsim_library_free(b);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
  }
  bsim_library_free(lib);
  return 0;
}
