/*
 * The Xcos reader as the rest of diagrams/ sees it: recognising a .zcos,
 * unpacking it, and turning a parsed Xcos XML document into a Diagram.
 * Also the XML helpers the reader's files share. Private to diagrams/.
 */
#ifndef BSIM_XCOS_H
#define BSIM_XCOS_H

#include <stddef.h>

#include <libxml/tree.h>

#include "diagrams/xcos/xcos_int.h"

/* content.xml and dictionary/dictionary.ser of a .zcos (the latter NULL
 * when absent), each malloc'ed and NUL-terminated. 0, or -1 with a
 * message. In the zcos module (zcos.c): called through its table. */
int dg_zcos_unpack(const void *data, size_t len, unsigned char **content,
                   size_t *content_len, unsigned char **dict, size_t *dict_len,
                   char *msg, size_t msglen);
typedef struct dg_zcos_module {
  int (*unpack)(const void *data, size_t len, unsigned char **content,
                size_t *content_len, unsigned char **dict, size_t *dict_len,
                char *msg, size_t msglen);
} dg_zcos_module;

/* The Diagram of a parsed document whose root is <XcosDiagram>; dict is
 * the raw dictionary.ser of a .zcos, or NULL; block types come from lib
 * (the diagram keeps a reference). NULL on error. */
bsim_diagram *dg_xcos_read(const char *file, xmlDocPtr doc,
                           const unsigned char *dict, size_t dict_len,
                           const bsim_library *lib, bsim_error *err);

/* xmldata.c */
char *xc_attr(xmlNodePtr n, const char *name);
/* 0 with *out set, 1 when absent, -1 when not a number. */
int xc_attr_num(xmlNodePtr n, const char *name, double *out);
/* The value an element stores (inline or in the dictionary). NULL on
 * error (reported). */
sciv *xc_value(xc_ctx *c, xmlNodePtr n, int depth);
/* A context: <add value="..."/> lines (or a dictionary string matrix)
 * joined with '\n'. NULL on error (reported). */
char *xc_context(xc_ctx *c, xmlNodePtr n);

/* xmlwalk.c: the level under an <mxGraphModel>. */
xc_level *xc_level_from_xml(xc_ctx *c, xmlNodePtr model, xmlNodePtr context);

#endif
