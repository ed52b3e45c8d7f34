/*
 * Inside the Xcos reader. The two sources of an Xcos diagram - the mxGraph
 * XML of .xcos / content.xml, and the scs_m structure Scilab 5.5 keeps for
 * the superblocks of "csuper" blocks - are both read into one intermediate
 * form (xc_level: blocks with their ports and model data, links between
 * ports), which build.c turns into the Diagram tree the native reader also
 * produces. Private to diagrams/xcos/.
 */
#ifndef BSIM_XCOS_INT_H
#define BSIM_XCOS_INT_H

#include <stddef.h>

#include "diagrams/diagram.h"
#include "diagrams/xcos/sciv.h"

/* Port kinds, in the order Xcos numbers a block's ports. */
enum {
  XP_IN = 0,  /* explicit data input */
  XP_OUT = 1, /* explicit data output */
  XP_EVIN = 2,
  XP_EVOUT = 3,
  XP_IMPIN = 4, /* implicit (acausal) ports: read, not yet simulated */
  XP_IMPOUT = 5
};

typedef struct xc_port {
  char *uid; /* XML id; NULL for scs_m ports */
  int kind;
  int ordering;   /* 1-based number among the block's ports of its kind */
  int rows, cols; /* declared size (Xcos conventions: -1, -2, ...) */
  double firing;  /* event outputs: initial firing time, < 0 none */
} xc_port;

enum { XB_BLOCK = 0, XB_SPLIT = 1 };

typedef struct xc_level xc_level;

/* One block of a level: what Xcos stores for it. Values are NULL when the
 * file does not give them. */
typedef struct xc_block {
  char *uid;
  char *gui;   /* interface function name */
  char *sim;   /* simulation function name */
  int simtype; /* Xcos function type (0, 1, 2, 4, 5, 10004, ...) */
  char *label;
  int line;
  int kind;        /* XB_* */
  char *port_role; /* port blocks: "IN_f", "OUT_f", "CLKINV_f", "CLKOUTV_f",
                      "INIMPL_f", "OUTIMPL_f" by element; else NULL */
  sciv *exprs, *rpar, *ipar, *opar, *state, *dstate, *odstate;
  sciv *nzcross, *nmode, *firing; /* firing: scs_m only */
  sciv *equations; /* Modelica blocks: modelica(model, inputs, outputs,
                      parameters), NULL for others */
  int dep_u, dep_t;
  xc_port *ports;
  int nports;
  xc_level *child; /* superblock contents, or NULL */
  /* Xcos's link number of each data output (xc_number_links; indexed like
   * ports, 0 for the other ports), or NULL. */
  int *linknum;
} xc_block;

typedef struct xc_link {
  int kind;                  /* 0 data, 1 event, 2 implicit */
  int from_block, from_port; /* indexes into blocks / their ports */
  int to_block, to_port;
  int line;
} xc_link;

struct xc_level {
  char *context; /* Scilab statements, lines joined by '\n'; may be NULL */
  xc_block *blocks;
  int nblocks, capblocks;
  xc_link *links;
  int nlinks, caplinks;
  int line;
};

void xc_level_free(xc_level *l);
/* Append a zeroed block / link; NULL when out of memory. */
xc_block *xc_add_block(xc_level *l);
xc_link *xc_add_link(xc_level *l);
xc_port *xc_add_port(xc_block *b);

/* What every stage needs to report errors. */
typedef struct xc_ctx {
  const char *file;
  bsim_error *err;
  bsim_diagram *diagram;   /* receives the notes (xc_note) */
  const bsim_library *lib; /* where block types are looked up */
  const sciv *dict;  /* .zcos dictionary (a list), NULL for a plain .xcos */
  const char *block; /* the block being read, for messages ("" when none) */
} xc_ctx;

int xc_nomem(xc_ctx *c);
/* Add a note to the diagram (bsim_diagram_note_at): something the reader
 * did as Xcos does that a user may want to know. 0, or -1 out of memory. */
int xc_note(xc_ctx *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A link as it runs: from a block output to a block input, splits gone. */
typedef struct xc_wire {
  int kind; /* 0 data, 1 event, 2 implicit (from / to: the two ends) */
  int from_block, from_port, to_block, to_port;
  int line;
} xc_wire;

/* nets.c: the level's links resolved through split blocks into wires, and
 * the blocks Xcos ignores for undefined inputs marked dead (alive[i] = 0,
 * alive has nblocks entries); `path` is the level's path for the notes,
 * which are added when `notes` is 1. *out is malloc'ed. 0, or -1 with the
 * error set. */
int xc_resolve_links(xc_ctx *c, const xc_level *l, const char *path,
                     xc_wire **out, int *nout, char *alive, int notes);

/* The number of port p among block b's ports of its kind (from 1): its
 * ordering when given, else its position. */
int xc_port_number(const xc_block *b, int p);

/* linknum.c: every block's linknum, as Scilab's compiler numbers the link
 * buffers of the diagram whose top level is `top`. 0, or -1 (out of
 * memory). */
int xc_number_links(xc_ctx *c, xc_level *top);

/* params.c: append a parameter (name = text) to a block. 0, or -1 out of
 * memory. */
int xc_add_param(xc_ctx *c, dg_block *out, const char *name, const char *text,
                 int line);

/* implicit.c: implicit ports and links (acausal components). */
int xc_has_implicit(const xc_block *b);
/* The native number of data port p: its ordering, or for a block with
 * implicit ports, its rank among the explicit ports of its kind. */
int xc_data_port_number(const xc_block *b, int p);
/* The superblock connector number that connector port block bi of l
 * (INIMPL_f, OUTIMPL_f) stands for. */
int xc_conport_rank(const xc_level *l, int bi);
/* The native connector reference of implicit port p of b (a Modelica
 * name, or a superblock's connector number) into buf. 0, or -1 with the
 * error set. */
int xc_con_ref(xc_ctx *c, const xc_block *b, int p, char *buf, size_t len);
/* The level's implicit links grouped into nets through splits; each net
 * gives push() wires of kind 2 from its first port to every other. */
int xc_implicit_nets(xc_ctx *c, const xc_level *l,
                     int (*push)(xc_ctx *c, void *w, xc_wire x), void *w);

/* javaser_sci.c: decode dictionary.ser into a list; NULL with msg set. */
sciv *xc_dictionary_decode(const unsigned char *buf, size_t len, char *msg,
                           size_t msglen);

/* scsm.c: a level from an scs_m "diagram" mlist (Scilab 5.5 superblock
 * contents). `where` names the superblock for messages, `line` is its
 * line (the stored blocks have none). NULL on error. */
xc_level *xc_level_from_scsm(xc_ctx *c, const sciv *diagram, const char *where,
                             int line);

/* build.c: the Diagram tree of a level (names, splits resolved, links by
 * port number, block parameters). `path` is the level's path for
 * messages ("" at the top); `frozen`: the level is the contents of a
 * masked superblock without parameters, which Xcos does not re-evaluate
 * (its blocks run on their stored models). NULL on error. */
dg_diagram *xc_build_level(xc_ctx *c, const xc_level *l, const char *path,
                           int frozen);

/* params.c: fill a dg_block (type, params or stored model) from an Xcos
 * block. 0, or -1 with the error set. */
int xc_block_params(xc_ctx *c, const xc_block *xb, const char *path, int frozen,
                    dg_block *out);

/* A small integer a file stores as a double (a port size, a function
 * type, a link kind): v when it lies within +-1e6, else fallback, as for
 * NaN; converting a larger double to int is undefined. */
static inline int xc_int_or(double v, int fallback) {
  return v > -1e6 && v < 1e6 ? (int)v : fallback;
}

#endif
