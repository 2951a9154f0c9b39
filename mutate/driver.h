/* Mutant k of a run: a function of (seed, --seed, k) only, so runs are reproducible and any -j
   gives the same files. */
#ifndef RELAYKIT_MUTATE_DRIVER_H
#define RELAYKIT_MUTATE_DRIVER_H

#include <signal.h>

#include "mutate.h"

typedef struct MutOptions {
  uint64_t seed;
  unsigned depth;                   /* mutations per mutant (a chain) */
  unsigned weights[MUT_NMUTATORS];  /* each mutator's share of the draws (mut_mutators' order); 0: unused */
  const GenPolicy *policy;
  unsigned fuel;
  const MutDonor *donors;
  size_t ndonors;
  bool ill_typed;                   /* one controlled type error instead (illtyped.c) */
  const char *seed_name;            /* the seed's file name */
  /* Optional: set by a signal; the mutant in progress is given up (mut_make fails) at the next
     try instead of being retried against checks the signal cancels. */
  volatile sig_atomic_t *stop;
} MutOptions;

/* The parser's nesting limit (AST_MAX_DEPTH in parser/lower.h, the parser's own header): a mutant
   nested deeper is refused before it is printed.  test_mutate_a.c checks that the two agree. */
enum { MUT_PARSER_DEPTH = 2000 };
/* Whether m, printed and read back, is surely nested past that limit (a lower bound on the
   parser's count, so that no mutant the parser would read is refused). */
bool mut_module_too_deep(const AstModule *m);

/* What rmutate and rfuzz start from: seed 1, one mutation a mutant, fuel 3, every mutator at its
   default weight. */
void mut_options_init(MutOptions *o);

typedef struct MutStep {
  const char *mutator;
  char *what;
  unsigned seed_line, seed_col;     /* where the changed node was in the seed (for a node an earlier
                                       step made: where that step's change was) */
  unsigned parent_line, parent_col; /* where, in the program this step mutated (the seed, or the
                                       previous step's mutant) */
  unsigned line, col;               /* where the change is in the final mutant (0: not found) */
} MutStep;

typedef struct MutResult {
  char *text;                       /* the mutant, printed as TVM prints (types annotated) */
  /* The mutant as the type checker left it: `text` is its printing with the inferred types.  Empty
     (m NULL) for an --ill-typed mutant, which does not type-check, and for a result rmutate reads
     back from a worker. */
  Program program;
  MutStep *steps;
  size_t nsteps;
  char *expected_error;             /* --ill-typed: the checker's message */
} MutResult;

void mut_result_free(MutResult *r);

/* Builds mutant (index, attempt) of `seed`, which the caller parsed and typed (prog_load) and keeps
   alive.  Each try starts from a clone of it (prog_clone), whose types are the seed's: mutators may
   add types to that table, nothing frees it here.  false when no mutator could change the program
   (err says). */
bool mut_make(const Program *seed, const MutOptions *o, uint64_t index, uint64_t attempt, MutResult *out, char *err,
              size_t errlen);

/* ------------------------------------------------------------------ illtyped.c */
/* One controlled type error in c's program; *expected gets what it breaks, for the manifest's
   description (the checker's own message is recorded by the driver).  false: none applicable. */
bool mut_ill_typed(MutContext *c);

#endif
