/*
 * The descriptors of the optional modules, on top of whichever lookup the
 * library was built with (dynamic.c in the shared library, static.c in
 * the static one).
 */
#include <stdio.h>
#include <string.h>

#include "blocksim/blocksim.h"
#include "modules/module.h"

const void *bsim_module(const char *name, const char *what, bsim_error *err) {
  char symbol[64];
  snprintf(symbol, sizeof symbol, "bsim_module_%s", name);
  void *sym = bsim_module_lookup(name, symbol, what, err);
  if (!sym) return NULL;
  /* POSIX's way from an object pointer to a function pointer */
  bsim_module_entry entry;
  memcpy(&entry, &sym, sizeof entry);
  return entry();
}

void *bsim_module_symbol(const char *name, const char *symbol,
                         bsim_error *err) {
  return bsim_module_lookup(name, symbol, NULL, err);
}
