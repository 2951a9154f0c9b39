/*
 * Cut the graph: a value @main binds becomes a new parameter of @main of the same type, so
 * everything that only computed it can go (pass dce).  Last binding first: cutting near the
 * result removes the most.
 */
#include <stdlib.h>
#include <string.h>

#include "../support/xalloc.h"
#include "../typegen/to_ast.h"
#include "reduce.h"

static bool is_atom(const AstExpr *e) {
  return e->kind == AST_LOCAL || e->kind == AST_GRAPH || e->kind == AST_GLOBAL || e->kind == AST_INT ||
         e->kind == AST_FLOAT || e->kind == AST_BOOL;
}

static bool apply(Program *out, size_t i) {
  AstExpr *seq = prog_main_seq(out->m);
  size_t k = seq->nstmts - 1 - i;
  AstStmt *s = seq->stmts[k];
  if ((s->kind != AST_STMT_LET && s->kind != AST_STMT_GRAPH) || !s->value_type || is_atom(s->value)) return false;
  const Type *t = s->value_type;
  if (t->kind == TY_FUNC || !ty_is_readable(t)) return false; /* not something a test passes as an input */
  AstFunc *f = prog_main(out->m)->fn;
  const char *name = prog_fresh_name(out->m, "cut");
  AstExprKind kind = s->kind == AST_STMT_GRAPH ? AST_GRAPH : AST_LOCAL;
  const char *old = s->kind == AST_STMT_GRAPH ? s->graph : s->binder->name;
  /* the name must mean this binding everywhere it is read (printed graph numbers can repeat in
     nested functions; a let may be shadowed) */
  size_t here = prog_uses(seq->a, kind, old);
  for (size_t j = k + 1; j < seq->nstmts; j++) here += prog_uses(seq->stmts[j]->value, kind, old);
  if (here != prog_uses_in_module(out->m, kind, old)) return false;
  AstExpr *param_ref = ast_new_atom(out->m, AST_LOCAL, name);
  for (size_t j = k + 1; j < seq->nstmts; j++) prog_substitute(&seq->stmts[j]->value, kind, old, param_ref);
  prog_substitute(&seq->a, kind, old, param_ref);
  /* the binding goes; the new parameter comes last */
  memmove(&seq->stmts[k], &seq->stmts[k + 1], (seq->nstmts - k - 1) * sizeof *seq->stmts);
  seq->nstmts--;
  AstBinder **params = arena_alloc(&out->m->arena, (f->nparams + 1) * sizeof *params);
  if (f->nparams) memcpy(params, f->params, f->nparams * sizeof *params);
  params[f->nparams++] = ast_new_binder(out->m, name, ty_to_ast(out->m, t));
  f->params = params;
  return true;
}

const RedPass red_pass_cut = {"cut", "turn a value @main binds into a new parameter of @main", red_count_main_stmts, apply};
