/*
 * Port size inference, after Xcos: every port dimension (rows or columns of
 * an input or an output) is fixed (> 0), shared among the dimensions of its
 * block that carry the same negative number (rows and columns alike: a
 * transpose says in = -1 x -2, out = -2 x -1), or 0, the sum of the other
 * side's rows (MUX on an output, DEMUX on an input) or columns (MATCATH's
 * output columns). Both ends of a link carry equal sizes. Known sizes are
 * propagated to a fixed point;
 * when nothing moves, the first still-unknown dimension is set to 1, as Xcos
 * does for unconstrained ports, and propagation resumes, so that a default
 * never contradicts a size the diagram implies.
 */
#include <stdio.h>
#include <stdlib.h>

#include "diagrams/dg_util.h"

/* Dimensions of block b, from base[b]: in rows, in cols, out rows, out cols
 * (nin, nin, nout, nout entries). */
typedef struct sz {
  bsim_flat *f;
  const int *lines;
  bsim_error *err;
  int *base;
  int *decl; /* as declared by the define step */
  int *val;  /* 0 = unknown */
} sz;

enum { IN_R = 0, IN_C = 1, OUT_R = 2, OUT_C = 3 };

static int dim(const sz *s, int b, int which, int port) {
  const bsim_model *m = &s->f->blocks[b].model;
  int off = 0;
  switch (which) {
  case IN_R:
    off = 0;
    break;
  case IN_C:
    off = m->nin;
    break;
  case OUT_R:
    off = 2 * m->nin;
    break;
  default:
    off = 2 * m->nin + m->nout;
    break;
  }
  return s->base[b] + off + port;
}

/* Set an unknown dimension, and with it every dimension of the same block
 * that shares its negative tag: rows and columns alike, as in Xcos (MATTRAN
 * says in = -1 x -2, out = -2 x -1). */
static void assign(sz *s, int b, int which, int port, int v) {
  int d = dim(s, b, which, port);
  if (s->decl[d] >= 0) {
    s->val[d] = v;
    return;
  }
  const bsim_model *m = &s->f->blocks[b].model;
  for (int k = IN_R; k <= OUT_C; k++) {
    int n = k == IN_R || k == IN_C ? m->nin : m->nout;
    for (int i = 0; i < n; i++)
      if (s->decl[dim(s, b, k, i)] == s->decl[d]) s->val[dim(s, b, k, i)] = v;
  }
}

static void fmt_size(char *buf, size_t n, int r, int c) {
  char a[16], b[16];
  snprintf(a, sizeof a, r > 0 ? "%d" : "?", r);
  snprintf(b, sizeof b, c > 0 ? "%d" : "?", c);
  snprintf(buf, n, "%sx%s", a, b);
}

/* Both ends of link l agree; 1 if something changed, -1 on conflict. */
static int unify_link(sz *s, int li) {
  const bsim_flat_link *l = &s->f->links[li];
  int changed = 0;
  /* Columns first, so that a row conflict is reported with known columns. */
  for (int k = 1; k >= 0; k--) {
    int a = dim(s, l->from_block, k ? OUT_C : OUT_R, l->from_port);
    int c = dim(s, l->to_block, k ? IN_C : IN_R, l->to_port);
    int va = s->val[a], vc = s->val[c];
    if (va && vc && va != vc) {
      const bsim_flat_block *fb = &s->f->blocks[l->from_block];
      const bsim_flat_block *tb = &s->f->blocks[l->to_block];
      char x[40], y[40];
      fmt_size(x, sizeof x, s->val[dim(s, l->from_block, OUT_R, l->from_port)],
               s->val[dim(s, l->from_block, OUT_C, l->from_port)]);
      fmt_size(y, sizeof y, s->val[dim(s, l->to_block, IN_R, l->to_port)],
               s->val[dim(s, l->to_block, IN_C, l->to_port)]);
      bsim_error_set(s->err, BSIM_ERR_INPUT,
                     "%s:%d: size mismatch on link %s:%d (%s) -> %s:%d (%s) "
                     "(hint: check the parameters that set the sizes of "
                     "%s (%s) and %s (%s))",
                     s->f->file ? s->f->file : "(diagram)", s->lines[li],
                     fb->path, l->from_port + 1, x, tb->path, l->to_port + 1, y,
                     fb->path, fb->type->name, tb->path, tb->type->name);
      return -1;
    }
    if (va && !vc) {
      assign(s, l->to_block, k ? IN_C : IN_R, l->to_port, va);
      changed = 1;
    } else if (vc && !va) {
      assign(s, l->from_block, k ? OUT_C : OUT_R, l->from_port, vc);
      changed = 1;
    }
  }
  return changed;
}

/* Dimensions tagged 0 on side `which` equal the sum of the same dimension
 * (rows or columns) on the other side. Solves forwards, or backwards when
 * one term is missing. 1 if something changed, -1 on contradiction. */
static int sum_rule(sz *s, int b, int which) {
  const bsim_model *m = &s->f->blocks[b].model;
  int outs = which == OUT_R || which == OUT_C,
      rows = which == IN_R || which == OUT_R;
  int n = outs ? m->nout : m->nin;
  int other = outs ? (rows ? IN_R : IN_C) : (rows ? OUT_R : OUT_C);
  int no = outs ? m->nin : m->nout;
  const char *what = rows ? "rows" : "columns";
  int changed = 0;
  for (int p = 0; p < n; p++) {
    int d = dim(s, b, which, p);
    if (s->decl[d] != 0 || no == 0) continue;
    long sum = 0;
    int unknown = 0, last = -1;
    for (int q = 0; q < no; q++) {
      int v = s->val[dim(s, b, other, q)];
      if (v)
        sum += v;
      else {
        unknown++;
        last = q;
      }
    }
    const bsim_flat_block *fb = &s->f->blocks[b];
    const char *side = outs ? "output" : "input";
    const char *others = outs ? "inputs" : "outputs";
    if (sum > BSIM_MAX_ELEMS) {
      bsim_error_set(s->err, BSIM_ERR_INPUT,
                     "%s:%d: block '%s' (%s): %s %d would have %ld %s, more "
                     "than the %d a signal may have",
                     s->f->file ? s->f->file : "(diagram)", fb->line, fb->path,
                     fb->type->name, side, p + 1, sum, what, BSIM_MAX_ELEMS);
      return -1;
    }
    if (unknown == 0 && !s->val[d]) {
      assign(s, b, which, p, (int)sum);
      changed = 1;
    } else if (unknown == 0 && s->val[d] != sum) {
      bsim_error_set(s->err, BSIM_ERR_INPUT,
                     "%s:%d: block '%s' (%s): %s %d has %d %s but its %s "
                     "add up to %ld",
                     s->f->file ? s->f->file : "(diagram)", fb->line, fb->path,
                     fb->type->name, side, p + 1, s->val[d], what, others, sum);
      return -1;
    } else if (unknown == 1 && s->val[d]) {
      if (s->val[d] - sum < 1) {
        bsim_error_set(s->err, BSIM_ERR_INPUT,
                       "%s:%d: block '%s' (%s): %s %d has %d %s, too few "
                       "for its %s (already %ld %s without %s %d)",
                       s->f->file ? s->f->file : "(diagram)", fb->line,
                       fb->path, fb->type->name, side, p + 1, s->val[d], what,
                       others, sum, what, outs ? "input" : "output", last + 1);
        return -1;
      }
      assign(s, b, other, last, (int)(s->val[d] - sum));
      changed = 1;
    }
  }
  return changed;
}

static int propagate(sz *s) {
  for (;;) {
    int changed = 0;
    for (int i = 0; i < s->f->nlinks; i++) {
      int c = unify_link(s, i);
      if (c < 0) return -1;
      changed |= c;
    }
    for (int b = 0; b < s->f->nblocks; b++)
      for (int which = 0; which < 4; which++) {
        int c = sum_rule(s, b, which);
        if (c < 0) return -1;
        changed |= c;
      }
    if (!changed) return 0;
  }
}

/* Every port within BSIM_MAX_ELEMS, so that the int products of sizes
 * made downstream cannot overflow. */
static int check_port(sz *s, int b, const char *side, int port, int rows,
                      int cols) {
  if ((long long)rows * cols <= BSIM_MAX_ELEMS) return 0;
  const bsim_flat_block *fb = &s->f->blocks[b];
  bsim_error_set(s->err, BSIM_ERR_INPUT,
                 "%s:%d: block '%s' (%s): %s %d would be %dx%d, more than "
                 "the %d elements a signal may have",
                 s->f->file ? s->f->file : "(diagram)", fb->line, fb->path,
                 fb->type->name, side, port + 1, rows, cols, BSIM_MAX_ELEMS);
  return -1;
}

/* Copy the inferred sizes back and resolve ng/nmode = -k (one per element
 * of input k). */
static int write_back(sz *s) {
  for (int b = 0; b < s->f->nblocks; b++) {
    bsim_flat_block *fb = &s->f->blocks[b];
    bsim_model *m = &fb->model;
    for (int i = 0; i < m->nin; i++)
      if (check_port(s, b, "input", i, s->val[dim(s, b, IN_R, i)],
                     s->val[dim(s, b, IN_C, i)]))
        return -1;
    for (int j = 0; j < m->nout; j++)
      if (check_port(s, b, "output", j, s->val[dim(s, b, OUT_R, j)],
                     s->val[dim(s, b, OUT_C, j)]))
        return -1;
    for (int i = 0; i < m->nin; i++) {
      m->in[i] = s->val[dim(s, b, IN_R, i)];
      m->in2[i] = s->val[dim(s, b, IN_C, i)];
    }
    for (int j = 0; j < m->nout; j++) {
      m->out[j] = s->val[dim(s, b, OUT_R, j)];
      m->out2[j] = s->val[dim(s, b, OUT_C, j)];
    }
    int *counts[2] = {&m->ng, &m->nmode};
    for (int k = 0; k < 2; k++) {
      int c = *counts[k];
      if (c >= 0) continue;
      if (-c > m->nin) {
        bsim_error_set(s->err, BSIM_ERR_INPUT,
                       "%s:%d: block '%s' (%s): %s refers to input %d of %d",
                       s->f->file ? s->f->file : "(diagram)", fb->line,
                       fb->path, fb->type->name,
                       k ? "mode count" : "zero-crossing count", -c, m->nin);
        return -1;
      }
      *counts[k] = m->in[-c - 1] * m->in2[-c - 1];
    }
  }
  return 0;
}

int dg_infer_sizes(bsim_flat *f, const int *link_lines, bsim_error *err) {
  sz s = {f, link_lines, err, NULL, NULL, NULL};
  int total = 0, rc = -1;
  s.base = malloc((size_t)(f->nblocks + 1) * sizeof *s.base);
  if (!s.base) goto nomem;
  for (int b = 0; b < f->nblocks; b++) {
    s.base[b] = total;
    total += 2 * (f->blocks[b].model.nin + f->blocks[b].model.nout);
  }
  s.base[f->nblocks] = total;
  s.decl = malloc((size_t)(total ? total : 1) * sizeof *s.decl);
  s.val = calloc((size_t)(total ? total : 1), sizeof *s.val);
  if (!s.decl || !s.val) goto nomem;
  for (int b = 0; b < f->nblocks; b++) {
    const bsim_model *m = &f->blocks[b].model;
    for (int i = 0; i < m->nin; i++) {
      s.decl[dim(&s, b, IN_R, i)] = m->in[i];
      s.decl[dim(&s, b, IN_C, i)] = m->in2 ? m->in2[i] : 1;
    }
    for (int j = 0; j < m->nout; j++) {
      s.decl[dim(&s, b, OUT_R, j)] = m->out[j];
      s.decl[dim(&s, b, OUT_C, j)] = m->out2 ? m->out2[j] : 1;
    }
  }
  for (int d = 0; d < total; d++)
    s.val[d] = s.decl[d] > 0 ? s.decl[d] : 0;
  int next = 0;
  for (;;) {
    if (propagate(&s)) goto done;
    while (next < total && s.val[next])
      next++;
    if (next == total) break;
    /* Find the owner of the dimension to default it with its group. */
    int b = 0;
    while (s.base[b + 1] <= next)
      b++;
    const bsim_model *m = &f->blocks[b].model;
    int off = next - s.base[b], which, port;
    if (off < m->nin) {
      which = IN_R;
      port = off;
    } else if (off < 2 * m->nin) {
      which = IN_C;
      port = off - m->nin;
    } else if (off < 2 * m->nin + m->nout) {
      which = OUT_R;
      port = off - 2 * m->nin;
    } else {
      which = OUT_C;
      port = off - 2 * m->nin - m->nout;
    }
    assign(&s, b, which, port, 1);
  }
  rc = write_back(&s);
  goto done;
nomem:
  bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory while inferring sizes");
done:
  free(s.base);
  free(s.decl);
  free(s.val);
  return rc;
}
