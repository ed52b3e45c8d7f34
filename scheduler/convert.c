/*
 * bsim_diagram_to_native: a diagram (an Xcos file's, typically) in the
 * native format, written so that it runs the same. A run is prepared
 * first: its flat diagram says which blocks run on the model their file
 * stores (an Xcos dialog that does not evaluate falls back on it), and
 * its engine is the one to name (an Xcos ODE solver gives way to ida on
 * a system with algebraic unknowns, which the native format would not).
 */
#include "diagrams/write.h"
#include "scheduler/sim.h"

int bsim_diagram_to_native(const bsim_diagram *d, const bsim_sim *s,
                           char **text, size_t *len, bsim_error *err) {
  *text = NULL;
  *len = 0;
  bsim_sim *own = s ? NULL : bsim_sim_create(d, NULL, err);
  if (!s && !(s = own)) return -1;
  int rc = dg_write_native(d, s->flat, s->named->name, text, len, err);
  bsim_sim_free(own);
  return rc;
}
