/*
 * "Time includes all events" (scheduler/critical.c): Xcos's compiler adds
 * every event of a diagram, but those a synchronous router fires, to each
 * time-dependent block that has event inputs, with no event bit; such a
 * block then gets flags 1 and 2 with nevprt = 0 at every other event, but
 * no flag 3, and those events stay hot unless they were critical already.
 * No standard block has both, so the test registers one (TDEP_PROBE) that
 * records t and nevprt at each flag 2; the rows are compared exactly
 * (dates from CLOCK_c: init + k period).
 */
#include <math.h>
#include <string.h>

#include "blocksim/blocksim.h"
#include "tests/unit/test_check.h"

static int probe_define(bsim_define_ctx *ctx, bsim_model *m) {
  if (bsim_model_set_events(m, 1, 0) != 0)
    return bsim_define_error(ctx, "out of memory");
  m->dep_t = 1;
  return 0;
}

static void probe_fn(bsim_block *blk, int flag) {
  if (flag == BSIM_FLAG_EVENTS)
    bsim_block_error(blk, "flag 3 called with nevprt %d", blk->nevprt);
  if (flag == BSIM_FLAG_UPDATE) {
    double v = blk->nevprt;
    bsim_block_record(blk, &v, 1);
  }
}

static const bsim_block_type probe_type = {
    "TDEP_PROBE",
    "tdep_probe",
    "Test probe: time-dependent, one event input, records nevprt.",
    "Records (t, nevprt) at each flag 2.",
    NULL,
    0,
    probe_define,
    probe_fn,
    0,
    NULL};

int main(void) {
  bsim_error err;
  bsim_error_clear(&err);
  bsim_library *lib = bsim_library_create(&err);
  const bsim_block_type *const types[] = {&probe_type};
  CHECK(lib && bsim_library_add(lib, types, 1, &err) == 0, "library: %s",
        err.message);
  if (!lib) return 1;
  bsim_diagram *d =
      bsim_diagram_load(BSIM_TEST_DATA "/hybrid/time_events.xml", lib, &err);
  CHECK(d != NULL, "load: %s", err.message);
  bsim_options o;
  bsim_options_init(&o);
  bsim_sim *s = d ? bsim_sim_create(d, &o, &err) : NULL;
  CHECK(!d || s, "create: %s", err.message);
  if (s && bsim_sim_run(s, &err) != 0) CHECK(0, "run: %s", err.message);
  size_t rows = 0;
  int cols = 0;
  const double *data = NULL;
  const char *p = NULL;
  for (size_t i = 0; s && (p = bsim_record_at(s, i, &rows, &cols, &data)); i++)
    if (strcmp(p, "probe") == 0) break;
  /* A at 0, 1, 2, 3 (nevprt 1); B at 0.2 + 0.4 k up to 3.0 (nevprt 0),
   * 1.0 and 3.0 coinciding with A's but separate events: 4 + 8 rows */
  CHECK(p && cols == 1 && rows == 12, "probe: %zu rows, want 12", rows);
  int ones = 0, zeros = 0;
  for (size_t r = 0; p && r < rows; r++) {
    double t = data[2 * r], nev = data[2 * r + 1];
    if (nev == 1) {
      ones++;
      CHECK(t == floor(t), "row %zu: nevprt 1 at %.17g, not a tick of A", r, t);
    } else {
      zeros++;
      double k = (t - 0.2) / 0.4;
      CHECK(nev == 0 && fabs(k - round(k)) < 1e-9,
            "row %zu: nevprt %g at %.17g, not a tick of B", r, nev, t);
    }
  }
  CHECK(ones == 4 && zeros == 8, "%d rows of A, %d of B; want 4 and 8", ones,
        zeros);
  /* The probe is time-dependent, hence continuous: A's events stop the
   * integrator (and are downgraded, nothing having changed). B's events,
   * where it is there for time only, must stay hot: with them critical
   * there would be 8 more stops. */
  double v, down = -1, hot = -1;
  const char *name;
  for (size_t i = 0; s && (name = bsim_stat_at(s, i, &v)); i++) {
    if (strcmp(name, "downgrades") == 0) down = v;
    if (strcmp(name, "hot-continues") == 0) hot = v;
  }
  CHECK(down >= 0 && down <= 4 && hot >= 6,
        "%g downgrades (want at most A's 4), %g hot continuations (want 6: "
        "B's 8 less the 2 served with A's)",
        down, hot);
  bsim_sim_free(s);
  bsim_diagram_free(d);
  bsim_library_free(lib);
  return failures != 0;
}
