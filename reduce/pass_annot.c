/*
 * Drop type annotations the checker can infer: return types of functions and types of let
 * binders (parameters keep theirs: they are the program's inputs).  Less to read, and attributes
 * that change a result's shape (strides, padding) can then be reset by pass attrs.  One candidate,
 * checked on a copy: an annotation that was needed (an unannotated closure parameter inferred
 * from it) keeps the program as it was.
 */
#include "reduce.h"

static bool strip(AstExpr *e);

static bool strip_func(AstFunc *f) {
  bool changed = f->ret != NULL;
  f->ret = NULL;
  return strip(f->body) | changed;
}

static bool strip(AstExpr *e) {
  if (!e) return false;
  bool changed = false;
  if (e->kind == AST_FN) changed |= strip_func(e->fn);
  for (size_t i = 0; i < e->nstmts; i++) {
    AstStmt *s = e->stmts[i];
    if (s->kind == AST_STMT_LET && s->binder->type) {
      s->binder->type = NULL;
      changed = true;
    }
    changed |= strip(s->value);
  }
  changed |= strip(e->a) | strip(e->b) | strip(e->then_) | strip(e->else_);
  for (size_t i = 0; i < e->nitems; i++) changed |= strip(e->items[i]);
  for (size_t i = 0; i < e->narms; i++) changed |= strip(e->arms[i]->body);
  return changed;
}

static size_t count(const Program *p) { return p->m->body ? 0 : 1; }

static bool apply(Program *out, size_t i) {
  (void)i;
  bool changed = false;
  for (size_t k = 0; k < out->m->ndefs; k++)
    if (out->m->defs[k]->kind == AST_DEF_FN && !out->m->defs[k]->fn->ntype_params)
      changed |= strip_func(out->m->defs[k]->fn);
  return changed; /* whether the checker can infer what was dropped, the guard finds out */
}

const RedPass red_pass_annot = {"annot", "drop return-type and let annotations the checker can infer", count, apply};
