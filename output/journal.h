/*
 * The journal of a sweep: an append-only file of finished members, so that
 * a sweep killed at any moment (kill -9 included) loses none of them. Each
 * record is written with one write(2) as [magic, length, CRC, bytes]; a
 * record torn by the kill fails its length or CRC check on reading and is
 * cut off, with everything after it. The first record is the sweep's
 * fingerprint: a journal started with other arguments is refused. Private
 * to output/.
 */
#ifndef BSIM_JOURNAL_H
#define BSIM_JOURNAL_H

#include <stddef.h>

#include "blocksim/blocksim.h"

typedef struct out_journal out_journal;

/* Open path, creating it with the fingerprint, or reading an existing
 * one: its valid records are then available through out_journal_next,
 * the torn tail removed. NULL with err set (status 2 for a journal of
 * other arguments or not a journal). */
out_journal *out_journal_open(const char *path, const char *fingerprint,
                              bsim_error *err);
/* The existing records in file order: 1 with *buf (owned by the journal,
 * valid until the next call), 0 at the end. */
int out_journal_next(out_journal *j, const void **buf, size_t *len);
/* Append one record: 0, or -1 with errno set. */
int out_journal_append(out_journal *j, const void *buf, size_t len);
/* Close, and remove the file when `remove` is set. */
void out_journal_close(out_journal *j, int remove);

#endif
