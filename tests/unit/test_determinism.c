/*
 * A run is bit-identical when repeated and when other runs go on in
 * parallel threads. Every example of examples/ and a set of hybrid and
 * Xcos test diagrams (events, zero crossings, modes, scopes, algebraic
 * loops, random sources with their seeds) is run alone for a reference,
 * then run again, on the same sim (its run state must be reset) and on a
 * new one, then by four threads at once, each working through all the
 * diagrams in its own order. Every sample, every sink record and every
 * statistic but the wall time must equal the reference BIT FOR BIT: the
 * integration is deterministic, so any shared state between runs, or a
 * value left over from an earlier run, shows as a difference. No
 * tolerance: equality is the property under test.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocksim/blocksim.h"
#include "tests/unit/test_library.h"

static const char *const diagrams[] = {
    "../../examples/algebraic_loop.xml",
    "../../examples/bouncing_ball.xml",
    "../../examples/clr_step.xml",
    "../../examples/decay.xml",
    "../../examples/oscillator.xml",
    "../../examples/sampled_pi.xml",
    "../../examples/superblock.xml",
    "../../examples/thermostat.xml",
    "hybrid/fifo.xml",
    "hybrid/hot_scope.xml",
    "hybrid/ifthel.xml",
    "hybrid/sat_loop.xml",
    "hybrid/staircase.xml",
    "hybrid/end_c.xml",
    "xcos/cont/bounce.xcos",
    "xcos/random/rand_blocks.xcos",
    /* Scilab code drawing from the run's session generator */
    "xcos/scifunc/scifunc_rand.xcos",
    "xcos/scifunc/scifunc_events.xml",
    "xcos/scifunc/scifunc_cont.xml",
};
enum { NDIAG = sizeof diagrams / sizeof diagrams[0] };
enum { NTHREADS = 4, ROUNDS = 2 };

/* What one run produced, kept for comparison. */
typedef struct outcome {
  int status;
  char message[256];
  size_t rows, cols;
  double *times, *data;
  size_t nrec;
  char **rec_paths;
  size_t *rec_rows;
  int *rec_cols;
  double **rec_data;
  int nstats;
  double stats[32];
} outcome;

static void outcome_free(outcome *o) {
  free(o->times);
  free(o->data);
  for (size_t i = 0; i < o->nrec; i++) {
    free(o->rec_paths[i]);
    free(o->rec_data[i]);
  }
  free(o->rec_paths);
  free(o->rec_rows);
  free(o->rec_cols);
  free(o->rec_data);
  memset(o, 0, sizeof *o);
}

static double *copy(const double *v, size_t n) {
  double *c = malloc(n ? n * sizeof *c : 1);
  if (!c) abort();
  if (n) memcpy(c, v, n * sizeof *c);
  return c;
}

/* Run s and keep what it produced. */
static void collect(bsim_sim *s, outcome *o) {
  bsim_error err;
  bsim_error_clear(&err);
  memset(o, 0, sizeof *o);
  o->status = bsim_sim_run(s, &err) == 0 ? 0 : (int)err.status;
  snprintf(o->message, sizeof o->message, "%.200s", err.message);
  o->rows = bsim_result_rows(s);
  o->cols = bsim_result_cols(s);
  o->times = copy(bsim_result_times(s), o->rows);
  o->data = copy(bsim_result_data(s), o->rows * o->cols);
  size_t rows;
  int cols;
  const double *data;
  while (bsim_record_at(s, o->nrec, &rows, &cols, &data))
    o->nrec++;
  o->rec_paths = calloc(o->nrec + 1, sizeof *o->rec_paths);
  o->rec_rows = calloc(o->nrec + 1, sizeof *o->rec_rows);
  o->rec_cols = calloc(o->nrec + 1, sizeof *o->rec_cols);
  o->rec_data = calloc(o->nrec + 1, sizeof *o->rec_data);
  if (!o->rec_paths || !o->rec_rows || !o->rec_cols || !o->rec_data) abort();
  for (size_t i = 0; i < o->nrec; i++) {
    const char *path = bsim_record_at(s, i, &rows, &cols, &data);
    o->rec_paths[i] = strdup(path);
    o->rec_rows[i] = rows;
    o->rec_cols[i] = cols;
    o->rec_data[i] = copy(data, rows * (size_t)(cols + 1));
  }
  double v;
  const char *name;
  for (size_t i = 0; (name = bsim_stat_at(s, i, &v)) && o->nstats < 32; i++)
    if (strcmp(name, "wall-seconds") != 0) o->stats[o->nstats++] = v;
}

/* "" when equal, else what differs. */
static void compare(const outcome *a, const outcome *b, char *why, size_t len) {
  why[0] = '\0';
  if (a->status != b->status || strcmp(a->message, b->message) != 0)
    snprintf(why, len, "status %d '%.100s' vs %d '%.100s'", a->status,
             a->message, b->status, b->message);
  else if (a->rows != b->rows || a->cols != b->cols)
    snprintf(why, len, "%zux%zu results vs %zux%zu", a->rows, a->cols, b->rows,
             b->cols);
  else if (memcmp(a->times, b->times, a->rows * sizeof(double)) ||
           memcmp(a->data, b->data, a->rows * a->cols * sizeof(double)))
    snprintf(why, len, "results differ");
  else if (a->nrec != b->nrec)
    snprintf(why, len, "%zu records vs %zu", a->nrec, b->nrec);
  else if (a->nstats != b->nstats ||
           memcmp(a->stats, b->stats, (size_t)a->nstats * sizeof(double)))
    snprintf(why, len, "statistics differ");
  for (size_t i = 0; !why[0] && i < a->nrec; i++)
    if (strcmp(a->rec_paths[i], b->rec_paths[i]) ||
        a->rec_rows[i] != b->rec_rows[i] || a->rec_cols[i] != b->rec_cols[i] ||
        memcmp(a->rec_data[i], b->rec_data[i],
               a->rec_rows[i] * (size_t)(a->rec_cols[i] + 1) * sizeof(double)))
      snprintf(why, len, "record %.200s differs", a->rec_paths[i]);
}

static outcome reference[NDIAG];

/* Load, create, run; the diagram freed before the run. */
static int fresh(int k, outcome *o, char *why, size_t len) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", BSIM_TEST_DATA, diagrams[k]);
  bsim_error err;
  bsim_error_clear(&err);
  bsim_diagram *d = bsim_diagram_load(path, test_library(), &err);
  bsim_sim *s = d ? bsim_sim_create(d, NULL, &err) : NULL;
  bsim_diagram_free(d);
  if (!s) {
    snprintf(why, len, "%s: %.200s", diagrams[k], err.message);
    return -1;
  }
  collect(s, o);
  bsim_sim_free(s);
  return 0;
}

typedef struct worker {
  int id, failures;
  char why[600];
} worker;

static void *work(void *arg) {
  worker *w = arg;
  for (int round = 0; round < ROUNDS && !w->failures; round++)
    for (int j = 0; j < NDIAG && !w->failures; j++) {
      int k = (j * (2 * w->id + 1) + w->id + round) % NDIAG; /* own order */
      outcome o;
      char why[300];
      if (fresh(k, &o, why, sizeof why) == 0) {
        compare(&reference[k], &o, why, sizeof why);
        outcome_free(&o);
      }
      if (why[0]) {
        w->failures++;
        snprintf(w->why, sizeof w->why, "%s: %.300s", diagrams[k], why);
      }
    }
  return NULL;
}

int main(void) {
  bsim_process_init();
  int failures = 0;
  char why[300];
  for (int k = 0; k < NDIAG; k++) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", BSIM_TEST_DATA, diagrams[k]);
    bsim_error err;
    bsim_error_clear(&err);
    bsim_diagram *d = bsim_diagram_load(path, test_library(), &err);
    bsim_sim *s = d ? bsim_sim_create(d, NULL, &err) : NULL;
    bsim_diagram_free(d);
    if (!s) {
      fprintf(stderr, "test_determinism: %s: %s\n", diagrams[k], err.message);
      return 1;
    }
    collect(s, &reference[k]);
    if (reference[k].status != 0 || reference[k].rows < 2) {
      fprintf(stderr, "test_determinism: %s does not run: %s\n", diagrams[k],
              reference[k].message);
      failures++;
    }
    /* the same sim again: nothing may survive from the first run */
    outcome again;
    collect(s, &again);
    compare(&reference[k], &again, why, sizeof why);
    if (why[0]) {
      fprintf(stderr, "test_determinism: %s run twice: %s\n", diagrams[k], why);
      failures++;
    }
    outcome_free(&again);
    bsim_sim_free(s);
  }
  worker w[NTHREADS];
  pthread_t th[NTHREADS];
  for (int i = 0; i < NTHREADS; i++) {
    memset(&w[i], 0, sizeof w[i]);
    w[i].id = i;
    if (pthread_create(&th[i], NULL, work, &w[i]) != 0) {
      fprintf(stderr, "test_determinism: cannot start thread %d\n", i);
      return 1;
    }
  }
  for (int i = 0; i < NTHREADS; i++) {
    pthread_join(th[i], NULL);
    if (w[i].failures) {
      fprintf(stderr, "test_determinism: thread %d: %s\n", i, w[i].why);
      failures++;
    }
  }
  for (int k = 0; k < NDIAG; k++)
    outcome_free(&reference[k]);
  if (failures) return 1;
  printf("test_determinism: ok (%d diagrams alone, twice, then in %d threads "
         "x %d rounds)\n",
         NDIAG, NTHREADS, ROUNDS);
  return 0;
}
