/*
 * bsim_error: the one way the library reports failure. The first error wins,
 * because the first cause is the one worth reading; later failures are
 * usually its consequences.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "blocksim/blocksim.h"

void bsim_error_set(bsim_error *err, bsim_status status, const char *fmt, ...) {
  if (!err || err->status != BSIM_OK) return;
  err->status = status;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->message, sizeof err->message, fmt, ap);
  va_end(ap);
}

void bsim_error_clear(bsim_error *err) {
  if (!err) return;
  err->status = BSIM_OK;
  err->message[0] = '\0';
}
