/* Walks over a program's expressions, and what they answer (see program.h). */
#include <string.h>

#include "program.h"

AstDef *prog_main(const AstModule *m) {
  for (size_t i = 0; i < m->ndefs; i++)
    if (m->defs[i]->kind == AST_DEF_FN && !strcmp(m->defs[i]->name, "main")) return m->defs[i];
  return NULL;
}

AstExpr *prog_main_seq(const AstModule *m) {
  AstDef *main = prog_main(m);
  return main && main->fn->body->kind == AST_SEQ ? main->fn->body : NULL;
}

void prog_walk(AstExpr **slot, ProgSlotFn f, void *ctx) {
  if (!*slot) return;
  f(slot, ctx);
  AstExpr **child;
  for (AstChildren it = ast_children(*slot); (child = ast_next_child(&it));) prog_walk(child, f, ctx);
}

void prog_walk_module(AstModule *m, ProgSlotFn f, void *ctx) {
  for (size_t i = 0; i < m->ndefs; i++)
    if (m->defs[i]->kind == AST_DEF_FN) prog_walk(&m->defs[i]->fn->body, f, ctx);
  if (m->body) prog_walk(&m->body, f, ctx);
}

typedef struct Ref {
  AstExprKind kind;
  const char *name;
  size_t count;
  AstExpr *with;
} Ref;

static void count_ref(AstExpr **slot, void *ctx) {
  Ref *r = ctx;
  if ((*slot)->kind == r->kind && !strcmp((*slot)->text, r->name)) r->count++;
}

size_t prog_uses(const AstExpr *e, AstExprKind kind, const char *name) {
  Ref r = {kind, name, 0, NULL};
  AstExpr *root = (AstExpr *)e;
  prog_walk(&root, count_ref, &r);
  return r.count;
}

size_t prog_uses_in_module(const AstModule *m, AstExprKind kind, const char *name) {
  Ref r = {kind, name, 0, NULL};
  prog_walk_module((AstModule *)m, count_ref, &r);
  return r.count;
}

static void replace_ref(AstExpr **slot, void *ctx) {
  Ref *r = ctx;
  if ((*slot)->kind == r->kind && (*slot)->text && !strcmp((*slot)->text, r->name)) *slot = r->with;
}

void prog_substitute(AstExpr **slot, AstExprKind kind, const char *name, AstExpr *with) {
  Ref r = {kind, name, 0, with};
  prog_walk(slot, replace_ref, &r);
}

static void count_call(AstExpr **slot, void *ctx) {
  if ((*slot)->kind == AST_CALL && (*slot)->a->kind == AST_NAME) ++*(size_t *)ctx;
}

bool prog_calls_op(const AstExpr *e, const char *prefix) {
  return e->kind == AST_CALL && e->a->kind == AST_NAME && !strncmp(e->a->text, prefix, strlen(prefix));
}

size_t prog_count_calls_in_module(const AstModule *m) {
  size_t n = 0;
  prog_walk_module((AstModule *)m, count_call, &n);
  return n;
}
