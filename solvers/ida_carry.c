/*
 * Carrying IDA's history across a discontinuity of the derivatives, so that
 * an event which only kinks the solution costs no restart (the engine's
 * carry operation, solvers/ida.c). This is the one file that reads IDA's
 * private memory (ida_impl.h, which Debian's libsundials-dev installs):
 * the public API offers no way to correct a history, only to discard it.
 *
 * IDA keeps the solution's past as modified divided differences: with
 * nodes tau_0 = tn and tau_j = tn - psi[j-1], phi[j] = psi[0] ... psi[j-1]
 * times the divided difference y[tau_0, ..., tau_j], for j up to
 * kused + 1 (phi[kused+1] is the last correction, the next difference);
 * IDAGetSolution evaluates exactly this Newton form. If the solution
 * changes at tn = t by q(s) = sum_m jump_m s^m / m! (s = time - t), the
 * history of the new solution is the old one plus the divided differences
 * of q at the same nodes: the predictor, the interpolant and the error
 * estimates then see the new solution as if it had always been smooth.
 */
#include "solvers/ida_carry.h"

#include <math.h>
#include <stdlib.h>

#include <ida/ida_impl.h>
#include <nvector/nvector_serial.h>

/* How many differences the history holds beyond phi[0]. */
static int history_len(const IDAMem m) {
  int k = m->ida_kused + 1; /* phi[kused + 1] = the last step's correction */
  if (k > m->ida_maxord) k = m->ida_maxord;
  if (m->ida_kk > k) k = m->ida_kk;
  return k;
}

int bsim_ida_carry_terms(void *ida_mem, double t) {
  IDAMem m = ida_mem;
  if (!m || m->ida_nst < 1 || m->ida_kused < 1) return 0;
  /* The last step must end at t (a stop time does that exactly): a step
   * that straddled the discontinuity holds it in its history. */
  double fuzz = 100.0 * m->ida_uround * (fabs(m->ida_tn) + fabs(m->ida_hh));
  if (!(fabs(m->ida_tn - t) <= fuzz)) return 0;
  return history_len(m);
}

int bsim_ida_carry(void *ida_mem, double t, int nterms,
                   const double *const *jumps) {
  IDAMem m = ida_mem;
  int k = history_len(m);
  if (nterms < k || k > BSIM_IDA_CARRY_MAX) return -1;
  /* the engine's vectors are serial ones (solvers/ida.c): read directly */
  int n = (int)NV_LENGTH_S(m->ida_phi[0]);
  /* s_j = tau_j - t, and the weight psi[0] ... psi[j-1] of difference j */
  double s[BSIM_IDA_CARRY_MAX + 1], w[BSIM_IDA_CARRY_MAX + 1];
  double *phi[BSIM_IDA_CARRY_MAX + 1];
  s[0] = m->ida_tn - t;
  w[0] = 1.0;
  for (int j = 1; j <= k; j++) {
    s[j] = m->ida_tn - m->ida_psi[j - 1] - t;
    w[j] = w[j - 1] * m->ida_psi[j - 1];
  }
  for (int j = 0; j <= k; j++)
    phi[j] = NV_DATA_S(m->ida_phi[j]);
  double q[BSIM_IDA_CARRY_MAX + 1];
  for (int i = 0; i < n; i++) {
    int any = 0;
    for (int mm = 0; mm < k; mm++)
      any |= jumps[mm][i] != 0.0;
    if (!any) continue;
    /* q at the nodes (Horner), then its divided differences in place */
    for (int j = 0; j <= k; j++) {
      double v = 0.0;
      for (int mm = k; mm >= 1; mm--)
        v = (v + jumps[mm - 1][i]) * s[j] / mm;
      q[j] = v;
    }
    for (int l = 1; l <= k; l++)
      for (int j = k; j >= l; j--)
        q[j] = (q[j] - q[j - 1]) / (s[j] - s[j - l]);
    for (int j = 0; j <= k; j++)
      phi[j][i] += w[j] * q[j];
  }
  return 0;
}

/* After the history changed: the root functions at tn, which IDA compares
 * with their values at the end of the next step, become those of the new
 * solution (IDA's own check at a fresh start, IDARcheck1, is not run on a
 * carried history). A surface exactly at zero there cannot be classified
 * without stepping: 1, and the caller restarts instead. */
int bsim_ida_carry_roots(void *ida_mem) {
  IDAMem m = ida_mem;
  if (m->ida_nrtfn == 0) return 0;
  if (IDAGetDky(m, m->ida_tn, 0, m->ida_yy) != IDA_SUCCESS ||
      IDAGetDky(m, m->ida_tn, 1, m->ida_yp) != IDA_SUCCESS)
    return -1;
  int rc = m->ida_gfun(m->ida_tn, m->ida_yy, m->ida_yp, m->ida_glo,
                       m->ida_user_data);
  m->ida_nge++;
  if (rc != 0) return -1;
  for (int i = 0; i < m->ida_nrtfn; i++)
    if (m->ida_gactive[i] && m->ida_glo[i] == 0.0) return 1;
  m->ida_tlo = m->ida_tn;
  m->ida_irfnd = 0;
  return 0;
}
