/*
 * Shrink an operator call's attributes: two opportunities per attribute whose value is not the
 * default (deleting a default one would change nothing the test can see but the text).  The first
 * resets it to its default by deleting it; the second makes every integer above 1 in its value 1
 * (`pool_size=[3, 3]` -> `[1, 1]`, strides, dilations, sizes: an attribute with no default, or
 * whose default does not fit, still shrinks toward the smallest value, and the input shapes it
 * pinned can follow).  Many attributes shape the result (strides, axis, newshape), so either may
 * leave the program ill-typed: the guard keeps only what still type-checks.  An unknown
 * operator's call (typed from its ty= comment) has no schema: each of its attributes may go.
 */
#include <stdlib.h>
#include <string.h>

#include "../typegen/ops/ops.h"
#include "reduce.h"
#include "../program/program.h"

typedef struct Find {
  size_t want, seen; /* want == SIZE_MAX: just count */
  AstExpr *call;
  size_t attr;       /* index into call->attrs */
  bool shrink;       /* the second opportunity: integers to 1 */
} Find;

/* Counts attribute j of call e: two opportunities. */
static void see(Find *f, AstExpr *e, size_t j) {
  if (f->want != SIZE_MAX && f->want >= f->seen && f->want < f->seen + 2) {
    f->call = e;
    f->attr = j;
    f->shrink = f->want == f->seen + 1;
  }
  f->seen += 2;
}

/* Makes every plain decimal integer above 1 in v 1; whether any was. */
static bool ints_to_one(AstExpr *v) {
  if (!v) return false;
  if (v->kind == AST_INT) {
    char *end;
    long long n = strtoll(v->text, &end, 10);
    if (*end || n <= 1) return false;
    v->text = "1";
    return true;
  }
  bool changed = false;
  if (v->kind == AST_PAREN) changed |= ints_to_one(v->a);
  for (size_t i = 0; (v->kind == AST_LIST || v->kind == AST_TUPLE) && i < v->nitems; i++) changed |= ints_to_one(v->items[i]);
  return changed;
}

static void find(AstExpr **slot, void *ctx) {
  Find *f = ctx;
  AstExpr *e = *slot;
  if (e->kind != AST_CALL || e->a->kind != AST_NAME || !e->attrs.len) return;
  const OpDef *op = op_lookup(e->a->text);
  if (!op) {
    for (size_t j = 0; e->node.opaque && j < e->attrs.len; j++) see(f, e, j);
    return;
  }
  Arena arena;
  arena_init(&arena);
  char err[OP_ERR_MAX];
  const AstAttr *bad;
  const AttrVal *vals = op_attrs_from_ast(op, &e->attrs, &arena, err, sizeof err, &bad);
  for (size_t j = 0; vals && j < e->attrs.len; j++) {
    size_t k = 0;
    while (k < op->nattrs && strcmp(op->attrs[k].name, e->attrs.items[j]->key) != 0) k++;
    if (k == op->nattrs) { /* attrs_type_key, which the schema does not hold: it goes last, alone */
      if (e->attrs.len == 1) see(f, e, j);
    } else if (!op_attr_equals_default(op, k, &vals[k])) {
      see(f, e, j);
    }
  }
  arena_free(&arena);
}

static size_t count(const Program *p) {
  Find f = {SIZE_MAX, 0, NULL, 0, false};
  prog_walk_module(p->m, find, &f);
  return f.seen;
}

static bool apply(Program *out, size_t i) {
  Find f = {i, 0, NULL, 0, false};
  prog_walk_module(out->m, find, &f);
  if (!f.call) return false;
  AstAttrs *a = &f.call->attrs;
  if (f.shrink) return ints_to_one(a->items[f.attr]->value);
  memmove(&a->items[f.attr], &a->items[f.attr + 1], (a->len - f.attr - 1) * sizeof *a->items);
  a->len--;
  return true; /* whether the call still types with the default, the guard finds out */
}

const RedPass red_pass_attrs = {
    .name = "attrs",
    .description = "reset an operator attribute to its default, or its integers to 1 (if the program stays well-typed)",
    .count = count,
    .apply = apply,
    .search = RED_ONE_BY_ONE,
};
