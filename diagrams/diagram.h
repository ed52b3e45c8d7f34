/*
 * The Diagram model: what a reader produces and the flattener consumes. A
 * faithful tree of the file, with unevaluated parameter text and the source
 * line of everything, so that later errors can point back into the file.
 */
#ifndef BSIM_DIAGRAM_H
#define BSIM_DIAGRAM_H

#include <stdarg.h>

#include "blocksim/blocksim.h"

typedef struct dg_param {
  char *name;
  char *expr; /* as written */
  int line;
} dg_param;

typedef struct dg_diagram dg_diagram;

typedef struct dg_block {
  char *id;
  char *type;      /* NULL for a superblock */
  dg_diagram *sub; /* non-NULL for a superblock */
  dg_param *params;
  int nparams;
  int line;
  /* Xcos import only (NULL otherwise). gui: the block's Xcos interface
   * function, for messages and `convert`. stored: the run-time model the
   * file stores for a block whose type has no mapping of its dialog
   * fields (bsim_block_type.xcos_exprs); flattening then uses a copy of it
   * instead of running the type's define step, and the block has no named
   * parameters. Both owned. */
  char *gui;
  bsim_model *stored;
  /* 1: the block has parameters from its dialog, and `stored` is only
   * what it falls back on when they cannot be evaluated, as Xcos keeps
   * a block's stored values then; 0: `stored` is what it runs on. */
  int stored_is_fallback;
  /* Xcos import only: 1 when the block's dialog sets its time dependence
   * itself (Xcos then drops the one its file stores). */
  int dialog_sets_dep_t;
  /* Native <block dep-t="1">: time-dependent whatever its define step
   * says (what `convert` writes for an Xcos block stored so). */
  int dep_t;
  /* Xcos import only: the number Scilab's compiler gives the link buffer
   * of each data output (xcos_links[k] for output k+1; 0 unknown), which
   * CFSCOPE reads by (docs/blocks.md, "Floating probes"). Owned; NULL
   * for native blocks. */
  int *xcos_links;
  int nxcos_links;
} dg_block;

/* A port reference "block:port" (port counted from 1). An end of a
 * <connect> may name the connector instead ("r1:p"): port is then 0 and
 * con the name. */
typedef struct dg_portref {
  char *block; /* may be a path "sb/inner/x" in <observe> */
  int port;
  char *con;
} dg_portref;

/* DG_LINK_CONNECT joins two acausal connectors (docs/acausal.md): it has
 * no direction, and its ends count connectors, not data ports. */
typedef enum {
  DG_LINK_DATA = 0,
  DG_LINK_ACTIVATION = 1,
  DG_LINK_CONNECT = 2
} dg_link_kind;

typedef struct dg_link {
  dg_link_kind kind;
  dg_portref from, to;
  int line;
} dg_link;

typedef struct dg_observe {
  char *name;
  dg_portref signal;
  int line;
} dg_observe;

struct dg_diagram {
  char *name;
  /* Scilab statements run before the <var>s of this level (an Xcos
   * context, or a native <script>); NULL when there are none. */
  char *script;
  /* File line of the script's first line (messages number statements
   * from it); 0 when the text has no place in a file (an Xcos context
   * array): statements are then numbered from 1. */
  int script_line;
  /* Context variables set by overrides (-p VAR=V) that the script would
   * assign: set before the script runs, which cannot change them. */
  dg_param *pinned;
  int npinned;
  dg_param *context; /* <var name value> in order; later may use earlier */
  int ncontext;
  dg_block *blocks;
  int nblocks;
  dg_link *links;
  int nlinks;
  int line;
};

/* Settings of <simulation> and <output>; negative / NULL = not given. */
typedef struct dg_settings {
  double final_time;
  double rtol, atol;
  /* Events closer than this to the current time are served at it, as
   * Xcos's toleranceOnTime (ttol) does; < 0 = not given (0). */
  double ttol;
  char *solver;
  /* The engine to use instead of `solver` when that one integrates ODEs
   * only and the system has algebraic unknowns (Xcos files: Scilab also
   * switches its ODE solvers to an implicit one then); NULL = refuse. */
  char *solver_fallback;
  long samples;
  int spacing; /* -1 not given, else bsim_spacing */
  /* <solver-param name value> inside <simulation>, in file order; names
   * unique. Checked against the engine when a run is created. */
  dg_param *solver_params;
  int nsolver_params;
} dg_settings;

struct bsim_diagram {
  char *file;         /* path as given, for messages */
  const char *format; /* "native", "xcos", "zcos" (static); NULL = native */
  /* The block types the diagram was read against: a reference to the
   * caller's library, or to a child of it holding the plugins the file
   * names (<library path>). Readers set it before resolving any type. */
  const bsim_library *lib;
  /* Expressions follow Scilab where the native format differs (eye(3) is
   * 1x1): set by readers of Scilab's formats (expr.h). */
  int scilab;
  dg_diagram *root;
  dg_settings settings;
  dg_observe *observes;
  int nobserves;
  /* What a reader did that the user should know (an Xcos block ignored
   * as Xcos ignores it, ...): bsim_diagram_note_at. Owned. */
  char **notes;
  int nnotes;
};

void dg_diagram_free(dg_diagram *d);
/* Append a formatted note to a notes array (bsim_diagram.notes,
 * bsim_flat.notes). 0, or -1 out of memory. */
int dg_add_notev(char ***notes, int *nnotes, const char *fmt, va_list ap);
/* "block:port" (port from 1; the block part may be a path) into *out
 * (out->block malloc'ed). 0, -1 on a syntax error, -2 out of memory. */
int dg_parse_portref(const char *text, dg_portref *out);
/* The same for an end of a <connect>: "block:port" or "block:name" (a
 * connector's name: letters, digits and '_'; out->con malloc'ed). */
int dg_parse_conref(const char *text, dg_portref *out);
/* A deep copy of a model into a zeroed *dst; 0, or -1 out of memory (dst
 * then cleared). */
int dg_model_copy(bsim_model *dst, const bsim_model *src);

#endif
