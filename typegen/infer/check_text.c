/* Parse and check in one step: what rcheck does to a file and what every tool's guard does to a
   candidate, so all of them accept exactly the same programs. */
#include "infer.h"

bool check_text(const char *text, size_t len, bool expressions_ok, AstModule **m, TyTable **types, Diag *diag) {
  return check_text_parsed(text, len, expressions_ok, m, types, diag, NULL);
}

bool check_text_parsed(const char *text, size_t len, bool expressions_ok, AstModule **m, TyTable **types, Diag *diag,
                       bool *parsed) {
  *m = ast_parse(text, len, diag);
  if (parsed) *parsed = *m != NULL;
  *types = ty_table_new();
  bool ok = false;
  if (!*m) {
  } else if (!(*m)->body) {
    ok = infer_module(*m, *types, diag);
  } else if (expressions_ok) {
    ok = scope_check_module(*m, diag);
  } else {
    /* A bare expression has no @main to reduce or mutate, and TVM does not type-check it. */
    diag_error(diag, 0, "a bare expression, not a module: wrap it in `def @main() { ... }`");
  }
  if (!ok) {
    ast_free(*m);
    ty_table_free(*types);
    *m = NULL;
    *types = NULL;
  }
  return ok;
}
