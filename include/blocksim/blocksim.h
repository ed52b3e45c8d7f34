/*
 * The embedding API: load a diagram, configure a run, run it, read results.
 *
 * Everything is reentrant: no global state, every object owned by whoever
 * created it (_create / _free, _load / _free), errors reported through a
 * bsim_error the caller passes in. The library never prints to stdout and
 * never calls exit().
 */
#ifndef BLOCKSIM_BLOCKSIM_H
#define BLOCKSIM_BLOCKSIM_H

#include <signal.h>
#include <stddef.h>

#include "block.h"
#include "error.h"
#include "library.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Process-wide set-up, for programs (not libraries) to call once at
 * start, before any thread loads a diagram: turns GSL's abort-on-error
 * handler off (failures then come back as errors) and initialises
 * libxml2's parser and RELAX NG type tables, whose first use is not
 * thread-safe. blocksim itself never changes process-wide state; this is
 * the host program's decision. */
void bsim_process_init(void);

/* ------------------------------------------------------------------ */
/* Diagrams                                                            */
/* ------------------------------------------------------------------ */

typedef struct bsim_diagram bsim_diagram;

/* Parse and validate a native XML diagram, whose block types are looked up
 * in lib. The diagram, and every sim or analysis made from it, keeps lib:
 * free lib only after them. NULL on error (err says why). */
bsim_diagram *bsim_diagram_load(const char *path, const bsim_library *lib,
                                bsim_error *err);
void bsim_diagram_free(bsim_diagram *d);

/* Override before running: "outer/inner/block.param" sets a block parameter,
 * a bare "name" a top-level context variable. value is an expression. */
int bsim_diagram_override(bsim_diagram *d, const char *target,
                          const char *value, bsim_error *err);

/* The run-time model a block type builds from its default parameters
 * (ports, sizes, states), for documentation. 0, or -1 with err set when a
 * type has required parameters without defaults. Release with
 * bsim_model_clear. */
int bsim_block_type_default_model(const bsim_block_type *t, bsim_model *m,
                                  bsim_error *err);

/* ------------------------------------------------------------------ */
/* Runs                                                                */
/* ------------------------------------------------------------------ */

typedef enum { BSIM_SPACING_LINEAR = 0, BSIM_SPACING_LOG = 1 } bsim_spacing;

/* The range of the number of sample times, wherever it comes from (the
 * file's <output samples>, --samples, bsim_options.samples): beyond it the
 * results alone would need gigabytes. */
#define BSIM_MIN_SAMPLES 2L
#define BSIM_MAX_SAMPLES 100000000L

/* Run settings: the diagram's <simulation>/<output> values unless set here.
 * A field left at its "unset" value (negative number, NULL) keeps the
 * diagram's. */
typedef struct bsim_options {
  double final_time;
  double rtol;
  double atol;
  long samples;
  int spacing; /* -1 = diagram's, else bsim_spacing */
  const char *solver;
  /* Chattering guard: the run stops (status 1) after more than
   * max_events_per_instant events at one time instant, or after
   * max_fast_restarts cold restarts in a row each closer to the previous
   * than the engine's minimum step. */
  long max_events_per_instant; /* default 1000 */
  long max_fast_restarts;      /* default 100 */
  /* Solver parameters as name=value text (nsolver_params of each), e.g.
   * "linear-solver" = "klu". They replace the diagram's <solver-param> of
   * the same name; the diagram's are dropped when `solver` names another
   * engine than the diagram's. Checked by bsim_sim_create. */
  const char *const *solver_param_names;
  const char *const *solver_param_values;
  int nsolver_params;
} bsim_options;

void bsim_options_init(bsim_options *o);

/* The solvers (engines) the library knows, for help texts: the i-th name
 * and one-line summary, or NULL past the end. The first is the default. */
const char *bsim_solver_at(size_t i, const char **summary);

/* Documentation of the solver's i-th parameter; type is "int", "real" or
 * "choice" (then choices is "a|b|c", else NULL). 0, or -1 past the end or
 * for an unknown solver. */
typedef struct bsim_solver_param_doc {
  const char *name, *type, *default_value, *choices, *doc;
} bsim_solver_param_doc;
int bsim_solver_param_at(const char *solver, size_t i,
                         bsim_solver_param_doc *out);

typedef struct bsim_sim bsim_sim;

/* Flatten and compile: after this the system's size is known. The sim keeps
 * no reference to d, which may be freed (or overridden and used for
 * another sim) right after. */
bsim_sim *bsim_sim_create(const bsim_diagram *d, const bsim_options *o,
                          bsim_error *err);
void bsim_sim_free(bsim_sim *s);

/* Another run of a compiled sim, for parameter studies: it shares
 * everything compile and the settings produced with `base` (which must
 * outlive it) and has its own run state and results, so that base and any
 * number of derived sims may run at the same time in different threads.
 *
 * The n overrides (targets[i] = values[i], as bsim_diagram_override takes
 * them: "path/block.param" or a context variable) apply to this run only:
 * d, which must be the diagram base was created from, unchanged, is read,
 * never written. Parameters are evaluated again with them, and only the
 * blocks whose evaluated parameters change run their define step again;
 * their new rpar, ipar, opar, x0, z0 and initial firing times go to this
 * run. Results are bit-identical to a sim created from d with the same
 * overrides applied.
 *
 * An override that would change the compiled structure (port sizes,
 * numbers of states, surfaces, modes or events, feedthrough, time
 * dependence, simulation function) is refused: NULL with status
 * BSIM_ERR_INPUT and *structural = 1 (structural may be NULL); such a
 * variant needs its own bsim_sim_create. Other bad overrides give NULL
 * with *structural = 0. */
bsim_sim *bsim_sim_derive(const bsim_sim *base, const bsim_diagram *d,
                          const char *const *targets, const char *const *values,
                          int n, int *structural, bsim_error *err);

typedef struct bsim_system_info {
  int blocks;    /* leaf blocks after flattening */
  int states;    /* differential unknowns */
  int algebraic; /* algebraic unknowns (torn loop signals, implicit states) */
  int zero_crossings;
  int links;
} bsim_system_info;

void bsim_sim_info(const bsim_sim *s, bsim_system_info *info);

/* Run to the final time. Results are kept in the sim until freed. */
int bsim_sim_run(bsim_sim *s, bsim_error *err);

/* Results: the observed signals (one column per scalar; a vector signal x
 * of size n gives columns x[1]..x[n]) at the sample times. */
size_t bsim_result_rows(const bsim_sim *s);
size_t bsim_result_cols(const bsim_sim *s); /* not counting time */
const char *bsim_result_name(const bsim_sim *s, size_t col);
const double *bsim_result_times(const bsim_sim *s);
/* Row-major: value of column c at row r is data[r * cols + c]. */
const double *bsim_result_data(const bsim_sim *s);

/* Run statistics, as name/value pairs in kebab-case (steps,
 * residual-evals, ...). Returns NULL past the end. */
const char *bsim_stat_at(const bsim_sim *s, size_t i, double *value);

/* Sink records (CSCOPE, CMSCOPE, ...): one per sink block that recorded
 * rows or named its columns (a sink never activated has a record without
 * rows). Returns the block path, or NULL past the end; *data holds rows of
 * (t, values), cols values each. */
const char *bsim_record_at(const bsim_sim *s, size_t i, size_t *rows, int *cols,
                           const double **data);
/* The column names of record i, comma-separated (Xcos's recorder names:
 * "u1_1,u1_2", "ev1", ...), or NULL when the sink gave none (u1..un). */
const char *bsim_record_names(const bsim_sim *s, size_t i);

/* What bsim_sim_write writes; every field may be left NULL. */
typedef struct bsim_write_options {
  /* Results as CSV (header "time,<names>", %.17g) to this file, or, when
   * NULL, to csv_stream (a FILE *) if that is not NULL. */
  const char *csv_path;
  void *csv_stream;
  /* Sink records as DIR/<block path>.csv ("time,<column names>"), folders
   * for superblock paths. Path components that are not safe file names ("."
   * or "..", a leading '-', control characters, '%', '\\') are written as
   * %XX, so no record lands outside DIR. */
  const char *scopes_dir;
  /* A file never to write over (the diagram being run): naming it, or a
   * link to it, as an output is bad input. */
  const char *keep;
  /* Polled while writing: when it becomes nonzero (a signal handler sets
   * it) every temporary is removed and the call fails. */
  const volatile sig_atomic_t *cancel;
} bsim_write_options;

void bsim_write_options_init(bsim_write_options *o);

/* Write the outputs all or nothing. Each file is written under a temporary
 * name in its folder, then the results go to the stream, and only when
 * everything succeeded are the temporaries renamed over their targets. A
 * regular target keeps its permissions; a symbolic link is followed (the
 * file it names is replaced, the link stays); a target that is not a
 * regular file (/dev/null, a FIFO) is written in place, never replaced.
 * On failure no result file is left (status 2 when a path cannot be
 * created, 1 when writing fails or is cancelled). Returns 0; 1 when
 * the stream's reader went away (EPIPE, as with `| head`): the rest of the
 * CSV was dropped but the files were written; -1 on error. */
int bsim_sim_write(const bsim_sim *s, const bsim_write_options *o,
                   bsim_error *err);

/* bsim_sim_write of the records alone, into DIR. 0 or -1. */
int bsim_records_write_csv(const bsim_sim *s, const char *dir, bsim_error *err);

/* bsim_sim_write of the results alone: to path, or to the FILE* out when
 * path is NULL. Returns as bsim_sim_write. */
int bsim_result_write_csv(const bsim_sim *s, const char *path, void *out_file,
                          bsim_error *err);

/* ------------------------------------------------------------------ */
/* System analysis (scheduler/analyze.c, `blocksim analyze/linearize`) */
/* ------------------------------------------------------------------ */

typedef struct bsim_analysis bsim_analysis;

/* Analyse the system F(t, y, y') = 0 of a diagram at its consistent
 * initial point (at <= 0) or at time `at` (the run goes there, past the
 * diagram's final time if need be). Jacobians are central finite
 * differences of the residual; the structural check, the index check and
 * the eigenvalues of the reduced Jacobian are computed here. When no
 * consistent point can be found the analysis goes on at the initial guess
 * and bsim_analysis_note says so. NULL on error (err says why). */
bsim_analysis *bsim_analysis_create(const bsim_diagram *d,
                                    const bsim_options *o, double at,
                                    bsim_error *err);
void bsim_analysis_free(bsim_analysis *a);

double bsim_analysis_time(const bsim_analysis *a);
const char *bsim_analysis_note(const bsim_analysis *a); /* "" when consistent */

/* Unknowns y = [yd; ya] (nd differential, na algebraic), equations
 * F = [f; g] in the same order. Returns nd + na. */
int bsim_analysis_size(const bsim_analysis *a, int *nd, int *na);
/* "PATH.x[k]" (state k of a block) or "PATH:PORT" / "PATH:PORT[k]" (a
 * torn loop signal); equations "PATH.f[k]" and "PATH:PORT.g". */
const char *bsim_analysis_unknown(const bsim_analysis *a, int j);
const char *bsim_analysis_equation(const bsim_analysis *a, int i);
/* Interface name of the block unknown / equation j comes from. */
const char *bsim_analysis_block_type(const bsim_analysis *a, int j);
/* dF/dy (wrt_yp = 0) or dF/dy' (wrt_yp = 1): n x n, row-major. */
const double *bsim_analysis_jacobian(const bsim_analysis *a, int wrt_yp);

/* Structural rank (size of a maximum matching of equations to unknowns
 * over [dF/dyd' dF/dya]); *message names what is unmatched ("" when the
 * rank is n). */
int bsim_analysis_structural_rank(const bsim_analysis *a, const char **message);
/* Numerical rank of dg/dya (na when the index is at most 1), the
 * threshold used, and a message naming the blocks when it is lower. */
int bsim_analysis_algebraic_rank(const bsim_analysis *a, double *threshold,
                                 const char **message);
/* Eigenvalues of dyd'/dyd (nd of them, sorted by real part), or -1 when
 * the algebraic unknowns cannot be eliminated (higher index). */
int bsim_analysis_eigenvalues(const bsim_analysis *a, const double **re,
                              const double **im);
/* The reduced Jacobian dyd'/dyd (nd x nd, row-major) or NULL. */
const double *bsim_analysis_reduced(const bsim_analysis *a);
/* 0 stable (all Re < 0), 1 marginal, 2 unstable, 3 unknown; *stiffness =
 * max |Re| / min |Re| over the eigenvalues with Re < 0 (0 if none). */
int bsim_analysis_stability(const bsim_analysis *a, double *stiffness);

/* DIR/dFdy.mtx, DIR/dFdyp.mtx (MatrixMarket) and DIR/unknowns.txt; DIR is
 * created if missing. */
int bsim_analysis_export_jacobian(const bsim_analysis *a, const char *dir,
                                  bsim_error *err);

/* Linearize about the analysis point: x' = A x + B u, y = C x + D u.
 * inputs are output ports "PATH:PORT" (or "PATH" for a block with one
 * output) whose value is treated as u; outputs are observe names or
 * output ports. 0, or -1 with err set (status 2 for an unknown signal). */
int bsim_analysis_linearize(bsim_analysis *a, const char *const *inputs,
                            int ninputs, const char *const *outputs,
                            int noutputs, bsim_error *err);
/* which = 'A', 'B', 'C' or 'D': row-major, *rows x *cols; NULL before
 * bsim_analysis_linearize. */
const double *bsim_analysis_matrix(const bsim_analysis *a, char which,
                                   int *rows, int *cols);
/* Scalar input / output k (vector ports give NAME[i]); NULL past the end. */
const char *bsim_analysis_input(const bsim_analysis *a, int k);
const char *bsim_analysis_output(const bsim_analysis *a, int k);
/* DIR/A.mtx .. DIR/D.mtx, DIR/inputs.txt, DIR/outputs.txt. */
int bsim_analysis_export_linear(const bsim_analysis *a, const char *dir,
                                bsim_error *err);

#ifdef __cplusplus
}
#endif
#endif
