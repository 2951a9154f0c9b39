/* @main's input types, which the shapes pass shrinks and rmutate's shape mutator changes; and the
   check both make after the program followed by inference. */
#include <stdlib.h>

#include "program.h"

/* Visits the tensor types in t (tuples' fields, function types' parameters and result too). */
static void each_tensor(AstType *t, void (*f)(AstType *t, void *ctx), void *ctx) {
  if (!t) return;
  if (t->kind == AST_TY_TENSOR) f(t, ctx);
  for (size_t i = 0; t->kind != AST_TY_TENSOR && i < t->nargs; i++) each_tensor(t->args[i], f, ctx);
  if (t->kind == AST_TY_FUNC) each_tensor(t->ret, f, ctx);
}

typedef struct SizesCtx {
  ProgSizes *out;
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

void prog_input_sizes(AstFunc *f, long long min, ProgSizes *out) {
  SizesCtx s = {out, min};
  for (size_t i = 0; i < f->nparams; i++) each_tensor(f->params[i]->type, add_sizes, &s);
  if (out->len) qsort(out->items, out->len, sizeof *out->items, descending);
}

/* A size map: every dimension (or pinned attribute value) equal to from[i] becomes to[i], all at once
   (so 256 -> 128 and 128 -> 64 do not chain). */
typedef struct Resize {
  Arena *arena;
  const long long *from, *to;
  size_t n;
  size_t changes;
} Resize;

static bool mapped(const Resize *r, long long v, long long *to) {
  for (size_t i = 0; i < r->n; i++)
    if (r->from[i] == v) return *to = r->to[i], true;
  return false;
}

static void resize(AstType *t, void *ctx) {
  Resize *r = ctx;
  long long to;
  for (size_t d = 0; d < t->ndims; d++)
    if (t->dims[d].kind == AST_DIM_INT && mapped(r, strtoll(t->dims[d].text, NULL, 10), &to)) {
      t->dims[d].text = arena_printf(r->arena, "%lld", to);
      r->changes++;
    }
}

/* Returns the index of the first parameter changed (f->nparams: none). */
static size_t resize_params(AstFunc *f, Resize *r) {
  size_t first = f->nparams;
  for (size_t k = 0; k < f->nparams; k++) {
    size_t before = r->changes;
    each_tensor(f->params[k]->type, resize, r);
    if (r->changes > before && first == f->nparams) first = k;
  }
  return first;
}

size_t prog_resize_inputs(AstFunc *f, Arena *arena, long long from, long long to) {
  Resize r = {arena, &from, &to, 1, 0};
  return resize_params(f, &r);
}

/* An integer attribute value (or list element) the map knows changes, its suffix kept. */
static void resize_value(AstExpr *v, Resize *r) {
  if (!v) return;
  if (v->kind == AST_LIST || v->kind == AST_PAREN) {
    for (size_t i = 0; i < v->nitems; i++) resize_value(v->items[i], r);
    resize_value(v->a, r);
    return;
  }
  if (v->kind != AST_INT) return;
  char *end;
  long long to;
  if (!mapped(r, strtoll(v->text, &end, 10), &to)) return;
  v->text = arena_printf(r->arena, "%lld%s", to, end);
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

/* The map applied to @main's inputs (the index of the first changed is returned in *first) and
   everywhere else; returns the number of changes beyond the inputs. */
static size_t resize_module(AstModule *m, Resize *r, size_t *first) {
  AstDef *main = prog_main(m);
  size_t changed = main ? resize_params(main->fn, r) : 0;
  if (first) *first = changed;
  r->changes = 0;
  for (size_t i = 0; i < m->ndefs; i++) {
    AstDef *d = m->defs[i];
    if (d->kind != AST_DEF_FN) continue;
    if (d != main) resize_params(d->fn, r);
    each_tensor(d->fn->ret, resize, r);
    prog_walk(&d->fn->body, resize_expr, r);
  }
  return r->changes;
}

size_t prog_resize_everywhere(AstModule *m, long long from, long long to, size_t *first) {
  Resize r = {&m->arena, &from, &to, 1, 0};
  return resize_module(m, &r, first);
}

size_t prog_scale_everywhere(AstModule *m, long long num, long long den, size_t *first) {
  AstDef *main = prog_main(m);
  *first = main ? main->fn->nparams : 0;
  if (!main) return 0;
  ProgSizes from = {0}, to = {0};
  prog_input_sizes(main->fn, 2, &from);
  size_t k = 0;
  for (size_t i = 0; i < from.len; i++)
    if (from.items[i] * num % den == 0) {
      from.items[k++] = from.items[i];
      VEC_PUSH(to, from.items[i] * num / den);
    }
  Resize r = {&m->arena, from.items, to.items, k, 0};
  size_t elsewhere = k ? resize_module(m, &r, first) : 0;
  free(from.items);
  free(to.items);
  return elsewhere;
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

bool prog_has_unknown_dims(const AstModule *m) {
  bool any = false;
  for (size_t i = 0; i < m->ndefs && !any; i++)
    if (m->defs[i]->kind == AST_DEF_FN) prog_walk(&m->defs[i]->fn->body, note_any, &any);
  return any;
}
