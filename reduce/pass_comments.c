/* Drop comments: first the ty= and span= annotations TVM writes (less text for the test and the
   reader), then every comment, license headers included, if the test does not need them. */
#include "reduce.h"

static size_t count(const Program *p) { return p->comments == PROG_COMMENTS_NONE ? 0 : 2; }

static bool apply(Program *out, size_t i) {
  ProgComments want = i == 0 ? PROG_COMMENTS_USER : PROG_COMMENTS_NONE;
  if (out->comments >= want) return false;
  out->comments = want;
  return true;
}

const RedPass red_pass_comments = {
    .name = "comments",
    .description = "drop TVM's /* ty= */ and /* span= */ comments, then all comments",
    .count = count,
    .apply = apply,
    .search = RED_ONE_BY_ONE,
};
