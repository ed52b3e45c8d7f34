/*
 * blocksim's optional modules. The parts that need a large library - HDF5
 * and MAT files, plots (cairo), .zcos archives (libzip), MATEIG (LAPACK),
 * the klu linear solver (KLU) and `sweep --mpi` (MPI) - live in shared
 * objects of their own, loaded the first time a program needs them, so
 * that a command pays at start-up only for the libraries every run uses
 * (docs/architecture.md, "Optional modules"). This header is the one door
 * to them; it needs nothing but libc, and every folder may include it.
 */
#ifndef BSIM_MODULE_H
#define BSIM_MODULE_H

#include "blocksim/error.h"

/* What each module exports to the loader (besides its version string,
 * modules/version.c): its entry point, bsim_module_<name>, giving its
 * descriptor, a const table of functions that lives as long as the
 * process. The tables' types are declared next to the code that uses
 * them. In the static library every module is linked in, and these are
 * called directly (modules/static.c). */
#define BSIM_MODULE_EXPORT __attribute__((visibility("default")))
typedef const void *(*bsim_module_entry)(void);
BSIM_MODULE_EXPORT const void *bsim_module_hdf5(void);
BSIM_MODULE_EXPORT const void *bsim_module_mat(void);
BSIM_MODULE_EXPORT const void *bsim_module_plot(void);
BSIM_MODULE_EXPORT const void *bsim_module_zcos(void);
BSIM_MODULE_EXPORT const void *bsim_module_lapack(void);
BSIM_MODULE_EXPORT const void *bsim_module_klu(void);

/* Module `name`'s descriptor (its entry point called): NULL with err set
 * when it is missing or unusable - status 2, saying that `what` needs the
 * module ("the HDF5 format"), which file was tried, why it failed and
 * what to do. Cheap after the first call: a loaded module stays loaded. */
const void *bsim_module(const char *name, const char *what, bsim_error *err);

/* The address of `symbol` in module `name`, loading it if needed; `what`
 * (may be NULL) as above. modules/dynamic.c or modules/static.c, whichever
 * the library was built with; bsim_module_symbol (blocksim.h) is this
 * without `what`. */
void *bsim_module_lookup(const char *name, const char *symbol, const char *what,
                         bsim_error *err);

#endif
