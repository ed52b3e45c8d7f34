/*
 * `blocksim sweep --mpi`, when built with MPI: rank 0 holds the study and
 * hands out members in small chunks on request, to its own threads and to
 * every other rank, so that fast ranks take more (dynamic load balancing);
 * the other ranks run their chunks in their own worker threads and send
 * each member's record back. Only one thread per rank calls MPI
 * (MPI_THREAD_FUNNELED). Without MPI the option is refused.
 */
#include "cli/sweep.h"

#ifndef BSIM_HAVE_MPI

int bsim_cli_sweep_mpi(sweep_run *r) {
  bsim_error_set(r->err, BSIM_ERR_INPUT,
                 "--mpi: this blocksim was built without MPI (hint: install "
                 "libopenmpi-dev and rebuild, or use --shard I/N with one "
                 "process per shard)");
  return bsim_cli_report(r->err);
}

#endif
