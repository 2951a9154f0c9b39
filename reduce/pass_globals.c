/*
 * Inline a global function at one call site: `@f(a, b)` becomes f's body with its parameters bound
 * by `let` to the arguments.  Only monomorphic, non-recursive functions other than @main: a type
 * parameter would need instantiating, and inlining a recursive call never ends.  Once every call
 * is inlined, dce deletes @f.  One candidate per call site.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reduce.h"

static AstDef *inlinable(const AstModule *m, const AstExpr *e) {
  if (e->kind != AST_CALL || e->a->kind != AST_GLOBAL || e->attrs.len) return NULL;
  for (size_t i = 0; i < m->ndefs; i++) {
    AstDef *d = m->defs[i];
    if (d->kind != AST_DEF_FN || strcmp(d->name, e->a->text) != 0) continue;
    bool ok = strcmp(d->name, "main") != 0 && d->fn->ntype_params == 0 && d->fn->nparams == e->nitems &&
              prog_uses(d->fn->body, AST_GLOBAL, d->name) == 0;
    return ok ? d : NULL;
  }
  return NULL;
}

static size_t at(const AstModule *m, const AstExpr *e) { return inlinable(m, e) ? 1 : 0; }

/* Graph numbers: the largest one a module binds. */
static void max_graph(AstExpr **slot, void *ctx) {
  for (size_t i = 0; i < (*slot)->nstmts; i++)
    if ((*slot)->stmts[i]->kind == AST_STMT_GRAPH) {
      unsigned long n = strtoul((*slot)->stmts[i]->graph, NULL, 10);
      if (n > *(unsigned long *)ctx) *(unsigned long *)ctx = n;
    }
}

typedef struct Renumber {
  AstModule *m;
  AstExpr *root;
  unsigned long next;
} Renumber;

static void renumber_in(AstExpr **slot, void *ctx) {
  Renumber *r = ctx;
  for (size_t i = 0; i < (*slot)->nstmts; i++) {
    AstStmt *s = (*slot)->stmts[i];
    if (s->kind != AST_STMT_GRAPH) continue;
    const char *name = arena_printf(&r->m->arena, "%lu", r->next++);
    prog_substitute(&r->root, AST_GRAPH, s->graph, ast_new_atom(r->m, AST_GRAPH, name));
    s->graph = name;
  }
}

/* A copy of a body gets graph numbers no one uses yet: they are one table for the whole text, and
   the original stays where it was. */
static AstExpr *renumbered(AstModule *m, AstExpr *body) {
  unsigned long max = 0;
  for (size_t i = 0; i < m->ndefs; i++)
    if (m->defs[i]->kind == AST_DEF_FN) prog_walk(&m->defs[i]->fn->body, max_graph, &max);
  Renumber r = {m, body, max + 1};
  prog_walk(&body, renumber_in, &r);
  return r.root;
}

static bool edit(AstModule *m, const RedSite *site) {
  AstExpr *call = *site->slot;
  const AstFunc *f = inlinable(m, call)->fn;
  AstExpr *body = renumbered(m, ast_expr_copy(m, f->body, true));
  AstFunc *caller = site->def ? site->def->fn : NULL;
  AstExpr *inlined = red_beta(m, caller, caller ? caller->body : m->body, f, body, call->items);
  if (!inlined) return false;
  *site->slot = inlined;
  return true;
}

static size_t count(const Program *p) { return red_count_sites(p->m, at); }

static bool apply(Program *out, size_t i) { return red_edit_site(out, i, at, NULL, edit); }

const RedPass red_pass_globals = {
    .name = "globals",
    .description = "inline a call of a monomorphic, non-recursive global function",
    .count = count,
    .apply = apply,
    .search = RED_ONE_BY_ONE,
};
