/*
 * A test block written as an Xcos type-4 block is: the running mean of its
 * input at its activations, kept in work memory it allocates at
 * initialisation and frees at the end. ipar(1) = 1 makes every activation
 * ask for a cold restart (do_cold_restart). At the end it prints how many
 * samples it took (sciprint).
 */
#include "scicos.h"
#include "scicos_block4.h"
#include "scicos_free.h"
#include "scicos_malloc.h"
#include "sciprint.h"

typedef struct {
  double sum;
  long n;
  double last_t;
} runmean_work;

void xs_runmean(scicos_block *block, int flag) {
  double *u = GetRealInPortPtrs(block, 1);
  double *y = GetRealOutPortPtrs(block, 1);
  runmean_work *w = (runmean_work *)GetWorkPtrs(block);

  switch (flag) {
  case Initialization:
    if ((*(block->work) = scicos_malloc(sizeof(runmean_work))) == NULL) {
      set_block_error(-16);
      return;
    }
    w = (runmean_work *)GetWorkPtrs(block);
    w->sum = 0;
    w->n = 0;
    w->last_t = -1;
    y[0] = 0;
    break;
  case OutputUpdate:
    if (GetNevIn(block) > 0) {
      w->sum += u[0];
      w->n++;
      w->last_t = get_scicos_time();
      y[0] = w->sum / w->n;
      if (GetNipar(block) > 0 && GetIparPtrs(block)[0] == 1) do_cold_restart();
    }
    break;
  case Ending:
    if (w != NULL) {
      sciprint("runmean: %ld samples, last at t=%g\n", w->n, w->last_t);
      scicos_free(w);
      *(block->work) = NULL;
    }
    break;
  default:
    break;
  }
}
