/* The one way to visit an expression's sub-expressions (ast_children in ast.h). */
#include "ast.h"

AstChildren ast_children(AstExpr *e) { return (AstChildren){e, 0, 0}; }

AstExpr **ast_next_child(AstChildren *it) {
  AstExpr *e = it->e;
  if (!e) return NULL;
  for (;;) {
    AstExpr **slot = NULL;
    switch (it->part) {
    case 0: it->part++; slot = &e->a; break;
    case 1: it->part++; slot = &e->b; break;
    case 2:
      if (it->i < e->nitems) { slot = &e->items[it->i++]; break; }
      it->part++, it->i = 0;
      continue;
    case 3: it->part++; slot = &e->then_; break;
    case 4: it->part++; slot = &e->else_; break;
    case 5:
      if (it->i < e->narms) { slot = &e->arms[it->i++]->body; break; }
      it->part++, it->i = 0;
      continue;
    case 6:
      if (it->i < e->nstmts) { slot = &e->stmts[it->i++]->value; break; }
      it->part++, it->i = 0;
      continue;
    case 7: it->part++; slot = e->kind == AST_FN ? &e->fn->body : NULL; break;
    default: return NULL;
    }
    if (slot && *slot) return slot;
  }
}
