/*
 * Xcos's export macro for its own blocks' functions; a plugin's functions
 * need no decoration.
 */
#ifndef SCICOS_BLOCKS_IMPEXP
#define SCICOS_BLOCKS_IMPEXP
#endif
