/*
 * What `blocksim sweep` shares between its local run (sweep.c) and its
 * MPI run (mpi.c): the parsed arguments and the state of a run.
 */
#ifndef BSIM_CLI_SWEEP_H
#define BSIM_CLI_SWEEP_H

#include "blocksim/batch.h"
#include "cli/cli.h"

typedef struct sweep_args {
  const char *diagram, *out, *manifest, *format;
  bsim_format fmt;
  const char **params, **fixed; /* --param TARGET=SPEC, -p TARGET=VALUE */
  int nparams, nfixed;
  bsim_design_kind kind;
  int zip, mpi, progress, jobs, shard, shards;
  long draws;
  unsigned long seed;
  bsim_options opt;
  char **sp_names;
  const char **sp_values;
  int nsp;
} sweep_args;

typedef struct sweep_run {
  const sweep_args *a;
  bsim_error *err;
  char fingerprint[32];
  bsim_diagram *d;
  bsim_design *design;
  bsim_sweep *sw;
  bsim_study *st;
  long total, done, done0, failed; /* of this shard; done0 at resume */
  double start, last_draw;
} sweep_run;

int bsim_cli_sweep_args_init(sweep_args *a, int argc);
/* Parse, load, build the design, compile: 0, or an exit status (the
 * error reported). */
int bsim_cli_sweep_prepare(const bsim_library *lib, int argc, char **argv,
                           sweep_args *a, sweep_run *r, bsim_error *err);
/* Open (or resume) the study: 0 or -1 with r->err set. */
int bsim_cli_sweep_open(sweep_run *r);
/* This shard's members the study lacks (malloc'ed, *n of them). */
long *bsim_cli_todo(const sweep_run *r, long *n);
/* Pool callbacks: add a member to the study; redraw, stop on a signal. */
int bsim_cli_sweep_done(void *ctx, long member, void *rec, size_t len,
                        int failed);
int bsim_cli_sweep_idle(void *ctx, bsim_pool *p);
void bsim_cli_progress(sweep_run *r, int final);
/* Finish the study (when rc is 0) and give the exit status. */
int bsim_cli_sweep_end(sweep_run *r, int rc);
void bsim_cli_sweep_release(sweep_run *r, sweep_args *a);

/* mpi.c, the command's mpi module: the sweep across MPI ranks. */
int bsim_cli_sweep_mpi(sweep_run *r);

#endif
