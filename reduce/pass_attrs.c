/*
 * Reset an operator call's attribute to its default by deleting it: one opportunity per
 * attribute whose value is not the default (deleting a default one would change nothing the
 * test can see but the text).  Many attributes shape the result (strides, axis, newshape), so a
 * reset may leave the program ill-typed: the guard keeps only what still type-checks.  An unknown
 * operator's call (typed from its ty= comment) has no schema: each of its attributes may go.
 */
#include <string.h>

#include "../typegen/op.h"
#include "reduce.h"
#include "../program/program.h"

typedef struct Find {
  size_t want, seen; /* want == SIZE_MAX: just count */
  AstExpr *call;
  size_t attr;       /* index into call->attrs */
} Find;

static void find(AstExpr **slot, void *ctx) {
  Find *f = ctx;
  AstExpr *e = *slot;
  if (e->kind != AST_CALL || e->a->kind != AST_NAME || !e->attrs.len) return;
  const OpDef *op = op_lookup(e->a->text);
  if (!op) {
    for (size_t j = 0; e->node.opaque && j < e->attrs.len; j++)
      if (f->seen++ == f->want) {
        f->call = e;
        f->attr = j;
      }
    return;
  }
  Arena arena;
  arena_init(&arena);
  char err[OP_ERR_MAX];
  const AstAttr *bad;
  const AttrVal *vals = op_attrs_from_ast(op, &e->attrs, &arena, err, sizeof err, &bad);
  for (size_t j = 0; vals && j < e->attrs.len; j++) {
    size_t k = 0;
    while (strcmp(op->attrs[k].name, e->attrs.items[j]->key) != 0) k++; /* known: vals != NULL */
    if (!op_attr_is_default(op, k, &vals[k]) && f->seen++ == f->want) {
      f->call = e;
      f->attr = j;
    }
  }
  arena_free(&arena);
}

static size_t count(const Program *p) {
  Find f = {SIZE_MAX, 0, NULL, 0};
  prog_walk_module(p->m, find, &f);
  return f.seen;
}

static bool apply(Program *out, size_t i) {
  Find f = {i, 0, NULL, 0};
  prog_walk_module(out->m, find, &f);
  if (!f.call) return false;
  AstAttrs *a = &f.call->attrs;
  memmove(&a->items[f.attr], &a->items[f.attr + 1], (a->len - f.attr - 1) * sizeof *a->items);
  a->len--;
  return true; /* whether the call still types with the default, the guard finds out */
}

const RedPass red_pass_attrs = {"attrs", "reset an operator attribute to its default (if the program stays well-typed)",
                                count, apply, RED_ONE_BY_ONE, NULL};
