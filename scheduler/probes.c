/*
 * Probes: signal elements a block reads without a link, as CFSCOPE reads
 * Xcos's link buffers by number. The flattener lists every output port in
 * Xcos's link-buffer order (bsim_flat.signals); a probe number n is the
 * n-th element of those ports laid end to end. Compile turns it into an
 * offset in a run's output buffers, and each run into a pointer
 * (runstate.c), so that reading a probe costs nothing.
 */
#include <stdlib.h>

#include "scheduler/plan.h"

static int port_size(const bsim_flat *f, const bsim_flat_port *sp) {
  const bsim_model *m = &f->blocks[sp->block].model;
  return m->out[sp->port] * m->out2[sp->port];
}

/* Offset in the output buffers of the element a probe number names, or -1
 * past the last one. */
static long element(const bsim_plan *p, int n) {
  const bsim_flat *f = p->flat;
  for (int s = 0; s < f->nsignals; s++) {
    const bsim_flat_port *sp = &f->signals[s];
    int size = port_size(f, sp);
    if (n <= size)
      return (long)p->outoff[p->portbase[sp->block] + sp->port] + (n - 1);
    n -= size;
  }
  return -1;
}

int bsim_plan_probes(bsim_plan *p, bsim_error *err) {
  for (int i = 0; i < p->nblocks; i++) {
    const bsim_model *m = &p->flat->blocks[i].model;
    plan_block *pb = &p->blocks[i];
    if (m->nprobes <= 0) continue;
    pb->probe_off = calloc((size_t)m->nprobes, sizeof *pb->probe_off);
    if (!pb->probe_off) {
      bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory while compiling");
      return -1;
    }
    for (int k = 0; k < m->nprobes; k++) {
      long off = m->probes[k] >= 1 ? element(p, m->probes[k]) : -1;
      if (off < 0) {
        long total = 0;
        for (int s = 0; s < p->flat->nsignals; s++)
          total += port_size(p->flat, &p->flat->signals[s]);
        bsim_error_set(err, BSIM_ERR_INPUT,
                       "%s:%d: block '%s': signal element %d does not "
                       "exist: the diagram's output ports carry %ld "
                       "elements, numbered from 1 in link order (hint: see "
                       "\"Floating probes\" in docs/blocks.md)",
                       p->flat->file, pb->fb->line, pb->fb->path, m->probes[k],
                       total);
        return -1;
      }
      pb->probe_off[k] = (size_t)off;
    }
  }
  return 0;
}
