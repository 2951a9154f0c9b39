/*
 * Delete tuple fields: a tuple a binding holds (`%t = (a, b, c);`), or a tuple parameter of @main
 * (`%p: (A, B, C)`), loses a field no projection reads (`%t.0`, `%t.2`), and the projections after
 * it are renumbered.  The tuple's type changes with it; the guard refuses a candidate that an
 * annotation pinning the old type makes ill-typed.  A tuple consumed whole (by `concatenate`,
 * `stack`, a call of a function taking a tuple) shrinks the same way: what consumes it sees fewer
 * fields, and the guard and the test decide whether it still may.  So does a tuple written where
 * it is consumed (`concatenate((%a, %b, %c))`).  And a field of the tuple @main returns is deleted
 * (the test tells whether it needed it; a joined program's result is such a tuple), @main's return
 * annotation following.
 */
#include <stdlib.h>
#include <string.h>

#include "../support/xalloc.h"
#include "reduce.h"

typedef struct Field {
  AstStmt *stmt;    /* the binding, or NULL for a parameter */
  AstExpr *tuple;   /* its value */
  AstBinder *param; /* the parameter of @main, whose annotation is the tuple type */
  size_t field;     /* the unused field */
  bool result;      /* a field of @main's result (tuple: that tuple) */
  bool literal;     /* a field of a tuple written where it is consumed (tuple: that tuple) */
} Field;
typedef VEC(Field) Fields;

typedef struct Uses {
  AstExprKind kind;
  const char *name;
  size_t projections;
  bool *read;      /* per field: some projection reads it */
  size_t nfields;
  int shift_from;  /* renumbering mode: projections above this index go down by one (-1: off) */
  Arena *arena;
} Uses;

static bool is_ref(const AstExpr *e, const Uses *u) { return e->kind == u->kind && !strcmp(e->text, u->name); }

static void visit_proj(AstExpr **slot, void *ctx) {
  Uses *u = ctx;
  AstExpr *e = *slot;
  if (e->kind != AST_PROJ || !is_ref(e->a, u)) return;
  u->projections++;
  if (u->read && e->index < u->nfields) u->read[e->index] = true;
  if (u->shift_from >= 0 && e->index > (unsigned)u->shift_from) {
    e->index--;
    e->index_text = arena_printf(u->arena, "%u", e->index);
  }
}

static void each_body(AstModule *m, ProgSlotFn f, void *ctx) {
  for (size_t i = 0; i < m->ndefs; i++)
    if (m->defs[i]->kind == AST_DEF_FN) prog_walk(&m->defs[i]->fn->body, f, ctx);
}

typedef struct Collect {
  AstModule *m;
  Fields *out;
} Collect;

static void collect_seq(AstExpr **slot, void *ctx) {
  Collect *c = ctx;
  AstExpr *e = *slot;
  if (e->kind != AST_SEQ) return;
  for (size_t i = 0; i < e->nstmts; i++) {
    AstStmt *s = e->stmts[i];
    if (s->kind != AST_STMT_LET && s->kind != AST_STMT_GRAPH) continue;
    AstExpr *v = s->value;
    while (v->kind == AST_PAREN) v = v->a;
    if (v->kind != AST_TUPLE || v->nitems < 2) continue;
    Uses u = {s->kind == AST_STMT_GRAPH ? AST_GRAPH : AST_LOCAL, s->kind == AST_STMT_GRAPH ? s->graph : s->binder->name,
              0, xcalloc(v->nitems, sizeof(bool)), v->nitems, -1, NULL};
    each_body(c->m, visit_proj, &u);
    if (prog_uses_in_module(c->m, u.kind, u.name)) /* projections, whole uses or both */
      for (size_t f = 0; f < v->nitems; f++)
        if (!u.read[f]) VEC_PUSH(*c->out, ((Field){s, v, NULL, f, false, false}));
    free(u.read);
  }
}

/* @main's tuple parameters: the same rule, the fields are the annotation's. */
static void collect_params(AstModule *m, Fields *out) {
  AstDef *main = prog_main(m);
  for (size_t k = 0; main && k < main->fn->nparams; k++) {
    AstBinder *b = main->fn->params[k];
    if (!b->type || b->type->kind != AST_TY_TUPLE || b->type->nargs < 2) continue;
    Uses u = {AST_LOCAL, b->name, 0, xcalloc(b->type->nargs, sizeof(bool)), b->type->nargs, -1, NULL};
    each_body(m, visit_proj, &u);
    if (prog_uses_in_module(m, AST_LOCAL, b->name))
      for (size_t f = 0; f < b->type->nargs; f++)
        if (!u.read[f]) VEC_PUSH(*out, ((Field){NULL, NULL, b, f, false, false}));
    free(u.read);
  }
}

/* The tuple @main returns, when it has two fields or more. */
static AstExpr *main_result_tuple(AstModule *m) {
  AstDef *main = prog_main(m);
  if (!main) return NULL;
  AstExpr *r = main->fn->body;
  if (r->kind == AST_SEQ) r = r->a;
  while (r->kind == AST_PAREN) r = r->a;
  return r->kind == AST_TUPLE && r->nitems >= 2 ? r : NULL;
}

/* Tuples written where they are consumed: every tuple of two fields or more that is neither a
   binding's value (collect_seq's) nor @main's result. */
typedef VEC(const AstExpr *) Tuples;

static const AstExpr *bare(const AstExpr *v) {
  while (v && v->kind == AST_PAREN) v = v->a;
  return v;
}

static void bound_tuples(AstExpr **slot, void *ctx) {
  AstExpr *e = *slot;
  for (size_t i = 0; e->kind == AST_SEQ && i < e->nstmts; i++) {
    const AstStmt *s = e->stmts[i];
    const AstExpr *v = bare(s->value);
    if ((s->kind == AST_STMT_LET || s->kind == AST_STMT_GRAPH) && v->kind == AST_TUPLE) VEC_PUSH(*(Tuples *)ctx, v);
  }
}

typedef struct Literals {
  Tuples skip;
  Fields *out;
} Literals;

static void collect_literal(AstExpr **slot, void *ctx) {
  Literals *l = ctx;
  AstExpr *e = *slot;
  if (e->kind != AST_TUPLE || e->nitems < 2) return;
  for (size_t i = 0; i < l->skip.len; i++)
    if (l->skip.items[i] == e) return;
  for (size_t f = 0; f < e->nitems; f++) VEC_PUSH(*l->out, ((Field){NULL, e, NULL, f, false, true}));
}

static void collect(AstModule *m, Fields *out) {
  Collect c = {m, out};
  each_body(m, collect_seq, &c);
  collect_params(m, out);
  AstExpr *r = main_result_tuple(m);
  for (size_t f = 0; r && f < r->nitems; f++) VEC_PUSH(*out, ((Field){NULL, r, NULL, f, true, false}));
  Literals l = {{0}, out};
  each_body(m, bound_tuples, &l.skip);
  if (r) VEC_PUSH(l.skip, r);
  each_body(m, collect_literal, &l);
  free(l.skip.items);
}

static size_t count(const Program *p) {
  Fields f = {0};
  collect(p->m, &f);
  free(f.items);
  return f.len;
}

static bool apply(Program *out, size_t i) {
  Fields f = {0};
  collect(out->m, &f);
  if (i >= f.len) {
    free(f.items);
    return false;
  }
  Field d = f.items[i];
  free(f.items);
  if (d.literal) {
    AstExpr *t = d.tuple;
    memmove(&t->items[d.field], &t->items[d.field + 1], (t->nitems - d.field - 1) * sizeof *t->items);
    t->nitems--;
    return true;
  }
  if (d.result) {
    AstExpr *t = d.tuple;
    AstFunc *main = prog_main(out->m)->fn;
    AstType *ret = main->ret;
    if (ret && ret->kind == AST_TY_TUPLE && ret->nargs == t->nitems) {
      memmove(&ret->args[d.field], &ret->args[d.field + 1], (ret->nargs - d.field - 1) * sizeof *ret->args);
      ret->nargs--;
    } else {
      main->ret = NULL;
    }
    memmove(&t->items[d.field], &t->items[d.field + 1], (t->nitems - d.field - 1) * sizeof *t->items);
    t->nitems--;
    return true;
  }
  if (d.param) {
    AstType *t = d.param->type;
    memmove(&t->args[d.field], &t->args[d.field + 1], (t->nargs - d.field - 1) * sizeof *t->args);
    t->nargs--;
  } else {
    AstExpr *t = d.tuple;
    memmove(&t->items[d.field], &t->items[d.field + 1], (t->nitems - d.field - 1) * sizeof *t->items);
    t->nitems--;
  }
  Uses u = {!d.param && d.stmt->kind == AST_STMT_GRAPH ? AST_GRAPH : AST_LOCAL,
            d.param ? d.param->name : d.stmt->kind == AST_STMT_GRAPH ? d.stmt->graph : d.stmt->binder->name, 0, NULL, 0,
            (int)d.field, &out->m->arena};
  each_body(out->m, visit_proj, &u);
  return true;
}

const RedPass red_pass_fields = {
    .name = "fields",
    .description = "delete a field no projection reads from a bound tuple or a tuple parameter of @main (consumed "
                   "whole or not), a field of a tuple written where it is consumed, or of the tuple @main returns",
    .count = count,
    .apply = apply,
    .search = RED_ONE_BY_ONE,
};
