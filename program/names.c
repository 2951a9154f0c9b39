/* What a tree binds and where a name occurs free: what code that moves must not capture; and fresh
   names, which nothing in the module uses or binds. */
#include <stdio.h>
#include <string.h>

#include "../support/strset.h"
#include "program.h"

static bool pattern_binds(const AstPattern *p, const char *name) {
  if (p->kind == AST_PAT_VAR) return !strcmp(p->name, name);
  for (size_t i = 0; i < p->nitems; i++)
    if (pattern_binds(p->items[i], name)) return true;
  return false;
}

/* Calls f on each name node e itself binds (not its children's); stops when f returns true. */
typedef bool (*BinderFn)(const char *name, void *ctx);
static bool node_binders(const AstExpr *e, BinderFn f, void *ctx);

static bool pattern_binders(const AstPattern *p, BinderFn f, void *ctx) {
  if (p->kind == AST_PAT_VAR) return f(p->name, ctx);
  for (size_t i = 0; i < p->nitems; i++)
    if (pattern_binders(p->items[i], f, ctx)) return true;
  return false;
}

static bool node_binders(const AstExpr *e, BinderFn f, void *ctx) {
  for (size_t i = 0; i < e->nstmts; i++)
    if (e->stmts[i]->binder && f(e->stmts[i]->binder->name, ctx)) return true;
  if (e->kind == AST_FN)
    for (size_t i = 0; i < e->fn->nparams; i++)
      if (f(e->fn->params[i]->name, ctx)) return true;
  for (size_t i = 0; i < e->narms; i++)
    if (pattern_binders(e->arms[i]->pattern, f, ctx)) return true;
  return false;
}

/* A walk asking node_binders at every node, until the question is answered. */
typedef struct Ask {
  BinderFn f;
  void *ctx;
  bool yes;
} Ask;

static void ask_node(AstExpr **slot, void *ctx) {
  Ask *a = ctx;
  if (!a->yes) a->yes = node_binders(*slot, a->f, a->ctx);
}

static bool any_binder(const AstExpr *e, BinderFn f, void *ctx) {
  Ask a = {f, ctx, false};
  AstExpr *root = (AstExpr *)e;
  prog_walk(&root, ask_node, &a);
  return a.yes;
}

static bool same_name(const char *name, void *ctx) { return !strcmp(name, ctx); }

bool prog_binds(const AstExpr *e, const char *name) { return any_binder(e, same_name, (void *)name); }

bool prog_occurs_free(const AstExpr *e, const char *name) {
  if (!e) return false;
  switch (e->kind) {
  case AST_LOCAL: return !strcmp(e->text, name);
  case AST_FN:
    for (size_t i = 0; i < e->fn->nparams; i++)
      if (!strcmp(e->fn->params[i]->name, name)) return false;
    return prog_occurs_free(e->fn->body, name);
  case AST_SEQ:
    for (size_t i = 0; i < e->nstmts; i++) {
      const AstStmt *s = e->stmts[i];
      bool binds = s->binder && !strcmp(s->binder->name, name);
      /* a let-bound function sees its own name (the type checker's let-rec) */
      if (binds && s->kind == AST_STMT_LET && s->value->kind == AST_FN) return false;
      if (s->value && prog_occurs_free(s->value, name)) return true;
      if (binds) return false;
    }
    return prog_occurs_free(e->a, name);
  case AST_MATCH:
    if (prog_occurs_free(e->a, name)) return true;
    for (size_t i = 0; i < e->narms; i++)
      if (!pattern_binds(e->arms[i]->pattern, name) && prog_occurs_free(e->arms[i]->body, name)) return true;
    return false;
  default: {
    AstExpr **child;
    for (AstChildren it = ast_children((AstExpr *)e); (child = ast_next_child(&it));)
      if (prog_occurs_free(*child, name)) return true;
    return false;
  }
  }
}

static bool free_in(const char *name, void *v) { return prog_occurs_free(v, name); }

bool prog_captures(const AstExpr *region, const AstExpr *v) { return any_binder(region, free_in, (void *)v); }


/* ------------------------------------------------------------------ fresh names */
bool prog_name_taken(const AstModule *m, const char *name) {
  if (prog_uses_in_module(m, AST_LOCAL, name)) return true;
  for (size_t i = 0; i < m->ndefs; i++) {
    const AstFunc *f = m->defs[i]->kind == AST_DEF_FN ? m->defs[i]->fn : NULL;
    if (!f) continue;
    for (size_t j = 0; j < f->nparams; j++)
      if (!strcmp(f->params[j]->name, name)) return true;
    if (prog_binds(f->body, name)) return true;
  }
  return false;
}

const char *prog_fresh_name(AstModule *m, const char *stem) {
  for (unsigned k = 0;; k++) {
    const char *name = arena_printf(&m->arena, "%s%u", stem, k);
    if (!prog_name_taken(m, name)) return name;
  }
}

/* Many fresh names at once: prog_fresh_name walks the module once per number it tries, fine for
   one name, quadratic for the thousands a chunk of cuts needs.  Here one walk collects every name
   taken that starts with the stem (uses, binders, parameters), and the names are then the first
   numbers not among them. */
typedef struct Taken {
  StrSet names;
  const char *stem;
  size_t stemlen;
} Taken;

static bool note_taken(const char *name, void *ctx) {
  Taken *t = ctx;
  if (!strncmp(name, t->stem, t->stemlen)) strset_add(&t->names, name);
  return false; /* go on: every binder counts */
}

static void note_node(AstExpr **slot, void *ctx) {
  if ((*slot)->kind == AST_LOCAL) note_taken((*slot)->text, ctx);
  node_binders(*slot, note_taken, ctx);
}

void prog_fresh_names(AstModule *m, const char *stem, size_t n, const char **out) {
  Taken t = {.stem = stem, .stemlen = strlen(stem)};
  strset_init(&t.names);
  for (size_t i = 0; i < m->ndefs; i++)
    if (m->defs[i]->kind == AST_DEF_FN)
      for (size_t j = 0; j < m->defs[i]->fn->nparams; j++) note_taken(m->defs[i]->fn->params[j]->name, &t);
  prog_walk_module(m, note_node, &t);
  char buf[64];
  for (unsigned k = 0, made = 0; made < n; k++) {
    snprintf(buf, sizeof buf, "%s%u", stem, k);
    if (!strset_contains(&t.names, buf)) out[made++] = arena_printf(&m->arena, "%s", buf);
  }
  strset_free(&t.names);
}
