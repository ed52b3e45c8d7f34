/*
 * The Java object graph that javaser.c parses out of a serialization
 * stream and javaser_sci.c interprets as Scilab values. Private to the two.
 */
#ifndef BSIM_XCOS_JAVASER_H
#define BSIM_XCOS_JAVASER_H

#include <stddef.h>
#include <stdint.h>

enum {
  TC_NULL = 0x70,
  TC_REFERENCE = 0x71,
  TC_CLASSDESC = 0x72,
  TC_OBJECT = 0x73,
  TC_STRING = 0x74,
  TC_ARRAY = 0x75,
  TC_BLOCKDATA = 0x77,
  TC_ENDBLOCKDATA = 0x78,
  TC_RESET = 0x79,
  TC_BLOCKDATALONG = 0x7A,
  TC_LONGSTRING = 0x7C
};
enum {
  SC_WRITE_METHOD = 1,
  SC_SERIALIZABLE = 2,
  SC_EXTERNALIZABLE = 4,
  SC_BLOCK_DATA = 8
};
enum { MAX_DEPTH = 256 };

typedef enum { J_CLASS, J_OBJECT, J_ARRAY, J_STRING } jkind;

typedef struct jobj jobj;

/* One item of an annotation or an Externalizable object's data: raw bytes
 * (block data) or an object (NULL for TC_NULL). */
typedef struct jseg {
  const unsigned char *bytes;
  size_t nbytes;
  int is_obj;
  jobj *obj;
} jseg;

typedef struct jfield {
  char type; /* B C D F I J S Z L [ */
  char *name;
  double num; /* primitive value */
  jobj *obj;  /* object value */
} jfield;

struct jobj {
  jkind kind;
  /* J_CLASS */
  char *name;
  unsigned flags;
  jfield *fields;
  int nfields;
  jobj *super;
  /* J_OBJECT: its class, the field values of each class of the hierarchy
   * (copies of the descriptors' fields), and annotation segments. */
  jobj *cls;
  jfield *values;
  int nvalues;
  jseg *segs;
  int nsegs;
  /* J_ARRAY */
  char elem; /* element type code */
  int32_t length;
  double *nums;
  jobj **objs;
  /* J_STRING: name holds the text */
};

typedef struct jreader {
  const unsigned char *start, *p, *end;
  jobj **handles;
  int nhandles, caphandles;
  void **allocs;
  size_t nallocs, capallocs;
  int depth;
  char *msg;
  size_t msglen;
} jreader;

/* Parse the first object of a stream (after the magic and version).
 * *top gets it; all memory is owned by r and released by jreader_done.
 * 0, or -1 with r->msg set. */
int jreader_parse(jreader *r, const unsigned char *buf, size_t len, jobj **top);
void jreader_done(jreader *r);

#endif
