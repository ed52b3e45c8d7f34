/*
 * The walk that settles the outputs after an activation (scheduler/
 * activate.c, settle_changed) across many blocks. At each tick of clock A
 * (period 1) a counter (the test's ZCOUNT: y = z at every flag 1, z + 1 at
 * its flag 2) counts, and y goes through a chain of CHAIN unit gains, so
 * that the places in the order to visit span several words of the walk's
 * bit sets. A scope on A at the chain's end records y as the activation
 * computed it, before the update (0, 1, 2, ...); a scope on clock B, due
 * at the same dates and served after A, activating nothing else, records
 * what A's walk left after the update (1, 2, 3, ...). Both exactly, at
 * every tick.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocksim/blocksim.h"
#include "tests/unit/test_check.h"
#include "tests/unit/test_record.h"

static int zcount_define(bsim_define_ctx *ctx, bsim_model *m) {
  double *z = bsim_model_alloc_z0(m, 1);
  if (!z || bsim_model_set_outputs(m, 1, 1, 1) != 0 ||
      bsim_model_set_events(m, 1, 0) != 0)
    return bsim_define_error(ctx, "out of memory");
  return 0;
}

static void zcount_fn(bsim_block *blk, int flag) {
  if (flag == BSIM_FLAG_OUTPUTS || flag == BSIM_FLAG_INIT)
    blk->outptr[0][0] = blk->z[0];
  if (flag == BSIM_FLAG_UPDATE) blk->z[0] += 1;
}

static const bsim_block_type zcount_type = {
    "ZCOUNT",
    "zcount",
    "Test counter: y = z at every flag 1.",
    "",
    NULL,
    0,
    zcount_define,
    zcount_fn,
    0,
    NULL};

enum { CHAIN = 150, TICKS = 6 };

/* The diagram as native XML, into a malloc'ed string. */
static char *diagram(void) {
  size_t cap = 200 * (CHAIN + 20), len = 0;
  char *s = malloc(cap);
  if (!s) return NULL;
  len += (size_t)snprintf(
      s + len, cap - len,
      "<diagram name='walk'>\n"
      "  <simulation final-time='%d'/>\n"
      "  <block id='A' type='CLOCK_c'><param name='period' value='1'/>\n"
      "    <param name='init-time' value='0'/></block>\n"
      "  <block id='B' type='CLOCK_c'><param name='period' value='1'/>\n"
      "    <param name='init-time' value='0'/></block>\n"
      "  <block id='count' type='ZCOUNT'/>\n"
      "  <block id='sa' type='CSCOPE'/>\n"
      "  <block id='sb' type='CSCOPE'/>\n"
      "  <activation from='A:1' to='count:1'/>\n"
      "  <activation from='A:1' to='sa:1'/>\n"
      "  <activation from='B:1' to='sb:1'/>\n"
      "  <link from='count:1' to='g0:1'/>\n",
      TICKS);
  for (int k = 0; k < CHAIN; k++) {
    len += (size_t)snprintf(s + len, cap - len,
                            "  <block id='g%d' type='GAINBLK_f'>"
                            "<param name='gain' value='1'/></block>\n",
                            k);
    if (k > 0)
      len += (size_t)snprintf(s + len, cap - len,
                              "  <link from='g%d:1' to='g%d:1'/>\n", k - 1, k);
  }
  snprintf(s + len, cap - len,
           "  <link from='g%d:1' to='sa:1'/>\n"
           "  <link from='g%d:1' to='sb:1'/>\n"
           "</diagram>\n",
           CHAIN - 1, CHAIN - 1);
  return s;
}

int main(void) {
  bsim_error err;
  bsim_error_clear(&err);
  bsim_library *lib = bsim_library_create(&err);
  const bsim_block_type *const types[] = {&zcount_type};
  char *text = diagram();
  CHECK(lib && text && bsim_library_add(lib, types, 1, &err) == 0, "setup: %s",
        err.message);
  if (!lib || !text) return 1;
  bsim_diagram *d =
      bsim_diagram_load_memory("walk.xml", text, strlen(text), lib, &err);
  CHECK(d != NULL, "load: %s", err.message);
  bsim_sim *s = d ? bsim_sim_create(d, NULL, &err) : NULL;
  CHECK(!d || s, "create: %s", err.message);
  if (s && bsim_sim_run(s, &err) != 0) CHECK(0, "run: %s", err.message);
  if (s) {
    size_t na, nb;
    const double *a = test_record(s, "sa", &na), *b = test_record(s, "sb", &nb);
    /* both at 0..5 (no row at the final time) */
    CHECK(a && b && na == TICKS && nb == TICKS, "rows: %zu and %zu, want %d",
          na, nb, TICKS);
    for (size_t k = 0; a && b && k < na && k < nb; k++) {
      CHECK(a[2 * k] == (double)k && a[2 * k + 1] == (double)k,
            "A's scope at tick %zu: (%g, %g), want (%zu, %zu)", k, a[2 * k],
            a[2 * k + 1], k, k);
      CHECK(b[2 * k] == (double)k && b[2 * k + 1] == (double)(k + 1),
            "B's scope at tick %zu: (%g, %g), want (%zu, %zu): the walk "
            "did not carry the update through the chain",
            k, b[2 * k], b[2 * k + 1], k, k + 1);
    }
  }
  bsim_sim_free(s);
  bsim_diagram_free(d);
  bsim_library_free(lib);
  free(text);
  return failures != 0;
}
