/*
 * `blocksim solvers [NAME]`: the engines and their parameters, read from
 * the engine descriptors through the embedding API, so that what the help
 * says is what --solver-param accepts.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static void print_param(const bsim_solver_param_doc *p, int full) {
  const char *type = p->choices ? p->choices : p->type;
  if (full)
    printf("  %-18s %-16s default %-8s %s\n", p->name, type, p->default_value,
           p->doc);
  else
    printf("    %s (%s, default %s): %s\n", p->name, type, p->default_value,
           p->doc);
}

static void print_solver(const bsim_library *lib, const bsim_engine_type *e,
                         const char *origin, int full) {
  const char *from = strcmp(origin, "standard") != 0 ? origin : NULL;
  if (full) {
    printf("%s\n  %s\n", e->name, e->summary);
    if (from) printf("  from: %s\n", from);
    printf("\n  parameters (--solver-param KEY=VALUE, or <solver-param "
           "name=\"KEY\" value=\"VALUE\"/> in <simulation>):\n");
  } else {
    printf("%s: %s%s%s%s\n", e->name, e->summary, from ? " (from " : "",
           from ? from : "", from ? ")" : "");
  }
  bsim_solver_param_doc p;
  size_t i = 0;
  for (; bsim_solver_param_at(lib, e->name, i, &p) == 0; i++)
    print_param(&p, full);
  if (full && i == 0) printf("  (none)\n");
}

int bsim_cli_solvers(const bsim_library *lib, int argc, char **argv) {
  if (argc > 1) return bsim_cli_usage("%s", "solvers takes at most one NAME");
  const bsim_engine_type *e;
  const char *origin;
  for (size_t i = 0; (e = bsim_library_engine_at(lib, i, &origin)) != NULL;
       i++) {
    if (argc == 0)
      print_solver(lib, e, origin, 0);
    else if (strcmp(e->name, argv[0]) == 0)
      return print_solver(lib, e, origin, 1), 0;
  }
  if (argc == 0) return 0;
  char names[512] = "";
  for (size_t i = 0; (e = bsim_library_engine_at(lib, i, NULL)) != NULL; i++) {
    if (i) strncat(names, ", ", sizeof names - strlen(names) - 1);
    strncat(names, e->name, sizeof names - strlen(names) - 1);
  }
  fprintf(stderr, "blocksim: unknown solver '%s' (valid: %s)\n", argv[0],
          names);
  return BSIM_ERR_INPUT;
}
