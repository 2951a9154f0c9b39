/*
 * Truncate @main: make the value bound by its k-th top-level binding the result, dropping all that
 * follows (the result type changes with it).  Earliest first: the smallest programs are tried first.
 */
#include "../typegen/ops/ops.h"
#include "reduce.h"

static bool apply(Program *out, size_t i) {
  AstExpr *seq = prog_main_seq(out->m);
  AstStmt *s = seq->stmts[i];
  if (s->kind != AST_STMT_LET && s->kind != AST_STMT_GRAPH) return false;
  if (!s->value_type) return false;
  AstExpr *result = s->kind == AST_STMT_GRAPH ? ast_new_atom(out->m, AST_GRAPH, s->graph)
                                              : ast_new_atom(out->m, AST_LOCAL, s->binder->name);
  seq->nstmts = i + 1;
  seq->a = result;
  AstFunc *f = prog_main(out->m)->fn;
  f->ret = ty_is_readable(s->value_type) ? ty_to_ast(out->m, s->value_type) : NULL;
  return true;
}

const RedPass red_pass_truncate = {
    .name = "truncate",
    .description = "make an intermediate value of @main its result",
    .count = red_count_main_stmts,
    .apply = apply,
    .search = RED_FIRST,
};
