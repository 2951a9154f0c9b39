/* Rewrite the ty= comments that no longer state their node's type: the other passes change types
   (shapes, fields, a new result) and leave the comments as the input wrote them.  When the test
   needs TVM's comments (--keep-comments, or it refused their removal) the result would otherwise
   claim types its nodes no longer have.  The pass runs last in a round, on the program as typed
   after the round's changes, so a fixpoint ends with no stale comment the test lets go.  A comment
   whose type still holds stays byte for byte, and so does each span. */
#include "reduce.h"

static size_t count(const Program *p) { return prog_stale_type_comments(p->m, false) ? 1 : 0; }

static bool apply(Program *out, size_t i) {
  (void)i;
  return prog_stale_type_comments(out->m, true) > 0;
}

const RedPass red_pass_tycomments = {
    .name = "tycomments",
    .description = "rewrite the ty= comments that no longer match their node's type (spans kept)",
    .count = count,
    .apply = apply,
    .search = RED_ONE_BY_ONE,
};
