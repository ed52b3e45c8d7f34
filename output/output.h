/*
 * What the writers of output/ share: the CSV bodies of the results and of
 * sink records, and the file names of records. write.c puts them together
 * into files that are committed all at once. Private to output/.
 */
#ifndef BSIM_OUTPUT_H
#define BSIM_OUTPUT_H

#include <signal.h>
#include <stdio.h>

#include "blocksim/blocksim.h"

/* Results as CSV: "time,<names>", one row per sample, each number the
 * shortest that reads back as the same double (dtoa.h). 0; -1 on a
 * write error (errno set); -2 when *cancel became nonzero. */
int bsim_out_results(const bsim_sim *s, FILE *out,
                     const volatile sig_atomic_t *cancel);
/* One record as CSV: "time," then names (u1,...,un when NULL or empty).
 * Same returns. */
int bsim_out_record(FILE *out, size_t rows, int cols, const char *names,
                    const double *data, const volatile sig_atomic_t *cancel);
/* DIR/<block path>.<ext> with every path component made safe to use as a
 * file name (see scopes.c); malloc'ed, NULL out of memory. */
char *bsim_out_record_path(const char *dir, const char *block_path,
                           const char *ext);

#endif
