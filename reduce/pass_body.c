/* Replace @main's whole body with a new parameter of its result type: the smallest program of
   that type (what an always-interesting test reduces to). */
#include <string.h>

#include "../typegen/ops/ops.h"
#include "reduce.h"

static size_t count(const Program *p) {
  AstDef *main = prog_main(p->m);
  if (!main || !main->fn->type) return 0;
  AstExpr *b = main->fn->body;
  bool is_param = b->kind == AST_LOCAL && main->fn->nparams == 1 && !strcmp(main->fn->params[0]->name, b->text);
  return is_param ? 0 : 1;
}

static bool apply(Program *out, size_t i) {
  (void)i;
  AstFunc *f = prog_main(out->m)->fn;
  const Type *t = f->type->ret;
  if (!ty_is_readable(t)) return false;
  const char *name = prog_fresh_name(out->m, "out");
  AstBinder *b = ast_new_binder(out->m, name, ty_to_ast(out->m, t));
  f->params = arena_alloc(&out->m->arena, sizeof *f->params);
  f->params[0] = b;
  f->nparams = 1;
  f->body = ast_new_atom(out->m, AST_LOCAL, name);
  return true;
}

const RedPass red_pass_body = {
    .name = "body",
    .description = "replace @main's body with a parameter of its result type",
    .count = count,
    .apply = apply,
    .search = RED_ONE_BY_ONE,
};
