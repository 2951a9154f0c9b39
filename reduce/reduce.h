/*
 * rreduce: type-directed reduction.  The driver knows no pass; every pass is one file behind this
 * interface (llvm-reduce's shape): it counts its opportunities in the current program and builds
 * the candidate for a chunk of them.  Candidates are whole programs; the driver prints, re-parses
 * and type-checks each one (the guard) before the user's test sees it.
 *
 *   rreduce.c         the command line: options, the input's load, the run, the summary
 *   driver.c          passes to a fixpoint, each one loop over its sweep; -j, the input's test (driver.h)
 *   sweep.c           the search over a pass's opportunities as a value: one by one, chunks,
 *                     bisection, and what comes next after either verdict (sweep.h)
 *   candidate.c       one candidate's life: built, guarded, tested or cached, accepted; the tests
 *                     started ahead for what follows a pass (reducer.h: the driver's own state)
 *   passes.def        the table of passes, in the order rreduce runs them; passes.c its array
 *   pass_NAME.c       one pass each (what each does: its description, `rreduce --list-passes`)
 *   sites.c           the places a pass can change, numbered in prog_walk's order; @main's bindings
 *   move.c            moving code: beta-reduction, the layout the printer needs after a move
 *   meta_json.c       rewriting TVM's #[metadata] node graph (pass_meta; pass_shapes resizes constants)
 *   history.c         --history: every accepted step as a git commit
 *   report.c          --report: the markdown bug report
 *   keys.c            keys on a terminal: `s` skips the rest of the current pass
 *
 * May include: program/, typegen/, parser/, interestingness/ (the oracle), support/; never mutate/
 * or campaign/.
 */
#ifndef RELAYKIT_REDUCE_H
#define RELAYKIT_REDUCE_H

#include "../program/program.h"
#include "../support/strset.h"
#include "pipeline.h"

/* How the driver searches a pass's opportunities.  Passes only count and apply; the driver decides
   which opportunities one candidate applies (llvm-reduce's shape), so the number of tests grows
   with log(N), not N, where the opportunities allow it. */
typedef enum RedSearch {
  RED_ONE_BY_ONE = 0, /* one candidate per opportunity, in order */
  /* Opportunities that can be applied together: a candidate applies a chunk of them to one clone,
     the highest index first (so a pass must not renumber the opportunities below the one it
     applies).  The driver tries all of them at once, then halves, quarters, ... then one by one
     (delta debugging): N opportunities that all succeed cost one test. */
  RED_CHUNKS,
  /* Opportunities ordered smallest program first, where the interesting ones usually form a
     suffix (truncating after the crashing value keeps it; truncating before loses it): the driver
     bisects for the first interesting one, log2(N) tests. */
  RED_FIRST,
} RedSearch;

typedef struct RedPass {
  const char *name;
  const char *description;
  /* How many candidates this pass can propose for p (0: none). */
  size_t (*count)(const Program *p);
  /* Builds candidate i in `out`: the driver's own copy of the current program (prog_clone), which
     the pass may change freely.  Returns false when opportunity i proposes nothing; the driver then
     discards `out`, so a pass never undoes anything.  The driver prints the candidate, parses and
     type-checks it again (the guard) before any test sees it, so a pass need not check its own
     candidates; a pass that needs the checker to decide what to propose says so in its file. */
  bool (*apply)(Program *out, size_t i);
  RedSearch search;
  /* Optional, RED_CHUNKS only: applies opportunities [lo, hi) in one go, the same program as
     applying hi-1, ..., lo in turn, in time linear in the program (a chunk of thousands of cuts
     one by one would walk the program once per cut).  True when anything changed. */
  bool (*apply_range)(Program *out, size_t lo, size_t hi);
  /* A pipeline pass (pass_pipe.c) counts and applies on the pipeline the test runs (pipeline.h)
     instead of on the program: count and apply are NULL, and the program stays as it is. */
  size_t (*count_pipeline)(const RedPipeline *p);
  bool (*apply_pipeline)(RedPipeline *out, size_t lo, size_t hi);
} RedPass;

/* Every pass (passes.def): red_pass_NAME, and all of them in the order rreduce runs them. */
#define RED_PASS(name) extern const RedPass red_pass_##name;
#include "passes.def"
#undef RED_PASS
enum {
  RED_NPASSES = 0
#define RED_PASS(name) +1
#include "passes.def"
#undef RED_PASS
};
extern const RedPass *const red_passes[RED_NPASSES];

/* ------------------------------------------------------------------ sites.c */
/* The number of @main's top-level bindings: the opportunities of truncate. */
size_t red_count_main_stmts(const Program *p);
/* References to variables counted by name, locals and graph values apart (zeroed: empty).  A walk
   with red_count_ref counts every reference under a node; dce and cut ask how often a binding is
   read without rescanning the program per binding. */
typedef struct RedRefs {
  StrCounts locals, graph;
} RedRefs;
void red_count_ref(AstExpr **slot, void *refs); /* a ProgSlotFn */
void red_refs_free(RedRefs *r);

/* f's parameters that its body reads, in order (malloc'd; *n of them).  Passes that change
   parameters (shapes, params) leave the others alone: dce deletes them next, so any work on them
   would be a test spent on code about to go. */
AstBinder **red_live_params(const AstFunc *f, size_t *n);
/* What a value of type t costs as a parameter of @main beyond its name: the nodes of its
   annotation (a tensor: itself, its dims, its dtype; a tuple: itself and its fields).  replace's
   cut to a new parameter and unparam count it, so neither undoes the other. */
size_t red_type_cost(const Type *t);
/* Removes parameter b (one of f's) from f's parameter list. */
void red_drop_param(AstFunc *f, const AstBinder *b);
/* Sites: the places a pass can change, found by walking every definition's body in order (then the
   body of an expression-mode file) in prog_walk's order.  `at` says how many candidates node e
   offers; candidate i is then the `sub`-th of the node in `slot`, inside definition `def`. */
typedef size_t (*RedSitesFn)(const AstModule *m, const AstExpr *e);
typedef struct RedSite {
  AstExpr **slot;
  size_t sub;
  AstDef *def; /* NULL in an expression-mode file */
} RedSite;
size_t red_count_sites(const AstModule *m, RedSitesFn at);
bool red_find_site(AstModule *m, size_t i, RedSitesFn at, RedSite *site);

/* ------------------------------------------------------------------ move.c */
/* The call f(args) as `let` bindings of f's parameters to args followed by `body` (f's body, or a
   copy of it: it is changed).  A parameter whose name the caller (its parameters and `caller_body`)
   already uses or binds gets a fresh name.  NULL when that is unsound (the body binds it again). */
AstExpr *red_beta(AstModule *m, const AstFunc *caller, const AstExpr *caller_body, const AstFunc *f, AstExpr *body,
                  AstExpr *const *args);
/* After subtrees moved: parentheses around let chains used as values and non-name callees, braces
   around let chains in match arms and only there, chains ending in chains flattened. */
void red_fix_layout(AstModule *m);
/* Candidate i of a pass that edits sites: `ok` (may be NULL) says whether site i is worth editing;
   `edit` changes it in `out`, whose layout is then fixed.  False when there is no such site, or
   `ok` or `edit` said no. */
typedef bool (*RedSiteCheck)(const AstModule *m, const RedSite *site);
typedef bool (*RedSiteEdit)(AstModule *m, const RedSite *site);
bool red_edit_site(Program *out, size_t i, RedSitesFn at, RedSiteCheck ok, RedSiteEdit edit);

#endif
