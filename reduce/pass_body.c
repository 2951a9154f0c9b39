/* Replace @main's whole body with a parameter of its result type: the smallest program of
   that type (what an always-interesting test reduces to).  In a program that does not
   type-check, where inference never reached @main, the body becomes @main's first parameter (or a
   new one, untyped): the guard there is names, not types, and without this step an untyped chain
   of 50,000 globals was reduced one call at a time, each candidate as large as the program. */
#include <string.h>

#include "../typegen/ops/ops.h"
#include "reduce.h"

static size_t count(const Program *p) {
  AstDef *main = prog_main(p->m);
  if (!main || (!main->fn->type && p->guard == PROG_TYPED)) return 0;
  AstExpr *b = main->fn->body;
  bool is_param = b->kind == AST_LOCAL && main->fn->nparams == 1 && !strcmp(main->fn->params[0]->name, b->text);
  return is_param ? 0 : 1;
}

static bool apply(Program *out, size_t i) {
  (void)i;
  AstFunc *f = prog_main(out->m)->fn;
  AstBinder *b;
  if (f->type) {
    const Type *t = f->type->ret;
    if (!ty_is_readable(t)) return false;
    b = ast_new_binder(out->m, prog_fresh_name(out->m, "out"), ty_to_ast(out->m, t));
  } else {
    b = f->nparams ? f->params[0] : ast_new_binder(out->m, prog_fresh_name(out->m, "out"), NULL);
  }
  f->params = arena_alloc(&out->m->arena, sizeof *f->params);
  f->params[0] = b;
  f->nparams = 1;
  f->body = ast_new_atom(out->m, AST_LOCAL, b->name);
  return true;
}

const RedPass red_pass_body = {
    .name = "body",
    .description = "replace @main's body with a parameter of its result type (untyped: its first parameter)",
    .count = count,
    .apply = apply,
    .search = RED_ONE_BY_ONE,
};
