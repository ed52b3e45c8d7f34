/*
 * `blocksim blocks [TYPE]`: the block library documented from the type
 * descriptors themselves, so the listing can never disagree with the code.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static void print_size(int rows, int cols) {
  if (rows > 0)
    printf("%d", rows);
  else if (rows == 0)
    printf("sum");
  else
    printf("n%d", -rows);
  if (cols != 1) {
    if (cols > 0)
      printf("x%d", cols);
    else if (cols < 0)
      printf("xm%d", -cols);
  }
}

static void print_ports(const bsim_block_type *t) {
  bsim_model m;
  bsim_error err;
  bsim_error_clear(&err);
  if (bsim_block_type_default_model(t, &m, &err) != 0) {
    printf("  ports: depend on parameters\n");
    return;
  }
  printf("  inputs: %d", m.nin);
  for (int i = 0; i < m.nin; i++) {
    printf(i ? ", " : " (");
    print_size(m.in[i], m.in2[i]);
    if (m.dep_u[i]) printf(" feedthrough");
  }
  printf(m.nin ? ")\n" : "\n");
  printf("  outputs: %d", m.nout);
  for (int i = 0; i < m.nout; i++) {
    printf(i ? ", " : " (");
    print_size(m.out[i], m.out2[i]);
  }
  printf(m.nout ? ")\n" : "\n");
  printf("  event inputs: %d, event outputs: %d, states: %d, "
         "zero crossings: %s\n",
         m.nevin, m.nevout, m.nx,
         m.ng < 0 ? "one per input element"
         : m.ng   ? "yes"
                  : "0");
  bsim_model_clear(&m);
}

static void print_params(const bsim_block_type *t, int full) {
  for (int i = 0; i < t->nparams; i++) {
    const bsim_param_spec *p = &t->params[i];
    if (full)
      printf("  %-12s %-7s default %-10s %s\n", p->name,
             p->kind == BSIM_PARAM_STRING ? "string" : "real",
             p->default_expr ? p->default_expr : "(required)", p->doc);
    else
      printf("%s%s=%s", i ? ", " : " ", p->name,
             p->default_expr ? p->default_expr : "?");
  }
}

int bsim_cli_blocks(int argc, char **argv) {
  const bsim_block_type *t;
  if (argc == 0) {
    for (size_t i = 0; (t = bsim_block_type_at(i)) != NULL; i++) {
      printf("%-14s %s\n", t->name, t->summary);
      if (t->nparams) {
        printf("               params:");
        print_params(t, 0);
        printf("\n");
      }
    }
    return 0;
  }
  if (argc > 1) return bsim_cli_usage("%s", "blocks takes at most one TYPE");
  t = bsim_block_type_find(argv[0]);
  if (!t) {
    fprintf(stderr,
            "blocksim: unknown block type '%s' (hint: `blocksim blocks` lists "
            "them all)\n",
            argv[0]);
    return BSIM_ERR_INPUT;
  }
  printf("%s (simulation function %s)\n  %s\n\n", t->name, t->sim_name,
         t->summary);
  printf("parameters:\n");
  if (!t->nparams) printf("  (none)\n");
  print_params(t, 1);
  printf("\nports:\n");
  print_ports(t);
  if (t->doc) printf("\n%s\n", t->doc);
  return 0;
}
