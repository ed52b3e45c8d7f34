/*
 * Sweep journals (journal.h). A record is written by a single write(2) on
 * a descriptor opened with O_APPEND: when the process is killed, the
 * kernel either has the whole call or a prefix of it, never a mix, and a
 * prefix fails the length or CRC check when the journal is read again.
 * Data in the kernel survives the death of the process, which is what a
 * resumed sweep needs; a crash of the machine itself is not covered.
 */
#include "output/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/member.h"

static const uint32_t record_magic = 0x524a5342; /* "BSJR" */

typedef struct head {
  uint32_t magic, crc;
  uint64_t len;
} head;

struct out_journal {
  int fd;
  char *path;
  unsigned char *data; /* the records read at open */
  size_t size, pos;    /* valid bytes, read position */
};

static int write_all(int fd, const void *buf, size_t n) {
  const unsigned char *p = buf;
  while (n > 0) {
    ssize_t k = write(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return -1;
    p += k;
    n -= (size_t)k;
  }
  return 0;
}

int out_journal_append(out_journal *j, const void *buf, size_t len) {
  size_t total = sizeof(head) + len;
  unsigned char *rec = malloc(total);
  if (!rec) return -1;
  head h = {record_magic, out_crc32(buf, len), len};
  memcpy(rec, &h, sizeof h);
  memcpy(rec + sizeof h, buf, len);
  int rc = write_all(j->fd, rec, total);
  free(rec);
  return rc;
}

/* The end of the valid records in data[0..n): a record that does not fit
 * or fails its CRC ends the journal there. */
static size_t valid_end(const unsigned char *data, size_t n) {
  size_t pos = 0;
  while (n - pos >= sizeof(head)) {
    head h;
    memcpy(&h, data + pos, sizeof h);
    if (h.magic != record_magic || h.len > n - pos - sizeof h ||
        out_crc32(data + pos + sizeof h, (size_t)h.len) != h.crc)
      break;
    pos += sizeof h + (size_t)h.len;
  }
  return pos;
}

static int read_file(int fd, unsigned char **data, size_t *n) {
  struct stat st;
  if (fstat(fd, &st) != 0) return -1;
  *n = (size_t)st.st_size;
  *data = malloc(*n + 1);
  if (!*data) return -1;
  size_t got = 0;
  while (got < *n) {
    ssize_t k = pread(fd, *data + got, *n - got, (off_t)got);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return -1;
    got += (size_t)k;
  }
  return 0;
}

out_journal *out_journal_open(const char *path, const char *fingerprint,
                              bsim_error *err) {
  out_journal *j = calloc(1, sizeof *j);
  if (!j || !(j->path = strdup(path))) {
    free(j);
    bsim_error_set(err, BSIM_ERR_NOMEM, "out of memory");
    return NULL;
  }
  j->fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
  if (j->fd < 0 || read_file(j->fd, &j->data, &j->size) != 0) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "cannot open the journal '%s': %s (hint: is the folder "
                   "writable?)",
                   path, strerror(errno));
    out_journal_close(j, 0);
    return NULL;
  }
  size_t flen = strlen(fingerprint);
  if (j->size == 0) {
    if (out_journal_append(j, fingerprint, flen) != 0) {
      bsim_error_set(err, BSIM_ERR_SIM, "cannot write the journal '%s': %s",
                     path, strerror(errno));
      out_journal_close(j, 1);
      return NULL;
    }
    return j;
  }
  size_t end = valid_end(j->data, j->size);
  head h;
  if (end > 0) memcpy(&h, j->data, sizeof h);
  if (end == 0 || h.len != flen ||
      memcmp(j->data + sizeof h, fingerprint, flen) != 0) {
    bsim_error_set(err, BSIM_ERR_INPUT,
                   "'%s' belongs to a sweep started with other arguments (or "
                   "is not a blocksim journal) (hint: resume with the same "
                   "arguments, or remove it and its output to start again)",
                   path);
    out_journal_close(j, 0);
    return NULL;
  }
  /* a torn tail: cut it, so that new records follow valid ones */
  if (end < j->size && ftruncate(j->fd, (off_t)end) != 0) {
    bsim_error_set(err, BSIM_ERR_SIM, "cannot repair the journal '%s': %s",
                   path, strerror(errno));
    out_journal_close(j, 0);
    return NULL;
  }
  j->size = end;
  j->pos = sizeof h + flen;
  return j;
}

int out_journal_next(out_journal *j, const void **buf, size_t *len) {
  if (!j->data || j->pos >= j->size) {
    free(j->data); /* replay done: no need to keep it */
    j->data = NULL;
    return 0;
  }
  head h;
  memcpy(&h, j->data + j->pos, sizeof h);
  *buf = j->data + j->pos + sizeof h;
  *len = (size_t)h.len;
  j->pos += sizeof h + (size_t)h.len;
  return 1;
}

void out_journal_close(out_journal *j, int remove) {
  if (!j) return;
  if (j->fd >= 0) close(j->fd);
  if (remove && j->path) unlink(j->path);
  free(j->path);
  free(j->data);
  free(j);
}
