/*
 * Atomic result files (see atomic.h). rename() within one folder is atomic
 * on POSIX file systems, so readers see the old file or the new one; the
 * temporary lives next to the target so that the rename never crosses file
 * systems.
 */
#include "output/atomic.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { MAX_LINK_HOPS = 40, MAX_TMP_TRIES = 100 };

/* "dir/link" + "text" -> the path the link's text means, malloc'ed. */
static char *link_target(const char *link, const char *text) {
  if (text[0] == '/') return strdup(text);
  const char *slash = strrchr(link, '/');
  size_t dlen = slash ? (size_t)(slash - link) + 1 : 0;
  char *p = malloc(dlen + strlen(text) + 1);
  if (!p) return NULL;
  memcpy(p, link, dlen);
  strcpy(p + dlen, text);
  return p;
}

/* The path with every symbolic link of its last component followed, even
 * a dangling one (the file it names is then created). malloc'ed, or NULL
 * with errno set (ELOOP for a cycle). */
static char *resolve(const char *path) {
  char *cur = strdup(path);
  for (int hop = 0; cur && hop < MAX_LINK_HOPS; hop++) {
    struct stat ls;
    if (lstat(cur, &ls) != 0 || !S_ISLNK(ls.st_mode)) return cur;
    size_t cap = (size_t)(ls.st_size > 0 ? ls.st_size : 255) + 2;
    char *text = malloc(cap);
    ssize_t n = text ? readlink(cur, text, cap - 1) : -1;
    char *next = NULL;
    if (n >= 0) {
      text[n] = '\0';
      next = link_target(cur, text);
    }
    free(text);
    free(cur);
    cur = next;
  }
  if (cur) {
    free(cur);
    errno = ELOOP;
  }
  return NULL;
}

/* A temporary "<target>.tmpXXXXXX" created exclusively with `mode` (the
 * process umask applies to a new file's 0666, as fopen would). */
static int create_tmp(bsim_atomic *a, mode_t mode) {
  size_t len = strlen(a->target) + 16;
  a->tmp = malloc(len);
  if (!a->tmp) return -1;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^
               ((uint64_t)getpid() << 16) ^ (uint64_t)(uintptr_t)a;
  static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  for (int tries = 0; tries < MAX_TMP_TRIES; tries++) {
    char suffix[7];
    for (int i = 0; i < 6; i++) {
      x ^= x << 13; /* xorshift64 */
      x ^= x >> 7;
      x ^= x << 17;
      suffix[i] = digits[x % (sizeof digits - 1)];
    }
    suffix[6] = '\0';
    snprintf(a->tmp, len, "%s.tmp%s", a->target, suffix);
    int fd = open(a->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd >= 0) return fd;
    if (errno != EEXIST) break;
  }
  free(a->tmp);
  a->tmp = NULL;
  return -1;
}

int bsim_atomic_open(bsim_atomic *a, const char *path, const char *keep) {
  a->f = NULL;
  a->tmp = NULL;
  struct stat st, ks;
  /* Ask the kernel first: /dev/stdout and /proc/self/fd/N are "magic"
   * links whose text (pipe:[123]) names nothing; what they reach is. */
  int exists = stat(path, &st) == 0;
  a->target = exists && !S_ISREG(st.st_mode) ? strdup(path) : resolve(path);
  if (!a->target) return -1;
  if (!exists || S_ISREG(st.st_mode)) exists = stat(a->target, &st) == 0;
  if (exists && keep && stat(keep, &ks) == 0 && ks.st_dev == st.st_dev &&
      ks.st_ino == st.st_ino) {
    free(a->target);
    a->target = NULL;
    return -2;
  }
  int fd;
  if (exists && !S_ISREG(st.st_mode)) {
    /* a device, FIFO or terminal: renaming over it would replace it */
    fd = open(a->target, O_WRONLY | O_CLOEXEC);
  } else {
    fd = create_tmp(a, exists ? st.st_mode & 07777 : 0666);
    /* an existing file keeps its owner too, when we may set it (root) */
    if (fd >= 0 && exists && (st.st_uid != geteuid() || st.st_gid != getegid()))
      (void)!fchown(fd, st.st_uid, st.st_gid);
  }
  if (fd >= 0 && !(a->f = fdopen(fd, "w"))) close(fd);
  if (!a->f) {
    bsim_atomic_discard(a);
    return -1;
  }
  return 0;
}

int bsim_atomic_finish(bsim_atomic *a) {
  if (!a->f) return 0;
  int rc = ferror(a->f) ? -1 : 0;
  int e = errno;
  if (fclose(a->f) != 0) {
    rc = -1;
    e = errno;
  }
  a->f = NULL;
  errno = e;
  return rc;
}

static void release(bsim_atomic *a) {
  free(a->tmp);
  free(a->target);
  a->tmp = a->target = NULL;
}

int bsim_atomic_commit(bsim_atomic *a) {
  int rc = bsim_atomic_finish(a);
  if (rc == 0 && a->tmp && rename(a->tmp, a->target) != 0) rc = -1;
  if (rc != 0) {
    bsim_atomic_discard(a);
    return -1;
  }
  release(a);
  return 0;
}

void bsim_atomic_discard(bsim_atomic *a) {
  int e = errno;
  if (a->f) fclose(a->f);
  a->f = NULL;
  if (a->tmp) unlink(a->tmp);
  release(a);
  errno = e;
}

int bsim_atomic_close(bsim_atomic *a, int ok) {
  if (!ok) {
    bsim_atomic_discard(a);
    return -1;
  }
  return bsim_atomic_commit(a);
}
