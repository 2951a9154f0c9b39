/*
 * rreduce: type-directed reduction.  The driver (driver.c) knows no pass; every pass is one file
 * behind this interface (llvm-reduce's shape): it counts its opportunities in the current program
 * and builds the candidate for one of them.  Candidates are whole programs; the driver prints,
 * re-parses and type-checks each one (the guard) before the user's test sees it.
 *
 *   walk.c            AST helpers the passes share (uses of variables, renaming, copying by reparse)
 *   inputs.c          @main's input types: their sizes, resizing them, unknown dims after inference
 *   scope.c           scope-aware helpers for passes that move code (free names, beta, layout)
 *   pass_comments.c   drop the ty= and span= comments TVM writes
 *   pass_dce.c        delete unused bindings, parameters, globals and type definitions
 *   pass_truncate.c   make an intermediate value of @main its result
 *   pass_cut.c        turn a bound value of @main into a new parameter of @main (cut the graph)
 *   pass_body.c       replace the body of @main with a parameter of its result type
 *   pass_unwrap.c     make the body of a closure @main binds the body of @main
 *   pass_replace.c    replace an expression with a smaller one of the same type
 *   pass_inline.c     inline single-use bindings and closures called once
 *   pass_fold.c       fold `if` on a literal, collapse a `match` to one arm
 *   pass_globals.c    inline a call of a global function
 *   pass_fields.c     delete a field no projection reads from a bound tuple
 *   pass_meta.c       delete unused metadata constants (meta_json.c rewrites the node graph)
 *   pass_annot.c      drop return-type and let annotations the checker can infer
 *   pass_shapes.c     shrink @main's input shapes and dtypes
 *   pass_attrs.c      reset an operator call's attribute to its default
 *   pass_literals.c   shrink a numeric literal to 0 or 1
 */
#ifndef RELAYKIT_REDUCE_H
#define RELAYKIT_REDUCE_H

#include "../parser/ast.h"
#include "../support/scoped_names.h"
#include "../support/xalloc.h"
#include "../typegen/type.h"

typedef enum RedComments {
  RED_COMMENTS_ALL,      /* as parsed */
  RED_COMMENTS_USER,     /* without TVM's ty= and span= annotations */
  RED_COMMENTS_NONE,     /* none at all */
} RedComments;

/* The program a pass works on: parsed and typed (every AstNode.type and AstStmt.value_type set). */
typedef struct RedProgram {
  AstModule *m;
  TyTable *types;
  RedComments comments; /* which comments printing keeps */
} RedProgram;

typedef struct RedPass {
  const char *name;
  const char *description;
  /* How many candidates this pass can propose for p (0: none). */
  size_t (*count)(const RedProgram *p);
  /* Builds candidate i in `out`, a fresh copy of the program the pass may change freely.
     Returns false when opportunity i proposes nothing (the driver moves on).  A pass that returns
     false must not have changed `out`: the driver reuses it for the next opportunity rather than
     parsing and typing the program again. */
  bool (*apply)(RedProgram *out, size_t i);
} RedPass;

/* ------------------------------------------------------------------ program.c */
/* Parses and types a program (false with a message on failure: this is the guard). */
bool red_program_load(RedProgram *p, const char *text, char *err, size_t errlen);
void red_program_free(RedProgram *p);
/* Prints a program canonically, without TVM's annotations when `strip_annotations` and with the
   comments p->comments says; malloc'd. */
char *red_program_print(const RedProgram *p, bool strip_annotations);
/* A parsed and typed copy of p (false if p, as printed, does not type-check). */
bool red_program_copy(const RedProgram *p, RedProgram *copy);
/* For passes whose change can only be judged by the type checker (shrinking shapes, resetting
   attributes): `trial` is a changed copy of `out`; if it type-checks, it replaces `out` (freshly
   typed) and true is returned; otherwise `out` is left untouched.  Either way trial is consumed. */
bool red_program_adopt_if_typed(RedProgram *out, RedProgram *trial);

extern const RedPass red_pass_comments, red_pass_dce, red_pass_truncate, red_pass_cut, red_pass_body,
    red_pass_unwrap, red_pass_replace, red_pass_inline, red_pass_fold, red_pass_globals, red_pass_meta,
    red_pass_attrs, red_pass_literals, red_pass_annot, red_pass_shapes, red_pass_fields;
/* All of them, in the order rreduce runs them (passes.c). */
enum { RED_NPASSES = 16 };
extern const RedPass *const red_passes[RED_NPASSES];

/* ------------------------------------------------------------------ inputs.c */
typedef VEC(long long) RedSizes;
/* The distinct sizes (>= min) in the tensor types of f's parameters (tuples' fields too), largest
   first. */
void red_input_sizes(AstFunc *f, long long min, RedSizes *out);
/* Replaces every dimension `from` in f's parameter types by `to` (text in `arena`); returns the index
   of the first parameter changed, f->nparams when none was. */
size_t red_resize_inputs(AstFunc *f, Arena *arena, long long from, long long to);
/* The same in @main's inputs and also in every other type annotation of m (parameters, results,
   let binders, closures) and every integer attribute of a call equal to `from`: a size pinned by
   `newshape=[-1, 1024, 4, 4]`, a closure parameter's type or `units=1000` follows the inputs.
   Returns how many places beyond @main's inputs changed; *first (when given) is the first input
   changed, as red_resize_inputs returns it. */
size_t red_resize_everywhere(AstModule *m, long long from, long long to, size_t *first);
/* Every input size (>= 2) v with v * num divisible by den becomes v * num / den, all at once and
   everywhere as above: sizes tied by arithmetic (an LSTM's 512 gates of 128-wide state) keep their
   ratio.  *first is the first input changed (@main's nparams: none); returns the changes beyond. */
size_t red_scale_everywhere(AstModule *m, long long num, long long den, size_t *first);
/* Whether any typed expression of m has a `?` dimension: after the inputs changed, a shape that
   became impossible (a kernel larger than its input) shows up as one. */
bool red_has_unknown_dims(const AstModule *m);

/* ------------------------------------------------------------------ walk.c */
/* The @main definition, or NULL. */
AstDef *red_main(const AstModule *m);
/* @main's body when it is a sequence of bindings (what truncate, cut and unwrap work on), or NULL. */
AstExpr *red_main_seq(const AstModule *m);
/* The number of @main's top-level bindings: the opportunities of truncate, cut and unwrap. */
size_t red_count_main_stmts(const RedProgram *p);
/* Visits every sub-expression slot of e in pre-order (a node before its children, so largest
   first); `f` may replace what a slot holds (the walk then descends into the replacement). */
typedef void (*RedSlotFn)(AstExpr **slot, void *ctx);
void red_walk(AstExpr **slot, RedSlotFn f, void *ctx);
/* How many times a variable is referenced in e (kind AST_LOCAL or AST_GRAPH, name without sigil). */
size_t red_uses(const AstExpr *e, AstExprKind kind, const char *name);
/* The same over a whole module (every definition's body). */
size_t red_uses_in_module(const AstModule *m, AstExprKind kind, const char *name);
/* Replaces every reference to (kind, name) in *slot, the slot itself included, by `with` (shared). */
void red_replace_refs(AstExpr **slot, AstExprKind kind, const char *name, AstExpr *with);
/* The same on the tree a slot holds (the slot itself may be the reference). */
void red_substitute(AstExpr **slot, AstExprKind kind, const char *name, AstExpr *with);
/* Sites: the places a pass can change, found by walking every definition's body in order (then the
   body of an expression-mode file) in red_walk's order.  `at` says how many candidates node e
   offers; candidate i is then the `sub`-th of the node in `slot`, inside definition `def`. */
typedef size_t (*RedSitesFn)(const AstModule *m, const AstExpr *e);
typedef struct RedSite {
  AstExpr **slot;
  size_t sub;
  AstDef *def; /* NULL in an expression-mode file */
} RedSite;
size_t red_count_sites(const AstModule *m, RedSitesFn at);
bool red_find_site(AstModule *m, size_t i, RedSitesFn at, RedSite *site);
/* Calls whose callee is an operator name, in e. */
size_t red_count_calls(const AstExpr *e);
/* A name for a new parameter that no local of the module uses yet. */
const char *red_fresh_name(AstModule *m, const char *stem);

/* ------------------------------------------------------------------ scoped_walk.c */
/* A variable visible at an expression: a parameter, an earlier let or graph binding, an enclosing
   closure's parameter (pattern variables are not tracked). */
typedef struct ScopeVar {
  AstExprKind kind; /* AST_LOCAL or AST_GRAPH */
  const char *name;
  const Type *type;
} ScopeVar;
/* One expression of a scoped walk. */
typedef struct ScopedSite {
  AstExpr **slot;       /* *slot may be replaced (the walk then descends into the replacement) */
  AstDef *def;          /* the global function it is in */
  bool in_main;         /* in @main, not inside a function with attributes (a fused primitive) */
  bool is_callee;       /* the callee of a call, not a value */
  const ScopeVar *scope; /* the variables visible here, outermost first; valid during the call */
  size_t nscope;
  const ScopedNames *index; /* for red_scope_find */
} ScopedSite;
/* Returns true to stop the walk. */
typedef bool (*RedScopedFn)(const ScopedSite *site, void *ctx);
/* Visits every expression of every global function in pre-order (a callee before its arguments);
   returns whether `f` stopped it. */
bool red_scoped_walk(AstModule *m, RedScopedFn f, void *ctx);
/* The innermost variable in scope at the site named `name` (kind AST_LOCAL or AST_GRAPH), or NULL:
   what a use of that variable there refers to, in constant time. */
const ScopeVar *red_scope_find(const ScopedSite *site, AstExprKind kind, const char *name);

/* ------------------------------------------------------------------ scope.c */
/* Does e bind `name` anywhere (let, free_var, function parameter, pattern variable)? */
bool red_binds(const AstExpr *e, const char *name);
/* Does the pattern bind any variable? */
bool red_pattern_binds(const AstPattern *p);
/* Does the local `name` occur free in e (not under a binder of that name)? */
bool red_occurs_free(const AstExpr *e, const char *name);
/* Does `region` bind a name that occurs free in v (moving v into region could capture it)? */
bool red_captures(const AstExpr *region, const AstExpr *v);
/* A deep copy of e's expression nodes (binders, patterns, types and attributes are shared). */
AstExpr *red_copy_expr(AstModule *m, const AstExpr *e);
/* The call f(args) as `let` bindings of f's parameters to args followed by `body` (f's body, or a
   copy of it: it is changed).  A parameter whose name the caller (its parameters and `caller_body`)
   already uses or binds gets a fresh name.  NULL when that is unsound (the body binds it again). */
AstExpr *red_beta(AstModule *m, const AstFunc *caller, const AstExpr *caller_body, const AstFunc *f, AstExpr *body,
                  AstExpr *const *args);
/* After subtrees moved: parentheses around let chains used as values and non-name callees, braces
   around let chains in match arms and only there, chains ending in chains flattened. */
void red_fix_layout(AstModule *m);
/* Candidate i of a pass that edits sites: `ok` (may be NULL) checks site i in `out` untouched; `edit`
   changes it in a copy, whose layout is then fixed and which replaces `out` only if it type-checks. */
typedef bool (*RedSiteCheck)(const AstModule *m, const RedSite *site);
typedef bool (*RedSiteEdit)(AstModule *m, const RedSite *site);
bool red_edit_site(RedProgram *out, size_t i, RedSitesFn at, RedSiteCheck ok, RedSiteEdit edit);

#endif
