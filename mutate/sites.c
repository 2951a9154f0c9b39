/* Where mutators act: typed expressions, the variables in scope at each, and placing new code. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../reduce/reduce.h"
#include "mutate.h"

static bool is_atom_kind(AstExprKind k) {
  return k == AST_NAME || k == AST_STRING || k == AST_ANY || k == AST_LIST;
}

/* The walk: every site (collect mode) or the scope at one site (scope mode). */
typedef struct Walk {
  MutSites *sites;           /* collect mode */
  const MutSite *target;     /* scope mode: stop at this slot */
  GenVars scope;
  bool done;
  AstDef *def;
  bool in_main, in_attr_fn;
} Walk;

static void push(Walk *w, const char *name, const Type *t) {
  if (t) VEC_PUSH(w->scope, ((GenVar){name, t, NULL, NULL, 0}));
}

static void visit(Walk *w, AstExpr **slot, bool callee);

static void visit_fn(Walk *w, AstFunc *f) {
  size_t mark = w->scope.len;
  bool outer = w->in_attr_fn;
  w->in_attr_fn |= f->attrs.len > 0;
  for (size_t k = 0; k < f->nparams; k++)
    push(w, f->params[k]->name, f->type && f->type->kind == TY_FUNC && k < f->type->nargs ? f->type->args[k] : NULL);
  visit(w, &f->body, false);
  w->in_attr_fn = outer;
  if (!w->done) w->scope.len = mark;
}

static void visit(Walk *w, AstExpr **slot, bool callee) {
  AstExpr *e = *slot;
  if (!e || w->done) return;
  if (w->target && w->target->slot == slot) {
    w->done = true;
    return;
  }
  if (w->sites && e->node.type && !is_atom_kind(e->kind))
    VEC_PUSH(*w->sites, ((MutSite){slot, w->def, w->in_main && !w->in_attr_fn, callee}));
  switch (e->kind) {
  case AST_CALL:
    visit(w, &e->a, true);
    for (size_t i = 0; i < e->nitems && !w->done; i++) visit(w, &e->items[i], false);
    return;
  case AST_FN: visit_fn(w, e->fn); return;
  case AST_SEQ: {
    size_t mark = w->scope.len;
    for (size_t i = 0; i < e->nstmts && !w->done; i++) {
      AstStmt *s = e->stmts[i];
      visit(w, &s->value, false);
      if (w->done) break; /* the target is in this value: its own binding is not in scope */
      if (s->kind == AST_STMT_LET) push(w, s->binder->name, s->value_type);
      if (s->kind == AST_STMT_GRAPH) push(w, s->graph, s->value_type);
    }
    visit(w, &e->a, false);
    if (!w->done) w->scope.len = mark;
    return;
  }
  case AST_MATCH: /* pattern variables are not offered: arm bodies see the outer scope */
    visit(w, &e->a, false);
    for (size_t i = 0; i < e->narms && !w->done; i++) visit(w, &e->arms[i]->body, false);
    return;
  default:
    visit(w, &e->a, false);
    visit(w, &e->b, false);
    for (size_t i = 0; i < e->nitems && !w->done; i++) visit(w, &e->items[i], false);
    visit(w, &e->then_, false);
    visit(w, &e->else_, false);
    return;
  }
}

static void walk_module(Walk *w, AstModule *m) {
  for (size_t i = 0; i < m->ndefs && !w->done; i++) {
    AstDef *d = m->defs[i];
    if (d->kind != AST_DEF_FN) continue;
    w->def = d;
    w->in_main = !strcmp(d->name, "main");
    visit_fn(w, d->fn);
  }
}

void mut_sites(AstModule *m, MutSites *out) {
  Walk w = {.sites = out};
  walk_module(&w, m);
  free(w.scope.items);
  /* callees are not values: drop them here so every mutator sees only values */
  size_t k = 0;
  for (size_t i = 0; i < out->len; i++)
    if (!out->items[i].is_callee) out->items[k++] = out->items[i];
  out->len = k;
}

const MutSite *mut_pick(MutContext *c, const MutSites *sites, bool (*want)(const AstExpr *e, void *ctx), void *ctx) {
  size_t n = 0;
  for (size_t i = 0; i < sites->len; i++) n += !want || want(*sites->items[i].slot, ctx);
  if (!n) return NULL;
  size_t k = rng_index(c->rng, n);
  for (size_t i = 0; i < sites->len; i++)
    if ((!want || want(*sites->items[i].slot, ctx)) && k-- == 0) return &sites->items[i];
  return NULL;
}

void mut_scope_at(AstModule *m, const MutSite *site, GenVars *out) {
  Walk w = {.target = site};
  walk_module(&w, m);
  for (size_t i = 0; i < w.scope.len; i++) VEC_PUSH(*out, w.scope.items[i]);
  free(w.scope.items);
}

/* The largest graph number the program uses, so generated bindings continue after it. */
static void max_graph(AstExpr **slot, void *ctx) {
  unsigned *max = ctx;
  AstExpr *e = *slot;
  if (e->kind == AST_GRAPH) {
    unsigned v = (unsigned)strtoul(e->text, NULL, 10);
    if (v > *max) *max = v;
  }
  for (size_t i = 0; i < e->nstmts; i++)
    if (e->stmts[i]->kind == AST_STMT_GRAPH) {
      unsigned v = (unsigned)strtoul(e->stmts[i]->graph, NULL, 10);
      if (v > *max) *max = v;
    }
}

void mut_gen_at(MutContext *c, const MutSite *site, Gen *g, GenStmts *block) {
  gen_init(g, c->policy, c->m, c->types, *c->rng);
  rng_next(c->rng); /* the generator took a copy of the stream: move ours on */
  mut_scope_at(c->m, site, &g->scope);
  unsigned max = 0;
  for (size_t i = 0; i < c->m->ndefs; i++)
    if (c->m->defs[i]->kind == AST_DEF_FN) red_walk(&c->m->defs[i]->fn->body, max_graph, &max);
  g->next_graph = max + 1;
  g->next_local = 1000 + (unsigned)rng_index(c->rng, 1000) * 10; /* locals: %x1000.. beside the program's */
  block->len = 0;
  g->block = block;
}

void mut_place(MutContext *c, const MutSite *site, AstExpr *e, GenStmts *block) {
  if (block && block->len)
    e = ast_new_unary(c->m, AST_PAREN, ast_new_seq(c->m, block->items, block->len, e));
  *site->slot = e;
}

void mut_note(MutContext *c, const AstNode *old, AstNode *now, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char buf[512];
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  sb_puts(c->what, buf);
  c->where = old->span;
  c->marked = now;
}
