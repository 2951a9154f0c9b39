/*
 * Delete what nothing uses: bindings whose variable is never read (in every function body, to a
 * fixpoint), @main's unused parameters, global functions nobody calls, and type definitions
 * whose type and constructors nobody names.  The types of what remains do not change.
 *
 * Candidate 0 deletes all of it.  A test may need some of the dead code (it greps for an operator
 * a dead binding calls), so the following candidates delete the dead items delta-debugging's
 * way: halves, then quarters, ... then one at a time.
 */
#include <stdlib.h>
#include <string.h>

#include "../support/xalloc.h"
#include "reduce.h"

/* Removes dead statements from every sequence in e; true if anything went. */
static bool sweep(AstExpr *e) {
  if (!e) return false;
  bool changed = false;
  if (e->kind == AST_SEQ) {
    for (size_t i = e->nstmts; i > 0; i--) {
      AstStmt *s = e->stmts[i - 1];
      if (s->kind == AST_STMT_EXPR || s->kind == AST_STMT_FREE) continue;
      AstExprKind kind = s->kind == AST_STMT_GRAPH ? AST_GRAPH : AST_LOCAL;
      const char *name = s->kind == AST_STMT_GRAPH ? s->graph : s->binder->name;
      /* used after its binding? (a recursive closure's calls of itself do not count) */
      size_t uses = red_uses(e->a, kind, name);
      for (size_t j = i; j < e->nstmts; j++) uses += red_uses(e->stmts[j]->value, kind, name);
      if (uses > 0) continue;
      memmove(&e->stmts[i - 1], &e->stmts[i], (e->nstmts - i) * sizeof *e->stmts);
      e->nstmts--;
      changed = true;
    }
  }
  changed |= sweep(e->a) | sweep(e->b) | sweep(e->then_) | sweep(e->else_);
  for (size_t i = 0; i < e->nitems; i++) changed |= sweep(e->items[i]);
  for (size_t i = 0; i < e->narms; i++) changed |= sweep(e->arms[i]->body);
  for (size_t i = 0; i < e->nstmts; i++) changed |= sweep(e->stmts[i]->value);
  if (e->kind == AST_FN) changed |= sweep(e->fn->body);
  return changed;
}

/* ------------------------------------------------------------------ type definitions
   A type definition is used when its name appears in a type (annotations, return types, fields of
   another definition) or one of its constructors in an expression or a pattern.  Names are
   compared without scoping: a type parameter spelled like the type only keeps it alive. */
typedef struct TypeUse {
  const AstDef *def;
  size_t uses;
} TypeUse;

static bool is_ctor(const AstDef *d, const char *name) {
  for (size_t i = 0; i < d->nctors; i++)
    if (name && !strcmp(d->ctors[i]->name, name)) return true;
  return false;
}

static void in_type(TypeUse *u, const AstType *t) {
  if (!t) return;
  if ((t->kind == AST_TY_NAME || t->kind == AST_TY_CALL) && !strcmp(t->name, u->def->name)) u->uses++;
  for (size_t i = 0; i < t->nargs; i++) in_type(u, t->args[i]);
  in_type(u, t->ret);
}

static void in_pattern(TypeUse *u, const AstPattern *p) {
  if (p->kind == AST_PAT_CTOR && is_ctor(u->def, p->name)) u->uses++;
  in_type(u, p->type);
  for (size_t i = 0; i < p->nitems; i++) in_pattern(u, p->items[i]);
}

static void in_func(TypeUse *u, const AstFunc *f) {
  for (size_t i = 0; i < f->nparams; i++) in_type(u, f->params[i]->type);
  in_type(u, f->ret);
}

/* red_walk visits expressions; the types and patterns they hold are looked at here. */
static void in_expr(AstExpr **slot, void *ctx) {
  TypeUse *u = ctx;
  const AstExpr *e = *slot;
  if (e->kind == AST_NAME && is_ctor(u->def, e->text)) u->uses++;
  if (e->kind == AST_FN) in_func(u, e->fn);
  for (size_t i = 0; i < e->narms; i++) in_pattern(u, e->arms[i]->pattern);
  for (size_t i = 0; i < e->nstmts; i++)
    if (e->stmts[i]->binder) in_type(u, e->stmts[i]->binder->type);
}

static size_t type_uses(AstModule *m, const AstDef *d) {
  TypeUse u = {d, 0};
  for (size_t i = 0; i < m->ndefs; i++) {
    AstDef *o = m->defs[i];
    if (o->kind == AST_DEF_FN) {
      in_func(&u, o->fn);
      red_walk(&o->fn->body, in_expr, &u);
    } else if (o != d) { /* a recursive type's own fields do not count */
      for (size_t c = 0; c < o->nctors; c++)
        for (size_t f = 0; f < o->ctors[c]->nfields; f++) in_type(&u, o->ctors[c]->fields[f]);
    }
  }
  if (m->body) red_walk(&m->body, in_expr, &u);
  return u.uses;
}

static bool delete_unused_types(AstModule *m) {
  bool changed = false;
  for (size_t i = m->ndefs; i > 0; i--) {
    if (m->defs[i - 1]->kind != AST_DEF_TYPE || type_uses(m, m->defs[i - 1])) continue;
    memmove(&m->defs[i - 1], &m->defs[i], (m->ndefs - i) * sizeof *m->defs);
    m->ndefs--;
    changed = true;
  }
  return changed;
}

static bool dce(AstModule *m) {
  bool changed = false;
  for (bool again = true; again;) {
    again = false;
    for (size_t i = 0; i < m->ndefs; i++)
      if (m->defs[i]->kind == AST_DEF_FN) again |= sweep(m->defs[i]->fn->body);
    /* unused globals (never @main) */
    for (size_t i = m->ndefs; i > 0; i--) {
      AstDef *d = m->defs[i - 1];
      if (d->kind != AST_DEF_FN || !strcmp(d->name, "main")) continue;
      size_t uses = red_uses_in_module(m, AST_GLOBAL, d->name) - red_uses(d->fn->body, AST_GLOBAL, d->name);
      if (uses) continue;
      memmove(&m->defs[i - 1], &m->defs[i], (m->ndefs - i) * sizeof *m->defs);
      m->ndefs--;
      again = true;
    }
    again |= delete_unused_types(m); /* after the functions: deleting one may free a type */
    changed |= again;
  }
  /* @main's unused parameters: nothing calls @main, so they can go */
  AstDef *main = red_main(m);
  if (main) {
    AstFunc *f = main->fn;
    for (size_t i = f->nparams; i > 0; i--) {
      if (red_uses(f->body, AST_LOCAL, f->params[i - 1]->name)) continue;
      memmove(&f->params[i - 1], &f->params[i], (f->nparams - i) * sizeof *f->params);
      f->nparams--;
      changed = true;
    }
  }
  return changed;
}

/* ------------------------------------------------------------------ one item at a time */

typedef struct Dead {
  void **array;  /* the array holding it (statements, parameters or definitions) */
  size_t *len;
  void *item;
} Dead;
typedef VEC(Dead) DeadList;

static void dead_stmts(AstExpr *e, DeadList *out) {
  if (!e) return;
  if (e->kind == AST_SEQ)
    for (size_t i = 0; i < e->nstmts; i++) {
      AstStmt *s = e->stmts[i];
      if (s->kind == AST_STMT_EXPR || s->kind == AST_STMT_FREE) continue;
      AstExprKind kind = s->kind == AST_STMT_GRAPH ? AST_GRAPH : AST_LOCAL;
      const char *name = s->kind == AST_STMT_GRAPH ? s->graph : s->binder->name;
      size_t uses = red_uses(e->a, kind, name);
      for (size_t j = i + 1; j < e->nstmts; j++) uses += red_uses(e->stmts[j]->value, kind, name);
      if (!uses) VEC_PUSH(*out, ((Dead){(void **)e->stmts, &e->nstmts, s}));
    }
  dead_stmts(e->a, out);
  dead_stmts(e->b, out);
  dead_stmts(e->then_, out);
  dead_stmts(e->else_, out);
  for (size_t i = 0; i < e->nitems; i++) dead_stmts(e->items[i], out);
  for (size_t i = 0; i < e->narms; i++) dead_stmts(e->arms[i]->body, out);
  for (size_t i = 0; i < e->nstmts; i++) dead_stmts(e->stmts[i]->value, out);
  if (e->kind == AST_FN) dead_stmts(e->fn->body, out);
}

/* What is dead now (without the cascade), in a fixed order. */
static void collect(AstModule *m, DeadList *out) {
  for (size_t i = 0; i < m->ndefs; i++)
    if (m->defs[i]->kind == AST_DEF_FN) dead_stmts(m->defs[i]->fn->body, out);
  for (size_t i = 0; i < m->ndefs; i++) {
    AstDef *d = m->defs[i];
    bool dead = d->kind == AST_DEF_TYPE ? type_uses(m, d) == 0
                : d->kind == AST_DEF_FN && strcmp(d->name, "main") != 0 &&
                      red_uses_in_module(m, AST_GLOBAL, d->name) == red_uses(d->fn->body, AST_GLOBAL, d->name);
    if (dead) VEC_PUSH(*out, ((Dead){(void **)m->defs, &m->ndefs, d}));
  }
  AstDef *main = red_main(m);
  if (main)
    for (size_t i = 0; i < main->fn->nparams; i++)
      if (!red_uses(main->fn->body, AST_LOCAL, main->fn->params[i]->name))
        VEC_PUSH(*out, ((Dead){(void **)main->fn->params, &main->fn->nparams, main->fn->params[i]}));
}

static void delete_item(const Dead *d) {
  for (size_t i = 0; i < *d->len; i++)
    if (d->array[i] == d->item) {
      memmove(&d->array[i], &d->array[i + 1], (*d->len - i - 1) * sizeof *d->array);
      --*d->len;
      return;
    }
}

/* Chunks of n items, largest first: 2 halves, 4 quarters, ..., n singletons (for n >= 2). */
static size_t chunks(size_t n) {
  size_t total = 0;
  for (size_t parts = 2; n >= 2; parts *= 2) {
    size_t size = (n + parts - 1) / parts;
    total += (n + size - 1) / size;
    if (size == 1) break;
  }
  return total;
}

static size_t count(const RedProgram *p) {
  DeadList dead = {0};
  collect(p->m, &dead);
  size_t n = dead.len;
  free(dead.items);
  return n ? 1 + chunks(n) : 0;
}

static bool apply(RedProgram *out, size_t i) {
  if (i == 0) return dce(out->m);
  DeadList dead = {0};
  collect(out->m, &dead);
  size_t n = dead.len, k = i - 1, lo = 0, hi = 0;
  bool found = false;
  for (size_t parts = 2; n >= 2 && !found; parts *= 2) {
    size_t size = (n + parts - 1) / parts, here = (n + size - 1) / size;
    if (k < here) {
      lo = k * size;
      hi = lo + size < n ? lo + size : n;
      found = true;
    }
    k -= here;
    if (size == 1) break;
  }
  if (found)
    for (size_t j = lo; j < hi; j++) delete_item(&dead.items[j]);
  free(dead.items);
  return found;
}

const RedPass red_pass_dce = {"dce", "delete unused bindings, parameters of @main, global functions and type definitions",
                              count, apply};
