/*
 * Process-wide set-up that a library must not do behind its host's back
 * (bsim_process_init in blocksim.h). In the scheduler because it touches
 * both GSL and libxml2, and only the scheduler may see both.
 */
#include <gsl/gsl_errno.h>
#include <libxml/parser.h>
#include <libxml/relaxng.h>

#include "blocksim/blocksim.h"

void bsim_process_init(void) {
  gsl_set_error_handler_off();
  xmlInitParser();
  xmlRelaxNGInitTypes();
}
