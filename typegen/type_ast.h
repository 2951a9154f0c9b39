/* Types written in the program (AstType) to interned types. */
#ifndef RELAYKIT_TYPE_AST_H
#define RELAYKIT_TYPE_AST_H

#include "../parser/ast.h"
#include "type.h"

/* The type names in scope: type parameters of the enclosing functions (innermost last). */
typedef struct TyScope {
  const char *const *names;
  size_t len;
  const struct TyScope *outer;
} TyScope;

/* Converts an annotation.  Identifiers starting with int/uint/float/bool are dtypes (as in TVM),
   names in `scope` are type variables, any other name is an ADT.  `_` gives a fresh incomplete
   type.  On failure returns NULL with a message in err and the offending node in *bad. */
const Type *ty_from_ast(TyTable *t, const AstType *a, const TyScope *scope, char *err, size_t errlen,
                        const AstType **bad);

#endif
