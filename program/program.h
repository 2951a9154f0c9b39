/*
 * The typed program both tools work on, and the ways to walk it.  rreduce (reduce/) and rmutate
 * (mutate/) are siblings above this layer: each includes this header, neither includes the other.
 * Prefix: prog_.
 *
 *   program.c      Program: parse + type (one wrapper around check_text), or parse + scope for
 *                  programs that do not type-check; print, copy, clone
 *   walk.c         walks over every sub-expression slot (ast_children's order), uses of a variable,
 *                  substitution, operator-call counts, @main
 *   scoped_walk.c  the walk that knows which variables are in scope at each expression
 *   names.c        what a tree binds and where a name occurs free (moving code without capture),
 *                  fresh names
 *   inputs.c       @main's input types: their sizes, resizing them, unknown dims after inference
 *   comments.c     TVM's annotations (`/ * ty=T span=S * /`) and the user's comments as edits of the
 *                  tree: dropping a kind, stale ty= comments, what a block's changed result leaves
 */
#ifndef RELAYKIT_PROGRAM_H
#define RELAYKIT_PROGRAM_H

#include "../parser/ast.h"
#include "../support/diag.h"
#include "../support/scoped_names.h"
#include "../support/xalloc.h"
#include "../typegen/types/types.h"

/* ------------------------------------------------------------------ program.c */
typedef enum ProgComments {
  PROG_COMMENTS_ALL,      /* as parsed */
  PROG_COMMENTS_USER,     /* without TVM's ty= and span= annotations */
  PROG_COMMENTS_NONE,     /* none at all */
} ProgComments;

/* What a program is checked for, strongest first: the guard a candidate must pass is the one its
   input passed (a type checker's bug report or an --ill-typed mutant does not type-check; an
   unbound name is an --ill-typed mutant too). */
typedef enum ProgGuard {
  PROG_TYPED,            /* parses and type-checks (check_text) */
  PROG_SCOPED,           /* parses and every name is bound (scope_check_module) */
  PROG_PARSED,           /* parses */
} ProgGuard;

/* A parsed and typed program: every AstNode.type, AstStmt.value_type and AstFunc.type set
   (unless guard says it does not type-check). */
typedef struct Program {
  AstModule *m;
  TyTable *types;
  bool shared_types;     /* `types` belongs to another Program (a clone): prog_free leaves it */
  ProgComments comments; /* which comments printing keeps */
  ProgGuard guard;       /* the strongest check it passes (prog_load_as); below PROG_TYPED only
                            the types inference reached before its first error are set */
} Program;

/* Parses and types `text` as check_text does (a bare expression is only scope-checked, and only
   accepted when expressions_ok).  On failure the checker's first message, located in `name`, is in
   `diag` (which the caller initialised), and p is empty. */
bool prog_check(Program *p, const char *text, bool expressions_ok, Diag *diag);
/* The same with the message copied into err (the source line and caret included). */
bool prog_load(Program *p, const char *name, const char *text, bool expressions_ok, char *err, size_t errlen);
/* prog_load, saying in *parsed whether the text parsed at all (see check_text_parsed). */
bool prog_load_parsed(Program *p, const char *name, const char *text, bool expressions_ok, char *err, size_t errlen,
                      bool *parsed);
/* Loads text if it passes `weakest` or a stronger guard, and records the strongest in p->guard.
   Below PROG_TYPED, types are set where inference got before its first error and are complete;
   every other type is NULL, so passes that need a type skip what has none.  On failure err gets
   the message of the weakest guard's check (the syntax error when the text does not parse: it is
   parsed once then). */
bool prog_load_as(Program *p, const char *name, const char *text, ProgGuard weakest, char *err, size_t errlen);
/* prog_load_as, saying in *parsed whether the text parsed at all: a caller that tells a syntax
   error from a refusal of the checker need not parse again. */
bool prog_load_as_parsed(Program *p, const char *name, const char *text, ProgGuard weakest, char *err, size_t errlen,
                         bool *parsed);
void prog_free(Program *p);
/* Whether t has no unknown left in it (inference may stop before solving some). */
bool prog_type_complete(const Type *t);
/* Prints a program canonically with the comments p->comments says; malloc'd.  With
   `strip_annotations`, TVM's ty= comments go and each node's span stays (`/ * span=S * /`, as the
   input wrote it).  A block's annotations that no longer describe its result are left out
   (prog_stale_block_comments). */
char *prog_print(const Program *p, bool strip_annotations);
/* A freshly parsed and typed copy of p as printed (false if that does not type-check). */
bool prog_copy(const Program *p, Program *copy);
/* A deep copy of p's tree that shares p's types (ast_module_clone): no printing, parsing or
   inference.  p must outlive the clone; new types made in the clone go into p's table. */
void prog_clone(const Program *p, Program *clone);

/* ------------------------------------------------------------------ walk.c */
/* The @main definition, or NULL. */
AstDef *prog_main(const AstModule *m);
/* @main's body when it is a sequence of bindings, or NULL. */
AstExpr *prog_main_seq(const AstModule *m);
/* Visits every sub-expression slot of e in pre-order (a node before its children, so largest
   first; children in ast_children's order); `f` may replace what a slot holds (the walk then
   descends into the replacement). */
typedef void (*ProgSlotFn)(AstExpr **slot, void *ctx);
void prog_walk(AstExpr **slot, ProgSlotFn f, void *ctx);
/* prog_walk over every definition's body, then the body of an expression-mode file, in order. */
void prog_walk_module(AstModule *m, ProgSlotFn f, void *ctx);
/* How many times a variable is referenced in e (kind AST_LOCAL or AST_GRAPH, name without sigil). */
size_t prog_uses(const AstExpr *e, AstExprKind kind, const char *name);
/* The same over a whole module (every definition's body). */
size_t prog_uses_in_module(const AstModule *m, AstExprKind kind, const char *name);
/* Replaces every reference to (kind, name) in the tree *slot holds, the slot itself included, by
   `with` (shared, not copied). */
void prog_substitute(AstExpr **slot, AstExprKind kind, const char *name, AstExpr *with);
/* Calls whose callee is an operator name, in every definition's body of m. */
size_t prog_count_calls_in_module(const AstModule *m);
/* Whether e calls an operator whose name starts with `prefix` ("shape_of", "dyn."). */
bool prog_calls_op(const AstExpr *e, const char *prefix);

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
  const ScopedNames *index; /* for prog_scope_find */
} ScopedSite;
/* Returns true to stop the walk. */
typedef bool (*ProgScopedFn)(const ScopedSite *site, void *ctx);
/* Visits every expression of every global function in pre-order (a callee before its arguments,
   a sequence's bindings before its result); returns whether `f` stopped it. */
bool prog_scoped_walk(AstModule *m, ProgScopedFn f, void *ctx);
/* The innermost variable in scope at the site named `name` (kind AST_LOCAL or AST_GRAPH), or NULL:
   what a use of that variable there refers to, in constant time. */
const ScopeVar *prog_scope_find(const ScopedSite *site, AstExprKind kind, const char *name);

/* ------------------------------------------------------------------ names.c */
/* Does e bind `name` anywhere (let, free_var, function parameter, pattern variable)? */
bool prog_binds(const AstExpr *e, const char *name);
/* Does the local `name` occur free in e (not under a binder of that name)? */
bool prog_occurs_free(const AstExpr *e, const char *name);
/* Does `region` bind a name that occurs free in v (moving v into region could capture it)? */
bool prog_captures(const AstExpr *region, const AstExpr *v);
/* Whether a global function of m uses `name` as a local, a parameter or a binder. */
bool prog_name_taken(const AstModule *m, const char *name);
/* A fresh local name, `stem` then a number, that m neither uses nor binds (prog_name_taken). */
const char *prog_fresh_name(AstModule *m, const char *stem);
/* n fresh names at once, the ones n calls of prog_fresh_name would give were each name used in
   turn; one walk of m. */
void prog_fresh_names(AstModule *m, const char *stem, size_t n, const char **out);

/* ------------------------------------------------------------------ inputs.c */
typedef VEC(long long) ProgSizes;
/* The distinct sizes (>= min) in the tensor types of f's parameters (tuples' fields too), largest
   first. */
void prog_input_sizes(AstFunc *f, long long min, ProgSizes *out);
/* Replaces every dimension `from` in f's parameter types by `to` (text in `arena`); returns the index
   of the first parameter changed, f->nparams when none was. */
size_t prog_resize_inputs(AstFunc *f, Arena *arena, long long from, long long to);
/* The same in @main's inputs and also in every other type annotation of m (parameters, results,
   let binders, closures) and every integer attribute of a call equal to `from`: a size pinned by
   `newshape=[-1, 1024, 4, 4]`, a closure parameter's type or `units=1000` follows the inputs.
   Returns how many places beyond @main's inputs changed; *first (when given) is the first input
   changed, as prog_resize_inputs returns it. */
size_t prog_resize_everywhere(AstModule *m, long long from, long long to, size_t *first);
/* Every input size (>= 2) v with v * num divisible by den becomes v * num / den, all at once and
   everywhere as above: sizes tied by arithmetic (an LSTM's 512 gates of 128-wide state) keep their
   ratio.  *first is the first input changed (@main's nparams: none); returns the changes beyond. */
size_t prog_scale_everywhere(AstModule *m, long long num, long long den, size_t *first);
/* Whether any typed expression of m has a `?` dimension: after the inputs changed, a shape that
   became impossible (a kernel larger than its input) shows up as one. */
bool prog_has_unknown_dims(const AstModule *m);

/* ------------------------------------------------------------------ comments.c */
/* What a comment is: TVM writes one after a node, `/ * ty=T span=S * /` (either part may be
   missing); every other comment is the user's (license headers, notes). */
typedef enum ProgNotes {
  PROG_NOTE_TYPES = 1, /* the ty= parts */
  PROG_NOTE_SPANS = 2, /* the span= parts */
  PROG_NOTE_USER = 4,  /* every other comment, the file's leading ones too */
} ProgNotes;
/* Drops from every comment of m what `what` (ProgNotes) says; a `ty=T span=S` comment keeps its
   other part byte for byte (`/ * span=S * /` or `/ * ty=T * /`).  An unknown operator's call keeps
   its ty= part: nothing else types it.  Returns how many comments changed. */
size_t prog_drop_comments(AstModule *m, unsigned what);
/* How many comments prog_drop_comments would change. */
size_t prog_count_comments(const AstModule *m, unsigned what);
/* The ty= comments whose type is not their node's inferred type (TVM's spelling, ty_str), after a
   change made it another; with `fix`, each is rewritten to the node's type when that is no longer,
   else loses its ty= part; its span stays.  Nodes without a known type, or whose type has type
   parameters, are not judged. */
size_t prog_stale_type_comments(AstModule *m, bool fix);
/* A block's (AST_SEQ's) ty= and span= comments are its result's: TVM writes them after the result,
   and read back they attach to the block, which ends there too.  Once a change put another result
   there, they describe a node that is gone: counts them, and drops them with `fix` (the user's
   comments stay). */
size_t prog_stale_block_comments(AstModule *m, bool fix);
/* Before a change dissolves block `seq` and keeps its result (a closure's body spliced into
   another block): the block's comments, which are its result's, move onto the result node. */
void prog_block_notes_to_result(AstExpr *seq);

#endif
