/* Editing helpers for mutators (see edit.h). */
#include "edit.h"

#include <ctype.h>
#include <string.h>

#include "../reduce/reduce.h"

static const char *dup(AstModule *m, const char *s) { return s ? arena_strdup(&m->arena, s) : NULL; }

static void *alloc_n(AstModule *m, size_t n, size_t size) { return n ? arena_alloc(&m->arena, n * size) : NULL; }

static const char **dup_names(AstModule *m, const char *const *names, size_t n) {
  const char **out = alloc_n(m, n, sizeof *out);
  for (size_t i = 0; i < n; i++) out[i] = dup(m, names[i]);
  return out;
}

static void clear_node(AstNode *n) {
  n->comments = NULL;
  n->type = NULL;
}

AstType *mut_copy_type(AstModule *into, const AstType *t) {
  if (!t) return NULL;
  AstType *c = arena_alloc(&into->arena, sizeof *c);
  *c = *t;
  clear_node(&c->node);
  c->name = dup(into, t->name);
  c->dims = alloc_n(into, t->ndims, sizeof *c->dims);
  for (size_t i = 0; i < t->ndims; i++) c->dims[i] = (AstDim){t->dims[i].kind, dup(into, t->dims[i].text)};
  c->args = alloc_n(into, t->nargs, sizeof *c->args);
  for (size_t i = 0; i < t->nargs; i++) c->args[i] = mut_copy_type(into, t->args[i]);
  c->type_params = dup_names(into, t->type_params, t->ntype_params);
  c->ret = mut_copy_type(into, t->ret);
  return c;
}

static AstAttrs copy_attrs(AstModule *m, AstAttrs a) {
  AstAttrs c = {alloc_n(m, a.len, sizeof *c.items), a.len};
  for (size_t i = 0; i < a.len; i++) {
    c.items[i] = arena_alloc(&m->arena, sizeof **c.items);
    *c.items[i] = *a.items[i];
    clear_node(&c.items[i]->node);
    c.items[i]->key = dup(m, a.items[i]->key);
    c.items[i]->value = mut_copy_expr(m, a.items[i]->value);
  }
  return c;
}

static AstBinder *copy_binder(AstModule *m, const AstBinder *b) {
  if (!b) return NULL;
  AstBinder *c = arena_alloc(&m->arena, sizeof *c);
  *c = *b;
  clear_node(&c->node);
  c->name = dup(m, b->name);
  c->attrs = copy_attrs(m, b->attrs);
  c->type = mut_copy_type(m, b->type);
  return c;
}

static AstPattern *copy_pattern(AstModule *m, const AstPattern *p) {
  if (!p) return NULL;
  AstPattern *c = arena_alloc(&m->arena, sizeof *c);
  *c = *p;
  clear_node(&c->node);
  c->name = dup(m, p->name);
  c->type = mut_copy_type(m, p->type);
  c->items = alloc_n(m, p->nitems, sizeof *c->items);
  for (size_t i = 0; i < p->nitems; i++) c->items[i] = copy_pattern(m, p->items[i]);
  return c;
}

static AstFunc *copy_func(AstModule *m, const AstFunc *f) {
  AstFunc *c = arena_alloc(&m->arena, sizeof *c);
  *c = *f;
  c->type = NULL;
  c->type_params = dup_names(m, f->type_params, f->ntype_params);
  c->params = alloc_n(m, f->nparams, sizeof *c->params);
  for (size_t i = 0; i < f->nparams; i++) c->params[i] = copy_binder(m, f->params[i]);
  c->attrs = copy_attrs(m, f->attrs);
  c->ret = mut_copy_type(m, f->ret);
  c->body = mut_copy_expr(m, f->body);
  return c;
}

AstExpr *mut_copy_expr(AstModule *into, const AstExpr *e) {
  if (!e) return NULL;
  AstModule *m = into;
  AstExpr *c = arena_alloc(&m->arena, sizeof *c);
  *c = *e;
  clear_node(&c->node);
  c->text = dup(m, e->text);
  c->index_text = dup(m, e->index_text);
  c->a = mut_copy_expr(m, e->a);
  c->b = mut_copy_expr(m, e->b);
  c->items = alloc_n(m, e->nitems, sizeof *c->items);
  for (size_t i = 0; i < e->nitems; i++) c->items[i] = mut_copy_expr(m, e->items[i]);
  c->attrs = copy_attrs(m, e->attrs);
  c->fn = e->fn ? copy_func(m, e->fn) : NULL;
  c->then_ = mut_copy_expr(m, e->then_);
  c->else_ = mut_copy_expr(m, e->else_);
  c->arms = alloc_n(m, e->narms, sizeof *c->arms);
  for (size_t i = 0; i < e->narms; i++) {
    c->arms[i] = arena_alloc(&m->arena, sizeof **c->arms);
    *c->arms[i] = *e->arms[i];
    clear_node(&c->arms[i]->node);
    c->arms[i]->pattern = copy_pattern(m, e->arms[i]->pattern);
    c->arms[i]->body = mut_copy_expr(m, e->arms[i]->body);
  }
  c->stmts = alloc_n(m, e->nstmts, sizeof *c->stmts);
  for (size_t i = 0; i < e->nstmts; i++) {
    const AstStmt *s = e->stmts[i];
    c->stmts[i] = arena_alloc(&m->arena, sizeof **c->stmts);
    *c->stmts[i] = *s;
    clear_node(&c->stmts[i]->node);
    c->stmts[i]->value_type = NULL;
    c->stmts[i]->binder = copy_binder(m, s->binder);
    c->stmts[i]->graph = dup(m, s->graph);
    c->stmts[i]->value = mut_copy_expr(m, s->value);
  }
  return c;
}

AstExpr *mut_var_ref(AstModule *m, const char *name) {
  return ast_new_atom(m, isdigit((unsigned char)name[0]) ? AST_GRAPH : AST_LOCAL, name);
}

bool mut_is_var(const AstExpr *e) { return e->kind == AST_LOCAL || e->kind == AST_GRAPH; }

bool mut_site_plain(const MutSite *s) {
  return s->in_main || (strcmp(s->def->name, "main") && s->def->fn->attrs.len == 0);
}

bool mut_closed_type(const Type *t) {
  switch (t->kind) {
  case TY_TENSOR:
    if (t->dtype.code == DT_VOID || t->dtype.lanes != 1) return false;
    return ty_num_elements(t) >= 0;
  case TY_TUPLE:
    for (uint32_t i = 0; i < t->nargs; i++)
      if (!mut_closed_type(t->args[i])) return false;
    return t->nargs > 0;
  default: return false;
  }
}

bool mut_name_taken(const AstModule *m, const char *name) {
  if (red_uses_in_module(m, AST_LOCAL, name)) return true;
  for (size_t i = 0; i < m->ndefs; i++) {
    const AstFunc *f = m->defs[i]->kind == AST_DEF_FN ? m->defs[i]->fn : NULL;
    if (!f) continue;
    for (size_t j = 0; j < f->nparams; j++)
      if (!strcmp(f->params[j]->name, name)) return true;
    if (red_binds(f->body, name)) return true;
  }
  return false;
}

const char *mut_fresh(AstModule *m, const char *stem) {
  for (unsigned k = 0;; k++) {
    const char *name = arena_printf(&m->arena, "%s%u", stem, k);
    if (!mut_name_taken(m, name)) return name;
  }
}

char *mut_expr_text(const AstExpr *e) {
  AstModule tmp;
  memset(&tmp, 0, sizeof tmp);
  tmp.body = (AstExpr *)e;
  AstPrintOptions po = {.strip_types = true, .strip_comments = true};
  return ast_print(&tmp, &po);
}
