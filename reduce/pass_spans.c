/* Drop TVM's span= annotations (`/ * ty=T span=S * /` keeps `/ * ty=T * /`): only with
   --strip-spans, as by default a node that survives keeps the span that maps it back to the
   frontend layer it came from (rreduce.c leaves the pass out otherwise). */
#include "reduce.h"

static size_t count(const Program *p) { return prog_count_comments(p->m, PROG_NOTE_SPANS) ? 1 : 0; }

static bool apply(Program *out, size_t i) {
  (void)i;
  return prog_drop_comments(out->m, PROG_NOTE_SPANS) > 0;
}

const RedPass red_pass_spans = {
    .name = "spans",
    .description = "drop TVM's /* span= */ comments (with --strip-spans only)",
    .count = count,
    .apply = apply,
    .search = RED_ONE_BY_ONE,
};
