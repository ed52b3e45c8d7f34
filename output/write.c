/*
 * All outputs of a run, committed together: every file (the results CSV
 * and each sink record) is first written completely under a temporary name,
 * then the results go to the stream if there is one, and only then are the
 * temporaries renamed over their targets. A failure or a cancellation at
 * any point before that removes every temporary and every folder made for
 * them, so a failed run leaves no result file and no stray file.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/atomic.h"
#include "output/output.h"
#include "output/writers.h"

static const char *const extension[] = {"csv", "mat", "h5"};
static const char *const format_name[] = {"CSV", "MAT", "HDF5"};

typedef struct pending {
  const out_mat_module *mat; /* the modules of the formats asked for */
  const out_h5_module *h5;
  bsim_atomic *files;
  int nfiles, cap;
  char **dirs; /* folders made here, in order (removed on failure) */
  int ndirs, dcap;
} pending;

void bsim_write_options_init(bsim_write_options *o) {
  memset(o, 0, sizeof *o);
}

static int grow(void **arr, int *cap, int n, size_t size) {
  if (n < *cap) return 0;
  int nc = *cap ? 2 * *cap : 8;
  void *p = realloc(*arr, (size_t)nc * size);
  if (!p) return -1;
  *arr = p;
  *cap = nc;
  return 0;
}

/* mkdir, remembering what was made. 0 if it exists or was made. */
static int make_dir(pending *pd, const char *path) {
  if (mkdir(path, 0777) == 0) {
    if (grow((void **)&pd->dirs, &pd->dcap, pd->ndirs, sizeof(char *)) != 0)
      return -1;
    if (!(pd->dirs[pd->ndirs] = strdup(path))) return -1;
    pd->ndirs++;
    return 0;
  }
  return errno == EEXIST ? 0 : -1;
}

/* mkdir -p for the folders of path below dir (not its last component). */
static int make_parents(pending *pd, char *path, size_t dirlen) {
  for (char *p = path + dirlen + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    int rc = make_dir(pd, path);
    *p = '/';
    if (rc != 0) return -1;
  }
  return 0;
}

static void rollback(pending *pd) {
  for (int i = 0; i < pd->nfiles; i++)
    bsim_atomic_discard(&pd->files[i]);
  for (int i = pd->ndirs - 1; i >= 0; i--)
    rmdir(pd->dirs[i]); /* only when empty: someone else's files stay */
}

static void release(pending *pd) {
  for (int i = 0; i < pd->ndirs; i++)
    free(pd->dirs[i]);
  free(pd->dirs);
  free(pd->files);
}

static int report_open(int rc, const char *path, const char *keep,
                       bsim_error *err) {
  if (rc == -2)
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "refusing to write '%s': it is the diagram being run%s%s "
                   "(hint: choose another output name)",
                   path, strcmp(path, keep) ? ", " : "",
                   strcmp(path, keep) ? keep : "");
  else
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "cannot create '%s': %s (hint: does the folder exist and "
                   "is it writable?)",
                   path, strerror(errno));
  return -1;
}

static int report_write(int rc, const char *path, bsim_error *err) {
  if (rc == -2)
    bsim_error_set(err, BSIM_ERR_SIM,
                   "interrupted while writing '%s': no result file written",
                   path);
  else
    bsim_error_set(err, BSIM_ERR_SIM, "cannot write '%s': %s", path,
                   strerror(errno));
  return -1;
}

/* MAT and HDF5 through their modules' libraries, which open files by
 * name: the temporary is closed and written again by name. 0, or -1
 * (errno set). */
static int library_file(const pending *pd, bsim_atomic *a, bsim_format fmt,
                        const bsim_sim *s, const out_record *rec) {
  if (bsim_atomic_finish(a) != 0) return -1;
  out_run run;
  if (!rec && out_run_of_sim(s, &run) != 0) return -1;
  int rc;
  if (rec)
    rc = fmt == BSIM_FORMAT_MAT ? pd->mat->record(a->tmp, rec)
                                : pd->h5->record(a->tmp, rec);
  else
    rc = fmt == BSIM_FORMAT_MAT
             ? pd->mat->file(a->tmp, &run)
             : pd->h5->file(a->tmp, &run, bsim_sim_diagram_file(s));
  if (!rec) out_run_release(&run);
  if (rc != 0) errno = EIO;
  return rc;
}

/* Open a pending file for path, fill it with one of the writers. */
static int add_file(pending *pd, const char *path, const bsim_write_options *o,
                    const bsim_sim *s, const out_record *rec, bsim_format fmt,
                    bsim_error *err) {
  if (grow((void **)&pd->files, &pd->cap, pd->nfiles, sizeof(bsim_atomic)) !=
      0) {
    bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
    return -1;
  }
  bsim_atomic *a = &pd->files[pd->nfiles];
  int rc = bsim_atomic_open(a, path, o->keep);
  if (rc != 0) return report_open(rc, path, o->keep, err);
  pd->nfiles++;
  if (fmt != BSIM_FORMAT_CSV && !a->tmp) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "cannot write a %s file to '%s': it is not a regular file "
                   "(hint: name a file, or use --format csv for a stream)",
                   format_name[fmt], path);
    return -1;
  }
  if (fmt != BSIM_FORMAT_CSV)
    rc = library_file(pd, a, fmt, s, rec);
  else if (rec)
    rc = bsim_out_record(a->f, rec->rows, rec->cols, rec->names, rec->data,
                         o->cancel);
  else
    rc = bsim_out_results(s, a->f, o->cancel);
  if (rc == 0 && a->f && bsim_atomic_finish(a) != 0) rc = -1;
  if (rc == -1 && o->cancel && *o->cancel) rc = -2; /* EINTR of the signal */
  return rc == 0 ? 0 : report_write(rc, path, err);
}

static int add_records(pending *pd, const bsim_sim *s,
                       const bsim_write_options *o, bsim_error *err) {
  if (make_dir(pd, o->scopes_dir) != 0) {
    bsim_error_set(err, BSIM_ERR_INPUT, "cannot create folder '%s': %s",
                   o->scopes_dir, strerror(errno));
    return -1;
  }
  out_record rec;
  bsim_format fmt = o->scopes_format;
  for (size_t i = 0;
       (rec.path = bsim_record_at(s, i, &rec.rows, &rec.cols, &rec.data));
       i++) {
    rec.names = bsim_record_names(s, i);
    char *path = bsim_out_record_path(o->scopes_dir, rec.path, extension[fmt]);
    if (!path) {
      bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
      return -1;
    }
    int rc = make_parents(pd, path, strlen(o->scopes_dir));
    if (rc != 0)
      bsim_error_set(err, BSIM_ERR_INPUT,
                     "cannot create the folders of '%s': %s", path,
                     strerror(errno));
    else
      rc = add_file(pd, path, o, s, &rec, fmt, err);
    free(path);
    if (rc != 0) return -1;
  }
  return 0;
}

/* The results to a stream: 0, 1 when its reader went away, -1 on error. */
static int to_stream(const bsim_sim *s, const bsim_write_options *o,
                     bsim_error *err) {
  FILE *out = o->csv_stream;
  int rc = bsim_out_results(s, out, o->cancel);
  if (rc == 0 && fflush(out) != 0) rc = -1;
  if (rc == -1 && o->cancel && *o->cancel) rc = -2; /* EINTR of the signal */
  if (rc == -1 && errno == EPIPE) {
    /* `| head`: the reader has what it wanted; what it did not read is
     * dropped, and nothing more may be written there */
    clearerr(out);
    return 1;
  }
  if (rc == -2) {
    bsim_error_set(err, BSIM_ERR_SIM, "interrupted while writing the results");
    return -1;
  }
  if (rc != 0) {
    bsim_error_set(err, BSIM_ERR_SIM, "cannot write the results: %s",
                   strerror(errno));
    return -1;
  }
  return 0;
}

int bsim_sim_write(const bsim_sim *s, const bsim_write_options *o,
                   bsim_error *err) {
  pending pd = {0};
  int rc = 0;
  if ((unsigned)o->format > BSIM_FORMAT_H5 ||
      (unsigned)o->scopes_format > BSIM_FORMAT_H5) {
    bsim_error_set(err, BSIM_ERR_INPUT, "write: unknown format %d",
                   (unsigned)o->format > BSIM_FORMAT_H5
                       ? (int)o->format
                       : (int)o->scopes_format);
    return -1;
  }
  if (o->format != BSIM_FORMAT_CSV && !o->csv_path && o->csv_stream) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "a %s file needs a path, not a stream (hint: -o FILE)",
                   format_name[o->format]);
    return -1;
  }
  /* a missing module is known before anything is written */
  int mat = (o->csv_path && o->format == BSIM_FORMAT_MAT) ||
            (o->scopes_dir && o->scopes_format == BSIM_FORMAT_MAT);
  int h5 = (o->csv_path && o->format == BSIM_FORMAT_H5) ||
           (o->scopes_dir && o->scopes_format == BSIM_FORMAT_H5);
  if ((mat && !(pd.mat = out_mat(err))) || (h5 && !(pd.h5 = out_h5(err))))
    return -1;
  if (o->scopes_dir) rc = add_records(&pd, s, o, err);
  if (rc == 0 && o->csv_path)
    rc = add_file(&pd, o->csv_path, o, s, NULL, o->format, err);
  if (rc == 0 && !o->csv_path && o->csv_stream) rc = to_stream(s, o, err);
  if (rc >= 0 && o->cancel && *o->cancel) {
    bsim_error_set(err, BSIM_ERR_SIM,
                   "interrupted before the results were written");
    rc = -1;
  }
  if (rc < 0) {
    rollback(&pd);
    release(&pd);
    return -1;
  }
  for (int i = 0; i < pd.nfiles; i++) {
    char *target = strdup(pd.files[i].target);
    if (target && bsim_atomic_commit(&pd.files[i]) == 0) {
      free(target);
      continue;
    }
    /* files renamed before stay: each is complete */
    bsim_error_set(err, BSIM_ERR_SIM, "cannot rename a temporary over '%s': %s",
                   target ? target : "a result file", strerror(errno));
    free(target);
    for (int j = i; j < pd.nfiles; j++)
      bsim_atomic_discard(&pd.files[j]);
    release(&pd);
    return -1;
  }
  release(&pd);
  return rc;
}
