/*
 * GOTO / FROM pairing at flattening (diagrams/tags.c): tags resolve to
 * plain links and activations (a top-level FROM takes its level's local
 * GOTO over a global one; a global GOTO deep inside reaches a sibling
 * superblock; an event tag fans out), tag blocks leave no flat block, and
 * each rule Xcos enforces is bad input naming the block. The visibility
 * rules are checked against Scilab itself by test_scilab_events.c
 * (tests/data/xcos/tags).
 */
#include "tests/unit/diagram_harness.h"

/* Exact: the links are integers (block and port indices). */
static int has_link(const bsim_flat *f, const bsim_flat_link *ls, int n,
                    const char *from, const char *to) {
  int a = block_at(f, from), b = block_at(f, to);
  for (int i = 0; i < n; i++)
    if (ls[i].from_block == a && ls[i].to_block == b) return 1;
  return 0;
}

static void test_resolution(void) {
  bsim_diagram *d = NULL;
  bsim_error err;
  bsim_flat *f = flatten_file("tags_flat.xml", &d, &err);
  CHECK(f != NULL, "tags_flat.xml: %s", err.message);
  if (f) {
    for (int i = 0; i < f->nblocks; i++) {
      const char *t = f->blocks[i].type->name;
      CHECK(!(f->blocks[i].type->flags & BSIM_TYPE_TAG),
            "tag block %s (%s) left in the flat diagram", f->blocks[i].path, t);
    }
    CHECK(has_link(f, f->links, f->nlinks, "loc", "k"),
          "top FROM 'X' not fed by the local GOTO's source");
    CHECK(has_link(f, f->links, f->nlinks, "a/deep/src", "b/k"),
          "b/f not fed by the global GOTO inside a/deep");
    CHECK(!has_link(f, f->links, f->nlinks, "a/deep/src", "k"),
          "top FROM took the global GOTO over its local one");
    CHECK(has_link(f, f->activations, f->nactivations, "clk", "h1") &&
              has_link(f, f->activations, f->nactivations, "clk", "h2"),
          "event tag 'T' does not reach both holds");
    CHECK(f->nblocks == 7, "%d flat blocks, want 7 (no tag block)", f->nblocks);
  }
  bsim_flat_free(f);
  bsim_diagram_free(d);
}

int main(void) {
  test_resolution();
  static const bad_case bad[] = {
      {"tag_err_nogoto.xml", "'f' (FROM)", "no GOTO with tag 'X' is visible"},
      {"tag_err_twolocal.xml", "'g2' (GOTO)", "second local one"},
      {"tag_err_twoscoped.xml", "'sb/g2' (GOTO)", "second scoped one"},
      {"tag_err_twoglobal.xml", "'sb/g2' (CLKGOTO)", "second global one"},
      {"tag_err_kind.xml", "'f' (CLKFROM)", "no CLKGOTO with tag 'X'"},
      {"tag_err_unfed.xml", "'g' input 1", "not connected"},
      {"tag_err_empty.xml", "'tag'", "empty"},
      {"tag_err_twovis.xml", "'v2' (GotoTagVisibility)", "second one at this"},
  };
  check_flatten_errors(bad, sizeof bad / sizeof bad[0]);
  return failures != 0;
}
