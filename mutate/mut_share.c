/* Share: new edges in the dataflow graph.  Either an expression (not a plain variable) of type T
   becomes a variable in scope of type T, or a binding `%N = v;` gets a twin (a copy of v, or an
   alias of %N) under a fresh name that one later use of %N switches to. */
#include <stdlib.h>
#include <string.h>

#include "../program/program.h"
#include "edit.h"

/* ------------------------------------------------------------------ an expression -> a variable */
/* The sites (not plain variables, in plain code) where a variable of the expression's type is in
   scope, found in one walk: `sites` is in the walk's order (mut_sites), so it is followed along. */
typedef struct Sharable {
  const MutSites *sites;
  size_t next;                /* the first site the walk has not reached */
  VEC(const MutSite *) found;
} Sharable;

static bool sharable(const ScopedSite *site, void *ctx) {
  Sharable *w = ctx;
  if (w->next == w->sites->len) return true;
  const MutSite *s = &w->sites->items[w->next];
  if (site->slot != s->slot) return false;
  w->next++;
  if (mut_is_var(*s->slot) || !mut_site_plain(s)) return false;
  for (size_t v = 0; v < site->nscope; v++)
    if (site->scope[v].type == s->type) {
      VEC_PUSH(w->found, s);
      break;
    }
  return false;
}

static bool replace_with_var(MutContext *c, const MutSites *sites) {
  Sharable w = {sites, 0, {0}};
  prog_scoped_walk(c->m, sharable, &w);
  bool done = false;
  if (w.found.len) {
    const MutSite *s = w.found.items[rng_index(c->rng, w.found.len)];
    AstExpr *e = *s->slot;
    GenVars scope = {0};
    mut_scope_at(c->m, s, &scope);
    size_t matches = 0;
    for (size_t v = 0; v < scope.len; v++) matches += scope.items[v].type == s->type;
    size_t pick = rng_index(c->rng, matches);
    for (size_t v = 0; v < scope.len && !done; v++)
      if (scope.items[v].type == s->type && pick-- == 0) {
        AstExpr *ref = mut_var_ref(c->m, scope.items[v].name);
        *s->slot = ref;
        mut_note(c, &e->node, &ref->node, "share %%%s for the expression at %u:%u", scope.items[v].name, e->node.span.line,
                 e->node.span.col);
        done = true;
      }
    free(scope.items);
  }
  free(w.found.items);
  return done;
}

/* ------------------------------------------------------------------ duplicate a binding */
typedef struct Uses {
  AstExprKind kind;
  const char *name;
  VEC(AstExpr **) slots;
} Uses;

static void collect_use(AstExpr **slot, Uses *u) {
  if (!*slot) return;
  AstExpr *e = *slot;
  if (e->kind == u->kind && !strcmp(e->text, u->name)) VEC_PUSH(u->slots, slot);
  collect_use(&e->a, u);
  collect_use(&e->b, u);
  for (size_t i = 0; i < e->nitems; i++) collect_use(&e->items[i], u);
  collect_use(&e->then_, u);
  collect_use(&e->else_, u);
  for (size_t i = 0; i < e->narms; i++) collect_use(&e->arms[i]->body, u);
  for (size_t i = 0; i < e->nstmts; i++) collect_use(&e->stmts[i]->value, u);
  if (e->kind == AST_FN) collect_use(&e->fn->body, u);
}

/* The later uses of statement i's name in seq (none when a later statement binds it again). */
static void later_uses(AstExpr *seq, size_t i, Uses *u) {
  const AstStmt *s = seq->stmts[i];
  u->kind = s->kind == AST_STMT_GRAPH ? AST_GRAPH : AST_LOCAL;
  u->name = s->kind == AST_STMT_GRAPH ? s->graph : s->binder->name;
  u->slots.len = 0;
  for (size_t j = i + 1; j < seq->nstmts; j++) {
    const AstStmt *t = seq->stmts[j];
    if ((t->binder && !strcmp(t->binder->name, u->name)) || prog_binds(t->value, u->name)) return;
  }
  if (prog_binds(seq->a, u->name)) return;
  for (size_t j = i + 1; j < seq->nstmts; j++) collect_use(&seq->stmts[j]->value, u);
  collect_use(&seq->a, u);
}

typedef struct Cand {
  AstExpr *seq;
  size_t stmt;
} Cand;
typedef VEC(Cand) Cands;

/* Bindings in sequences outside functions with attributes.  Whether one has a later use is asked
   only of the ones tried: asking all of them costs a scan of the rest of the sequence each, which
   is quadratic on a 50,000-binding model. */
static void find_bindings(AstExpr *e, Cands *out) {
  if (!e) return;
  if (e->kind == AST_FN) {
    if (!e->fn->attrs.len) find_bindings(e->fn->body, out);
    return;
  }
  if (e->kind == AST_SEQ) { /* bindings in order, then the result */
    for (size_t k = 0; k < e->nstmts; k++) {
      AstStmt *s = e->stmts[k];
      find_bindings(s->value, out);
      if (s->kind == AST_STMT_GRAPH || (s->kind == AST_STMT_LET && s->binder)) VEC_PUSH(*out, ((Cand){e, k}));
    }
    find_bindings(e->a, out);
    return;
  }
  AstExpr **child;
  for (AstChildren it = ast_children(e); (child = ast_next_child(&it));) find_bindings(*child, out);
}

enum { MAX_BINDINGS_TRIED = 32 };

static bool duplicate_binding(MutContext *c) {
  Cands cands = {0};
  Uses u = {0};
  for (size_t i = 0; i < c->m->ndefs; i++) {
    AstDef *d = c->m->defs[i];
    if (d->kind == AST_DEF_FN && !d->fn->attrs.len) find_bindings(d->fn->body, &cands);
  }
  bool ok = false;
  for (size_t tries = 0; tries < MAX_BINDINGS_TRIED && cands.len && !ok; tries++) {
    size_t k = rng_index(c->rng, cands.len);
    Cand cd = cands.items[k];
    cands.items[k] = cands.items[--cands.len]; /* not tried again */
    later_uses(cd.seq, cd.stmt, &u);
    if (!u.slots.len) continue;
    ok = true;
    AstExpr *seq = cd.seq;
    AstStmt *orig = seq->stmts[cd.stmt];
    AstExpr **use = u.slots.items[rng_index(c->rng, u.slots.len)];
    bool alias = rng_chance(c->rng, 1, 2) || orig->value->kind == AST_FN;
    const char *fresh = prog_fresh_name(c->m, "md");
    AstExpr *value = alias ? mut_var_ref(c->m, u.name) : ast_expr_copy(c->m, orig->value, false);
    AstStmt *twin = ast_new_let(c->m, ast_new_binder(c->m, fresh, NULL), value);
    AstStmt **stmts = arena_alloc(&c->m->arena, (seq->nstmts + 1) * sizeof *stmts);
    memcpy(stmts, seq->stmts, (cd.stmt + 1) * sizeof *stmts);
    stmts[cd.stmt + 1] = twin;
    memcpy(stmts + cd.stmt + 2, seq->stmts + cd.stmt + 1, (seq->nstmts - cd.stmt - 1) * sizeof *stmts);
    seq->stmts = stmts;
    seq->nstmts++;
    AstSpan at = (*use)->node.span;
    *use = mut_var_ref(c->m, fresh);
    mut_note(c, &orig->node, &value->node, "share %s of %%%s as %%%s, used at %u:%u", alias ? "alias" : "duplicate", u.name,
             fresh, at.line, at.col);
  }
  free(u.slots.items);
  free(cands.items);
  return ok;
}

bool mut_share(MutContext *c) {
  MutSites sites = {0};
  mut_sites_to_change(c, &sites);
  bool first = rng_chance(c->rng, 1, 2);
  bool ok = first ? replace_with_var(c, &sites) || duplicate_binding(c)
                  : duplicate_binding(c) || replace_with_var(c, &sites);
  free(sites.items);
  return ok;
}
