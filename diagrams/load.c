/*
 * Loading a diagram: the file is read into memory, its format recognised by
 * content (a zip archive is a .zcos; an XML document whose root is
 * <XcosDiagram> is Xcos; <diagram> is blocksim's own), parsed with libxml2
 * and handed to the reader of that format. Loading from a buffer is the
 * same path, for embedders and fuzzers.
 *
 * libxml2 reports through callbacks attached to the parser context only
 * (never its global handlers), so that loads in several threads do not
 * race and nothing is printed.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>

#include "diagrams/dg_util.h"
#include "diagrams/load.h"
#include "diagrams/xcos/xcos.h"
#include "modules/module.h"

void dg_xml_keep_first(dg_xml_error *fe, const xmlError *e) {
  if (fe->have || !e || e->level < XML_ERR_ERROR) return;
  fe->have = 1;
  fe->line = e->line;
  snprintf(fe->msg, sizeof fe->msg, "%s", e->message ? e->message : "error");
  size_t n = strlen(fe->msg);
  while (n > 0 && (fe->msg[n - 1] == '\n' || fe->msg[n - 1] == ' '))
    fe->msg[--n] = '\0';
}

/* libxml2's depth bound without XML_PARSE_HUGE: a native <diagram>, each
 * <superblock>, the <block> and <param> inside the deepest. */
enum { MAX_XML_DEPTH = 256 };

/* The parser hands its own context as user data; ours rides in _private. */
static void on_parse_error(void *data, xmlErrorPtr e) {
  xmlParserCtxtPtr c = data;
  dg_xml_error *fe = c->_private;
  int had = fe->have;
  dg_xml_keep_first(fe, e);
  /* libxml2's hint (XML_PARSE_HUGE) is no option for a user: say what the
   * bound means for a diagram */
  if (!had && fe->have && strstr(fe->msg, "Excessive depth in document"))
    snprintf(fe->msg, sizeof fe->msg,
             "superblocks nested too deep: the XML reader keeps libxml2's "
             "bound of %d nested elements against hostile files, about %d "
             "levels of superblocks",
             MAX_XML_DEPTH, MAX_XML_DEPTH - 2);
}

/* Total replacement text entity references may produce: libxml2's own
 * bound on one text without XML_PARSE_HUGE. A diagram needs no more; a
 * 100 KB entity used 2000 times (200 MB) took 30 s and 400 MB before
 * libxml2 noticed nothing. */
enum { MAX_ENTITY_EXPANSION = 10000000 };

/* The work of joining the pieces of values: libxml2 builds a value that
 * holds entity references by appending each piece to what came before,
 * scanning it again (xmlNodeListGetString), so n references cost about n
 * times the text expanded so far. Within the bound above, a 1.5 MB
 * attribute of 500 000 references to a 10-byte entity took 65 s. The bound
 * keeps that work to about a twentieth of a second (3 s under ASan, where
 * the fuzzer found it twice); thousands of references to short entities
 * stay below it. */
static const double MAX_ENTITY_JOIN_WORK = 1e9;

/* fe->msg holds why: keep where, and stop the parser. */
static void stop_entities(xmlParserCtxtPtr c, dg_xml_error *fe) {
  fe->have = 1;
  fe->line = xmlSAX2GetLineNumber(c);
  xmlStopParser(c);
}

/* Every entity reference, in content or in an attribute value, is
 * resolved through the SAX handler's getEntity: count what it expands to
 * and stop the parser past the bounds. */
static xmlEntityPtr counted_entity(void *data, const xmlChar *name) {
  xmlParserCtxtPtr c = data;
  dg_xml_error *fe = c->_private;
  xmlEntityPtr ent = xmlSAX2GetEntity(data, name);
  if (!ent || ent->etype == XML_INTERNAL_PREDEFINED_ENTITY || fe->have)
    return ent;
  if (ent->length > 0) fe->expanded += (size_t)ent->length;
  fe->join_work += (double)fe->expanded;
  if (fe->expanded > MAX_ENTITY_EXPANSION) {
    snprintf(fe->msg, sizeof fe->msg,
             "entity references expand to more than %d bytes (the bound "
             "libxml2 sets on one text without XML_PARSE_HUGE; a diagram "
             "needs no such expansion)",
             MAX_ENTITY_EXPANSION);
    stop_entities(c, fe);
  } else if (fe->join_work > MAX_ENTITY_JOIN_WORK) {
    snprintf(fe->msg, sizeof fe->msg,
             "too many entity references for their length: %zu bytes "
             "expanded so far, each further reference costs that much "
             "again (a diagram needs no such expansion; hint: write the "
             "values out)",
             fe->expanded);
    stop_entities(c, fe);
  }
  return ent;
}

/* Errors libxml2 raises without a parser context (its encoders': "encoding
 * error : input conversion failed") go to the thread's global handlers,
 * which print to stderr by default. parse() points them here for its
 * duration: the message becomes the load's error instead. */
static void on_global_error(void *data, xmlErrorPtr e) {
  dg_xml_keep_first(data, e);
}

static void ignore_generic(void *data, const char *fmt, ...) {
  (void)data;
  (void)fmt;
}

/* Parse XML text without network access or entity expansion; NULL with
 * the first parser error reported. */
static xmlDocPtr parse(const char *name, const void *text, size_t len,
                       bsim_error *err) {
  if (len > INT32_MAX) {
    bsim_error_set(err, BSIM_ERR_INPUT, "%s: file too large", name);
    return NULL;
  }
  dg_xml_error fe = {0};
  xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
  xmlDocPtr doc = NULL;
  if (!ctxt || !ctxt->sax) {
    bsim_error_set(err, BSIM_ERR_NOMEM, "%s: out of memory", name);
    xmlFreeParserCtxt(ctxt);
    return NULL;
  }
  ctxt->_private = &fe;
  ctxt->sax->serror = on_parse_error;
  ctxt->sax->getEntity = counted_entity;
  /* libxml2 keeps these per thread: set and put back around this parse,
   * they affect no other load */
  xmlStructuredErrorFunc old_s = xmlStructuredError;
  void *old_sc = xmlStructuredErrorContext;
  xmlGenericErrorFunc old_g = xmlGenericError;
  void *old_gc = xmlGenericErrorContext;
  xmlSetStructuredErrorFunc(&fe, on_global_error);
  xmlSetGenericErrorFunc(NULL, ignore_generic);
  /* COMPACT stores short texts inside their nodes (fewer allocations, 11%
   * of a parse); the tree must then stay as parsed, and it does: the
   * readers and the schema only read it */
  doc = xmlCtxtReadMemory(ctxt, text, (int)len, name, NULL,
                          XML_PARSE_NONET | XML_PARSE_BIG_LINES |
                              XML_PARSE_COMPACT);
  xmlSetStructuredErrorFunc(old_sc, old_s);
  xmlSetGenericErrorFunc(old_gc, old_g);
  if (!doc || fe.have) {
    const char *why = fe.have ? fe.msg : "not a well-formed XML document";
    if (fe.line > 0)
      bsim_error_set(err, BSIM_ERR_INPUT, "%s:%d: %s", name, fe.line, why);
    else /* the encoders' errors have no line */
      bsim_error_set(err, BSIM_ERR_INPUT,
                     "%s: %s (hint: is the file in the encoding its XML "
                     "declaration names?)",
                     name, why);
    xmlFreeDoc(doc);
    doc = NULL;
  }
  xmlFreeParserCtxt(ctxt);
  return doc;
}

static int root_is(xmlDocPtr doc, const char *name) {
  xmlNodePtr r = xmlDocGetRootElement(doc);
  return r && strcmp((const char *)r->name, name) == 0;
}

/* Zip magic at the start of the data. */
static int is_zip(const void *data, size_t len) {
  const unsigned char *b = data;
  return len >= 4 && b[0] == 'P' && b[1] == 'K' && b[2] == 3 && b[3] == 4;
}

static bsim_diagram *from_zcos(const char *name, const void *data, size_t len,
                               const bsim_library *lib, bsim_error *err) {
  unsigned char *content = NULL, *dict = NULL;
  size_t clen = 0, dlen = 0;
  char msg[512];
  snprintf(msg, sizeof msg, "%s: reading a .zcos", name);
  const dg_zcos_module *zcos = bsim_module("zcos", msg, err);
  if (!zcos) return NULL;
  if (zcos->unpack(data, len, &content, &clen, &dict, &dlen, msg, sizeof msg) !=
      0) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "%s: %s (the .zcos is truncated or corrupt)", name, msg);
    return NULL;
  }
  bsim_diagram *d = NULL;
  xmlDocPtr doc = parse(name, content, clen, err);
  if (doc && !root_is(doc, "XcosDiagram"))
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "%s: the archive's content.xml is not an Xcos diagram",
                   name);
  else if (doc)
    d = dg_xcos_read(name, doc, dict, dlen, lib, err);
  if (d) d->format = "zcos";
  xmlFreeDoc(doc);
  free(content);
  free(dict);
  return d;
}

bsim_diagram *bsim_diagram_load_memory(const char *name, const void *data,
                                       size_t len, const bsim_library *lib,
                                       bsim_error *err) {
  if (!name) name = "(memory)";
  if (!data) {
    bsim_error_set(err, BSIM_ERR_INPUT, "%s: no data", name);
    return NULL;
  }
  if (!lib) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "%s: no block library given (hint: create one with "
                   "bsim_library_create)",
                   name);
    return NULL;
  }
  /* Idempotent; lets libxml2 set up its tables before any parse. */
  xmlInitParser();
  if (is_zip(data, len)) return from_zcos(name, data, len, lib, err);
  xmlDocPtr doc = parse(name, data, len, err);
  if (!doc) return NULL;
  bsim_diagram *d = root_is(doc, "XcosDiagram")
                        ? dg_xcos_read(name, doc, NULL, 0, lib, err)
                        : dg_native_read(name, doc, lib, err);
  xmlFreeDoc(doc);
  return d;
}

bsim_diagram *bsim_diagram_load(const char *path, const bsim_library *lib,
                                bsim_error *err) {
  if (!path) {
    bsim_error_set(err, BSIM_ERR_INPUT, "no diagram file given");
    return NULL;
  }
  size_t len = 0;
  char *text = dg_slurp(path, &len, err);
  if (!text) return NULL;
  bsim_diagram *d = bsim_diagram_load_memory(path, text, len, lib, err);
  free(text);
  return d;
}
