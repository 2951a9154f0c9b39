/* Editing helpers for mutators (see edit.h). */
#include "edit.h"

#include <ctype.h>
#include <string.h>

#include "../program/program.h"

AstExpr *mut_var_ref(AstModule *m, const char *name) {
  return ast_new_atom(m, isdigit((unsigned char)name[0]) ? AST_GRAPH : AST_LOCAL, name);
}

bool mut_is_var(const AstExpr *e) { return e->kind == AST_LOCAL || e->kind == AST_GRAPH; }

bool mut_site_plain(const MutSite *s) {
  return s->in_main || (strcmp(s->def->name, "main") && s->def->fn->attrs.len == 0);
}

bool mut_closed_type(const Type *t) {
  switch (t->kind) {
  case TY_TENSOR:
    if (t->dtype.code == DT_VOID || t->dtype.lanes != 1) return false;
    return ty_num_elements(t) >= 0;
  case TY_TUPLE:
    for (uint32_t i = 0; i < t->nargs; i++)
      if (!mut_closed_type(t->args[i])) return false;
    return t->nargs > 0;
  default: return false;
  }
}

bool mut_name_taken(const AstModule *m, const char *name) {
  if (prog_uses_in_module(m, AST_LOCAL, name)) return true;
  for (size_t i = 0; i < m->ndefs; i++) {
    const AstFunc *f = m->defs[i]->kind == AST_DEF_FN ? m->defs[i]->fn : NULL;
    if (!f) continue;
    for (size_t j = 0; j < f->nparams; j++)
      if (!strcmp(f->params[j]->name, name)) return true;
    if (prog_binds(f->body, name)) return true;
  }
  return false;
}

const char *mut_fresh(AstModule *m, const char *stem) {
  for (unsigned k = 0;; k++) {
    const char *name = arena_printf(&m->arena, "%s%u", stem, k);
    if (!mut_name_taken(m, name)) return name;
  }
}

char *mut_expr_text(const AstExpr *e) {
  AstModule tmp;
  memset(&tmp, 0, sizeof tmp);
  tmp.body = (AstExpr *)e;
  AstPrintOptions po = {.strip_types = true, .strip_comments = true};
  return ast_print(&tmp, &po);
}
