/* Drop comments: first TVM's ty= annotations, keeping each node's span (`/ * ty=T span=S * /`
   becomes `/ * span=S * /`, byte for byte: spans map a node back to the frontend layer it came
   from, so they stay with the nodes that survive; --strip-spans drops them, pass spans), then the
   user's comments, license headers included, if the test does not need them. */
#include "reduce.h"

static size_t count(const Program *p) { return prog_count_comments(p->m, PROG_NOTE_TYPES | PROG_NOTE_USER) ? 2 : 0; }

static bool apply(Program *out, size_t i) {
  return prog_drop_comments(out->m, i == 0 ? PROG_NOTE_TYPES : PROG_NOTE_USER) > 0;
}

const RedPass red_pass_comments = {
    .name = "comments",
    .description = "drop TVM's /* ty= */ comments (each node's span stays), then the user's comments",
    .count = count,
    .apply = apply,
    .search = RED_ONE_BY_ONE,
};
