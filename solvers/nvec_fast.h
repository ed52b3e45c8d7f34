/*
 * Optimised kernels for the serial N_Vector of the SUNDIALS engines.
 * Debian's libsundials 6.4.1 is compiled without optimisation (its
 * N_VLinearSum_Serial spends about 22 instructions per element), and the
 * integrators spend much of a small system's time in vector operations:
 * these replace the hottest entries of a vector's operation table with
 * the same arithmetic compiled with the project's flags. Vectors SUNDIALS
 * clones from it inherit the table.
 *
 * Internal to solvers/: not part of the public API.
 */
#ifndef BSIM_SOLVERS_NVEC_FAST_H
#define BSIM_SOLVERS_NVEC_FAST_H

#include <sundials/sundials_nvector.h>

/* Install the kernels in v's operation table (v is a serial vector). */
void bsim_nvec_fast(N_Vector v);

#endif
