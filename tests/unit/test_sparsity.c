/*
 * The sparsity pattern of dF/dy + dF/dy' computed at compile time
 * (scheduler/sparsity.c), checked entry by entry on a small diagram with a
 * torn algebraic loop, and by its exact size on generated chains of lags.
 * Patterns are integers: every check here is exact.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "blocksim/blocksim.h"
#include "scheduler/sim.h"

#ifndef BSIM_TEST_DATA
#error "BSIM_TEST_DATA must name the tests/data folder"
#endif

#include "tests/unit/test_check.h"
#include "tests/unit/test_library.h"

static bsim_sim *compile(const char *path, bsim_diagram **dout) {
  bsim_error err;
  bsim_error_clear(&err);
  bsim_diagram *d = bsim_diagram_load(path, test_library(), &err);
  bsim_sim *s = d ? bsim_sim_create(d, NULL, &err) : NULL;
  CHECK(s != NULL, "%s: %s", path, err.message);
  if (!s) {
    bsim_diagram_free(d);
    return NULL;
  }
  *dout = d;
  return s;
}

static int xoff_of(const bsim_plan *p, const char *path) {
  for (int i = 0; i < p->nblocks; i++)
    if (strcmp(p->blocks[i].fb->path, path) == 0) return p->blocks[i].xoff;
  return -1;
}

/* Entry (row, col) of the pattern. */
static int has(const bsim_plan *p, int row, int col) {
  for (int q = p->pat_colptr[col]; q < p->pat_colptr[col + 1]; q++)
    if (p->pat_rowidx[q] == row) return 1;
  return 0;
}

/* Every column's rows strictly increasing, all in range. */
static void check_well_formed(const bsim_plan *p, const char *what) {
  CHECK(p->pat_colptr[0] == 0, "%s: colptr[0] = %d", what, p->pat_colptr[0]);
  CHECK(p->pat_colptr[p->ny] == p->pat_nnz, "%s: colptr[n] %d != nnz %ld", what,
        p->pat_colptr[p->ny], p->pat_nnz);
  for (int j = 0; j < p->ny; j++) {
    CHECK(has(p, j, j), "%s: diagonal (%d,%d) missing", what, j, j);
    for (int q = p->pat_colptr[j]; q < p->pat_colptr[j + 1]; q++) {
      CHECK(p->pat_rowidx[q] >= 0 && p->pat_rowidx[q] < p->ny,
            "%s: row %d out of range", what, p->pat_rowidx[q]);
      if (q > p->pat_colptr[j])
        CHECK(p->pat_rowidx[q] > p->pat_rowidx[q - 1],
              "%s: column %d rows not increasing", what, j);
    }
  }
}

static void test_small(void) {
  char path[1024];
  snprintf(path, sizeof path, "%s/solvers/pattern.xml", BSIM_TEST_DATA);
  bsim_diagram *d = NULL;
  bsim_sim *s = compile(path, &d);
  if (!s) return;
  const bsim_plan *p = s->plan;
  CHECK(p->pat_colptr != NULL, "no pattern");
  CHECK(p->nx == 5 && p->ntorn == 1 && p->ny == 6,
        "layout nx=%d ntorn=%d ny=%d, want 5 states and 1 torn signal", p->nx,
        p->ntorn, p->ny);
  if (!p->pat_colptr || p->ny != 6) {
    bsim_sim_free(s);
    bsim_diagram_free(d);
    return;
  }
  int x = xoff_of(p, "x"), z = xoff_of(p, "z"), v = xoff_of(p, "v"),
      q = xoff_of(p, "q"), w = p->torn[0].yoff;
  /* Expected rows (equation -> unknowns it reads):
   *   x: x' = err = loop - x, loop read through the torn w (or computed
   *      from x and w if the tear is on fb): {x, w}
   *   w: w - h, h = loop or fb output, both from {x, w}
   *   z: z' = 1: {z};  v: v' = -z: {v, z}
   *   q0, q1: the lag's states and its input v: {q0, q1, v} */
  int want[6][6] = {{0}};
  int rows[6][4] = {{x, x, w, -1}, {w, x, w, -1},    {z, z, -1},
                    {v, v, z, -1}, {q, q, q + 1, v}, {q + 1, q, q + 1, v}};
  int wantnnz = 0;
  for (int r = 0; r < 6; r++)
    for (int k = 1; k < 4 && rows[r][k] >= 0; k++)
      if (!want[rows[r][0]][rows[r][k]]) {
        want[rows[r][0]][rows[r][k]] = 1;
        wantnnz++;
      }
  CHECK(wantnnz == 13, "test's own expectation: %d", wantnnz);
  CHECK(p->pat_nnz == 13, "nnz %ld, want 13", p->pat_nnz);
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++)
      CHECK(has(p, i, j) == want[i][j],
            "entry (%d,%d) is %d, want %d (x=%d z=%d v=%d q=%d w=%d)", i, j,
            has(p, i, j), want[i][j], x, z, v, q, w);
  check_well_formed(p, "pattern.xml");
  bsim_sim_free(s);
  bsim_diagram_free(d);
}

/* A source followed by n first-order lags 1/(s+1), written to a temp file. */
static int write_chain(const char *path, int n) {
  FILE *fp = fopen(path, "w");
  if (!fp) return -1;
  fprintf(fp, "<?xml version=\"1.0\"?>\n<diagram name=\"chain\">\n"
              "  <simulation final-time=\"1\"/>\n"
              "  <block id=\"u\" type=\"CONST_m\"/>\n");
  for (int k = 1; k <= n; k++)
    fprintf(fp,
            "  <block id=\"l%d\" type=\"CLR\"><param name=\"num\" "
            "value=\"1\"/><param name=\"den\" value=\"[1 1]\"/></block>\n",
            k);
  fprintf(fp, "  <link from=\"u:1\" to=\"l1:1\"/>\n");
  for (int k = 2; k <= n; k++)
    fprintf(fp, "  <link from=\"l%d:1\" to=\"l%d:1\"/>\n", k - 1, k);
  fprintf(fp, "  <observe name=\"y\" signal=\"l%d:1\"/>\n</diagram>\n", n);
  return fclose(fp);
}

static void test_chain(int n) {
  char path[] = "/tmp/bsim_test_sparsity_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0, "mkstemp");
  if (fd < 0) return;
  close(fd);
  if (write_chain(path, n) != 0) {
    CHECK(0, "writing %s", path);
    remove(path);
    return;
  }
  bsim_diagram *d = NULL;
  clock_t c0 = clock();
  bsim_sim *s = compile(path, &d);
  double secs = (double)(clock() - c0) / CLOCKS_PER_SEC;
  remove(path);
  if (!s) return;
  const bsim_plan *p = s->plan;
  CHECK(p->ny == n, "chain %d: %d unknowns", n, p->ny);
  /* diagonal + one sub-diagonal: lag k reads lag k-1 */
  CHECK(p->pat_nnz == 2L * n - 1, "chain %d: nnz %ld, want %d", n, p->pat_nnz,
        2 * n - 1);
  if (p->pat_colptr && p->ny == n) {
    check_well_formed(p, "chain");
    char name[32];
    int bad = 0;
    for (int k = 2; k <= n && !bad; k++) {
      snprintf(name, sizeof name, "l%d", k);
      int row = xoff_of(p, name);
      snprintf(name, sizeof name, "l%d", k - 1);
      int col = xoff_of(p, name);
      if (row < 0 || col < 0 || !has(p, row, col)) bad = k;
    }
    CHECK(!bad, "chain %d: lag %d does not read lag %d", n, bad, bad - 1);
  }
  fprintf(stderr, "  chain of %d lags: nnz %ld, load+compile %.3f s\n", n,
          p->pat_nnz, secs);
  bsim_sim_free(s);
  bsim_diagram_free(d);
}

int main(void) {
  test_small();
  test_chain(200);
  test_chain(20000);
  if (failures) fprintf(stderr, "test_sparsity: %d failure(s)\n", failures);
  return failures ? 1 : 0;
}
