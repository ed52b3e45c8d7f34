/*
 * The native writer (write.c), behind bsim_diagram_to_native (which lives
 * with the sim, scheduler/convert.c, since it asks a prepared run which
 * blocks fell back on their stored model and which engine it uses).
 */
#ifndef BSIM_WRITE_H
#define BSIM_WRITE_H

#include <stddef.h>

#include "diagrams/flat.h"

/* d in the native format. flat (NULL allowed): d flattened, whose blocks
 * flagged `stored` are written with their model; solver: the engine to
 * name (NULL: the diagram's). *text malloc'ed, NUL-terminated. 0, or -1
 * with err set (status 2 for what the format cannot express). */
int dg_write_native(const bsim_diagram *d, const bsim_flat *flat,
                    const char *solver, char **text, size_t *len,
                    bsim_error *err);

#endif
