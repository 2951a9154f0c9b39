/* Crossover: transplant a donor's subtree of exactly the type of a site in the program.  Its free
   variables become variables in scope of the same types, or new parameters of @main (sites in
   @main only).  Donor code that binds names (sequences, closures, match) or references globals,
   constructors or meta constants is not transplanted. */
#include <stdlib.h>
#include <string.h>

#include "../support/ptrmap.h"
#include "../support/strset.h"
#include "../typegen/ops/ops.h"
#include "edit.h"

/* Whether e itself, its children aside, can move to another program: operator calls, tuples,
   projections, if, literals and variables only. */
static bool movable_node(const AstExpr *e) {
  switch (e->kind) {
  case AST_SEQ:
  case AST_FN:
  case AST_MATCH:
  case AST_GLOBAL:
  case AST_META:
  case AST_BLOCK: return false;
  case AST_NAME: return op_lookup(e->text) != NULL; /* not a constructor */
  default: return true;
  }
}

/* Whether e can move as it is: it and everything inside it. */
static bool movable(const AstExpr *e) {
  if (!e) return true;
  if (!movable_node(e)) return false;
  AstExpr **child;
  for (AstChildren it = ast_children((AstExpr *)e); (child = ast_next_child(&it));)
    if (!movable(*child)) return false;
  return true;
}

/* movable() of e and of every expression inside it, in one pass: those that are go into `out`.
   Asking each of a donor's expressions in turn would cost as its depth squared (nested ifs). */
static bool find_movable(const AstExpr *e, PtrMap *out) {
  bool all = movable_node(e);
  AstExpr **child;
  for (AstChildren it = ast_children((AstExpr *)e); (child = ast_next_child(&it));) all &= find_movable(*child, out);
  if (all) ptrmap_put(out, e, e);
  return all;
}

/* A site worth replacing, or a donor expression worth moving: a value, not a plain variable, a
   literal or a function. */
static bool interesting(const MutSite *s) {
  const AstExpr *e = *s->slot;
  const Type *t = s->type;
  return t && t->kind != TY_FUNC && !mut_is_var(e) && e->kind != AST_SEQ && e->kind != AST_FN && e->kind != AST_INT &&
         e->kind != AST_FLOAT && e->kind != AST_BOOL;
}

typedef struct Piece {   /* a donor expression that may move */
  const MutDonor *donor;
  MutSite site;          /* where it is in the donor */
  const AstExpr *e;
  char *type;
} Piece;

typedef struct Free {    /* a free variable of the piece: its donor name, type, and replacement */
  AstExprKind kind;
  const char *name;
  const Type *type;      /* in the donor's table */
  const char *to;        /* a variable in scope, or NULL for a new parameter */
} Free;
typedef VEC(Free) Frees;

static void free_vars(const AstExpr *e, Frees *out) {
  if (!e) return;
  if (mut_is_var(e)) {
    for (size_t i = 0; i < out->len; i++)
      if (out->items[i].kind == e->kind && !strcmp(out->items[i].name, e->text)) return;
    VEC_PUSH(*out, ((Free){e->kind, e->text, NULL, NULL}));
    return;
  }
  AstExpr **child; /* movable trees only: no binders below */
  for (AstChildren it = ast_children((AstExpr *)e); (child = ast_next_child(&it));) free_vars(*child, out);
}

/* Inlines, at random and up to `depth` deep, the donor's graph bindings (in `seq`) that the
   tree's variables stand for, so that a transplant is a subtree rather than one call.  Only values
   whose type is the variable's own. */
static void expand(MutContext *c, AstExpr **slot, const GenVars *dscope, const AstExpr *seq, unsigned depth) {
  AstExpr *e = *slot;
  if (!e) return;
  if (e->kind == AST_GRAPH) {
    if (!depth || !seq || !rng_chance(c->rng, 2, 3)) return;
    const Type *want = gen_var_type(dscope, e->text);
    for (size_t i = 0; i < seq->nstmts; i++) {
      const AstStmt *st = seq->stmts[i];
      if (st->kind != AST_STMT_GRAPH || strcmp(st->graph, e->text)) continue;
      if (want && st->value_type == want && movable(st->value)) {
        *slot = ast_expr_copy(c->m, st->value, false);
        expand(c, slot, dscope, seq, depth - 1);
      }
      return;
    }
    return;
  }
  if (mut_is_var(e)) return;
  expand(c, &e->a, dscope, seq, depth);
  expand(c, &e->b, dscope, seq, depth);
  expand(c, &e->then_, dscope, seq, depth);
  expand(c, &e->else_, dscope, seq, depth);
  for (size_t i = 0; i < e->nitems; i++) expand(c, &e->items[i], dscope, seq, depth);
}

/* Finds each free variable a same-typed variable in scope at s (or a new parameter if s is in
   @main).  False when some variable has neither. */
static bool resolve(MutContext *c, const MutSite *s, Frees *fv) {
  GenVars scope = {0};
  mut_scope_at(c->m, s, &scope);
  char **types = xcalloc(scope.len + 1, sizeof *types);
  bool ok = true;
  for (size_t i = 0; i < fv->len && ok; i++) {
    Free *f = &fv->items[i];
    if (!f->type) {
      ok = false;
      break;
    }
    char *want = ty_str(f->type);
    size_t matches = 0;
    for (size_t v = 0; v < scope.len; v++) {
      if (!types[v]) types[v] = ty_str(scope.items[v].type);
      matches += !strcmp(types[v], want);
    }
    if (matches) {
      size_t pick = rng_index(c->rng, matches);
      for (size_t v = 0; v < scope.len; v++)
        if (!strcmp(types[v], want) && pick-- == 0) f->to = scope.items[v].name;
    } else {
      f->to = NULL;
      ok = s->in_main && ty_is_readable(f->type);
    }
    free(want);
  }
  for (size_t v = 0; v < scope.len; v++) free(types[v]);
  free(types);
  free(scope.items);
  return ok;
}

/* Points the copy's variables at their replacements. */
static void rename_vars(AstModule *m, AstExpr **slot, const Frees *fv) {
  AstExpr *e = *slot;
  if (!e) return;
  if (mut_is_var(e)) {
    for (size_t i = 0; i < fv->len; i++)
      if (fv->items[i].kind == e->kind && !strcmp(fv->items[i].name, e->text)) *slot = mut_var_ref(m, fv->items[i].to);
    return;
  }
  rename_vars(m, &e->a, fv);
  rename_vars(m, &e->b, fv);
  rename_vars(m, &e->then_, fv);
  rename_vars(m, &e->else_, fv);
  for (size_t i = 0; i < e->nitems; i++) rename_vars(m, &e->items[i], fv);
}

/* Adds a parameter of type t to f, named after the donor's variable when that name is free. */
static const char *add_param(AstModule *m, AstFunc *f, const Free *v) {
  const char *name = v->kind == AST_LOCAL && !prog_name_taken(m, v->name) ? arena_strdup(&m->arena, v->name)
                                                                          : prog_fresh_name(m, "cx");
  AstBinder **params = arena_alloc(&m->arena, (f->nparams + 1) * sizeof *params);
  if (f->nparams) memcpy(params, f->params, f->nparams * sizeof *params);
  params[f->nparams++] = ast_new_binder(m, name, ty_to_ast(m, v->type));
  f->params = params;
  return name;
}

static const char *base_name(const char *path) {
  const char *slash = path ? strrchr(path, '/') : NULL;
  return slash ? slash + 1 : path ? path : "donor";
}

/* Tries to put piece p (with some of the donor bindings it uses inlined) at site s; false
   (nothing changed) when its variables do not resolve or it would change nothing. */
static bool transplant(MutContext *c, const MutSite *s, const Piece *p) {
  GenVars dscope = {0};
  mut_scope_at(p->donor->prog.m, &p->site, &dscope);
  const AstExpr *body = p->site.def->fn->body;
  AstExpr *tree = ast_expr_copy(c->m, p->e, false);
  expand(c, &tree, &dscope, body->kind == AST_SEQ ? body : NULL, (unsigned)rng_index(c->rng, 4));
  Frees fv = {0};
  free_vars(tree, &fv);
  for (size_t i = 0; i < fv.len; i++) fv.items[i].type = gen_var_type(&dscope, fv.items[i].name);
  free(dscope.items);
  bool ok = resolve(c, s, &fv);
  if (ok) { /* the change must show: new parameters (still unnamed) are placeholders here */
    AstExpr *probe = ast_expr_copy(c->m, tree, false);
    for (size_t i = 0; i < fv.len; i++)
      if (!fv.items[i].to) fv.items[i].to = "";
    rename_vars(c->m, &probe, &fv);
    char *a = mut_expr_text(probe), *b = mut_expr_text(*s->slot);
    ok = strcmp(a, b) != 0;
    free(a);
    free(b);
  }
  if (ok) {
    for (size_t i = 0; i < fv.len; i++)
      if (!*fv.items[i].to) fv.items[i].to = add_param(c->m, s->def->fn, &fv.items[i]);
    rename_vars(c->m, &tree, &fv);
    AstExpr *old = *s->slot;
    *s->slot = tree;
    mut_note(c, &old->node, &tree->node, "crossover from %s %u:%u", base_name(p->donor->name), p->e->node.span.line,
             p->e->node.span.col);
  }
  free(fv.items);
  return ok;
}

bool mut_crossover(MutContext *c) {
  if (!c->ndonors) return false;
  MutSites all = {0}, sites = {0};
  mut_sites_to_change(c, &all);
  for (size_t i = 0; i < all.len; i++)
    /* sites in fused primitive functions too: there the free variables must map to the
       function's own (transplant makes new parameters only in @main's plain code) */
    if (interesting(&all.items[i])) VEC_PUSH(sites, all.items[i]);
  free(all.items);
  char **site_types = xcalloc(sites.len + 1, sizeof *site_types);
  StrSet types_wanted;
  strset_init(&types_wanted);
  for (size_t i = 0; i < sites.len; i++) {
    site_types[i] = ty_str(sites.items[i].type);
    strset_add(&types_wanted, site_types[i]);
  }

  /* donor pieces whose type some site has */
  VEC(Piece) pieces = {0};
  for (size_t d = 0; d < c->ndonors; d++) {
    const AstModule *dm = c->donors[d].prog.m;
    PtrMap movable_exprs = {0};
    for (size_t i = 0; i < dm->ndefs; i++)
      if (dm->defs[i]->kind == AST_DEF_FN) find_movable(dm->defs[i]->fn->body, &movable_exprs);
    MutSites ds = {0};
    mut_sites(c->donors[d].prog.m, &ds);
    for (size_t i = 0; i < ds.len; i++) {
      const AstExpr *e = *ds.items[i].slot;
      bool is_movable;
      ptrmap_get(&movable_exprs, e, &is_movable);
      if (!interesting(&ds.items[i]) || !is_movable) continue;
      char *t = ty_str(ds.items[i].type);
      if (strset_contains(&types_wanted, t)) VEC_PUSH(pieces, ((Piece){&c->donors[d], ds.items[i], e, t}));
      else free(t);
    }
    free(ds.items);
    ptrmap_free(&movable_exprs);
  }
  strset_free(&types_wanted);

  bool ok = false;
  for (unsigned attempt = 0; attempt < 16 && pieces.len && !ok; attempt++) {
    const Piece *p = &pieces.items[rng_index(c->rng, pieces.len)];
    size_t n = 0;
    for (size_t k = 0; k < sites.len; k++) n += !strcmp(site_types[k], p->type);
    size_t pick = rng_index(c->rng, n);
    for (size_t k = 0; k < sites.len; k++)
      if (!strcmp(site_types[k], p->type) && pick-- == 0) {
        ok = transplant(c, &sites.items[k], p);
        break;
      }
  }

  for (size_t i = 0; i < pieces.len; i++) free(pieces.items[i].type);
  free(pieces.items);
  for (size_t i = 0; i < sites.len; i++) free(site_types[i]);
  free(site_types);
  free(sites.items);
  return ok;
}
