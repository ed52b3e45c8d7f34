/*
 * Block libraries: the set of block types (and extra engines) a diagram may
 * use, as an object the caller creates and passes to loading, rather than a
 * table the whole process shares. One library starts with the standard
 * blocks and grows with the caller's own types and plugins, so that two
 * programs (or two threads of one) can run diagrams against different sets
 * of blocks.
 *
 * Ownership: libraries are shared by reference count. bsim_library_create
 * gives the caller one reference, which bsim_library_free drops; every
 * diagram loaded with a library, every sim or analysis made from it and
 * every child library holds its own, so the order in which they are freed
 * does not matter: the library (and the plugins it loaded) goes with the
 * last reference. The count is the only part that changes once a library
 * is shared, atomically: a library is read by several threads at once
 * without locks, but adding types or plugins to it while another thread
 * uses it is not allowed (give that thread a child library instead).
 */
#ifndef BLOCKSIM_LIBRARY_H
#define BLOCKSIM_LIBRARY_H

#include "export.h"

#include <stddef.h>

#include "block.h"
#include "engine.h"
#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bsim_library bsim_library;

/* A library holding the standard blocks. NULL when out of memory (err
 * says so). */
BSIM_API bsim_library *bsim_library_create(bsim_error *err);
/* An empty library on top of parent (which it keeps a reference to):
 * lookups and listings see the parent's types first, then its own; names
 * it adds must be new to both. A diagram's <library> plugins live in one,
 * so that they never change the caller's library. */
BSIM_API bsim_library *bsim_library_create_child(const bsim_library *parent,
                                                 bsim_error *err);
/* Drop the caller's reference (NULL is ignored). */
BSIM_API void bsim_library_free(bsim_library *lib);
/* Take / drop one more reference, for objects that keep a library (a
 * diagram, a sim). retain returns lib. */
BSIM_API const bsim_library *bsim_library_retain(const bsim_library *lib);
BSIM_API void bsim_library_release(const bsim_library *lib);

/* Register n block types. The descriptors are not copied: they, and
 * everything they point to, must stay valid and unchanged as long as the
 * library lives (static const descriptors are the rule).
 *
 * A type's interface name must be new: equal to no interface name nor
 * simulation-function name already registered (nor of another type of the
 * same call). Its simulation-function name may equal a registered name only
 * when both types share their computational function (CLSS and CLR both
 * run "csslti4"); the type registered first then answers for it.
 *
 * All or nothing: 0, or -1 with err (status BSIM_ERR_INPUT naming both
 * types and where each came from) and nothing added. */
BSIM_API int bsim_library_add(bsim_library *lib,
                              const bsim_block_type *const *types, size_t n,
                              bsim_error *err);

/* The type registered under interface name `name`, else the first type
 * whose simulation-function name is `name` (interface names win, so that
 * "sin_blk" finds its own type and not TrigFun's). NULL if none. */
BSIM_API const bsim_block_type *bsim_library_find(const bsim_library *lib,
                                                  const char *name);

/* The i-th type in registration order (standard blocks first), or NULL past
 * the end. *origin, when origin is not NULL, receives where it came from:
 * "standard", the path of the plugin that added it, or "program" for types
 * the host program added itself. */
BSIM_API const bsim_block_type *
bsim_library_type_at(const bsim_library *lib, size_t i, const char **origin);

/* ------------------------------------------------------------------ */
/* Plugins (blocks/plugin.c; writing one: blocksim/plugin.h)           */
/* ------------------------------------------------------------------ */

/* Load the plugin at `path` (dlopen; a path without '/' is taken relative
 * to the current directory, never searched for) and run its
 * bsim_plugin_init, which registers its types (origin: the path) and
 * engines. Loading a plugin the library (or its parent) already holds
 * does nothing. Status BSIM_ERR_INPUT, with the path and the reason, for a
 * file that cannot be loaded, a missing entry point, a plugin built for
 * another ABI (BSIM_ABI_VERSION), a name clash or a failing init; nothing
 * it registered then stays. 0 or -1. */
BSIM_API int bsim_library_load(bsim_library *lib, const char *path,
                               bsim_error *err);

/* Load every "*.so" file of each directory of a ':'-separated list, in
 * name order (BLOCKSIM_PLUGIN_PATH's format; empty entries are skipped).
 * A directory that cannot be read is an error, as is any plugin's. */
BSIM_API int bsim_library_load_dirs(bsim_library *lib, const char *dirs,
                                    bsim_error *err);

/* ------------------------------------------------------------------ */
/* C blocks (blocks/cblock.c)                                          */
/* ------------------------------------------------------------------ */

/* What bsim_library_compile_c's code defines: an Xcos type-4 function
 * (CBLOCK's), an implicit one, or a type-1 function (c_block's). */
enum { BSIM_C_TYPE4 = 0, BSIM_C_TYPE4_IMPLICIT = 1, BSIM_C_TYPE1 = 2 };

/* Compile `source`, C code defining the Xcos function `function` of the
 * given kind (BSIM_C_*) as Xcos's CBLOCK or c_block carries it, with the
 * system's C compiler into a shared object, and load it: the type
 * `function` (parameters as BSIM_SCICOS4_TYPE's) joins lib with origin
 * `origin` (e.g. "model.xml:12: block 'c'", also the prefix of messages).
 * The object is cached (bsim_library_set_c_compiler), keyed by a hash of
 * the source, the function, the compiler and blocksim's version: the same
 * code is compiled once. A compiler failure is status BSIM_ERR_INPUT with
 * the compiler's message. 0 or -1. */
BSIM_API int bsim_library_compile_c(bsim_library *lib, const char *function,
                                    const char *source, int kind,
                                    const char *origin, bsim_error *err);

/* The compiler command for C blocks (words separated by spaces, e.g.
 * "gcc -O3"; NULL: $CC, else "cc") and the cache folder (NULL:
 * $XDG_CACHE_HOME/blocksim, else $HOME/.cache/blocksim). Child libraries
 * use their parent's setting. 0 or -1. */
BSIM_API int bsim_library_set_c_compiler(bsim_library *lib, const char *cc,
                                         const char *cache_dir,
                                         bsim_error *err);

/* ------------------------------------------------------------------ */
/* Engines (scheduler/engines.c)                                       */
/* ------------------------------------------------------------------ */

/* Register an integrator (descriptor not copied, as for types). Its name
 * must differ from the built-in engines' and other plugins'. 0 or -1
 * (status BSIM_ERR_INPUT). */
BSIM_API int bsim_library_add_engine(bsim_library *lib,
                                     const bsim_engine_type *e,
                                     bsim_error *err);

/* The engines a run with this library may choose, built-in ones first
 * (the first is the default), then those of plugins in registration
 * order; *origin as for types ("standard" for built-ins). NULL past the
 * end. */
BSIM_API const bsim_engine_type *
bsim_library_engine_at(const bsim_library *lib, size_t i, const char **origin);
/* By name; NULL or "" gives the default. NULL when unknown. */
BSIM_API const bsim_engine_type *
bsim_library_engine_find(const bsim_library *lib, const char *name);

#ifdef __cplusplus
}
#endif
#endif
