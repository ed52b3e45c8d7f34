/*
 * libFuzzer target: the expression language of parameters and contexts.
 * The first byte of an input picks the entry point — an expression
 * (bsim_expr_eval), a parameter of each kind (real, string, polynomial),
 * or a context script (bsim_script_run) followed by an expression that
 * reads what it set — and the rest is the text. Variables of every shape
 * are in scope. Any crash, sanitizer report, leak or hang is a finding; a
 * failure must come with a message.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "blocksim/blocksim.h"
#include "diagrams/expr.h"

static bsim_scope *base;

static void set(bsim_scope *s, const char *name, int rows, int cols,
                const double *v) {
  bsim_value x = {rows, cols, (double *)v, NULL};
  if (bsim_scope_set(s, name, &x) != 0) abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  bsim_process_init(); /* GSL's handler off: errors come back, no abort */
  base = bsim_scope_create(NULL);
  if (!base) return 1;
  set(base, "k", 1, 1, (double[]){0.5});
  set(base, "a", 2, 1, (double[]){1, 2});
  set(base, "A", 2, 2, (double[]){1, 2, 3, 4});
  set(base, "B", 2, 3, (double[]){1, 0, 0, 1, 2, 3});
  set(base, "E", 0, 0, NULL);
  bsim_value str = {1, 1, NULL, "text"};
  return bsim_scope_set(base, "name", &str);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  char *text = malloc(size);
  if (!text) return 0;
  memcpy(text, data + 1, size - 1);
  text[size - 1] = '\0'; /* the language stops at NUL, as C strings do */
  char msg[512];
  bsim_value v;
  int rc;
  switch (data[0] % 5) {
  case 0:
    rc = bsim_expr_eval(text, base, &v, msg, sizeof msg);
    break;
  case 1:
  case 2:
  case 3: {
    static const bsim_param_kind kinds[] = {BSIM_PARAM_REAL, BSIM_PARAM_STRING,
                                            BSIM_PARAM_POLY};
    rc = bsim_expr_eval_param(kinds[data[0] % 5 - 1], text, base, &v, msg,
                              sizeof msg);
    break;
  }
  default: {
    bsim_scope *sc = bsim_scope_create(base);
    if (!sc) abort();
    int failed = 0;
    rc = bsim_script_run(text, 1, sc, msg, sizeof msg, &failed);
    if (rc != 0 && msg[0] == '\0') abort();
    rc = bsim_expr_eval("[k a' size(A)]", sc, &v, msg, sizeof msg);
    bsim_scope_free(sc);
    break;
  }
  }
  if (rc == 0)
    bsim_value_clear(&v);
  else if (msg[0] == '\0' || strlen(msg) >= sizeof msg)
    abort();
  free(text);
  return 0;
}
