/*
 * What a failure is, beyond a test's exit status and one-line signature: the outcome a test may
 * leave beside the candidate (BASENAME.outcome, PROTOCOL.md: the stage that failed, the kind of
 * failure, TVM's C++ frames, its output), and its class: a bug of TVM, a limitation TVM states,
 * or an input TVM rejects (interestingness/tvm-limitations.txt, built into the programs, and a
 * user's rules).  rfuzz groups and counts by them, roracle counts and logs by them.
 */
#ifndef RELAYKIT_OUTCOME_H
#define RELAYKIT_OUTCOME_H

#include <stdbool.h>
#include <stddef.h>

#include "../support/pattern.h"
#include "../support/xalloc.h"

/* What a failure is: a bug of TVM (a crash, a check failure, a wrong result, a hang), a limitation
   (TVM says the combination is not implemented or not supported), or a rejected input (outside
   what TVM accepts).  Counted apart everywhere; only bugs are reduced by default. */
typedef enum FailClass { FAIL_BUG, FAIL_LIMITATION, FAIL_REJECTED, FAIL_NCLASSES } FailClass;
extern const char *const fail_class_names[FAIL_NCLASSES]; /* "bug", "limitation", "rejected" */

enum { OUTCOME_FRAMES = 3 }; /* TVM frames that refine a group key (ClusterFuzz's crash state) */

/* What the oracle said of a failure beside its answer line (its outcome side file, PROTOCOL.md);
   every string "" when it said nothing. */
typedef struct Outcome {
  char *stage;               /* frontend, compile, run, compare, roundtrip, check */
  char *step;                /* where in the stage: "pass FoldConstant", "build pass FuseOps" (the
                                pass relay.build had in flight), "build after FuseOps" (lowering) */
  char *kind;                /* crash, timeout, check, exception, wrong-result */
  char *frames[OUTCOME_FRAMES]; /* TVM's innermost C++ frames, when its backtrace had them */
  size_t nframes;
  char *signature;           /* the signature the test gave it */
  char *output;              /* TVM's output (for the failure's log) */
  char *pipeline;            /* what ran, as the outcome's JSON object, or NULL */
} Outcome;
/* From an outcome's text (NULL: none); false when there is none usable (f is still set). */
bool outcome_read(Outcome *f, const char *outcome);
void outcome_free(Outcome *f);
/* The optimization pass the failure happened in, from its step ("pass P", "build pass P"), or
   NULL; *len its name's length. */
const char *outcome_pass(const Outcome *f, size_t *len);

/* A rule of a rules file: `CLASS REGEX`, CLASS one of limitation, rejected, bug (a kind of bug
   said by name, such as the type relation accepting what lowering rejects). */
typedef struct FailRule {
  FailClass cls;
  Pattern *re;
  bool shipped; /* tvm-limitations.txt's, not the user's */
  char *shown;  /* "FILE:LINE: CLASS REGEX", and the comment above it: why */
} FailRule;
typedef struct FailRules {
  VEC(FailRule) rules; /* the first that matches decides */
} FailRules;
void fail_rules_init(FailRules *c);
void fail_rules_free(FailRules *c);
/* Rules `CLASS REGEX` a line (# comments) from text named `name` in messages; false with a
   located message (NAME:LINE: ...) on a bad line or regex. */
bool fail_rules_add(FailRules *c, const char *text, const char *name, char *err, size_t errlen);
bool fail_rules_load(FailRules *c, const char *path, char *err, size_t errlen);
/* interestingness/tvm-limitations.txt, built into the programs (build/.../gen/limitations.c). */
extern const char shipped_limitations[];
bool fail_rules_shipped(FailRules *c, char *err, size_t errlen);

/* What relaykit's own checker says of the failing program: TVM refusing a program relaykit
   accepts is a disagreement (a bug of one of the two), one both refuse a rejected input. */
typedef enum FailAccepted { ACCEPTED_UNKNOWN = -1, ACCEPTED_NO = 0, ACCEPTED_YES = 1 } FailAccepted;

/*
 * The class of a failure with this signature and outcome (f may be NULL), and in *rule (when not
 * NULL; malloc'd) the rule that decided, as a person reads it.  In order: the user's rules; the
 * shipped ones (a limitation only where TVM says the path is unsupported and points elsewhere); a
 * failure inside an optimization pass is a bug, whatever its words; TVM refusing the program
 * before any pass is a disagreement when relaykit's checker accepts it (a bug), else a rejected
 * input; anything else is a bug.
 */
FailClass fail_classify(const FailRules *c, const char *sig, const Outcome *f, FailAccepted accepted, char **rule);

/*
 * The key failures are grouped by (rfuzz's groups, roracle's): the stage the oracle says failed,
 * the signature masked (support: signature.h) and further of what tells one instance of a cause
 * from another: generated function names (fused_*, tvmgen_*, vm_mod_*), dtypes and shapes; then
 * TVM's innermost frame.  A timeout is "STAGE: timeout".  *match: a pattern for rreduce --match
 * (the signature's stable part), or NULL.  The masked message is cut at FAIL_KEY_WORDS_MAX bytes:
 * the signatures oracles give are cut at 400 (relaykit_tvm's SIGNATURE_CAP), so the first 160
 * masked bytes are the same for every instance of a check whatever the names in it.
 */
enum { FAIL_KEY_WORDS_MAX = 160 };
bool fail_is_timeout(bool timed_out, const char *sig);
void fail_group_key(const Outcome *f, bool timed_out, const char *sig, char **key, char **match);

#endif
