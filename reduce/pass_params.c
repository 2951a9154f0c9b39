/*
 * Merge @main's parameters of the same type: every use of a later parameter becomes a use of the
 * first one of its type, and the later one goes.  What a person does by hand when a reduced
 * program ends as f(%a, %b, %c, %d) over four inputs of one type; dce would never remove them,
 * since each is used.  One opportunity per parameter that has an earlier one of its type (its
 * annotation's type, so this works in a program that does not type-check too).
 */
#include <string.h>

#include "../typegen/type_ast.h"
#include "reduce.h"

/* The type parameter k of f is annotated with, or NULL (no annotation, or one that names an
   unknown type). */
static const Type *param_type(TyTable *types, const AstFunc *f, size_t k) {
  if (!f->params[k]->type) return NULL;
  char err[128];
  const AstType *bad;
  return ty_from_ast(types, f->params[k]->type, NULL, err, sizeof err, &bad);
}

/* The earliest parameter before k with k's type, or k when there is none. */
static size_t first_of_type(TyTable *types, const AstFunc *f, size_t k) {
  const Type *t = param_type(types, f, k);
  for (size_t j = 0; t && j < k; j++)
    if (param_type(types, f, j) == t) return j;
  return k;
}

static size_t count(const Program *p) {
  AstDef *main = prog_main(p->m);
  size_t n = 0;
  for (size_t k = 0; main && k < main->fn->nparams; k++) n += first_of_type(p->types, main->fn, k) != k;
  return n;
}

static bool apply(Program *out, size_t i) {
  AstFunc *f = prog_main(out->m)->fn;
  for (size_t k = 0; k < f->nparams; k++) {
    size_t to = first_of_type(out->types, f, k);
    if (to == k || i-- > 0) continue;
    /* the survivor keeps the earlier position and the shorter of the two names */
    const char *keep = f->params[to]->name, *gone = f->params[k]->name;
    if (strlen(gone) < strlen(keep)) {
      const char *t = keep;
      keep = gone;
      gone = t;
      f->params[to]->name = keep;
    }
    prog_substitute(&f->body, AST_LOCAL, gone, ast_new_atom(out->m, AST_LOCAL, keep));
    memmove(&f->params[k], &f->params[k + 1], (f->nparams - k - 1) * sizeof *f->params);
    f->nparams--;
    return true;
  }
  return false;
}

const RedPass red_pass_params = {"params", "merge @main's parameters of the same type into the first of that type", count,
                                 apply};
