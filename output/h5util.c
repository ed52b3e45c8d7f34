/*
 * HDF5 helpers (see h5util.h). Each public function runs its body between
 * H5E_BEGIN_TRY and H5E_END_TRY: a failure comes back as -1 and HDF5 does
 * not print its error stack, since the library never writes to stderr.
 */
#include "output/h5util.h"

#include <stdlib.h>
#include <string.h>

/* Below this many values a dataset is stored whole, uncompressed: chunk
 * bookkeeping would outweigh any gain. */
enum { COMPRESS_FROM = 512, CHUNK_VALUES = 8192 };

static hid_t dataset_plist(int rank, const hsize_t *dims, int always) {
  hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  if (dcpl < 0) return dcpl;
  hsize_t n = dims[0] * (rank > 1 ? dims[1] : 1);
  if (n == 0 || (n < COMPRESS_FROM && !always)) return dcpl;
  hsize_t chunk[2] = {dims[0], rank > 1 ? dims[1] : 1};
  hsize_t per_row = rank > 1 && dims[1] > 0 ? dims[1] : 1;
  hsize_t rows = CHUNK_VALUES / per_row;
  if (rows < 1) rows = 1;
  if (rows < chunk[0]) chunk[0] = rows;
  if (H5Pset_chunk(dcpl, rank, chunk) < 0 || H5Pset_shuffle(dcpl) < 0 ||
      H5Pset_deflate(dcpl, 4) < 0) {
    H5Pclose(dcpl);
    return -1;
  }
  return dcpl;
}

static int write_numbers(hid_t loc, const char *name, int rank,
                         const hsize_t *dims, hid_t type, const void *data,
                         int always) {
  hid_t space = H5Screate_simple(rank, dims, NULL);
  hid_t dcpl = space >= 0 ? dataset_plist(rank, dims, always) : -1;
  hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
  hid_t ds = -1;
  int rc = -1;
  if (space >= 0 && dcpl >= 0 && lcpl >= 0 &&
      H5Pset_create_intermediate_group(lcpl, 1) >= 0)
    ds = H5Dcreate2(loc, name, type, space, lcpl, dcpl, H5P_DEFAULT);
  if (ds >= 0 && (dims[0] == 0 || (rank > 1 && dims[1] == 0) ||
                  H5Dwrite(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0))
    rc = 0;
  if (ds >= 0) H5Dclose(ds);
  if (lcpl >= 0) H5Pclose(lcpl);
  if (dcpl >= 0) H5Pclose(dcpl);
  if (space >= 0) H5Sclose(space);
  return rc;
}

/* write_numbers without HDF5's error printing. */
static int numbers(hid_t loc, const char *name, int rank, size_t d0,
                   size_t d1, hid_t type, const void *data, int always) {
  hsize_t dims[2] = {d0, d1};
  int rc;
  H5E_BEGIN_TRY {
    rc = write_numbers(loc, name, rank, dims, type, data, always);
  }
  H5E_END_TRY;
  return rc;
}

int bsim_h5_matrix(hid_t loc, const char *name, size_t rows, size_t cols,
                   const double *data) {
  return numbers(loc, name, 2, rows, cols, H5T_NATIVE_DOUBLE, data, 0);
}

int bsim_h5_matrix_z(hid_t loc, const char *name, size_t rows, size_t cols,
                     const double *data) {
  return numbers(loc, name, 2, rows, cols, H5T_NATIVE_DOUBLE, data, 1);
}

int bsim_h5_vector(hid_t loc, const char *name, size_t n, const double *v) {
  return numbers(loc, name, 1, n, 0, H5T_NATIVE_DOUBLE, v, 0);
}

int bsim_h5_longs(hid_t loc, const char *name, size_t n, const long long *v) {
  return numbers(loc, name, 1, n, 0, H5T_NATIVE_LLONG, v, 0);
}

static hid_t string_type(void) {
  hid_t t = H5Tcopy(H5T_C_S1);
  if (t < 0) return t;
  if (H5Tset_size(t, H5T_VARIABLE) < 0 || H5Tset_cset(t, H5T_CSET_UTF8) < 0) {
    H5Tclose(t);
    return -1;
  }
  return t;
}

static int write_strings(hid_t loc, const char *name, int rank,
                         const hsize_t *dims, const char *const *s) {
  size_t n = dims[0] * (rank > 1 ? dims[1] : 1);
  hid_t t = string_type();
  hid_t space = H5Screate_simple(rank, dims, NULL);
  hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
  hid_t ds = -1;
  int rc = -1;
  if (t >= 0 && space >= 0 && lcpl >= 0 &&
      H5Pset_create_intermediate_group(lcpl, 1) >= 0)
    ds = H5Dcreate2(loc, name, t, space, lcpl, H5P_DEFAULT, H5P_DEFAULT);
  /* HDF5 callocs a conversion buffer of 1 MB per write by default: for a
   * few names that memset costs more than the rest of a sweep's writing */
  hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
  if (dxpl >= 0) H5Pset_buffer(dxpl, 4096 + 64 * n, NULL, NULL);
  if (ds >= 0 && dxpl >= 0 &&
      (n == 0 || H5Dwrite(ds, t, H5S_ALL, H5S_ALL, dxpl, s) >= 0))
    rc = 0;
  if (dxpl >= 0) H5Pclose(dxpl);
  if (ds >= 0) H5Dclose(ds);
  if (lcpl >= 0) H5Pclose(lcpl);
  if (space >= 0) H5Sclose(space);
  if (t >= 0) H5Tclose(t);
  return rc;
}

int bsim_h5_strings(hid_t loc, const char *name, size_t n,
                    const char *const *s) {
  hsize_t dims[1] = {n};
  int rc;
  H5E_BEGIN_TRY {
    rc = write_strings(loc, name, 1, dims, s);
  }
  H5E_END_TRY;
  return rc;
}

int bsim_h5_strings2(hid_t loc, const char *name, size_t rows, size_t cols,
                     const char *const *s) {
  hsize_t dims[2] = {rows, cols};
  int rc;
  H5E_BEGIN_TRY {
    rc = write_strings(loc, name, 2, dims, s);
  }
  H5E_END_TRY;
  return rc;
}

static int write_attr(hid_t obj, const char *name, hid_t type,
                      const void *value) {
  hid_t space = H5Screate(H5S_SCALAR);
  hid_t a = space >= 0
                ? H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT)
                : -1;
  int rc = a >= 0 && H5Awrite(a, type, value) >= 0 ? 0 : -1;
  if (a >= 0) H5Aclose(a);
  if (space >= 0) H5Sclose(space);
  return rc;
}

int bsim_h5_attr_string(hid_t obj, const char *name, const char *value) {
  int rc = -1;
  H5E_BEGIN_TRY {
    hid_t t = string_type();
    if (t >= 0) {
      rc = write_attr(obj, name, t, &value);
      H5Tclose(t);
    }
  }
  H5E_END_TRY;
  return rc;
}

int bsim_h5_attr_double(hid_t obj, const char *name, double value) {
  int rc;
  H5E_BEGIN_TRY {
    rc = write_attr(obj, name, H5T_NATIVE_DOUBLE, &value);
  }
  H5E_END_TRY;
  return rc;
}

int bsim_h5_attr_long(hid_t obj, const char *name, long long value) {
  int rc;
  H5E_BEGIN_TRY {
    rc = write_attr(obj, name, H5T_NATIVE_LLONG, &value);
  }
  H5E_END_TRY;
  return rc;
}

hid_t bsim_h5_group(hid_t loc, const char *path) {
  hid_t g = -1;
  H5E_BEGIN_TRY {
    if (H5Lexists(loc, path, H5P_DEFAULT) > 0) {
      g = H5Gopen2(loc, path, H5P_DEFAULT);
    } else {
      hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
      if (lcpl >= 0 && H5Pset_create_intermediate_group(lcpl, 1) >= 0)
        g = H5Gcreate2(loc, path, lcpl, H5P_DEFAULT, H5P_DEFAULT);
      if (lcpl >= 0) H5Pclose(lcpl);
    }
  }
  H5E_END_TRY;
  return g;
}

int bsim_h5_exists(hid_t loc, const char *name) {
  int rc = 0;
  H5E_BEGIN_TRY {
    /* every intermediate link must exist for H5Lexists to say yes */
    char *copy = strdup(name);
    rc = copy != NULL;
    for (char *p = copy; rc && p && *p; p++) {
      if (*p != '/' || p == copy) continue;
      *p = '\0';
      rc = H5Lexists(loc, copy, H5P_DEFAULT) > 0;
      *p = '/';
    }
    rc = rc && H5Lexists(loc, name, H5P_DEFAULT) > 0;
    free(copy);
  }
  H5E_END_TRY;
  return rc;
}

int bsim_h5_dims(hid_t loc, const char *name, size_t *rows, size_t *cols) {
  int rc = -1;
  H5E_BEGIN_TRY {
    hid_t ds = H5Dopen2(loc, name, H5P_DEFAULT);
    hid_t space = ds >= 0 ? H5Dget_space(ds) : -1;
    int rank = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
    hsize_t dims[2] = {0, 0};
    if (rank >= 1 && rank <= 2 &&
        H5Sget_simple_extent_dims(space, dims, NULL) >= 0) {
      *rows = (size_t)dims[0];
      *cols = rank == 2 ? (size_t)dims[1] : 0;
      rc = 0;
    }
    if (space >= 0) H5Sclose(space);
    if (ds >= 0) H5Dclose(ds);
  }
  H5E_END_TRY;
  return rc;
}

static int read_all(hid_t loc, const char *name, hid_t type, void *out) {
  int rc = -1;
  H5E_BEGIN_TRY {
    hid_t ds = H5Dopen2(loc, name, H5P_DEFAULT);
    hid_t space = ds >= 0 ? H5Dget_space(ds) : -1;
    hssize_t n = space >= 0 ? H5Sget_simple_extent_npoints(space) : -1;
    if (n == 0 ||
        (n > 0 && H5Dread(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, out) >= 0))
      rc = 0;
    if (space >= 0) H5Sclose(space);
    if (ds >= 0) H5Dclose(ds);
  }
  H5E_END_TRY;
  return rc;
}

int bsim_h5_read_doubles(hid_t loc, const char *name, double *out) {
  return read_all(loc, name, H5T_NATIVE_DOUBLE, out);
}

int bsim_h5_read_longs(hid_t loc, const char *name, long long *out) {
  return read_all(loc, name, H5T_NATIVE_LLONG, out);
}

void bsim_h5_free_strings(char **s, size_t n) {
  for (size_t i = 0; s && i < n; i++)
    free(s[i]);
  free(s);
}

char **bsim_h5_read_strings(hid_t loc, const char *name, size_t *n) {
  char **out = NULL;
  H5E_BEGIN_TRY {
    hid_t ds = H5Dopen2(loc, name, H5P_DEFAULT);
    hid_t space = ds >= 0 ? H5Dget_space(ds) : -1;
    hssize_t cnt = space >= 0 ? H5Sget_simple_extent_npoints(space) : -1;
    hid_t t = string_type();
    char **raw = cnt >= 0 ? calloc((size_t)cnt + 1, sizeof(char *)) : NULL;
    if (raw && t >= 0 &&
        (cnt == 0 || H5Dread(ds, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, raw) >= 0)) {
      out = calloc((size_t)cnt + 1, sizeof(char *));
      for (hssize_t i = 0; out && i < cnt; i++)
        if (!(out[i] = strdup(raw[i] ? raw[i] : ""))) {
          bsim_h5_free_strings(out, (size_t)cnt);
          out = NULL;
        }
      if (cnt > 0) H5Dvlen_reclaim(t, space, H5P_DEFAULT, raw);
      *n = (size_t)cnt;
    }
    free(raw);
    if (t >= 0) H5Tclose(t);
    if (space >= 0) H5Sclose(space);
    if (ds >= 0) H5Dclose(ds);
  }
  H5E_END_TRY;
  return out;
}

char *bsim_h5_attr_read_string(hid_t obj, const char *name) {
  char *out = NULL;
  H5E_BEGIN_TRY {
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    hid_t t = string_type();
    char *raw = NULL;
    if (a >= 0 && t >= 0 && H5Aread(a, t, &raw) >= 0 && raw) {
      out = strdup(raw);
      H5free_memory(raw);
    }
    if (t >= 0) H5Tclose(t);
    if (a >= 0) H5Aclose(a);
  }
  H5E_END_TRY;
  return out;
}
