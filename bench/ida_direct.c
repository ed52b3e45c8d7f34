/*
 * The pendulum pair of bench/data/pendulums.xml written directly against
 * SUNDIALS IDA, as a C programmer would without blocksim: the baseline that
 * bench/overhead.c measures the library's cost against. Same equations,
 * tolerances, output times, linear solver (dense, IDA's own difference
 * quotients) and consistent-initial-value call as the diagram's run, and
 * the same numerical kernels: the engines replace Debian's unoptimised
 * serial-vector operations and dense LU (solvers/nvec_fast.c,
 * solvers/dense_lu.c), and so does this program, or the ratio would
 * measure that build of SUNDIALS rather than the diagram machinery.
 */
#include "bench/ida_direct.h"

#include <math.h>
#include <string.h>

#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunmatrix/sunmatrix_dense.h>

#include "solvers/dense_lu.h"
#include "solvers/nvec_fast.h"

/* Keep in step with bench/data/pendulums.xml. */
static const double GL = 9.81, C = 0.1, K = 0.5;

/* y = [th1, w1, th2, w2] in the diagram's state order. */
static int pendulum_res(realtype t, N_Vector yy, N_Vector yp, N_Vector rr,
                        void *ud) {
  const double *y = N_VGetArrayPointer(yy), *d = N_VGetArrayPointer(yp);
  double *r = N_VGetArrayPointer(rr);
  double spring = K * (y[2] - y[0]);
  r[0] = d[0] - y[1];
  r[1] = d[1] - (-GL * sin(y[0]) - C * y[1] + spring);
  r[2] = d[2] - y[3];
  r[3] = d[3] - (-GL * sin(y[2]) - C * y[3] - spring);
  return 0;
}

int bench_ida_direct(double tf, int samples, double rtol, double atol,
                     double *final, long *steps) {
  SUNContext ctx = NULL;
  void *mem = NULL;
  N_Vector y = NULL, yp = NULL, id = NULL;
  SUNMatrix A = NULL;
  SUNLinearSolver ls = NULL;
  int rc = -1;
  if (SUNContext_Create(NULL, &ctx) != 0) return -1;
  y = N_VNew_Serial(4, ctx);
  yp = N_VNew_Serial(4, ctx);
  id = N_VNew_Serial(4, ctx);
  if (!y || !yp || !id) goto done;
  bsim_nvec_fast(y); /* IDA clones its vectors from y */
  bsim_nvec_fast(yp);
  bsim_nvec_fast(id);
  N_VConst(1.0, id); /* all unknowns differential */
  double *yv = N_VGetArrayPointer(y), *dv = N_VGetArrayPointer(yp);
  const double y0[4] = {1, 0, 0, 0};
  memcpy(yv, y0, sizeof y0);
  memset(dv, 0, 4 * sizeof(double));
  mem = IDACreate(ctx);
  A = SUNDenseMatrix(4, 4, ctx);
  ls = A ? bsim_dense_lu_create(A, ctx) : NULL;
  if (!mem || !ls || IDAInit(mem, pendulum_res, 0.0, y, yp) < 0 ||
      IDASStolerances(mem, rtol, atol) < 0 ||
      IDASetLinearSolver(mem, ls, A) < 0 ||
      IDASetMaxNumSteps(mem, 100000) < 0 || IDASetId(mem, id) < 0 ||
      IDACalcIC(mem, IDA_YA_YDP_INIT, tf / (samples - 1)) < 0)
    goto done;
  for (int i = 1; i < samples; i++) {
    double tout = tf * i / (samples - 1), tret;
    if (IDASolve(mem, tout, &tret, y, yp, IDA_NORMAL) < 0) goto done;
  }
  memcpy(final, yv, 4 * sizeof(double));
  IDAGetNumSteps(mem, steps);
  rc = 0;
done:
  IDAFree(&mem);
  if (ls) SUNLinSolFree(ls);
  if (A) SUNMatDestroy(A);
  if (y) N_VDestroy(y);
  if (yp) N_VDestroy(yp);
  if (id) N_VDestroy(id);
  SUNContext_Free(&ctx);
  return rc;
}
