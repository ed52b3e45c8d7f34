/*
 * Sweep members as bytes and the journal that keeps them across a kill.
 *
 * A member's record decodes to exactly what was encoded (every double bit
 * for bit, the strings, the records); any truncation of it, or a flipped
 * length, is refused rather than read past its end. A journal with a
 * record torn in the middle (what kill -9 during write(2) leaves) gives
 * back the records before it, cuts the torn one off, and takes new ones
 * after them; a journal of other arguments is refused with its message.
 */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/journal.h"
#include "output/member.h"
#include "tests/unit/test_check.h"
#include "tests/unit/test_tmpdir.h"

static void sample(out_member *m, long index) {
  static double values[6], rec[9];
  static char path[] = "plant/scope", names[] = "u1,u2";
  static out_record r;
  memset(m, 0, sizeof *m);
  m->index = index;
  m->status = 0;
  m->message = "";
  m->wall = 0.125;
  m->rows = 3;
  m->cols = 2;
  for (int i = 0; i < 6; i++)
    values[i] = sin(1.0 + i) * (double)(index + 1);
  values[5] = -0.0;
  m->values = values;
  m->nstats = 2;
  m->stat_names[0] = "steps";
  m->stat_values[0] = 41;
  m->stat_names[1] = "events";
  m->stat_values[1] = NAN;
  for (int i = 0; i < 9; i++)
    rec[i] = 1.0 / (i + 3);
  r = (out_record){path, names, 3, 2, rec};
  m->nrec = 1;
  m->rec = &r;
}

static int same_member(const out_member *a, const out_member *b) {
  return a->index == b->index && a->status == b->status &&
         strcmp(a->message, b->message) == 0 && a->wall == b->wall &&
         a->rows == b->rows && a->cols == b->cols &&
         memcmp(a->values, b->values, sizeof(double) * a->rows * a->cols) ==
             0 &&
         a->nstats == b->nstats && strcmp(a->stat_names[1], "events") == 0 &&
         memcmp(a->stat_values, b->stat_values, sizeof(double) * 2) == 0 &&
         a->nrec == b->nrec && strcmp(b->rec[0].path, "plant/scope") == 0 &&
         strcmp(b->rec[0].names, "u1,u2") == 0 && b->rec[0].rows == 3 &&
         b->rec[0].cols == 2 &&
         memcmp(a->rec[0].data, b->rec[0].data, sizeof(double) * 9) == 0;
}

static void test_encoding(void) {
  out_member m, back;
  sample(&m, 7);
  size_t len;
  void *buf = out_member_encode(&m, &len);
  CHECK(buf != NULL, "encode");
  if (!buf) return;
  CHECK(out_member_decode(buf, len, &back) == 0 && same_member(&m, &back),
        "a member does not decode to itself");
  out_member_clear(&back);
  for (size_t cut = 0; cut < len; cut += 7)
    CHECK(out_member_decode(buf, cut, &back) != 0,
          "a record cut at %zu of %zu "
          "decodes",
          cut, len);
  /* a huge row count must not be believed */
  unsigned char *bad = malloc(len);
  memcpy(bad, buf, len);
  size_t at = 2 * 8 + 8 + strlen(m.message) + 8; /* index,status,msg,wall */
  memset(bad + at, 0x7f, 8);
  CHECK(out_member_decode(bad, len, &back) != 0, "a bad row count decodes");
  free(bad);
  /* a failed member */
  out_member f;
  CHECK(out_member_failed(&f, 3, 2, "bad: 1 +", 0.5) == 0, "failed");
  void *fb = out_member_encode(&f, &len);
  CHECK(fb && out_member_decode(fb, len, &back) == 0 && back.status == 2 &&
            back.index == 3 && strcmp(back.message, "bad: 1 +") == 0 &&
            back.rows == 0 && back.nrec == 0,
        "failed member");
  out_member_clear(&back);
  out_member_clear(&f);
  free(fb);
  free(buf);
}

static void test_journal(void) {
  char dir[64], path[128];
  CHECK(test_tmpdir_make(dir, sizeof dir, "journal") == 0, "mkdtemp");
  snprintf(path, sizeof path, "%s/j", dir);
  bsim_error err;
  bsim_error_clear(&err);
  out_journal *j = out_journal_open(path, "fp-1", &err);
  CHECK(j != NULL, "create: %s", err.message);
  if (!j) return;
  size_t lens[3];
  for (long i = 0; i < 3; i++) {
    out_member m;
    sample(&m, i);
    void *buf = out_member_encode(&m, &lens[i]);
    CHECK(buf && out_journal_append(j, buf, lens[i]) == 0, "append %ld", i);
    free(buf);
  }
  out_journal_close(j, 0);
  struct stat st;
  stat(path, &st);
  off_t whole = st.st_size;
  /* a fourth record torn half-way, as kill -9 during write(2) leaves it */
  out_member m;
  sample(&m, 3);
  size_t len;
  void *buf = out_member_encode(&m, &len);
  int fd = open(path, O_WRONLY | O_APPEND);
  uint32_t head[4] = {0x524a5342, 0, (uint32_t)len, 0};
  CHECK(write(fd, head, sizeof head) == sizeof head &&
            write(fd, buf, len / 2) == (ssize_t)(len / 2),
        "tearing");
  close(fd);
  free(buf);

  CHECK(out_journal_open(path, "fp-2", &err) == NULL &&
            err.status == BSIM_ERR_INPUT &&
            strstr(err.message, "other arguments"),
        "other fingerprint: '%s'", err.message);
  bsim_error_clear(&err);
  j = out_journal_open(path, "fp-1", &err);
  CHECK(j != NULL, "reopen: %s", err.message);
  if (!j) return;
  const void *rec;
  long n = 0;
  while (out_journal_next(j, &rec, &len)) {
    out_member back;
    CHECK(len == lens[n] && out_member_decode(rec, len, &back) == 0 &&
              back.index == n,
          "record %ld", n);
    if (len == lens[n]) out_member_clear(&back);
    n++;
  }
  CHECK(n == 3, "%ld records after the tear, want 3", n);
  stat(path, &st);
  CHECK(st.st_size == whole, "the torn tail was not cut (%lld, want %lld)",
        (long long)st.st_size, (long long)whole);
  sample(&m, 9);
  buf = out_member_encode(&m, &len);
  CHECK(out_journal_append(j, buf, len) == 0, "append after repair");
  free(buf);
  out_journal_close(j, 0);
  j = out_journal_open(path, "fp-1", &err);
  n = 0;
  while (j && out_journal_next(j, &rec, &len))
    n++;
  CHECK(n == 4, "%ld records after repair and append, want 4", n);
  out_journal_close(j, 1);
  CHECK(access(path, F_OK) != 0, "remove at close");
  test_tmpdir_done(dir, failures, "journal files");
}

int main(void) {
  test_encoding();
  test_journal();
  if (failures) return 1;
  printf("test_journal: ok\n");
  return 0;
}
