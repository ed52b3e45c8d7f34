/*
 * The Scilab half of the dictionary decoder: the Java objects javaser.c
 * parsed are read as the org.scilab.modules.types classes Xcos serializes.
 * Each of them writes itself (Externalizable) as an int version 0, then:
 *   ScilabDouble   real part double[][], imaginary part double[][],
 *                  variable name, boolean "swapped"
 *   ScilabString   String[][], variable name, swapped
 *   ScilabInteger  int precision code, byte/short/int/long[][] by
 *                  precision, variable name, swapped
 *   ScilabBoolean  boolean[][], variable name, swapped
 *   ScilabList, ScilabTList, ScilabMList
 *                  int size, that many objects, variable name
 * where a [][] matrix is an array of rows (of columns when swapped). Lists
 * stored as plain serialized ArrayLists (capacity, then the items) are read
 * too. The copy into sciv is bounded by an element budget, since shared
 * references could otherwise make a small file expand without limit.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/xcos/javaser.h"
#include "diagrams/xcos/xcos_int.h"

typedef struct conv {
  long budget;
  char *msg;
  size_t msglen;
} conv;

static sciv *cfail(conv *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static sciv *cfail(conv *c, const char *fmt, ...) {
  if (!c->msg[0]) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->msg, c->msglen, fmt, ap);
    va_end(ap);
  }
  return NULL;
}

/* Reading an Externalizable object's data: bytes may span block-data
 * segments; an object must start at a segment boundary. */
typedef struct jcur {
  const jobj *o;
  int seg;
  size_t off;
} jcur;

static int cur_bytes(jcur *k, size_t n, unsigned char *out) {
  while (n > 0) {
    if (k->seg >= k->o->nsegs || k->o->segs[k->seg].is_obj) return -1;
    const jseg *s = &k->o->segs[k->seg];
    size_t take = s->nbytes - k->off < n ? s->nbytes - k->off : n;
    memcpy(out, s->bytes + k->off, take);
    out += take;
    n -= take;
    k->off += take;
    if (k->off == s->nbytes) {
      k->seg++;
      k->off = 0;
    }
  }
  return 0;
}

static int cur_int(jcur *k, int *out) {
  unsigned char b[4];
  if (cur_bytes(k, 4, b)) return -1;
  *out = (int)((unsigned)b[0] << 24 | (unsigned)b[1] << 16 |
               (unsigned)b[2] << 8 | b[3]);
  return 0;
}

static int cur_obj(jcur *k, const jobj **out) {
  while (k->seg < k->o->nsegs && !k->o->segs[k->seg].is_obj &&
         k->off == k->o->segs[k->seg].nbytes) {
    k->seg++;
    k->off = 0;
  }
  if (k->seg >= k->o->nsegs || !k->o->segs[k->seg].is_obj || k->off) return -1;
  *out = k->o->segs[k->seg++].obj;
  return 0;
}

static const char *short_name(const jobj *o) {
  const char *n = o->cls->name, *dot = strrchr(n, '.');
  return dot ? dot + 1 : n;
}

static int spend(conv *c, long n) {
  c->budget -= n;
  return c->budget < 0 ? -1 : 0;
}

/* A [][] array as a matrix: the outer array lists rows (columns when
 * swapped); elem is the inner arrays' element type ('L' for strings). */
static sciv *matrix(conv *c, const jobj *a, sciv_kind kind, char elem,
                    int swapped, int uns_bits) {
  sciv *v = sciv_new(kind);
  if (!v) return cfail(c, "out of memory");
  int outer = a ? a->length : 0, inner = -1;
  for (int i = 0; i < outer; i++) {
    const jobj *row = a->objs ? a->objs[i] : NULL;
    if (!row || row->kind != J_ARRAY || row->elem != elem ||
        (inner >= 0 && row->length != inner)) {
      sciv_free(v);
      return cfail(c, "a matrix whose rows differ in length or type");
    }
    inner = row->length;
  }
  if (a && (a->kind != J_ARRAY || (outer && !a->objs))) {
    sciv_free(v);
    return cfail(c, "a matrix that is not an array of arrays");
  }
  if (inner < 0) inner = 0;
  int rows = swapped ? inner : outer, cols = swapped ? outer : inner;
  if (spend(c, (long)rows * cols + 1) || sciv_alloc(v, rows, cols, 0)) {
    sciv_free(v);
    return cfail(c, "matrix too large");
  }
  for (int i = 0; i < outer; i++)
    for (int j = 0; j < inner; j++) {
      int r = swapped ? j : i, col = swapped ? i : j;
      size_t at = (size_t)col * (size_t)rows + (size_t)r;
      const jobj *row = a->objs[i];
      if (kind == SCIV_STRING) {
        const jobj *s = row->objs[j];
        if (s && s->kind != J_STRING) {
          sciv_free(v);
          return cfail(c, "a string matrix holds a non-string");
        }
        v->str[at] = strdup(s ? s->name : "");
        if (!v->str[at]) {
          sciv_free(v);
          return cfail(c, "out of memory");
        }
      } else {
        double x = row->nums[j];
        if (uns_bits && x < 0) x += (double)(1ULL << uns_bits);
        v->re[at] = x;
      }
    }
  return v;
}

static sciv *convert(conv *c, const jobj *o, int depth);

/* The dictionary's own items may be objects other than Scilab values
 * (Xcos 5.5 also stores link geometry there): those become SCIV_NONE, an
 * error only if the diagram uses them. Inside a value, nothing is
 * tolerated. */
static sciv *item_value(conv *c, const jobj *item, int depth) {
  if (depth > 0) return convert(c, item, depth + 1);
  char *saved = c->msg;
  char scratch[256] = "";
  c->msg = scratch;
  size_t savedlen = c->msglen;
  c->msglen = sizeof scratch;
  sciv *v = convert(c, item, depth + 1);
  c->msg = saved;
  c->msglen = savedlen;
  if (v || c->budget < 0) return v;
  return sciv_new(SCIV_NONE);
}

static sciv *list_items(conv *c, sciv_kind kind, jcur *k, int n, int depth) {
  sciv *l = sciv_new(kind);
  if (!l) return cfail(c, "out of memory");
  for (int i = 0; i < n; i++) {
    const jobj *item;
    sciv *v = NULL;
    if (cur_obj(k, &item) || !(v = item_value(c, item, depth)) ||
        sciv_append(l, v)) {
      sciv_free(v);
      sciv_free(l);
      return cfail(c, "list item %d unreadable", i + 1);
    }
  }
  return l;
}

/* A list written by ArrayList's own serialization: int capacity in block
 * data, then the items as objects. */
static sciv *arraylist(conv *c, const jobj *o, sciv_kind kind, int depth) {
  int n = -1;
  for (int i = 0; i < o->nvalues; i++)
    if (strcmp(o->values[i].name, "size") == 0) n = (int)o->values[i].num;
  jcur k = {o, 0, 0};
  int capacity;
  if (n < 0 || cur_int(&k, &capacity) || n > o->nsegs)
    return cfail(c, "a serialized list without its size");
  return list_items(c, kind, &k, n, depth);
}

static sciv *convert(conv *c, const jobj *o, int depth) {
  if (depth > 200) return cfail(c, "values nested too deeply");
  if (!o) return cfail(c, "a null value where a Scilab value was expected");
  if (o->kind != J_OBJECT)
    return cfail(c, "a %s where a Scilab value was expected",
                 o->kind == J_STRING ? "bare string" : "bare array");
  const char *name = short_name(o);
  sciv_kind lk = strcmp(name, "ScilabList") == 0    ? SCIV_LIST
                 : strcmp(name, "ScilabTList") == 0 ? SCIV_TLIST
                 : strcmp(name, "ScilabMList") == 0 ? SCIV_MLIST
                                                    : SCIV_DOUBLE;
  int is_list = lk != SCIV_DOUBLE;
  if (!o->cls) return cfail(c, "an object without a class");
  if (!(o->cls->flags & SC_EXTERNALIZABLE)) {
    if (is_list) return arraylist(c, o, lk, depth);
    return cfail(c, "unsupported serialized form of %s", o->cls->name);
  }
  jcur k = {o, 0, 0};
  int version;
  if (cur_int(&k, &version) || version != 0)
    return cfail(c, "%s: unknown version", name);
  if (is_list) {
    int n;
    if (cur_int(&k, &n) || n < 0 || n > o->nsegs || spend(c, 1))
      return cfail(c, "%s: bad size", name);
    return list_items(c, lk, &k, n, depth);
  }
  const jobj *data = NULL, *imag = NULL, *varname;
  unsigned char swapped = 0;
  sciv *v = NULL;
  if (strcmp(name, "ScilabDouble") == 0) {
    if (cur_obj(&k, &data) || cur_obj(&k, &imag) || cur_obj(&k, &varname) ||
        cur_bytes(&k, 1, &swapped))
      return cfail(c, "ScilabDouble: malformed");
    v = matrix(c, data, SCIV_DOUBLE, 'D', swapped, 0);
    if (v && imag && imag->kind == J_ARRAY && imag->length > 0) {
      sciv *im = matrix(c, imag, SCIV_DOUBLE, 'D', swapped, 0);
      if (!im || im->rows != v->rows || im->cols != v->cols) {
        sciv_free(im);
        sciv_free(v);
        return cfail(c, "ScilabDouble: imaginary part of another size");
      }
      v->im = im->re;
      im->re = NULL;
      sciv_free(im);
    }
  } else if (strcmp(name, "ScilabString") == 0) {
    if (cur_obj(&k, &data) || cur_obj(&k, &varname) ||
        cur_bytes(&k, 1, &swapped))
      return cfail(c, "ScilabString: malformed");
    v = matrix(c, data, SCIV_STRING, 'L', swapped, 0);
  } else if (strcmp(name, "ScilabBoolean") == 0) {
    if (cur_obj(&k, &data) || cur_obj(&k, &varname) ||
        cur_bytes(&k, 1, &swapped))
      return cfail(c, "ScilabBoolean: malformed");
    v = matrix(c, data, SCIV_BOOL, 'Z', swapped, 0);
  } else if (strcmp(name, "ScilabInteger") == 0) {
    int prec;
    if (cur_int(&k, &prec) || cur_obj(&k, &data) || cur_obj(&k, &varname) ||
        cur_bytes(&k, 1, &swapped))
      return cfail(c, "ScilabInteger: malformed");
    static const struct {
      int prec;
      char elem;
      int uns_bits;
    } precs[] = {{1, 'B', 0},  {2, 'S', 0},   {4, 'I', 0},   {8, 'J', 0},
                 {11, 'B', 8}, {12, 'S', 16}, {14, 'I', 32}, {18, 'J', 0}};
    int found = -1;
    for (int i = 0; i < 8; i++)
      if (precs[i].prec == prec) found = i;
    if (found < 0) return cfail(c, "ScilabInteger: precision code %d", prec);
    v = matrix(c, data, SCIV_INT, precs[found].elem, swapped,
               precs[found].uns_bits);
    if (v) v->prec = prec;
  } else {
    return cfail(c,
                 "unsupported type %s (blocksim reads Scilab doubles, "
                 "strings, integers, booleans and lists)",
                 o->cls->name);
  }
  return v;
}

sciv *xc_dictionary_decode(const unsigned char *buf, size_t len, char *msg,
                           size_t msglen) {
  jreader r;
  memset(&r, 0, sizeof r);
  msg[0] = '\0';
  r.msg = msg;
  r.msglen = msglen;
  jobj *top = NULL;
  sciv *out = NULL;
  if (jreader_parse(&r, buf, len, &top) == 0) {
    /* Sixteen elements per byte of input is far more than any real file
     * needs (values are shared, not repeated, only in the 2.0 format). */
    conv c = {(long)(len < 1000000 ? 1000000 : len) * 16, msg, msglen};
    out = convert(&c, top, 0);
    if (out && out->kind != SCIV_LIST) {
      sciv_free(out);
      out = NULL;
      snprintf(msg, msglen, "the dictionary is not a list");
    }
    if (!out && !msg[0]) snprintf(msg, msglen, "out of memory");
  }
  jreader_done(&r);
  return out;
}
