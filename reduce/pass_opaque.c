/*
 * An unknown operator's call (one the registry does not have, typed from its `/ * ty=T * /`
 * comment: typegen/infer/infer.c) is a black box of that type.  Its stated type is the one thing about
 * it the reducer can shrink: a tensor type becomes a scalar of its dtype, one opportunity per such
 * call.  What uses the call must then still type-check (the guard decides), and the test whether
 * the bug stays.
 */
#include <stdlib.h>
#include <string.h>

#include "../typegen/types/types.h"
#include "reduce.h"

typedef struct Find {
  size_t want, seen; /* want == SIZE_MAX: just count */
  AstExpr *call;
} Find;

static void find(AstExpr **slot, void *ctx) {
  Find *f = ctx;
  AstExpr *e = *slot;
  const Type *t = e->node.type;
  if (!e->node.opaque || !t || t->kind != TY_TENSOR || t->ndims == 0) return;
  if (f->seen++ == f->want) f->call = e;
}

static size_t count(const Program *p) {
  Find f = {SIZE_MAX, 0, NULL};
  prog_walk_module(p->m, find, &f);
  return f.seen;
}

static bool apply(Program *out, size_t i) {
  Find f = {i, 0, NULL};
  prog_walk_module(out->m, find, &f);
  if (!f.call) return false;
  for (AstComment *c = f.call->node.comments; c; c = c->next)
    if (!strncmp(c->text, "/* ty=", 6)) {
      char *dtype = ty_str(ty_scalar(out->types, f.call->node.type->dtype));
      const char *span = ast_comment_span(c->text); /* the call's span stays */
      c->text = arena_printf(&out->m->arena, "/* ty=%s%s", dtype, span ? span : " */");
      free(dtype);
      return true;
    }
  return false;
}

const RedPass red_pass_opaque = {
    .name = "opaque",
    .description = "shrink an unknown operator's stated result type to a scalar of its dtype",
    .count = count,
    .apply = apply,
    .search = RED_ONE_BY_ONE,
};
