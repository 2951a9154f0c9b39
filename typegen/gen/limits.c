/*
 * The type limits (max_rank, max_dim, max_elements) as a bound on every type of a program, not
 * only on the types the generator draws: an operator's result, a broadcast, a concatenation, an
 * adapter's step are all checked (gen.c, forward.c), and a whole typed program can be checked
 * (rgen's and rmutate's guard).  The bound keeps the compiler under test out of memory (the RFC's
 * forum thread asks for it; GenCoG draws ranks in [1, 5] and sizes in [1, 4]).
 */
#include "gen.h"

#include "../../support/ptrmap.h"

/* The known sizes' product; INT64_MAX when it overflows. */
static int64_t known_elements(const Type *t) {
  int64_t n = 1;
  for (uint32_t i = 0; i < t->ndims; i++)
    if (t->dims[i] >= 0 && __builtin_mul_overflow(n, t->dims[i], &n)) return INT64_MAX;
  return n;
}

static bool tensor_fits(const OpGenPolicy *limits, const Type *t) {
  if (t->ndims > limits->max_rank) return false;
  for (uint32_t i = 0; i < t->ndims; i++)
    if (t->dims[i] > limits->max_dim) return false;
  return known_elements(t) <= limits->max_elements;
}

bool gen_type_fits(const OpGenPolicy *limits, const Type *t) {
  if (!t) return true;
  if (t->kind == TY_TENSOR) return tensor_fits(limits, t);
  for (uint32_t i = 0; i < t->nargs; i++)
    if (!gen_type_fits(limits, t->args[i])) return false;
  return gen_type_fits(limits, t->ret);
}

static void widen_tensor(OpGenPolicy *limits, const Type *t) {
  if (t->ndims > limits->max_rank) limits->max_rank = t->ndims;
  for (uint32_t i = 0; i < t->ndims; i++)
    if (t->dims[i] > limits->max_dim) limits->max_dim = t->dims[i];
  int64_t n = known_elements(t);
  if (n > limits->max_elements) limits->max_elements = n;
}

void gen_limits_widen(OpGenPolicy *limits, const Type *t) {
  if (!t) return;
  if (t->kind == TY_TENSOR) {
    widen_tensor(limits, t);
    return;
  }
  for (uint32_t i = 0; i < t->nargs; i++)
    gen_limits_widen(limits, t->args[i]);
  gen_limits_widen(limits, t->ret);
}

bool gen_op_fits(const GenPolicy *policy, const OpDef *op) {
  if (!gen_policy_allows(policy, op)) return false;
  TyTable *types = ty_table_new();
  Arena arena;
  arena_init(&arena);
  unsigned fitting = 0;
  for (unsigned k = 0; k < 256 && fitting < 16; k++) {
    Rng rng = rng_seed(0x5eed, k);
    OpGen g = {types, &rng, &arena, &policy->types};
    OpPlan plan;
    if (!op->sample(&g, op, &plan)) continue;
    bool fits = gen_type_fits(&policy->types, plan.result);
    for (size_t i = 0; fits && i < plan.nargs; i++)
      fits = gen_type_fits(&policy->types, plan.args[i]);
    fitting += fits;
  }
  arena_free(&arena);
  ty_table_free(types);
  return fitting == 16;
}

/* ------------------------------------------------------------------ every type of a module */

typedef void (*TypeVisit)(const Type *t, void *ctx);

static void pattern_types(const AstPattern *p, TypeVisit visit, void *ctx) {
  visit(p->node.type, ctx);
  for (size_t i = 0; i < p->nitems; i++)
    pattern_types(p->items[i], visit, ctx);
}

static void expr_types(AstExpr *e, TypeVisit visit, void *ctx) {
  visit(e->node.type, ctx);
  for (size_t i = 0; i < e->nstmts; i++)
    if (e->stmts[i]->binder) visit(e->stmts[i]->binder->node.type, ctx);
  for (size_t i = 0; e->kind == AST_FN && i < e->fn->nparams; i++)
    visit(e->fn->params[i]->node.type, ctx);
  for (size_t i = 0; i < e->narms; i++)
    pattern_types(e->arms[i]->pattern, visit, ctx);
  AstExpr **slot;
  for (AstChildren it = ast_children(e); (slot = ast_next_child(&it));)
    expr_types(*slot, visit, ctx);
}

/* Visits the type of every typed expression, binder and pattern of m (NULL for the untyped). */
static void module_types(const AstModule *m, TypeVisit visit, void *ctx) {
  for (size_t i = 0; i < m->ndefs; i++) {
    const AstDef *d = m->defs[i];
    if (d->kind != AST_DEF_FN) continue;
    for (size_t k = 0; k < d->fn->nparams; k++)
      visit(d->fn->params[k]->node.type, ctx);
    expr_types(d->fn->body, visit, ctx);
  }
  if (m->body) expr_types(m->body, visit, ctx);
}

/* Every distinct tensor type in m's types, each visited once: types are shared (hash-consed), and
   nested closures' types hold one another, so visiting each occurrence would cost as the nesting
   depth squared (2,000 nested closures: 2 million types). */
typedef struct Tensors {
  TypeVisit visit;
  void *ctx;
  PtrMap seen;
} Tensors;

static void each_tensor(const Type *t, void *ctx) {
  Tensors *w = ctx;
  if (!t || !ptrmap_put(&w->seen, t, NULL)) return;
  if (t->kind == TY_TENSOR) {
    w->visit(t, w->ctx);
    return;
  }
  for (uint32_t i = 0; i < t->nargs; i++)
    each_tensor(t->args[i], w);
  each_tensor(t->ret, w);
}

static void module_tensors(const AstModule *m, TypeVisit visit, void *ctx) {
  Tensors w = {visit, ctx, {0}};
  module_types(m, each_tensor, &w);
  ptrmap_free(&w.seen);
}

typedef struct Misfit {
  const OpGenPolicy *limits;
  const Type *first;
} Misfit;

static void find_misfit(const Type *t, void *ctx) {
  Misfit *f = ctx;
  if (!f->first && !tensor_fits(f->limits, t)) f->first = t;
}

const Type *gen_module_misfit(const AstModule *m, const OpGenPolicy *limits) {
  Misfit f = {limits, NULL};
  module_tensors(m, find_misfit, &f);
  return f.first;
}

static void widen(const Type *t, void *ctx) { widen_tensor(ctx, t); }

void gen_limits_widen_module(OpGenPolicy *limits, const AstModule *m) { module_tensors(m, widen, limits); }
