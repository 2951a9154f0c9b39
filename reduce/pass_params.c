/*
 * Merge @main's parameters of the same type: every use of a later parameter becomes a use of the
 * first one of its type, and the later one goes.  What a person does by hand when a reduced
 * program ends as f(%a, %b, %c, %d) over four inputs of one type; dce would never remove them,
 * since each is used.  One opportunity per parameter that has an earlier one of its type (its
 * annotation's type, so this works in a program that does not type-check too).
 */
#include <stdlib.h>
#include <string.h>

#include "../typegen/types/types.h"
#include "reduce.h"

/* The type a parameter is annotated with, or NULL (no annotation, or one that names an unknown
   type). */
static const Type *param_type(TyTable *types, const AstBinder *b) {
  if (!b->type) return NULL;
  char err[128];
  const AstType *bad;
  return ty_from_ast(types, b->type, NULL, err, sizeof err, &bad);
}

/* The earliest of live[0..k) with live[k]'s type, or k when there is none. */
static size_t first_of_type(TyTable *types, AstBinder **live, size_t k) {
  const Type *t = param_type(types, live[k]);
  for (size_t j = 0; t && j < k; j++)
    if (param_type(types, live[j]) == t) return j;
  return k;
}

/* Only parameters the body reads take part (red_live_params): dce deletes the others. */
static size_t count(const Program *p) {
  AstDef *main = prog_main(p->m);
  if (!main) return 0;
  size_t nlive, n = 0;
  AstBinder **live = red_live_params(main->fn, &nlive);
  for (size_t k = 0; k < nlive; k++) n += first_of_type(p->types, live, k) != k;
  free(live);
  return n;
}

/* Merging parameter k leaves the parameters before it as they were, so the driver may apply
   several at once (RED_CHUNKS, highest first). */
static bool apply(Program *out, size_t i) {
  AstFunc *f = prog_main(out->m)->fn;
  size_t nlive;
  AstBinder **live = red_live_params(f, &nlive);
  for (size_t k = 0; k < nlive; k++) {
    size_t to = first_of_type(out->types, live, k);
    if (to == k || i-- > 0) continue;
    /* the survivor keeps the earlier position and the shorter of the two names, with that name's
       comments (TVM's span says where the binder of that name came from) */
    const char *keep = live[to]->name, *gone = live[k]->name;
    if (strlen(gone) < strlen(keep)) {
      const char *t = keep;
      keep = gone;
      gone = t;
      live[to]->name = keep;
      live[to]->node.comments = live[k]->node.comments;
    }
    prog_substitute(&f->body, AST_LOCAL, gone, ast_new_atom(out->m, AST_LOCAL, keep));
    red_drop_param(f, live[k]);
    free(live);
    return true;
  }
  free(live);
  return false;
}

const RedPass red_pass_params = {
    .name = "params",
    .description = "merge @main's parameters of the same type into the first of that type",
    .count = count,
    .apply = apply,
    .search = RED_CHUNKS,
};
