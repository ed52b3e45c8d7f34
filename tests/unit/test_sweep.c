/*
 * Sweeps through the library: a grid over member.xml (a top-level variable
 * and a superblock's variable) plus members whose overrides change the
 * structure (a saturated integrator: compiled on their own) or are bad
 * input, run by a pool of 3 threads into an HDF5 study and a CSV study.
 *
 * Every member's signals and sink record in the HDF5 file, read back with
 * HDF5's own API, must equal BIT FOR BIT those of a sim created from a
 * freshly loaded diagram with the same overrides (bsim_diagram_override,
 * as `blocksim run -p` does): both evaluate the same texts and run the
 * same deterministic integration, so any difference is a bug. The summary
 * must list every member in index order with its status; the bad member
 * its message. The CSV study must hold the same numbers (%.17g
 * round-trips).
 */
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blocksim/batch.h"
#include "tests/unit/test_check.h"
#include "tests/unit/test_library.h"
#include "tests/unit/test_tmpdir.h"

static char path[512], dir[64];

/* The separate run of member i. */
static bsim_sim *separate(const bsim_design *des, long i) {
  bsim_error err;
  bsim_error_clear(&err);
  bsim_diagram *d = bsim_diagram_load(path, test_library(), &err);
  for (int j = 0; d && j < bsim_design_params(des); j++)
    if (bsim_diagram_override(d, bsim_design_target(des, j),
                              bsim_design_value(des, i, j), &err) != 0) {
      bsim_diagram_free(d);
      return NULL;
    }
  bsim_sim *s = d ? bsim_sim_create(d, NULL, &err) : NULL;
  bsim_diagram_free(d);
  if (s && bsim_sim_run(s, &err) != 0) {
    bsim_sim_free(s);
    s = NULL;
  }
  return s;
}

static int added(void *ctx, long member, void *rec, size_t len, int failed) {
  (void)member;
  (void)failed;
  bsim_error err;
  bsim_error_clear(&err);
  int rc = bsim_study_add(ctx, rec, len, &err);
  CHECK(rc == 0, "add: %s", err.message);
  free(rec);
  return rc;
}

static double *read_doubles(hid_t f, const char *name, size_t *n) {
  hid_t ds = H5Dopen2(f, name, H5P_DEFAULT);
  if (ds < 0) return NULL;
  hid_t sp = H5Dget_space(ds);
  *n = (size_t)H5Sget_simple_extent_npoints(sp);
  double *v = malloc(sizeof(double) * (*n + 1));
  if (H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) < 0) {
    free(v);
    v = NULL;
  }
  H5Sclose(sp);
  H5Dclose(ds);
  return v;
}

static void check_member(hid_t f, const bsim_design *des, long i) {
  bsim_sim *s = separate(des, i);
  CHECK(s != NULL, "member %ld alone", i);
  if (!s) return;
  char name[128];
  size_t n;
  snprintf(name, sizeof name, "/runs/%06ld/values", i);
  double *v = read_doubles(f, name, &n);
  size_t want = bsim_result_rows(s) * bsim_result_cols(s);
  CHECK(v && n == want &&
            memcmp(v, bsim_result_data(s), sizeof(double) * n) == 0,
        "member %ld: signals differ from its separate run", i);
  free(v);
  size_t rows;
  int cols;
  const double *rec;
  CHECK(bsim_record_at(s, 0, &rows, &cols, &rec) != NULL, "record");
  snprintf(name, sizeof name, "/runs/%06ld/scopes/samples/values", i);
  v = read_doubles(f, name, &n);
  int same = v && n == rows * (size_t)cols;
  for (size_t r = 0; same && r < rows; r++)
    for (int c = 0; c < cols; c++)
      same &= memcmp(&v[r * (size_t)cols + (size_t)c],
                     &rec[r * (size_t)(cols + 1) + 1 + (size_t)c],
                     sizeof(double)) == 0;
  CHECK(same, "member %ld: record differs from its separate run", i);
  free(v);
  bsim_sim_free(s);
}

static void run_study(bsim_sweep *sw, const bsim_design *des, const char *out,
                      bsim_format fmt) {
  bsim_error err;
  bsim_error_clear(&err);
  bsim_study *st = bsim_study_open(out, fmt, sw, des, "test", 0, 0, &err);
  bsim_pool *p = st ? bsim_pool_create(sw, 3, &err) : NULL;
  CHECK(p != NULL, "study/pool: %s", err.message);
  if (!p) {
    bsim_study_free(st);
    return;
  }
  long n = bsim_design_members(des);
  for (long i = n - 1; i >= 0; i--) /* any order: the output is sorted */
    bsim_pool_push(p, &i, 1);
  bsim_pool_close(p);
  CHECK(bsim_pool_wait(p, added, NULL, st) == 0, "pool");
  long failed;
  CHECK(bsim_study_done(st, &failed) == n && failed == 1,
        "%ld done, %ld failed", bsim_study_done(st, &failed), failed);
  CHECK(bsim_study_finish(st, &err) == 0, "finish: %s", err.message);
  bsim_pool_free(p);
  bsim_study_free(st);
}

int main(void) {
  bsim_process_init();
  CHECK(test_tmpdir_make(dir, sizeof dir, "sweep") == 0, "mkdtemp");
  snprintf(path, sizeof path, "%s/batch/member.xml", BSIM_TEST_DATA);
  bsim_error err;
  bsim_error_clear(&err);
  bsim_diagram *d = bsim_diagram_load(path, test_library(), &err);
  bsim_design *des = bsim_design_create(&err);
  /* members 0..5: the grid; then by hand: a saturated integrator (its own
   * compile) and a bad value */
  char man[128];
  snprintf(man, sizeof man, "%s/m.csv", dir);
  FILE *f = fopen(man, "w");
  fputs("Kp,plant.tau,plant/y.satur\n", f);
  const char *kp[3] = {"1", "2.5", "0.1+0.2"}, *tau[2] = {"0.25", "0.5"};
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 2; b++)
      fprintf(f, "%s,%s,0\n", kp[a], tau[b]);
  fputs("2,0.5,1\n", f);   /* member 6: another structure */
  fputs("1 +,0.5,0\n", f); /* member 7: bad input */
  fclose(f);
  CHECK(d && bsim_design_read_manifest(des, man, &err) == 0, "design: %s",
        err.message);
  bsim_sweep *sw = bsim_sweep_create(d, path, test_library(), NULL, des, &err);
  CHECK(sw != NULL, "sweep: %s", err.message);
  if (!sw) return 1;
  char h5[128], csv[128];
  snprintf(h5, sizeof h5, "%s/s.h5", dir);
  snprintf(csv, sizeof csv, "%s/s", dir);
  run_study(sw, des, h5, BSIM_FORMAT_H5);
  run_study(sw, des, csv, BSIM_FORMAT_CSV);

  hid_t hf = H5Fopen(h5, H5F_ACC_RDONLY, H5P_DEFAULT);
  CHECK(hf >= 0, "open %s", h5);
  for (long i = 0; hf >= 0 && i < 7; i++)
    check_member(hf, des, i);
  if (hf >= 0) {
    size_t n;
    double *status = read_doubles(hf, "/summary/status", &n);
    double *index = read_doubles(hf, "/summary/index", &n);
    CHECK(status && index && n == 8, "summary rows");
    for (size_t i = 0; status && index && i < n; i++)
      CHECK(index[i] == (double)i && status[i] == (i == 7 ? 2 : 0),
            "summary row %zu: index %g status %g", i, index[i], status[i]);
    free(status);
    free(index);
    CHECK(H5Lexists(hf, "/runs/000007", H5P_DEFAULT) == 0,
          "a failed member has a run group");
    H5Fclose(hf);
  }
  /* the CSV study's member 4 is the same numbers */
  bsim_sim *s4 = separate(des, 4);
  char run4[160];
  snprintf(run4, sizeof run4, "%s/runs/000004.csv", csv);
  f = fopen(run4, "r");
  CHECK(f && s4, "CSV member 4");
  if (f && s4) {
    char line[512];
    CHECK(fgets(line, sizeof line, f) && strcmp(line, "time,y,u\n") == 0,
          "CSV header");
    const double *v = bsim_result_data(s4);
    for (size_t r = 0; r < bsim_result_rows(s4); r++) {
      double t, y, u;
      CHECK(fscanf(f, "%lf,%lf,%lf", &t, &y, &u) == 3 && y == v[2 * r] &&
                u == v[2 * r + 1],
            "CSV member 4 row %zu", r);
    }
  }
  if (f) fclose(f);
  bsim_sim_free(s4);
  bsim_sweep_free(sw);
  bsim_design_free(des);
  bsim_diagram_free(d);
  test_tmpdir_done(dir, failures, "test_sweep");
  return failures ? 1 : 0;
}
