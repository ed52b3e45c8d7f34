/*
 * What serving an event runs, and which events matter to the integrator.
 * An event output's activation list holds the blocks it activates and
 * those inheriting activation from them, in compiled order. An event is
 * *critical* when that list, or a synchronous output fired inside it,
 * reaches the continuous part: a block with states (a jump), with
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
  const plan_block *pb = &p->blocks[b];
  return pb->active || pb->fb->model.nx > 0 || pb->ng > 0 || pb->nmode > 0;
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

/* One member of an activation list, sorted by its place in the order;
 * `timeonly` when it is there only because time includes all events. */
typedef struct member {
  int pos, block, bits, timeonly, map;
} member;

static int by_pos(const void *a, const void *b) {
  return ((const member *)a)->pos - ((const member *)b)->pos;
}

/* Appends list[0..k) to the plan's activation arrays, growing them. */
static int append(bsim_plan *p, int *cap, int used, const member *list, int k) {
  if (used + k > *cap) {
    int nc = *cap ? *cap : 16;
    while (nc < used + k)
      nc *= 2;
    int *nb = realloc(p->act_block, sizeof(int) * (size_t)nc);
    if (!nb) return -1;
    p->act_block = nb;
    int *nbits = realloc(p->act_bits, sizeof(int) * (size_t)nc);
    if (!nbits) return -1;
    p->act_bits = nbits;
    int *nmap = realloc(p->act_evmap, sizeof(int) * (size_t)nc);
    if (!nmap) return -1;
    p->act_evmap = nmap;
    *cap = nc;
  }
  for (int i = 0; i < k; i++) {
    p->act_block[used + i] = list[i].block;
    p->act_bits[used + i] = list[i].bits;
    p->act_evmap[used + i] = list[i].map;
  }
  return 0;
}

/* A time-dependent block with event inputs: Xcos's compiler adds every
 * event to it ("time includes all events"), with no event bit. */
static int timed(const bsim_plan *p, int b) {
  const bsim_model *m = &p->flat->blocks[b].model;
  return m->dep_t && m->nevin > 0 && !p->union_block[b];
}

/* Adds, closed over data links, the blocks inheriting from list[from..):
 * each gets one event bit and the timeonly mark of what it inherits from.
 * Returns the new count. */
static int inherit_closure(const bsim_plan *p, member *list, int from, int cnt,
                           int *slot, const int *pos) {
  for (int h = from; h < cnt; h++)
    for (int a = p->dst_start[list[h].block];
         a < p->dst_start[list[h].block + 1]; a++) {
      int d = p->dst_block[a];
      if (!p->inherits[d] || slot[d] >= 0) continue;
      slot[d] = cnt;
      list[cnt++] = (member){pos[d], d, 1, list[h].timeonly, p->evbase[d]};
    }
  return cnt;
}

/* What serving each event output runs: its targets and, closed over data
 * links, the blocks inheriting activation from them, in compiled order so
 * that outputs are computed before their users. Xcos likewise lists, per
 * event, the blocks it activates with those inheriting from them, and
 * adds to the event of every block but a synchronous router the
 * time-dependent blocks with event inputs (nevprt 0) and their
 * inheritors. An event is critical when a member that is not there for
 * time only reaches the continuous part (Xcos decides criticality before
 * adding those). */
static int activation_lists(bsim_plan *p, const char *feeds) {
  int n = p->nblocks, nev = p->nevents, cap = 0, used = 0, rc = -1;
  int *pos = zalloc((size_t)n, sizeof(int)),
      *slot = zalloc((size_t)n, sizeof(int));
  member *list = zalloc((size_t)n, sizeof(member));
  p->act_start = zalloc((size_t)nev + 1, sizeof(int));
  if (!pos || !slot || !list || !p->act_start) goto done;
  for (int k = 0; k < n; k++) {
    pos[p->order[k]] = k;
    slot[k] = -1;
  }
  int ntimed = 0;
  for (int b = 0; b < n; b++)
    ntimed += timed(p, b);
  for (int e = 0; e < nev; e++) {
    int cnt = 0, owner = p->evowner[e];
    for (int t = p->tgt_start[e]; t < p->tgt_start[e + 1]; t++) {
      int b = p->tgt_block[t];
      slot[b] = cnt;
      list[cnt++] = (member){pos[b], b, p->tgt_bits[t], 0, p->tgt_evmap[t]};
    }
    cnt = inherit_closure(p, list, 0, cnt, slot, pos);
    int first_timed = cnt;
    for (int b = 0; ntimed && !p->synchronous[owner] && b < n; b++)
      if (timed(p, b) && slot[b] < 0) {
        slot[b] = cnt;
        list[cnt++] = (member){pos[b], b, 0, 1, p->evbase[b]};
      }
    cnt = inherit_closure(p, list, first_timed, cnt, slot, pos);
    for (int h = 0; h < cnt; h++) {
      int c = list[h].block;
      slot[c] = -1;
      if (!list[h].timeonly && (continuous(p, c) || feeds[c])) p->evcrit[e] = 1;
    }
    qsort(list, (size_t)cnt, sizeof *list, by_pos);
    if (append(p, &cap, used, list, cnt) != 0) goto done;
    used += cnt;
    p->act_start[e + 1] = used;
  }
  rc = 0;
done:
  free(pos);
  free(slot);
  free(list);
  return rc;
}

/* A critical output fired inside an activation makes it critical too. The
 * synchronous routers form no loop (compile refuses those), so the
 * propagation ends. */
static void criticality(bsim_plan *p) {
  int nev = p->nevents;
  for (int changed = 1; changed;) {
    changed = 0;
    for (int e = 0; e < nev; e++)
      for (int a = p->act_start[e]; a < p->act_start[e + 1] && !p->evcrit[e];
           a++) {
        int c = p->act_block[a];
        if (!p->synchronous[c]) continue;
        int first = p->act_evmap[a];
        for (int k = first; k < first + p->flat->blocks[c].model.nevout; k++)
          if (p->evcrit[k]) {
            p->evcrit[e] = 1;
            changed = 1;
          }
      }
  }
}

int bsim_plan_analyze_events(bsim_plan *p) {
  const bsim_flat *f = p->flat;
  int n = p->nblocks, nev = p->nevents;
  if (adjacency(p) != 0) return -1;
  p->inherits = zalloc((size_t)n, 1);
  p->relevant = zalloc(p->noutbuf, 1);
  p->evcrit = zalloc((size_t)nev, 1);
  char *feeds = zalloc((size_t)n, 1);
  int *queue = zalloc((size_t)n, sizeof(int)), rc = -1;
  if (!p->inherits || !p->relevant || !p->evcrit || !feeds || !queue) goto done;
  for (int b = 0; b < n; b++) {
    const bsim_model *m = &f->blocks[b].model;
    p->inherits[b] = m->nevin == 0 && !m->dep_t && m->nin > 0;
    p->nmodes += p->blocks[b].nmode;
  }
  if (mark_feeders(p, feeds, queue) != 0 || activation_lists(p, feeds) != 0)
    goto done;
  criticality(p);
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
  free(queue);
  return rc;
}
