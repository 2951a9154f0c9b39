/* rfmt --join: several modules as one (see join.h). */
#include "join.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/strset.h"
#include "../support/xalloc.h"

/* The name slots of a tree: every place a local, a graph number or a global is spelled. */
typedef enum SlotKind { SLOT_LOCAL, SLOT_GRAPH, SLOT_GLOBAL } SlotKind;
typedef void (*SlotFn)(const char **slot, SlotKind kind, void *ctx);

static void pattern_slots(AstPattern *p, SlotFn f, void *ctx) {
  if (p->kind == AST_PAT_VAR) f(&p->name, SLOT_LOCAL, ctx);
  for (size_t i = 0; i < p->nitems; i++) pattern_slots(p->items[i], f, ctx);
}

static void expr_slots(AstExpr *e, SlotFn f, void *ctx) {
  if (e->kind == AST_LOCAL) f(&e->text, SLOT_LOCAL, ctx);
  else if (e->kind == AST_GRAPH) f(&e->text, SLOT_GRAPH, ctx);
  else if (e->kind == AST_GLOBAL) f(&e->text, SLOT_GLOBAL, ctx);
  for (size_t i = 0; i < e->nstmts; i++) {
    AstStmt *s = e->stmts[i];
    if (s->binder) f(&s->binder->name, SLOT_LOCAL, ctx);
    if (s->kind == AST_STMT_GRAPH) f(&s->graph, SLOT_GRAPH, ctx);
  }
  if (e->kind == AST_FN)
    for (size_t i = 0; i < e->fn->nparams; i++) f(&e->fn->params[i]->name, SLOT_LOCAL, ctx);
  for (size_t i = 0; i < e->narms; i++) pattern_slots(e->arms[i]->pattern, f, ctx);
  AstExpr **child;
  for (AstChildren it = ast_children(e); (child = ast_next_child(&it));) expr_slots(*child, f, ctx);
}

/* ---------------------------------------------------------------- renaming */
typedef struct Renames {
  AstModule *out;
  StrSet *own;            /* this input's locals (collecting) */
  const char **from, **to; /* locals (or globals) to rename */
  size_t n, cap;
  const char **gfrom, **gto;
  size_t gn, gcap;
  unsigned graph_offset, graph_max;
} Renames;

static void collect(const char **slot, SlotKind kind, void *ctx) {
  Renames *r = ctx;
  if (kind == SLOT_LOCAL) strset_add(r->own, *slot);
  else if (kind == SLOT_GRAPH) {
    unsigned long v = strtoul(*slot, NULL, 10);
    if (v + 1 > r->graph_max) r->graph_max = (unsigned)(v + 1);
  }
}

static const char *lookup(const char *const *from, const char *const *to, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(from[i], name)) return to[i];
  return NULL;
}

static void apply(const char **slot, SlotKind kind, void *ctx) {
  Renames *r = ctx;
  const char *to = NULL;
  if (kind == SLOT_LOCAL) to = lookup(r->from, r->to, r->n, *slot);
  else if (kind == SLOT_GLOBAL) to = lookup(r->gfrom, r->gto, r->gn, *slot);
  else if (r->graph_offset) to = arena_printf(&r->out->arena, "%lu", strtoul(*slot, NULL, 10) + r->graph_offset);
  if (to) *slot = to;
}

/* `name_K`, or `name_K_2`, ... : a name neither set has. */
static const char *fresh(AstModule *out, const char *name, unsigned k, const StrSet *a, const StrSet *b) {
  const char *s = arena_printf(&out->arena, "%s_%u", name, k);
  for (unsigned i = 2; strset_contains(a, s) || (b && strset_contains(b, s)); i++)
    s = arena_printf(&out->arena, "%s_%u_%u", name, k, i);
  return s;
}

static void push(const char ***from, const char ***to, size_t *n, size_t *cap, const char *a, const char *b) {
  if (*n == *cap) {
    *cap = *cap ? 2 * *cap : 16;
    *from = xrealloc(*from, *cap * sizeof **from);
    *to = xrealloc(*to, *cap * sizeof **to);
  }
  (*from)[*n] = a;
  (*to)[(*n)++] = b;
}

static AstDef *find_def(AstModule *m, AstDefKind kind, const char *name) {
  for (size_t i = 0; i < m->ndefs; i++)
    if (m->defs[i]->kind == kind && !strcmp(m->defs[i]->name, name)) return m->defs[i];
  return NULL;
}

/* Alike enough to keep one: the same constructors, with as many fields each. */
static bool same_type_def(const AstDef *a, const AstDef *b) {
  if (a->kind != b->kind || a->nctors != b->nctors || a->ntype_params != b->ntype_params) return false;
  for (size_t i = 0; i < a->nctors; i++)
    if (strcmp(a->ctors[i]->name, b->ctors[i]->name) || a->ctors[i]->nfields != b->ctors[i]->nfields) return false;
  return true;
}

/* A copy of f in out, as a closure expression (so that the expression copier does the work). */
static AstExpr *copy_func(AstModule *out, AstModule *from, AstFunc *f) {
  return ast_expr_copy(out, ast_new_fn(from, f), false);
}

/* The state of a join across its inputs. */
typedef struct Join {
  AstModule *out;
  StrSet globals;      /* global function names in out (a later input's are renamed away from them) */
  StrSet taken;        /* the locals of earlier inputs' @main (a later @main's are renamed) */
  unsigned graph_next; /* where the next input's graph numbers start */
} Join;

/* Every input has a @main (or is an expression), at most one a #[metadata] section: that one goes
   in *with_meta (NULL for none). */
static bool check_inputs(AstModule *const *mods, size_t n, const AstModule **with_meta, char *err, size_t errlen) {
  *with_meta = NULL;
  for (size_t k = 0; k < n; k++) {
    if (!mods[k]->body && !find_def(mods[k], AST_DEF_FN, "main")) {
      snprintf(err, errlen, "input %zu has no @main", k + 1);
      return false;
    }
    if (mods[k]->metadata) {
      if (*with_meta) {
        snprintf(err, errlen, "inputs %zu and %zu both have a #[metadata] section (at most one may)",
                 (size_t)(*with_meta - *mods) + 1, k + 1);
        return false;
      }
      *with_meta = mods[k];
    }
  }
  return true;
}

/* Input k's type definitions into out (one copy of each), and in r the renames of its global
   functions whose names an earlier input has. */
static bool add_types(Join *j, AstModule *m, size_t k, Renames *r, char *err, size_t errlen) {
  for (size_t i = 0; i < m->ndefs; i++) {
    AstDef *d = m->defs[i];
    if (d->kind == AST_DEF_FN) {
      if (strcmp(d->name, "main") && strset_contains(&j->globals, d->name))
        push(&r->gfrom, &r->gto, &r->gn, &r->gcap, d->name, fresh(j->out, d->name, (unsigned)k, &j->globals, NULL));
      continue;
    }
    AstDef *prev = find_def(j->out, d->kind, d->name);
    if (prev && !same_type_def(prev, d)) {
      snprintf(err, errlen, "input %zu defines type %s differently from an earlier input", k + 1, d->name);
      return false;
    }
    if (!prev) ast_module_add(j->out, d);
  }
  return true;
}

/* Input k into out: its types and global functions, renamed where an earlier input has the name;
   returns a copy of its @main (as a closure, its locals and graph numbers renamed) for the joined
   @main, or NULL with a message in err. */
static AstExpr *add_input(Join *j, AstModule *m, size_t k, char *err, size_t errlen) {
  AstModule *out = j->out;
  Renames r = {.out = out};
  if (!add_types(j, m, k, &r, err, errlen)) {
    free(r.gfrom), free(r.gto);
    return NULL;
  }
  /* global functions, renamed where an earlier input has the name */
  AstExpr **fns = xcalloc(m->ndefs + 1, sizeof *fns), *main = NULL;
  StrSet own;
  strset_init(&own);
  r.own = &own;
  r.graph_max = 0;
  for (size_t i = 0; i < m->ndefs; i++) {
    AstDef *d = m->defs[i];
    if (d->kind != AST_DEF_FN) continue;
    fns[i] = copy_func(out, m, d->fn);
    expr_slots(fns[i], apply, &r); /* globals only: no local renames yet, no graph offset */
    if (!strcmp(d->name, "main")) main = fns[i];
    else expr_slots(fns[i], collect, &r);
  }
  if (!main) /* expression mode: the body is @main's */
    main = ast_new_fn(out, ast_new_func(out, NULL, 0, NULL, 0, NULL, ast_expr_copy(out, m->body, false)));
  /* @main's locals renamed where an earlier @main has them */
  strset_free(&own);
  strset_init(&own);
  expr_slots(main, collect, &r);
  for (size_t i = 0; i < own.cap; i++)
    if (own.slots[i] && strset_contains(&j->taken, own.slots[i]))
      push(&r.from, &r.to, &r.n, &r.cap, arena_strdup(&out->arena, own.slots[i]),
           fresh(out, own.slots[i], (unsigned)k, &j->taken, &own));
  /* graph numbers are one space per module (TVM's parser): every function's move past the
     earlier inputs' */
  size_t renamed_globals = r.gn;
  r.gn = 0; /* applied already */
  r.graph_offset = j->graph_next;
  expr_slots(main, apply, &r);
  size_t nlocal = r.n;
  r.n = 0; /* other functions' locals are their own */
  for (size_t i = 0; i < m->ndefs; i++) {
    if (!fns[i] || fns[i] == main) continue;
    expr_slots(fns[i], apply, &r);
    const char *name = lookup(r.gfrom, r.gto, renamed_globals, m->defs[i]->name);
    name = name ? name : m->defs[i]->name;
    strset_add(&j->globals, name);
    ast_module_add(out, ast_new_fn_def(out, name, fns[i]->fn));
  }
  r.n = nlocal;
  j->graph_next += r.graph_max;
  StrSet final;
  strset_init(&final);
  r.own = &final;
  expr_slots(main, collect, &r);
  for (size_t i = 0; i < final.cap; i++)
    if (final.slots[i]) strset_add(&j->taken, final.slots[i]);
  strset_free(&final);
  strset_free(&own);
  free(fns);
  free(r.from), free(r.to), free(r.gfrom), free(r.gto);
  return main;
}

/* The joined @main: every input's parameters, then every binding of their bodies, in order, and
   the tuple of their results. */
static AstDef *joined_main(AstModule *out, AstExpr *const *mains, size_t n) {
  size_t nparams = 0, nstmts = 0;
  bool all_ret = true;
  for (size_t k = 0; k < n; k++) {
    AstFunc *f = mains[k]->fn;
    nparams += f->nparams;
    nstmts += f->body->kind == AST_SEQ ? f->body->nstmts : 0;
    all_ret = all_ret && f->ret;
  }
  AstBinder **params = xcalloc(nparams + 1, sizeof *params);
  AstStmt **stmts = xcalloc(nstmts + 1, sizeof *stmts);
  AstExpr **results = xcalloc(n, sizeof *results);
  AstType **rets = xcalloc(n, sizeof *rets);
  size_t p = 0, s = 0;
  for (size_t k = 0; k < n; k++) {
    AstFunc *f = mains[k]->fn;
    for (size_t i = 0; i < f->nparams; i++) params[p++] = f->params[i];
    AstExpr *b = f->body;
    if (b->kind == AST_SEQ) {
      for (size_t i = 0; i < b->nstmts; i++) stmts[s++] = b->stmts[i];
      results[k] = b->a;
    } else {
      results[k] = b;
    }
    rets[k] = f->ret;
  }
  AstExpr *body = ast_new_seq(out, stmts, s, ast_new_tuple(out, results, n));
  AstType *ret = all_ret ? ast_new_type(out, AST_TY_TUPLE, NULL, rets, n) : NULL;
  AstDef *main = ast_new_fn_def(out, "main", ast_new_func(out, NULL, 0, params, p, ret, body));
  free(params), free(stmts), free(results), free(rets);
  return main;
}

AstModule *ast_join(AstModule *const *mods, size_t n, char *err, size_t errlen) {
  const AstModule *with_meta;
  if (!check_inputs(mods, n, &with_meta, err, errlen)) return NULL;
  Join j = {.out = ast_module_new(true)};
  strset_init(&j.globals);
  strset_init(&j.taken);
  strset_add(&j.globals, "main");
  AstExpr **mains = xcalloc(n, sizeof *mains);
  bool ok = true;
  for (size_t k = 0; k < n && ok; k++) ok = (mains[k] = add_input(&j, mods[k], k, err, errlen)) != NULL;
  if (ok) {
    ast_module_add(j.out, joined_main(j.out, mains, n));
    if (with_meta) j.out->metadata = with_meta->metadata;
  }
  free(mains);
  strset_free(&j.globals);
  strset_free(&j.taken);
  if (!ok) {
    ast_free(j.out);
    return NULL;
  }
  return j.out;
}
