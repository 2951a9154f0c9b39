/* Seed places of a chain's nodes (origins.h). */
#include "origins.h"

#include <stdlib.h>

/* The first entry whose offset is at least `offset` (t->len when none is). */
static size_t lower_bound(const MutOrigins *t, uint32_t offset) {
  size_t lo = 0, hi = t->len;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (t->items[mid].offset < offset)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

MutOrigin mut_origin_of(const MutOrigins *from, const AstSpan *span) {
  if (!from) return (MutOrigin){span->start, span->line, span->col};
  size_t i = lower_bound(from, span->start);
  if (i < from->len && from->items[i].offset == span->start) return from->items[i];
  return i > 0 ? from->items[i - 1] : (MutOrigin){span->start, 1, 1};
}

void mut_origins_add(MutOrigins *t, size_t offset, MutOrigin origin) {
  if (t->len && t->items[t->len - 1].offset == offset) return;
  origin.offset = (uint32_t)offset;
  VEC_PUSH(*t, origin);
}

static void binder_node(const AstBinder *b, MutNodes *out) {
  if (b) VEC_PUSH(*out, &b->node);
}

static void expr_nodes(AstExpr *e, MutNodes *out) {
  VEC_PUSH(*out, &e->node);
  for (size_t i = 0; i < e->nstmts; i++) {
    VEC_PUSH(*out, &e->stmts[i]->node);
    binder_node(e->stmts[i]->binder, out);
  }
  for (size_t i = 0; e->kind == AST_FN && i < e->fn->nparams; i++)
    binder_node(e->fn->params[i], out);
  AstExpr **slot;
  for (AstChildren it = ast_children(e); (slot = ast_next_child(&it));)
    expr_nodes(*slot, out);
}

static int by_address(const void *a, const void *b) {
  const AstNode *x = *(const AstNode *const *)a, *y = *(const AstNode *const *)b;
  return x < y ? -1 : x > y;
}

void mut_nodes(const AstModule *m, MutNodes *out) {
  for (size_t i = 0; i < m->ndefs; i++) {
    const AstDef *d = m->defs[i];
    if (d->kind != AST_DEF_FN) continue;
    for (size_t k = 0; k < d->fn->nparams; k++)
      binder_node(d->fn->params[k], out);
    expr_nodes(d->fn->body, out);
  }
  if (m->body) expr_nodes(m->body, out);
  if (out->len) qsort(out->items, out->len, sizeof *out->items, by_address);
}

bool mut_nodes_has(const MutNodes *nodes, const AstNode *n) {
  return nodes->len && bsearch(&n, nodes->items, nodes->len, sizeof *nodes->items, by_address);
}
