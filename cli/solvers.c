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

static void print_solver(const char *name, const char *summary, int full) {
  if (full)
    printf("%s\n  %s\n\n  parameters (--solver-param KEY=VALUE, or "
           "<solver-param name=\"KEY\" value=\"VALUE\"/> in <simulation>):\n",
           name, summary);
  else
    printf("%s: %s\n", name, summary);
  bsim_solver_param_doc p;
  size_t i = 0;
  for (; bsim_solver_param_at(name, i, &p) == 0; i++)
    print_param(&p, full);
  if (full && i == 0) printf("  (none)\n");
}

int bsim_cli_solvers(int argc, char **argv) {
  if (argc > 1) return bsim_cli_usage("%s", "solvers takes at most one NAME");
  const char *name, *summary;
  if (argc == 0) {
    for (size_t i = 0; (name = bsim_solver_at(i, &summary)) != NULL; i++)
      print_solver(name, summary, 0);
    return 0;
  }
  for (size_t i = 0; (name = bsim_solver_at(i, &summary)) != NULL; i++) {
    if (strcmp(name, argv[0]) == 0) {
      print_solver(name, summary, 1);
      return 0;
    }
  }
  char names[512] = "";
  for (size_t i = 0; (name = bsim_solver_at(i, NULL)) != NULL; i++) {
    if (i) strncat(names, ", ", sizeof names - strlen(names) - 1);
    strncat(names, name, sizeof names - strlen(names) - 1);
  }
  fprintf(stderr, "blocksim: unknown solver '%s' (valid: %s)\n", argv[0],
          names);
  return BSIM_ERR_INPUT;
}
