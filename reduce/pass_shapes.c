/*
 * Shrink the types of @main's inputs: every dimension of one size becomes 1, or half of it
 * (one candidate each, the largest size first: a 224 shared by data and weights shrinks in all of
 * them at once), and non-float32 inputs become float32 (all at once, then one by one).  The rest of
 * the program follows by inference, so operators re-derive their result types; the type checker
 * decides on a copy whether the operators still accept the new shapes (a convolution's kernel no
 * larger than its input, matching channels, ...), and only a well-typed program is proposed.
 */
#include <stdlib.h>
#include <string.h>

#include "../support/xalloc.h"
#include "reduce.h"

typedef VEC(long long) Sizes;

static bool is_tensor(const AstType *t) { return t && t->kind == AST_TY_TENSOR; }

/* Visits the tensor types of @main's parameters (tuples' fields too). */
typedef void (*TensorFn)(AstType *t, void *ctx);

static void each_tensor(AstType *t, TensorFn f, void *ctx) {
  if (!t) return;
  if (is_tensor(t)) f(t, ctx);
  if (t->kind == AST_TY_TUPLE)
    for (size_t i = 0; i < t->nargs; i++) each_tensor(t->args[i], f, ctx);
}

static void add_sizes(AstType *t, void *ctx) {
  Sizes *s = ctx;
  for (size_t d = 0; d < t->ndims; d++) {
    if (t->dims[d].kind != AST_DIM_INT) continue;
    long long v = strtoll(t->dims[d].text, NULL, 10);
    bool seen = v <= 1;
    for (size_t k = 0; k < s->len && !seen; k++) seen = s->items[k] == v;
    if (!seen) VEC_PUSH(*s, v);
  }
}

static int descending(const void *a, const void *b) {
  long long x = *(const long long *)a, y = *(const long long *)b;
  return x < y ? 1 : x > y ? -1 : 0;
}

static void sizes_of(AstFunc *f, Sizes *s) {
  for (size_t i = 0; i < f->nparams; i++) each_tensor(f->params[i]->type, add_sizes, s);
  if (s->len) qsort(s->items, s->len, sizeof *s->items, descending);
}

static bool non_f32(const AstType *t) { return is_tensor(t) && t->name[0] && strcmp(t->name, "float32") != 0; }

static size_t non_f32_params(AstFunc *f) {
  size_t n = 0;
  for (size_t i = 0; i < f->nparams; i++) n += non_f32(f->params[i]->type);
  return n;
}

static size_t count(const RedProgram *p) {
  AstDef *main = red_main(p->m);
  if (!main) return 0;
  Sizes s = {0};
  sizes_of(main->fn, &s);
  size_t n = 2 * s.len, f = non_f32_params(main->fn);
  free(s.items);
  return n + (f ? 1 + f : 0);
}

typedef struct Resize {
  Arena *arena;
  long long from, to;
} Resize;

static void resize(AstType *t, void *ctx) {
  Resize *r = ctx;
  for (size_t d = 0; d < t->ndims; d++)
    if (t->dims[d].kind == AST_DIM_INT && strtoll(t->dims[d].text, NULL, 10) == r->from)
      t->dims[d].text = arena_printf(r->arena, "%lld", r->to);
}

/* Whether any value of the program has a dimension inference could not determine: a shape that
   became impossible (a kernel larger than its input) shows up as one. */
static bool type_has_any(const Type *t) {
  if (!t) return false;
  for (uint32_t d = 0; t->kind == TY_TENSOR && d < t->ndims; d++)
    if (t->dims[d] == TY_DIM_ANY) return true;
  for (uint32_t k = 0; k < t->nargs; k++)
    if (type_has_any(t->args[k])) return true;
  return type_has_any(t->ret);
}

static void note_any(AstExpr **slot, void *ctx) { *(bool *)ctx |= type_has_any((*slot)->node.type); }

static bool has_unknown_dims(const AstModule *m) {
  bool any = false;
  for (size_t i = 0; i < m->ndefs && !any; i++)
    if (m->defs[i]->kind == AST_DEF_FN) red_walk(&m->defs[i]->fn->body, note_any, &any);
  return any;
}

static bool apply(RedProgram *out, size_t i) {
  RedProgram trial;
  if (!red_program_copy(out, &trial)) return false;
  AstFunc *f = red_main(trial.m)->fn;
  Sizes s = {0};
  sizes_of(f, &s);
  bool changed = false;
  if (i < 2 * s.len) {
    Resize r = {&trial.m->arena, s.items[i / 2], i % 2 == 0 ? 1 : s.items[i / 2] / 2};
    if (r.to != r.from && (i % 2 == 0 || r.to > 1)) {
      for (size_t k = 0; k < f->nparams; k++) each_tensor(f->params[k]->type, resize, &r);
      changed = true;
    }
  } else {
    size_t which = i - 2 * s.len; /* 0: every input; k: the k-th non-float32 input */
    for (size_t k = 0, seen = 0; k < f->nparams; k++) {
      if (!non_f32(f->params[k]->type)) continue;
      if (which == 0 || ++seen == which) {
        f->params[k]->type->name = "float32";
        changed = true;
      }
    }
  }
  free(s.items);
  if (!changed) {
    red_program_free(&trial);
    return false;
  }
  bool had_unknown = has_unknown_dims(out->m);
  RedProgram checked;
  bool typed = red_program_copy(&trial, &checked);
  red_program_free(&trial);
  if (!typed) return false;
  if (!had_unknown && has_unknown_dims(checked.m)) { /* an impossible shape: keep the old program */
    red_program_free(&checked);
    return false;
  }
  red_program_free(out);
  *out = checked;
  return true;
}

const RedPass red_pass_shapes = {"shapes", "shrink @main's input shapes (a size to 1 or half) and dtypes (to float32)",
                                 count, apply};
