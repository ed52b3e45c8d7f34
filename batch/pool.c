/*
 * Worker pools: threads that take member numbers from a queue, run them
 * (bsim_sweep_member) and leave the records for the thread that waits,
 * which alone writes them out. The queue can be fed while the pool runs,
 * which is how an MPI rank receives work in chunks from rank 0 and how
 * rank 0 hands its own threads work between requests.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blocksim/batch.h"

typedef struct result {
  long member;
  void *rec;
  size_t len;
  int failed;
} result;

struct bsim_pool {
  bsim_sweep *sw;
  pthread_t *th;
  int nth;
  pthread_mutex_t mu;
  pthread_cond_t work, done;
  long *queue;
  size_t head, tail, cap; /* queue[head..tail) */
  size_t running;
  int closed, stopping;
  result *res;
  size_t nres, capres;
  int oom;
  int poll_ms;
};

static void *worker(void *arg) {
  bsim_pool *p = arg;
  pthread_mutex_lock(&p->mu);
  for (;;) {
    while (!p->stopping && p->head == p->tail && !p->closed)
      pthread_cond_wait(&p->work, &p->mu);
    if (p->stopping || p->head == p->tail) break;
    long member = p->queue[p->head++];
    p->running++;
    pthread_mutex_unlock(&p->mu);
    result r = {member, NULL, 0, 0};
    r.rec = bsim_sweep_member(p->sw, member, &r.len, &r.failed);
    pthread_mutex_lock(&p->mu);
    p->running--;
    if (p->nres == p->capres) {
      size_t cap = p->capres ? 2 * p->capres : 64;
      result *g = realloc(p->res, sizeof *g * cap);
      if (g) {
        p->res = g;
        p->capres = cap;
      }
    }
    if (r.rec && p->nres < p->capres)
      p->res[p->nres++] = r;
    else {
      free(r.rec);
      p->oom = 1;
    }
    pthread_cond_signal(&p->done);
  }
  pthread_cond_broadcast(&p->done);
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

bsim_pool *bsim_pool_create(bsim_sweep *sw, int threads, bsim_error *err) {
  bsim_pool *p = calloc(1, sizeof *p);
  if (threads < 1) threads = 1;
  if (!p || !(p->th = calloc((size_t)threads, sizeof(pthread_t)))) {
    free(p);
    bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
    return NULL;
  }
  p->sw = sw;
  p->poll_ms = 50;
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->work, NULL);
  pthread_cond_init(&p->done, NULL);
  for (int i = 0; i < threads; i++) {
    if (pthread_create(&p->th[i], NULL, worker, p) != 0) break;
    p->nth++;
  }
  if (p->nth == 0) {
    bsim_error_set(err, BSIM_ERR_SIM, "cannot start worker threads");
    bsim_pool_free(p);
    return NULL;
  }
  return p;
}

int bsim_pool_push(bsim_pool *p, const long *members, size_t n) {
  pthread_mutex_lock(&p->mu);
  int rc = 0;
  if (p->tail + n > p->cap && p->head > 0) {
    /* compact first: what was taken need not stay */
    memmove(p->queue, p->queue + p->head, sizeof(long) * (p->tail - p->head));
    p->tail -= p->head;
    p->head = 0;
  }
  if (p->tail + n > p->cap) {
    size_t cap = p->cap ? p->cap : 64;
    while (cap < p->tail + n)
      cap *= 2;
    long *g = realloc(p->queue, sizeof(long) * cap);
    if (g) {
      p->queue = g;
      p->cap = cap;
    } else {
      rc = -1;
    }
  }
  if (rc == 0 && n > 0) {
    memcpy(p->queue + p->tail, members, sizeof(long) * n);
    p->tail += n;
    pthread_cond_broadcast(&p->work);
  }
  pthread_mutex_unlock(&p->mu);
  return rc;
}

void bsim_pool_close(bsim_pool *p) {
  pthread_mutex_lock(&p->mu);
  p->closed = 1;
  pthread_cond_broadcast(&p->work);
  pthread_mutex_unlock(&p->mu);
}

void bsim_pool_set_poll(bsim_pool *p, int ms) {
  p->poll_ms = ms > 0 ? ms : 1;
}

size_t bsim_pool_pending(bsim_pool *p) {
  pthread_mutex_lock(&p->mu);
  size_t n = p->tail - p->head + p->running;
  pthread_mutex_unlock(&p->mu);
  return n;
}

static void deadline(struct timespec *ts, long ms) {
  clock_gettime(CLOCK_REALTIME, ts);
  ts->tv_nsec += ms * 1000000L;
  ts->tv_sec += ts->tv_nsec / 1000000000L;
  ts->tv_nsec %= 1000000000L;
}

int bsim_pool_wait(bsim_pool *p,
                   int (*done)(void *ctx, long member, void *rec, size_t len,
                               int failed),
                   int (*idle)(void *ctx, bsim_pool *p), void *ctx) {
  int rc = 0;
  result *batch = NULL;
  size_t nbatch = 0;
  for (;;) {
    pthread_mutex_lock(&p->mu);
    if (p->nres == 0 && !(p->closed && p->head == p->tail && p->running == 0)) {
      struct timespec ts;
      deadline(&ts, p->poll_ms);
      pthread_cond_timedwait(&p->done, &p->mu, &ts);
    }
    /* take what is there, and decide while still holding the lock */
    batch = p->res;
    nbatch = p->nres;
    p->res = NULL;
    p->nres = p->capres = 0;
    int finished = p->closed && p->head == p->tail && p->running == 0;
    int oom = p->oom;
    pthread_mutex_unlock(&p->mu);
    for (size_t i = 0; i < nbatch; i++) {
      if (rc == 0 && done)
        rc = done(ctx, batch[i].member, batch[i].rec, batch[i].len,
                  batch[i].failed);
      else
        free(batch[i].rec);
    }
    free(batch);
    if (rc == 0 && oom) rc = ENOMEM;
    if (rc == 0 && finished && nbatch == 0) break;
    if (rc == 0 && idle) rc = idle(ctx, p);
    if (rc != 0) {
      pthread_mutex_lock(&p->mu);
      p->stopping = 1;
      p->head = p->tail; /* drop the queue */
      pthread_cond_broadcast(&p->work);
      pthread_mutex_unlock(&p->mu);
      break;
    }
  }
  return rc;
}

void bsim_pool_free(bsim_pool *p) {
  if (!p) return;
  pthread_mutex_lock(&p->mu);
  p->stopping = 1;
  pthread_cond_broadcast(&p->work);
  pthread_mutex_unlock(&p->mu);
  for (int i = 0; i < p->nth; i++)
    pthread_join(p->th[i], NULL);
  for (size_t i = 0; i < p->nres; i++)
    free(p->res[i].rec);
  free(p->res);
  free(p->queue);
  free(p->th);
  pthread_mutex_destroy(&p->mu);
  pthread_cond_destroy(&p->work);
  pthread_cond_destroy(&p->done);
  free(p);
}
