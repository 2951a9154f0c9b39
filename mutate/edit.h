/*
 * Editing helpers the insert, share and crossover mutators share: references to scope variables,
 * where control flow may go, the text of an expression.  (Fresh names, copies and scopes are the
 * typed program's: program/program.h.)
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
/* The text of one expression, without comments (malloc'd). */
char *mut_expr_text(const AstExpr *e);

#endif
