/*
 * Result files read back with the libraries' own readers (libmatio's
 * Mat_VarRead, HDF5's H5Dread), not blocksim's: the MAT and HDF5 files
 * of a run must give exactly the numbers of its CSV file. CSV prints
 * the shortest decimal that reads back as the same double, so the
 * comparison is exact: a difference is a number that did not read back
 * or a layout bug (a transposed matrix, a shifted column).
 * Checked: time, values, names, the sink records in the results file and
 * in --scopes files of each format, and that a file that cannot be
 * written leaves nothing behind.
 */
#include <dirent.h>
#include <hdf5.h>
#include <matio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blocksim/blocksim.h"
#include "tests/unit/test_check.h"
#include "tests/unit/test_library.h"
#include "tests/unit/test_tmpdir.h"

static char dir[256];

/* The CSV file as numbers: rows x (1 + cols), and its header. */
static double *read_csv(const char *path, size_t *rows, size_t *width,
                        char *header, size_t hlen) {
  FILE *f = fopen(path, "r");
  if (!f) return NULL;
  char line[4096];
  if (!fgets(line, sizeof line, f)) {
    fclose(f);
    return NULL;
  }
  line[strcspn(line, "\n")] = '\0';
  size_t hn = strlen(line) < hlen - 1 ? strlen(line) : hlen - 1;
  memcpy(header, line, hn);
  header[hn] = '\0';
  *width = 1;
  for (char *p = line; *p; p++)
    *width += *p == ',';
  size_t cap = 64, n = 0;
  double *v = malloc(sizeof(double) * cap);
  while (v && fgets(line, sizeof line, f)) {
    char *p = line;
    for (size_t c = 0; c < *width; c++) {
      if (n == cap) v = realloc(v, sizeof(double) * (cap *= 2));
      v[n++] = strtod(p, &p);
      if (*p == ',') p++;
    }
  }
  fclose(f);
  *rows = n / *width;
  return v;
}

static matvar_t *mat_read(mat_t *m, const char *name) {
  matvar_t *v = Mat_VarRead(m, name);
  CHECK(v != NULL, "MAT variable '%s' missing", name);
  return v;
}

static char *mat_string(matvar_t *cell, int i) {
  matvar_t *e = Mat_VarGetCell(cell, i);
  static char buf[256];
  buf[0] = '\0';
  if (e && e->class_type == MAT_C_CHAR && e->data) {
    size_t n = e->dims[1] < sizeof buf - 1 ? e->dims[1] : sizeof buf - 1;
    memcpy(buf, e->data, n);
    buf[n] = '\0';
  }
  return buf;
}

/* MAT's column-major matrix element (r, c). */
static double mat_at(const matvar_t *v, size_t r, size_t c) {
  return ((const double *)v->data)[c * v->dims[0] + r];
}

static void check_mat(const char *path, const double *csv, size_t rows,
                      size_t width, const char *const *names) {
  mat_t *m = Mat_Open(path, MAT_ACC_RDONLY);
  CHECK(m != NULL, "cannot open %s with matio", path);
  if (!m) return;
  matvar_t *t = mat_read(m, "time"), *v = mat_read(m, "values"),
           *nm = mat_read(m, "names");
  if (t && v && nm) {
    CHECK(t->dims[0] == rows && t->dims[1] == 1, "time is %zux%zu", t->dims[0],
          t->dims[1]);
    CHECK(v->dims[0] == rows && v->dims[1] == width - 1, "values %zux%zu",
          v->dims[0], v->dims[1]);
    for (size_t r = 0; r < rows && t->dims[0] == rows; r++) {
      CHECK(mat_at(t, r, 0) == csv[r * width], "MAT time row %zu", r);
      for (size_t c = 0; c + 1 < width && v->dims[1] == width - 1; c++)
        CHECK(mat_at(v, r, c) == csv[r * width + c + 1],
              "MAT values(%zu,%zu) = %.17g, CSV %.17g", r, c, mat_at(v, r, c),
              csv[r * width + c + 1]);
    }
    for (size_t c = 0; c + 1 < width; c++)
      CHECK(strcmp(mat_string(nm, (int)c), names[c]) == 0,
            "MAT name %zu is '%s'", c, mat_string(nm, (int)c));
  }
  Mat_VarFree(t);
  Mat_VarFree(v);
  Mat_VarFree(nm);
  Mat_Close(m);
}

/* A dataset read whole as doubles, with its dims. */
static double *h5_read(hid_t f, const char *name, hsize_t dims[2], int *rank) {
  hid_t ds = H5Dopen2(f, name, H5P_DEFAULT);
  CHECK(ds >= 0, "HDF5 dataset '%s' missing", name);
  if (ds < 0) return NULL;
  hid_t sp = H5Dget_space(ds);
  dims[1] = 1;
  *rank = H5Sget_simple_extent_ndims(sp);
  H5Sget_simple_extent_dims(sp, dims, NULL);
  size_t n = (size_t)H5Sget_simple_extent_npoints(sp);
  double *v = malloc(sizeof(double) * (n + 1));
  CHECK(H5Dread(ds, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0,
        "reading %s", name);
  H5Sclose(sp);
  H5Dclose(ds);
  return v;
}

static void check_h5(const char *path, const double *csv, size_t rows,
                     size_t width, const char *const *names) {
  hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  CHECK(f >= 0, "cannot open %s with HDF5", path);
  if (f < 0) return;
  hsize_t dt[2], dv[2];
  int rt, rv;
  double *t = h5_read(f, "/time", dt, &rt), *v = h5_read(f, "/values", dv, &rv);
  CHECK(rt == 1 && dt[0] == rows, "time rank %d, %llu rows", rt,
        (unsigned long long)dt[0]);
  CHECK(rv == 2 && dv[0] == rows && dv[1] == width - 1, "values %llux%llu",
        (unsigned long long)dv[0], (unsigned long long)dv[1]);
  for (size_t r = 0; t && v && r < rows && dv[0] == rows; r++) {
    CHECK(t[r] == csv[r * width], "HDF5 time row %zu", r);
    for (size_t c = 0; c + 1 < width && dv[1] == width - 1; c++)
      CHECK(v[r * (width - 1) + c] == csv[r * width + c + 1],
            "HDF5 values[%zu][%zu]", r, c);
  }
  free(t);
  free(v);
  /* names: variable-length strings */
  hid_t ds = H5Dopen2(f, "/names", H5P_DEFAULT);
  hid_t st = H5Tcopy(H5T_C_S1);
  H5Tset_size(st, H5T_VARIABLE);
  H5Tset_cset(st, H5T_CSET_UTF8); /* as docs/batch.md says they are */
  char *nm[16] = {0};
  CHECK(ds >= 0 && width - 1 <= 16 &&
            H5Dread(ds, st, H5S_ALL, H5S_ALL, H5P_DEFAULT, nm) >= 0,
        "reading /names");
  for (size_t c = 0; c + 1 < width; c++) {
    CHECK(nm[c] && strcmp(nm[c], names[c]) == 0, "HDF5 name %zu '%s'", c,
          nm[c] ? nm[c] : "(null)");
    H5free_memory(nm[c]);
  }
  H5Tclose(st);
  if (ds >= 0) H5Dclose(ds);
  H5Fclose(f);
}

/* The record "samples" of member.xml: (y, u) at each of its 30 clock ticks
 * (T = 0.1 over [0, 3): the one due at the final time is not served, as in
 * Xcos), in the results file and against the CSV scope. */
static void check_records(const char *h5path, const char *matpath) {
  char csvpath[512], header[256];
  size_t rows, width;
  snprintf(csvpath, sizeof csvpath, "%s/scopes_csv/samples.csv", dir);
  double *csv = read_csv(csvpath, &rows, &width, header, sizeof header);
  CHECK(csv && rows == 30 && width == 3, "scope CSV: %zu rows, width %zu",
        csv ? rows : 0, csv ? width : 0);
  CHECK(strcmp(header, "time,u1,u2") == 0, "scope header '%s'", header);
  if (!csv || rows != 30 || width != 3) {
    free(csv);
    return;
  }
  /* in the HDF5 results file and in the --scopes .h5 file */
  char scoped[512];
  snprintf(scoped, sizeof scoped, "%s/scopes_h5/samples.h5", dir);
  const char *h5s[2] = {h5path, scoped};
  const char *prefix[2] = {"/scopes/samples/", "/"};
  for (int k = 0; k < 2; k++) {
    hid_t f = H5Fopen(h5s[k], H5F_ACC_RDONLY, H5P_DEFAULT);
    CHECK(f >= 0, "open %s", h5s[k]);
    if (f < 0) continue;
    char tn[128], vn[128];
    snprintf(tn, sizeof tn, "%stime", prefix[k]);
    snprintf(vn, sizeof vn, "%svalues", prefix[k]);
    hsize_t dt[2], dv[2];
    int rt, rv;
    double *t = h5_read(f, tn, dt, &rt), *v = h5_read(f, vn, dv, &rv);
    CHECK(t && v && dt[0] == 30 && dv[0] == 30 && dv[1] == 2, "%s record dims",
          h5s[k]);
    for (size_t r = 0; t && v && dv[0] == 30 && r < 30; r++)
      CHECK(t[r] == csv[3 * r] && v[2 * r] == csv[3 * r + 1] &&
                v[2 * r + 1] == csv[3 * r + 2],
            "%s record row %zu", h5s[k], r);
    free(t);
    free(v);
    /* column names as the CSV header gives them */
    char nn[128];
    snprintf(nn, sizeof nn, "%snames", prefix[k]);
    hid_t ds = H5Dopen2(f, nn, H5P_DEFAULT);
    hid_t st = H5Tcopy(H5T_C_S1);
    H5Tset_size(st, H5T_VARIABLE);
    H5Tset_cset(st, H5T_CSET_UTF8);
    char *cn[2] = {0};
    CHECK(ds >= 0 && H5Dread(ds, st, H5S_ALL, H5S_ALL, H5P_DEFAULT, cn) >= 0 &&
              cn[0] && cn[1] && strcmp(cn[0], "u1") == 0 &&
              strcmp(cn[1], "u2") == 0,
          "%s record names", h5s[k]);
    H5free_memory(cn[0]);
    H5free_memory(cn[1]);
    H5Tclose(st);
    if (ds >= 0) H5Dclose(ds);
    H5Fclose(f);
  }
  /* in the MAT results file (scope_data{1} = [t u1 u2]) and alone */
  mat_t *m = Mat_Open(matpath, MAT_ACC_RDONLY);
  matvar_t *sd = m ? mat_read(m, "scope_data") : NULL;
  matvar_t *sn = m ? mat_read(m, "scope_names") : NULL;
  matvar_t *e = sd ? Mat_VarGetCell(sd, 0) : NULL;
  CHECK(sn && strcmp(mat_string(sn, 0), "samples") == 0, "scope_names");
  CHECK(e && e->dims[0] == 30 && e->dims[1] == 3, "scope_data{1} dims");
  for (size_t r = 0; e && e->dims[0] == 30 && r < 30; r++)
    for (size_t c = 0; c < 3; c++)
      CHECK(mat_at(e, r, c) == csv[3 * r + c], "MAT scope (%zu,%zu)", r, c);
  Mat_VarFree(sd);
  Mat_VarFree(sn);
  if (m) Mat_Close(m);
  snprintf(scoped, sizeof scoped, "%s/scopes_mat/samples.mat", dir);
  m = Mat_Open(scoped, MAT_ACC_RDONLY);
  CHECK(m != NULL, "open %s", scoped);
  matvar_t *t = m ? mat_read(m, "time") : NULL,
           *v = m ? mat_read(m, "values") : NULL;
  for (size_t r = 0; t && v && t->dims[0] == 30 && r < 30; r++)
    CHECK(mat_at(t, r, 0) == csv[3 * r] && mat_at(v, r, 0) == csv[3 * r + 1] &&
              mat_at(v, r, 1) == csv[3 * r + 2],
          "scope .mat row %zu", r);
  Mat_VarFree(t);
  Mat_VarFree(v);
  if (m) Mat_Close(m);
  free(csv);
}

static int count_files(const char *d) {
  DIR *dp = opendir(d);
  int n = 0;
  struct dirent *e;
  while (dp && (e = readdir(dp)) != NULL)
    n += e->d_name[0] != '.';
  if (dp) closedir(dp);
  return n;
}

/* Results in format f to path, records in format f to scopes (or none). */
static int write_all(const bsim_sim *s, const char *path, const char *scopes,
                     bsim_format f, bsim_error *err) {
  bsim_write_options o;
  bsim_write_options_init(&o);
  o.csv_path = path;
  o.format = f;
  o.scopes_dir = scopes;
  o.scopes_format = f;
  return bsim_sim_write(s, &o, err);
}

static void check_failure(const bsim_sim *s) {
  char bad[512];
  snprintf(bad, sizeof bad, "%s/missing/out.h5", dir);
  bsim_format fmts[2] = {BSIM_FORMAT_H5, BSIM_FORMAT_MAT};
  for (int k = 0; k < 2; k++) {
    bsim_error err;
    bsim_error_clear(&err);
    CHECK(write_all(s, bad, NULL, fmts[k], &err) != 0, "wrote %s", bad);
    CHECK(err.status == BSIM_ERR_INPUT && strstr(err.message, bad) &&
              strstr(err.message, "hint"),
          "message '%s'", err.message);
  }
  /* a device is no place for an HDF5 file */
  bsim_error err;
  bsim_error_clear(&err);
  CHECK(write_all(s, "/dev/null", NULL, BSIM_FORMAT_H5, &err) != 0 &&
            strstr(err.message, "not a regular file"),
        "HDF5 to /dev/null: '%s'", err.message);
}

int main(void) {
  bsim_process_init();
  CHECK(test_tmpdir_make(dir, sizeof dir, "result_files") == 0, "mkdtemp");
  char path[512], csvpath[512], matpath[512], h5path[512];
  snprintf(path, sizeof path, "%s/batch/member.xml", BSIM_TEST_DATA);
  bsim_error err;
  bsim_error_clear(&err);
  bsim_diagram *d = bsim_diagram_load(path, test_library(), &err);
  bsim_sim *s = d ? bsim_sim_create(d, NULL, &err) : NULL;
  CHECK(s && bsim_sim_run(s, &err) == 0, "run: %s", err.message);
  if (!s) return 1;
  snprintf(csvpath, sizeof csvpath, "%s/out.csv", dir);
  snprintf(matpath, sizeof matpath, "%s/out.mat", dir);
  snprintf(h5path, sizeof h5path, "%s/out.h5", dir);
  const char *fmtdir[3] = {"scopes_csv", "scopes_mat", "scopes_h5"};
  const char *outs[3] = {csvpath, matpath, h5path};
  for (int k = 0; k < 3; k++) {
    char sd[512];
    snprintf(sd, sizeof sd, "%s/%s", dir, fmtdir[k]);
    CHECK(write_all(s, outs[k], sd, (bsim_format)k, &err) == 0, "%s: %s", sd,
          err.message);
    CHECK(count_files(sd) == 1, "%s holds %d files", sd, count_files(sd));
  }
  CHECK(count_files(dir) == 6, "%d entries in %s (temporary files left?)",
        count_files(dir), dir);
  size_t rows, width;
  char header[256];
  double *csv = read_csv(csvpath, &rows, &width, header, sizeof header);
  CHECK(csv && rows == 61 && width == 3 && strcmp(header, "time,y,u") == 0,
        "CSV: %zu rows, width %zu, header %s", rows, width, header);
  const char *names[2] = {"y", "u"};
  if (csv && rows == 61 && width == 3) {
    check_mat(matpath, csv, rows, width, names);
    check_h5(h5path, csv, rows, width, names);
    check_records(h5path, matpath);
  }
  check_failure(s);
  free(csv);
  bsim_sim_free(s);
  bsim_diagram_free(d);
  test_tmpdir_done(dir, failures, "test_result_files");
  return failures ? 1 : 0;
}
