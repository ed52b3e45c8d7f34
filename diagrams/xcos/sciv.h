/*
 * Scilab values as Xcos files store them: the model data of a block (rpar,
 * ipar, exprs, ...) and, in files from Scilab 5.5, whole superblock
 * diagrams (scs_m). Both the inline XML form and the serialized dictionary
 * of a .zcos decode into this one tree, so that everything after decoding
 * is blind to where a value came from. Private to diagrams/xcos/.
 */
#ifndef BSIM_XCOS_SCIV_H
#define BSIM_XCOS_SCIV_H

#include <stddef.h>

typedef enum {
  SCIV_DOUBLE = 0, /* real or complex matrix */
  SCIV_STRING,     /* matrix of strings */
  SCIV_INT,        /* integer matrix, any precision (values kept as doubles) */
  SCIV_BOOL,       /* boolean matrix (0 / 1 as doubles) */
  SCIV_LIST,       /* list(...) */
  SCIV_TLIST,      /* tlist: item 0 is the string row of type and field names */
  SCIV_MLIST,      /* mlist: likewise */
  SCIV_NONE        /* a dictionary entry that is no Scilab value blocksim
                      reads (e.g. the geometry Xcos also stores there) */
} sciv_kind;

typedef struct sciv {
  sciv_kind kind;
  int rows, cols;      /* matrices; 0 x 0 when empty */
  double *re;          /* rows*cols, column-major (DOUBLE, INT, BOOL) */
  double *im;          /* DOUBLE only, NULL when real */
  char **str;          /* rows*cols strings, column-major (STRING) */
  int prec;            /* INT: Scilab's code (1 2 4 8 int8..int64, 11 12 14 18
                          uint8..uint64) */
  struct sciv **items; /* lists */
  int nitems;
} sciv;

/* A zeroed value of a kind; NULL when out of memory. */
sciv *sciv_new(sciv_kind kind);
/* Allocate the element arrays for rows x cols (DOUBLE/INT/BOOL: re, and im
 * when complex; STRING: str, all NULL). 0, or -1 on overflow or out of
 * memory. */
int sciv_alloc(sciv *v, int rows, int cols, int complex);
/* Append an item to a list (taking ownership). 0 or -1. */
int sciv_append(sciv *list, sciv *item);
void sciv_free(sciv *v);
/* A deep copy, or NULL when out of memory. */
sciv *sciv_copy(const sciv *v);

int sciv_numel(const sciv *v);
int sciv_is_list(const sciv *v);
/* Numeric (DOUBLE real, INT, BOOL) matrix, possibly empty. */
int sciv_is_real(const sciv *v);
/* The type name of a tlist/mlist (first string of item 0), or NULL. */
const char *sciv_type_name(const sciv *v);
/* Field `name` of a tlist/mlist, or NULL when absent. */
const sciv *sciv_field(const sciv *v, const char *name);
/* Item i (from 0) of a list, or NULL. */
const sciv *sciv_item(const sciv *v, int i);
/* Element i of a numeric matrix as a double; `dflt` when out of range or
 * not numeric. */
double sciv_num(const sciv *v, int i, double dflt);
/* Element i of a string matrix, or NULL. */
const char *sciv_str(const sciv *v, int i);

#endif
