/*
 * The optional modules in the static library: every module's code is
 * linked in (a program linking libblocksim.a links HDF5, matio, cairo,
 * libzip, LAPACK and KLU as well), so a lookup is a table of entry points.
 * MPI is the command's own module and has no place here.
 */
#include <string.h>

#include "blocksim/blocksim.h"
#include "modules/module.h"

static const struct {
  const char *name, *symbol;
  bsim_module_entry entry;
} builtin[] = {
    {"hdf5", "bsim_module_hdf5", bsim_module_hdf5},
    {"mat", "bsim_module_mat", bsim_module_mat},
    {"plot", "bsim_module_plot", bsim_module_plot},
    {"zcos", "bsim_module_zcos", bsim_module_zcos},
    {"lapack", "bsim_module_lapack", bsim_module_lapack},
    {"klu", "bsim_module_klu", bsim_module_klu},
};

void *bsim_module_lookup(const char *name, const char *symbol, const char *what,
                         bsim_error *err) {
  for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++)
    if (strcmp(builtin[i].name, name) == 0 &&
        strcmp(builtin[i].symbol, symbol) == 0) {
      void *sym;
      memcpy(&sym, &builtin[i].entry, sizeof sym);
      return sym;
    }
  bsim_error_set(err, BSIM_ERR_INPUT,
                 "%s%sthis program is linked with blocksim's static library, "
                 "which has no '%s' in a module '%s' (hint: link the shared "
                 "library, libblocksim.so, to use it)",
                 what ? what : "", what ? " needs a module: " : "", symbol,
                 name);
  return NULL;
}
