/* Op swap: replace an operator call with a call of another operator that produces the same type.
   The new operator's recognizer accepts the call's type and its solver gives argument types and
   attributes; each argument is one of the old call's arguments of exactly that type when there is
   one (in order), else a variable in scope of that type, else a small generated expression. */
#include <stdlib.h>

#include "expr_type.h"

enum { MAX_CANDS = 256, SWAP_FUEL = 4 };

/* The registry op a call calls, or NULL (function values, globals, constructors). */
static const OpDef *called_op(const AstExpr *e) {
  if (e->kind != AST_CALL || !e->a || e->a->kind != AST_NAME) return NULL;
  return op_lookup(e->a->text);
}

/* A tensor type the solvers can aim at: static shape, one lane, not void. */
static bool closed_tensor(const Type *t) {
  return t && t->kind == TY_TENSOR && ty_num_elements(t) >= 0 && t->dtype.code != DT_VOID && t->dtype.lanes == 1;
}

/* The ops other than `old` that could produce t, at most MAX_CANDS of them. */
static size_t others(Gen *g, const OpDef *old, const Type *t, const OpDef **out) {
  size_t n = gen_ops_for(g, t, out, MAX_CANDS), k = 0;
  for (size_t i = 0; i < n; i++)
    if (out[i] != old) out[k++] = out[i];
  return k;
}

static bool want(const MutSite *s, void *ctx) {
  const AstExpr *e = *s->slot;
  const OpDef *op = called_op(e);
  if (!op || !closed_tensor(e->node.type)) return false;
  const OpDef *cands[MAX_CANDS];
  return others(ctx, op, e->node.type, cands) > 0;
}

/* Argument i of the new call: an old argument of its type (unused ones first), a variable in
   scope of its type, or NULL (the generator makes one). */
static AstExpr *argument(Gen *g, const AstExpr *old, bool *used, const Type *t) {
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < old->nitems; i++)
      if (mut_expr_type(&g->scope, old->items[i]) == t && (pass == 1 || !used[i])) {
        used[i] = true;
        return old->items[i];
      }
  size_t n = 0;
  for (size_t i = 0; i < g->scope.len; i++) n += g->scope.items[i].type == t;
  if (n == 0) return NULL;
  size_t k = rng_index(&g->rng, n);
  for (size_t i = 0; i < g->scope.len; i++) {
    const GenVar *v = &g->scope.items[i];
    if (v->type == t && k-- == 0) return ast_new_atom(g->m, v->name[0] >= '0' && v->name[0] <= '9' ? AST_GRAPH : AST_LOCAL, v->name);
  }
  return NULL;
}

bool mut_opswap(MutContext *c) {
  MutSites sites = {0};
  mut_sites_to_change(c, &sites);
  Gen probe; /* only for the policy's candidate list: takes a copy of the stream, not ours */
  gen_init(&probe, c->policy, c->m, c->types, *c->rng);
  const MutSite *s = mut_pick(c, &sites, want, &probe);
  gen_free(&probe);
  bool ok = false;
  if (s) {
    AstExpr *old = *s->slot;
    const OpDef *from = called_op(old), *cands[MAX_CANDS];
    const Type *t = old->node.type;
    Gen g;
    GenStmts block = {0};
    mut_gen_at(c, s, &g, &block);
    size_t n = others(&g, from, t, cands);
    for (int tries = 0; tries < 6 && n > 0 && !ok; tries++) {
      size_t k = rng_index(&g.rng, n);
      const OpDef *to = cands[k];
      cands[k] = cands[--n]; /* not drawn again */
      OpPlan plan;
      if (!to->solve(&g.og, to, t, &plan) || plan.result != t) continue;
      bool used[OP_MAX_ARGS * 2] = {0};
      AstExpr *given[OP_MAX_ARGS] = {0};
      if (old->nitems > sizeof used / sizeof *used) continue;
      for (size_t i = 0; i < plan.nargs; i++) given[i] = argument(&g, old, used, plan.args[i]);
      AstExpr *e = gen_plan_call(&g, to, &plan, given, c->fuel < SWAP_FUEL ? c->fuel : SWAP_FUEL);
      mut_place(c, s, e, &block);
      mut_note(c, &old->node, &(*s->slot)->node, "opswap %s -> %s at %u:%u", from->name, to->name,
               old->node.span.line, old->node.span.col);
      ok = true;
    }
    free(block.items);
    gen_free(&g);
  }
  free(sites.items);
  return ok;
}
