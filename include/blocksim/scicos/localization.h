/*
 * Xcos blocks wrap their messages in _() for translation; blocksim keeps
 * them as written.
 */
#ifndef _
#define _(text) (text)
#endif
