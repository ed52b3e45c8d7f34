/*
 * Batch runs of one diagram: designs (which parameter values each member
 * of a study gets), sweeps (a diagram compiled once, members run from it
 * in worker threads), and study files (every member's results in one
 * HDF5 file or one folder of CSV files, resumable after a kill). What
 * `blocksim sweep` and `blocksim merge` are made of; docs/batch.md
 * describes the files.
 *
 * The library's rules hold: reentrant, never prints, never exits, errors
 * in a bsim_error; progress comes back through a callback.
 */
#ifndef BLOCKSIM_BATCH_H
#define BLOCKSIM_BATCH_H

#include <stddef.h>

#include "blocksim.h"
#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Designs                                                             */
/* ------------------------------------------------------------------ */

typedef struct bsim_design bsim_design;

typedef enum {
  BSIM_DESIGN_GRID = 0,   /* every combination of the lists */
  BSIM_DESIGN_ZIP = 1,    /* the lists side by side (same lengths) */
  BSIM_DESIGN_RANDOM = 2, /* n independent draws of the distributions */
  BSIM_DESIGN_LHS = 3     /* a Latin hypercube of n points */
} bsim_design_kind;

BSIM_API bsim_design *bsim_design_create(bsim_error *err);
BSIM_API void bsim_design_free(bsim_design *d);

/* A parameter (an override target as -p takes it) and what it takes:
 * for GRID and ZIP an expression giving its values ("linspace(0,1,100)",
 * "[0.5 0.7 0.9]", "1:3"); for RANDOM and LHS a distribution,
 * "uniform(a,b)" or "normal(m,s)" (LHS stratifies each over its
 * quantiles). 0, or -1 with err set (status 2: bad expression or
 * distribution, repeated target). */
BSIM_API int bsim_design_param(bsim_design *d, const char *target,
                               const char *spec, bsim_error *err);
/* Build the members. n: the number of draws for RANDOM and LHS (ignored
 * otherwise); seed: the generator's seed (GSL's MT19937), so that the same
 * arguments give the same members. 0, or -1 with err set. */
BSIM_API int bsim_design_build(bsim_design *d, bsim_design_kind kind, long n,
                               unsigned long seed, bsim_error *err);
/* Members from a CSV file instead: a header of targets, then one member
 * per row, each value an expression given to the override as written. */
BSIM_API int bsim_design_read_manifest(bsim_design *d, const char *path,
                                       bsim_error *err);

BSIM_API long bsim_design_members(const bsim_design *d);
BSIM_API int bsim_design_params(const bsim_design *d);
BSIM_API const char *bsim_design_target(const bsim_design *d, int j);
/* Member i's value for parameter j: the text given to the override
 * (numbers as %.17g, which round-trips). */
BSIM_API const char *bsim_design_value(const bsim_design *d, long i, int j);

/* ------------------------------------------------------------------ */
/* Sweeps                                                              */
/* ------------------------------------------------------------------ */

typedef struct bsim_sweep bsim_sweep;

/* Compile d once (bsim_sim_create with o) for the members of the design.
 * d, design, lib and what o points to must outlive the sweep and stay
 * unchanged; path is the
 * diagram's file, loaded again (with lib) for a member whose overrides
 * change the structure, which is then compiled on its own. NULL with err
 * set when the diagram itself does not compile. */
BSIM_API bsim_sweep *bsim_sweep_create(const bsim_diagram *d, const char *path,
                                       const bsim_library *lib,
                                       const bsim_options *o,
                                       const bsim_design *design,
                                       bsim_error *err);
BSIM_API void bsim_sweep_free(bsim_sweep *sw);
/* Overrides every member shares, already applied to the diagram given to
 * bsim_sweep_create (`blocksim sweep -p`): a member compiled on its own
 * loads the file again and applies them first, then its own. Copied. 0,
 * or -1 out of memory. */
BSIM_API int bsim_sweep_fixed(bsim_sweep *sw, const char *const *targets,
                              const char *const *values, int n);

/* The sample times and observed column names every member shares. */
BSIM_API size_t bsim_sweep_rows(const bsim_sweep *sw);
BSIM_API const double *bsim_sweep_times(const bsim_sweep *sw);
BSIM_API size_t bsim_sweep_cols(const bsim_sweep *sw);
BSIM_API const char *bsim_sweep_name(const bsim_sweep *sw, size_t c);
/* The diagram file given to bsim_sweep_create. */
BSIM_API const char *bsim_sweep_diagram(const bsim_sweep *sw);

/* Run member i (thread-safe: any number at once): its results, or its
 * failure and message, as an encoded record (malloc'ed; free with free())
 * for bsim_study_add. *failed is 0, or the member's status (1 the
 * simulation failed, 2 its overrides are bad input). NULL only out of
 * memory. */
BSIM_API void *bsim_sweep_member(bsim_sweep *sw, long i, size_t *len,
                                 int *failed);

/* ------------------------------------------------------------------ */
/* Studies: the output of a sweep                                      */
/* ------------------------------------------------------------------ */

typedef struct bsim_study bsim_study;

/* Open the output of a sweep (or of one shard of it): an HDF5 file
 * (format H5) or a folder of CSV files (format CSV). fingerprint names the
 * arguments that fix every member's results (diagram, settings, design,
 * shard): a study left by a killed sweep with the same fingerprint is
 * resumed, its completed members kept; with another one it is refused.
 * A complete study with the same fingerprint opens as complete. shard and
 * shards (1-based I of N, or 0 and 0) are recorded in the file. NULL with
 * err set. */
BSIM_API bsim_study *bsim_study_open(const char *path, bsim_format format,
                                     const bsim_sweep *sw,
                                     const bsim_design *design,
                                     const char *fingerprint, int shard,
                                     int shards, bsim_error *err);
/* Member i is already in the study (done before a resume). */
BSIM_API int bsim_study_has(const bsim_study *st, long i);
/* Add a member's record (bsim_sweep_member or an MPI message). 0, or -1
 * with err set. */
BSIM_API int bsim_study_add(bsim_study *st, const void *rec, size_t len,
                            bsim_error *err);
/* Members added so far (with those found on resume), and how many
 * failed. */
BSIM_API long bsim_study_done(const bsim_study *st, long *failed);
/* Write the summary and make the output final (the HDF5 file renamed into
 * place, the journal removed). 0, or -1 with err set. */
BSIM_API int bsim_study_finish(bsim_study *st, bsim_error *err);
/* Close; an unfinished study keeps its journal for a resume. */
BSIM_API void bsim_study_free(bsim_study *st);

/* Join the outputs of the shards of one sweep into one study, the same
 * (member for member, number for number) as the whole sweep writes. All
 * inputs must be complete shards of the same sweep, in one format. 0, or
 * -1 with err set (status 2 for inputs that do not fit together). */
BSIM_API int bsim_study_merge(const char *out, const char *const *inputs, int n,
                              bsim_error *err);

/* ------------------------------------------------------------------ */
/* Worker pools                                                        */
/* ------------------------------------------------------------------ */

typedef struct bsim_pool bsim_pool;

/* Threads running members of sw. */
BSIM_API bsim_pool *bsim_pool_create(bsim_sweep *sw, int threads,
                                     bsim_error *err);
/* Queue members to run. 0, or -1 out of memory. */
BSIM_API int bsim_pool_push(bsim_pool *p, const long *members, size_t n);
/* No more members will be pushed: bsim_pool_wait returns once the queued
 * ones are done. */
BSIM_API void bsim_pool_close(bsim_pool *p);
/* How often (ms, default 50) bsim_pool_wait calls idle when nothing
 * finishes: lower for a loop that must answer others (MPI rank 0). */
BSIM_API void bsim_pool_set_poll(bsim_pool *p, int ms);
/* Members queued or running. */
BSIM_API size_t bsim_pool_pending(bsim_pool *p);

/* On the calling thread: hand each finished member's record to done (which
 * takes ownership: free it with free()), and call idle at least every poll
 * (idle may push more members or close the pool), until the pool is closed
 * and empty. A nonzero return from either stops early: the members still
 * queued are dropped, running ones finish and are discarded. Returns 0,
 * or the first nonzero value of done or idle. */
BSIM_API int bsim_pool_wait(bsim_pool *p,
                            int (*done)(void *ctx, long member, void *rec,
                                        size_t len, int failed),
                            int (*idle)(void *ctx, bsim_pool *p), void *ctx);
BSIM_API void bsim_pool_free(bsim_pool *p);

#ifdef __cplusplus
}
#endif
#endif
