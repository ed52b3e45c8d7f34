/*
 * A test block written as an Xcos type-4 block is (scicos_block4.h and its
 * macros only): a second-order system with two continuous states,
 *   x1' = x2,  x2' = w^2 (u - x1) - 2 zeta w x2,  y = [x1; x2],
 * rpar = [w; zeta], state = [x1(0); x2(0)].
 */
#include "scicos_block4.h"

void xs_oscillator(scicos_block *block, int flag) {
  double *x = GetState(block);
  double *xd = GetDerState(block);
  double *rpar = GetRparPtrs(block);
  double *u = GetRealInPortPtrs(block, 1);
  double *y = GetRealOutPortPtrs(block, 1);

  switch (flag) {
  case Initialization:
    if (GetNrpar(block) != 2 || GetNstate(block) != 2 ||
        GetOutPortRows(block, 1) != 2) {
      Coserror("xs_oscillator: needs rpar = [w; zeta], 2 states and an "
               "output of 2 rows (got %d, %d, %d)",
               GetNrpar(block), GetNstate(block), GetOutPortRows(block, 1));
      return;
    }
    if (rpar[0] <= 0) set_block_error(-2);
    break;
  case DerivativeState:
    xd[0] = x[1];
    xd[1] = rpar[0] * rpar[0] * (u[0] - x[0]) - 2 * rpar[1] * rpar[0] * x[1];
    break;
  case OutputUpdate:
  case ReInitialization:
    y[0] = x[0];
    y[1] = x[1];
    break;
  default:
    break;
  }
}
