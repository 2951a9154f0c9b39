/*
 * Unwrap a closure: @main becomes the body of a function it binds, with that function's
 * parameters added to its own (what the closure captured from @main stays bound: the bindings
 * before it are kept).  Operators hidden in fused primitive functions and loop bodies then come
 * within reach of truncate and cut.
 */
#include <string.h>

#include "../support/xalloc.h"
#include "../typegen/ops/ops.h"
#include "reduce.h"

static bool has_param(const AstFunc *f, const char *name) {
  for (size_t i = 0; i < f->nparams; i++)
    if (!strcmp(f->params[i]->name, name)) return true;
  return false;
}

/* The closure a binding of @main binds, or NULL. */
static AstExpr *closure_of(const AstStmt *s) {
  if (s->kind != AST_STMT_LET && s->kind != AST_STMT_GRAPH) return NULL;
  AstExpr *v = s->value;
  while (v->kind == AST_PAREN) v = v->a;
  return v->kind == AST_FN && !v->fn->ntype_params ? v : NULL;
}

/* One opportunity per closure binding, not per binding: every opportunity costs the driver a copy
   of the program, and a 50,000-binding chain has no closure at all. */
static size_t count(const Program *p) {
  AstExpr *seq = prog_main_seq(p->m);
  size_t n = 0;
  for (size_t k = 0; seq && k < seq->nstmts; k++) n += closure_of(seq->stmts[k]) != NULL;
  return n;
}

static bool apply(Program *out, size_t which) {
  AstExpr *seq = prog_main_seq(out->m);
  size_t i = 0;
  for (size_t seen = 0; i < seq->nstmts; i++)
    if (closure_of(seq->stmts[i]) && seen++ == which) break;
  if (i == seq->nstmts) return false;
  AstStmt *s = seq->stmts[i];
  AstExpr *v = closure_of(s);
  AstFunc *main = prog_main(out->m)->fn, *fn = v->fn;
  if (!fn->type || fn->type->kind != TY_FUNC) return false;
  if (s->kind == AST_STMT_LET && prog_uses(fn->body, AST_LOCAL, s->binder->name)) return false; /* recursive */
  for (size_t k = 0; k < fn->nparams; k++)
    if (has_param(main, fn->params[k]->name)) return false; /* would clash: leave it to other passes */
  AstBinder **params = arena_alloc(&out->m->arena, (main->nparams + fn->nparams + 1) * sizeof *params);
  if (main->nparams) memcpy(params, main->params, main->nparams * sizeof *params);
  for (size_t k = 0; k < fn->nparams; k++) {
    params[main->nparams + k] = fn->params[k];
    if (!params[main->nparams + k]->type)
      params[main->nparams + k]->type = ty_to_ast(out->m, fn->type->args[k]);
  }
  main->params = params;
  main->nparams += fn->nparams;
  /* the statements before the closure, then the closure's own */
  AstExpr *body = fn->body;
  prog_block_notes_to_result(body); /* the closure's result keeps its span */
  size_t inner = body->kind == AST_SEQ ? body->nstmts : 0;
  AstStmt **stmts = arena_alloc(&out->m->arena, (i + inner + 1) * sizeof *stmts);
  memcpy(stmts, seq->stmts, i * sizeof *stmts);
  if (inner) memcpy(stmts + i, body->stmts, inner * sizeof *stmts);
  seq->stmts = stmts;
  seq->nstmts = i + inner;
  seq->a = body->kind == AST_SEQ ? body->a : body;
  main->ret = fn->ret ? fn->ret : ty_to_ast(out->m, fn->type->ret);
  return true;
}

const RedPass red_pass_unwrap = {
    .name = "unwrap",
    .description = "make the body of a closure @main binds the body of @main",
    .count = count,
    .apply = apply,
    .search = RED_ONE_BY_ONE,
};
