/*
 * The checks of `blocksim analyze` on the Jacobians analyze.c computed:
 * structural regularity (a matching over the pattern of [dF/dyd' dF/dya]),
 * index at most one (rank of dg/dya), and the reduced Jacobian whose
 * eigenvalues say whether the linearized dynamics are stable. Messages name
 * blocks by path so that a user can find them in the diagram.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scheduler/analyze.h"
#include "solvers/analysis.h"

/* Relative singular-value threshold of the index check. */
static const double rank_rel = 1e-10;

static void *zalloc(size_t n, size_t size) {
  return calloc(n ? n : 1, size);
}

static void loop_blocks(const bsim_plan *p, int b, char *on);

/* ", through the loop 'a' (T), 'b' (T)" for the loop of block b. */
static void append_loop(bsim_analysis *a, char **msg, int b) {
  char *on = zalloc((size_t)a->p->nblocks, 1);
  if (!on) return;
  loop_blocks(a->p, b, on);
  int any = 0;
  for (int i = 0; i < a->p->nblocks; i++)
    if (on[i])
      bsim_an_appendf(msg, "%s'%s' (%s)",
                      any++ ? ", "
                            : " (algebraic loop "
                              "through ",
                      a->p->blocks[i].fb->path, a->p->blocks[i].fb->type->name);
  if (any) bsim_an_appendf(msg, ")");
  free(on);
}

static const char *type_of(const bsim_analysis *a, int j) {
  return a->p->blocks[a->ublock[j]].fb->type->name;
}

/* Tiny deterministic generator: perturbed points must not vary from run to
 * run, and the library keeps no global state. */
static double next_unit(unsigned long long *st) {
  *st = *st * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*st >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

/* OR into pat the nonzeros of [dF/dyd' dF/dya] at two points moved by up
 * to 10% of (1 + |entry|), so that a derivative that happens to vanish at
 * the point (sin' at pi/2) still counts. Points where the residual fails
 * are skipped. */
static int pattern_more(bsim_analysis *a, char *pat) {
  size_t n = (size_t)a->n, ny = (size_t)a->p->ny;
  double *keep = malloc(sizeof(double) * 2 * ny);
  double *J = malloc(sizeof(double) * (n * n > 0 ? n * n : 1));
  double *Jp = malloc(sizeof(double) * (n * n > 0 ? n * n : 1));
  unsigned long long st = 0x5eed;
  int rc = keep && J && Jp ? 0 : -1;
  if (rc == 0) {
    memcpy(keep, a->y, sizeof(double) * ny);
    memcpy(keep + ny, a->yp, sizeof(double) * ny);
  }
  for (int pt = 0; rc == 0 && pt < 2; pt++) {
    for (size_t i = 0; i < n; i++) {
      a->y[i] = keep[i] + 0.1 * (1 + fabs(keep[i])) * next_unit(&st);
      a->yp[i] = keep[ny + i] + 0.1 * (1 + fabs(keep[ny + i])) * next_unit(&st);
    }
    if (bsim_an_jacobians(a, J, Jp, NULL, NULL) != BSIM_CB_OK) continue;
    for (size_t i = 0; i < n; i++)
      for (size_t j = 0; j < n; j++)
        pat[i * n + j] |= (j < (size_t)a->nd ? Jp : J)[i * n + j] != 0.0;
  }
  if (keep) {
    memcpy(a->y, keep, sizeof(double) * ny);
    memcpy(a->yp, keep + ny, sizeof(double) * ny);
  }
  free(keep);
  free(J);
  free(Jp);
  return rc;
}

int bsim_an_structural(bsim_analysis *a) {
  size_t n = (size_t)a->n;
  char *pat = zalloc(n * n, 1);
  int *rm = zalloc(n, sizeof(int)), *cm = zalloc(n, sizeof(int));
  int rc = -1;
  if (!pat || !rm || !cm) goto done;
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++)
      pat[i * n + j] = (j < (size_t)a->nd ? a->Jp : a->J)[i * n + j] != 0.0;
  if (pattern_more(a, pat) != 0) goto done;
  a->srank = bsim_match_max(a->n, a->n, pat, rm, cm);
  if (a->srank < 0) goto done;
  if (!bsim_an_appendf(&a->smsg, "%s", "")) goto done;
  for (size_t i = 0; i < n; i++) {
    if (rm[i] >= 0) continue;
    bsim_an_appendf(&a->smsg,
                    "equation '%s' (block '%s', %s) is left "
                    "unmatched: ",
                    a->ename[i], a->p->blocks[a->rblock[i]].fb->path,
                    type_of(a, (int)i));
    int any = 0;
    for (size_t j = 0; j < n; j++)
      if (pat[i * n + j])
        bsim_an_appendf(&a->smsg, "%s'%s'", any++ ? ", " : "it involves only ",
                        a->uname[j]);
    bsim_an_appendf(&a->smsg, "%s",
                    any ? ", which other equations "
                          "already determine"
                        : "no unknown enters it");
    if (i >= (size_t)a->nd) append_loop(a, &a->smsg, a->rblock[i]);
    bsim_an_appendf(&a->smsg, "\n");
  }
  for (size_t j = 0; j < n; j++)
    if (cm[j] < 0)
      bsim_an_appendf(&a->smsg,
                      "unknown '%s' (block '%s', %s) is missed: "
                      "no equation is left to determine it\n",
                      a->uname[j], a->p->blocks[a->ublock[j]].fb->path,
                      type_of(a, (int)j));
  if (a->srank < a->n &&
      !bsim_an_appendf(&a->smsg,
                       "hint: a loop signal that cancels out of "
                       "its own equation (y = u + y, a loop gain of exactly "
                       "1) leaves an equation without unknown; change the "
                       "gain or break the loop with a state (a filter or "
                       "an integrator)\n"))
    goto done;
  rc = a->smsg ? 0 : -1;
done:
  free(pat);
  free(rm);
  free(cm);
  return rc;
}

/* Blocks on a direct-feedthrough cycle through block b: reachable from b
 * and reaching b. */
static void loop_blocks(const bsim_plan *p, int b, char *on) {
  const bsim_flat *f = p->flat;
  int nb = p->nblocks;
  char *fw = calloc((size_t)nb, 2);
  if (!fw) return;
  char *bw = fw + nb;
  fw[b] = bw[b] = 1;
  for (int changed = 1; changed;) {
    changed = 0;
    for (int l = 0; l < f->nlinks; l++) {
      const bsim_flat_link *ln = &f->links[l];
      if (!f->blocks[ln->to_block].model.dep_u[ln->to_port]) continue;
      if (fw[ln->from_block] && !fw[ln->to_block])
        fw[ln->to_block] = changed = 1;
      if (bw[ln->to_block] && !bw[ln->from_block])
        bw[ln->from_block] = changed = 1;
    }
  }
  for (int i = 0; i < nb; i++)
    on[i] |= fw[i] && bw[i];
  free(fw);
}

static double floor_of(const double *noise, int n, int r0, int c0, int rows,
                       int cols) {
  double s = 0;
  for (int i = r0; i < r0 + rows; i++)
    for (int j = c0; j < c0 + cols; j++) {
      double v = noise[(size_t)i * (size_t)n + (size_t)j];
      s += v * v;
    }
  return sqrt(s);
}

/*
 * dg/dya must be invertible for the algebraic unknowns to follow from the
 * states (index 1). Rank by SVD: singular values above 1e-10 sigma_max and
 * above the finite differences' own rounding bound (Frobenius norm of the
 * entries' noise bounds, about 1e-6 relative), since a singular value the
 * differences cannot resolve cannot be called nonzero.
 */
static void equilibrate(double *G, double *N, int n) {
  size_t s = (size_t)n;
  for (int pass = 0; pass < 2; pass++)
    for (int k = 0; k < n; k++) {
      double m = 0;
      for (int l = 0; l < n; l++)
        m = fmax(m, fabs(pass ? G[(size_t)l * s + (size_t)k]
                              : G[(size_t)k * s + (size_t)l]));
      if (m == 0) continue;
      for (int l = 0; l < n; l++) {
        size_t q = pass ? (size_t)l * s + (size_t)k : (size_t)k * s + (size_t)l;
        G[q] /= m;
        N[q] /= m;
      }
    }
}

/* With acausal components the rows do not split into f and g (a
 * component's residuals mix both) and the compile-time structural
 * analysis (index.c) decides the index; the numerical rank test, whose
 * noise bounds mix amperes with volts per nanosecond, is not made
 * (arank = -1). */
int bsim_an_index(bsim_analysis *a) {
  if (a->p->ncomp > 0) {
    a->arank = -1;
    return bsim_an_appendf(&a->imsg, "%s", "") ? 0 : -1;
  }
  int n = a->n, nd = a->nd, na = a->na;
  size_t sa = (size_t)na;
  double *G = zalloc(sa * sa, sizeof(double)),
         *sig = zalloc(sa, sizeof(double));
  double *V = zalloc(sa * sa, sizeof(double));
  char *on = zalloc((size_t)a->p->nblocks, 1);
  int rc = -1;
  if (!G || !sig || !V || !on || !bsim_an_appendf(&a->imsg, "%s", ""))
    goto done;
  for (int i = 0; i < na; i++)
    for (int j = 0; j < na; j++)
      G[(size_t)i * sa + (size_t)j] =
          a->J[(size_t)(nd + i) * (size_t)n + (size_t)(nd + j)];
  /* rows and columns equilibrated (rank does not change; a circuit's
   * amperes and pascals no longer hide each other), the noise bounds
   * scaled alike */
  double *N = zalloc(sa * sa, sizeof(double));
  if (!N) goto done;
  for (int i = 0; i < na; i++)
    for (int j = 0; j < na; j++)
      N[(size_t)i * sa + (size_t)j] =
          a->Jn[(size_t)(nd + i) * (size_t)n + (size_t)(nd + j)];
  equilibrate(G, N, na);
  double fl = floor_of(N, na, 0, 0, na, na);
  free(N);
  a->arank = bsim_svd_rank(na, na, G, rank_rel, fl, sig, V);
  if (a->arank < 0) goto done;
  a->athr = na ? fmax(rank_rel * sig[0], fl) : 0.0;
  if (a->arank < na) {
    bsim_an_appendf(&a->imsg,
                    "the system is of higher index (>= 2): "
                    "dg/dya is singular (rank %d of %d, threshold %.3g); "
                    "the loop signals ",
                    a->arank, na, a->athr);
    int any = 0;
    for (int j = 0; j < na; j++) {
      int hit = 0;
      for (int k = a->arank; k < na; k++)
        hit |= fabs(V[(size_t)j * sa + (size_t)k]) > 1e-3;
      if (!hit) continue;
      bsim_an_appendf(&a->imsg, "%s'%s'", any++ ? ", " : "", a->uname[nd + j]);
      loop_blocks(a->p, a->ublock[nd + j], on);
    }
    bsim_an_appendf(&a->imsg, " are not determined by the loop equations; "
                              "blocks involved:");
    for (int b = 0; b < a->p->nblocks; b++)
      if (on[b])
        bsim_an_appendf(&a->imsg, " '%s' (%s)", a->p->blocks[b].fb->path,
                        a->p->blocks[b].fb->type->name);
    bsim_an_appendf(&a->imsg,
                    "\nhint: an algebraic loop with gain exactly 1 "
                    "(u = 1 + y, y = u) has no solution or infinitely many; "
                    "change the gain, or add a state (a filter or a delay) "
                    "in the loop\n");
  }
  rc = a->imsg ? 0 : -1;
done:
  free(G);
  free(sig);
  free(V);
  free(on);
  return rc;
}

/* Eliminate the algebraic unknowns: with M = [dF/dyd' dF/dya], the
 * linearized system M [yd'; ya] = -dF/dyd yd gives dyd'/dyd as the top
 * rows of -M^-1 dF/dyd (the Schur complement of the brief's formula when
 * g does not involve yd'). */
int bsim_an_reduce(bsim_analysis *a) {
  int n = a->n, nd = a->nd;
  /* a system reduced from index 2 (index.c): its rows mix derivatives
   * in ways this elimination does not take apart; no eigenvalues */
  if (a->p->ix) return 0;
  size_t sn = (size_t)n;
  double *M = zalloc(sn * sn, sizeof(double)),
         *Mn = zalloc(sn * sn, sizeof(double));
  double *X = zalloc(sn * (size_t)nd, sizeof(double)),
         *sig = zalloc(sn, sizeof(double));
  a->ere = zalloc((size_t)nd, sizeof(double));
  a->eim = zalloc((size_t)nd, sizeof(double));
  a->ared = zalloc((size_t)nd * (size_t)nd, sizeof(double));
  int rc = -1;
  if (!M || !Mn || !X || !sig || !a->ere || !a->eim || !a->ared) goto done;
  for (size_t i = 0; i < sn; i++)
    for (size_t j = 0; j < sn; j++) {
      int d = j < (size_t)nd;
      M[i * sn + j] = (d ? a->Jp : a->J)[i * sn + j];
      Mn[i * sn + j] = (d ? a->Jpn : a->Jn)[i * sn + j];
      if (j < (size_t)nd) X[i * (size_t)nd + j] = a->J[i * sn + j];
    }
  int r;
  if (a->p->ncomp > 0) {
    /* rank of an equilibrated copy, relative threshold (see above) */
    double *E = zalloc(sn * sn, sizeof(double));
    if (!E) goto done;
    memcpy(E, M, sizeof(double) * sn * sn);
    equilibrate(E, Mn, n);
    r = bsim_svd_rank(n, n, E, rank_rel, 0, sig, NULL);
    free(E);
  } else {
    r = bsim_svd_rank(n, n, M, rank_rel, floor_of(Mn, n, 0, 0, n, n), sig,
                      NULL);
  }
  if (r < 0) goto done;
  rc = 0;
  if (r < n || bsim_dense_solve(n, M, nd, X, X) != 0) {
    if (a->imsg && !a->imsg[0])
      bsim_an_appendf(&a->imsg,
                      "dF/d[yd' ya] is singular (rank %d of %d): "
                      "the derivatives and algebraic unknowns do not follow "
                      "from the states (index >= 2)\n",
                      r, n);
    goto done;
  }
  for (size_t i = 0; i < (size_t)nd * (size_t)nd; i++)
    a->ared[i] = X[i] == 0.0 ? 0.0 : -X[i];
  if (bsim_eigenvalues(nd, a->ared, a->ere, a->eim) == 0) {
    a->has_eig = 1;
    a->verdict = (int)bsim_stability_of(nd, a->ere, a->eim, &a->stiff);
  }
done:
  free(M);
  free(Mn);
  free(X);
  free(sig);
  return rc;
}
