/*
 * Fold control flow: an `if` becomes one of its branches (the live one first when the condition is
 * a literal; either, when the test only needs what one branch computes: nested ifs go one level
 * per step); a `match` becomes one arm's body, or keeps one arm as a partial `match?`.  An arm
 * whose pattern binds variables can become its body too when the match is in @main: the
 * variables become new inputs of @main, of the types inference gave them (as `cut` makes bound
 * values inputs), so `match (%t) { A(%z) => f(%z) }` can end as `f(%z1)`.  Each arm is a candidate:
 * the test, not the pass, knows which arm the bug needs.
 */
#include <string.h>

#include "../support/xalloc.h"
#include "../typegen/ops/ops.h"
#include "reduce.h"

/* The literal condition of an if, possibly parenthesised: "True", "False", or NULL. */
static const char *literal_cond(const AstExpr *e) {
  const AstExpr *c = e->a;
  while (c->kind == AST_PAREN) c = c->a;
  return c->kind == AST_BOOL ? c->text : NULL;
}

/* An if: its two branches.  A match: every arm's body, then, when it has more than one arm,
   every arm alone (match -> match?). */
static size_t at(const AstModule *m, const AstExpr *e) {
  (void)m;
  if (e->kind == AST_IF) return 2;
  if (e->kind == AST_MATCH) return e->narms + (e->narms > 1 ? e->narms : 0);
  return 0;
}

/* The variables a pattern binds, in order. */
static void pattern_vars(AstPattern *p, AstPattern **out, size_t *n, size_t max) {
  if (p->kind == AST_PAT_VAR) {
    if (*n < max) out[*n] = p;
    ++*n;
    return;
  }
  for (size_t i = 0; i < p->nitems; i++) pattern_vars(p->items[i], out, n, max);
}

enum { ARM_VARS_MAX = 16 };

/* Arm `arm` of match e in place of the match: its pattern's variables become @main's inputs. */
static bool arm_body(AstModule *m, const RedSite *s, AstMatchArm *arm) {
  AstPattern *vars[ARM_VARS_MAX];
  size_t n = 0;
  pattern_vars(arm->pattern, vars, &n, ARM_VARS_MAX);
  if (n == 0) {
    *s->slot = arm->body;
    return true;
  }
  AstDef *main = prog_main(m);
  if (n > ARM_VARS_MAX || !s->def || s->def != main) return false; /* new inputs only for @main */
  AstExpr *body = arm->body;
  for (size_t i = 0; i < n; i++)
    if (!prog_type_complete(vars[i]->node.type) || prog_binds(body, vars[i]->name)) return false;
  AstFunc *f = main->fn;
  AstBinder **params = arena_alloc(&m->arena, (f->nparams + n) * sizeof *params);
  if (f->nparams) memcpy(params, f->params, f->nparams * sizeof *params);
  for (size_t i = 0; i < n; i++) {
    const char *fresh = prog_fresh_name(m, vars[i]->name);
    prog_substitute(&body, AST_LOCAL, vars[i]->name, ast_new_atom(m, AST_LOCAL, fresh));
    params[f->nparams + i] = ast_new_binder(m, fresh, ty_to_ast(m, vars[i]->node.type));
  }
  f->params = params;
  f->nparams += n;
  *s->slot = body;
  return true;
}

static bool edit(AstModule *m, const RedSite *s) {
  AstExpr *e = *s->slot;
  if (e->kind == AST_IF) {
    const char *lit = literal_cond(e);
    bool live_first = !lit || !strcmp(lit, "True"); /* the branch a literal condition takes comes first */
    *s->slot = (s->sub == 0) == live_first ? e->then_ : e->else_;
    return true;
  }
  if (s->sub < e->narms) return arm_body(m, s, e->arms[s->sub]);
  size_t k = s->sub - e->narms;
  e->text = "match?";
  e->arms += k;
  e->narms = 1;
  return true;
}

static size_t count(const Program *p) { return red_count_sites(p->m, at); }

static bool apply(Program *out, size_t i) { return red_edit_site(out, i, at, NULL, edit); }

const RedPass red_pass_fold = {
    .name = "fold",
    .description = "an if to one of its branches; a match to one arm's body (its pattern's variables become inputs) or to that arm alone",
    .count = count,
    .apply = apply,
    .search = RED_ONE_BY_ONE,
};
