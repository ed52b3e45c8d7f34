/*
 * Between the loader (load.c), which reads a file, recognises its format
 * and parses XML, and the two readers it hands the document to: the
 * native one (xml.c) and the Xcos one (xcos/). Private to diagrams/.
 */
#ifndef BSIM_LOAD_H
#define BSIM_LOAD_H

#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include "diagrams/diagram.h"

/* The first problem libxml2 reports, kept for the message; the bytes
 * entity references have expanded to so far, and the work joining them
 * costs (load.c). */
typedef struct dg_xml_error {
  int have;
  int line;
  char msg[1024];
  size_t expanded;
  double join_work;
} dg_xml_error;

/* Keep e if it is the first error (warnings are ignored). */
void dg_xml_keep_first(dg_xml_error *fe, const xmlError *e);

/* A native diagram from its parsed document: validated against the schema,
 * then read. NULL on error. */
bsim_diagram *dg_native_read(const char *path, xmlDocPtr doc,
                             const bsim_library *lib, bsim_error *err);

/* A block's <model> element (xml_model.c): the run-time model it gives,
 * into *out (malloc'ed); 0, or -1 with err set (file:line). */
int dg_xml_read_model(const char *file, xmlNodePtr n, bsim_model **out,
                      bsim_error *err);

#endif
