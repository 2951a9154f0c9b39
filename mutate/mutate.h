/*
 * rmutate: well-typed mutants of a real program.  Each mutator is one file behind this interface:
 * given a parsed and typed program (every AstExpr has node.type) and a random stream, it changes
 * the program in place so that it still type-checks (the driver checks every mutant with the
 * type checker before writing it) and records what it did.
 *
 *   mutators.def      every mutator, one line each: name, function, default weight, description
 *   mutators.c        the table built from it (mut_mutators), and lookup by name
 *   sites.c           the expressions a mutator may pick, with the variables in scope at each
 *   edit.c            editing helpers the insert, share and crossover mutators share (edit.h)
 *   expr_type.c       an expression's type at a site, inferred or its variable's (expr_type.h)
 *   mut_NAME.c        one mutator each; mutators.def lists them, with what each does
 *   illtyped.c        --ill-typed: one controlled type error, with the error the checker gives
 *   driver.c          mutant k of a run, from the seed loaded once: pick mutators by weight,
 *                     apply, print, guard, describe (driver.h)
 *   origins.c         where a chain's nodes were in the seed, through each step's printing
 *                     (origins.h)
 *   rmutate.c         the command line: runs, deduplication, manifest, --git, --oracle
 */
#ifndef RELAYKIT_MUTATE_H
#define RELAYKIT_MUTATE_H

#include "../parser/ast.h"
#include "../program/program.h"
#include "../support/rng.h"
#include "../support/strbuf.h"
#include "../typegen/gen/gen.h"

/* A donor program for crossover (parsed and typed). */
typedef struct MutDonor {
  Program prog;
  const char *name;
} MutDonor;

typedef struct MutContext {
  AstModule *m;              /* the program, parsed and typed; mutated in place */
  TyTable *types;
  Rng *rng;
  const GenPolicy *policy;   /* for generated parts */
  const OpGenPolicy *limits; /* every type of a mutant keeps these: the policy's, widened to the
                                seed's own types (no tensor larger than the policy or the seed allow) */
  unsigned fuel;             /* operator calls per generated part, roughly */
  const MutDonor *donors;    /* --donor programs (may be none) */
  size_t ndonors;
  const char *seed_name;     /* the seed's file name, for span comments */
  unsigned step;             /* the chain's step (--depth): from 1 on, earlier steps' changes stand */
  /* filled by the mutator */
  StrBuf *what;              /* one line: what it did ("nn.relu -> tanh at 12:5") */
  AstSpan where;             /* the changed node's position in the program it mutated */
  AstNode *marked;           /* the new node, which gets a span comment back to `where` */
} MutContext;

/* One line of mutators.def. */
typedef struct Mutator {
  const char *name;
  const char *description;
  unsigned weight;           /* its default share of the draws */
  /* Mutates c->m; false when it found nothing to do (the driver tries another mutator).  A
     mutator that returns false must leave the program unchanged. */
  bool (*apply)(MutContext *c);
} Mutator;

/* ------------------------------------------------------------------ mutators.c, mutators.def */
/* Each mutator's function, defined in its file. */
#define MUTATOR(name, function, weight, description) bool function(MutContext *c);
#include "mutators.def"
#undef MUTATOR

enum {
  MUT_NMUTATORS = 0
#define MUTATOR(name, function, weight, description) +1
#include "mutators.def"
#undef MUTATOR
};
/* All of them, in mutators.def's order. */
extern const Mutator mut_mutators[MUT_NMUTATORS];
/* The mutator called `name`, or NULL. */
const Mutator *mut_find(const char *name);

/* ------------------------------------------------------------------ sites.c */
typedef struct MutSite {
  AstExpr **slot;            /* the expression's place: *slot may be replaced */
  AstDef *def;               /* the global function it is in */
  bool in_main;              /* in @main, not inside a function with attributes (a fused primitive) */
  const Type *type;          /* the value's type: the inferred one, or an `if`'s or a `match`'s, which
                                TVM does not annotate (so inference leaves AstNode.type unset) */
} MutSite;
typedef VEC(MutSite) MutSites;

/* Every typed expression of every global function, in pre-order (callees excluded); an `if` or a
   `match` is typed by the value of its branches. */
void mut_sites(AstModule *m, MutSites *out);
/* The sites of c's program a mutator may change: mut_sites, less (from step 1 on) those that hold
   an earlier step's change (a node marked `rmutate-step-N`, or a subtree around one), so that each
   change of a chain stays in the mutant, located and spanned. */
void mut_sites_to_change(MutContext *c, MutSites *out);
/* Whether the site's expression is an earlier step's change or holds one (mut_sites_to_change). */
bool mut_node_marked(const AstNode *n);
/* A random site that satisfies `want` (NULL: any); NULL when none does. */
const MutSite *mut_pick(MutContext *c, const MutSites *sites, bool (*want)(const MutSite *s, void *ctx), void *ctx);
/* The variables in scope at a site (parameters, earlier lets and graph bindings, enclosing
   closures' parameters), outermost first, as the generator's scope entries. */
void mut_scope_at(AstModule *m, const MutSite *site, GenVars *out);
/* A generator over c's program, its scope the variables at `site` (gen_free it).  Fresh names
   do not collide with the program's (graph numbers continue after the largest). */
void mut_gen_at(MutContext *c, const MutSite *site, Gen *g, GenStmts *block);
/* Puts e at the site, preceded by the bindings in `block` (as a parenthesised sequence). */
void mut_place(MutContext *c, const MutSite *site, AstExpr *e, GenStmts *block);
/* Records the change: what (printf-style), where (the old node's span), and marks the new node. */
void mut_note(MutContext *c, const AstNode *old, AstNode *now, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
