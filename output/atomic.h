/*
 * Result files appear whole or not at all, and never damage what the path
 * names: a regular file (or a missing one) is written under a temporary
 * name in its folder and renamed over it only when complete, keeping the
 * existing file's permissions; a symbolic link is followed, so the file it
 * points to is replaced and the link stays; anything else (a device such as
 * /dev/null, a FIFO, a terminal) is written in place, since renaming over it
 * would replace the device by a regular file.
 */
#ifndef BSIM_ATOMIC_H
#define BSIM_ATOMIC_H

#include <stdio.h>

typedef struct bsim_atomic {
  FILE *f;
  char *target; /* the path written at commit (symbolic links resolved) */
  char *tmp;    /* temporary name, NULL when writing in place */
} bsim_atomic;

/* Open for writing. keep: a file that must not be written over (the
 * diagram being run), or NULL. 0; -1 with errno set; -2 when path is keep
 * (or a link to it). */
int bsim_atomic_open(bsim_atomic *a, const char *path, const char *keep);
/* Close the stream; 0 when everything was written, else -1 (errno set).
 * The temporary stays until commit or discard. */
int bsim_atomic_finish(bsim_atomic *a);
/* Rename the temporary over the target (nothing for in-place writes), then
 * release a. 0, or -1 with errno set. */
int bsim_atomic_commit(bsim_atomic *a);
/* Close if still open, remove the temporary, release a. Keeps errno. */
void bsim_atomic_discard(bsim_atomic *a);

/* One file in one go: open, finish, commit if ok, else discard. 0, or -1
 * (errno set). */
int bsim_atomic_close(bsim_atomic *a, int ok);

#endif
