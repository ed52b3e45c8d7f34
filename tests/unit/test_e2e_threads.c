/*
 * The library is reentrant: runs in parallel threads do not disturb each
 * other, and a sim does not need its diagram after bsim_sim_create.
 *
 * Four threads each load tests/data/e2e/decay.xml (x' = -k x, x(0) = 1),
 * override k with their own value, create the sim, FREE THE DIAGRAM, run,
 * and compare every sample BIT FOR BIT with a run of the same k made alone
 * before the threads start: the integration is deterministic, so any
 * cross-talk between runs shows as a difference. The lone runs are also
 * checked against e^(-k t) to 1e-6 relative plus 1e-9 absolute (rtol 1e-8,
 * atol 1e-10 accumulated over up to 35 time constants, where x falls to
 * 1e-15 and atol dominates). Under ASan, a sim that kept a pointer into its
 * freed diagram fails.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "blocksim/blocksim.h"
#include "tests/unit/test_library.h"

enum { NTHREADS = 4, REPEATS = 5 };

enum { ROWS = 101 };

typedef struct job {
  double k;
  int failures;
  char why[2600];
  double x[ROWS];   /* this run's samples */
  double ref[ROWS]; /* the lone run's, once has_ref is set */
  int has_ref;
} job;

static void *work(void *arg) {
  job *j = arg;
  char path[1024], value[64];
  snprintf(path, sizeof path, "%s/e2e/decay.xml", BSIM_TEST_DATA);
  snprintf(value, sizeof value, "%.17g", j->k);
  for (int rep = 0; rep < REPEATS && !j->failures; rep++) {
    bsim_error err;
    bsim_error_clear(&err);
    bsim_diagram *d = bsim_diagram_load(path, test_library(), &err);
    if (!d || bsim_diagram_override(d, "k", value, &err) != 0) {
      j->failures++;
      snprintf(j->why, sizeof j->why, "load/override: %s", err.message);
      bsim_diagram_free(d);
      return NULL;
    }
    bsim_sim *s = bsim_sim_create(d, NULL, &err);
    bsim_diagram_free(d); /* the sim must not need it any more */
    if (!s || bsim_sim_run(s, &err) != 0) {
      j->failures++;
      snprintf(j->why, sizeof j->why, "create/run: %s", err.message);
      bsim_sim_free(s);
      return NULL;
    }
    const double *t = bsim_result_times(s), *x = bsim_result_data(s);
    size_t rows = bsim_result_rows(s);
    if (rows != ROWS || bsim_result_cols(s) != 1) {
      j->failures++;
      snprintf(j->why, sizeof j->why, "%zu rows", rows);
    }
    for (size_t r = 0; r < rows && !j->failures; r++) {
      double want = exp(-j->k * t[r]);
      j->x[r] = x[r];
      if (fabs(x[r] - want) > 1e-6 * want + 1e-9) {
        j->failures++;
        snprintf(j->why, sizeof j->why, "k=%g: x(%g) = %.17g, want %.17g", j->k,
                 t[r], x[r], want);
      } else if (j->has_ref && memcmp(&x[r], &j->ref[r], sizeof x[r]) != 0) {
        j->failures++;
        snprintf(j->why, sizeof j->why,
                 "k=%g: x(%g) = %.17g in a thread, %.17g alone", j->k, t[r],
                 x[r], j->ref[r]);
      }
    }
    bsim_sim_free(s);
  }
  return NULL;
}

int main(void) {
  bsim_process_init();
  job jobs[NTHREADS];
  pthread_t th[NTHREADS];
  for (int i = 0; i < NTHREADS; i++) {
    memset(&jobs[i], 0, sizeof jobs[i]);
    jobs[i].k = 0.5 + i; /* 0.5, 1.5, 2.5, 3.5: different rates */
    work(&jobs[i]);      /* alone first: the reference */
    if (jobs[i].failures) {
      fprintf(stderr, "test_e2e_threads: alone, k=%g: %s\n", jobs[i].k,
              jobs[i].why);
      return 1;
    }
    memcpy(jobs[i].ref, jobs[i].x, sizeof jobs[i].ref);
    jobs[i].has_ref = 1;
  }
  for (int i = 0; i < NTHREADS; i++) {
    if (pthread_create(&th[i], NULL, work, &jobs[i]) != 0) {
      fprintf(stderr, "test_e2e_threads: cannot start thread %d\n", i);
      return 1;
    }
  }
  int failures = 0;
  for (int i = 0; i < NTHREADS; i++) {
    pthread_join(th[i], NULL);
    if (jobs[i].failures) {
      fprintf(stderr, "test_e2e_threads: thread %d: %s\n", i, jobs[i].why);
      failures++;
    }
  }
  if (failures) return 1;
  printf("test_e2e_threads: ok (%d threads x %d runs)\n", NTHREADS, REPEATS);
  return 0;
}
