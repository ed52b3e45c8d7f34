/*
 * An Xcos type-1 computational function (Xcos's older argument list), as
 * an Xcos user writes one: counts the upward and downward crossings of
 * its input through rpar(1), with one zero-crossing surface. A call
 * caused by its own crossing (nevprt < 0) finds the direction in g.
 * Outputs [upward count; downward count], kept in z. It has one
 * (constant) continuous state because Xcos calls flag 2 at a block's own
 * crossing only when the block has continuous states (to let it jump
 * them); blocksim calls it for discrete states as well.
 */
void xs_crossings1(int *flag, int *nevprt, double *t, double *xd, double *x,
                   int *nx, double *z, int *nz, double *tvec, int *ntvec,
                   double *rpar, int *nrpar, int *ipar, int *nipar, double *u1,
                   int *nu1, double *y1, int *ny1, double *g, int *ng) {
  if (*flag == 0) {
    xd[0] = 0; /* a constant state: see above */
  } else if (*flag == 9) {
    g[0] = u1[0] - rpar[0];
  } else if (*flag == 2 && *nevprt < 0) {
    if (g[0] > 0) {
      z[0] += 1;
    } else if (g[0] < 0) {
      z[1] += 1;
    }
  } else if (*flag == 1 || *flag == 6) {
    y1[0] = z[0];
    y1[1] = z[1];
  } else if (*flag == 4 && (*nz != 2 || *nx != 1 || *ny1 != 2 || *ng != 1)) {
    *flag = -3; /* wrong model: the simulator reports an error */
  }
}
