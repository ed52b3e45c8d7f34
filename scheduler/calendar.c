/*
 * The event calendar as a binary heap: pushes and pops are O(log n), which
 * matters once diagrams hold many clocks.
 */
#include "scheduler/calendar.h"

#include <math.h>
#include <stdlib.h>

void bsim_calendar_init(bsim_calendar *c) {
  c->heap = NULL;
  c->n = c->cap = 0;
}

void bsim_calendar_clear(bsim_calendar *c) {
  free(c->heap);
  bsim_calendar_init(c);
}

static int before(const bsim_event *a, const bsim_event *b) {
  return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

int bsim_calendar_push(bsim_calendar *c, double t, int block, int port,
                       unsigned long seq) {
  if (c->n == c->cap) {
    size_t cap = c->cap ? 2 * c->cap : 16;
    bsim_event *h = realloc(c->heap, cap * sizeof *h);
    if (!h) return -1;
    c->heap = h;
    c->cap = cap;
  }
  size_t i = c->n++;
  bsim_event e = {t, block, port, seq};
  while (i > 0 && before(&e, &c->heap[(i - 1) / 2])) {
    c->heap[i] = c->heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  c->heap[i] = e;
  return 0;
}

double bsim_calendar_next(const bsim_calendar *c) {
  return c->n ? c->heap[0].t : INFINITY;
}

const bsim_event *bsim_calendar_peek(const bsim_calendar *c) {
  return c->n ? &c->heap[0] : NULL;
}

int bsim_calendar_pop(bsim_calendar *c, bsim_event *out) {
  if (c->n == 0) return -1;
  *out = c->heap[0];
  bsim_event last = c->heap[--c->n];
  size_t i = 0;
  for (;;) {
    size_t l = 2 * i + 1, m = i;
    const bsim_event *best = &last;
    if (l < c->n && before(&c->heap[l], best)) {
      m = l;
      best = &c->heap[l];
    }
    if (l + 1 < c->n && before(&c->heap[l + 1], best)) m = l + 1;
    if (m == i) break;
    c->heap[i] = c->heap[m];
    i = m;
  }
  if (c->n) c->heap[i] = last;
  return 0;
}
