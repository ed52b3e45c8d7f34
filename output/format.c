/*
 * Choosing a result format by name or by a file's extension.
 */
#include <string.h>
#include <strings.h>

#include "blocksim/blocksim.h"

static const struct {
  const char *name;
  bsim_format f;
} names[] = {{"csv", BSIM_FORMAT_CSV},
             {"mat", BSIM_FORMAT_MAT},
             {"h5", BSIM_FORMAT_H5},
             {"hdf5", BSIM_FORMAT_H5}};

int bsim_format_parse(const char *name, bsim_format *f) {
  for (size_t i = 0; name && i < sizeof names / sizeof names[0]; i++)
    if (strcasecmp(name, names[i].name) == 0) {
      *f = names[i].f;
      return 0;
    }
  return -1;
}

int bsim_format_of_path(const char *path, bsim_format *f) {
  const char *dot = path ? strrchr(path, '.') : NULL;
  const char *slash = path ? strrchr(path, '/') : NULL;
  if (!dot || (slash && dot < slash)) return -1;
  return bsim_format_parse(dot + 1, f);
}
