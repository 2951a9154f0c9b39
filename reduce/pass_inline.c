/*
 * Inline single-use bindings: `let %x = v;` or `%N = v;` whose variable is read exactly once
 * afterwards goes, and v stands where it was read.  A closure called exactly once is inlined as
 * its body, its parameters bound by `let` to the arguments (beta-reduction), so the operators
 * inside come within reach of the other passes.  One candidate per binding.
 *
 * Moving v must not change what its names mean: the binding is skipped when the code after it
 * binds a name free in v (capture), binds the variable again (shadowing), or v refers to the
 * variable itself (a recursive closure, or `let %x = f(%x)`).
 *
 * The pass runs after truncate, cut and replace have taken @main's graph apart by its bindings, so
 * inlining @main's own bindings only tidies what is left: `%2 = nn.conv2d(..); %2` becomes the call.
 */
#include <string.h>

#include "reduce.h"

static size_t at(const AstModule *m, const AstExpr *e) {
  (void)m;
  return e->kind == AST_SEQ ? e->nstmts : 0;
}

/* What follows binding k of a sequence, as a sequence of its own (a view: shares the statements). */
static AstExpr rest_of(const AstExpr *seq, size_t k) {
  AstExpr rest = *seq;
  rest.stmts = seq->stmts + k + 1;
  rest.nstmts = seq->nstmts - k - 1;
  return rest;
}

static AstExprKind var_kind(const AstStmt *s) { return s->kind == AST_STMT_GRAPH ? AST_GRAPH : AST_LOCAL; }
static const char *var_name(const AstStmt *s) { return s->kind == AST_STMT_GRAPH ? s->graph : s->binder->name; }

/* The slot of the call `%var(...)` after binding k (NULL if the variable is not called there). */
typedef struct Call {
  const AstStmt *s;
  AstExpr **slot;
} Call;

static void find_call_in(AstExpr **slot, void *ctx) {
  Call *c = ctx;
  AstExpr *e = *slot;
  if (e->kind == AST_CALL && e->a->kind == var_kind(c->s) && !strcmp(e->a->text, var_name(c->s))) c->slot = slot;
}

static AstExpr **find_call(AstExpr *seq, size_t k) {
  Call c = {seq->stmts[k], NULL};
  for (size_t j = k + 1; j < seq->nstmts; j++) prog_walk(&seq->stmts[j]->value, find_call_in, &c);
  prog_walk(&seq->a, find_call_in, &c);
  return c.slot;
}

/* A closure whose single use is a call with the right number of arguments: beta-reduce it. */
static bool is_beta(AstExpr *seq, size_t k) {
  const AstExpr *v = seq->stmts[k]->value;
  if (v->kind != AST_FN || v->fn->ntype_params) return false;
  AstExpr **call = find_call(seq, k);
  return call && (*call)->nitems == v->fn->nparams && (*call)->attrs.len == 0;
}

static bool ok(const AstModule *m, const RedSite *site) {
  AstExpr *seq = *site->slot;
  const AstStmt *s = seq->stmts[site->sub];
  if (s->kind != AST_STMT_LET && s->kind != AST_STMT_GRAPH) return false;
  AstExprKind kind = var_kind(s);
  const char *name = var_name(s);
  AstExpr rest = rest_of(seq, site->sub);
  if (prog_uses(s->value, kind, name) || prog_uses(&rest, kind, name) != 1) return false;
  /* graph variables are one table for the whole text: the use must be the only one anywhere */
  if (kind == AST_GRAPH && prog_uses_in_module(m, kind, name) != 1) return false;
  if (kind == AST_LOCAL && prog_binds(&rest, name)) return false;
  return !prog_captures(&rest, s->value);
}

static bool edit(AstModule *m, const RedSite *site) {
  AstExpr *seq = *site->slot;
  size_t k = site->sub;
  const AstStmt *s = seq->stmts[k];
  AstExprKind kind = var_kind(s);
  const char *name = var_name(s);
  AstExpr **call = is_beta(seq, k) ? find_call(seq, k) : NULL;
  memmove(&seq->stmts[k], &seq->stmts[k + 1], (seq->nstmts - k - 1) * sizeof *seq->stmts);
  seq->nstmts--;
  if (call) {
    /* the closure is out of the tree now: what the caller binds is what clashes */
    AstFunc *caller = site->def ? site->def->fn : NULL;
    AstExpr *body = caller ? caller->body : m->body;
    AstExpr *inlined = red_beta(m, caller, body, s->value->fn, s->value->fn->body, (*call)->items);
    if (!inlined) return false;
    *call = inlined;
  } else {
    for (size_t j = k; j < seq->nstmts; j++) prog_substitute(&seq->stmts[j]->value, kind, name, s->value);
    prog_substitute(&seq->a, kind, name, s->value);
  }
  if (seq->nstmts == 0) *site->slot = seq->a;
  return true;
}

static size_t count(const Program *p) { return red_count_sites(p->m, at); }

static bool apply(Program *out, size_t i) { return red_edit_site(out, i, at, ok, edit); }

const RedPass red_pass_inline = {
    .name = "inline",
    .description = "inline a binding used once, or a closure called once",
    .count = count,
    .apply = apply,
    .search = RED_ONE_BY_ONE,
};
