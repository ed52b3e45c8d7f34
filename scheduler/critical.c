/*
 * Which events matter to the integrator. An event is *critical* when its
 * activation tree (the blocks it activates, and those inheriting activation
 * from them) reaches the continuous part: a block with states (a jump), with
 * zero crossings or modes, evaluated inside the residual, or feeding such a
 * block through data links. Critical events stop the integrator and restart
 * it cold; the others are served from interpolation while it runs on (hot),
 * as Xcos decides statically — computed once here, at compile time.
 */
#include <stdlib.h>
#include <string.h>

#include "scheduler/plan.h"

static void *zalloc(size_t n, size_t size) {
  return calloc(n ? n : 1, size);
}

/* Sources and consumers of every block as CSR arrays. */
static int adjacency(bsim_plan *p) {
  const bsim_flat *f = p->flat;
  int n = p->nblocks, m = f->nlinks;
  p->src_start = zalloc((size_t)n + 1, sizeof(int));
  p->dst_start = zalloc((size_t)n + 1, sizeof(int));
  p->src_block = zalloc((size_t)m, sizeof(int));
  p->dst_block = zalloc((size_t)m, sizeof(int));
  int *fs = zalloc((size_t)n, sizeof(int)),
      *fd = zalloc((size_t)n, sizeof(int));
  int rc = -1;
  if (!p->src_start || !p->dst_start || !p->src_block || !p->dst_block || !fs ||
      !fd)
    goto done;
  for (int l = 0; l < m; l++) {
    p->src_start[f->links[l].to_block + 1]++;
    p->dst_start[f->links[l].from_block + 1]++;
  }
  for (int b = 0; b < n; b++) {
    p->src_start[b + 1] += p->src_start[b];
    p->dst_start[b + 1] += p->dst_start[b];
  }
  for (int l = 0; l < m; l++) {
    int from = f->links[l].from_block, to = f->links[l].to_block;
    p->src_block[p->src_start[to] + fs[to]++] = from;
    p->dst_block[p->dst_start[from] + fd[from]++] = to;
  }
  rc = 0;
done:
  free(fs);
  free(fd);
  return rc;
}

static int continuous(const bsim_plan *p, int b) {
  const bsim_model *m = &p->blocks[b].fb->model;
  return p->blocks[b].active || m->nx > 0 || m->ng > 0 || m->nmode > 0;
}

/* feeds[b]: b's outputs reach the continuous part (walk links backwards
 * from it). The walk goes on through blocks that recompute their outputs
 * from their inputs whenever they are evaluated, and stops at blocks with
 * event inputs: a hold reads its input only when activated, so what feeds
 * the hold matters only through the hold's own events. */
static int mark_feeders(const bsim_plan *p, char *feeds, int *queue) {
  int head = 0, tail = 0;
  for (int b = 0; b < p->nblocks; b++)
    if (continuous(p, b)) queue[tail++] = b;
  char *seen = zalloc((size_t)p->nblocks, 1);
  if (!seen) return -1;
  for (int k = 0; k < tail; k++)
    seen[queue[k]] = 1;
  while (head < tail) {
    int c = queue[head++];
    for (int e = p->src_start[c]; e < p->src_start[c + 1]; e++) {
      int b = p->src_block[e];
      feeds[b] = 1;
      if (!seen[b] && p->flat->blocks[b].model.nevin == 0) {
        seen[b] = 1;
        queue[tail++] = b;
      }
    }
  }
  free(seen);
  return 0;
}

/* Does the activation tree of event output k of block b reach the
 * continuous part? */
static int tree_is_critical(const bsim_plan *p, int ev, const char *feeds,
                            char *seen, int *queue) {
  int tail = 0, critical = 0;
  for (int a = p->act_start[ev]; a < p->act_start[ev + 1]; a++) {
    int c = p->act_block[a];
    if (!seen[c]) {
      seen[c] = 1;
      queue[tail++] = c;
    }
  }
  for (int head = 0; head < tail; head++) {
    int c = queue[head];
    if (continuous(p, c) || feeds[c]) critical = 1;
    for (int e = p->dst_start[c]; e < p->dst_start[c + 1]; e++) {
      int d = p->dst_block[e];
      if (p->inherits[d] && !seen[d]) {
        seen[d] = 1;
        queue[tail++] = d;
      }
    }
  }
  for (int q = 0; q < tail; q++)
    seen[queue[q]] = 0;
  return critical;
}

/* Activations grouped by source event output (CSR over evbase indices),
 * in the flat diagram's order: serving an event reads only its own. */
static int activations_by_source(bsim_plan *p) {
  const bsim_flat *f = p->flat;
  int nev = p->evbase[p->nblocks], na = f->nactivations;
  p->act_start = zalloc((size_t)nev + 1, sizeof(int));
  p->act_block = zalloc((size_t)na, sizeof(int));
  p->act_port = zalloc((size_t)na, sizeof(int));
  int *fill = zalloc((size_t)nev, sizeof(int));
  int rc = -1;
  if (!p->act_start || !p->act_block || !p->act_port || !fill) goto done;
  for (int a = 0; a < na; a++) {
    const bsim_flat_link *l = &f->activations[a];
    p->act_start[p->evbase[l->from_block] + l->from_port + 1]++;
  }
  for (int e = 0; e < nev; e++)
    p->act_start[e + 1] += p->act_start[e];
  for (int a = 0; a < na; a++) {
    const bsim_flat_link *l = &f->activations[a];
    int e = p->evbase[l->from_block] + l->from_port;
    int slot = p->act_start[e] + fill[e]++;
    p->act_block[slot] = l->to_block;
    p->act_port[slot] = l->to_port;
  }
  rc = 0;
done:
  free(fill);
  return rc;
}

int bsim_plan_analyze_events(bsim_plan *p) {
  const bsim_flat *f = p->flat;
  int n = p->nblocks, nev = 0;
  if (adjacency(p) != 0) return -1;
  p->inherits = zalloc((size_t)n, 1);
  p->evbase = zalloc((size_t)n + 1, sizeof(int));
  p->relevant = zalloc(p->noutbuf, 1);
  char *feeds = zalloc((size_t)n, 1), *seen = zalloc((size_t)n, 1);
  int *queue = zalloc((size_t)n, sizeof(int)), rc = -1;
  if (!p->inherits || !p->evbase || !p->relevant || !feeds || !seen || !queue)
    goto done;
  for (int b = 0; b < n; b++) {
    const bsim_model *m = &f->blocks[b].model;
    p->inherits[b] = m->nevin == 0 && !m->dep_t && m->nin > 0;
    p->evbase[b] = nev;
    nev += m->nevout;
    p->nmodes += m->nmode;
  }
  p->evbase[n] = nev;
  p->evcrit = zalloc((size_t)nev, 1);
  if (!p->evcrit || mark_feeders(p, feeds, queue) != 0) goto done;
  if (activations_by_source(p) != 0) goto done;
  for (int ev = 0; ev < nev; ev++)
    p->evcrit[ev] = (char)tree_is_critical(p, ev, feeds, seen, queue);
  for (int b = 0; b < n; b++) {
    if (!feeds[b]) continue;
    const bsim_model *m = &f->blocks[b].model;
    for (int k = 0; k < m->nout; k++)
      memset(p->relevant + p->outoff[p->portbase[b] + k], 1,
             (size_t)(m->out[k] * m->out2[k]));
  }
  rc = 0;
done:
  free(feeds);
  free(seen);
  free(queue);
  return rc;
}
