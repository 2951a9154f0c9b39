/* Drop the ty= and span= comments TVM writes: less text for the test and for the reader. */
#include "reduce.h"

static size_t count(const RedProgram *p) { return p->strip_comments ? 0 : 1; }

static bool apply(RedProgram *out, size_t i) {
  (void)i;
  out->strip_comments = true;
  return true;
}

const RedPass red_pass_comments = {"comments", "drop the /* ty=... */ and /* span=... */ comments", count, apply};
