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
 * q(s) = sum_m jump_m s^m / m! (s = time - t; jump_0 the jump of y, zero
 * unless a reset made y jump), the new solution's array adds
 * h^j / j! q^(j)(tn - t): the predictor, the interpolant and the error
 * test then see the new solution as if it had always been smooth. t is
 * either tn (an event at a stop time) or a root CVODE returned inside its
 * last step, tn - t up to that step: the interpolant over (t, tn] then
 * follows the new solution, and CVODE's own root search, which resumes at
 * t (cvRcheck3), finds the crossings the new solution makes there.
 */
#include "solvers/cvode_carry.h"

#ifdef BSIM_HAVE_CVODE_IMPL

#include <math.h>

#include <cvode/cvode_impl.h>
#include <nvector/nvector_serial.h>

enum { EXTRA_TERMS = 3 };

/* Whether t is where the last step ended, within rounding. */
static int at_end(const CVodeMem m, double t) {
  double fuzz = 100.0 * m->cv_uround * (fabs(m->cv_tn) + fabs(m->cv_h));
  return fabs(m->cv_tn - t) <= fuzz;
}

int bsim_cvode_carry_terms(void *cvode_mem, double t, int root) {
  CVodeMem m = cvode_mem;
  if (!m || m->cv_nst < 1 || m->cv_q < 1) return 0;
  /* The last step must end at t (a stop time does that exactly): a step
   * that straddled the discontinuity holds it in its history. A root
   * CVODE returned is the exception: the step straddled it, and the jump
   * polynomial, exact for the linear part, is added over the whole step. */
  if (at_end(m, t)) return m->cv_q;
  /* Up to a step from t, the polynomial's value needs terms beyond the
   * order: for a part with an infinite series (a lag's exponential) the
   * first one left out would weigh on y itself about as much as the
   * step's own error. Three more leave (h/tau)^(q+4)/(q+4)!. */
  if (root && m->cv_irfnd && t == m->cv_tlo && (t - m->cv_tn) * m->cv_h < 0 &&
      fabs(m->cv_tn - t) <= fabs(m->cv_hu) * (1 + 100 * m->cv_uround))
    return m->cv_q + EXTRA_TERMS;
  return 0;
}

int bsim_cvode_carry(void *cvode_mem, double t, int nterms, const double *dy,
                     const double *const *jumps) {
  CVodeMem m = cvode_mem;
  int q = m->cv_q, K = nterms;
  if (nterms < q || q > BSIM_CVODE_CARRY_MAX) return -1;
  /* Inside the step, y at t as CVODE had it when it located the root,
   * before the correction moves the interpolant there by rounding: the
   * root functions restart from it (bsim_cvode_carry_roots). */
  if (m->cv_nrtfn > 0 && !at_end(m, t) &&
      CVodeGetDky(m, t, 0, m->cv_y) != CV_SUCCESS)
    return -1;
  /* the engine's vectors are serial ones (solvers/cvode.c) */
  int n = (int)NV_LENGTH_S(m->cv_zn[0]);
  double s = m->cv_tn - t, h = m->cv_h;
  /* scale[j] = h^j / j! */
  double scale[BSIM_CVODE_CARRY_MAX + 1];
  scale[0] = 1.0;
  for (int j = 1; j <= q; j++)
    scale[j] = scale[j - 1] * h / j;
  for (int i = 0; i < n; i++) {
    double y0 = dy ? dy[i] : 0.0;
    int any = y0 != 0.0;
    for (int mm = 0; mm < K; mm++)
      any |= jumps[mm][i] != 0.0;
    if (!any) continue;
    /* q^(j)(s) = sum_{m >= j} jump_m s^(m-j) / (m-j)!, m up to K, by
     * Horner in s; jump_0 = dy, jump_m = jumps[m-1][i]. At the step's end
     * (an event at a stop time, the usual case) s = 0 and it is jump_j. */
    for (int j = 0; j <= q; j++) {
      double v = j > 0 ? jumps[j - 1][i] : y0;
      if (s != 0) {
        v = 0.0;
        for (int mm = K; mm >= j; mm--)
          v = v * s / (mm - j + 1) + (mm > 0 ? jumps[mm - 1][i] : y0);
      }
      NV_Ith_S(m->cv_zn[j], i) += scale[j] * v;
    }
    if (m->cv_nrtfn > 0 && !at_end(m, t)) NV_Ith_S(m->cv_y, i) += y0;
  }
  /* The correction CVODE saved to weigh a higher order is the old
   * solution's: wait for a fresh one before the order may rise. */
  if (m->cv_qwait < q + 1) m->cv_qwait = q + 1;
  return 0;
}

/* After the history changed: the root functions where CVODE's search
 * resumes, which it compares with their values further on, become those
 * of the new solution: at tn when the step ended at t, else at the root t
 * inside it, from y as CVODE had it there plus the jump (CVODE's own
 * re-evaluation there, from the corrected interpolant, could see the
 * surface just crossed a rounding error back on its old side and find
 * the same crossing again). A surface exactly at zero cannot be
 * classified without stepping: 1, and the caller restarts instead. */
int bsim_cvode_carry_roots(void *cvode_mem, double t) {
  CVodeMem m = cvode_mem;
  if (m->cv_nrtfn == 0) return 0;
  int end = at_end(m, t);
  double tlo = end ? m->cv_tn : t;
  N_Vector y = end ? m->cv_zn[0] : m->cv_y;
  int rc = m->cv_gfun(tlo, y, m->cv_glo, m->cv_user_data);
  m->cv_nge++;
  if (rc != 0) return -1;
  for (int i = 0; i < m->cv_nrtfn; i++)
    if (m->cv_gactive[i] && m->cv_glo[i] == 0.0) return 1;
  if (!end) {
    /* A reset usually sends the state straight back across the surface
     * it crossed (a ball's velocity at the floor), and the step goes on
     * far past t: the way back and a next crossing within it would show
     * no change of sign. A millionth of the last step ahead, as short as
     * a restart's first step and long enough for the state to move past
     * rounding, each surface is seen on its new side: a return in a
     * watched direction restarts; one in an ignored direction is taken as
     * done. */
    double tplus =
        t + (m->cv_h > 0 ? 1 : -1) *
                fmax(1e-6 * fabs(m->cv_hu),
                     100 * m->cv_uround * (fabs(m->cv_tn) + fabs(m->cv_h)));
    if (CVodeGetDky(m, tplus, 0, m->cv_y) != CV_SUCCESS) return 1;
    rc = m->cv_gfun(tplus, m->cv_y, m->cv_ghi, m->cv_user_data);
    m->cv_nge++;
    if (rc != 0) return -1;
    for (int i = 0; i < m->cv_nrtfn; i++) {
      if (!m->cv_gactive[i]) continue;
      double lo = m->cv_glo[i], hi = m->cv_ghi[i];
      if (hi == 0.0) return 1;
      if ((lo > 0) == (hi > 0)) continue;
      int dir = hi > 0 ? 1 : -1; /* the direction of the return */
      if (m->cv_rootdir[i] == 0 || m->cv_rootdir[i] == dir) return 1;
      m->cv_glo[i] = hi;
    }
  }
  m->cv_tlo = tlo;
  m->cv_irfnd = 0;
  return 0;
}

#endif
