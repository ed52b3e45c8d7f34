/*
 * Gathering a sim's results for the writers (run_data.h).
 */
#include "output/run_data.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int out_run_of_sim(const bsim_sim *s, out_run *o) {
  memset(o, 0, sizeof *o);
  o->rows = bsim_result_rows(s);
  o->cols = bsim_result_cols(s);
  o->times = bsim_result_times(s);
  o->values = bsim_result_data(s);
  size_t rows;
  int cols;
  const double *data;
  while (bsim_record_at(s, o->nrec, &rows, &cols, &data))
    o->nrec++;
  o->names = calloc(o->cols + 1, sizeof(char *));
  o->rec = calloc(o->nrec + 1, sizeof(out_record));
  if (!o->names || !o->rec) {
    out_run_release(o);
    return -1;
  }
  for (size_t c = 0; c < o->cols; c++)
    o->names[c] = bsim_result_name(s, c);
  for (size_t i = 0; i < o->nrec; i++) {
    out_record *r = &o->rec[i];
    r->path = bsim_record_at(s, i, &r->rows, &r->cols, &r->data);
    r->names = bsim_record_names(s, i);
  }
  return 0;
}

void out_run_release(out_run *o) {
  free(o->names);
  free(o->rec);
  o->names = NULL;
  o->rec = NULL;
}

int out_record_split(const out_record *r, double **times, double **values) {
  size_t w = (size_t)r->cols + 1;
  *times = malloc(sizeof(double) * (r->rows ? r->rows : 1));
  *values = malloc(sizeof(double) * (r->rows * (size_t)r->cols + 1));
  if (!*times || !*values) {
    free(*times);
    free(*values);
    *times = *values = NULL;
    return -1;
  }
  for (size_t k = 0; k < r->rows; k++) {
    (*times)[k] = r->data[k * w];
    memcpy(*values + k * (size_t)r->cols, r->data + k * w + 1,
           sizeof(double) * (size_t)r->cols);
  }
  return 0;
}

int out_record_columns(const out_record *r, char ***names) {
  size_t n = (size_t)(r->cols > 0 ? r->cols : 0);
  const char *given = r->names && *r->names ? r->names : NULL;
  size_t count = 1;
  for (const char *p = given; p && *p; p++)
    count += *p == ',';
  if (given && count != n) given = NULL; /* not one per column: u1..un */
  size_t text = given ? strlen(given) + 1 : n * 24;
  char **v = malloc(sizeof(char *) * (n + 1) + text);
  if (!v) return -1;
  char *buf = (char *)(v + n + 1);
  if (given) memcpy(buf, given, text);
  for (size_t c = 0; c < n; c++) {
    if (given) {
      v[c] = buf;
      buf += strcspn(buf, ",");
      *buf++ = '\0';
    } else {
      v[c] = buf + c * 24;
      snprintf(v[c], 24, "u%zu", c + 1);
    }
  }
  v[n] = NULL;
  *names = v;
  return 0;
}
