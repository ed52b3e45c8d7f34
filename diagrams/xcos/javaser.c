/*
 * Decoder of dictionary/dictionary.ser, the Java object serialization
 * stream in which Scilab 5.5 and 6.x .zcos files keep block data: one
 * ScilabList whose items content.xml refers to by position. The stream
 * format (java.io.ObjectOutputStream, protocol 2) is decoded in two steps:
 * a generic, bounds-checked parse into a graph of Java objects (class
 * descriptors, objects with their field values and block-data annotations,
 * arrays, strings; back-references resolved through the handle table), then
 * an interpretation of exactly the Scilab types Xcos writes (ScilabDouble,
 * ScilabString, ScilabInteger, ScilabBoolean, ScilabList / TList / MList,
 * in their Externalizable form or as plain serialized ArrayLists) into the
 * sciv tree. Anything else is reported, never guessed.
 *
 * Every count read from the file is checked against the bytes left before
 * anything is allocated, recursion is bounded, and the copy into sciv
 * counts elements, so that a crafted file of shared references cannot blow
 * up memory or time.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/xcos/javaser.h"

static int fail(jreader *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int fail(jreader *r, const char *fmt, ...) {
  if (r->msg[0]) return -1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r->msg, r->msglen, fmt, ap);
  va_end(ap);
  return -1;
}

/* Everything the parse allocates is released at once at the end. */
static void *jalloc(jreader *r, size_t n) {
  if (r->nallocs == r->capallocs) {
    size_t nc = r->capallocs ? 2 * r->capallocs : 256;
    void **g = realloc(r->allocs, nc * sizeof *g);
    if (!g) return NULL;
    r->allocs = g;
    r->capallocs = nc;
  }
  void *p = calloc(1, n ? n : 1);
  if (p) r->allocs[r->nallocs++] = p;
  return p;
}

static size_t left(const jreader *r) {
  return (size_t)(r->end - r->p);
}

static int get_bytes(jreader *r, size_t n, const unsigned char **out) {
  if (left(r) < n)
    return fail(r, "truncated at byte %ld (the data ends there)",
                (long)(r->p - r->start));
  *out = r->p;
  r->p += n;
  return 0;
}

static int get_u(jreader *r, int n, uint64_t *out) {
  const unsigned char *b = NULL;
  if (get_bytes(r, (size_t)n, &b)) return -1;
  uint64_t v = 0;
  for (int i = 0; i < n; i++)
    v = v << 8 | b[i];
  *out = v;
  return 0;
}

static int new_handle(jreader *r, jobj *o) {
  if (r->nhandles == r->caphandles) {
    int nc = r->caphandles ? 2 * r->caphandles : 256;
    jobj **g = realloc(r->handles, (size_t)nc * sizeof *g);
    if (!g) return fail(r, "out of memory");
    r->handles = g;
    r->caphandles = nc;
  }
  r->handles[r->nhandles++] = o;
  return 0;
}

/* A modified-UTF-8 string of n bytes, NUL-terminated. */
static char *get_text(jreader *r, uint64_t n) {
  const unsigned char *b = NULL;
  if (n > left(r) || get_bytes(r, (size_t)n, &b)) {
    fail(r, "a string runs past the end of the data");
    return NULL;
  }
  char *s = jalloc(r, (size_t)n + 1);
  if (!s) {
    fail(r, "out of memory");
    return NULL;
  }
  memcpy(s, b, (size_t)n);
  return s;
}

static int read_content(jreader *r, jobj **out);

static int read_reference(jreader *r, jobj **out) {
  uint64_t h;
  if (get_u(r, 4, &h)) return -1;
  if (h < 0x7E0000 || h - 0x7E0000 >= (uint64_t)r->nhandles)
    return fail(r, "back-reference to handle 0x%llx, which does not exist",
                (unsigned long long)h);
  *out = r->handles[h - 0x7E0000];
  return 0;
}

static int read_classdesc(jreader *r, jobj **out) {
  uint64_t tc, len, n;
  if (get_u(r, 1, &tc)) return -1;
  if (tc == TC_NULL) {
    *out = NULL;
    return 0;
  }
  if (tc == TC_REFERENCE) {
    if (read_reference(r, out)) return -1;
    if (*out && (*out)->kind != J_CLASS)
      return fail(r, "a class reference names something else");
    return 0;
  }
  if (tc != TC_CLASSDESC)
    return fail(r, "expected a class descriptor, found byte 0x%02x",
                (unsigned)tc);
  jobj *c = jalloc(r, sizeof *c);
  const unsigned char *uid;
  if (!c) return fail(r, "out of memory");
  c->kind = J_CLASS;
  if (get_u(r, 2, &len) || !(c->name = get_text(r, len)) ||
      get_bytes(r, 8, &uid) || new_handle(r, c) || get_u(r, 1, &tc) ||
      get_u(r, 2, &n))
    return -1;
  c->flags = (unsigned)tc;
  if (n > left(r) / 3) return fail(r, "class %s: bad field count", c->name);
  c->nfields = (int)n;
  c->fields = jalloc(r, (size_t)n * sizeof *c->fields);
  if (!c->fields) return fail(r, "out of memory");
  for (int i = 0; i < c->nfields; i++) {
    jfield *f = &c->fields[i];
    uint64_t t;
    if (get_u(r, 1, &t) || get_u(r, 2, &len) || !(f->name = get_text(r, len)))
      return -1;
    f->type = (char)t;
    if (!strchr("BCDFIJSZL[", f->type))
      return fail(r, "class %s: unknown field type '%c'", c->name, f->type);
    if (f->type == 'L' || f->type == '[') {
      jobj *cn;
      if (read_content(r, &cn)) return -1; /* the field's class name */
    }
  }
  for (;;) { /* class annotation: skipped up to its end marker */
    if (left(r) && *r->p == TC_ENDBLOCKDATA) {
      r->p++;
      break;
    }
    jobj *ignored;
    if (read_content(r, &ignored)) return -1;
  }
  if (read_classdesc(r, &c->super)) return -1;
  *out = c;
  return 0;
}

static int prim_size(char t) {
  switch (t) {
  case 'B':
  case 'Z':
    return 1;
  case 'C':
  case 'S':
    return 2;
  case 'I':
  case 'F':
    return 4;
  default:
    return 8;
  }
}

static int read_prim(jreader *r, char t, double *out) {
  uint64_t u;
  if (get_u(r, prim_size(t), &u)) return -1;
  switch (t) {
  case 'B':
    *out = (double)(int8_t)u;
    break;
  case 'S':
    *out = (double)(int16_t)u;
    break;
  case 'I':
    *out = (double)(int32_t)u;
    break;
  case 'J':
    *out = (double)(int64_t)u;
    break;
  case 'D': {
    double d;
    memcpy(&d, &u, sizeof d);
    *out = d;
    break;
  }
  case 'F': {
    uint32_t w = (uint32_t)u;
    float f;
    memcpy(&f, &w, sizeof f);
    *out = f;
    break;
  }
  default: /* C, Z */
    *out = (double)u;
  }
  return 0;
}

/* Contents up to TC_ENDBLOCKDATA: block data and objects, as segments. */
static int read_annotation(jreader *r, jobj *o) {
  for (;;) {
    uint64_t n;
    if (!left(r)) return fail(r, "truncated inside an object's data");
    if (*r->p == TC_ENDBLOCKDATA) {
      r->p++;
      return 0;
    }
    jseg s = {0};
    if (*r->p == TC_BLOCKDATA || *r->p == TC_BLOCKDATALONG) {
      int wide = *r->p == TC_BLOCKDATALONG;
      r->p++;
      if (get_u(r, wide ? 4 : 1, &n) || get_bytes(r, (size_t)n, &s.bytes))
        return fail(r, "block data runs past the end");
      s.nbytes = (size_t)n;
    } else {
      s.is_obj = 1;
      if (read_content(r, &s.obj)) return -1;
    }
    if (o->nsegs % 16 == 0) {
      jseg *g = jalloc(r, (size_t)(o->nsegs + 16) * sizeof *g);
      if (!g) return fail(r, "out of memory");
      if (o->nsegs) memcpy(g, o->segs, (size_t)o->nsegs * sizeof *g);
      o->segs = g;
    }
    o->segs[o->nsegs++] = s;
  }
}

static int read_object(jreader *r, jobj **out) {
  jobj *o = jalloc(r, sizeof *o);
  if (!o) return fail(r, "out of memory");
  o->kind = J_OBJECT;
  if (read_classdesc(r, &o->cls)) return -1;
  if (!o->cls) return fail(r, "an object without a class");
  if (new_handle(r, o)) return -1;
  *out = o;
  if (o->cls->flags & SC_EXTERNALIZABLE) {
    if (!(o->cls->flags & SC_BLOCK_DATA))
      return fail(r,
                  "class %s: old external format (protocol 1) is not "
                  "supported",
                  o->cls->name);
    return read_annotation(r, o);
  }
  /* Serializable: each class's fields, top-most superclass first. */
  jobj *chain[64];
  int depth = 0;
  for (jobj *c = o->cls; c; c = c->super) {
    if (depth == 64) return fail(r, "class hierarchy too deep");
    chain[depth++] = c;
  }
  int total = 0;
  for (int i = 0; i < depth; i++)
    total += chain[i]->nfields;
  o->values = jalloc(r, (size_t)total * sizeof *o->values);
  if (!o->values) return fail(r, "out of memory");
  for (int i = depth - 1; i >= 0; i--) {
    const jobj *c = chain[i];
    for (int k = 0; k < c->nfields; k++) {
      jfield *v = &o->values[o->nvalues++];
      *v = c->fields[k];
      if (v->type == 'L' || v->type == '[') {
        if (read_content(r, &v->obj)) return -1;
      } else if (read_prim(r, v->type, &v->num)) {
        return -1;
      }
    }
    if ((c->flags & SC_WRITE_METHOD) && read_annotation(r, o)) return -1;
  }
  return 0;
}

static int read_array(jreader *r, jobj **out) {
  jobj *a = jalloc(r, sizeof *a);
  uint64_t n;
  if (!a) return fail(r, "out of memory");
  a->kind = J_ARRAY;
  if (read_classdesc(r, &a->cls)) return -1;
  if (!a->cls || a->cls->name[0] != '[' || !a->cls->name[1])
    return fail(r, "an array of unknown type");
  if (new_handle(r, a) || get_u(r, 4, &n)) return -1;
  a->elem = a->cls->name[1];
  *out = a;
  int obj = a->elem == 'L' || a->elem == '[';
  if (n > 0x7fffffff || n > left(r) / (obj ? 1 : (size_t)prim_size(a->elem)))
    return fail(r, "an array of %llu elements is longer than the data",
                (unsigned long long)n);
  a->length = (int32_t)n;
  if (obj) {
    if (!(a->objs = jalloc(r, (size_t)n * sizeof *a->objs)))
      return fail(r, "out of memory");
    for (int32_t i = 0; i < a->length; i++)
      if (read_content(r, &a->objs[i])) return -1;
  } else {
    if (!strchr("BCDFIJSZ", a->elem))
      return fail(r, "array element type '%c'", a->elem);
    if (!(a->nums = jalloc(r, (size_t)n * sizeof *a->nums)))
      return fail(r, "out of memory");
    for (int32_t i = 0; i < a->length; i++)
      if (read_prim(r, a->elem, &a->nums[i])) return -1;
  }
  return 0;
}

static int read_content(jreader *r, jobj **out) {
  uint64_t tc, len;
  *out = NULL;
  if (r->depth >= MAX_DEPTH) return fail(r, "objects nested too deeply");
  if (!left(r)) return fail(r, "truncated");
  tc = *r->p;
  int rc = 0;
  r->depth++;
  switch (tc) {
  case TC_NULL:
    r->p++;
    break;
  case TC_REFERENCE:
    r->p++;
    rc = read_reference(r, out);
    break;
  case TC_OBJECT:
    r->p++;
    rc = read_object(r, out);
    break;
  case TC_ARRAY:
    r->p++;
    rc = read_array(r, out);
    break;
  case TC_STRING:
  case TC_LONGSTRING: {
    r->p++;
    jobj *s = jalloc(r, sizeof *s);
    if (!s) {
      rc = fail(r, "out of memory");
      break;
    }
    s->kind = J_STRING;
    rc = new_handle(r, s);
    if (!rc) rc = get_u(r, tc == TC_STRING ? 2 : 8, &len);
    if (!rc && !(s->name = get_text(r, len))) rc = -1;
    *out = s;
    break;
  }
  case TC_CLASSDESC:
    rc = read_classdesc(r, out);
    break;
  case TC_RESET:
    r->p++;
    r->nhandles = 0;
    rc = read_content(r, out);
    break;
  default:
    rc = fail(r, "unexpected byte 0x%02x", (unsigned)tc);
  }
  r->depth--;
  return rc;
}

int jreader_parse(jreader *r, const unsigned char *buf, size_t len,
                  jobj **top) {
  r->start = r->p = buf;
  r->end = buf + len;
  uint64_t magic, version;
  if (get_u(r, 2, &magic) || get_u(r, 2, &version) || magic != 0xACED ||
      version != 5)
    return fail(r, "not a Java serialization stream (bad magic number)");
  if (read_content(r, top)) return -1;
  if (!*top) return fail(r, "the stream holds no object");
  return 0;
}

void jreader_done(jreader *r) {
  for (size_t i = 0; i < r->nallocs; i++)
    free(r->allocs[i]);
  free(r->allocs);
  free(r->handles);
  r->allocs = NULL;
  r->handles = NULL;
  r->nallocs = r->capallocs = 0;
  r->nhandles = r->caphandles = 0;
}
