/*
 * The .zcos container: a zip holding content.xml (the diagram) and, from
 * Scilab 5.5 on, dictionary/dictionary.ser (the block data content.xml
 * refers to by position). Read from memory with libzip; each member is
 * bounded in size so that a crafted archive cannot exhaust memory.
 * blocksim's optional zcos module: plain .xcos files never load libzip.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zip.h>

#include "diagrams/xcos/xcos.h"
#include "modules/module.h"

/* Far above any real diagram, well below what would hurt. */
enum { MAX_MEMBER = 256 * 1024 * 1024 };

/* One member into memory (NUL-terminated); 0, 1 when absent, -1 on error
 * (message in msg). */
static int member(zip_t *z, const char *name, unsigned char **out, size_t *len,
                  char *msg, size_t msglen) {
  zip_stat_t st;
  zip_stat_init(&st);
  if (zip_stat(z, name, 0, &st) != 0) return 1;
  if (!(st.valid & ZIP_STAT_SIZE) || st.size > MAX_MEMBER) {
    snprintf(msg, msglen, "member %s is too large or has no size", name);
    return -1;
  }
  zip_file_t *f = zip_fopen(z, name, 0);
  if (!f) {
    snprintf(msg, msglen, "cannot open member %s: %s", name, zip_strerror(z));
    return -1;
  }
  unsigned char *buf = malloc((size_t)st.size + 1);
  zip_int64_t got = buf ? zip_fread(f, buf, st.size) : -1;
  int bad = got < 0 || (zip_uint64_t)got != st.size;
  if (bad)
    snprintf(msg, msglen, "member %s is damaged (%s)", name,
             buf ? zip_file_strerror(f) : "out of memory");
  zip_fclose(f);
  if (bad) {
    free(buf);
    return -1;
  }
  buf[st.size] = '\0';
  *out = buf;
  *len = (size_t)st.size;
  return 0;
}

int dg_zcos_unpack(const void *data, size_t len, unsigned char **content,
                   size_t *content_len, unsigned char **dict, size_t *dict_len,
                   char *msg, size_t msglen) {
  *content = *dict = NULL;
  *content_len = *dict_len = 0;
  zip_error_t ze;
  zip_error_init(&ze);
  zip_source_t *src = zip_source_buffer_create(data, len, 0, &ze);
  zip_t *z =
      src ? zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &ze) : NULL;
  if (!z) {
    snprintf(msg, msglen, "not a readable zip archive (%s)",
             zip_error_strerror(&ze));
    zip_source_free(src);
    zip_error_fini(&ze);
    return -1;
  }
  zip_error_fini(&ze);
  int rc = member(z, "content.xml", content, content_len, msg, msglen);
  if (rc == 1) {
    snprintf(msg, msglen, "the archive has no content.xml (not a .zcos)");
    rc = -1;
  }
  if (rc == 0) {
    rc = member(z, "dictionary/dictionary.ser", dict, dict_len, msg, msglen);
    if (rc == 1) rc = 0; /* files before Scilab 5.5 have none */
  }
  zip_discard(z); /* also frees src */
  if (rc != 0) {
    free(*content);
    free(*dict);
    *content = *dict = NULL;
  }
  return rc;
}

static const dg_zcos_module zcos_module = {dg_zcos_unpack};

const void *bsim_module_zcos(void) {
  return &zcos_module;
}
