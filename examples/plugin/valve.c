/*
 * An Xcos type-4 block, as Xcos users write them: a valve that lets the
 * inflow rpar(1) through until its input (a level) reaches rpar(2), and
 * closes from then on. The closing is a zero crossing of u - rpar(2); the
 * mode (1 open, 0 closed) changes only while events are handled.
 */
#include "scicos_block4.h"
#include "scicos.h"

void ex_valve(scicos_block *block, int flag)
{
  double *u = GetRealInPortPtrs(block, 1);
  double *y = GetRealOutPortPtrs(block, 1);
  double *rpar = GetRparPtrs(block);
  int *mode = GetModePtrs(block);

  if (flag == ZeroCrossing) {
    GetGPtrs(block)[0] = u[0] - rpar[1];
    if (get_phase_simulation() == 1)
      mode[0] = u[0] < rpar[1];
  } else if (flag == OutputUpdate || flag == ReInitialization) {
    int open = get_phase_simulation() == 1 ? u[0] < rpar[1] : mode[0];
    y[0] = open ? rpar[0] : 0.0;
  }
}
