/*
 * Test plugins that must be refused, one per way a plugin can be wrong;
 * the build compiles this file once per BAD_* macro:
 *   BAD_NO_ABI     exports bsim_plugin_init but no ABI declaration
 *   BAD_ABI        declares an ABI version the library does not have
 *   BAD_NO_INIT    declares the ABI but misspells its entry point
 *   BAD_CLASH      registers a type named like a standard one (GAINBLK)
 *   BAD_INIT_FAILS registers a type, then reports a failure: the type
 *                  must not stay behind
 */
#include "blocksim/plugin.h"

#if defined(BAD_ABI)
BSIM_PLUGIN_EXPORT extern const int bsim_plugin_abi;
const int bsim_plugin_abi = BSIM_ABI_VERSION + 100;
#elif !defined(BAD_NO_ABI)
BSIM_PLUGIN_DECLARE_ABI;
#endif

static int define(bsim_define_ctx *ctx, bsim_model *m) {
  return 0;
}

static void fn(bsim_block *blk, int flag) {}

#if defined(BAD_CLASH)
static const bsim_block_type type = {
    "GAINBLK", "bad_gain", "Clashes.", "", NULL, 0, define, fn, 0};
#else
static const bsim_block_type type = {"TEST_LEFTOVER",
                                     "test_leftover",
                                     "Must not stay.",
                                     "",
                                     NULL,
                                     0,
                                     define,
                                     fn,
                                     0};
#endif

#if defined(BAD_NO_INIT)
#define INIT bsim_plugin_initialise
#else
#define INIT bsim_plugin_init
#endif

BSIM_PLUGIN_EXPORT int INIT(bsim_library *lib, bsim_error *err) {
  const bsim_block_type *types[] = {&type};
  if (bsim_library_add(lib, types, 1, err)) return -1;
#if defined(BAD_INIT_FAILS)
  bsim_error_set(err, BSIM_ERR_INPUT, "test: the licence server is down");
  return -1;
#else
  return 0;
#endif
}
