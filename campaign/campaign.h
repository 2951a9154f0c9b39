/*
 * rfuzz: a fuzzing campaign over a TVM oracle (issue 15).  One header is the map:
 *
 *   rfuzz.c       the command line and the loop: make a program (generate or mutate the pool),
 *                 ask the oracle, group what fails, keep what is new, reduce each new group
 *   kinds.def     the kinds of rounds, a line each: default weight, check, verdict rule, stage,
 *                 pool rule
 *   kinds.c       their checks, verdict rules and stages, and the table
 *   pass_seq.c    pass sequences (TVM passes run before relay.build) and their mutation
 *   features.c    what a program reaches: operators and operator edges (producer>consumer), for
 *                 feedback, from its tree
 *   state.c       the campaign directory: campaign.json (saved after every round, atomically),
 *                 pool/, groups/, index.md
 *   triage.c      a failure's group key (by what failed, not which round met it), the check that
 *                 reproduces it; reduction with rreduce
 *   merge.c       `rfuzz merge`: shards joined, groups merged by key
 *   key.c         `rfuzz key`: the key and class of failures met outside a campaign
 *   coverage.c    TVM's edge coverage as feedback: the oracle's edges, the campaign's union
 *   plot.c        `rfuzz plot`: coverage and bug groups over time (gnuplot)
 *
 * Determinism: round r of shard I/N is the campaign's program number r*N + I-1; every random
 * choice of that round comes from rng_seed(seed, that number), so a campaign is a function of
 * its --seed and the oracle's answers, and shards never make the same program.
 */
#ifndef RELAYKIT_CAMPAIGN_H
#define RELAYKIT_CAMPAIGN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../parser/ast.h"
#include "../interestingness/outcome.h"
#include "../interestingness/server.h"
#include "../interestingness/tvms.h"
#include "../support/pattern.h"
#include "../support/rng.h"
#include "../support/strbuf.h"
#include "../support/strset.h"
#include "../support/xalloc.h"

/* ------------------------------------------------------------------ pass_seq.c */
/* TVM v0.13 passes that take no required argument, as tvm-pass spells them. */
extern const char *const fuzz_pass_names[];
extern const size_t fuzz_npass_names;
enum { FUZZ_MAX_PASSES = 8 };

/* The passes a campaign draws from: all of them, or the user's --passes. */
typedef struct FuzzPassSet {
  const char *const *names;
  size_t n;
} FuzzPassSet;
void fuzz_pass_set_all(FuzzPassSet *v);
/* From "A,B,C" (names without their arguments); the names array is malloc'd. */
bool fuzz_pass_set_parse(FuzzPassSet *v, const char *list, char *err, size_t errlen);

/* A sequence is a ';'-separated list of passes ("" = none: relay.build alone). */
char *fuzz_passes_random(Rng *rng, const FuzzPassSet *v);                 /* 0..4 random passes (malloc'd) */
/* One of Tzer's mutations: insert, delete, replace or swap two (malloc'd). */
char *fuzz_passes_mutate(Rng *rng, const char *seq, const FuzzPassSet *v);
/* The same, or (a third of the time, when a pass of seq takes arguments) one pass's arguments
   changed: FuseOps -> FuseOps(fuse_opt_level=1) (coverage feedback's pass-only rounds). */
char *fuzz_passes_mutate_args(Rng *rng, const char *seq, const FuzzPassSet *v);
/* Whether every name in seq is known (for sequences read back from a file). */
bool fuzz_passes_valid(const char *seq);
/* Calls `add(ctx, key)` for every pass pair of seq, "passes:A>B" ("passes:>A" for the first),
   the pass half of the feedback's features (features.c has the program's half). */
void fuzz_pass_features(const char *seq, void (*add)(void *ctx, const char *key), void *ctx);

/* ------------------------------------------------------------------ features.c */
/* Calls `add(ctx, key)` for every feature of program m: "op:NAME" for each operator called and
   "edge:A>B" when a value made by A feeds B (features.c says exactly when).  `typed`: m is printed
   with its inferred types as comments (an rmutate mutant, MutResult.program), not with the
   comments it holds. */
void fuzz_features(const AstModule *m, bool typed, void (*add)(void *ctx, const char *key), void *ctx);

/* ------------------------------------------------------------------ kinds.c, kinds.def */
/* What an oracle answer says about a round's program. */
typedef enum FuzzVerdict {
  FV_PASS,          /* the check passed */
  FV_FAIL,          /* a failure: grouped by signature, each new group reduced */
  FV_REJECTED,      /* the program is invalid and was rejected with a diagnostic, as it should */
  FV_ACCEPTED,      /* the program is invalid and was accepted */
  FV_ORACLE_ERROR,  /* the oracle could not answer (exit 2, or none) */
} FuzzVerdict;

/* A kind of round: one line of kinds.def. */
/* What a round's program holds that the graph executor cannot take, so its check runs on the VM:
   a dyn.* call (a `?`-shaped value: "Cannot allocate memory symbolic tensor shape", by design) or
   a helper global called from @main (its codegen wants every global lowered away first). */
enum { FUZZ_SHAPE_DYN = 1u, FUZZ_SHAPE_GLOBALS = 2u };

typedef struct FuzzKind {
  const char *name;          /* --mix NAME=W */
  unsigned weight;           /* its default share of the rounds */
  const char *description;   /* for --help */
  bool ill_typed;            /* its program is an ill-typed mutant (rmutate --ill-typed) of a
                                generated or pool program, not a generated or mutated one */
  bool joins_pool;           /* a program of this kind that shows something new joins the pool (the
                                pool is what mutation starts from: well-typed programs only) */
  /* Appends the check asked of the oracle, an argument a line (the program's args file), for a
     program with this pass sequence; `coin` is the round's own coin toss, for a check with two
     variants; `shape` says what in the program only the VM runs (FUZZ_SHAPE_*). */
  void (*check)(StrBuf *args, const char *passes, bool coin, unsigned shape);
  /* What an answer (the oracle's exit status and first line) means, a hang and an oracle error
     ruled out (fuzz_verdict).  Which group a failure joins is not the kind's to say: failures
     are grouped by what failed (triage.c), whichever kind of round met them. */
  FuzzVerdict (*verdict)(int status, const char *sig);
} FuzzKind;

enum {
  FUZZ_NKINDS = 0
#define ROUND_KIND(...) +1
#include "kinds.def"
#undef ROUND_KIND
};
/* Every kind, in kinds.def's order. */
extern const FuzzKind fuzz_kinds[FUZZ_NKINDS];
/* The kind called `name`, or NULL. */
const FuzzKind *fuzz_kind(const char *name);

/* Whether a known bug's words (TVM's, from bugs.json) are in text, its numbers aside: each run of
   digits in words matches any run of digits (known.c says why). */
bool fuzz_words_found(const char *text, const char *words);
/* What an answer means for a program of this kind. */
FuzzVerdict fuzz_verdict(const FuzzKind *kind, int status, bool timed_out, const char *sig);

/* ------------------------------------------------------------------ coverage.c */
/* A set of TVM's coverage edges (indices of an instrumented build's counters): a bitmap. */
typedef struct FuzzEdges {
  uint8_t *bits;
  size_t cap;   /* bytes */
  size_t count; /* edges in the set */
} FuzzEdges;
void fuzz_edges_free(FuzzEdges *e);
bool fuzz_edges_has(const FuzzEdges *e, uint32_t i);
bool fuzz_edges_add(FuzzEdges *e, uint32_t i); /* true when it is new */
/* Ascending indices from the outcome's encoding (base64 of LEB128 gaps); false when malformed. */
bool fuzz_edges_decode(const char *b64, uint32_t **out, size_t *n);
/* CAMPAIGN/coverage.edges: the set's LEB128 gaps (saved atomically). */
bool fuzz_edges_save(const FuzzEdges *e, const char *path, char *err, size_t errlen);
bool fuzz_edges_load(FuzzEdges *e, const char *path, char *err, size_t errlen);

/* A program's coverage as its oracle's outcome gives it. */
typedef struct FuzzCoverage {
  bool present;      /* the outcome has a coverage field */
  uint32_t *edges;   /* ascending */
  size_t n;
  size_t total;      /* the build's edges, when the oracle says (0: unknown) */
} FuzzCoverage;
/* From an outcome's text (NULL: none, present false); false when the field is malformed. */
bool fuzz_coverage_read(const char *outcome, FuzzCoverage *cov);
void fuzz_coverage_free(FuzzCoverage *cov);
/* Of cov's edges, how many seen lacks; fuzz_coverage_add adds them (returns how many were new). */
size_t fuzz_coverage_new(const FuzzEdges *seen, const FuzzCoverage *cov);
size_t fuzz_coverage_add(FuzzEdges *seen, const FuzzCoverage *cov);

/* What decides that a program joins the pool: features read from the program and its passes
   (operators, operator edges, pass pairs), TVM's edge coverage (the oracle reports it), or both. */
typedef enum FuzzFeedback { FB_AUTO, FB_FEATURES, FB_COVERAGE, FB_BOTH } FuzzFeedback;
extern const char *const fuzz_feedback_names[4]; /* "auto", "features", "coverage", "both" */

/* ------------------------------------------------------------------ state.c */

typedef struct FuzzEntry {   /* a program of the pool */
  char *file;                /* relative to the campaign directory: pool/000012.relay */
  char *passes;              /* its pass sequence */
  unsigned tries;            /* Tzer's N: pass-only mutations since its passes last improved
                                (coverage feedback) */
} FuzzEntry;

typedef struct FuzzGroup {   /* failures with one key */
  unsigned id;               /* groups/<id>, from 1 */
  char *key;                 /* "build: Check failed: ... @ tvm::relay::Foo" (masked): what groups
                                failures (triage.c) */
  char *signature;           /* the first failure's signature, as the oracle said it */
  char *match;               /* a regex for the signature's stable part (rreduce --match) */
  char *args;                /* the check that shows it, one argument a line */
  FailClass cls;             /* its first failure's */
  char *rule;                /* the rule that made it that class, as a person reads it, or NULL */
  unsigned long count;
  uint64_t first_program;    /* the campaign's program number of its first failure */
  double first_seconds;      /* campaign time of the first failure */
  long first_bytes, reduced_bytes; /* -1: none */
  char *status;              /* "new" (to reduce), "reduced", "not reduced: why", "not reduced (--no-reduce)" */
  char *frame;               /* TVM's innermost frame of its first failure, or NULL: a reduction
                                keeps it (rreduce --frame), so a crash does not slip into another */
  char *reduced_key;         /* the key its reduced program fails with (NULL: not asked yet) */
  unsigned merged_into;      /* the group it proved the same as after reduction (0: none) */
  char *step;                /* where it failed (the outcome's step: "build pass FuseOps"), the
                                reduced program's once asked again, or NULL */
  char *tvm_verdicts;        /* what each other TVM (--tvm) says of its reduced program, or NULL:
                                "v0.19.0: passes (fixed by v0.19.0)" */
} FuzzGroup;

/* A known bug the campaign met (rfuzz --known): its first failure, and how many. */
typedef struct FuzzKnownMet {
  char *id;                  /* bugs.json's "id", or the regex line of a plain file */
  double first_seconds;      /* campaign time of its first failure */
  uint64_t first_program;
  unsigned long count;
} FuzzKnownMet;

typedef struct FuzzCounts {
  unsigned long programs, passed, failed, known, oracle_errors, timeouts;
  unsigned long bugs, limitations, rejected;  /* failures by class (failed = their sum) */
  unsigned long ill_rejected, ill_accepted;   /* invalid programs rejected cleanly (FV_REJECTED) / accepted */
  unsigned long generated, mutated, pool_adds;
  unsigned long pass_rounds, pass_gains;      /* pass-only rounds (coverage feedback), and those
                                                 whose new passes passed and reached new edges */
  unsigned long diff_rounds, diff_compared, diff_wrong; /* diff programs run, those whose outputs were
                                                 compared (passed, or differed), and the
                                                 wrong-result reports among them (outputs differ) */
} FuzzCounts;

typedef struct Campaign {
  char *dir;
  uint64_t seed;
  unsigned shard, nshards;   /* 1-based */
  char *oracle;
  uint64_t round;            /* the next round of this shard */
  double seconds;            /* campaign time used so far, over every run */
  FuzzCounts n;
  VEC(FuzzEntry) pool;
  VEC(FuzzGroup) groups;
  VEC(FuzzKnownMet) known_met; /* in the order met */
  StrSet seen;               /* features reached so far, of programs and pass sequences (not
                                saved: rebuilt from the pool) */
  FuzzFeedback feedback;     /* FB_AUTO until the first answer says whether there is coverage */
  FuzzEdges edges;           /* TVM's edges reached so far (coverage.edges) */
  size_t edges_total;        /* the build's edges, when the oracle says (0: unknown) */
} Campaign;

void campaign_init(Campaign *c, const char *dir);
void campaign_free(Campaign *c);
/* Adds from's counts to to's (rfuzz merge). */
void fuzz_counts_add(FuzzCounts *to, const FuzzCounts *from);
/* Reads DIR/campaign.json if there is one (*found says); false with a message on a bad file. */
bool campaign_load(Campaign *c, bool *found, char *err, size_t errlen);
/* Removes the temporary files a kill left in the campaign (NAME.tmpXXXXXX of an atomic write). */
void campaign_remove_stale_temps(const Campaign *c);
/* Writes campaign.json (temporary file, fsync, rename) and index.md (the groups, counts, first
   seen, sizes). */
bool campaign_save(const Campaign *c, char *err, size_t errlen);
/* The path of a file in the campaign (malloc'd). */
char *campaign_path(const Campaign *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Adds the features of a program (fuzz_features) and its pass sequence to c->seen; returns how
   many were new.  m may be NULL (a program that does not parse): its passes' features only. */
size_t campaign_note_features(Campaign *c, const AstModule *m, bool typed, const char *passes);
/* How many of those features c->seen lacks (nothing is added). */
size_t campaign_count_new_features(const Campaign *c, const AstModule *m, bool typed, const char *passes);
/* The group with this key, or NULL. */
FuzzGroup *campaign_group(Campaign *c, const char *key);
/* The group with this id (it must exist). */
FuzzGroup *campaign_group_by_id(Campaign *c, unsigned id);

/* ------------------------------------------------------------------ tvms (rfuzz.c) */
/* A reduced bug group's program asked of each TVM through `oracle` (the campaign's, started with
   that TVM on its path): g->tvm_verdicts, e.g. "v0.19.0: fails" or "v0.19.0: passes (fixed by
   v0.19.0)"; a release that cannot read the program is "not comparable", never fixed. */
void fuzz_tvm_verdicts(const Campaign *c, FuzzGroup *g, const Tvms *tvms, const char *oracle);

/* ------------------------------------------------------------------ issue.c */
/* groups/NNN/issue.md for a reduced bug group that is a root cause (merged into no other): a
   report ready to file: a title a maintainer would use, the TVM versions it fails on, where it
   fails (stage, pass), the error, the reduced program, the standalone Python repro (from rreduce's
   report), the groups merged into it.  False when it cannot be written. */
bool fuzz_write_issue(const Campaign *c, const FuzzGroup *g);

/* Whether g is a root cause with a report: a reduced bug group merged into no other (the groups
   fuzz_write_issue and the TVM verdicts are for). */
bool fuzz_is_root_bug(const FuzzGroup *g);

/* ------------------------------------------------------------------ triage.c */
/* The group key of a failure and its class: interestingness/outcome.h (fail_group_key,
   fail_classify), shared with roracle. */
/* A program's text up to what tells one instance of a cause from another: comments dropped,
   local and global names numbered by first use (@main kept), dtypes DT, every run of numbers
   (a shape, an attribute's list) N*, attributes written `=None` (unset) left out.  Two reduced programs with one skeleton that fail at one
   stage with one masked message are one root cause (malloc'd). */
char *fuzz_skeleton(const char *text);
/* key with every operator named in it that `text` (a reduced program) calls masked ("unknown
   intrinsic Op(tir.asin)" -> "Op(tir.<op>)", "registered for nn.layer_norm" -> "for <op>"), and
   the kind of Relay expression a Python error names ("<class 'tvm.relay.expr.<expr>'>"). Sibling
   operators met by one unchecked precondition share it (malloc'd). */
char *fuzz_family_key(const char *key, const char *text);
/* The unchecked precondition a reduced program (text) failing with key meets, in words a report
   can use, when its words and its program both show it; else NULL.  Known: QNN's constant scales
   and zero points. */
const char *fuzz_precondition(const char *key, const char *text);
/* Whether reduced groups g and h (their reduced.relay in c) show one root cause: one reduced key;
   or one program up to names, dtypes and shapes failing at one stage with one masked message (the
   innermost frame may differ: one precondition met through two callers); or, in one class, one
   key once the operators each program calls are masked (one precondition, sibling operators); or,
   in one class, one precondition by fuzz_precondition. */
bool fuzz_one_cause(const Campaign *c, const FuzzGroup *g, const FuzzGroup *h);
/* The group g is merged into, through every merge (g itself when it is merged into none). */
FuzzGroup *fuzz_root_group(const Campaign *c, FuzzGroup *g);
/* Asks the oracle (pool) for the key group g's reduced program fails with, under the group's own
   check and the reduced pipeline; sets g->reduced_key (and g->step). False when it did not fail,
   and why in why (whylen bytes; NULL, 0 when the caller does not say it). */
bool fuzz_reduced_key(const Campaign *c, FuzzGroup *g, ServerPool *pool, char *why, size_t whylen);
/* The check (args file text) that reproduces the failure as an interesting answer: the program's
   own check, plus --other-status 0 when the failure was in an earlier stage (malloc'd). */
char *fuzz_repro_args(const char *args, int status);
/* Reduces group g's first program with rreduce --server, at most `minutes`; sets g->status and
   g->reduced_bytes.  `rreduce` is the program's path, `oracle` the --oracle command. */
void fuzz_reduce_group(const Campaign *c, FuzzGroup *g, const char *rreduce, const char *oracle, double minutes,
                       volatile sig_atomic_t *stop);
/* The oracle command for one fixed check: --args-beside replaced by --args-from FILE (malloc'd),
   or NULL when the command has no --args-beside. */
char *fuzz_oracle_for_file(const char *oracle, const char *args_file);

/* ------------------------------------------------------------------ merge.c, key.c */
int fuzz_merge_main(int argc, char **argv);
int fuzz_key_main(int argc, char **argv);
int fuzz_plot_main(int argc, char **argv);
/* Draws the campaigns' coverage and groups into PREFIX.png and .svg (NULL: the first campaign's
   plot.png/.svg); 0, or 2 with the reason on stderr. */
int fuzz_plot(int n, char *const *campaigns, const char *prefix, const char *title);
bool fuzz_plot_available(void); /* gnuplot on PATH */

#endif
