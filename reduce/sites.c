/* The places a pass can change, numbered in prog_walk's order (see reduce.h). */
#include "reduce.h"

#include <string.h>

#include "../support/strset.h"
#include "../support/xalloc.h"

size_t red_count_main_stmts(const Program *p) {
  AstExpr *seq = prog_main_seq(p->m);
  return seq ? seq->nstmts : 0;
}

void red_count_ref(AstExpr **slot, void *refs) {
  RedRefs *r = refs;
  if ((*slot)->kind == AST_LOCAL) strcounts_add(&r->locals, (*slot)->text, 1);
  if ((*slot)->kind == AST_GRAPH) strcounts_add(&r->graph, (*slot)->text, 1);
}

void red_refs_free(RedRefs *r) {
  strcounts_free(&r->locals);
  strcounts_free(&r->graph);
}

/* One walk for all parameters (asking prog_uses per parameter would be quadratic in a 25,000-input
   @main that cut has made).  A use by a shadowing binding of the same name counts: kept, safely. */
AstBinder **red_live_params(const AstFunc *f, size_t *n) {
  RedRefs reads = {0};
  AstExpr *body = f->body;
  prog_walk(&body, red_count_ref, &reads);
  AstBinder **live = xmalloc((f->nparams ? f->nparams : 1) * sizeof *live);
  *n = 0;
  for (size_t i = 0; i < f->nparams; i++)
    if (strcounts_get(&reads.locals, f->params[i]->name)) live[(*n)++] = f->params[i];
  red_refs_free(&reads);
  return live;
}

size_t red_type_cost(const Type *t) {
  if (t->kind == TY_TENSOR) return 2 + t->ndims;
  if (t->kind != TY_TUPLE) return 1;
  size_t n = 1;
  for (uint32_t i = 0; i < t->nargs; i++) n += red_type_cost(t->args[i]);
  return n;
}

void red_drop_param(AstFunc *f, const AstBinder *b) {
  size_t at = 0;
  while (at < f->nparams && f->params[at] != b) at++;
  if (at == f->nparams) return;
  memmove(&f->params[at], &f->params[at + 1], (f->nparams - at - 1) * sizeof *f->params);
  f->nparams--;
}

typedef struct Sites {
  const AstModule *m;
  RedSitesFn at;
  size_t seen, want;
  AstDef *def;
  RedSite *found; /* NULL when only counting */
  bool hit;
} Sites;

static void visit_site(AstExpr **slot, void *ctx) {
  Sites *s = ctx;
  size_t n = s->at(s->m, *slot);
  if (s->found && !s->hit && s->want < s->seen + n) {
    *s->found = (RedSite){slot, s->want - s->seen, s->def};
    s->hit = true;
  }
  s->seen += n;
}

/* Definitions in order, then the body of an expression-mode file: the order of the sites. */
static void walk_sites(AstModule *m, Sites *s) {
  for (size_t i = 0; i < m->ndefs && !s->hit; i++)
    if (m->defs[i]->kind == AST_DEF_FN) {
      s->def = m->defs[i];
      prog_walk(&m->defs[i]->fn->body, visit_site, s);
    }
  s->def = NULL;
  if (m->body && !s->hit) prog_walk(&m->body, visit_site, s);
}

size_t red_count_sites(const AstModule *m, RedSitesFn at) {
  Sites s = {m, at, 0, 0, NULL, NULL, false};
  walk_sites((AstModule *)m, &s);
  return s.seen;
}

bool red_find_site(AstModule *m, size_t i, RedSitesFn at, RedSite *site) {
  Sites s = {m, at, 0, i, NULL, site, false};
  walk_sites(m, &s);
  return s.hit;
}
