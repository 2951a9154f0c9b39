/*
 * Delete what nothing uses: bindings whose variable is never read (in every function body, to a
 * fixpoint), @main's unused parameters, and global functions nobody calls.  One candidate: the
 * types of what remains do not change.
 */
#include <string.h>

#include "reduce.h"

/* Removes dead statements from every sequence in e; true if anything went. */
static bool sweep(AstExpr *e) {
  if (!e) return false;
  bool changed = false;
  if (e->kind == AST_SEQ) {
    for (size_t i = e->nstmts; i > 0; i--) {
      AstStmt *s = e->stmts[i - 1];
      if (s->kind == AST_STMT_EXPR || s->kind == AST_STMT_FREE) continue;
      AstExprKind kind = s->kind == AST_STMT_GRAPH ? AST_GRAPH : AST_LOCAL;
      const char *name = s->kind == AST_STMT_GRAPH ? s->graph : s->binder->name;
      /* used after its binding? (a recursive closure's calls of itself do not count) */
      size_t uses = red_uses(e->a, kind, name);
      for (size_t j = i; j < e->nstmts; j++) uses += red_uses(e->stmts[j]->value, kind, name);
      if (uses > 0) continue;
      memmove(&e->stmts[i - 1], &e->stmts[i], (e->nstmts - i) * sizeof *e->stmts);
      e->nstmts--;
      changed = true;
    }
  }
  changed |= sweep(e->a) | sweep(e->b) | sweep(e->then_) | sweep(e->else_);
  for (size_t i = 0; i < e->nitems; i++) changed |= sweep(e->items[i]);
  for (size_t i = 0; i < e->narms; i++) changed |= sweep(e->arms[i]->body);
  for (size_t i = 0; i < e->nstmts; i++) changed |= sweep(e->stmts[i]->value);
  if (e->kind == AST_FN) changed |= sweep(e->fn->body);
  return changed;
}

static bool dce(AstModule *m) {
  bool changed = false;
  for (bool again = true; again;) {
    again = false;
    for (size_t i = 0; i < m->ndefs; i++)
      if (m->defs[i]->kind == AST_DEF_FN) again |= sweep(m->defs[i]->fn->body);
    /* unused globals (never @main) */
    for (size_t i = m->ndefs; i > 0; i--) {
      AstDef *d = m->defs[i - 1];
      if (d->kind != AST_DEF_FN || !strcmp(d->name, "main")) continue;
      size_t uses = red_uses_in_module(m, AST_GLOBAL, d->name) - red_uses(d->fn->body, AST_GLOBAL, d->name);
      if (uses) continue;
      memmove(&m->defs[i - 1], &m->defs[i], (m->ndefs - i) * sizeof *m->defs);
      m->ndefs--;
      again = true;
    }
    changed |= again;
  }
  /* @main's unused parameters: nothing calls @main, so they can go */
  AstDef *main = red_main(m);
  if (main) {
    AstFunc *f = main->fn;
    for (size_t i = f->nparams; i > 0; i--) {
      if (red_uses(f->body, AST_LOCAL, f->params[i - 1]->name)) continue;
      memmove(&f->params[i - 1], &f->params[i], (f->nparams - i) * sizeof *f->params);
      f->nparams--;
      changed = true;
    }
  }
  return changed;
}

static size_t count(const RedProgram *p) { (void)p; return 1; }

static bool apply(RedProgram *out, size_t i) {
  (void)i;
  return dce(out->m);
}

const RedPass red_pass_dce = {"dce", "delete unused bindings, parameters of @main and global functions", count, apply};
