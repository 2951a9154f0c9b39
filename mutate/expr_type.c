/* Types of expressions at a site: inferred ones, or those of the variables a use refers to. */
#include <string.h>

#include "expr_type.h"

const Type *mut_expr_type(const GenVars *scope, const AstExpr *e) {
  if (e->node.type) return e->node.type;
  return e->kind == AST_LOCAL || e->kind == AST_GRAPH ? gen_var_type(scope, e->text) : NULL;
}
