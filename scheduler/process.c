/*
 * Process-wide set-up that a library must not do behind its host's back
 * (bsim_process_init in blocksim.h). In the scheduler because it touches
 * GSL, libxml2 and matio, and only the scheduler may see them all.
 */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <gsl/gsl_errno.h>
#include <libxml/parser.h>
#include <libxml/relaxng.h>
#include <string.h>

#include "blocksim/blocksim.h"

/* matio logs its failures to stderr unless given a function; blocksim
 * reports them itself (output/mat.c). */
static void quiet_matio(int level, char *message) {
  (void)level;
  (void)message;
}

/* matio, when the process has it already (the static library links it; a
 * program may too): the mat module silences a matio that comes with it
 * (output/mat_quiet.c), and loading it here would cost every run the
 * start-up time of matio and HDF5. */
static void quiet_loaded_matio(void) {
  typedef void (*log_init)(const char *, void (*)(int, char *));
  void *sym = dlsym(RTLD_DEFAULT, "Mat_LogInitFunc");
  log_init init;
  memcpy(&init, &sym, sizeof init);
  if (init) init("blocksim", quiet_matio);
}

void bsim_process_init(void) {
  gsl_set_error_handler_off();
  quiet_loaded_matio();
  xmlInitParser();
  xmlRelaxNGInitTypes();
}
