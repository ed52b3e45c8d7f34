/*
 * Private to the zero-crossing family, which spans two files (the blocks
 * with modes, modes.c, are listed in the family table of zcross.c), and
 * to INTEGRAL_m's saturation in linear.c, which shares the tie rule below.
 */
#ifndef BSIM_BLOCKS_ZCROSS_H
#define BSIM_BLOCKS_ZCROSS_H

#include "blocksim/block.h"

extern const bsim_block_type bsim_type_SATURATION;
extern const bsim_block_type bsim_type_HYSTHERESIS;
extern const bsim_block_type bsim_type_SWITCH2_m;
extern const bsim_block_type bsim_type_SIGNUM;

/*
 * Ties at a root. The integrator may stop exactly on a surface (g == 0 in
 * floating point), and then the values alone cannot tell which piece comes
 * next: a saturation whose input falls exactly onto its limit would stay
 * saturated. The direction of the crossing can: a block remembers its
 * jroot at flag 2 (nevprt = -1), and when it chooses modes at that same
 * instant, a surface found exactly at zero is read on the side it is
 * heading to. The record is the block's work memory.
 */
typedef struct bsim_zc_ties {
  double t;  /* time of the root the directions belong to */
  int valid; /* a root has been seen */
  int n;
  int dir[]; /* jroot of that root, one per surface */
} bsim_zc_ties;

/* Flag 4: allocate the record for blk->ng surfaces into *blk->work (none
 * when ng = 0). 0, or -1 after bsim_block_error. */
int bsim_zc_ties_init(bsim_block *blk);
/* Flag 2 with nevprt = -1: remember jroot. */
void bsim_zc_ties_note(bsim_block *blk);
/* Surface k's value g, or when it is exactly 0 at the time of the
 * remembered root, a tiny value on the side the surface was heading to. */
double bsim_zc_ties_side(const bsim_block *blk, int k, double g);
/* Flag 5. */
void bsim_zc_ties_free(bsim_block *blk);
/* The flags every block using the tie record handles alike: flag 4
 * allocates it (and returns 0: the block's own checks follow), flags 5
 * and 2 are served (1 returned). Other flags: 0. */
int bsim_zc_ties_flags(bsim_block *blk, int flag);

#endif
