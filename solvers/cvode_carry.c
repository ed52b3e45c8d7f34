/*
 * Carrying CVODE's history across a discontinuity of the derivatives, the
 * twin of solvers/ida_carry.c for the Nordsieck form CVODE keeps. It reads
 * CVODE's private memory (cvode_impl.h), which neither the public API nor
 * Debian's package offers: the header comes with the SUNDIALS the build
 * compiles from source (cmake/sundials.cmake), and without it
 * (BSIM_HAVE_CVODE_IMPL undefined) the CVODE engines restart at every
 * discontinuity as before.
 *
 * CVODE's history at tn is the Nordsieck array zn[j] = h^j / j! y^(j)(tn),
 * j = 0..q, h the last step. If the solution changes at t by
 * q(s) = sum_m jump_m s^m / m! (s = time - t), the new solution's array
 * adds h^j / j! q^(j)(tn - t): the predictor, the interpolant and the error
 * test then see the new solution as if it had always been smooth.
 */
#include "solvers/cvode_carry.h"

#ifdef BSIM_HAVE_CVODE_IMPL

#include <math.h>

#include <cvode/cvode_impl.h>
#include <nvector/nvector_serial.h>

int bsim_cvode_carry_terms(void *cvode_mem, double t) {
  CVodeMem m = cvode_mem;
  if (!m || m->cv_nst < 1 || m->cv_q < 1) return 0;
  /* The last step must end at t (a stop time does that exactly): a step
   * that straddled the discontinuity holds it in its history. */
  double fuzz = 100.0 * m->cv_uround * (fabs(m->cv_tn) + fabs(m->cv_h));
  if (!(fabs(m->cv_tn - t) <= fuzz)) return 0;
  return m->cv_q;
}

int bsim_cvode_carry(void *cvode_mem, double t, int nterms,
                     const double *const *jumps) {
  CVodeMem m = cvode_mem;
  int q = m->cv_q;
  if (nterms < q || q > BSIM_CVODE_CARRY_MAX) return -1;
  /* the engine's vectors are serial ones (solvers/cvode.c) */
  int n = (int)NV_LENGTH_S(m->cv_zn[0]);
  double s = m->cv_tn - t, h = m->cv_h;
  /* scale[j] = h^j / j! */
  double scale[BSIM_CVODE_CARRY_MAX + 1];
  scale[0] = 1.0;
  for (int j = 1; j <= q; j++)
    scale[j] = scale[j - 1] * h / j;
  for (int i = 0; i < n; i++) {
    int any = 0;
    for (int mm = 0; mm < q; mm++)
      any |= jumps[mm][i] != 0.0;
    if (!any) continue;
    /* q^(j)(s) = sum_{m >= j} jump_m s^(m-j) / (m-j)!, by Horner in s;
     * jump_0 = 0 (y is continuous), jump_m = jumps[m-1][i]. */
    for (int j = 0; j <= q; j++) {
      double v = 0.0;
      for (int mm = q; mm >= j; mm--)
        v = v * s / (mm - j + 1) + (mm > 0 ? jumps[mm - 1][i] : 0.0);
      NV_Ith_S(m->cv_zn[j], i) += scale[j] * v;
    }
  }
  /* The correction CVODE saved to weigh a higher order is the old
   * solution's: wait for a fresh one before the order may rise. */
  if (m->cv_qwait < q + 1) m->cv_qwait = q + 1;
  return 0;
}

/* After the history changed: the root functions at tn, which CVODE
 * compares with their values at the end of the next step, become those of
 * the new solution. A surface exactly at zero there cannot be classified
 * without stepping: 1, and the caller restarts instead. */
int bsim_cvode_carry_roots(void *cvode_mem) {
  CVodeMem m = cvode_mem;
  if (m->cv_nrtfn == 0) return 0;
  int rc = m->cv_gfun(m->cv_tn, m->cv_zn[0], m->cv_glo, m->cv_user_data);
  m->cv_nge++;
  if (rc != 0) return -1;
  for (int i = 0; i < m->cv_nrtfn; i++)
    if (m->cv_gactive[i] && m->cv_glo[i] == 0.0) return 1;
  m->cv_tlo = m->cv_tn;
  m->cv_irfnd = 0;
  return 0;
}

#endif
