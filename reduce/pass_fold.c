/*
 * Fold control flow whose outcome is fixed or unwanted: `if (True) {a} else {b}` becomes a (and
 * `if (False)` b); a `match` keeps one arm, as a partial `match?`, or becomes that arm's body when
 * its pattern binds nothing (the scrutinee then goes too).  Each arm is a candidate: the test, not
 * the pass, knows which arm the bug needs.
 */
#include <string.h>

#include "reduce.h"

/* The literal condition of an if, possibly parenthesised: "True", "False", or NULL. */
static const char *literal_cond(const AstExpr *e) {
  const AstExpr *c = e->a;
  while (c->kind == AST_PAREN) c = c->a;
  return c->kind == AST_BOOL ? c->text : NULL;
}

/* Arms whose pattern binds no variable: their body stands on its own. */
static size_t closed_arms(const AstExpr *e) {
  size_t n = 0;
  for (size_t i = 0; i < e->narms; i++) n += !prog_pattern_binds(e->arms[i]->pattern);
  return n;
}

/* An if on a literal: 1.  A match: its closed arms (whole match -> body), then, when it has more
   than one arm, every arm (match -> match? with that arm alone). */
static size_t at(const AstModule *m, const AstExpr *e) {
  (void)m;
  if (e->kind == AST_IF) return literal_cond(e) ? 1 : 0;
  if (e->kind == AST_MATCH) return closed_arms(e) + (e->narms > 1 ? e->narms : 0);
  return 0;
}

static bool edit(AstModule *m, const RedSite *s) {
  (void)m;
  AstExpr *e = *s->slot;
  if (e->kind == AST_IF) {
    *s->slot = !strcmp(literal_cond(e), "True") ? e->then_ : e->else_;
    return true;
  }
  size_t k = s->sub, closed = closed_arms(e);
  if (k < closed) { /* the k-th closed arm's body replaces the match */
    for (size_t i = 0; i < e->narms; i++)
      if (!prog_pattern_binds(e->arms[i]->pattern) && k-- == 0) *s->slot = e->arms[i]->body;
    return true;
  }
  k -= closed;
  e->text = "match?";
  e->arms += k;
  e->narms = 1;
  return true;
}

static size_t count(const Program *p) { return red_count_sites(p->m, at); }

static bool apply(Program *out, size_t i) { return red_edit_site(out, i, at, NULL, edit); }

const RedPass red_pass_fold = {"fold", "fold an if on a literal; collapse a match to one arm", count, apply, RED_ONE_BY_ONE, NULL};
