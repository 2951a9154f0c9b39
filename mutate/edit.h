/*
 * Editing helpers the insert, share and crossover mutators share: a deep copy of an expression
 * into another module's arena, references to scope variables, and where control flow may go.
 */
#ifndef RELAYKIT_MUTATE_EDIT_H
#define RELAYKIT_MUTATE_EDIT_H

#include "mutate.h"

/* A reference to a scope variable: `%7` for a graph binding, `%x` otherwise. */
AstExpr *mut_var_ref(AstModule *m, const char *name);
/* A plain variable reference (local or graph). */
bool mut_is_var(const AstExpr *e);
/* Whether new bindings and control flow may go at the site: not inside a function with
   attributes (a fused primitive keeps the shape TVM's fusion gives it). */
bool mut_site_plain(const MutSite *s);
/* Tensors with every dimension known, and tuples of them: what gen_smallest builds exactly. */
bool mut_closed_type(const Type *t);
/* A fresh local name (`stem` then a number) the module neither uses nor binds as a parameter. */
const char *mut_fresh(AstModule *m, const char *stem);
/* Whether a global function of m uses `name` as a local, a parameter or a binder. */
bool mut_name_taken(const AstModule *m, const char *name);
/* The text of one expression, without comments (malloc'd). */
char *mut_expr_text(const AstExpr *e);

#endif
