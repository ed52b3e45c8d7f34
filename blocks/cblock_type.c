/*
 * CBLOCK, CBLOCK4 and c_block, Xcos's C blocks that carry their source: as
 * types they exist to declare their parameters (the function's name, its
 * code, whether it is implicit, and the model fields) and to document
 * them. A reader compiles the code when it loads the diagram
 * (bsim_library_compile_c) and turns each such block into one of the type
 * the code defines, so these types never run themselves.
 */
#include "blocks/scicos4.h"
#include "blocks/std.h"

static const bsim_param_spec cblock_params[] = {
    {"function", BSIM_PARAM_STRING, NULL,
     "name of the C function the code defines (Xcos's simulation function)"},
    {"code", BSIM_PARAM_STRING, NULL,
     "the C source: an Xcos type-4 computational function, "
     "void function(scicos_block *block, int flag)"},
    {"implicit", BSIM_PARAM_STRING, "n",
     "y: an implicit function (flag 0 writes residuals), n: explicit"},
    BSIM_SCICOS4_PARAM_SPECS};

/* c_block: a type-1 function, never implicit. */
static const bsim_param_spec c_block_params[] = {
    {"function", BSIM_PARAM_STRING, NULL,
     "name of the C function the code defines (Xcos's simulation function)"},
    {"code", BSIM_PARAM_STRING, NULL,
     "the C source: an Xcos type-1 computational function, "
     "void function(int *flag, int *nevprt, double *t, double *xd, ...)"},
    BSIM_SCICOS4_PARAM_SPECS};

static int cblock_define(bsim_define_ctx *ctx, bsim_model *m) {
  return bsim_define_error(ctx, "a C block is compiled when its diagram is "
                                "loaded; this one was not (hint: load the "
                                "diagram with bsim_diagram_load)");
}

static void cblock_fn(bsim_block *blk, int flag) {
  bsim_block_error(blk, "a C block that was never compiled cannot run");
}

#define CBLOCK_DOC                                                             \
  "C code that comes with the diagram, as Xcos's CBLOCK carries it: the\n"     \
  "parameter 'code' holds an Xcos type-4 computational function named\n"       \
  "'function' (#include \"scicos_block4.h\" and Xcos's accessors and\n"        \
  "services, docs/extending.md). When the diagram is loaded the code is\n"     \
  "compiled with the system's C compiler ($CC, else cc) into a shared\n"       \
  "object cached in $XDG_CACHE_HOME/blocksim (else ~/.cache/blocksim),\n"      \
  "keyed by a hash of the code: the same code is compiled once. The block\n"   \
  "then runs as the type 'function', whose parameters are the model data\n"    \
  "listed here (rpar, ipar, in, out, state, ...). A compiler error is bad\n"   \
  "input (status 2) with the compiler's message. In a native diagram the\n"    \
  "code may be the text of <param name=\"code\">...</param>."

#define C_BLOCK_DOC                                                            \
  "C code that comes with the diagram, as Xcos's c_block carries it: the\n"    \
  "parameter 'code' holds an Xcos type-1 computational function named\n"       \
  "'function', whose arguments are flag, nevprt, t, xd, x, nx, z, nz,\n"       \
  "tvec, ntvec, rpar, nrpar, ipar, nipar, then u1, nu1, ... per input and\n"   \
  "y1, ny1, ... per output, all pointers (docs/extending.md). It is\n"         \
  "compiled and cached as CBLOCK's code is ($CC, else cc; cache in\n"          \
  "$XDG_CACHE_HOME/blocksim, else ~/.cache/blocksim); a compiler error\n"      \
  "is bad input (status 2) with the compiler's message. The block then\n"      \
  "runs as the type 'function' with the model data listed here (rpar,\n"       \
  "in, out, state, ...; at most 18 ports, no modes, no opar). In a native\n"   \
  "diagram the code may be the text of <param name=\"code\">...</param>."

/* Xcos has two dialogs for the same block; both names are accepted. */
#define CBLOCK_TYPE(name, params, doc)                                         \
  {                                                                            \
    name, name, "C block compiled from its own source.", doc, params,          \
        (int)(sizeof params / sizeof params[0]), cblock_define, cblock_fn, 0   \
  }

static const bsim_block_type type_CBLOCK =
    CBLOCK_TYPE("CBLOCK", cblock_params, CBLOCK_DOC);
static const bsim_block_type type_CBLOCK4 =
    CBLOCK_TYPE("CBLOCK4", cblock_params, CBLOCK_DOC);
static const bsim_block_type type_c_block =
    CBLOCK_TYPE("c_block", c_block_params, C_BLOCK_DOC);

const bsim_block_type *const bsim_cblock_types[] = {&type_CBLOCK, &type_CBLOCK4,
                                                    &type_c_block};
const int bsim_cblock_ntypes = 3;
