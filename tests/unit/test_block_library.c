/*
 * The block library object: the standard types registered with their
 * origin, the host program's own types added beside them, name clashes
 * refused with a message naming both types (nothing added), and two
 * libraries independent of each other, so that one program can run
 * diagrams against different sets of blocks.
 */
#include <string.h>

#include "blocks/std.h"
#include "blocksim/blocksim.h"
#include "tests/unit/test_check.h"

static void fn_a(bsim_block *blk, int flag) {}
static void fn_b(bsim_block *blk, int flag) {}

static int define_none(bsim_define_ctx *ctx, bsim_model *m) {
  return 0;
}

static const bsim_block_type my_gain = {
    "MY_GAIN", "my_gain", "A gain.", "doc", NULL, 0, define_none, fn_a, 0};
/* Shares my_gain's function, so it may share its function name. */
static const bsim_block_type my_gain2 = {
    "MY_GAIN2", "my_gain", "Another.", "doc", NULL, 0, define_none, fn_a, 0};
static const bsim_block_type other_fn_same_sim = {
    "MY_OTHER", "my_gain", "Clash.", "doc", NULL, 0, define_none, fn_b, 0};
static const bsim_block_type named_like_std = {
    "GAINBLK", "mygainblk", "Clash.", "doc", NULL, 0, define_none, fn_a, 0};
static const bsim_block_type named_like_std_sim = {
    "csslti4", "x_csslti4", "Clash.", "doc", NULL, 0, define_none, fn_a, 0};
static const bsim_block_type fresh = {
    "MY_FRESH", "my_fresh", "New.", "doc", NULL, 0, define_none, fn_b, 0};
static const bsim_block_type unnamed = {
    "", "x", "No name.", "doc", NULL, 0, define_none, fn_b, 0};

static bsim_library *make(void) {
  bsim_error err;
  bsim_error_clear(&err);
  bsim_library *lib = bsim_library_create(&err);
  CHECK(lib != NULL, "create: %s", err.message);
  return lib;
}

static void standard(void) {
  bsim_library *lib = make();
  if (!lib) return;
  size_t n = 0;
  const char *origin = NULL;
  for (const bsim_block_type *t;
       (t = bsim_library_type_at(lib, n, &origin)) != NULL; n++) {
    CHECK(t == bsim_std_type_at(n), "type %zu out of the standard order", n);
    CHECK(origin && strcmp(origin, "standard") == 0, "%s: origin %s", t->name,
          origin ? origin : "NULL");
    CHECK(bsim_library_find(lib, t->name) == t, "%s not found", t->name);
  }
  CHECK(n > 0 && bsim_std_type_at(n) == NULL, "%zu types listed", n);
  /* Interface names win over function names; shared function names
   * answer with the first registered type. */
  const bsim_block_type *sin = bsim_library_find(lib, "sin_blk");
  CHECK(sin && strcmp(sin->name, "sin_blk") == 0, "sin_blk gave %s",
        sin ? sin->name : "NULL");
  const bsim_block_type *ss = bsim_library_find(lib, "csslti4");
  CHECK(ss && strcmp(ss->name, "CLSS") == 0, "csslti4 gave %s",
        ss ? ss->name : "NULL");
  CHECK(bsim_library_find(lib, "NO_SUCH") == NULL, "unknown name found");
  CHECK(bsim_library_find(lib, NULL) == NULL, "NULL name found");
  bsim_library_free(lib);
}

/* Adds one type; returns the call's result, err gets the message. */
static int add1(bsim_library *lib, const bsim_block_type *t, bsim_error *err) {
  bsim_error_clear(err);
  return bsim_library_add(lib, &t, 1, err);
}

static void adding(void) {
  bsim_library *lib = make();
  if (!lib) return;
  bsim_error err;
  size_t nstd = 0;
  while (bsim_library_type_at(lib, nstd, NULL))
    nstd++;
  const bsim_block_type *both[] = {&my_gain, &my_gain2};
  bsim_error_clear(&err);
  CHECK(bsim_library_add(lib, both, 2, &err) == 0, "add: %s", err.message);
  const char *origin = NULL;
  CHECK(bsim_library_type_at(lib, nstd, &origin) == &my_gain && origin &&
            strcmp(origin, "program") == 0,
        "added type listed after the standard ones, origin %s",
        origin ? origin : "NULL");
  CHECK(bsim_library_find(lib, "MY_GAIN2") == &my_gain2, "MY_GAIN2");
  CHECK(bsim_library_find(lib, "my_gain") == &my_gain, "first answers");

  struct {
    const bsim_block_type *t;
    const char *words[3];
  } bad[] = {
      {&my_gain, {"'MY_GAIN'", "'MY_GAIN' (from program)", "name 'MY_GAIN'"}},
      {&other_fn_same_sim, {"'MY_OTHER'", "'MY_GAIN'", "name 'my_gain'"}},
      {&named_like_std, {"'GAINBLK'", "(from standard)", "name 'GAINBLK'"}},
      {&named_like_std_sim, {"'csslti4'", "'CLSS' (from standard)", "rename"}},
      {&unnamed, {"has no name", "#1", "program"}},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    CHECK(add1(lib, bad[i].t, &err) == -1 && err.status == BSIM_ERR_INPUT,
          "case %zu accepted", i);
    for (int w = 0; w < 3; w++)
      CHECK(strstr(err.message, bad[i].words[w]) != NULL,
            "case %zu: '%s' not in: %s", i, bad[i].words[w], err.message);
  }
  /* All or nothing: a batch with a clash in its second type adds none. */
  const bsim_block_type *batch[] = {&fresh, &named_like_std};
  bsim_error_clear(&err);
  CHECK(bsim_library_add(lib, batch, 2, &err) == -1, "batch accepted");
  CHECK(bsim_library_find(lib, "MY_FRESH") == NULL, "half a batch added");
  /* A clash inside one batch. */
  const bsim_block_type *twice[] = {&fresh, &fresh};
  bsim_error_clear(&err);
  CHECK(bsim_library_add(lib, twice, 2, &err) == -1 &&
            strstr(err.message, "'MY_FRESH'"),
        "a batch naming one type twice: %s", err.message);
  bsim_library_free(lib);
}

/* What one library learns, another does not see. */
static void independent(void) {
  bsim_library *a = make(), *b = make();
  bsim_error err;
  if (a && b) {
    CHECK(add1(a, &fresh, &err) == 0, "add: %s", err.message);
    CHECK(bsim_library_find(a, "MY_FRESH") == &fresh, "a lacks it");
    CHECK(bsim_library_find(b, "MY_FRESH") == NULL, "b sees a's type");
    CHECK(add1(b, &other_fn_same_sim, &err) == 0, "b: %s", err.message);
    CHECK(bsim_library_find(a, "my_gain") == NULL, "a sees b's type");
  }
  bsim_library_free(a);
  bsim_library_free(b);
}

int main(void) {
  standard();
  adding();
  independent();
  return failures ? 1 : 0;
}
