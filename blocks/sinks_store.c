/*
 * The sinks that store what they receive instead of drawing it: TOWS_c
 * (to a Scilab workspace variable), WRITEC_f (to a binary file) and
 * WRITEAU_f (to the audio device). Headless, TOWS_c's record is the buffer
 * Scilab would leave in the workspace, WRITEC_f writes the file Scilab
 * writes and records its input, and WRITEAU_f only records its input
 * (docs/blocks.md, "Sinks that store").
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blocks/std.h"

/* A string parameter's characters appended to ipar, as Xcos stores
 * names: one character code per entry. */
static void put_chars(int *ip, const char *s) {
  for (; *s; s++)
    *ip++ = (unsigned char)*s;
}

/* ----------------------------------------------------------------- TOWS_c */

static const bsim_param_spec tows_params[] = {
    {"buffer-size", BSIM_PARAM_REAL, "128",
     "number of samples kept (the last ones, >= 1)"},
    {"variable", BSIM_PARAM_STRING, "A",
     "name of the Scilab variable (a valid name of at most 19 characters)"},
    {"heritance", BSIM_PARAM_REAL, "0",
     "0: one event input activates the block; 1: no event input, it "
     "samples whenever the blocks feeding it are activated"},
};

/* Scilab's validvar: a letter, %, _, #, !, $ or ? first, then also
 * digits. */
static int valid_name(const char *s) {
  if (!*s || strlen(s) > 19) return 0;
  for (const char *p = s; *p; p++) {
    int c = (unsigned char)*p;
    int letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                 strchr("%_#!$?", c) != NULL;
    if (!letter && !(p > s && c >= '0' && c <= '9')) return 0;
  }
  return 1;
}

static int tows_define(bsim_define_ctx *ctx, bsim_model *m) {
  int nz, herit;
  const char *name = bsim_param(ctx, "variable")->str;
  if (bsim_std_int(ctx, "buffer-size", 1, &nz) != 0 ||
      bsim_std_switch(ctx, "heritance", &herit) != 0)
    return -1;
  if (!name || !valid_name(name))
    return bsim_define_error(ctx,
                             "'variable' (\"%s\") is not a valid Scilab "
                             "name of at most 19 characters",
                             name ? name : "");
  int len = (int)strlen(name);
  int *ip = bsim_model_alloc_ipar(m, 2 + len);
  if (!ip || bsim_model_set_inputs(m, 1, -1, -2, 0) != 0 ||
      bsim_model_set_events(m, 1 - herit, 0) != 0)
    return bsim_define_error(ctx, "out of memory");
  ip[0] = nz;
  ip[1] = len;
  put_chars(ip + 2, name);
  return 0;
}

/* The last nz samples in a ring: sample k (0 = oldest) is at
 * (first + k) % nz. */
typedef struct tows_work {
  int n, nz, count, first;
  double *t, *v; /* nz times, nz x n values */
} tows_work;

/* Write the buffer out as the record, oldest sample first: what the
 * workspace variable holds (its time and values fields) at the end. */
static void tows_flush(bsim_block *blk, tows_work *w) {
  for (int k = 0; k < w->count; k++) {
    int at = (w->first + k) % w->nz;
    if (bsim_block_record_at(blk, w->t[at], w->v + (size_t)at * w->n, w->n))
      return;
  }
}

static void tows_fn(bsim_block *blk, int flag) {
  /* a file's stored model may lack a port */
  if (bsim_std_lacks_ports(blk, flag, 1, 0)) return;
  tows_work *w = (tows_work *)*blk->work;
  switch (flag) {
  case BSIM_FLAG_INIT: {
    int n = bsim_std_insize(blk, 0), nz = blk->nipar ? blk->ipar[0] : 0;
    free(w);
    w = calloc(1, sizeof *w);
    *blk->work = w;
    if (w) {
      w->n = n, w->nz = nz;
      w->t = malloc(sizeof(double) * (size_t)(nz > 0 ? nz : 1));
      w->v = malloc(sizeof(double) * (size_t)(nz > 0 ? nz : 1) *
                    (size_t)(n > 0 ? n : 1));
    }
    if (!w || !w->t || !w->v || nz < 1) {
      bsim_block_error(blk, "out of memory for its buffer of %d samples", nz);
      return;
    }
    bsim_block_record_names(blk, NULL);
    break;
  }
  case BSIM_FLAG_UPDATE: {
    /* at every update, time-only calls included, as Xcos's tows_c */
    if (!w) return;
    int last = (w->first + w->count - 1) % w->nz, at;
    if (w->count > 0 && w->t[last] == blk->t) {
      at = last; /* one sample per time: a later call overwrites */
    } else if (w->count < w->nz) {
      at = (w->first + w->count++) % w->nz;
    } else {
      at = w->first; /* full: the oldest goes */
      w->first = (w->first + 1) % w->nz;
    }
    w->t[at] = blk->t;
    memcpy(w->v + (size_t)at * w->n, blk->inptr[0],
           sizeof(double) * (size_t)w->n);
    break;
  }
  case BSIM_FLAG_END:
    if (w) {
      tows_flush(blk, w);
      free(w->t);
      free(w->v);
    }
    free(w);
    *blk->work = NULL;
    break;
  default:
    break;
  }
}

static const bsim_block_type type_TOWS_c = {
    "TOWS_c",
    "tows_c",
    "To workspace: keeps the last samples of its input.",
    "At each activation the block samples its input (any size), keeping\n"
    "one sample per time (a second activation at the same time replaces\n"
    "the first) and the last 'buffer-size' samples. Scilab leaves them in\n"
    "the workspace variable 'variable' (fields time and values); blocksim\n"
    "writes them, oldest first, as the block's record when the run ends:\n"
    "the time, then the input's elements, column-major.\n"
    "Run-time layout: ipar = [buffer-size; length of the name; its\n"
    "character codes], in = -1, in2 = -2, dep_u = 0,\n"
    "nevin = 1 - heritance.",
    tows_params,
    3,
    tows_define,
    tows_fn,
    0,
    "buffer-size,variable,heritance"};

/* --------------------------------------------------------------- WRITEC_f */

static const bsim_param_spec writec_params[] = {
    {"in", BSIM_PARAM_REAL, "1", "size of the input (>= 1)"},
    {"file", BSIM_PARAM_STRING, "foo",
     "output file; a leading TMPDIR/, HOME/ or ~/ is expanded"},
    {"format", BSIM_PARAM_STRING, "c",
     "binary format of each value: [u]d|f|l|s|c then l|b for little or big "
     "endian (d double, f float, l 64-bit, s 16-bit, c 8-bit integer; u "
     "unsigned)"},
    {"buffer-size", BSIM_PARAM_REAL, "2",
     "samples buffered before a write (>= 1)"},
    {"swap", BSIM_PARAM_REAL, "0",
     "1: swap the bytes when the format names no endianness"},
};

/* The formats WRITEC_f's dialog offers, less "uls", "ubl" and "ubs",
 * which it offers but Scilab's writer refuses at run time. */
static const char *const formats[] = {"s",  "l",  "d",   "f",  "c",  "us",
                                      "ul", "uc", "ull", "dl", "fl", "ll",
                                      "sl", "db", "fb",  "lb", "sb"};

/* Size in bytes of a format's values, 0 for an unknown format. */
static int format_size(const char *f) {
  for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
    if (strcmp(f, formats[i]) == 0) {
      const char *t = f[0] == 'u' ? f + 1 : f;
      return t[0] == 'd' || t[0] == 'l' ? 8
             : t[0] == 'f'              ? 4
             : t[0] == 's'              ? 2
                                        : 1;
    }
  return 0;
}

/* Scilab's path aliases at the start of a file name. The result is
 * malloc'd; NULL (after reporting) on a bad name. */
static char *expand_path(bsim_define_ctx *ctx, const char *name) {
  while (*name == ' ' || *name == '\t')
    name++;
  size_t len = strlen(name);
  while (len && (name[len - 1] == ' ' || name[len - 1] == '\t'))
    len--;
  if (len == 0) {
    bsim_define_error(ctx, "'file' is empty: give the output file's name");
    return NULL;
  }
  const char *home = getenv("HOME"), *tmp = getenv("TMPDIR");
  const char *base = NULL;
  size_t skip = 0;
  if (strncmp(name, "TMPDIR", 6) == 0 && (len == 6 || name[6] == '/'))
    base = tmp && *tmp ? tmp : "/tmp", skip = 6;
  else if (strncmp(name, "HOME", 4) == 0 && (len == 4 || name[4] == '/'))
    base = home, skip = 4;
  else if (name[0] == '~' && (len == 1 || name[1] == '/'))
    base = home, skip = 1;
  if (skip && !base) {
    bsim_define_error(ctx, "'file' starts with a home folder alias, but HOME "
                           "is not set");
    return NULL;
  }
  size_t blen = base ? strlen(base) : 0;
  char *out = malloc(blen + len - skip + 1);
  if (!out) {
    bsim_define_error(ctx, "out of memory");
    return NULL;
  }
  memcpy(out, base ? base : "", blen);
  memcpy(out + blen, name + skip, len - skip);
  out[blen + len - skip] = '\0';
  return out;
}

/* Xcos refuses a file whose folder does not exist. */
static int check_folder(bsim_define_ctx *ctx, const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash || slash == path) return 0;
  size_t n = (size_t)(slash - path);
  char *dir = malloc(n + 1);
  if (!dir) return bsim_define_error(ctx, "out of memory");
  memcpy(dir, path, n);
  dir[n] = '\0';
  struct stat st;
  int ok = stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
  int rc = ok ? 0
              : bsim_define_error(ctx,
                                  "'file': folder '%s' does not exist "
                                  "(hint: create it, or name another file)",
                                  dir);
  free(dir);
  return rc;
}

static int writec_define(bsim_define_ctx *ctx, bsim_model *m) {
  int nin, n, swap;
  const char *fmt = bsim_param(ctx, "format")->str;
  if (bsim_std_int(ctx, "in", 1, &nin) != 0 ||
      bsim_std_int(ctx, "buffer-size", 1, &n) != 0 ||
      bsim_std_switch(ctx, "swap", &swap) != 0)
    return -1;
  /* Xcos strips the blanks around the format and checks it in full */
  char f[4] = "";
  size_t lead = fmt ? strspn(fmt, " \t") : 0, end = fmt ? strlen(fmt) : 0;
  while (end > lead && (fmt[end - 1] == ' ' || fmt[end - 1] == '\t'))
    end--;
  if (fmt && end - lead <= 3) memcpy(f, fmt + lead, end - lead);
  if (!format_size(f))
    return bsim_define_error(ctx,
                             "'format' \"%s\" is not one of s, l, d, f, c, "
                             "us, ul, uc, ull, dl, fl, ll, sl, db, fb, lb, sb",
                             fmt ? fmt : "");
  int nz;
  if (bsim_std_elems(ctx, "the buffer", (long)nin + 1, n, &nz) != 0) return -1;
  char *path = expand_path(ctx, bsim_param(ctx, "file")->str);
  if (!path || check_folder(ctx, path) != 0) {
    free(path);
    return -1;
  }
  int len = (int)strlen(path);
  int *ip = bsim_model_alloc_ipar(m, 6 + len);
  double *z = bsim_model_alloc_z0(m, 2 + nz);
  if (!ip || !z || bsim_model_set_inputs(m, 1, nin, 1, 1) != 0 ||
      bsim_model_set_events(m, 1, 0) != 0) {
    free(path);
    return bsim_define_error(ctx, "out of memory");
  }
  ip[0] = len;
  for (int k = 0; k < 3; k++) /* padded with blanks, as Scilab's part() */
    ip[1 + k] = f[k] ? (unsigned char)f[k] : ' ';
  ip[4] = n;
  ip[5] = swap;
  put_chars(ip + 6, path);
  z[0] = -1;
  free(path);
  return 0;
}

/* The file being written: a temporary beside the target, renamed over
 * it when the run ends, so that a reader never sees half a file. */
typedef struct writec_work {
  FILE *f;
  int size, is_int, swap; /* per value */
  char *tmp, *target;
} writec_work;

/* The format stored in ipar(2:4), blanks dropped; "" if ipar is short. */
static void ipar_format(const bsim_block *blk, char *f) {
  f[0] = '\0';
  if (blk->nipar < 6) return;
  for (int k = 0; k < 3; k++)
    f[k] = blk->ipar[1 + k] == ' ' ? '\0' : (char)blk->ipar[1 + k];
  f[3] = '\0';
}

static int host_little_endian(void) {
  const uint16_t one = 1;
  return *(const unsigned char *)&one == 1;
}

/* One value as the format says: floats as they are, integers truncated
 * toward zero and wrapped to the width (NaN as 0, beyond 64 bits
 * saturated), as Scilab's writer converts them. */
static void put_value(writec_work *w, double v) {
  unsigned char b[8];
  if (!w->is_int) {
    if (w->size == 8)
      memcpy(b, &v, 8);
    else {
      float x = (float)v;
      memcpy(b, &x, 4);
    }
  } else {
    int64_t i = isnan(v)                      ? 0
                : v >= 9223372036854775807.0  ? INT64_MAX
                : v <= -9223372036854775808.0 ? INT64_MIN
                                              : (int64_t)v;
    uint64_t u = (uint64_t)i;
    for (int k = 0; k < w->size; k++) /* little endian first */
      b[k] = (unsigned char)(u >> (8 * k));
    if (!host_little_endian())
      for (int k = 0; k < w->size / 2; k++) {
        unsigned char t = b[k];
        b[k] = b[w->size - 1 - k], b[w->size - 1 - k] = t;
      }
  }
  if (w->swap)
    for (int k = 0; k < w->size / 2; k++) {
      unsigned char t = b[k];
      b[k] = b[w->size - 1 - k], b[w->size - 1 - k] = t;
    }
  fwrite(b, 1, (size_t)w->size, w->f);
}

static void writec_free(writec_work *w) {
  if (!w) return;
  if (w->f) fclose(w->f);
  if (w->tmp) unlink(w->tmp);
  free(w->tmp);
  free(w->target);
  free(w);
}

static writec_work *writec_open(bsim_block *blk) {
  const int *ip = blk->ipar;
  int len = ip[0];
  writec_work *w = calloc(1, sizeof *w);
  if (!w) return NULL;
  char f[4];
  ipar_format(blk, f);
  const char *t = f[0] == 'u' ? f + 1 : f;
  w->size = format_size(f);
  w->is_int = t[0] != 'd' && t[0] != 'f';
  char endian = t[1]; /* 'l', 'b' or none */
  int want_little = endian ? endian == 'l' : host_little_endian() != ip[5];
  w->swap = want_little != host_little_endian();
  w->target = malloc((size_t)len + 1);
  w->tmp = malloc((size_t)len + 16);
  if (!w->target || !w->tmp) {
    writec_free(w);
    return NULL;
  }
  for (int k = 0; k < len; k++)
    w->target[k] = (char)ip[6 + k];
  w->target[len] = '\0';
  snprintf(w->tmp, (size_t)len + 16, "%s.tmp-XXXXXX", w->target);
  int fd = mkstemp(w->tmp);
  if (fd < 0 || !(w->f = fdopen(fd, "wb"))) {
    bsim_block_error(blk, "cannot write '%s': %s (hint: check the folder)",
                     w->target, strerror(errno));
    if (fd >= 0) close(fd);
    free(w->tmp);
    w->tmp = NULL;
    writec_free(w);
    return NULL;
  }
  return w;
}

static void writec_fn(bsim_block *blk, int flag) {
  writec_work *w = (writec_work *)*blk->work;
  switch (flag) {
  case BSIM_FLAG_INIT:
    writec_free(w);
    *blk->work = NULL;
    char f[4];
    ipar_format(blk, f);
    if (!format_size(f) || blk->ipar[0] < 1 || blk->nipar < 6 + blk->ipar[0]) {
      bsim_block_error(blk, "its ipar is not WRITEC_f's layout");
      return;
    }
    *blk->work = w = writec_open(blk);
    if (w) bsim_block_record_names(blk, NULL);
    break;
  case BSIM_FLAG_UPDATE:
    /* Xcos's writec writes at its activations only, not when called for
     * time alone (nevprt 0); the record has a row at every update, as
     * Xcos's recorder */
    if (!w) return;
    for (int k = 0; blk->nevprt > 0 && k < bsim_std_insize(blk, 0); k++)
      put_value(w, blk->inptr[0][k]);
    bsim_block_record_inputs(blk);
    break;
  case BSIM_FLAG_END:
    if (w) {
      int bad = ferror(w->f);
      bad |= fclose(w->f) != 0;
      w->f = NULL;
      if (bad || rename(w->tmp, w->target) != 0)
        bsim_block_error(blk, "cannot write '%s': %s", w->target,
                         strerror(errno));
      else {
        free(w->tmp);
        w->tmp = NULL;
      }
    }
    writec_free(w);
    *blk->work = NULL;
    break;
  default:
    break;
  }
}

static const bsim_block_type type_WRITEC_f = {
    "WRITEC_f",
    "writec",
    "Write to a binary file: the input's values at each activation.",
    "At each activation the 'in' values of the input are written to 'file'\n"
    "in 'format', as Scilab writes them: no header, no time, one sample\n"
    "after another. Integer formats truncate toward zero and wrap to their\n"
    "width (300 as c is 44); 'l' is 64 bits, as Scilab on 64-bit Linux\n"
    "writes it. The file is written beside its target under a temporary\n"
    "name and renamed when the run ends (also after a failure, with the\n"
    "samples up to it). The block also records its input, one row per\n"
    "activation.\n"
    "Run-time layout: ipar = [length of the file name; the format's 3\n"
    "character codes (blank-padded); buffer-size; swap; the file name's\n"
    "character codes (after expansion)], z0 = [-1; 0; zeros((in + 1)\n"
    "buffer-size)], in = in, in2 = 1, dep_u = 1, nevin = 1.",
    writec_params,
    5,
    writec_define,
    writec_fn,
    0,
    "in,file,format,buffer-size,swap"};

/* -------------------------------------------------------------- WRITEAU_f */

static const bsim_param_spec writeau_params[] = {
    BSIM_SINK_SETTING("buffer-size", "2",
                      "samples buffered before a write (>= 1)"),
    BSIM_SINK_SETTING("swap", "0", "1: swap the bytes of each sample"),
};

static int writeau_define(bsim_define_ctx *ctx, bsim_model *m) {
  static const char device[] = "/dev/audio";
  int n, swap, len = (int)sizeof device - 1;
  if (bsim_std_int(ctx, "buffer-size", 1, &n) != 0 ||
      bsim_std_switch(ctx, "swap", &swap) != 0)
    return -1;
  int *ip = bsim_model_alloc_ipar(m, 6 + len);
  double *z = bsim_model_alloc_z0(m, 2 + 2 * n);
  if (!ip || !z || n > 100000000 || bsim_model_set_inputs(m, 1, 1, 1, 1) != 0 ||
      bsim_model_set_events(m, 1, 0) != 0)
    return bsim_define_error(ctx, "out of memory");
  ip[0] = len;
  put_chars(ip + 1, "uc ");
  ip[4] = n;
  ip[5] = swap;
  put_chars(ip + 6, device);
  z[0] = -1;
  return 0;
}

static const bsim_block_type type_WRITEAU_f = {
    "WRITEAU_f",
    "writeau",
    "Write to the audio device: recorded only.",
    "Xcos plays its input on /dev/audio (8-bit mu-law). blocksim has no\n"
    "audio output and writes no sound: the block records its input, one\n"
    "row per activation (the time, then the value), as Scilab's recorder\n"
    "does.\n"
    "Run-time layout: ipar = [10; the codes of \"uc \"; buffer-size; swap;\n"
    "the codes of \"/dev/audio\"], z0 = [-1; 0; zeros(2 buffer-size)],\n"
    "in = 1, in2 = 1, dep_u = 1, nevin = 1.",
    writeau_params,
    2,
    writeau_define,
    bsim_std_record_fn,
    0,
    "buffer-size,swap"};

const bsim_block_type *const bsim_sink_store_types[] = {
    &type_TOWS_c, &type_WRITEC_f, &type_WRITEAU_f};
const int bsim_sink_store_ntypes =
    (int)(sizeof bsim_sink_store_types / sizeof bsim_sink_store_types[0]);
