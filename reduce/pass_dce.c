/*
 * Delete what nothing uses: bindings whose variable is never read (in every function body, to a
 * fixpoint), @main's unused parameters, global functions @main does not reach, and type
 * definitions whose type and constructors nobody names.  The types of what remains do not change.
 *
 * Candidate 0 deletes all of it.  A test may need some of the dead code (it greps for an operator
 * a dead binding calls), so the following candidates delete the dead items delta-debugging's
 * way: halves, then quarters, ... then one at a time.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../support/scoped_names.h"
#include "../support/strset.h"
#include "../support/xalloc.h"
#include "reduce.h"

/* Whether statement s binds a variable that `later` never reads. */
static bool unread(const AstStmt *s, const RedRefs *later) {
  if (s->kind == AST_STMT_EXPR || s->kind == AST_STMT_FREE) return false;
  return s->kind == AST_STMT_GRAPH ? !strcounts_get(&later->graph, s->graph) : !strcounts_get(&later->locals, s->binder->name);
}

/* Removes dead statements from every sequence in e; true if anything went.  A statement deleted
   here does not count as a reader of the ones before it (one sweep removes a dead chain). */
static bool sweep(AstExpr *e) {
  if (!e) return false;
  bool changed = false;
  if (e->kind == AST_SEQ) {
    RedRefs later = {0};
    prog_walk(&e->a, red_count_ref, &later);
    for (size_t i = e->nstmts; i > 0; i--) {
      AstStmt *s = e->stmts[i - 1];
      if (!unread(s, &later)) { /* its own value is not a reader: a closure calling itself is dead */
        prog_walk(&s->value, red_count_ref, &later);
        continue;
      }
      memmove(&e->stmts[i - 1], &e->stmts[i], (e->nstmts - i) * sizeof *e->stmts);
      e->nstmts--;
      changed = true;
    }
    red_refs_free(&later);
  }
  AstExpr **child;
  for (AstChildren it = ast_children(e); (child = ast_next_child(&it));) changed |= sweep(*child);
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

/* prog_walk visits expressions; the types and patterns they hold are looked at here. */
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
      prog_walk(&o->fn->body, in_expr, &u);
    } else if (o != d) { /* a recursive type's own fields do not count */
      for (size_t c = 0; c < o->nctors; c++)
        for (size_t f = 0; f < o->ctors[c]->nfields; f++) in_type(&u, o->ctors[c]->fields[f]);
    }
  }
  if (m->body) prog_walk(&m->body, in_expr, &u);
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

/* ------------------------------------------------------------------ global functions
   A global function is dead when @main does not reach it through references, however the dead
   ones call each other (a chain of 10,000 globals goes in one step, not one per round).  Without
   @main every global is a root: nothing is deleted. */
typedef VEC(size_t) Indices;

typedef struct CallGraph {
  size_t n;      /* m->ndefs */
  Indices *refs; /* per definition: the definitions its body references (function definitions) */
  bool *live;    /* reached from @main */
} CallGraph;

typedef struct RefCtx {
  const ScopedNames *index; /* global name -> definition index + 1 */
  Indices *out;
} RefCtx;

static void note_ref(AstExpr **slot, void *ctx) {
  RefCtx *r = ctx;
  bool found;
  const void *at = (*slot)->kind == AST_GLOBAL ? names_find(r->index, (*slot)->text, &found) : NULL;
  if (at) VEC_PUSH(*r->out, (size_t)(uintptr_t)at - 1);
}

/* Marks what the definitions with keep[i] set reach (keep is the seed and the result). */
static void reach(const CallGraph *g, bool *keep) {
  Indices stack = {0};
  for (size_t i = 0; i < g->n; i++)
    if (keep[i]) VEC_PUSH(stack, i);
  while (stack.len) {
    size_t i = stack.items[--stack.len];
    for (size_t k = 0; k < g->refs[i].len; k++)
      if (!keep[g->refs[i].items[k]]) {
        keep[g->refs[i].items[k]] = true;
        VEC_PUSH(stack, g->refs[i].items[k]);
      }
  }
  free(stack.items);
}

static void call_graph(const AstModule *m, CallGraph *g) {
  g->n = m->ndefs;
  g->refs = xcalloc(g->n ? g->n : 1, sizeof *g->refs);
  g->live = xcalloc(g->n ? g->n : 1, sizeof *g->live);
  ScopedNames index = {0};
  for (size_t i = 0; i < m->ndefs; i++)
    if (m->defs[i]->kind == AST_DEF_FN) names_bind(&index, m->defs[i]->name, (const void *)(uintptr_t)(i + 1));
  AstDef *main = prog_main(m);
  for (size_t i = 0; i < m->ndefs; i++) {
    if (m->defs[i]->kind != AST_DEF_FN) {
      g->live[i] = true; /* type definitions: decided elsewhere */
      continue;
    }
    RefCtx r = {&index, &g->refs[i]};
    prog_walk(&m->defs[i]->fn->body, note_ref, &r);
    g->live[i] = !main || m->defs[i] == main;
  }
  names_free(&index);
  reach(g, g->live);
}

static void call_graph_free(CallGraph *g) {
  for (size_t i = 0; i < g->n; i++) free(g->refs[i].items);
  free(g->refs);
  free(g->live);
}

/* Deletes the definitions with gone[i] set. */
static bool delete_defs(AstModule *m, const bool *gone) {
  size_t k = 0;
  for (size_t i = 0; i < m->ndefs; i++)
    if (!gone[i]) m->defs[k++] = m->defs[i];
  bool changed = k < m->ndefs;
  m->ndefs = k;
  return changed;
}

static bool delete_dead_globals(AstModule *m) {
  CallGraph g;
  call_graph(m, &g);
  bool *gone = xcalloc(g.n ? g.n : 1, sizeof *gone);
  for (size_t i = 0; i < g.n; i++) gone[i] = !g.live[i];
  bool changed = delete_defs(m, gone);
  free(gone);
  call_graph_free(&g);
  return changed;
}

/* The dead globals callers first (a definition before the ones only it references), so that
   deleting any prefix leaves nothing referring to what went; mutually recursive ones last. */
static void dead_globals_in_order(const CallGraph *g, Indices *out) {
  size_t *callers = xcalloc(g->n ? g->n : 1, sizeof *callers);
  for (size_t i = 0; i < g->n; i++)
    for (size_t k = 0; !g->live[i] && k < g->refs[i].len; k++)
      if (g->refs[i].items[k] != i) callers[g->refs[i].items[k]]++;
  bool *placed = xcalloc(g->n ? g->n : 1, sizeof *placed);
  size_t first = out->len;
  for (size_t i = 0; i < g->n; i++)
    if (!g->live[i] && !callers[i]) {
      VEC_PUSH(*out, i);
      placed[i] = true;
    }
  for (size_t q = first; q < out->len; q++) {
    size_t i = out->items[q];
    for (size_t k = 0; k < g->refs[i].len; k++) {
      size_t j = g->refs[i].items[k];
      if (j != i && !placed[j] && --callers[j] == 0) {
        VEC_PUSH(*out, j);
        placed[j] = true;
      }
    }
  }
  for (size_t i = 0; i < g->n; i++)
    if (!g->live[i] && !placed[i]) VEC_PUSH(*out, i);
  free(placed);
  free(callers);
}

static bool dce(AstModule *m) {
  bool changed = false;
  for (bool again = true; again;) {
    again = false;
    for (size_t i = 0; i < m->ndefs; i++)
      if (m->defs[i]->kind == AST_DEF_FN) again |= sweep(m->defs[i]->fn->body);
    again |= delete_dead_globals(m);
    again |= delete_unused_types(m); /* after the functions: deleting one may free a type */
    changed |= again;
  }
  /* @main's unused parameters: nothing calls @main, so they can go */
  AstDef *main = prog_main(m);
  if (main) {
    AstFunc *f = main->fn;
    RedRefs body = {0};
    prog_walk(&f->body, red_count_ref, &body);
    size_t k = 0;
    for (size_t i = 0; i < f->nparams; i++)
      if (strcounts_get(&body.locals, f->params[i]->name)) f->params[k++] = f->params[i];
    changed |= k < f->nparams;
    f->nparams = k;
    red_refs_free(&body);
  }
  return changed;
}

/* ------------------------------------------------------------------ one item at a time */

typedef struct Dead {
  void **array;  /* the array holding it (statements, parameters or definitions) */
  size_t *len;
  void *item;
  size_t def;    /* a definition's index in m->defs; SIZE_MAX for other items */
} Dead;
typedef VEC(Dead) DeadList;

static void dead_stmts(AstExpr *e, DeadList *out) {
  if (!e) return;
  if (e->kind == AST_SEQ) {
    RedRefs later = {0};
    prog_walk(&e->a, red_count_ref, &later);
    size_t first = out->len;
    for (size_t i = e->nstmts; i > 0; i--) {
      AstStmt *s = e->stmts[i - 1];
      if (unread(s, &later)) VEC_PUSH(*out, ((Dead){(void **)e->stmts, &e->nstmts, s, SIZE_MAX}));
      prog_walk(&s->value, red_count_ref, &later);
    }
    red_refs_free(&later);
    for (size_t a = first, b = out->len; a + 1 < b; a++, b--) { /* in statement order */
      Dead t = out->items[a];
      out->items[a] = out->items[b - 1];
      out->items[b - 1] = t;
    }
  }
  AstExpr **child;
  for (AstChildren it = ast_children(e); (child = ast_next_child(&it));) dead_stmts(*child, out);
}

/* What is dead now, in a fixed order: bindings and type definitions nothing uses (their cascade
   waits for the next round), the globals @main does not reach (callers first), @main's unused
   parameters.  `graph` is m's call graph. */
static void collect(AstModule *m, const CallGraph *graph, DeadList *out) {
  for (size_t i = 0; i < m->ndefs; i++)
    if (m->defs[i]->kind == AST_DEF_FN) dead_stmts(m->defs[i]->fn->body, out);
  for (size_t i = 0; i < m->ndefs; i++)
    if (m->defs[i]->kind == AST_DEF_TYPE && type_uses(m, m->defs[i]) == 0)
      VEC_PUSH(*out, ((Dead){(void **)m->defs, &m->ndefs, m->defs[i], i}));
  if (graph) {
    Indices order = {0};
    dead_globals_in_order(graph, &order);
    for (size_t k = 0; k < order.len; k++)
      VEC_PUSH(*out, ((Dead){(void **)m->defs, &m->ndefs, m->defs[order.items[k]], order.items[k]}));
    free(order.items);
  }
  AstDef *main = prog_main(m);
  if (main) {
    RedRefs body = {0};
    prog_walk(&main->fn->body, red_count_ref, &body);
    for (size_t i = 0; i < main->fn->nparams; i++)
      if (!strcounts_get(&body.locals, main->fn->params[i]->name))
        VEC_PUSH(*out, ((Dead){(void **)main->fn->params, &main->fn->nparams, main->fn->params[i], SIZE_MAX}));
    red_refs_free(&body);
  }
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

static size_t count(const Program *p) {
  CallGraph g;
  call_graph(p->m, &g);
  DeadList dead = {0};
  collect(p->m, &g, &dead);
  size_t n = dead.len;
  free(dead.items);
  call_graph_free(&g);
  return n ? 1 + chunks(n) : 0;
}

/* Deletes dead items lo..hi-1.  A dead global some definition that stays refers to stays too (the
   chunk may hold a callee without its caller): what is deleted is always well-formed. */
static bool delete_chunk(AstModule *m, const CallGraph *g, const DeadList *dead, size_t lo, size_t hi) {
  bool *gone = xcalloc(g->n ? g->n : 1, sizeof *gone), *kept = xcalloc(g->n ? g->n : 1, sizeof *kept);
  for (size_t j = lo; j < hi; j++)
    if (dead->items[j].def != SIZE_MAX) gone[dead->items[j].def] = true;
  for (size_t i = 0; i < g->n; i++) kept[i] = !gone[i] && m->defs[i]->kind == AST_DEF_FN;
  reach(g, kept);
  bool changed = false;
  for (size_t j = lo; j < hi; j++) {
    const Dead *d = &dead->items[j];
    if (d->def == SIZE_MAX) {
      delete_item(d);
      changed = true;
    } else if (kept[d->def]) {
      gone[d->def] = false;
    }
  }
  changed |= delete_defs(m, gone);
  free(gone);
  free(kept);
  return changed;
}

static bool apply(Program *out, size_t i) {
  if (i == 0) return dce(out->m);
  CallGraph g;
  call_graph(out->m, &g);
  DeadList dead = {0};
  collect(out->m, &g, &dead);
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
  bool changed = found && delete_chunk(out->m, &g, &dead, lo, hi);
  free(dead.items);
  call_graph_free(&g);
  return changed;
}

const RedPass red_pass_dce = {
    .name = "dce",
    .description = "delete unused bindings, parameters of @main, global functions and type definitions",
    .count = count,
    .apply = apply,
    .search = RED_ONE_BY_ONE,
};
