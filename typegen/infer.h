/*
 * Type inference over a whole module, as TVM's InferType does it: every expression, binder and
 * pattern variable gets a type (AstNode.type), or the first error is reported at its location.
 *
 *   infer.c     expressions, bindings, functions, globals, calls of operators
 *   unify.c     incomplete types and their solutions
 *   adt.c       type definitions, constructors, patterns, exhaustiveness
 *   metadata.c  the types of meta[relay.Constant][i] from the #[metadata] section
 */
#ifndef RELAYKIT_INFER_H
#define RELAYKIT_INFER_H

#include "../parser/ast.h"
#include "type.h"

/* Infers the types of `m`.  Types are made in `types`.  Returns false after reporting the first
   error to `diag` (FILE:LINE:COL of the offending expression). */
bool infer_module(AstModule *m, TyTable *types, Diag *diag);

/* What TVM checks of a parsed expression (expression mode runs no InferType): variables bound
   in scope, names and meta references that resolve (scope.c).  False after reporting. */
bool scope_check_module(const AstModule *m, Diag *diag);

/* Parses `text` and checks it as TVM's parser does: a module is type-checked (types made in a new
   table), a bare expression only scope-checked, or refused when !expressions_ok (the reducer and
   the mutator need a typed @main).  On failure *m and *types are NULL and diag holds the first
   error (check_text.c). */
bool check_text(const char *text, size_t len, bool expressions_ok, AstModule **m, TyTable **types, Diag *diag);
/* The same; *parsed (if not NULL) says whether the text parsed, so a caller with a weaker check
   in reserve does not parse a text that cannot parse a second time (100 MB of garbage: minutes). */
bool check_text_parsed(const char *text, size_t len, bool expressions_ok, AstModule **m, TyTable **types, Diag *diag,
                       bool *parsed);

#endif
