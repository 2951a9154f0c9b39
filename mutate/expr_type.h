/* The type of an expression at a site, as the checker saw it (the opswap and attrs mutators). */
#ifndef RELAYKIT_MUTATE_EXPR_TYPE_H
#define RELAYKIT_MUTATE_EXPR_TYPE_H

#include "mutate.h"

/* e's type: AstNode.type when inference set it; uses of variables carry none, so theirs is the
   innermost variable of that name in `scope` (mut_scope_at at the site).  NULL when unknown. */
const Type *mut_expr_type(const GenVars *scope, const AstExpr *e);

#endif
