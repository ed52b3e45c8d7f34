/*
 * A test block written as an Xcos implicit type-4 block is (Xcos's
 * function type 10004): flag 0 writes residuals from the state and its
 * derivative, here res = x' + a x - u (so x' = u - a x), y = x, with
 * rpar = [a]. ipar(1) = 1 declares the state algebraic at flag 7, which
 * blocksim must refuse.
 */
#include "scicos_block4.h"

void xs_implicit(scicos_block *block, int flag) {
  double *x = GetState(block);
  double *xd = GetDerState(block);
  double *res = GetResState(block);
  double *u = GetRealInPortPtrs(block, 1);
  double *y = GetRealOutPortPtrs(block, 1);
  double a = GetRparPtrs(block)[0];

  if (flag == DerivativeState) {
    res[0] = xd[0] + a * x[0] - u[0];
  } else if (flag == OutputUpdate || flag == ReInitialization) {
    y[0] = x[0];
  } else if (flag == ContinuousPropertiesUpdate) {
    int prop = GetNipar(block) > 0 && GetIparPtrs(block)[0] == 1 ? -1 : 1;
    set_pointer_xproperty(&prop);
  }
}
