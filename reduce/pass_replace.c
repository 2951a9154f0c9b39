/*
 * Replace an expression with a more reduced expression of the same type (llvm-reduce's rule, so
 * repeated runs reach a fixpoint): every opportunity is one (expression, option) pair, the
 * expressions in pre-order (largest first), and for each the options in a fixed order:
 *
 *   0 constant   a scalar literal (rank-0 tensors: `0f`, `0i64`, `False`)
 *   1 variable   the earliest-bound variable in scope of that type (a parameter first)
 *   2 hoist      the first descendant of that type (one not under a binder inside the expression)
 *   3 parameter  a new parameter of @main of that type: cut the graph here (costing its annotation
 *                too, red_type_cost: `%t.0` stays, where a parameter would add a whole type)
 *   4 smallest   the generator's smallest expression of that type (zeros(...), a tuple of them, a
 *                trivial closure)
 *
 * A replacement is proposed only when it is strictly smaller, by (operator calls, AST nodes), so
 * a replacement never undoes another and the search terminates.  The type is the inferred type of
 * the expression, so the candidate types exactly as the program did.
 *
 * In a program that does not type-check (the guard is below PROG_TYPED), an expression inference
 * never reached has no type; its only option is hoisting its first value child, whatever its
 * type: the test, not the type checker, decides (C-Reduce's "replace a node by its child").
 */
#include <stdlib.h>
#include <string.h>

#include "../support/xalloc.h"
#include "../typegen/gen/gen.h"
#include "../typegen/ops/ops.h"
#include "reduce.h"

enum { OPT_CONSTANT, OPT_VARIABLE, OPT_HOIST, OPT_PARAM, OPT_SMALLEST, NOPTIONS };

/* The wanted expression of a scoped walk over the replaceable ones. */
typedef struct Visit {
  size_t target;        /* the index of the expression wanted (SIZE_MAX: count them all) */
  size_t seen;
  AstExpr **found;      /* the wanted slot */
  VEC(ScopeVar) found_scope; /* the variables visible at the found slot (a copy) */
  bool found_in_main;
  bool untyped;         /* the program does not type-check: untyped expressions count too */
} Visit;

static bool is_atom(const AstExpr *e) {
  switch (e->kind) {
  case AST_INT: case AST_FLOAT: case AST_BOOL: case AST_STRING: case AST_LOCAL: case AST_GRAPH: case AST_GLOBAL:
  case AST_NAME: case AST_META: case AST_ANY: case AST_LIST: return true;
  default: return false;
  }
}

/* Calls and nodes: the size order replacements must decrease. */
typedef struct Cost { size_t calls, nodes; } Cost;

static void count_node(AstExpr **slot, void *ctx) {
  Cost *c = ctx;
  c->nodes++;
  if ((*slot)->kind == AST_CALL && (*slot)->a->kind == AST_NAME) c->calls++;
}

static Cost cost_of(AstExpr *e) {
  Cost c = {0, 0};
  prog_walk(&e, count_node, &c);
  return c;
}

static bool smaller(Cost a, Cost b) { return a.calls < b.calls || (a.calls == b.calls && a.nodes < b.nodes); }

/* Types a test could write as a parameter: closed tensors and tuples of them. */
static bool param_type(const Type *t) {
  if (t->kind == TY_TENSOR) return t->dtype.code != DT_VOID;
  if (t->kind != TY_TUPLE) return false;
  for (uint32_t i = 0; i < t->nargs; i++)
    if (!param_type(t->args[i])) return false;
  return true;
}

static bool replaceable(const AstExpr *e, bool untyped) {
  return !is_atom(e) && e->kind != AST_PAREN && e->kind != AST_BLOCK && (e->node.type || untyped) &&
         cost_of((AstExpr *)e).nodes > 1;
}

/* An untyped expression's first value child: a call's first argument, a projection's tuple, an
   if's then-branch, ... (not a callee, nothing under a binder). */
static AstExpr *first_child(AstExpr *e) {
  switch (e->kind) {
  case AST_FN: case AST_SEQ: case AST_MATCH: return NULL;
  case AST_CALL: return e->nitems ? e->items[0] : NULL;
  case AST_IF: return e->then_;
  default: break;
  }
  AstExpr **child;
  AstChildren it = ast_children(e);
  return (child = ast_next_child(&it)) ? *child : NULL;
}

static bool visit(const ScopedSite *site, void *ctx) {
  Visit *v = ctx;
  if (!replaceable(*site->slot, v->untyped) || v->seen++ != v->target) return false;
  v->found = site->slot;
  for (size_t k = 0; k < site->nscope; k++) VEC_PUSH(v->found_scope, site->scope[k]);
  v->found_in_main = site->in_main;
  return true;
}

static size_t count(const Program *p) {
  Visit v = {.target = SIZE_MAX, .untyped = p->guard != PROG_TYPED};
  prog_scoped_walk(p->m, visit, &v);
  return v.seen * NOPTIONS;
}

/* The first descendant of e of type t that no binder inside e scopes over. */
static AstExpr *hoistable(AstExpr *e, const Type *t, bool top) {
  if (!e) return NULL;
  if (!top && e->node.type == t && !is_atom(e)) return e;
  switch (e->kind) {
  case AST_FN: case AST_SEQ: case AST_MATCH: case AST_NAME: return NULL;
  default: break;
  }
  AstExpr **child;
  for (AstChildren it = ast_children(e); (child = ast_next_child(&it));) {
    if (e->kind == AST_CALL && child == &e->a && is_atom(e->a)) continue; /* an operator's name */
    AstExpr *h = hoistable(*child, t, false);
    if (h) return h;
  }
  return NULL;
}

/* The generator's smallest expression of t, from the given variables (none: a constant). */
static AstExpr *smallest(Program *out, const Type *t, const ScopeVar *vars, size_t nvars) {
  GenPolicy policy;
  gen_policy_default(&policy);
  Gen g;
  gen_init(&g, &policy, out->m, out->types, rng_seed(0, 0));
  for (size_t k = 0; k < nvars; k++) VEC_PUSH(g.scope, ((GenVar){vars[k].name, vars[k].type, NULL, NULL, 0}));
  GenStmts block = {0};
  g.block = &block;
  AstExpr *e = gen_smallest(&g, t);
  bool self_contained = block.len == 0 && !g.adt_defined;
  free(block.items);
  gen_free(&g);
  return self_contained ? e : NULL;
}

static bool apply(Program *out, size_t i) {
  Visit v = {.target = i / NOPTIONS, .untyped = out->guard != PROG_TYPED};
  prog_scoped_walk(out->m, visit, &v);
  AstExpr *e = v.found ? *v.found : NULL;
  const Type *t = e ? e->node.type : NULL;
  AstExpr *with = NULL;
  if (e && !t && i % NOPTIONS == OPT_HOIST) with = first_child(e);
  if (t) switch (i % NOPTIONS) {
    case OPT_CONSTANT:
      if (t->kind == TY_TENSOR && t->ndims == 0 && gen_smallest_is_exact(t, false)) with = smallest(out, t, NULL, 0);
      if (with && with->kind == AST_CALL) with = NULL; /* a zeros() call is the last option's */
      break;
    case OPT_VARIABLE:
      for (size_t k = 0; k < v.found_scope.len && !with; k++)
        if (v.found_scope.items[k].type == t)
          with = ast_new_atom(out->m, v.found_scope.items[k].kind, v.found_scope.items[k].name);
      break;
    case OPT_HOIST: with = hoistable(e, t, true); break;
    case OPT_PARAM:
      if (v.found_in_main && param_type(t)) {
        AstFunc *f = prog_main(out->m)->fn;
        const char *name = prog_fresh_name(out->m, "p");
        AstBinder **params = arena_alloc(&out->m->arena, (f->nparams + 1) * sizeof *params);
        if (f->nparams) memcpy(params, f->params, f->nparams * sizeof *params);
        params[f->nparams] = ast_new_binder(out->m, name, ty_to_ast(out->m, t));
        with = ast_new_atom(out->m, AST_LOCAL, name);
        /* a parameter costs its annotation in @main's signature too (unparam counts the same) */
        Cost pc = cost_of(with);
        pc.nodes += red_type_cost(t);
        if (smaller(pc, cost_of(e))) {
          f->params = params;
          f->nparams++;
        } else {
          with = NULL;
        }
      }
      break;
    case OPT_SMALLEST:
      if (gen_smallest_is_exact(t, false)) with = smallest(out, t, v.found_scope.items, v.found_scope.len);
      break;
    }
  bool ok = with && smaller(cost_of(with), cost_of(e));
  free(v.found_scope.items);
  if (!ok) return false;
  /* The replacement has the expression's inferred type, but an unannotated closure parameter may
     have been inferred from the very expression replaced; the guard settles it. */
  *v.found = with;
  return true;
}

const RedPass red_pass_replace = {
    .name = "replace",
    .description = "replace an expression with a smaller one of the same type (a constant, a variable, a descendant, a new parameter of @main, the generator's smallest)",
    .count = count,
    .apply = apply,
    .search = RED_ONE_BY_ONE,
};
