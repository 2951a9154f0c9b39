/* Parse and check in one step: what rcheck does to a file and what every tool's guard does to a
   candidate, so all of them accept exactly the same programs. */
#include "infer.h"

bool check_text(const char *text, size_t len, bool expressions_ok, AstModule **m, TyTable **types, Diag *diag) {
  return check_text_parsed(text, len, expressions_ok, m, types, diag, NULL);
}

/* The first program checked, ill-typed under the newest release when nothing says the release:
   checked again under each older one, newest first; the first it type-checks under is kept for
   the process (op_tvm_first_check).  True with *m, *types and *diag those of that check. */
static bool under_older_release(const char *text, size_t len, AstModule **m, TyTable **types, Diag *diag) {
  TvmRelease now = op_tvm();
  for (int r = (int)now - 1; r >= 0; r--) {
    op_tvm_try((TvmRelease)r);
    Diag d;
    diag_init(&d, diag->file, text, len);
    AstModule *again = ast_parse(text, len, &d);
    TyTable *t = ty_table_new();
    if (again && !again->body && infer_module(again, t, &d)) {
      op_tvm_settle_on((TvmRelease)r, diag->file);
      ast_free(*m);
      ty_table_free(*types);
      *m = again;
      *types = t;
      diag_free(diag);
      *diag = d;
      return true;
    }
    ast_free(again);
    ty_table_free(t);
    diag_free(&d);
  }
  op_tvm_try(now);
  return false;
}

bool check_text_parsed(const char *text, size_t len, bool expressions_ok, AstModule **m, TyTable **types, Diag *diag,
                       bool *parsed) {
  *m = ast_parse(text, len, diag);
  if (parsed) *parsed = *m != NULL;
  *types = ty_table_new();
  bool ok = false;
  if (!*m) {
  } else if (!(*m)->body) {
    bool may_settle = op_tvm_first_check();
    ok = infer_module(*m, *types, diag) || (may_settle && under_older_release(text, len, m, types, diag));
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
