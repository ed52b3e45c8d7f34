/*
 * Result files appear whole or not at all: written under a temporary name
 * in the same folder, renamed over the target only when complete.
 */
#ifndef BSIM_ATOMIC_H
#define BSIM_ATOMIC_H

#include <stdio.h>

typedef struct bsim_atomic {
  FILE *f;
  char *tmp;
} bsim_atomic;

/* 0, or -1 with errno set. */
int bsim_atomic_open(bsim_atomic *a, const char *path);
/* Close; rename to path if ok and everything was written, else remove the
 * temporary. 0 on a completed file, -1 otherwise (errno set). */
int bsim_atomic_close(bsim_atomic *a, const char *path, int ok);

#endif
