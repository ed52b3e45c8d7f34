/*
 * GOTO / FROM pairing, part of flattening. Xcos's compiler pairs each FROM
 * with the GOTO of the same tag and kind (data, events) in this order:
 * a local GOTO (visibility 1) of the FROM's own level; else the scoped
 * GOTO (visibility 2) under the innermost GotoTagVisibility of the tag
 * that encloses both (innermost levels first, each such block taking the
 * one scoped GOTO below it); else the global GOTO (visibility 3) of the
 * tag. Each pair becomes a link (activation) from the GOTO node to the FROM
 * node, both pass-through nodes, so that tracing signals and following
 * activations cross them as they cross superblock ports.
 */
#include <stdlib.h>
#include <string.h>

#include "diagrams/dg_util.h"
#include "diagrams/flatten_int.h"

enum { DIR_GOTO, DIR_FROM, DIR_VIS };

typedef struct tagnode {
  int node, inst, depth;
  int events; /* 1 for CLKGOTO / CLKFROM / CLKGotoTagVisibility */
  int dir;
  int vis; /* GOTO's visibility */
  const char *tag;
  int peer; /* FROM: its GOTO (index in the tag list); GOTO: taken */
} tagnode;

static int tag_depth(const fl *f, int inst) {
  int d = 0;
  for (; inst != 0; inst = f->insts[inst].parent)
    d++;
  return d;
}

static int is_under(const fl *f, int inst, int top) {
  for (;; inst = f->insts[inst].parent) {
    if (inst == top) return 1;
    if (inst == 0) return 0;
  }
}

static int same(const tagnode *a, const tagnode *b) {
  return a->events == b->events && strcmp(a->tag, b->tag) == 0;
}

static const char *kind_name(const tagnode *t, int dir) {
  static const char *const names[2][3] = {
      {"GOTO", "FROM", "GotoTagVisibility"},
      {"CLKGOTO", "CLKFROM", "CLKGotoTagVisibility"}};
  return names[t->events][dir];
}

/* Two blocks that Xcos allows once: report the second. */
static int twice(fl *f, const tagnode *a, const tagnode *b, const char *what) {
  const node *na = &f->nodes[a->node], *nb = &f->nodes[b->node];
  bsim_error_set(f->err, BSIM_ERR_INPUT,
                 "%s:%d: block '%s' (%s): %s with tag '%s' (block '%s', line "
                 "%d has it already; hint: rename one tag)",
                 f->file, nb->line, nb->path, nb->type->name, what, b->tag,
                 na->path, na->line);
  return -1;
}

static int add_link(fl *f, rawlink **v, int *n, int *cap, rawlink l) {
  if (*n == *cap) {
    int nc = *cap ? 2 * *cap : 16;
    rawlink *p = realloc(*v, (size_t)nc * sizeof *p);
    if (!p) return dg_fl_nomem(f);
    *v = p;
    *cap = nc;
  }
  (*v)[(*n)++] = l;
  return 0;
}

/* The tag nodes of the walk. */
static int collect(fl *f, tagnode **out, int *count) {
  int n = 0;
  for (int i = 0; i < f->nnodes; i++)
    n += f->nodes[i].role >= TAG_DATA && f->nodes[i].role <= TAG_VIS;
  *count = n;
  *out = calloc((size_t)(n ? n : 1), sizeof **out);
  if (!*out) return dg_fl_nomem(f);
  int k = 0;
  for (int i = 0; i < f->nnodes; i++) {
    const node *nd = &f->nodes[i];
    if (nd->role < TAG_DATA || nd->role > TAG_VIS) continue;
    tagnode *t = &(*out)[k++];
    int p = dg_param_find(nd->type, "tag");
    t->node = i;
    t->inst = nd->inst;
    t->depth = tag_depth(f, nd->inst);
    t->events = (nd->type->flags & BSIM_TYPE_EVENT_TAG) != 0;
    t->tag = p >= 0 && nd->values[p].str ? nd->values[p].str : "";
    t->dir = nd->role == TAG_VIS                   ? DIR_VIS
             : nd->model.nin + nd->model.nevin > 0 ? DIR_GOTO
                                                   : DIR_FROM;
    t->vis = t->dir == DIR_GOTO && nd->model.nipar > 0 ? nd->model.ipar[0] : 1;
    t->peer = -1;
  }
  return 0;
}

/* Xcos refuses two local GOTOs of one tag at one level, two visibility
 * blocks of one tag at one level, and two global GOTOs of one tag. */
static int check_unique(fl *f, const tagnode *t, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++) {
      if (!same(&t[i], &t[j]) || t[i].dir != t[j].dir) continue;
      if (t[i].dir == DIR_GOTO && t[i].vis == t[j].vis) {
        if (t[i].vis == 1 && t[i].inst == t[j].inst)
          return twice(f, &t[j], &t[i], "a second local one at this level");
        if (t[i].vis == 3) return twice(f, &t[j], &t[i], "a second global one");
      }
      if (t[i].dir == DIR_VIS && t[i].inst == t[j].inst)
        return twice(f, &t[j], &t[i], "a second one at this level");
    }
  return 0;
}

/* Pair every FROM the scoped GOTO of visibility block v reaches. */
static int scoped(fl *f, tagnode *t, int n, int v) {
  int g = -1;
  for (int i = 0; i < n; i++) {
    if (t[i].dir != DIR_GOTO || t[i].vis != 2 || t[i].peer >= 0 ||
        !same(&t[i], &t[v]) || !is_under(f, t[i].inst, t[v].inst))
      continue;
    if (g >= 0)
      return twice(f, &t[g], &t[i],
                   "a second scoped one under one visibility block");
    g = i;
  }
  if (g < 0) return 0;
  t[g].peer = v;
  for (int i = 0; i < n; i++)
    if (t[i].dir == DIR_FROM && t[i].peer < 0 && same(&t[i], &t[v]) &&
        is_under(f, t[i].inst, t[v].inst))
      t[i].peer = g;
  return 0;
}

static int pair(fl *f, tagnode *t, int n) {
  for (int i = 0; i < n; i++) /* local */
    for (int j = 0; j < n && t[i].dir == DIR_FROM && t[i].peer < 0; j++)
      if (t[j].dir == DIR_GOTO && t[j].vis == 1 && t[j].inst == t[i].inst &&
          same(&t[i], &t[j]))
        t[i].peer = j;
  /* scoped: innermost visibility blocks first, as Xcos resolves each
   * superblock before the level that holds it */
  for (int d = f->ninsts; d >= 0; d--)
    for (int v = 0; v < n; v++)
      if (t[v].dir == DIR_VIS && t[v].depth == d && scoped(f, t, n, v) != 0)
        return -1;
  for (int i = 0; i < n; i++) /* global */
    for (int j = 0; j < n && t[i].dir == DIR_FROM && t[i].peer < 0; j++)
      if (t[j].dir == DIR_GOTO && t[j].vis == 3 && same(&t[i], &t[j]))
        t[i].peer = j;
  for (int i = 0; i < n; i++) {
    if (t[i].dir != DIR_FROM || t[i].peer >= 0) continue;
    const node *nd = &f->nodes[t[i].node];
    bsim_error_set(f->err, BSIM_ERR_INPUT,
                   "%s:%d: block '%s' (%s): no %s with tag '%s' is visible "
                   "here (hint: a local %s must be at the same level, a "
                   "scoped one under a %s '%s' that encloses this block, a "
                   "global one anywhere)",
                   f->file, nd->line, nd->path, kind_name(&t[i], DIR_FROM),
                   kind_name(&t[i], DIR_GOTO), t[i].tag,
                   kind_name(&t[i], DIR_GOTO), kind_name(&t[i], DIR_VIS),
                   t[i].tag);
    return -1;
  }
  return 0;
}

int dg_fl_tags(fl *f) {
  tagnode *t = NULL;
  int n = 0, rc = collect(f, &t, &n);
  if (rc == 0 && n > 0) rc = check_unique(f, t, n);
  if (rc == 0 && n > 0) rc = pair(f, t, n);
  for (int i = 0; i < n && rc == 0; i++) {
    if (t[i].dir != DIR_FROM) continue;
    const node *nd = &f->nodes[t[i].node];
    rawlink l = {t[t[i].peer].node, 0, t[i].node, 0, nd->line};
    rc = t[i].events ? add_link(f, &f->act, &f->nact, &f->capact, l)
                     : add_link(f, &f->raw, &f->nraw, &f->capraw, l);
  }
  free(t);
  return rc;
}
