/* AST helpers shared by the reduction passes. */
#include <stdio.h>
#include <string.h>

#include "reduce.h"

AstDef *red_main(const AstModule *m) {
  for (size_t i = 0; i < m->ndefs; i++)
    if (m->defs[i]->kind == AST_DEF_FN && !strcmp(m->defs[i]->name, "main")) return m->defs[i];
  return NULL;
}

AstExpr *red_main_seq(const AstModule *m) {
  AstDef *main = red_main(m);
  return main && main->fn->body->kind == AST_SEQ ? main->fn->body : NULL;
}

size_t red_count_main_stmts(const RedProgram *p) {
  AstExpr *seq = red_main_seq(p->m);
  return seq ? seq->nstmts : 0;
}

void red_walk(AstExpr **slot, RedSlotFn f, void *ctx) {
  if (!*slot) return;
  f(slot, ctx);
  AstExpr *e = *slot;
  red_walk(&e->a, f, ctx);
  red_walk(&e->b, f, ctx);
  for (size_t i = 0; i < e->nitems; i++) red_walk(&e->items[i], f, ctx);
  red_walk(&e->then_, f, ctx);
  red_walk(&e->else_, f, ctx);
  for (size_t i = 0; i < e->narms; i++) red_walk(&e->arms[i]->body, f, ctx);
  for (size_t i = 0; i < e->nstmts; i++) red_walk(&e->stmts[i]->value, f, ctx);
  if (e->kind == AST_FN) red_walk(&e->fn->body, f, ctx);
}

typedef struct Ref {
  AstExprKind kind;
  const char *name;
  size_t count;
  AstExpr *with;
} Ref;

static void count_ref(AstExpr **slot, void *ctx) {
  Ref *r = ctx;
  if ((*slot)->kind == r->kind && !strcmp((*slot)->text, r->name)) r->count++;
}

size_t red_uses(const AstExpr *e, AstExprKind kind, const char *name) {
  Ref r = {kind, name, 0, NULL};
  AstExpr *root = (AstExpr *)e;
  red_walk(&root, count_ref, &r);
  return r.count;
}

size_t red_uses_in_module(const AstModule *m, AstExprKind kind, const char *name) {
  size_t n = 0;
  for (size_t i = 0; i < m->ndefs; i++)
    if (m->defs[i]->kind == AST_DEF_FN) n += red_uses(m->defs[i]->fn->body, kind, name);
  if (m->body) n += red_uses(m->body, kind, name);
  return n;
}

static void replace_ref(AstExpr **slot, void *ctx) {
  Ref *r = ctx;
  if ((*slot)->kind == r->kind && (*slot)->text && !strcmp((*slot)->text, r->name)) *slot = r->with;
}

void red_replace_refs(AstExpr **slot, AstExprKind kind, const char *name, AstExpr *with) {
  Ref r = {kind, name, 0, with};
  red_walk(slot, replace_ref, &r);
}

void red_substitute(AstExpr **slot, AstExprKind kind, const char *name, AstExpr *with) {
  Ref r = {kind, name, 0, with};
  red_walk(slot, replace_ref, &r);
}

typedef struct Sites {
  const AstModule *m;
  RedSitesFn at;
  size_t seen, want;
  AstDef *def;
  RedSite *found; /* NULL when only counting */
  bool hit;
} Sites;

static void visit_site(AstExpr **slot, void *ctx) {
  Sites *s = ctx;
  size_t n = s->at(s->m, *slot);
  if (s->found && !s->hit && s->want < s->seen + n) {
    *s->found = (RedSite){slot, s->want - s->seen, s->def};
    s->hit = true;
  }
  s->seen += n;
}

/* Definitions in order, then the body of an expression-mode file: the order of the sites. */
static void walk_sites(AstModule *m, Sites *s) {
  for (size_t i = 0; i < m->ndefs && !s->hit; i++)
    if (m->defs[i]->kind == AST_DEF_FN) {
      s->def = m->defs[i];
      red_walk(&m->defs[i]->fn->body, visit_site, s);
    }
  s->def = NULL;
  if (m->body && !s->hit) red_walk(&m->body, visit_site, s);
}

size_t red_count_sites(const AstModule *m, RedSitesFn at) {
  Sites s = {m, at, 0, 0, NULL, NULL, false};
  walk_sites((AstModule *)m, &s);
  return s.seen;
}

bool red_find_site(AstModule *m, size_t i, RedSitesFn at, RedSite *site) {
  Sites s = {m, at, 0, i, NULL, site, false};
  walk_sites(m, &s);
  return s.hit;
}

static void count_call(AstExpr **slot, void *ctx) {
  if ((*slot)->kind == AST_CALL && (*slot)->a->kind == AST_NAME) ++*(size_t *)ctx;
}

size_t red_count_calls(const AstExpr *e) {
  size_t n = 0;
  AstExpr *root = (AstExpr *)e;
  red_walk(&root, count_call, &n);
  return n;
}

const char *red_fresh_name(AstModule *m, const char *stem) {
  for (unsigned k = 0;; k++) {
    const char *name = arena_printf(&m->arena, "%s%u", stem, k);
    if (red_uses_in_module(m, AST_LOCAL, name) == 0) {
      bool taken = false;
      for (size_t i = 0; i < m->ndefs; i++)
        if (m->defs[i]->kind == AST_DEF_FN)
          for (size_t j = 0; j < m->defs[i]->fn->nparams; j++) taken |= !strcmp(m->defs[i]->fn->params[j]->name, name);
      if (!taken) return name;
    }
  }
}
