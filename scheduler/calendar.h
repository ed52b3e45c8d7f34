/*
 * The event calendar: a binary heap of pending event-output firings ordered
 * by time, then by the order they were scheduled in, so that simultaneous
 * events are served in a documented, deterministic order (first scheduled,
 * first served). The hybrid loop keeps two: critical and hot events.
 */
#ifndef BSIM_CALENDAR_H
#define BSIM_CALENDAR_H

#include <stddef.h>

typedef struct bsim_event {
  double t;
  int block; /* source block of the firing */
  int port;  /* its event output, from 0 */
  unsigned long seq;
} bsim_event;

typedef struct bsim_calendar {
  bsim_event *heap;
  size_t n, cap;
} bsim_calendar;

void bsim_calendar_init(bsim_calendar *c);
void bsim_calendar_clear(bsim_calendar *c);
/* seq breaks ties between equal times (smaller first); callers number
 * their pushes so that several calendars share one order. */
int bsim_calendar_push(bsim_calendar *c, double t, int block, int port,
                       unsigned long seq);
/* Earliest pending time, or +inf when empty. */
double bsim_calendar_next(const bsim_calendar *c);
/* The earliest pending event, or NULL when empty. */
const bsim_event *bsim_calendar_peek(const bsim_calendar *c);
int bsim_calendar_pop(bsim_calendar *c, bsim_event *out);

#endif
