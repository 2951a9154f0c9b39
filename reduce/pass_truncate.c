/*
 * Truncate @main: make the value bound by its k-th top-level binding the result, dropping all that
 * follows (the result type changes with it).  Earliest first: the smallest programs are tried first.
 */
#include "../typegen/to_ast.h"
#include "reduce.h"

static AstExpr *main_seq(const AstModule *m) {
  AstDef *main = red_main(m);
  return main && main->fn->body->kind == AST_SEQ ? main->fn->body : NULL;
}

static size_t count(const RedProgram *p) {
  AstExpr *seq = main_seq(p->m);
  return seq ? seq->nstmts : 0;
}

/* A type TVM can read back as an annotation (no ref(T), no polymorphic function type). */
static bool readable(const Type *t) {
  if (t->kind == TY_REF || t->kind == TY_INCOMPLETE || (t->kind == TY_FUNC && t->ntparams)) return false;
  for (uint32_t i = 0; i < t->nargs; i++)
    if (!readable(t->args[i])) return false;
  return !t->ret || readable(t->ret);
}

static bool apply(RedProgram *out, size_t i) {
  AstExpr *seq = main_seq(out->m);
  AstStmt *s = seq->stmts[i];
  if (s->kind != AST_STMT_LET && s->kind != AST_STMT_GRAPH) return false;
  if (!s->value_type) return false;
  AstExpr *result = s->kind == AST_STMT_GRAPH ? ast_new_atom(out->m, AST_GRAPH, s->graph)
                                              : ast_new_atom(out->m, AST_LOCAL, s->binder->name);
  seq->nstmts = i + 1;
  seq->a = result;
  AstFunc *f = red_main(out->m)->fn;
  f->ret = readable(s->value_type) ? ty_to_ast(out->m, s->value_type) : NULL;
  return true;
}

const RedPass red_pass_truncate = {"truncate", "make an intermediate value of @main its result", count, apply};
