/*
 * BOUNCE: the balls of Xcos's bounce demo, in a box under gravity with an
 * optional drag, colliding elastically with each other and with the walls.
 * Each ball has four states (x, x', y, y'); a zero-crossing surface per
 * pair of balls (their distance minus their radii, squared) and four per
 * ball (its distance to each wall); when a surface falls through zero the
 * block's flag 2 applies the collision to the velocities, as Xcos's
 * bounce_ball does.
 */
#include <math.h>

#include "blocks/std.h"

static const bsim_param_spec bounce_params[] = {
    {"mass", BSIM_PARAM_REAL, "[1;1]", "mass of each ball (> 0)"},
    {"radius", BSIM_PARAM_REAL, "[1;1]", "radius of each ball (> 0)"},
    {"walls", BSIM_PARAM_REAL, "[0;5;0;5]",
     "the box: [xmin, xmax, ymin, ymax]"},
    {"x", BSIM_PARAM_REAL, "[2;2.5]", "initial x of each ball"},
    {"vx", BSIM_PARAM_REAL, "[0;0]", "initial x speed of each ball"},
    {"y", BSIM_PARAM_REAL, "[3;5]", "initial y of each ball"},
    {"vy", BSIM_PARAM_REAL, "[0;0]", "initial y speed of each ball"},
    {"gravity", BSIM_PARAM_REAL, "9.81", "downward acceleration g"},
    {"drag", BSIM_PARAM_REAL, "0",
     "aerodynamic coefficient C: x'' = -C x' (horizontal only, as Xcos)"},
};

static int bounce_define(bsim_define_ctx *ctx, bsim_model *m) {
  static const char *const vecs[] = {"mass", "radius", "x", "vx", "y", "vy"};
  const bsim_value *v[6];
  double g, c;
  int n = bsim_std_numel(bsim_param(ctx, "x"));
  for (int k = 0; k < 6; k++) {
    v[k] = bsim_param(ctx, vecs[k]);
    if (bsim_std_numel(v[k]) != n || n == 0)
      return bsim_define_error(ctx,
                               "'mass', 'radius', 'x', 'vx', 'y' and 'vy' "
                               "must all have one entry per ball (%d, from "
                               "'x'); '%s' has %d",
                               n, vecs[k], bsim_std_numel(v[k]));
  }
  for (int i = 0; i < n; i++)
    if (!(v[0]->v[i] > 0) || !(v[1]->v[i] > 0))
      return bsim_define_error(ctx,
                               "'mass' and 'radius' must be > 0 (ball "
                               "%d)",
                               i + 1);
  const bsim_value *w = bsim_param(ctx, "walls");
  if (bsim_std_numel(w) != 4)
    return bsim_define_error(ctx, "'walls' must be [xmin, xmax, ymin, ymax]");
  if (bsim_std_scalar(ctx, "gravity", &g) != 0 ||
      bsim_std_scalar(ctx, "drag", &c) != 0)
    return -1;
  if ((long)n * (n - 1) / 2 + 4L * n > 100000)
    return bsim_define_error(ctx, "%d balls would need too many surfaces", n);
  int npairs = n * (n - 1) / 2;
  double *r = bsim_model_alloc_rpar(m, 2 * n + 6);
  int *ip = bsim_model_alloc_ipar(m, 2 * npairs);
  double *x0 = bsim_model_alloc_x0(m, 4 * n);
  if (!r || !ip || !x0 || bsim_model_set_outputs(m, 2, n, 1) != 0)
    return bsim_define_error(ctx, "out of memory");
  for (int i = 0; i < n; i++) {
    r[i] = v[0]->v[i];
    r[n + i] = v[1]->v[i];
    x0[4 * i] = v[2]->v[i];
    x0[4 * i + 1] = v[3]->v[i];
    x0[4 * i + 2] = v[4]->v[i];
    x0[4 * i + 3] = v[5]->v[i];
  }
  /* Xcos orders the x limits, and means to order the y limits too but
   * compares ymin with itself: they stay as given */
  int swap = w->v[0] > w->v[1];
  r[2 * n] = w->v[swap ? 1 : 0];
  r[2 * n + 1] = w->v[swap ? 0 : 1];
  r[2 * n + 2] = w->v[2];
  r[2 * n + 3] = w->v[3];
  r[2 * n + 4] = g;
  r[2 * n + 5] = c;
  for (int i = 0, k = 0; i < n; i++) /* the pairs, 1-based as Xcos */
    for (int j = i + 1; j < n; j++, k += 2) {
      ip[k] = i + 1;
      ip[k + 1] = j + 1;
    }
  m->ng = npairs + 4 * n;
  m->zcdir = -1; /* only a falling surface is a collision */
  m->dep_t = 1;
  return 0;
}

/* The collision of balls i and j (0-based): the velocities change along
 * the line of centres, conserving momentum and energy. */
static void collide(bsim_block *blk, int i, int j) {
  double *x = blk->x;
  const double *m = blk->rpar;
  double s1 = x[4 * j] - x[4 * i], s2 = -m[i] * s1 / m[j];
  double s3 = x[4 * j + 2] - x[4 * i + 2], s4 = -m[i] * s3 / m[j];
  double a = m[i] * (s1 * s1 + s3 * s3) + m[j] * (s2 * s2 + s4 * s4);
  double b = m[i] * (s1 * x[4 * i + 1] + s3 * x[4 * i + 3]) +
             m[j] * (s2 * x[4 * j + 1] + s4 * x[4 * j + 3]);
  double xsi = -(b * 2. / a);
  x[4 * i + 1] += s1 * xsi;
  x[4 * j + 1] += s2 * xsi;
  x[4 * i + 3] += s3 * xsi;
  x[4 * j + 3] += s4 * xsi;
}

/* Beyond this the pair count n (n - 1) / 2 overflows an int. */
enum { MAX_BALLS = 46340 };

/* ipar's pairs name two different balls of the n (a stored model's may
 * not: collisions index the states with them). */
static int pairs_ok(const bsim_block *blk, int n, int np) {
  for (int k = 0; k < np; k++) {
    int i = blk->ipar[2 * k], j = blk->ipar[2 * k + 1];
    if (i < 1 || i > n || j < 1 || j > n || i == j) return 0;
  }
  return 1;
}

static void bounce_fn(bsim_block *blk, int flag) {
  int balls = blk->nout == 2 ? blk->outsz[0] : 0;
  int n = balls <= MAX_BALLS ? balls : 0; /* too many: refused at flag 4 */
  int np = n > 0 ? n * (n - 1) / 2 : 0;
  const double *r = blk->rpar, *rad = blk->rpar + n, *box = r + 2 * n;
  double *x = blk->x;
  switch (flag) {
  case BSIM_FLAG_INIT:
    /* the outputs' sizes too: a stored model may say otherwise, and the
     * Jacobian's rows (4n states, then 2n outputs) depend on them */
    if (n < 1 || n != balls || blk->nx != 4 * n || blk->nrpar != 2 * n + 6 ||
        blk->nipar != 2 * np || blk->ng != np + 4 * n || blk->outsz[1] != n ||
        blk->outsz[2] != 1 || blk->outsz[3] != 1)
      bsim_block_error(blk,
                       "%d balls (1 to %d) need 4 states each, two outputs "
                       "of %d x 1, rpar = [mass; radius; walls; g; C], ipar "
                       "= the pairs and %d surfaces",
                       balls, MAX_BALLS, n, np + 4 * n);
    else if (!pairs_ok(blk, n, np))
      bsim_block_error(blk,
                       "ipar's pairs must name two different balls of "
                       "1 to %d each",
                       n);
    return;
  case BSIM_FLAG_DERIVATIVES:
    for (int i = 0; i < n; i++) {
      blk->xd[4 * i] = x[4 * i + 1];
      blk->xd[4 * i + 2] = x[4 * i + 3];
      blk->xd[4 * i + 1] = -box[5] * x[4 * i + 1];
      blk->xd[4 * i + 3] = -box[4];
    }
    return;
  case BSIM_FLAG_OUTPUTS:
  case BSIM_FLAG_REINIT:
    for (int i = 0; i < n; i++) {
      blk->outptr[0][i] = x[4 * i];
      blk->outptr[1][i] = x[4 * i + 2];
    }
    return;
  case BSIM_FLAG_ZCROSS:
    for (int k = 0; k < np; k++) {
      int i = blk->ipar[2 * k] - 1, j = blk->ipar[2 * k + 1] - 1;
      double d1 = x[4 * i] - x[4 * j], d2 = x[4 * i + 2] - x[4 * j + 2];
      double d3 = rad[i] + rad[j];
      blk->g[k] = d1 * d1 + d2 * d2 - d3 * d3;
    }
    for (int i = 0, k = np; i < n; i++, k += 4) {
      blk->g[k] = x[4 * i + 2] - rad[i] - box[2];
      blk->g[k + 1] = box[3] - x[4 * i + 2] - rad[i];
      blk->g[k + 2] = x[4 * i] - box[0] - rad[i];
      blk->g[k + 3] = box[1] - rad[i] - x[4 * i];
    }
    return;
  case BSIM_FLAG_UPDATE:
    if (blk->nevprt >= 0) return;
    for (int k = 0; k < np; k++)
      if (blk->jroot[k] < 0)
        collide(blk, blk->ipar[2 * k] - 1, blk->ipar[2 * k + 1] - 1);
    for (int i = 0, k = np; i < n; i++, k += 4) {
      /* floor and ceiling reverse y', the side walls x' */
      for (int w = 0; w < 4; w++)
        if (blk->jroot[k + w] < 0)
          x[4 * i + (w < 2 ? 3 : 1)] = -x[4 * i + (w < 2 ? 3 : 1)];
    }
    return;
  case BSIM_FLAG_JACOBIAN: {
    /* [d xd/dx; d y/dx]: (4n + 2n) rows, 4n columns */
    int nr = 6 * n;
    for (int i = 0; i < n; i++) {
      blk->jac[4 * i + nr * (4 * i + 1)] = 1;
      blk->jac[4 * i + 2 + nr * (4 * i + 3)] = 1;
      blk->jac[4 * i + 1 + nr * (4 * i + 1)] = -box[5];
      blk->jac[4 * n + i + nr * (4 * i)] = 1;
      blk->jac[5 * n + i + nr * (4 * i + 2)] = 1;
    }
    return;
  }
  default:
    return;
  }
}

static const bsim_block_type type_BOUNCE = {
    "BOUNCE", "bounce_ball", "Balls bouncing in a box (Xcos's bounce demo).",
    "n balls move in the box walls = [xmin, xmax, ymin, ymax] under\n"
    "gravity g (y'' = -g) with a horizontal drag C (x'' = -C x'). They\n"
    "bounce elastically: on a wall the speed across it reverses; two balls\n"
    "that touch exchange momentum along the line of their centres,\n"
    "conserving momentum and kinetic energy. Output 1 is the x of every\n"
    "ball, output 2 its y. Collisions are located by zero crossings: one\n"
    "surface per pair (squared distance minus squared sum of radii) and four\n"
    "per ball (ball to floor, ceiling, left and right wall), acted on when\n"
    "they fall through 0 (only those crossings are located).\n"
    "Run-time layout: rpar = [mass; radius; xmin; xmax; ymin; ymax; g; C]\n"
    "(x limits ordered, y limits as given, as in Xcos), ipar = the pairs\n"
    "[1;2; 1;3; ...; n-1;n], x0 = [x; x'; y; y'] of ball 1, then ball 2,\n"
    "..., no inputs, out = [n; n], out2 = 1, ng = n(n-1)/2 + 4n, dep_t = 1.",
    bounce_params, 9, bounce_define, bounce_fn,
    BSIM_TYPE_JACOBIAN | BSIM_TYPE_LINEAR,
    /* Scilab 4 files stop after ydpos: g and C then keep 9.81 and 0 */
    "mass,radius,walls,x,vx,y,vy,gravity,drag"};

/* BOUNCE and EXPRESSION (expression.c): one table for the two blocks of
 * Xcos's Misc palette that blocksim has. */
const bsim_block_type *const bsim_bounce_types[] = {&type_BOUNCE,
                                                    &bsim_type_EXPRESSION};
const int bsim_bounce_ntypes = 2;
