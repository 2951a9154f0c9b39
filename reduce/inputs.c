/* @main's input types, which the shapes pass shrinks and rmutate's shape mutator changes; and the
   check both make after the program followed by inference. */
#include <stdlib.h>

#include "reduce.h"

/* Visits the tensor types in t (tuples' fields, function types' parameters and result too). */
static void each_tensor(AstType *t, void (*f)(AstType *t, void *ctx), void *ctx) {
  if (!t) return;
  if (t->kind == AST_TY_TENSOR) f(t, ctx);
  for (size_t i = 0; t->kind != AST_TY_TENSOR && i < t->nargs; i++) each_tensor(t->args[i], f, ctx);
  if (t->kind == AST_TY_FUNC) each_tensor(t->ret, f, ctx);
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
  size_t changes;
} Resize;

static void resize(AstType *t, void *ctx) {
  Resize *r = ctx;
  for (size_t d = 0; d < t->ndims; d++)
    if (t->dims[d].kind == AST_DIM_INT && strtoll(t->dims[d].text, NULL, 10) == r->from) {
      t->dims[d].text = arena_printf(r->arena, "%lld", r->to);
      r->changed = true;
      r->changes++;
    }
}

size_t red_resize_inputs(AstFunc *f, Arena *arena, long long from, long long to) {
  size_t first = f->nparams;
  for (size_t k = 0; k < f->nparams; k++) {
    Resize r = {arena, from, to, false, 0};
    each_tensor(f->params[k]->type, resize, &r);
    if (r.changed && first == f->nparams) first = k;
  }
  return first;
}

/* An integer attribute value (or list element) equal to r->from becomes r->to, suffix kept. */
static void resize_value(AstExpr *v, Resize *r) {
  if (!v) return;
  if (v->kind == AST_LIST || v->kind == AST_PAREN) {
    for (size_t i = 0; i < v->nitems; i++) resize_value(v->items[i], r);
    resize_value(v->a, r);
    return;
  }
  if (v->kind != AST_INT) return;
  char *end;
  long long value = strtoll(v->text, &end, 10);
  if (value != r->from) return;
  v->text = arena_printf(r->arena, "%lld%s", r->to, end);
  r->changed = true;
  r->changes++;
}

static void resize_expr(AstExpr **slot, void *ctx) {
  Resize *r = ctx;
  AstExpr *e = *slot;
  if (e->kind == AST_FN) {
    for (size_t k = 0; k < e->fn->nparams; k++) each_tensor(e->fn->params[k]->type, resize, r);
    each_tensor(e->fn->ret, resize, r);
  }
  for (size_t i = 0; i < e->nstmts; i++)
    if (e->stmts[i]->kind == AST_STMT_LET) each_tensor(e->stmts[i]->binder->type, resize, r);
  if (e->kind == AST_CALL)
    for (size_t i = 0; i < e->attrs.len; i++) resize_value(e->attrs.items[i]->value, r);
}

size_t red_resize_everywhere(AstModule *m, long long from, long long to) {
  AstDef *main = red_main(m);
  if (main) red_resize_inputs(main->fn, &m->arena, from, to);
  Resize r = {&m->arena, from, to, false, 0};
  for (size_t i = 0; i < m->ndefs; i++) {
    AstDef *d = m->defs[i];
    if (d->kind != AST_DEF_FN) continue;
    for (size_t k = 0; d != main && k < d->fn->nparams; k++) each_tensor(d->fn->params[k]->type, resize, &r);
    each_tensor(d->fn->ret, resize, &r);
    red_walk(&d->fn->body, resize_expr, &r);
  }
  return r.changes;
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
