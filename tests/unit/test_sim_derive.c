/*
 * Runs derived from one compiled sim (bsim_sim_derive), as a sweep makes
 * them: each member's results must be BIT-IDENTICAL to a sim created from
 * a freshly loaded diagram with the same overrides applied
 * (bsim_diagram_override), which is what `blocksim run -p` does. Exact
 * equality is the right tolerance: both paths must evaluate the same
 * expressions, build the same models and run the same deterministic
 * integration, so any difference is a bug (a stale parameter, a buffer
 * shared between runs).
 *
 * Covered: overrides of a top-level context variable (Kp: the DLR's rpar),
 * of a superblock's context (plant.tau: a gain inside), of a block
 * parameter (plant/y.x0: an initial state), of the clock period (event
 * times), a new variable (appended, changes nothing), several at once, the
 * sink records; only the blocks whose parameters change are rebuilt;
 * members run concurrently in threads from one base; structural changes
 * and bad overrides are refused with their messages.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocksim/blocksim.h"
#include "scheduler/sim.h"
#include "tests/unit/test_check.h"
#include "tests/unit/test_library.h"

static char path[1024];

typedef struct member {
  const char *targets[3];
  const char *values[3];
  int n;
  const char *rebuilt; /* paths of the blocks whose define step reruns */
} member;

static const member members[] = {
    {{"Kp"}, {"5"}, 1, "pi"},
    {{"plant.tau"}, {"0.25"}, 1, "plant/rate"},
    {{"plant/y.x0"}, {"0.3"}, 1, "plant/y"},
    /* a sample clock's dates live in the diagram's merged clock, rebuilt
     * with it (diagrams/sampleclk.c) */
    {{"T"}, {"0.07"}, 1, "clock pi :sample-clocks"},
    {{"newvar"}, {"3"}, 1, ""},
    {{"Ki", "r", "plant.tau"},
     {"1.5", "2", "0.8"},
     3,
     "setpoint pi plant/rate"},
    {{"Kp", "Kp"}, {"7", "2"}, 2, ""}, /* the last one wins: unchanged */
};
enum { NMEMBERS = sizeof members / sizeof members[0] };

/* A sim made the way `blocksim run -p` makes it. */
static bsim_sim *separate(const member *m, bsim_error *err) {
  bsim_diagram *d = bsim_diagram_load(path, test_library(), err);
  for (int i = 0; d && i < m->n; i++)
    if (bsim_diagram_override(d, m->targets[i], m->values[i], err) != 0) {
      bsim_diagram_free(d);
      return NULL;
    }
  bsim_sim *s = d ? bsim_sim_create(d, NULL, err) : NULL;
  bsim_diagram_free(d);
  if (s && bsim_sim_run(s, err) != 0) {
    bsim_sim_free(s);
    return NULL;
  }
  return s;
}

/* Same rows, same bits, same records. "" when equal, else what differs. */
static void compare(const bsim_sim *a, const bsim_sim *b, char *why,
                    size_t len) {
  why[0] = '\0';
  size_t rows = bsim_result_rows(a), cols = bsim_result_cols(a);
  if (rows != bsim_result_rows(b) || cols != bsim_result_cols(b)) {
    snprintf(why, len, "%zux%zu vs %zux%zu", rows, cols, bsim_result_rows(b),
             bsim_result_cols(b));
    return;
  }
  if (memcmp(bsim_result_data(a), bsim_result_data(b),
             sizeof(double) * rows * cols) != 0) {
    snprintf(why, len, "sample values differ");
    return;
  }
  for (size_t i = 0;; i++) {
    size_t ra, rb;
    int ca, cb;
    const double *da, *db;
    const char *pa = bsim_record_at(a, i, &ra, &ca, &da);
    const char *pb = bsim_record_at(b, i, &rb, &cb, &db);
    if (!pa && !pb) return;
    if (!pa || !pb || strcmp(pa, pb) != 0 || ra != rb || ca != cb ||
        memcmp(da, db, sizeof(double) * ra * (size_t)(ca + 1)) != 0) {
      snprintf(why, len, "record %zu (%s) differs", i, pa ? pa : "none");
      return;
    }
  }
}

/* The blocks with a rebuilt model, as "a b c". */
static void rebuilt(const bsim_sim *s, char *buf, size_t len) {
  buf[0] = '\0';
  for (int i = 0; s->models && i < s->flat->nblocks; i++)
    if (s->models[i]) {
      size_t used = strlen(buf);
      snprintf(buf + used, len - used, "%s%s", used ? " " : "",
               s->flat->blocks[i].path);
    }
}

static void test_members(const bsim_sim *base, const bsim_diagram *d) {
  for (int k = 0; k < NMEMBERS; k++) {
    const member *m = &members[k];
    bsim_error err;
    bsim_error_clear(&err);
    int structural = -1;
    bsim_sim *s = bsim_sim_derive(base, d, m->targets, m->values, m->n,
                                  &structural, &err);
    CHECK(s && structural == 0, "member %d: %s", k, err.message);
    if (!s) continue;
    char which[256], why[256];
    rebuilt(s, which, sizeof which);
    CHECK(strcmp(which, m->rebuilt) == 0, "member %d rebuilt '%s', want '%s'",
          k, which, m->rebuilt);
    CHECK(bsim_sim_run(s, &err) == 0, "member %d run: %s", k, err.message);
    bsim_sim *ref = separate(m, &err);
    CHECK(ref != NULL, "member %d separately: %s", k, err.message);
    if (ref) {
      compare(s, ref, why, sizeof why);
      CHECK(why[0] == '\0', "member %d vs a separate compile: %s", k, why);
    }
    /* running a derived sim again gives the same again */
    bsim_sim_free(ref);
    ref = NULL;
    bsim_sim *again =
        bsim_sim_derive(base, d, m->targets, m->values, m->n, NULL, &err);
    CHECK(again && bsim_sim_run(again, &err) == 0, "again: %s", err.message);
    if (again) {
      compare(s, again, why, sizeof why);
      CHECK(why[0] == '\0', "member %d twice: %s", k, why);
    }
    bsim_sim_free(again);
    bsim_sim_free(s);
  }
}

/* Members in threads from one base, each repeated, against the lone
 * results. */
typedef struct job {
  const bsim_sim *base;
  const bsim_diagram *d;
  const bsim_sim *want[NMEMBERS];
  int first, failures;
  char why[2600];
} job;

static void *work(void *arg) {
  job *j = arg;
  for (int rep = 0; rep < 3; rep++)
    for (int i = 0; i < NMEMBERS; i++) {
      int k = (i + j->first) % NMEMBERS;
      const member *m = &members[k];
      bsim_error err;
      bsim_error_clear(&err);
      bsim_sim *s = bsim_sim_derive(j->base, j->d, m->targets, m->values, m->n,
                                    NULL, &err);
      if (!s || bsim_sim_run(s, &err) != 0) {
        j->failures++;
        snprintf(j->why, sizeof j->why, "member %d: %s", k, err.message);
      } else {
        char why[256];
        compare(s, j->want[k], why, sizeof why);
        if (why[0]) {
          j->failures++;
          snprintf(j->why, sizeof j->why, "member %d in a thread: %s", k, why);
        }
      }
      bsim_sim_free(s);
    }
  return NULL;
}

static void test_threads(const bsim_sim *base, const bsim_diagram *d) {
  enum { NT = 4 };
  bsim_sim *want[NMEMBERS] = {0};
  for (int k = 0; k < NMEMBERS; k++) {
    bsim_error err;
    bsim_error_clear(&err);
    want[k] = separate(&members[k], &err);
    CHECK(want[k] != NULL, "member %d: %s", k, err.message);
    if (!want[k]) goto done;
  }
  job jobs[NT];
  pthread_t th[NT];
  for (int t = 0; t < NT; t++) {
    memset(&jobs[t], 0, sizeof jobs[t]);
    jobs[t].base = base;
    jobs[t].d = d;
    jobs[t].first = t;
    memcpy(jobs[t].want, want, sizeof want);
    CHECK(pthread_create(&th[t], NULL, work, &jobs[t]) == 0, "thread %d", t);
  }
  /* the base itself runs meanwhile, in this thread */
  bsim_error err;
  bsim_error_clear(&err);
  bsim_sim *base_run = (bsim_sim *)base;
  CHECK(bsim_sim_run(base_run, &err) == 0, "base: %s", err.message);
  for (int t = 0; t < NT; t++) {
    pthread_join(th[t], NULL);
    CHECK(jobs[t].failures == 0, "thread %d: %s", t, jobs[t].why);
  }
done:
  for (int k = 0; k < NMEMBERS; k++)
    bsim_sim_free(want[k]);
}

static void expect_refusal(const bsim_sim *base, const bsim_diagram *d,
                           const char *target, const char *value,
                           int structural_want, const char *fragment) {
  bsim_error err;
  bsim_error_clear(&err);
  int structural = -1;
  const char *t[1] = {target}, *v[1] = {value};
  bsim_sim *s = bsim_sim_derive(base, d, t, v, 1, &structural, &err);
  CHECK(s == NULL, "%s=%s accepted", target, value);
  CHECK(err.status == BSIM_ERR_INPUT, "%s: status %d", target, err.status);
  CHECK(structural == structural_want, "%s: structural %d", target, structural);
  CHECK(strstr(err.message, fragment) != NULL, "%s: message '%s' lacks '%s'",
        target, err.message, fragment);
  bsim_sim_free(s);
}

static void test_refusals(const bsim_sim *base, const bsim_diagram *d) {
  /* saturation adds surfaces and modes: another structure */
  expect_refusal(base, d, "plant/y.satur", "1", 1,
                 "block 'plant/y' (INTEGRAL_m): the new parameter values "
                 "change its number of zero-crossing surfaces (1, compiled "
                 "with 0)");
  /* a vector set point changes a port size */
  expect_refusal(base, d, "setpoint.value", "[1;2]", 1,
                 "change the size of output 1");
  expect_refusal(base, d, "plant/u.port", "2", 1, "superblock port");
  expect_refusal(base, d, "pi.nume", "1", 0,
                 "unknown parameter 'nume' for type DLR");
  expect_refusal(base, d, "nosuch.gain", "1", 0, "no block 'nosuch'");
  expect_refusal(base, d, "Kp", "1 +", 0,
                 "context variable 'Kp' (set by override)");
}

int main(void) {
  bsim_process_init();
  snprintf(path, sizeof path, "%s/batch/member.xml", BSIM_TEST_DATA);
  bsim_error err;
  bsim_error_clear(&err);
  bsim_diagram *d = bsim_diagram_load(path, test_library(), &err);
  CHECK(d != NULL, "load: %s", err.message);
  if (!d) return 1;
  bsim_sim *base = bsim_sim_create(d, NULL, &err);
  CHECK(base != NULL, "create: %s", err.message);
  if (base) {
    test_members(base, d);
    test_refusals(base, d);
    test_threads(base, d);
  }
  bsim_sim_free(base);
  bsim_diagram_free(d);
  if (failures) return 1;
  printf("test_sim_derive: ok\n");
  return 0;
}
