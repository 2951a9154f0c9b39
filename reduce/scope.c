/*
 * Scope-aware helpers for the passes that move code (inline, fold, globals): which names a tree
 * binds, where a name occurs free, copying, beta-reduction, and re-establishing the layout the
 * printer needs after a subtree moved to a new place.
 */
#include <string.h>

#include "../typegen/to_ast.h"
#include "reduce.h"

static bool pattern_binds(const AstPattern *p, const char *name) {
  if (p->kind == AST_PAT_VAR) return !name || !strcmp(p->name, name);
  for (size_t i = 0; i < p->nitems; i++)
    if (pattern_binds(p->items[i], name)) return true;
  return false;
}

bool red_pattern_binds(const AstPattern *p) { return pattern_binds(p, NULL); }

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
  red_walk(&root, ask_node, &a);
  return a.yes;
}

static bool same_name(const char *name, void *ctx) { return !strcmp(name, ctx); }

bool red_binds(const AstExpr *e, const char *name) { return any_binder(e, same_name, (void *)name); }

bool red_occurs_free(const AstExpr *e, const char *name) {
  if (!e) return false;
  switch (e->kind) {
  case AST_LOCAL: return !strcmp(e->text, name);
  case AST_FN:
    for (size_t i = 0; i < e->fn->nparams; i++)
      if (!strcmp(e->fn->params[i]->name, name)) return false;
    return red_occurs_free(e->fn->body, name);
  case AST_SEQ:
    for (size_t i = 0; i < e->nstmts; i++) {
      const AstStmt *s = e->stmts[i];
      bool binds = s->binder && !strcmp(s->binder->name, name);
      /* a let-bound function sees its own name (the type checker's let-rec) */
      if (binds && s->kind == AST_STMT_LET && s->value->kind == AST_FN) return false;
      if (s->value && red_occurs_free(s->value, name)) return true;
      if (binds) return false;
    }
    return red_occurs_free(e->a, name);
  case AST_MATCH:
    if (red_occurs_free(e->a, name)) return true;
    for (size_t i = 0; i < e->narms; i++)
      if (!pattern_binds(e->arms[i]->pattern, name) && red_occurs_free(e->arms[i]->body, name)) return true;
    return false;
  default:
    if (red_occurs_free(e->a, name) || red_occurs_free(e->b, name)) return true;
    for (size_t i = 0; i < e->nitems; i++)
      if (red_occurs_free(e->items[i], name)) return true;
    return red_occurs_free(e->then_, name) || red_occurs_free(e->else_, name);
  }
}

static bool free_in(const char *name, void *v) { return red_occurs_free(v, name); }

bool red_captures(const AstExpr *region, const AstExpr *v) { return any_binder(region, free_in, (void *)v); }

AstExpr *red_copy_expr(AstModule *m, const AstExpr *e) {
  if (!e) return NULL;
  AstExpr *c = arena_alloc(&m->arena, sizeof *c);
  *c = *e;
  c->a = red_copy_expr(m, e->a);
  c->b = red_copy_expr(m, e->b);
  c->then_ = red_copy_expr(m, e->then_);
  c->else_ = red_copy_expr(m, e->else_);
  if (e->nitems) {
    c->items = arena_alloc(&m->arena, e->nitems * sizeof *c->items);
    for (size_t i = 0; i < e->nitems; i++) c->items[i] = red_copy_expr(m, e->items[i]);
  }
  if (e->narms) {
    c->arms = arena_alloc(&m->arena, e->narms * sizeof *c->arms);
    for (size_t i = 0; i < e->narms; i++) {
      c->arms[i] = arena_alloc(&m->arena, sizeof **c->arms);
      *c->arms[i] = *e->arms[i]; /* the pattern is shared: no pass changes patterns in place */
      c->arms[i]->body = red_copy_expr(m, e->arms[i]->body);
    }
  }
  if (e->nstmts) {
    c->stmts = arena_alloc(&m->arena, e->nstmts * sizeof *c->stmts);
    for (size_t i = 0; i < e->nstmts; i++) {
      c->stmts[i] = arena_alloc(&m->arena, sizeof **c->stmts);
      *c->stmts[i] = *e->stmts[i]; /* binders are shared, like patterns */
      c->stmts[i]->value = red_copy_expr(m, e->stmts[i]->value);
    }
  }
  if (e->fn) {
    c->fn = arena_alloc(&m->arena, sizeof *c->fn);
    *c->fn = *e->fn;
    c->fn->body = red_copy_expr(m, e->fn->body);
  }
  return c;
}

/* Does the caller already use or bind `name`?  Then a let of that name would shadow it. */
static bool taken(const AstFunc *caller, const AstExpr *caller_body, const char *name) {
  if (caller)
    for (size_t i = 0; i < caller->nparams; i++)
      if (!strcmp(caller->params[i]->name, name)) return true;
  return caller_body && (red_uses(caller_body, AST_LOCAL, name) || red_binds(caller_body, name));
}

AstExpr *red_beta(AstModule *m, const AstFunc *caller, const AstExpr *caller_body, const AstFunc *f, AstExpr *body,
                  AstExpr *const *args) {
  size_t inner = body->kind == AST_SEQ ? body->nstmts : 0;
  AstStmt **stmts = arena_alloc(&m->arena, (f->nparams + inner + 1) * sizeof *stmts);
  for (size_t k = 0; k < f->nparams; k++) {
    const AstBinder *p = f->params[k];
    const char *name = p->name;
    if (taken(caller, caller_body, name)) {
      /* renaming the uses is only sound when the body does not bind the name again */
      if (red_binds(body, name)) return NULL;
      name = red_fresh_name(m, name);
      red_substitute(&body, AST_LOCAL, p->name, ast_new_atom(m, AST_LOCAL, name));
    }
    AstType *t = p->type;
    if (!t && f->type && f->type->kind == TY_FUNC && ty_is_readable(f->type->args[k]))
      t = ty_to_ast(m, f->type->args[k]);
    stmts[k] = ast_new_let(m, ast_new_binder(m, name, t), args[k]);
  }
  if (body->kind == AST_SEQ) { /* one chain rather than a chain ending in a chain */
    memcpy(stmts + f->nparams, body->stmts, inner * sizeof *stmts);
    body = body->a;
  }
  return ast_new_seq(m, stmts, f->nparams + inner, body);
}

/* ------------------------------------------------------------------ layout */

/* Where a subtree stands decides what the printer needs around it. */
typedef enum Place {
  AT_VALUE,  /* an operand: a let chain needs parentheses, a call or an atom none */
  AT_COND,   /* inside `if (...)` or after `match`: the parentheses are the syntax's, keep them */
  AT_BODY,   /* inside braces or parentheses: anything goes */
  AT_ARM,    /* a match arm: a let chain needs braces */
  AT_CALLEE, /* before `(`: anything but a name or a call needs parentheses */
} Place;

static bool is_plain(const AstExpr *e) {
  switch (e->kind) {
  case AST_LOCAL: case AST_GRAPH: case AST_GLOBAL: case AST_NAME: case AST_INT: case AST_FLOAT: case AST_BOOL:
  case AST_META: case AST_CALL: case AST_TUPLE: case AST_PROJ: return true;
  default: return false;
  }
}

/* `%1 = (let %a = x; f(%a));` becomes `let %a = x; %1 = f(%a);`: a chain bound by a binding joins
   the enclosing chain (what an inlined call leaves), so truncate and cut see its steps.  Only when
   no name the inner chain binds is read by what follows in the outer one (it would be captured). */
static void hoist(AstModule *m, AstExpr *seq) {
  for (size_t i = 0; i < seq->nstmts; i++) {
    AstStmt *s = seq->stmts[i];
    AstExpr *inner = s->value;
    while (inner && inner->kind == AST_PAREN) inner = inner->a;
    if (s->kind == AST_STMT_FREE || !inner || inner->kind != AST_SEQ) continue;
    bool clash = false;
    for (size_t j = 0; j < inner->nstmts && !clash; j++) {
      const AstBinder *b = inner->stmts[j]->binder;
      for (size_t k = i + 1; b && k < seq->nstmts && !clash; k++) clash = red_occurs_free(seq->stmts[k]->value, b->name);
      clash = clash || (b && red_occurs_free(seq->a, b->name));
    }
    if (clash) continue;
    AstStmt **stmts = arena_alloc(&m->arena, (seq->nstmts + inner->nstmts) * sizeof *stmts);
    memcpy(stmts, seq->stmts, i * sizeof *stmts);
    memcpy(stmts + i, inner->stmts, inner->nstmts * sizeof *stmts);
    memcpy(stmts + i + inner->nstmts, seq->stmts + i, (seq->nstmts - i) * sizeof *stmts);
    s->value = inner->a;
    seq->stmts = stmts;
    seq->nstmts += inner->nstmts;
    i += inner->nstmts;
  }
}

static void fix(AstModule *m, AstExpr **slot, Place at) {
  AstExpr *e = *slot;
  if (!e) return;
  while (e->kind == AST_SEQ && e->a->kind == AST_SEQ) { /* a chain ending in a chain: one chain */
    AstExpr *tail = e->a;
    AstStmt **stmts = arena_alloc(&m->arena, (e->nstmts + tail->nstmts) * sizeof *stmts);
    memcpy(stmts, e->stmts, e->nstmts * sizeof *stmts);
    memcpy(stmts + e->nstmts, tail->stmts, tail->nstmts * sizeof *stmts);
    e->stmts = stmts;
    e->nstmts += tail->nstmts;
    e->a = tail->a;
  }
  if (e->kind == AST_SEQ) hoist(m, e);
  if (e->kind == AST_BLOCK && at != AT_ARM) { /* braces only stand around match arms */
    *slot = e->a;
    fix(m, slot, at);
    return;
  }
  if (e->kind == AST_PAREN && at == AT_VALUE && is_plain(e->a)) { /* left by a chain that emptied */
    *slot = e->a;
    fix(m, slot, at);
    return;
  }
  switch (e->kind) {
  case AST_CALL: fix(m, &e->a, AT_CALLEE); break;
  case AST_PAREN:
  case AST_BLOCK: fix(m, &e->a, AT_BODY); break;
  case AST_FN: fix(m, &e->fn->body, AT_BODY); break;
  case AST_SEQ: fix(m, &e->a, AT_BODY); break;
  case AST_MATCH: fix(m, &e->a, AT_COND); break;
  case AST_IF:
    fix(m, &e->a, AT_COND);
    fix(m, &e->then_, AT_BODY);
    fix(m, &e->else_, AT_BODY);
    break;
  default:
    fix(m, &e->a, AT_VALUE);
    fix(m, &e->b, AT_VALUE);
  }
  for (size_t i = 0; i < e->nitems; i++) fix(m, &e->items[i], AT_VALUE);
  for (size_t i = 0; i < e->nstmts; i++) fix(m, &e->stmts[i]->value, AT_VALUE);
  for (size_t i = 0; i < e->narms; i++) fix(m, &e->arms[i]->body, AT_ARM);
  bool name = e->kind == AST_LOCAL || e->kind == AST_GRAPH || e->kind == AST_GLOBAL || e->kind == AST_NAME ||
              e->kind == AST_CALL || e->kind == AST_PAREN;
  if (e->kind == AST_SEQ && at == AT_ARM) *slot = ast_new_unary(m, AST_BLOCK, e);
  else if ((e->kind == AST_SEQ && (at == AT_VALUE || at == AT_COND)) || (at == AT_CALLEE && !name))
    *slot = ast_new_unary(m, AST_PAREN, e);
}

void red_fix_layout(AstModule *m) {
  for (size_t i = 0; i < m->ndefs; i++)
    if (m->defs[i]->kind == AST_DEF_FN) fix(m, &m->defs[i]->fn->body, AT_BODY);
  if (m->body) fix(m, &m->body, AT_BODY);
}

bool red_edit_site(RedProgram *out, size_t i, RedSitesFn at, RedSiteCheck ok, RedSiteEdit edit) {
  RedSite site;
  if (!red_find_site(out->m, i, at, &site) || (ok && !ok(out->m, &site))) return false;
  RedProgram trial;
  if (!red_program_copy(out, &trial)) return false;
  if (!red_find_site(trial.m, i, at, &site) || !edit(trial.m, &site)) {
    red_program_free(&trial);
    return false;
  }
  red_fix_layout(trial.m);
  return red_program_adopt_if_typed(out, &trial);
}
