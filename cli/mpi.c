/*
 * `blocksim sweep --mpi`, when built with MPI: rank 0 holds the study and
 * hands out members in small chunks on request, to its own worker threads
 * and to every other rank, so that fast ranks take more (dynamic load
 * balancing); the other ranks run their chunks in their own threads and
 * send each member's record back. Only a rank's main thread calls MPI
 * (MPI_THREAD_FUNNELED). A worker told there is no more work finishes what
 * it has, sends it, then says it is done; MPI keeps the order of one
 * sender's messages, so rank 0 has every result of a rank that said so.
 * The command's optional mpi module (modules/module.h): built when MPI is
 * found, loaded by sweep.c only for --mpi, so that no other command loads
 * MPI; it calls back into the command (bsim_cli_*), which exports them.
 */
#include "cli/sweep.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_REQUEST = 1, TAG_WORK = 2, TAG_RESULT = 3, TAG_FINISHED = 4 };
/* Members per chunk: small enough to balance, large enough that messages
 * stay a small part of a member's cost. */
enum { CHUNK = 4 };

typedef struct master {
  sweep_run *r;
  long *todo;
  long n, pos;
  int ranks, active; /* other ranks not finished */
  long *per_rank;    /* members each rank ran */
  int closed;
} master;

/* The next chunk of members: count (0 when none are left). */
static int next_chunk(master *m, long *chunk) {
  int k = 0;
  while (k < CHUNK && m->pos < m->n)
    chunk[k++] = m->todo[m->pos++];
  return k;
}

static int master_done(void *ctx, long member, void *rec, size_t len,
                       int failed) {
  master *m = ctx;
  m->per_rank[0]++;
  return bsim_cli_sweep_done(m->r, member, rec, len, failed);
}

/* Serve the other ranks and keep the local threads fed. */
static int master_idle(void *ctx, bsim_pool *p) {
  master *m = ctx;
  int flag = 1;
  MPI_Status st;
  while (MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st) ==
             MPI_SUCCESS &&
         flag) {
    if (st.MPI_TAG == TAG_RESULT) {
      int len;
      MPI_Get_count(&st, MPI_BYTE, &len);
      void *rec = malloc((size_t)len + 1);
      if (!rec) return -1;
      MPI_Recv(rec, len, MPI_BYTE, st.MPI_SOURCE, TAG_RESULT, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      m->per_rank[st.MPI_SOURCE]++;
      if (bsim_cli_sweep_done(m->r, -1, rec, (size_t)len, 0) != 0) return -1;
    } else if (st.MPI_TAG == TAG_FINISHED) {
      MPI_Recv(NULL, 0, MPI_BYTE, st.MPI_SOURCE, TAG_FINISHED, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      m->active--;
    } else {
      long chunk[CHUNK];
      MPI_Recv(NULL, 0, MPI_BYTE, st.MPI_SOURCE, TAG_REQUEST, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      int k = next_chunk(m, chunk);
      MPI_Send(chunk, k, MPI_LONG, st.MPI_SOURCE, TAG_WORK, MPI_COMM_WORLD);
    }
  }
  int jobs = m->r->a->jobs;
  while (m->pos < m->n && bsim_pool_pending(p) < (size_t)(2 * jobs)) {
    long chunk[CHUNK];
    int k = next_chunk(m, chunk);
    if (bsim_pool_push(p, chunk, (size_t)k) != 0) return -1;
  }
  if (!m->closed && m->pos == m->n && m->active == 0) {
    bsim_pool_close(p);
    m->closed = 1;
  }
  return bsim_cli_sweep_idle(m->r, p);
}

/* After a failure: answer every request with "no more" until every rank
 * has finished, dropping their results. */
static void release_workers(master *m) {
  while (m->active > 0) {
    MPI_Status st;
    MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    int len;
    MPI_Get_count(&st, MPI_BYTE, &len);
    void *buf = malloc((size_t)len + 1);
    MPI_Recv(buf, len, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    free(buf);
    if (st.MPI_TAG == TAG_REQUEST)
      MPI_Send(NULL, 0, MPI_LONG, st.MPI_SOURCE, TAG_WORK, MPI_COMM_WORLD);
    else if (st.MPI_TAG == TAG_FINISHED)
      m->active--;
  }
}

static int run_master(sweep_run *r, int ranks) {
  master m = {r, NULL, 0, 0, ranks, ranks - 1, NULL, 0};
  int rc = bsim_cli_sweep_open(r);
  if (rc == 0) {
    m.todo = bsim_cli_todo(r, &m.n);
    m.per_rank = calloc((size_t)ranks, sizeof(long));
    rc = m.todo && m.per_rank ? 0 : -1;
  }
  bsim_pool *p = rc == 0 ? bsim_pool_create(r->sw, r->a->jobs, r->err) : NULL;
  if (p) bsim_pool_set_poll(p, 1); /* requests must not wait */
  if (rc == 0 && p)
    rc = bsim_pool_wait(p, master_done, master_idle, &m);
  else
    rc = -1;
  bsim_pool_free(p);
  release_workers(&m);
  if (rc != 0 && r->err->status == BSIM_OK)
    bsim_error_set(r->err, BSIM_ERR_SIM, "the sweep stopped: out of memory");
  int status = r->st ? bsim_cli_sweep_end(r, rc) : bsim_cli_report(r->err);
  if (r->a->progress && m.per_rank) {
    fprintf(stderr, "members per rank:");
    for (int k = 0; k < ranks; k++)
      fprintf(stderr, " %d:%ld", k, m.per_rank[k]);
    fputc('\n', stderr);
  }
  free(m.todo);
  free(m.per_rank);
  return status;
}

typedef struct worker {
  int finished;
  int jobs;
} worker;

static int worker_done(void *ctx, long member, void *rec, size_t len,
                       int failed) {
  (void)ctx;
  (void)member;
  (void)failed;
  MPI_Send(rec, (int)len, MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD);
  free(rec);
  return 0;
}

static int worker_idle(void *ctx, bsim_pool *p) {
  worker *w = ctx;
  if (w->finished || bsim_pool_pending(p) >= (size_t)(2 * w->jobs)) return 0;
  long chunk[CHUNK];
  MPI_Status st;
  int k;
  MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_REQUEST, MPI_COMM_WORLD);
  MPI_Recv(chunk, CHUNK, MPI_LONG, 0, TAG_WORK, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, MPI_LONG, &k);
  if (k == 0) {
    w->finished = 1;
    bsim_pool_close(p);
    return 0;
  }
  return bsim_pool_push(p, chunk, (size_t)k);
}

static int run_worker(sweep_run *r) {
  worker w = {0, r->a->jobs};
  bsim_pool *p = bsim_pool_create(r->sw, r->a->jobs, r->err);
  if (p) bsim_pool_set_poll(p, 1); /* ask for more as soon as it runs low */
  int rc = p ? bsim_pool_wait(p, worker_done, worker_idle, &w) : -1;
  bsim_pool_free(p);
  /* every result is sent: say so (rank 0 waits for it) */
  MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_FINISHED, MPI_COMM_WORLD);
  return rc ? bsim_cli_report(r->err) : 0;
}

int bsim_cli_sweep_mpi(sweep_run *r) {
  int provided, rank, ranks;
  if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) !=
      MPI_SUCCESS) {
    bsim_error_set(r->err, BSIM_ERR_SIM, "--mpi: MPI could not start");
    return bsim_cli_report(r->err);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (rank != 0) ((sweep_args *)r->a)->progress = 0;
  int status = rank == 0 ? run_master(r, ranks) : run_worker(r);
  MPI_Finalize();
  return status;
}
