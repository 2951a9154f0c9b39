/* Incomplete types (unknowns) and their solutions, found by unification. */
#ifndef RELAYKIT_UNIFY_H
#define RELAYKIT_UNIFY_H

#include "type.h"

typedef struct Subst {
  TyTable *types;
  const Type **solution; /* indexed by an incomplete type's id; NULL while unknown */
  size_t cap;
} Subst;

void subst_init(Subst *s, TyTable *types);
void subst_free(Subst *s);
/* The type with every solved unknown replaced by its solution, recursively. */
const Type *subst_resolve(Subst *s, const Type *t);
/* Makes a and b equal, solving unknowns; false if they cannot be (a `?` dimension matches any). */
bool unify(Subst *s, const Type *a, const Type *b);
/* Whether a (resolved) type still contains an unknown. */
bool ty_has_incomplete(const Type *t);
/* t rebuilt with each child type mapped by f (t itself when none changes). */
typedef const Type *(*TyMapFn)(void *ctx, const Type *t);
const Type *ty_map_children(TyTable *types, const Type *t, TyMapFn f, void *ctx);
/* Replaces the type variables `vars` in t by `with` (instantiation of a polymorphic type). */
const Type *ty_substitute_vars(TyTable *types, const Type *t, const Type *const *vars, const Type *const *with,
                               size_t n);

#endif
