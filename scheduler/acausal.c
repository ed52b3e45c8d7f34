/*
 * The acausal part of the system: components (blocks with connectors)
 * and the nodes their connections make. Flattening left one node per
 * connection set; here each node gets its across variables (one unknown
 * each, shared by every connector of the set: the equality of potentials
 * costs nothing) and each connector its through variables (unknowns of
 * the connector; a node's flow balance sums them). The components' own
 * states join these at the end of y, and their residuals, then the
 * balances, are the rows there:
 *
 *   y = [ x | w | component states | node across vars | connector flows ]
 *   F = [ F_x | F_w | component residuals | flow balances ]
 *
 * so the engine sees one DAE with more algebraic unknowns, as DESIGN.md
 * wants. Modelica's balance rule (as many equations as unknowns) is
 * checked over the whole part; which equation determines which unknown
 * is the structural analysis' business (index.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scheduler/plan.h"

static void *zalloc(size_t n, size_t size) {
  return calloc(n ? n : 1, size);
}

int bsim_plan_con_var(const bsim_plan *p, int b, int c) {
  const plan_block *pb = &p->blocks[b];
  const bsim_model *m = &pb->fb->model;
  for (int k = 0; k < m->ncon; k++) {
    const bsim_domain *d = m->condom[k];
    if (c < d->npot) return p->conpot[pb->conoff + k] + c;
    c -= d->npot;
    if (c < d->nflow) return p->conflow[pb->conoff + k] + c;
    c -= d->nflow;
  }
  return -1;
}

int bsim_plan_is_comp(const bsim_plan *p, int b) {
  return p->blocks[b].conoff >= 0;
}

/* For a domain without flows each connection joins exactly two ports:
 * the first set that does not, as "a:C1, b:C" (empty when none). */
static void odd_set(const bsim_plan *p, char *buf, size_t len) {
  const bsim_flat *f = p->flat;
  buf[0] = '\0';
  for (int n = 0; n < f->nnodes && !buf[0]; n++) {
    int cnt = p->kcl_start[n + 1] - p->kcl_start[n];
    if (f->nodes[n].dom->nflow > 0 || cnt == 2 || cnt == 1) continue;
    size_t used = 0;
    for (int c = 0; c < p->ncomp; c++) {
      const bsim_flat_block *fb = &f->blocks[p->comp_blocks[c]];
      for (int k = 0; k < fb->model.ncon && used + 1 < len; k++) {
        if (fb->con_node[k] != n) continue;
        int w = snprintf(buf + used, len - used, "%s'%s:%s'", used ? ", " : "",
                         fb->path, fb->model.conname[k]);
        if (w < 0) return;
        used += (size_t)w;
      }
    }
  }
}

static int unbalanced(const bsim_plan *p, int rows, int unknowns,
                      bsim_error *err) {
  const bsim_flat *f = p->flat;
  int eq = 0, st = 0, fl = 0, ac = 0, bal = 0;
  for (int c = 0; c < p->ncomp; c++) {
    const bsim_model *m = &f->blocks[p->comp_blocks[c]].model;
    eq += bsim_model_nres(m);
    st += m->nx;
    for (int k = 0; k < m->ncon; k++)
      fl += m->condom[k]->nflow;
  }
  for (int n = 0; n < f->nnodes; n++) {
    ac += f->nodes[n].dom->npot;
    bal += f->nodes[n].dom->nflow;
  }
  char odd[512];
  odd_set(p, odd, sizeof odd);
  bsim_error_set(err, BSIM_ERR_INPUT,
                 "%s: the acausal components give %d equations for %d "
                 "unknowns (components: %d equations for %d states and %d "
                 "connector flows; connection sets: %d flow balances for %d "
                 "across variables)%s%s%s",
                 f->file ? f->file : "diagram", rows, unknowns, eq, st, fl, bal,
                 ac,
                 odd[0] ? "; these ports are joined together, but a port "
                          "of a domain without flows (thermohydraulic) "
                          "joins exactly one other: "
                        : " (hint: check how the components are connected)",
                 odd, odd[0] ? " (hint: remove a link)" : "");
  return -2;
}

int bsim_plan_acausal(bsim_plan *p, int *off, bsim_error *err) {
  const bsim_flat *f = p->flat;
  int nc = 0, start = *off;
  p->acausal_off = start;
  for (int b = 0; b < p->nblocks; b++) {
    p->blocks[b].roff = p->blocks[b].conoff = -1;
    if (f->blocks[b].model.ncon > 0) {
      p->ncomp++;
      nc += f->blocks[b].model.ncon;
    }
  }
  if (p->ncomp == 0) return 0;
  p->comp_blocks = zalloc((size_t)p->ncomp, sizeof(int));
  p->conpot = zalloc((size_t)nc, sizeof(int));
  p->conflow = zalloc((size_t)nc, sizeof(int));
  p->node_pot = zalloc((size_t)f->nnodes, sizeof(int));
  p->kcl_row = zalloc((size_t)f->nnodes, sizeof(int));
  p->kcl_start = zalloc((size_t)f->nnodes + 1, sizeof(int));
  p->kcl_var = zalloc((size_t)nc, sizeof(int));
  if (!p->comp_blocks || !p->conpot || !p->conflow || !p->node_pot ||
      !p->kcl_row || !p->kcl_start || !p->kcl_var)
    return -1;
  int c = 0, k0 = 0;
  for (int b = 0; b < p->nblocks; b++) {
    const bsim_model *m = &f->blocks[b].model;
    if (m->ncon == 0) continue;
    p->comp_blocks[c++] = b;
    p->blocks[b].conoff = k0;
    k0 += m->ncon;
    if (m->nx > 0) {
      p->blocks[b].xoff = *off;
      *off += m->nx;
    }
  }
  for (int n = 0; n < f->nnodes; n++) {
    p->node_pot[n] = *off;
    *off += f->nodes[n].dom->npot;
  }
  for (c = 0; c < p->ncomp; c++) {
    const bsim_flat_block *fb = &f->blocks[p->comp_blocks[c]];
    int base = p->blocks[p->comp_blocks[c]].conoff;
    for (int k = 0; k < fb->model.ncon; k++) {
      p->conpot[base + k] = p->node_pot[fb->con_node[k]];
      p->conflow[base + k] = *off;
      *off += fb->model.condom[k]->nflow;
      p->kcl_start[fb->con_node[k] + 1]++;
    }
  }
  int rows = start;
  for (c = 0; c < p->ncomp; c++) {
    p->blocks[p->comp_blocks[c]].roff = rows;
    rows += bsim_model_nres(&f->blocks[p->comp_blocks[c]].model);
  }
  p->comp_rows = rows - start;
  for (int n = 0; n < f->nnodes; n++) {
    int nf = f->nodes[n].dom->nflow;
    p->kcl_row[n] = nf > 0 ? rows : -1;
    rows += nf;
    p->kcl_start[n + 1] += p->kcl_start[n];
  }
  int *fill = zalloc((size_t)f->nnodes, sizeof(int));
  if (!fill) return -1;
  for (c = 0; c < p->ncomp; c++) {
    const bsim_flat_block *fb = &f->blocks[p->comp_blocks[c]];
    int base = p->blocks[p->comp_blocks[c]].conoff;
    for (int k = 0; k < fb->model.ncon; k++) {
      int n = fb->con_node[k];
      p->kcl_var[p->kcl_start[n] + fill[n]++] = p->conflow[base + k];
    }
  }
  free(fill);
  p->na = *off - start;
  if (rows != *off) return unbalanced(p, rows - start, *off - start, err);
  return 0;
}

void bsim_plan_acausal_ids(bsim_plan *p) {
  for (int c = 0; c < p->ncomp; c++) {
    const plan_block *pb = &p->blocks[p->comp_blocks[c]];
    const bsim_model *m = &pb->fb->model;
    for (int i = 0; i < m->nx; i++)
      p->id[pb->xoff + i] = !m->xprop || m->xprop[i] > 0 ? 1.0 : 0.0;
  }
}

void bsim_plan_acausal_free(bsim_plan *p) {
  free(p->comp_blocks);
  free(p->conpot);
  free(p->conflow);
  free(p->node_pot);
  free(p->kcl_row);
  free(p->kcl_start);
  free(p->kcl_var);
}

void bsim_run_acausal_views(bsim_run *x) {
  const bsim_plan *p = x->plan;
  for (int c = 0; c < p->ncomp; c++) {
    int b = p->comp_blocks[c];
    const plan_block *pb = &p->blocks[b];
    bsim_block *v = &x->blocks[b].b;
    if (pb->xoff >= 0) {
      v->x = x->acy + pb->xoff;
      v->xd = x->acyp + pb->xoff;
    }
    v->res = x->acres + pb->roff;
    const double **pot = (const double **)v->pot,
                 **flow = (const double **)v->flow;
    for (int k = 0; k < v->ncon; k++) {
      pot[k] = x->acy + p->conpot[pb->conoff + k];
      flow[k] = x->acy + p->conflow[pb->conoff + k];
    }
  }
}

void bsim_run_bind_acausal(bsim_run *x, const double *y, const double *yp) {
  const bsim_plan *p = x->plan;
  size_t off = (size_t)p->acausal_off, n = sizeof(double) * (size_t)p->na;
  if (y) memcpy(x->acy + off, y + off, n);
  if (yp) memcpy(x->acyp + off, yp + off, n);
}

void bsim_run_acausal_rows(const bsim_run *x, double *res) {
  const bsim_plan *p = x->plan;
  size_t off = (size_t)p->acausal_off;
  memcpy(res + off, x->acres + off, sizeof(double) * (size_t)p->comp_rows);
  for (int n = 0; n < p->flat->nnodes; n++)
    if (p->kcl_row[n] >= 0) bsim_plan_node_balance(p, n, x->bound_y, res);
}
