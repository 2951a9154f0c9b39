/* @main's input types, which the shapes pass shrinks and rmutate's shape mutator changes; and the
   check both make after the program followed by inference. */
#include <stdlib.h>

#include "reduce.h"

/* Visits the tensor types in t (tuples' fields too). */
static void each_tensor(AstType *t, void (*f)(AstType *t, void *ctx), void *ctx) {
  if (!t) return;
  if (t->kind == AST_TY_TENSOR) f(t, ctx);
  if (t->kind == AST_TY_TUPLE)
    for (size_t i = 0; i < t->nargs; i++) each_tensor(t->args[i], f, ctx);
}

typedef struct SizesCtx {
  RedSizes *out;
  long long min;
} SizesCtx;

static void add_sizes(AstType *t, void *ctx) {
  SizesCtx *s = ctx;
  for (size_t d = 0; d < t->ndims; d++) {
    if (t->dims[d].kind != AST_DIM_INT) continue;
    long long v = strtoll(t->dims[d].text, NULL, 10);
    bool seen = v < s->min;
    for (size_t k = 0; k < s->out->len && !seen; k++) seen = s->out->items[k] == v;
    if (!seen) VEC_PUSH(*s->out, v);
  }
}

static int descending(const void *a, const void *b) {
  long long x = *(const long long *)a, y = *(const long long *)b;
  return x < y ? 1 : x > y ? -1 : 0;
}

void red_input_sizes(AstFunc *f, long long min, RedSizes *out) {
  SizesCtx s = {out, min};
  for (size_t i = 0; i < f->nparams; i++) each_tensor(f->params[i]->type, add_sizes, &s);
  if (out->len) qsort(out->items, out->len, sizeof *out->items, descending);
}

typedef struct Resize {
  Arena *arena;
  long long from, to;
  bool changed;
} Resize;

static void resize(AstType *t, void *ctx) {
  Resize *r = ctx;
  for (size_t d = 0; d < t->ndims; d++)
    if (t->dims[d].kind == AST_DIM_INT && strtoll(t->dims[d].text, NULL, 10) == r->from) {
      t->dims[d].text = arena_printf(r->arena, "%lld", r->to);
      r->changed = true;
    }
}

size_t red_resize_inputs(AstFunc *f, Arena *arena, long long from, long long to) {
  size_t first = f->nparams;
  for (size_t k = 0; k < f->nparams; k++) {
    Resize r = {arena, from, to, false};
    each_tensor(f->params[k]->type, resize, &r);
    if (r.changed && first == f->nparams) first = k;
  }
  return first;
}

/* Whether a type has a dimension inference could not determine. */
static bool type_has_any(const Type *t) {
  if (!t) return false;
  for (uint32_t d = 0; t->kind == TY_TENSOR && d < t->ndims; d++)
    if (t->dims[d] == TY_DIM_ANY) return true;
  for (uint32_t k = 0; k < t->nargs; k++)
    if (type_has_any(t->args[k])) return true;
  return type_has_any(t->ret);
}

static void note_any(AstExpr **slot, void *ctx) { *(bool *)ctx |= type_has_any((*slot)->node.type); }

bool red_has_unknown_dims(const AstModule *m) {
  bool any = false;
  for (size_t i = 0; i < m->ndefs && !any; i++)
    if (m->defs[i]->kind == AST_DEF_FN) red_walk(&m->defs[i]->fn->body, note_any, &any);
  return any;
}
