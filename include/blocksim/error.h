/*
 * How the library reports failure: a status that doubles as the command's
 * exit code and a message saying what, where and what to try. Its own
 * header so that the block-library API (library.h) can report errors
 * without the whole embedding API.
 */
#ifndef BLOCKSIM_ERROR_H
#define BLOCKSIM_ERROR_H

#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Error classes double as the command's exit status. */
typedef enum {
  BSIM_OK = 0,
  BSIM_ERR_SIM = 1,   /* the simulation failed */
  BSIM_ERR_INPUT = 2, /* bad input: file, format, parameter, connection */
  BSIM_ERR_NOMEM = 3
} bsim_status;

typedef struct bsim_error {
  bsim_status status;
  char message[2048]; /* what, where (file:line or block path), hint */
} bsim_error;

/* Record an error (first one wins: later calls keep the original cause). */
BSIM_API void bsim_error_set(bsim_error *err, bsim_status status,
                             const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
BSIM_API void bsim_error_clear(bsim_error *err);

#ifdef __cplusplus
}
#endif
#endif
