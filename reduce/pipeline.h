/*
 * The pipeline a TVM test runs the program through, reduced with the program (issue 28): the
 * ordered passes of `tvm-pass P1 P2 ...` (with their arguments), the opt level and the disabled
 * passes of a build, and the passes TVM reported it ran.  A test that takes part in the protocol
 * (interestingness/PROTOCOL.md, "pipelines") writes what it ran to BASENAME.pipeline-ran beside
 * the candidate and runs BASENAME.pipeline instead of its own arguments when rreduce writes one:
 * both are this JSON object
 *
 *   {"check": "pass", "passes": ["FoldConstant", "FuseOps(fuse_opt_level=2)"],
 *    "opt_level": 3, "disabled_pass": ["AlterOpLayout"], "ran": ["InferType", ...]}
 *
 * where every field is optional ("passes" only for an ordered pass list, "opt_level" only where a
 * PassContext is made, "ran" only in what the test writes).
 */
#ifndef RELAYKIT_PIPELINE_H
#define RELAYKIT_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct RedPipeline {
  char *check;        /* the test's own word for it ("pass", "build", "diff"), or NULL */
  bool has_passes;    /* an ordered pass list (tvm-pass) */
  char **passes;      /* "FuseOps(fuse_opt_level=2)": a name, then literal arguments */
  size_t npasses;
  int opt_level;      /* -1: none */
  char **disabled;    /* disabled_pass, in the order they were disabled */
  size_t ndisabled;
  char **ran;         /* the passes TVM ran (read only: what the test said) */
  size_t nran;
} RedPipeline;

/* From the JSON above; false with a message (naming `where`) when it is not such an object. */
bool red_pipeline_parse(RedPipeline *p, const char *json, const char *where, char *err, size_t errlen);
/* Whether every pass of an ordered list is spelled Name or Name(literal arguments) with Name one of
   TVM's relay.transform passes (0.6 to 0.19), and the opt level is 0 to 4: false with a message
   naming `where` and the pass (a user's --pipeline file, checked before any test runs). */
bool red_pipeline_check(const RedPipeline *p, const char *where, char *err, size_t errlen);
/* The JSON rreduce writes beside a candidate: everything but "ran" (malloc'd, one line); with_ran:
   "ran" too (what a report says). */
char *red_pipeline_json(const RedPipeline *p);
char *red_pipeline_json_ran(const RedPipeline *p);
void red_pipeline_copy(RedPipeline *to, const RedPipeline *from);
void red_pipeline_free(RedPipeline *p);
/* Whether a pass of that name (arguments ignored) is disabled. */
bool red_pipeline_disabled(const RedPipeline *p, const char *name);
/* The passes that ran and are not disabled nor in the ordered pass list, in the order they ran,
   each once (malloc'd array of pointers into p; *n of them): what disabling could still change. */
const char **red_pipeline_enabled(const RedPipeline *p, size_t *n);
/* One line a bug report can say: "FoldConstant then FuseOps(fuse_opt_level=0)" or "opt level 2;
   of the 31 passes that ran, 28 disabled: FoldConstant, FuseOps and SimplifyExpr still run"
   (malloc'd). */
char *red_pipeline_describe(const RedPipeline *p);
/* The command-line options that give this pipeline to a TVM script: the passes, then
   --opt-level N --disabled-pass A,B (malloc'd; "" when there is nothing to say). */
char *red_pipeline_script_args(const RedPipeline *p);

/* ------------------------------------------------------------------ a pass's literal arguments */
/* The arguments of a pass spelled Name(a, k=v, ...) that a reduction can lower: integers (toward
   0) and booleans (True to False).  For argument j of spec: how many lower values to try, and the
   k-th of them spelled as a Relay pass argument. */
size_t red_pass_arg_count(const char *spec);
size_t red_pass_arg_lower_count(const char *spec, size_t j);
/* spec with argument j set to its k-th lower value (malloc'd), or NULL. */
char *red_pass_arg_lowered(const char *spec, size_t j, size_t k);

#endif
