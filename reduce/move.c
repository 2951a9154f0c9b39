/*
 * Moving code (the inline, fold and globals passes): beta-reduction, and re-establishing the
 * layout the printer needs after a subtree moved to a new place.
 */
#include <string.h>

#include "../typegen/ops/ops.h"
#include "reduce.h"

/* Does the caller already use or bind `name`?  Then a let of that name would shadow it. */
static bool taken(const AstFunc *caller, const AstExpr *caller_body, const char *name) {
  if (caller)
    for (size_t i = 0; i < caller->nparams; i++)
      if (!strcmp(caller->params[i]->name, name)) return true;
  return caller_body && (prog_uses(caller_body, AST_LOCAL, name) || prog_binds(caller_body, name));
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
      if (prog_binds(body, name)) return NULL;
      name = prog_fresh_name(m, name);
      prog_substitute(&body, AST_LOCAL, p->name, ast_new_atom(m, AST_LOCAL, name));
    }
    AstType *t = p->type;
    if (!t && f->type && f->type->kind == TY_FUNC && ty_is_readable(f->type->args[k]))
      t = ty_to_ast(m, f->type->args[k]);
    stmts[k] = ast_new_let(m, ast_new_binder(m, name, t), args[k]);
  }
  if (body->kind == AST_SEQ) { /* one chain rather than a chain ending in a chain */
    prog_block_notes_to_result(body);
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
      for (size_t k = i + 1; b && k < seq->nstmts && !clash; k++) clash = prog_occurs_free(seq->stmts[k]->value, b->name);
      clash = clash || (b && prog_occurs_free(seq->a, b->name));
    }
    if (clash) continue;
    prog_block_notes_to_result(inner);
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
    prog_block_notes_to_result(tail);
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

bool red_edit_site(Program *out, size_t i, RedSitesFn at, RedSiteCheck ok, RedSiteEdit edit) {
  RedSite site;
  if (!red_find_site(out->m, i, at, &site) || (ok && !ok(out->m, &site)) || !edit(out->m, &site)) return false;
  red_fix_layout(out->m);
  return true;
}
