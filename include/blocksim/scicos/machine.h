/*
 * Xcos's machine.h, which the code of a c_block includes (its template
 * starts with #include <machine.h>): the Fortran name macros such code may
 * use. Nothing of blocksim needs it.
 */
#ifndef BLOCKSIM_SCICOS_MACHINE_H
#define BLOCKSIM_SCICOS_MACHINE_H

/* A Fortran routine's C name: a trailing underscore, as gfortran makes. */
#define C2F(name) name##_
#define F2C(name) name##_

#endif
