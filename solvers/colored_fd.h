/*
 * Colored finite differences (Curtis, Powell and Reid): a Jacobian whose
 * sparsity pattern is known costs one residual call per group of columns
 * that share no row, instead of one per column. Generic over any residual
 * F(t, y, y') and any square pattern, so every implicit engine can use it.
 *
 * Internal to solvers/: not part of the public API.
 */
#ifndef BSIM_SOLVERS_COLORED_FD_H
#define BSIM_SOLVERS_COLORED_FD_H

typedef struct bsim_cfd bsim_cfd;

typedef int (*bsim_cfd_residual)(double t, const double *y, const double *yp,
                                 double *res, void *user);

/* Group the columns of an n x n pattern given in compressed sparse column
 * form (n+1 column pointers, row indices). The pattern is copied. NULL when
 * out of memory or when the pattern is malformed (an index out of range). */
bsim_cfd *bsim_cfd_create(int n, const int *colptr, const int *rowidx);
void bsim_cfd_free(bsim_cfd *c);

/* Number of groups: residual calls per Jacobian. */
int bsim_cfd_ncolors(const bsim_cfd *c);
/* Group of column j. */
int bsim_cfd_color(const bsim_cfd *c, int j);

/* J = dF/dy + cj dF/dy' at (t, y, yp), one group at a time: the columns of
 * a group move y by inc[j] and y' by cj inc[j] together. f0 = F(t, y, yp).
 * values receives one number per pattern entry, in the pattern's order.
 * y and yp are perturbed and restored (bit for bit). Returns what the
 * residual returned first when not 0, else 0. */
int bsim_cfd_eval(bsim_cfd *c, bsim_cfd_residual f, void *user, double t,
                  double *y, double *yp, const double *f0, double cj,
                  const double *inc, double *values);

#endif
