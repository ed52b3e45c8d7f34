/*
 * A test block written as an Xcos type-4 block is: saturation of a scalar
 * with two zero-crossing surfaces and one mode, in the way Xcos's own
 * saturation works. The mode (1 upper limit, 2 linear, 3 lower limit) is
 * chosen only while events are handled (get_phase_simulation() == 1);
 * while integrating the output follows the mode, so the solver must find
 * where u crosses a limit. rpar = [upper; lower].
 */
#include "scicos.h"
#include "scicos_block4.h"

void xs_satmode(scicos_block *block, int flag) {
  double *u = GetRealInPortPtrs(block, 1);
  double *y = GetRealOutPortPtrs(block, 1);
  double *rpar = GetRparPtrs(block);
  double *g = GetGPtrs(block);
  int *mode = GetModePtrs(block);

  if (flag == OutputUpdate || flag == ReInitialization) {
    if (get_phase_simulation() == 1 || GetNmode(block) == 0) {
      if (u[0] >= rpar[0])
        y[0] = rpar[0];
      else if (u[0] <= rpar[1])
        y[0] = rpar[1];
      else
        y[0] = u[0];
    } else if (mode[0] == 1) {
      y[0] = rpar[0];
    } else if (mode[0] == 3) {
      y[0] = rpar[1];
    } else {
      y[0] = u[0];
    }
  } else if (flag == ZeroCrossing) {
    g[0] = u[0] - rpar[0];
    g[1] = u[0] - rpar[1];
    if (get_phase_simulation() == 1 && GetNmode(block) > 0) {
      if (g[0] >= 0)
        mode[0] = 1;
      else if (g[1] <= 0)
        mode[0] = 3;
      else
        mode[0] = 2;
    }
  }
}
