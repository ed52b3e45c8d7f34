/*
 * Process-wide set-up that a library must not do behind its host's back
 * (bsim_process_init in blocksim.h). In the scheduler because it touches
 * GSL, libxml2 and matio, and only the scheduler may see them all.
 */
#include <gsl/gsl_errno.h>
#include <libxml/parser.h>
#include <libxml/relaxng.h>
#include <matio.h>

#include "blocksim/blocksim.h"

/* matio logs its failures to stderr unless given a function; blocksim
 * reports them itself (output/mat.c). */
static void quiet_matio(int level, char *message) {
  (void)level;
  (void)message;
}

void bsim_process_init(void) {
  gsl_set_error_handler_off();
  Mat_LogInitFunc("blocksim", quiet_matio);
  xmlInitParser();
  xmlRelaxNGInitTypes();
}
