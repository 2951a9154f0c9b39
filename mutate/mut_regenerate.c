/* Regenerate: replace a subtree with a fresh expression of its type from the type-directed
   generator, built from the variables in scope there (the RFC's mutator). */
#include <stdlib.h>

#include "mutate.h"

/* Types the generator builds exactly: closed tensors (static shapes) and tuples of them. */
static bool generable(const Type *t) {
  if (t->kind == TY_TENSOR) {
    for (uint32_t i = 0; i < t->ndims; i++)
      if (t->dims[i] < 0) return false;
    return t->dtype.code != DT_VOID && t->dtype.lanes == 1;
  }
  if (t->kind != TY_TUPLE || t->nargs == 0) return false;
  for (uint32_t i = 0; i < t->nargs; i++)
    if (!generable(t->args[i])) return false;
  return true;
}

static bool want(const MutSite *s, void *ctx) {
  (void)ctx;
  const AstExpr *e = *s->slot;
  return e->kind != AST_SEQ && e->kind != AST_FN && generable(s->type);
}

bool mut_regenerate(MutContext *c) {
  MutSites sites = {0};
  mut_sites_to_change(c, &sites);
  const MutSite *s = mut_pick(c, &sites, want, NULL);
  bool ok = s != NULL;
  if (ok) {
    Gen g;
    GenStmts block = {0};
    mut_gen_at(c, s, &g, &block);
    AstExpr *old = *s->slot;
    AstExpr *e = gen_expr(&g, s->type, c->fuel);
    mut_place(c, s, e, &block);
    mut_note(c, &old->node, &(*s->slot)->node, "regenerate %u:%u", old->node.span.line, old->node.span.col);
    free(block.items);
    gen_free(&g);
  }
  free(sites.items);
  return ok;
}
