/*
 * The block library object: the standard types plus whatever the host
 * program and its plugins register, looked up by interface name first and
 * simulation-function name second. Two sorted indexes keep lookups
 * logarithmic, since the flattener asks once per block of diagrams that may
 * hold tens of thousands. A library may sit on a parent (a diagram's own
 * plugins on top of the caller's library): lookups and listings then see
 * the parent's types first, and new names must be new to both.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "blocks/library_int.h"
#include "blocks/std.h"

static const char *const origin_standard = "standard";
static const char *const origin_program = "program";

static int nomem(bsim_error *err) {
  bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
  return -1;
}

int bsim_lib_reserve(void **arr, size_t *cap, size_t need, size_t sz) {
  if (need <= *cap) return 0;
  size_t c = *cap ? *cap : 16;
  while (c < need)
    c *= 2;
  void *p = realloc(*arr, c * sz);
  if (!p) return -1;
  *arr = p;
  *cap = c;
  return 0;
}

/* ------------------------------------------------------------------ */
/* Indexes                                                             */
/* ------------------------------------------------------------------ */

/* Sorting needs the library, which qsort cannot pass: a key carries its
 * name with it. Ties keep registration order, so that "the first
 * registered answers" holds for shared simulation-function names. */
static int cmp_key(const void *a, const void *b) {
  const bsim_lib_key *x = a, *y = b;
  int c = strcmp(x->name, y->name);
  return c ? c : (x->index > y->index) - (x->index < y->index);
}

static int rebuild_indexes(bsim_library *lib) {
  size_t ns = 0;
  for (size_t i = 0; i < lib->ntypes; i++)
    ns += lib->types[i].type->sim_name != NULL;
  bsim_lib_key *byname =
      malloc((lib->ntypes ? lib->ntypes : 1) * sizeof *byname);
  bsim_lib_key *bysim = malloc((ns ? ns : 1) * sizeof *bysim);
  if (!byname || !bysim) {
    free(byname);
    free(bysim);
    return -1;
  }
  ns = 0;
  for (size_t i = 0; i < lib->ntypes; i++) {
    const bsim_block_type *t = lib->types[i].type;
    byname[i] = (bsim_lib_key){t->name, i};
    if (t->sim_name) bysim[ns++] = (bsim_lib_key){t->sim_name, i};
  }
  qsort(byname, lib->ntypes, sizeof *byname, cmp_key);
  qsort(bysim, ns, sizeof *bysim, cmp_key);
  free(lib->by_name);
  free(lib->by_sim);
  lib->by_name = byname;
  lib->by_sim = bysim;
  lib->nsim = ns;
  return 0;
}

/* First entry of a sorted index with this name, or NULL. */
static const bsim_lib_entry *index_find(const bsim_library *lib,
                                        const bsim_lib_key *keys, size_t n,
                                        const char *name) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (strcmp(keys[mid].name, name) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo < n && strcmp(keys[lo].name, name) == 0)
    return &lib->types[keys[lo].index];
  return NULL;
}

/* by_sim = 0: interface names; 1: simulation-function names. Parents
 * first: they were there before. */
static const bsim_lib_entry *chain_find(const bsim_library *lib,
                                        const char *name, int by_sim) {
  if (!lib) return NULL;
  const bsim_lib_entry *e = chain_find(lib->parent, name, by_sim);
  if (e) return e;
  return by_sim ? index_find(lib, lib->by_sim, lib->nsim, name)
                : index_find(lib, lib->by_name, lib->ntypes, name);
}

/* ------------------------------------------------------------------ */
/* Registration                                                        */
/* ------------------------------------------------------------------ */

/* Two types may answer to one name only when it is a simulation-function
 * name for at least one of them and running either is the same: both run
 * one function (TrigFun runs "sin_blk", the hidden type sin_blk's own
 * name), or both are superblock ports, which never run (IN_f and CLKINV_f
 * are both "input", as in Xcos). */
static int clash(int both_interface, const bsim_block_type *t,
                 const bsim_block_type *u) {
  int ports = (t->flags & BSIM_TYPE_PORT) && (u->flags & BSIM_TYPE_PORT);
  return both_interface || (t->fn != u->fn && !ports);
}

/* The registered type that `name`, the interface name (is_sim_name 0) or
 * function name (1) of t, collides with: its entry in *hit. */
static int collides(const bsim_library *lib, const char *name, int is_sim_name,
                    const bsim_block_type *t, const bsim_lib_entry **hit) {
  for (int by_sim = 0; by_sim < 2; by_sim++) {
    const bsim_lib_entry *e = chain_find(lib, name, by_sim);
    if (e && clash(!is_sim_name && !by_sim, t, e->type)) {
      *hit = e;
      return 1;
    }
  }
  return 0;
}

static int report_clash(const bsim_library *lib, const bsim_block_type *t,
                        const bsim_block_type *u, const char *origin,
                        const char *name, bsim_error *err) {
  bsim_error_set(err, BSIM_ERR_INPUT,
                 "%s: block type '%s' clashes with the registered type '%s' "
                 "(from %s): both answer to the name '%s' (hint: rename one; "
                 "names must be unique across the standard blocks and every "
                 "plugin)",
                 lib->origin, t->name, u->name, origin, name);
  return -1;
}

/* A name of the batch's type at pos: its interface name (sim 0) or a
 * function name of its own (1). */
typedef struct batch_name {
  const char *name;
  int sim;
  size_t pos;
} batch_name;

static int cmp_batch_name(const void *a, const void *b) {
  const batch_name *x = a, *y = b;
  int c = strcmp(x->name, y->name);
  return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

/* Names shared inside the batch, found by sorting them (equal names are
 * then neighbours) rather than comparing every pair: the standard table
 * alone has hundreds of types and is checked at every start. The clash
 * reported is the one of the earliest type that clashes with an earlier
 * one, as a scan in order would find. */
static int check_within(const bsim_library *lib,
                        const bsim_block_type *const *types, size_t n,
                        bsim_error *err) {
  batch_name *v = malloc((2 * n + 1) * sizeof *v);
  if (!v) return nomem(err);
  size_t m = 0;
  for (size_t k = 0; k < n; k++) {
    v[m++] = (batch_name){types[k]->name, 0, k};
    /* a type may name its own function after itself */
    if (types[k]->sim_name && strcmp(types[k]->sim_name, types[k]->name))
      v[m++] = (batch_name){types[k]->sim_name, 1, k};
  }
  qsort(v, m, sizeof *v, cmp_batch_name);
  const batch_name *first = NULL, *later = NULL;
  for (size_t i = 0, j; i < m; i = j) {
    for (j = i + 1; j < m && strcmp(v[j].name, v[i].name) == 0; j++)
      for (size_t a = i; a < j; a++) {
        const batch_name *x = &v[a], *y = &v[j]; /* x->pos <= y->pos */
        if (x->pos != y->pos &&
            clash(!x->sim && !y->sim, types[y->pos], types[x->pos]) &&
            (!later || y->pos < later->pos)) {
          first = x;
          later = y;
        }
      }
  }
  int rc = later ? report_clash(lib, types[later->pos], types[first->pos],
                                lib->origin, later->name, err)
                 : 0;
  free(v);
  return rc;
}

static int check_batch(const bsim_library *lib,
                       const bsim_block_type *const *types, size_t n,
                       bsim_error *err) {
  for (size_t k = 0; k < n; k++) {
    const bsim_block_type *t = types[k];
    if (!t || !t->name || !t->name[0]) {
      bsim_error_set(err, BSIM_ERR_INPUT,
                     "%s: block type #%zu has no name (every descriptor "
                     "needs an interface name)",
                     lib->origin, k + 1);
      return -1;
    }
  }
  for (size_t k = 0; k < n; k++) {
    const bsim_block_type *t = types[k];
    const char *names[2] = {t->name, t->sim_name};
    for (int s = 0; s < 2; s++) {
      const bsim_lib_entry *e = NULL;
      if (!names[s] || (s == 1 && strcmp(names[1], t->name) == 0)) continue;
      if (collides(lib, names[s], s, t, &e))
        return report_clash(lib, t, e->type, e->origin, names[s], err);
    }
  }
  return check_within(lib, types, n, err);
}

int bsim_library_add(bsim_library *lib, const bsim_block_type *const *types,
                     size_t n, bsim_error *err) {
  if (!lib || (n && !types)) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "bsim_library_add: no library or types");
    return -1;
  }
  if (check_batch(lib, types, n, err)) return -1;
  if (bsim_lib_reserve((void **)&lib->types, &lib->captypes, lib->ntypes + n,
                       sizeof *lib->types))
    return nomem(err);
  size_t before = lib->ntypes;
  for (size_t k = 0; k < n; k++)
    lib->types[lib->ntypes++] = (bsim_lib_entry){types[k], lib->origin};
  if (rebuild_indexes(lib)) {
    lib->ntypes = before;
    return nomem(err);
  }
  return 0;
}

/* ------------------------------------------------------------------ */
/* Life and lookup                                                     */
/* ------------------------------------------------------------------ */

bsim_library *bsim_library_create_child(const bsim_library *parent,
                                        bsim_error *err) {
  bsim_library *lib = calloc(1, sizeof *lib);
  if (!lib) {
    nomem(err);
    return NULL;
  }
  atomic_init(&lib->refs, 1);
  if (pthread_mutex_init(&lib->schema_lock, NULL) != 0) {
    free(lib);
    nomem(err);
    return NULL;
  }
  lib->parent = parent ? bsim_library_retain(parent) : NULL;
  lib->origin = origin_program;
  return lib;
}

bsim_library *bsim_library_create(bsim_error *err) {
  bsim_library *lib = bsim_library_create_child(NULL, err);
  if (!lib) return NULL;
  size_t n = 0;
  while (bsim_std_type_at(n))
    n++;
  const bsim_block_type **std = malloc((n ? n : 1) * sizeof *std);
  if (!std) {
    nomem(err);
    bsim_library_free(lib);
    return NULL;
  }
  for (size_t i = 0; i < n; i++)
    std[i] = bsim_std_type_at(i);
  lib->origin = origin_standard;
  int rc = bsim_library_add(lib, std, n, err);
  lib->origin = origin_program;
  free(std);
  if (rc) {
    bsim_library_free(lib);
    return NULL;
  }
  return lib;
}

const bsim_library *bsim_library_retain(const bsim_library *lib) {
  /* The count is the one mutable part of a shared library. */
  if (lib) atomic_fetch_add(&((bsim_library *)lib)->refs, 1);
  return lib;
}

void bsim_library_release(const bsim_library *clib) {
  bsim_library *lib = (bsim_library *)clib;
  if (!lib || atomic_fetch_sub(&lib->refs, 1) != 1) return;
  free(lib->types);
  free(lib->by_name);
  free(lib->by_sim);
  free(lib->engines);
  /* Descriptors live in the plugins: close them only once nothing points
   * at their types, last loaded first. */
  for (size_t i = lib->nhandles; i-- > 0;)
    dlclose(lib->handles[i]);
  free(lib->handles);
  for (size_t i = 0; i < lib->nstrings; i++)
    free(lib->strings[i]);
  free(lib->strings);
  free(lib->cc);
  free(lib->cc_cache);
  if (lib->schema) lib->schema_free(lib->schema);
  pthread_mutex_destroy(&lib->schema_lock);
  bsim_library_release(lib->parent);
  free(lib);
}

static bsim_library *root_of(const bsim_library *lib) {
  while (lib->parent)
    lib = lib->parent;
  return (bsim_library *)lib;
}

void *bsim_lib_schema_lock(const bsim_library *lib) {
  bsim_library *root = root_of(lib);
  pthread_mutex_lock(&root->schema_lock);
  return root->schema;
}

void bsim_lib_schema_unlock(const bsim_library *lib, void *schema,
                            void (*drop)(void *)) {
  bsim_library *root = root_of(lib);
  if (schema && !root->schema) {
    root->schema = schema;
    root->schema_free = drop;
  }
  pthread_mutex_unlock(&root->schema_lock);
}

void bsim_library_free(bsim_library *lib) {
  bsim_library_release(lib);
}

int bsim_lib_truncate(bsim_library *lib, size_t ntypes, size_t nengines) {
  if (ntypes < lib->ntypes) lib->ntypes = ntypes;
  if (nengines < lib->nengines) lib->nengines = nengines;
  return rebuild_indexes(lib);
}

int bsim_lib_holds(const bsim_library *lib, const void *handle) {
  for (; lib; lib = lib->parent)
    for (size_t i = 0; i < lib->nhandles; i++)
      if (lib->handles[i] == handle) return 1;
  return 0;
}

const bsim_block_type *bsim_library_find(const bsim_library *lib,
                                         const char *name) {
  if (!lib || !name) return NULL;
  const bsim_lib_entry *e = chain_find(lib, name, 0);
  if (!e) e = chain_find(lib, name, 1);
  return e ? e->type : NULL;
}

static size_t chain_count(const bsim_library *lib) {
  return lib ? chain_count(lib->parent) + lib->ntypes : 0;
}

const bsim_block_type *bsim_library_type_at(const bsim_library *lib, size_t i,
                                            const char **origin) {
  if (!lib) return NULL;
  size_t before = chain_count(lib->parent);
  if (i < before) return bsim_library_type_at(lib->parent, i, origin);
  i -= before;
  if (i >= lib->ntypes) return NULL;
  if (origin) *origin = lib->types[i].origin;
  return lib->types[i].type;
}
