/*
 * The type-directed generator (the RFC's core): build programs by following the typing rules in
 * reverse.  Given a type and the variables in scope, pick a construct that can produce that type,
 * solve for the types of its parts, and recurse, with fuel that forces base cases.  Sits on the
 * operator registry's generators (typegen/ops/) and typegen/types/; its files include this
 * header, ../ops/ops.h, parser/ and support/.
 *
 * The files, each using only those above it (no two need each other):
 *   policy.c   the policy: constructs and their weights, op allow/deny lists, type limits,
 *              budgets (defaults, flags, JSON)
 *   forward.c  the forward policy's leaves, planned: which earlier value to adapt to the type
 *              wanted, and the chain of adapter calls (cast, reshape, strided_slice, tile, ...)
 *   gen.c      expressions: operator calls (through recognizers and solvers), lets, graph
 *              bindings that reuse earlier values, if, tuples and projections, closures, calls
 *              of helper globals (recursive and polymorphic ones too), ADT constructors and
 *              match, refs; gen_smallest (and the forward leaves it binds); the module generator
 *   limits.c   the type limits as a bound on every type of a program (gen.c and forward.c check
 *              each type they make; a typed program is checked whole)
 *   gencog.c   GenCoG's own definition of a vertex and of an operator's vertex space
 *   directed.c a run's memory of its vertices, edges and operator calls, which directs the choices
 *              of its next programs (policy->directed, GenCoG's expressivity-directed strategy)
 *   stats.c    operator histogram, vertex diversity (relaykit's and GenCoG's definitions), edge
 *              diversity, input dependence
 *   rgen.c     the rgen program
 */
#ifndef RELAYKIT_GEN_H
#define RELAYKIT_GEN_H

#include "../../parser/ast.h"
#include "../../support/xalloc.h"
#include "../ops/ops.h"

/* The constructs the generator chooses between, each with a weight in the policy. */
typedef enum GenConstruct {
  GEN_OP,        /* an operator call */
  GEN_REUSE,     /* an earlier value of the same type (a new graph edge) */
  GEN_LET,       /* let %x: T = ...; */
  GEN_IF,        /* if (bool) { ... } else { ... } */
  GEN_TUPLE,     /* a tuple, then a projection of it */
  GEN_CLOSURE,   /* fn (...) { ... } called at once or later */
  GEN_GLOBAL,    /* a call of a helper global function */
  GEN_RECURSION, /* a call of a recursive helper global (a counted loop) */
  GEN_POLY,      /* a call of a polymorphic global at this type */
  GEN_ADT,       /* a constructor, then a match that takes it apart */
  GEN_REF,       /* ref, ref_write, ref_read */
  GEN_SIDE_OP,   /* an operator call of any type, bound by a let, for coverage of every op */
  GEN_DYNAMIC,   /* a detour through a value whose sizes are `?` (dynamic.c) */
  GEN_NCONSTRUCTS
} GenConstruct;

typedef struct GenPolicy {
  OpGenPolicy types;                  /* shapes, dtypes, element budget */
  unsigned fuel;                      /* operator calls per program, roughly */
  unsigned weights[GEN_NCONSTRUCTS];
  const char **allow_ops;             /* if non-empty, only these operators */
  size_t nallow;
  const char **deny_ops;
  size_t ndeny;
  unsigned main_params_max;           /* @main takes 1..this many tensors */
  unsigned min_rank;                  /* the smallest rank of the random value types */
  bool float_only;                    /* random value types are floats (the policy's float dtypes) */
  int64_t flops_budget;               /* estimated FLOPs per program (0 = unlimited) */
  bool forward;                       /* GenCoG-style: tensor leaves derive from earlier values
                                         (@main's inputs first), not from zeros(...) or literals,
                                         which TVM folds away before codegen (forward.c) */
  bool directed;                      /* a run's programs are directed by what the run made before
                                         (directed.c): new vertices and edges first */
} GenPolicy;

/* The default policy: every construct, every operator, small tensors. */
void gen_policy_default(GenPolicy *p);
/* Whether the policy lets the generator draw `op` (it must also have generators; under `forward`,
   no dyn.* op: their shapes would be whatever an input holds). */
bool gen_policy_allows(const GenPolicy *p, const OpDef *op);
/* Overrides p's fields with those a JSON file sets:
   {"fuel": 32, "weights": {"op": 60, "if": 3, ...}, "allow_ops": [...], "deny_ops": [...],
    "max_rank": 4, "max_dim": 8, "max_elements": 4096, "flops_budget": 0,
    "float_dtypes": ["float32"], "int_dtypes": ["int32"], "main_params_max": 3,
    "min_rank": 0, "float_only": false, "forward": false, "directed": false, "uniform_shapes": false}
   Strings live in `arena`.  False with a message (FILE:LINE:COL for JSON errors). */
bool gen_policy_load(GenPolicy *p, const char *path, Arena *arena, char *err, size_t errlen);
/* Sets the weight of a construct by name ("op", "if", ...); false for an unknown name. */
bool gen_policy_set_weight(GenPolicy *p, const char *construct, long long w);
/* Checks limits and operator names. */
bool gen_policy_check(const GenPolicy *p, char *err, size_t errlen);

/* One generated call, for statistics. */
typedef struct GenCallRecord {
  const OpDef *op;
  const OpPlan *plan;   /* its argument types, attributes and result (during the call only) */
  char *signature;      /* argument types and attribute values, as text */
  const OpDef **producers; /* the operators that produced its arguments (NULL for none) */
  size_t nproducers;
} GenCallRecord;

/* Called for each call as it is generated; with rec NULL when the calls since the program began
   are void (gen_module makes a program again when one of its types is beyond the limits). */
typedef void (*GenCallHook)(void *ctx, const GenCallRecord *rec);

/* A call's "vertex type" for diversity: each argument's rank and dtype, and the attribute values
   the call sets (malloc'd).  Exact shapes are left out: they would make every call distinct. */
char *gen_call_signature(const OpDef *op, const OpPlan *plan);

/* GenCoG's own vertex diversity (gencog.c): a call's vertex as GenCoG tells vertices apart (the
   exact shapes of its inputs that are not parameters, the attributes GenCoG varies), malloc'd; and
   the size GenCoG's formula gives the op's vertex space.  NULL and 0 for an op outside the 21 of
   GenCoG's comparison. */
char *gen_gencog_vertex(const OpDef *op, const OpPlan *plan);
unsigned gen_gencog_space(const OpDef *op);

/* Statistics over a generated set (stats.c). */
typedef struct GenStats GenStats;
GenStats *gen_stats_new(const GenPolicy *policy);
void gen_stats_free(GenStats *s);
void gen_stats_hook(void *stats, const GenCallRecord *rec); /* a GenCallHook */
/* Records at most `calls` calls; gen_stats_full says when that many were seen. */
void gen_stats_limit(GenStats *s, unsigned long long calls);
bool gen_stats_full(const GenStats *s);
/* The op histogram, vertex diversity and edge diversity, as text (malloc'd).  Vertex diversity
   needs an estimate of each op's call space: distinct signatures in `samples` draws from the op's
   own sampler under the same policy. */
char *gen_stats_report(GenStats *s, unsigned samples, bool json);
/* Counts a generated module's operator calls in @main (adapters too) and those that depend on an
   input: a call depends on one when an argument mentions a parameter of @main or a variable whose
   definition does (transitively through earlier bindings).  The module is kept: the calls the
   hook saw while it was made count from now on. */
void gen_stats_module(GenStats *s, const AstModule *m);

/* ------------------------------------------------------------------ limits (limits.c) */
/* Whether every tensor in t (tuple fields, function parameters and results, a reference's value)
   keeps the limits: rank at most max_rank, each known size at most max_dim, at most max_elements
   elements (the known sizes' product). */
bool gen_type_fits(const OpGenPolicy *limits, const Type *t);
/* Raises the limits so that t fits: a type the caller gives (rgen --type, a seed's types for
   rmutate) is in bounds by definition, and nothing generated may be larger than it. */
void gen_limits_widen(OpGenPolicy *limits, const Type *t);
/* Whether the policy lets the generator call op within its limits: at least 16 of 256 draws of the
   op's sampler keep them (a 3-D convolution needs rank 5, a threefry key a size of 10; an op whose
   draws rarely fit is rarely called, and is not listed). */
bool gen_op_fits(const GenPolicy *policy, const OpDef *op);
/* The same for every type of a typed module. */
void gen_limits_widen_module(OpGenPolicy *limits, const AstModule *m);
/* The first tensor type in a typed module's types (its expressions', binders' and patterns',
   and the types inside them) that does not fit the limits, or NULL when all do. */
const Type *gen_module_misfit(const AstModule *m, const OpGenPolicy *limits);

/* ------------------------------------------------------------------ the library */
typedef struct GenVar {
  const char *name;         /* without '%' */
  const Type *type;
  const OpDef *producer;    /* the operator whose result it holds, or NULL */
  const OpDef **fields;     /* for a tuple literal: the producers of its fields (or NULL) */
  size_t nfields;
} GenVar;

typedef struct GenHelper {  /* a helper global already defined in the module */
  const char *name;
  const Type *type;         /* its function type */
  GenConstruct kind;
} GenHelper;

typedef VEC(AstStmt *) GenStmts;
typedef struct GenHistory GenHistory;
typedef VEC(GenVar) GenVars;
typedef VEC(GenHelper) GenHelpers;

/* Generation state for one module.  The reducer and the mutator make one with gen_init and
   call gen_expr / gen_smallest with their own scope. */
typedef struct Gen {
  const GenPolicy *policy;
  OpGenPolicy limits; /* every type made keeps these: the policy's, widened (gen_limits_widen)
                         to what the caller's types need (gen_init copies the policy's) */
  AstModule *m;
  TyTable *types;
  Rng rng;
  OpGen og;
  Arena scratch;            /* plans' attribute values */
  GenVars scope;            /* variables usable here, innermost last */
  GenStmts *block;          /* where bindings go: the statements of the body being built */
  GenHelpers helpers;
  VEC(struct GenOpUse { const OpDef *op; unsigned uses; }) op_uses; /* calls so far, per op */
  unsigned next_graph, next_local, next_global;
  bool adt_defined;
  int64_t flops;            /* estimated so far */
  GenCallHook hook;
  void *hook_ctx;
  GenHistory *history;   /* the run's, under policy->directed (NULL: each program on its own) */
  const OpDef *consumer; /* the operator whose argument is being generated, or NULL */
} Gen;

void gen_init(Gen *g, const GenPolicy *policy, AstModule *m, TyTable *types, Rng rng);
void gen_free(Gen *g);
/* A random expression of exactly type t, using the variables in g->scope, with about `fuel`
   operator calls; bindings it needs are appended to *g->block.  Never fails: when no construct
   fits, it falls back to gen_smallest. */
AstExpr *gen_expr(Gen *g, const Type *t, unsigned fuel);
/* A smallest expression of type t: a variable of that type in scope, a literal, zeros(...), a
   tuple of smallest parts, a base constructor, a trivial closure.  Under policy->forward a tensor
   is instead an earlier value adapted to t (gen_forward_plan) whenever one can be. */
AstExpr *gen_smallest(Gen *g, const Type *t);
/* The forward policy's leaf, planned (forward.c): the adapter from one of the most recent tensor
   variables in scope (in @main, its parameters until something is bound) to tensor type t, a
   chain of calls each checked with the op's relation.  False when no variable can be adapted
   (none in scope, t not a static tensor, the adapter ops denied, no block to bind into).
   gen_smallest binds the chain's calls. */
enum { GEN_ADAPTER_STEPS = 8 };
typedef struct GenAdapterStep {
  const OpDef *op;
  OpPlan plan;
} GenAdapterStep;
typedef struct GenAdapter {
  const GenVar *from;       /* the variable adapted */
  const Type *cur;          /* the type reached so far (t, once planned) */
  size_t n;
  GenAdapterStep steps[GEN_ADAPTER_STEPS];
} GenAdapter;
bool gen_forward_plan(Gen *g, const Type *t, GenAdapter *out);
/* An operator the generator uses as plumbing (the forward adapters, the dynamic detour's
   shape_of and dyn.*): found even when allow_ops leaves it out, NULL when deny_ops names it. */
const OpDef *gen_plumbing(const Gen *g, const char *name);
/* The dynamic detour, planned (dynamic.c): shape_of reads the sizes of a value of t's shape,
   dyn.reshape or dyn.broadcast_to gives a value of type t those sizes as `?` (type `any`),
   sometimes an op of the policy's is applied to it (on_dyn), and a broadcasting op of the policy's
   combines it with a value of type t, back to t (argument dyn_at is the `?` one). Each call is
   checked with its op's relation. False when t is not a static tensor of rank >= 1, the plumbing
   is denied or no combining op fits. gen_expr binds the calls. */
typedef struct GenDetour {
  const Type *any;
  const OpDef *shape_of, *dyn_op, *on_dyn, *combine_op;
  OpPlan shape, dyn, on_dyn_plan, combine;
  size_t dyn_at;
} GenDetour;
bool gen_dynamic_plan(Gen *g, const Type *t, GenDetour *out);
/* Whether gen_smallest (without policy->forward) builds an expression of exactly type t from
   constants alone: static tensors of a scalar dtype and tuples of them; unless values_only, also
   () and closures whose parameters are tensors or tuples of them.  (The reducer replaces any such expression; the mutator's `if`
   wants values in its branches.) */
bool gen_smallest_is_exact(const Type *t, bool values_only);
/* The type of the innermost variable called `name` in a scope, or NULL. */
const Type *gen_var_type(const GenVars *scope, const char *name);
/* The operators the policy allows (those with generators) whose recognizer accepts t, in registry
   order; at most max of them.  gen_expr draws its operator calls from these. */
size_t gen_ops_for(Gen *g, const Type *t, const OpDef **out, size_t max);
/* The call a plan (from op->solve or op->sample on &g->og) describes, unbound: argument i is
   given[i] when given and given[i] are non-NULL (the caller vouches for its type), else a generated
   atom of type plan->args[i] with a share of `fuel`, its bindings appended to *g->block.  Counted
   like every generated call (statistics hook, per-op uses, FLOPs).  The mutator's op swap uses it. */
AstExpr *gen_plan_call(Gen *g, const OpDef *op, const OpPlan *plan, AstExpr *const *given, unsigned fuel);
/* A random type the generator can produce (a tensor within the policy, sometimes a tuple). */
const Type *gen_random_type(Gen *g);

/* Generates program number `index` of a run with `seed`: a module whose @main returns `ret`
   (a random type when NULL).  The same (seed, index) always gives the same program.  It
   type-checks and every type in it keeps the policy's limits (widened to `ret`): a program that
   does not is made again from another stream of (seed, index).  The module is owned by the
   caller (ast_free); NULL with err set for a `ret` that is not a type it can make. */
AstModule *gen_module(const GenPolicy *policy, uint64_t seed, uint64_t index, const char *ret_type_text,
                      GenCallHook hook, void *hook_ctx, char *err, size_t errlen);
/* The same as program `index` of a run that remembers what it made (policy->directed): programs
   0..index-1 must have been made with the same history, in order; the program kept is added to
   it.  history NULL is gen_module. */
AstModule *gen_module_in_run(const GenPolicy *policy, GenHistory *history, uint64_t seed, uint64_t index,
                             const char *ret_type_text, GenCallHook hook, void *hook_ctx, char *err,
                             size_t errlen);

/* ------------------------------------------------------------------ directed generation (directed.c) */
GenHistory *gen_history_new(void);
void gen_history_free(GenHistory *h);
/* Whether a call the generator is about to make is worth making: its vertex is new to the run, it
   makes a producer -> consumer pair the run lacks, or by a small chance (drawn from g's stream);
   true without a history.  A call it keeps is noted as the program's. */
bool gen_history_novel(Gen *g, const OpDef *op, const OpPlan *plan);
/* An operator's weight among those that can make a type: 1 / (1 + its calls in this program), and
   with a history, its calls in the run too and a reward for a new pair with g->consumer. */
double gen_history_weight(Gen *g, const OpDef *op, unsigned program_uses);
/* Counts a call of op in the program being made. */
void gen_history_called(Gen *g, const OpDef *op);
/* The program being made is kept (its vertices, pairs and calls join the run's) or discarded. */
void gen_history_commit(GenHistory *h);
void gen_history_discard(GenHistory *h);

#endif
