/*
 * Flag 2 at an activation (scheduler/activate.c): Xcos calls it only on
 * blocks with states or work memory, and blocksim skips it on linear
 * blocks without states (BSIM_TYPE_LINEAR, nx = nz = 0: a sum, a gain, a
 * multiplexer), whose outputs follow from their inputs alone. Two probes
 * pass a clocked counter's output on, inheriting its activation; both
 * record a row at each flag 2 they get. The one typed linear gets none,
 * the other one per tick; the scopes behind them, on the clock, record
 * the same values as the scope on the counter itself, exactly.
 */
#include <string.h>

#include "blocksim/blocksim.h"
#include "tests/unit/test_check.h"
#include "tests/unit/test_record.h"

static int pass_define(bsim_define_ctx *ctx, bsim_model *m) {
  if (bsim_model_set_inputs(m, 1, 1, 1, 1) != 0 ||
      bsim_model_set_outputs(m, 1, 1, 1) != 0)
    return bsim_define_error(ctx, "out of memory");
  return 0;
}

static void pass_fn(bsim_block *blk, int flag) {
  if (flag == BSIM_FLAG_OUTPUTS) blk->outptr[0][0] = blk->inptr[0][0];
  if (flag == BSIM_FLAG_JACOBIAN) blk->jac[0] = 1;
  if (flag == BSIM_FLAG_UPDATE) bsim_block_record(blk, blk->inptr[0], 1);
}

static const bsim_block_type lin_type = {
    "PASS_LIN",  "pass_lin", "Test probe: linear, records at flag 2.",
    "",          NULL,       0,
    pass_define, pass_fn,    BSIM_TYPE_LINEAR | BSIM_TYPE_JACOBIAN,
    NULL};
static const bsim_block_type other_type = {
    "PASS_OTHER", "pass_other", "Test probe: records at flag 2.",
    "",           NULL,         0,
    pass_define,  pass_fn,      0,
    NULL};

static const char diagram[] =
    "<diagram name='stateless'>\n"
    "  <simulation final-time='4.5'/>\n"
    "  <block id='clock' type='CLOCK_c'><param name='period' value='1'/>\n"
    "    <param name='init-time' value='0'/></block>\n"
    "  <block id='count' type='Modulo_Count'>\n"
    "    <param name='modulus' value='100'/></block>\n"
    "  <block id='lin' type='PASS_LIN'/>\n"
    "  <block id='other' type='PASS_OTHER'/>\n"
    "  <block id='s0' type='CSCOPE'/>\n"
    "  <block id='s1' type='CSCOPE'/>\n"
    "  <block id='s2' type='CSCOPE'/>\n"
    "  <activation from='clock:1' to='count:1'/>\n"
    "  <activation from='clock:1' to='s0:1'/>\n"
    "  <activation from='clock:1' to='s1:1'/>\n"
    "  <activation from='clock:1' to='s2:1'/>\n"
    "  <link from='count:1' to='lin:1'/>\n"
    "  <link from='count:1' to='other:1'/>\n"
    "  <link from='count:1' to='s0:1'/>\n"
    "  <link from='lin:1' to='s1:1'/>\n"
    "  <link from='other:1' to='s2:1'/>\n"
    "</diagram>\n";

int main(void) {
  bsim_error err;
  bsim_error_clear(&err);
  bsim_library *lib = bsim_library_create(&err);
  const bsim_block_type *const types[] = {&lin_type, &other_type};
  CHECK(lib && bsim_library_add(lib, types, 2, &err) == 0, "library: %s",
        err.message);
  if (!lib) return 1;
  bsim_diagram *d = bsim_diagram_load_memory("stateless.xml", diagram,
                                             strlen(diagram), lib, &err);
  CHECK(d != NULL, "load: %s", err.message);
  bsim_sim *s = d ? bsim_sim_create(d, NULL, &err) : NULL;
  CHECK(!d || s, "create: %s", err.message);
  if (s && bsim_sim_run(s, &err) != 0) CHECK(0, "run: %s", err.message);
  if (s) {
    size_t nlin, nother, n0, n1, n2;
    test_record(s, "lin", &nlin);
    test_record(s, "other", &nother);
    /* ticks at 0, 1, 2, 3, 4 */
    CHECK(nlin == 0 && nother == 5,
          "flag 2 calls: %zu on the linear probe (want 0), %zu on the "
          "other (want 5)",
          nlin, nother);
    const double *r0 = test_record(s, "s0", &n0),
                 *r1 = test_record(s, "s1", &n1),
                 *r2 = test_record(s, "s2", &n2);
    CHECK(r0 && r1 && r2 && n0 == 5 && n1 == 5 && n2 == 5,
          "scopes: %zu, %zu, %zu rows, want 5", n0, n1, n2);
    if (r0 && r1 && r2 && n0 == 5 && n1 == 5 && n2 == 5) {
      CHECK(memcmp(r0, r1, sizeof(double) * 2 * n0) == 0 &&
                memcmp(r0, r2, sizeof(double) * 2 * n0) == 0,
            "the probes' scopes differ from the counter's");
      /* the counter shows 0, 1, 2, ... at its ticks */
      for (size_t k = 0; k < n0; k++)
        CHECK(r0[2 * k] == (double)k && r0[2 * k + 1] == (double)k,
              "tick %zu: (%g, %g), want (%zu, %zu)", k, r0[2 * k],
              r0[2 * k + 1], k, k);
    }
  }
  bsim_sim_free(s);
  bsim_diagram_free(d);
  bsim_library_free(lib);
  return failures != 0;
}
