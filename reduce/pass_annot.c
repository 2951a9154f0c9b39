/*
 * Drop type annotations the checker can infer: return types of functions (of a global only
 * when nothing calls it) and types of let binders (parameters keep theirs: they are the
 * program's inputs).  Less to read, and attributes
 * that change a result's shape (strides, padding) can then be reset by pass attrs.  One candidate,
 * checked on a copy: an annotation that was needed (an unannotated closure parameter inferred
 * from it) keeps the program as it was.
 */
#include "reduce.h"

/* Drops e's own annotations (a closure's return type, its let binders' types); false if none. */
static bool strip_node(AstExpr *e) {
  bool changed = false;
  if (e->kind == AST_FN && e->fn->ret) {
    e->fn->ret = NULL;
    changed = true;
  }
  for (size_t i = 0; i < e->nstmts; i++) {
    AstStmt *s = e->stmts[i];
    if (s->kind == AST_STMT_LET && s->binder->type) {
      s->binder->type = NULL;
      changed = true;
    }
  }
  return changed;
}

static void strip_all(AstExpr **slot, void *changed) { *(bool *)changed |= strip_node(*slot); }

static bool strip(AstExpr *e) {
  bool changed = false;
  prog_walk(&e, strip_all, &changed);
  return changed;
}

static void note_global(AstExpr **slot, void *referenced) {
  if ((*slot)->kind == AST_GLOBAL) strset_add(referenced, (*slot)->text);
}

/* A global's own result type goes only when nothing refers to the global: TVM types every use
   of a global by its annotation, so the result of a call of one whose result type is not
   written is an unknown only the caller's context can fix (mostly nothing does). */
static bool strip_func(const StrSet *referenced, AstDef *d) {
  AstFunc *f = d->fn;
  bool changed = false;
  if (f->ret && !strset_contains(referenced, d->name)) {
    f->ret = NULL;
    changed = true;
  }
  return strip(f->body) | changed;
}

static size_t count(const Program *p) { return p->m->body ? 0 : 1; }

static bool apply(Program *out, size_t i) {
  (void)i;
  bool changed = false;
  StrSet referenced; /* the globals something refers to: one walk, not one per definition */
  strset_init(&referenced);
  prog_walk_module(out->m, note_global, &referenced);
  for (size_t k = 0; k < out->m->ndefs; k++)
    if (out->m->defs[k]->kind == AST_DEF_FN && !out->m->defs[k]->fn->ntype_params)
      changed |= strip_func(&referenced, out->m->defs[k]);
  strset_free(&referenced);
  return changed; /* whether the checker can infer what was dropped, the guard finds out */
}

const RedPass red_pass_annot = {
    .name = "annot",
    .description = "drop return-type and let annotations the checker can infer",
    .count = count,
    .apply = apply,
    .search = RED_ONE_BY_ONE,
};
