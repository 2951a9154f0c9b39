/*
 * The walk that knows what is in scope: every expression of every global function, in pre-order,
 * with the variables visible there.  The reducer's replace pass offers those variables as smaller
 * replacements; the mutator hands them to the generator.  One walk, so both agree on scoping.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "program.h"

typedef struct Walk {
  ProgScopedFn visit;
  void *ctx;
  VEC(ScopeVar) scope;
  ScopedNames index; /* name -> position in scope + 1, in step with it: a use resolves in O(1) */
  AstDef *def;
  bool in_main, in_attr_fn;
  bool stopped;
} Walk;

static void push(Walk *w, AstExprKind kind, const char *name, const Type *t) {
  if (!t) return;
  VEC_PUSH(w->scope, ((ScopeVar){kind, name, t}));
  names_bind(&w->index, name, (const void *)(uintptr_t)w->scope.len);
}

static void pop_to(Walk *w, size_t mark) {
  w->scope.len = mark;
  names_truncate(&w->index, mark);
}

static void visit(Walk *w, AstExpr **slot, bool callee);

static void visit_fn(Walk *w, AstFunc *f) {
  size_t mark = w->scope.len;
  bool outer = w->in_attr_fn;
  w->in_attr_fn |= f->attrs.len > 0;
  for (size_t k = 0; k < f->nparams; k++)
    push(w, AST_LOCAL, f->params[k]->name,
         f->type && f->type->kind == TY_FUNC && k < f->type->nargs ? f->type->args[k] : NULL);
  visit(w, &f->body, false);
  w->in_attr_fn = outer;
  pop_to(w, mark);
}

static void visit(Walk *w, AstExpr **slot, bool callee) {
  AstExpr *e = *slot;
  if (!e || w->stopped) return;
  ScopedSite site = {slot, w->def, w->in_main && !w->in_attr_fn, callee, w->scope.items, w->scope.len, &w->index};
  if (w->visit(&site, w->ctx)) {
    w->stopped = true;
    return;
  }
  switch (e->kind) {
  case AST_CALL:
    visit(w, &e->a, true);
    for (size_t i = 0; i < e->nitems; i++) visit(w, &e->items[i], false);
    return;
  case AST_FN: visit_fn(w, e->fn); return;
  case AST_SEQ: {
    size_t mark = w->scope.len;
    for (size_t i = 0; i < e->nstmts && !w->stopped; i++) {
      AstStmt *s = e->stmts[i];
      visit(w, &s->value, false); /* a binding is in scope after its value, not inside it */
      if (s->kind == AST_STMT_LET) push(w, AST_LOCAL, s->binder->name, s->value_type);
      if (s->kind == AST_STMT_GRAPH) push(w, AST_GRAPH, s->graph, s->value_type);
    }
    visit(w, &e->a, false);
    pop_to(w, mark);
    return;
  }
  case AST_MATCH: /* pattern variables are not tracked: arm bodies see the outer scope */
    visit(w, &e->a, false);
    for (size_t i = 0; i < e->narms; i++) visit(w, &e->arms[i]->body, false);
    return;
  default: {
    AstExpr **child;
    for (AstChildren it = ast_children(e); (child = ast_next_child(&it));) visit(w, child, false);
    return;
  }
  }
}

bool prog_scoped_walk(AstModule *m, ProgScopedFn f, void *ctx) {
  Walk w = {.visit = f, .ctx = ctx};
  for (size_t i = 0; i < m->ndefs && !w.stopped; i++) {
    AstDef *d = m->defs[i];
    if (d->kind != AST_DEF_FN) continue;
    w.def = d;
    w.in_main = !strcmp(d->name, "main");
    visit_fn(&w, d->fn);
  }
  free(w.scope.items);
  names_free(&w.index);
  return w.stopped;
}

const ScopeVar *prog_scope_find(const ScopedSite *site, AstExprKind kind, const char *name) {
  bool found;
  size_t at = (size_t)(uintptr_t)names_find(site->index, name, &found);
  const ScopeVar *v = found && at && at <= site->nscope ? &site->scope[at - 1] : NULL;
  return v && v->kind == kind ? v : NULL;
}
