/*
 * A parameter of @main where a value the program already has would do: every use of the
 * parameter becomes a variable of its type that the program binds and that is in scope at all of
 * its uses (for a tuple, a tuple of variables in scope, `(%0,)`; parameters may fill it), and the
 * parameter goes.  What a person writes by hand: the
 * reduced program of a held-out real bug ended with a 1-tuple parameter where `(%0,)` does (1.29x
 * the hand-made minimum).  Proposed only when the replacement is smaller than what the parameter
 * costs, its annotation in @main's signature included (red_type_cost), so replace's cut to a new
 * parameter, which counts the same, never undoes it.
 */
#include <stdlib.h>
#include <string.h>

#include "../typegen/types/types.h"
#include "reduce.h"

/* The variables in scope at every use of one parameter (kind, name, type), in scope order. */
typedef struct Common {
  const char *param;
  AstDef *main;
  VEC(ScopeVar) vars;
  size_t uses;
} Common;

static bool same_var(const ScopeVar *a, const ScopeVar *b) {
  return a->kind == b->kind && a->type == b->type && !strcmp(a->name, b->name);
}

static bool visit_use(const ScopedSite *site, void *ctx) {
  Common *c = ctx;
  const AstExpr *e = *site->slot;
  if (site->def != c->main || e->kind != AST_LOCAL || strcmp(e->text, c->param)) return false;
  if (!c->uses++) {
    for (size_t k = 0; k < site->nscope; k++)
      if (site->scope[k].type && strcmp(site->scope[k].name, c->param)) VEC_PUSH(c->vars, site->scope[k]);
    return false;
  }
  size_t kept = 0;
  for (size_t k = 0; k < c->vars.len; k++) {
    const ScopeVar *v = prog_scope_find(site, c->vars.items[k].kind, c->vars.items[k].name);
    if (v && same_var(v, &c->vars.items[k])) c->vars.items[kept++] = c->vars.items[k];
  }
  c->vars.len = kept;
  return false;
}

/* Whether name is one of @main's parameters. */
static bool is_param(const AstDef *main, const char *name) {
  for (size_t i = 0; i < main->fn->nparams; i++)
    if (!strcmp(main->fn->params[i]->name, name)) return true;
  return false;
}

/* The first variable of `want` among the common ones, or NULL; with `bound_only`, not one of
   @main's parameters: one parameter for another is params' merge, and two parameters standing for
   each other would make removing one change what the other can become (chunks would fail). */
static const ScopeVar *var_of(const Common *c, const Type *want, bool bound_only) {
  for (size_t k = 0; k < c->vars.len; k++)
    if (c->vars.items[k].type == want && !(bound_only && is_param(c->main, c->vars.items[k].name)))
      return &c->vars.items[k];
  return NULL;
}

/* What replaces parameter b of @main (in module m; built in it when `build`), or NULL: a variable
   of its type in scope at all its uses, or a tuple of such variables, smaller than the parameter. */
static AstExpr *replacement(AstModule *m, TyTable *types, AstDef *main, const AstBinder *b, bool build,
                            bool *found) {
  *found = false;
  char err[128];
  const AstType *bad;
  const Type *t = b->type ? ty_from_ast(types, b->type, NULL, err, sizeof err, &bad) : NULL;
  if (!t || prog_binds(main->fn->body, b->name)) return NULL; /* shadowed somewhere: left alone */
  Common c = {.param = b->name, .main = main};
  prog_scoped_walk(m, visit_use, &c);
  AstExpr *out = NULL;
  const ScopeVar *v = c.uses ? var_of(&c, t, true) : NULL;
  size_t worth = 1 + red_type_cost(t); /* the parameter and its annotation */
  if (v) {
    *found = 1 < worth;
    if (build && *found) out = ast_new_atom(m, v->kind, v->name);
  } else if (c.uses && t->kind == TY_TUPLE && t->nargs && 1 + t->nargs < worth) {
    AstExpr **items = build ? xmalloc(t->nargs * sizeof *items) : NULL;
    bool all = true;
    for (uint32_t i = 0; i < t->nargs && all; i++) {
      const ScopeVar *f = var_of(&c, t->args[i], false);
      all = f != NULL;
      if (all && build) items[i] = ast_new_atom(m, f->kind, f->name);
    }
    *found = all;
    if (all && build) out = ast_new_tuple(m, items, t->nargs);
    free(items);
  }
  free(c.vars.items);
  return out;
}

static size_t count(const Program *p) {
  AstDef *main = prog_main(p->m);
  if (!main || p->guard != PROG_TYPED) return 0; /* the scope's types come from inference */
  size_t nlive, n = 0;
  AstBinder **live = red_live_params(main->fn, &nlive);
  for (size_t k = 0; k < nlive; k++) {
    bool found;
    replacement(p->m, p->types, main, live[k], false, &found);
    n += found;
  }
  free(live);
  return n;
}

/* Removing parameter k leaves the parameters before it and their replacements as they were (a
   replacement is found again when applied), so the driver may apply several at once (RED_CHUNKS,
   highest first): after cut has made a parameter of every value of a chain, they go in log(N)
   tests, not one by one. */
static bool apply(Program *out, size_t i) {
  AstDef *main = prog_main(out->m);
  if (!main || out->guard != PROG_TYPED) return false;
  AstFunc *f = main->fn;
  size_t nlive;
  AstBinder **live = red_live_params(f, &nlive);
  bool done = false;
  for (size_t k = 0; k < nlive && !done; k++) {
    bool found;
    replacement(out->m, out->types, main, live[k], false, &found);
    if (!found || i-- > 0) continue;
    AstExpr *with = replacement(out->m, out->types, main, live[k], true, &found);
    if (!with) break;
    prog_substitute(&f->body, AST_LOCAL, live[k]->name, with);
    red_drop_param(f, live[k]);
    done = true;
  }
  free(live);
  return done;
}

const RedPass red_pass_unparam = {
    .name = "unparam",
    .description = "replace a parameter of @main by a value the program already has (a variable in scope at "
                   "every use, or a tuple of them)",
    .count = count,
    .apply = apply,
    .search = RED_CHUNKS,
};
