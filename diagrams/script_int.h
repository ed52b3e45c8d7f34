/*
 * What the two halves of the script interpreter share: script_split.c cuts
 * a script into statements and matches its control structures by a
 * lexical scan, script.c runs the list. Private to diagrams/.
 */
#ifndef BSIM_SCRIPT_INT_H
#define BSIM_SCRIPT_INT_H

#include <stddef.h>

#include "diagrams/expr_int.h"

typedef enum {
  ST_SIMPLE, /* an assignment or an expression */
  ST_IF,
  ST_ELSEIF,
  ST_ELSE,
  ST_END,
  ST_FOR,
  ST_WHILE,
  ST_BREAK,
  ST_CONTINUE
} st_kind;

enum { FLOW_BREAK = 1, FLOW_CONTINUE = 2 };

typedef struct stmt {
  st_kind kind;
  /* SIMPLE: the statement; IF, ELSEIF, WHILE: the condition; FOR: the
   * expression, from expr. Offsets into the script. */
  size_t start, end, expr;
  char var[MAX_NAME + 1]; /* FOR: the loop variable */
  int line;               /* of start, counted from 1 */
  /* IF/ELSEIF/ELSE: the next part of the chain (ELSEIF, ELSE or END);
   * FOR/WHILE: its END; END: its opener. */
  int match;
} stmt;

typedef enum { FORM_EXPR, FORM_ASSIGN, FORM_INDEXED, FORM_MULTI } form_kind;

enum { MAX_TARGETS = 8 };

/* The shape of a simple statement; offsets relative to its start. */
typedef struct form {
  form_kind kind;
  char name[MAX_NAME + 1]; /* ASSIGN, INDEXED */
  size_t open;             /* INDEXED: the '(' */
  size_t eq;               /* ASSIGN, INDEXED, MULTI: the '=' */
  int ntargets;            /* MULTI */
  char targets[MAX_TARGETS][MAX_NAME + 1];
  const char *error; /* set when dg_stmt_form fails */
} form;

/* Splits s into statements (*out malloc'ed, *n of them, even on failure:
 * those found before the problem) and matches the structures. 0, or -1
 * with err and *errline when the structure cannot be followed. */
int dg_script_split(const char *s, stmt **out, int *n, char *err, size_t errlen,
                    int *errline);
/* The shape of simple statement t: 0, or -1 with f->error. */
int dg_stmt_form(const char *s, const stmt *t, form *f);
/* The names statement t assigns (at most max; a FOR its variable). */
int dg_stmt_targets(const char *s, const stmt *t, char (*names)[MAX_NAME + 1],
                    int max);

/* A script split once and run many times (the code of a scifunc block):
 * its statements over its own copy of the text. */
typedef struct dg_program {
  char *text;
  stmt *st;
  int n;
} dg_program;

/* Splits text into p (zeroed on failure). 0, or -1 with err naming the
 * line (counted from 1) when the structure cannot be followed or out of
 * memory. */
int dg_program_init(dg_program *p, const char *text, char *err, size_t errlen);
void dg_program_clear(dg_program *p);
/* Runs p in scope and, unlike a context script, stops at the first
 * statement that fails, as Scilab stops a function: 0, or -1 with msg
 * ("line 2 (y1=x(3)): ..."). */
int dg_program_run(const dg_program *p, bsim_scope *scope, char *msg,
                   size_t msglen);

#endif
