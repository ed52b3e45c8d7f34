/*
 * The few HDF5 operations blocksim's files need (matrices, string lists,
 * attributes, nested groups), written once for the single-run writer and
 * the study writer, so that both lay their data out the same way. Every
 * function is silent: HDF5's own error printing is switched off around
 * each call and restored after. Private to output/'s HDF5 module.
 */
#ifndef BSIM_H5UTIL_H
#define BSIM_H5UTIL_H

#include <hdf5.h>
#include <stddef.h>

/* A rows x cols row-major matrix of doubles as a 2-D dataset `name` of
 * loc (cols may be 0). Datasets past a few hundred values are chunked and
 * compressed (shuffle + deflate). 0 or -1. */
int bsim_h5_matrix(hid_t loc, const char *name, size_t rows, size_t cols,
                   const double *data);
/* The same, chunked and compressed whatever its size (study files). */
int bsim_h5_matrix_z(hid_t loc, const char *name, size_t rows, size_t cols,
                     const double *data);
/* n doubles as a 1-D dataset. */
int bsim_h5_vector(hid_t loc, const char *name, size_t n, const double *v);
/* The same for 64-bit integers (1-D). */
int bsim_h5_longs(hid_t loc, const char *name, size_t n, const long long *v);
/* n UTF-8 strings as a 1-D dataset of variable-length strings. */
int bsim_h5_strings(hid_t loc, const char *name, size_t n,
                    const char *const *s);
/* rows x cols of them (row-major) as a 2-D dataset. */
int bsim_h5_strings2(hid_t loc, const char *name, size_t rows, size_t cols,
                     const char *const *s);
/* Attributes of an object. */
int bsim_h5_attr_string(hid_t obj, const char *name, const char *value);
int bsim_h5_attr_double(hid_t obj, const char *name, double value);
int bsim_h5_attr_long(hid_t obj, const char *name, long long value);

/* Group `path` below loc, creating missing intermediate groups ("a/b/c").
 * A negative id on failure; close with H5Gclose. */
hid_t bsim_h5_group(hid_t loc, const char *path);

/* A run's datasets below loc (docs/batch.md), h5.c: time, values, names,
 * and scope_names plus scopes/<block path>/{time,values,names} when it
 * recorded. In a study (study = 1) time and names are the file's, at its
 * root, and every values dataset is chunked and compressed. 0 or -1. */
struct out_run;
int out_h5_write_run(hid_t loc, const struct out_run *o, int study);

/* Reading back (merge, plot). A dataset's dims (up to 2; dims[1] = 0 for
 * 1-D): 0, or -1 when absent. */
int bsim_h5_dims(hid_t loc, const char *name, size_t *rows, size_t *cols);
/* Whole dataset as doubles / 64-bit integers into a caller buffer of the
 * size bsim_h5_dims gives. 0 or -1. */
int bsim_h5_read_doubles(hid_t loc, const char *name, double *out);
int bsim_h5_read_longs(hid_t loc, const char *name, long long *out);
/* A string dataset (1-D or 2-D, n = all its strings): malloc'ed array of
 * n malloc'ed strings (free with bsim_h5_free_strings). NULL on
 * failure. */
char **bsim_h5_read_strings(hid_t loc, const char *name, size_t *n);
void bsim_h5_free_strings(char **s, size_t n);
/* A string attribute, malloc'ed, or NULL. */
char *bsim_h5_attr_read_string(hid_t obj, const char *name);
/* 1 when loc has a link `name`. */
int bsim_h5_exists(hid_t loc, const char *name);

#endif
