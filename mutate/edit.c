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

char *mut_expr_text(const AstExpr *e) {
  AstModule tmp;
  memset(&tmp, 0, sizeof tmp);
  tmp.body = (AstExpr *)e;
  AstPrintOptions po = {.strip_types = true, .strip_comments = true};
  return ast_print(&tmp, &po);
}
