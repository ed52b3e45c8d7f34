/*
 * Block libraries: the set of block types a diagram may use, as an object
 * the caller creates and passes to loading, rather than a table the whole
 * process shares. One library starts with the standard blocks and grows
 * with the caller's own types and plugins, so that two programs (or two
 * threads of one) can run diagrams against different sets of blocks.
 *
 * Ownership: whoever creates a library frees it, after every diagram and
 * every sim made with it (they keep pointers into it). A library is read
 * concurrently without locks; adding types to it while another thread
 * loads or runs a diagram with it is not allowed.
 */
#ifndef BLOCKSIM_LIBRARY_H
#define BLOCKSIM_LIBRARY_H

#include <stddef.h>

#include "block.h"
#include "error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bsim_library bsim_library;

/* A library holding the standard blocks. NULL when out of memory (err
 * says so). */
bsim_library *bsim_library_create(bsim_error *err);
void bsim_library_free(bsim_library *lib);

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
int bsim_library_add(bsim_library *lib, const bsim_block_type *const *types,
                     size_t n, bsim_error *err);

/* The type registered under interface name `name`, else the first type
 * whose simulation-function name is `name` (interface names win, so that
 * "sin_blk" finds its own type and not TrigFun's). NULL if none. */
const bsim_block_type *bsim_library_find(const bsim_library *lib,
                                         const char *name);

/* The i-th type in registration order (standard blocks first), or NULL past
 * the end. *origin, when origin is not NULL, receives where it came from:
 * "standard", the path of the plugin that added it, or "program" for types
 * the host program added itself. */
const bsim_block_type *bsim_library_type_at(const bsim_library *lib, size_t i,
                                            const char **origin);

#ifdef __cplusplus
}
#endif
#endif
