/* Types of expressions at a site: inferred ones, or those of the variables a use refers to. */
#include <string.h>

#include "expr_type.h"

const Type *mut_expr_type(const GenVars *scope, const AstExpr *e) {
  if (e->node.type) return e->node.type;
  if (e->kind != AST_LOCAL && e->kind != AST_GRAPH) return NULL;
  for (size_t k = scope->len; k > 0; k--)
    if (!strcmp(scope->items[k - 1].name, e->text)) return scope->items[k - 1].type;
  return NULL;
}
