/*
 * The pipeline passes (issue 28): they reduce the pipeline the test runs, not the program, so
 * that a report says which passes a bug needs.  The driver runs them beside the program's passes
 * in every round, so the two alternate until neither shrinks.  Each counts 0 when the test
 * reported no pipeline (pipeline.h).
 *
 *   pipe-passes   the smallest ordered subsequence of a `tvm-pass P1 P2 ...` list (ddmin)
 *   pipe-args     a pass's integer and boolean arguments lowered: FuseOps(fuse_opt_level=2) -> 0
 *   pipe-disable  the largest set of disabled passes, over the passes that actually ran (ddmin)
 *   pipe-opt      the lowest opt level at which the bug survives
 */
#include <stdlib.h>
#include <string.h>

#include "../support/xalloc.h"
#include "reduce.h"

/* ------------------------------------------------------------------ pipe-passes */
static size_t passes_count(const RedPipeline *p) { return p->has_passes ? p->npasses : 0; }

static bool passes_apply(RedPipeline *p, size_t lo, size_t hi) {
  if (!p->has_passes || hi > p->npasses || lo >= hi) return false;
  for (size_t i = lo; i < hi; i++) free(p->passes[i]);
  memmove(p->passes + lo, p->passes + hi, (p->npasses - hi) * sizeof *p->passes);
  p->npasses -= hi - lo;
  return true;
}

const RedPass red_pass_pipe_passes = {
    .name = "pipe-passes",
    .description = "remove passes from the test's pass list (tvm-pass P1 P2 ...): the fewest that still fail",
    .search = RED_CHUNKS,
    .count_pipeline = passes_count,
    .apply_pipeline = passes_apply,
};

/* ------------------------------------------------------------------ pipe-args */
/* Opportunity i: the i-th (pass, argument, lower value) of the list, passes in order. */
static bool arg_at(const RedPipeline *p, size_t i, size_t *pass, size_t *arg, size_t *value) {
  for (size_t k = 0; p->has_passes && k < p->npasses; k++) {
    size_t nargs = red_pass_arg_count(p->passes[k]);
    for (size_t j = 0; j < nargs; j++) {
      size_t nl = red_pass_arg_lower_count(p->passes[k], j);
      if (i < nl) {
        *pass = k, *arg = j, *value = i;
        return true;
      }
      i -= nl;
    }
  }
  return false;
}

static size_t args_count(const RedPipeline *p) {
  size_t n = 0;
  for (size_t k = 0; p->has_passes && k < p->npasses; k++)
    for (size_t j = 0, nargs = red_pass_arg_count(p->passes[k]); j < nargs; j++) n += red_pass_arg_lower_count(p->passes[k], j);
  return n;
}

static bool args_apply(RedPipeline *p, size_t lo, size_t hi) {
  size_t k, j, v;
  if (hi != lo + 1 || !arg_at(p, lo, &k, &j, &v)) return false;
  char *lowered = red_pass_arg_lowered(p->passes[k], j, v);
  if (!lowered) return false;
  free(p->passes[k]);
  p->passes[k] = lowered;
  return true;
}

/* The lowest value first: the first interesting one is taken, and the same index then names the
   next argument's values (the lowered one has none below it left to try). */
const RedPass red_pass_pipe_args = {
    .name = "pipe-args",
    .description = "lower a pass's integer and boolean arguments (FuseOps(fuse_opt_level=2) -> 0)",
    .search = RED_ONE_BY_ONE,
    .count_pipeline = args_count,
    .apply_pipeline = args_apply,
};

/* ------------------------------------------------------------------ pipe-disable */
static size_t disable_count(const RedPipeline *p) {
  if (p->opt_level < 0) return 0;
  size_t n;
  free(red_pipeline_enabled(p, &n));
  return n;
}

static bool disable_apply(RedPipeline *p, size_t lo, size_t hi) {
  size_t n;
  const char **en = red_pipeline_enabled(p, &n);
  if (hi > n || lo >= hi) {
    free(en);
    return false;
  }
  char **more = xmalloc((p->ndisabled + hi - lo) * sizeof *more);
  memcpy(more, p->disabled, p->ndisabled * sizeof *more);
  for (size_t i = lo; i < hi; i++) more[p->ndisabled++] = xstrdup(en[i]);
  free(p->disabled);
  p->disabled = more;
  free(en);
  return true;
}

const RedPass red_pass_pipe_disable = {
    .name = "pipe-disable",
    .description = "disable passes that ran (PassContext disabled_pass): the most that still fail",
    .search = RED_CHUNKS,
    .count_pipeline = disable_count,
    .apply_pipeline = disable_apply,
};

/* ------------------------------------------------------------------ pipe-opt */
static size_t opt_count(const RedPipeline *p) { return p->opt_level > 0 ? (size_t)p->opt_level : 0; }

static bool opt_apply(RedPipeline *p, size_t lo, size_t hi) {
  if (hi != lo + 1 || (int)lo >= p->opt_level) return false;
  p->opt_level = (int)lo;
  return true;
}

/* Levels from 0 up: the first that still fails is the lowest. */
const RedPass red_pass_pipe_opt = {
    .name = "pipe-opt",
    .description = "lower the opt level to the lowest at which the bug survives",
    .search = RED_ONE_BY_ONE,
    .count_pipeline = opt_count,
    .apply_pipeline = opt_apply,
};
