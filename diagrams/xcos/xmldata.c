/*
 * Scilab values written inline in Xcos XML (ScilabDouble, ScilabString,
 * ScilabInteger, ScilabBoolean elements with <data line column .../>
 * children; Array elements of class ScilabList / ScilabTList / ScilabMList
 * holding further values), or stored in the .zcos dictionary and referred
 * to as binary="true" position="N". Every dimension is checked against the
 * data actually present before memory is allocated.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagrams/xcos/xcos.h"

static int is(xmlNodePtr n, const char *name) {
  return n->type == XML_ELEMENT_NODE &&
         strcmp((const char *)n->name, name) == 0;
}

/* An attribute's value when the tree holds it as one text, as it nearly
 * always does, read in place: a file has tens of thousands of attributes,
 * and xmlGetProp copies each. NULL for anything else (no such attribute,
 * an empty value, entity references, a DTD's default), which xmlGetProp
 * then reads. */
static const char *attr_text(xmlNodePtr n, const char *name) {
  xmlAttrPtr a = xmlHasProp(n, (const xmlChar *)name);
  if (!a || a->type != XML_ATTRIBUTE_NODE) return NULL;
  xmlNodePtr t = a->children;
  if (!t || t->next || t->type != XML_TEXT_NODE || !t->content) return NULL;
  return (const char *)t->content;
}

char *xc_attr(xmlNodePtr n, const char *name) {
  const char *in_place = attr_text(n, name);
  if (in_place) return strdup(in_place);
  xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
  if (!v) return NULL;
  char *s = strdup((const char *)v);
  xmlFree(v);
  return s;
}

int xc_attr_num(xmlNodePtr n, const char *name, double *out) {
  const char *in_place = attr_text(n, name);
  char *copy = in_place ? NULL : xc_attr(n, name);
  const char *s = in_place ? in_place : copy;
  if (!s) return 1;
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  while (*end == ' ')
    end++;
  int bad = end == s || *end || errno == ERANGE;
  free(copy);
  if (bad) return -1;
  *out = v;
  return 0;
}

static sciv *bad(xc_ctx *c, xmlNodePtr n, const char *what) {
  bsim_error_set(c->err, BSIM_ERR_INPUT,
                 "%s:%ld: %s<%s>: %s (the file is damaged or not written by "
                 "Xcos)",
                 c->file, (long)xmlGetLineNo(n), c->block ? c->block : "",
                 (const char *)n->name, what);
  return NULL;
}

static int int_prec(const char *s) {
  static const struct {
    const char *name;
    int code;
  } precs[] = {{"sci_int8", 1},    {"sci_int16", 2},  {"sci_int32", 4},
               {"sci_int64", 8},   {"sci_uint8", 11}, {"sci_uint16", 12},
               {"sci_uint32", 14}, {"sci_uint64", 18}};
  for (size_t i = 0; s && i < sizeof precs / sizeof precs[0]; i++)
    if (strcmp(s, precs[i].name) == 0) return precs[i].code;
  return -1;
}

/* A matrix element: its rows x cols <data> children, each once. */
static sciv *matrix(xc_ctx *c, xmlNodePtr n, sciv_kind kind) {
  double h = 0, w = 0;
  if (xc_attr_num(n, "height", &h) < 0 || xc_attr_num(n, "width", &w) < 0 ||
      h < 0 || w < 0 || h != floor(h) || w != floor(w))
    return bad(c, n, "bad height or width");
  long count = 0;
  for (xmlNodePtr d = n->children; d; d = d->next)
    count += is(d, "data");
  if (h * w != (double)count)
    return bad(c, n,
               "the number of <data> elements differs from height x "
               "width");
  sciv *v = sciv_new(kind);
  int complex = 0;
  for (xmlNodePtr d = n->children; d && kind == SCIV_DOUBLE; d = d->next)
    complex |= is(d, "data") && xmlHasProp(d, (const xmlChar *)"imaginaryPart");
  if (!v || sciv_alloc(v, count ? (int)h : 0, count ? (int)w : 0, complex)) {
    sciv_free(v);
    xc_nomem(c);
    return NULL;
  }
  if (kind == SCIV_INT) {
    char *p = xc_attr(n, "intPrecision");
    v->prec = int_prec(p);
    free(p);
    if (v->prec < 0) {
      sciv_free(v);
      return bad(c, n, "unknown intPrecision");
    }
  }
  char *seen = calloc((size_t)(count ? count : 1), 1);
  if (!seen) {
    sciv_free(v);
    xc_nomem(c);
    return NULL;
  }
  const char *why = NULL;
  for (xmlNodePtr d = n->children; d && !why; d = d->next) {
    if (!is(d, "data")) continue;
    double i = -1, j = -1;
    if (xc_attr_num(d, "line", &i) || xc_attr_num(d, "column", &j) || i < 0 ||
        j < 0 || i >= h || j >= w || i != floor(i) || j != floor(j)) {
      why = "a <data> element with a bad line or column";
      break;
    }
    size_t at = (size_t)j * (size_t)h + (size_t)i;
    if (seen[at]++) {
      why = "two <data> elements for one element";
      break;
    }
    if (kind == SCIV_STRING) {
      char *s = xc_attr(d, "value");
      v->str[at] = s ? s : strdup("");
      if (!v->str[at]) why = "out of memory";
    } else if (kind == SCIV_BOOL) {
      char *s = xc_attr(d, "value");
      v->re[at] = s && (strcmp(s, "true") == 0 || strcmp(s, "1") == 0);
      free(s);
    } else {
      const char *re = kind == SCIV_DOUBLE ? "realPart" : "value";
      if (xc_attr_num(d, re, &v->re[at]) != 0 &&
          (kind != SCIV_DOUBLE || xc_attr_num(d, "value", &v->re[at]) != 0))
        why = "a <data> element without a number";
      if (v->im && xc_attr_num(d, "imaginaryPart", &v->im[at]) < 0)
        why = "a bad imaginaryPart";
    }
  }
  free(seen);
  if (why) {
    sciv_free(v);
    return bad(c, n, why);
  }
  return v;
}

static sciv *from_dictionary(xc_ctx *c, xmlNodePtr n) {
  double pos = -1;
  if (xc_attr_num(n, "position", &pos) != 0 || pos < 0 || pos != floor(pos))
    return bad(c, n, "binary data without a valid position");
  int size = c->dict ? c->dict->nitems : 0;
  if (pos >= size) {
    char *as = xc_attr(n, "as");
    bsim_error_set(c->err, BSIM_ERR_INPUT,
                   "%s:%ld: %s<%s as=\"%s\">: dictionary reference %.0f out "
                   "of range (the dictionary has %d entries; the .zcos is "
                   "damaged)",
                   c->file, (long)xmlGetLineNo(n), c->block ? c->block : "",
                   (const char *)n->name, as ? as : "", pos, size);
    free(as);
    return NULL;
  }
  if (c->dict->items[(int)pos]->kind == SCIV_NONE) {
    char *as = xc_attr(n, "as");
    bsim_error_set(c->err, BSIM_ERR_INPUT,
                   "%s:%ld: %s<%s as=\"%s\">: dictionary entry %.0f is not "
                   "a Scilab value blocksim can read",
                   c->file, (long)xmlGetLineNo(n), c->block ? c->block : "",
                   (const char *)n->name, as ? as : "", pos);
    free(as);
    return NULL;
  }
  sciv *v = sciv_copy(c->dict->items[(int)pos]);
  if (!v) xc_nomem(c);
  return v;
}

sciv *xc_value(xc_ctx *c, xmlNodePtr n, int depth) {
  if (depth > 100) return bad(c, n, "values nested too deeply");
  char *binary = xc_attr(n, "binary");
  int is_bin = binary && strcmp(binary, "true") == 0;
  free(binary);
  if (is_bin) return from_dictionary(c, n);
  const char *name = (const char *)n->name;
  if (strcmp(name, "ScilabDouble") == 0) return matrix(c, n, SCIV_DOUBLE);
  if (strcmp(name, "ScilabString") == 0) return matrix(c, n, SCIV_STRING);
  if (strcmp(name, "ScilabInteger") == 0) return matrix(c, n, SCIV_INT);
  if (strcmp(name, "ScilabBoolean") == 0) return matrix(c, n, SCIV_BOOL);
  sciv_kind kind = SCIV_LIST;
  char *cls = xc_attr(n, "scilabClass");
  const char *k = cls ? cls : name;
  if (strcmp(k, "ScilabTList") == 0)
    kind = SCIV_TLIST;
  else if (strcmp(k, "ScilabMList") == 0)
    kind = SCIV_MLIST;
  else if (strcmp(k, "ScilabList") != 0 && strcmp(name, "Array") != 0) {
    free(cls);
    return bad(c, n, "not a Scilab value");
  }
  free(cls);
  sciv *l = sciv_new(kind);
  if (!l) {
    xc_nomem(c);
    return NULL;
  }
  for (xmlNodePtr ch = n->children; ch; ch = ch->next) {
    if (ch->type != XML_ELEMENT_NODE) continue;
    sciv *item = xc_value(c, ch, depth + 1);
    if (!item || sciv_append(l, item) != 0) {
      if (item) xc_nomem(c);
      sciv_free(item);
      sciv_free(l);
      return NULL;
    }
  }
  return l;
}

/* A dictionary context: a string matrix, one statement line each. */
static char *dict_context(xc_ctx *c, xmlNodePtr n) {
  sciv *v = from_dictionary(c, n);
  if (!v) return NULL;
  size_t len = 1;
  int k = v->kind == SCIV_STRING ? sciv_numel(v) : 0;
  for (int i = 0; i < k; i++)
    len += strlen(v->str[i] ? v->str[i] : "") + 1;
  char *s = malloc(len);
  if (s) {
    s[0] = '\0';
    for (int i = 0; i < k; i++) {
      strcat(s, v->str[i] ? v->str[i] : "");
      strcat(s, "\n");
    }
  } else {
    xc_nomem(c);
  }
  sciv_free(v);
  return s;
}

char *xc_context(xc_ctx *c, xmlNodePtr n) {
  char *binary = xc_attr(n, "binary");
  int is_bin = binary && strcmp(binary, "true") == 0;
  free(binary);
  if (is_bin) return dict_context(c, n);
  size_t len = 0;
  for (xmlNodePtr a = n->children; a; a = a->next) {
    if (!is(a, "add")) continue;
    char *v = xc_attr(a, "value");
    len += (v ? strlen(v) : 0) + 1;
    free(v);
  }
  char *s = malloc(len + 1);
  if (!s) {
    xc_nomem(c);
    return NULL;
  }
  s[0] = '\0';
  size_t used = 0;
  for (xmlNodePtr a = n->children; a; a = a->next) {
    if (!is(a, "add")) continue;
    char *v = xc_attr(a, "value");
    size_t k = v ? strlen(v) : 0;
    if (k) memcpy(s + used, v, k);
    used += k;
    s[used++] = '\n';
    s[used] = '\0';
    free(v);
  }
  return s;
}
