/* Deep copies (see ast_module_clone and ast_expr_copy in ast.h): every node, array and string is
   copied into the new module's arena; a module clone keeps spans, comments and the inferred `type`
   pointers, an expression copy keeps them only when asked to (keep_annotations). */
#include <string.h>

#include "../support/xalloc.h"
#include "ast.h"

typedef struct Cloner {
  Arena *a;
  bool bare; /* drop comments and inferred types (code moved into another module) */
} Cloner;

static const char *str(Cloner *c, const char *s) { return s ? arena_strdup(c->a, s) : NULL; }

/* A copy of the struct at p (size bytes), or NULL. */
static void *dup(Cloner *c, const void *p, size_t size) {
  if (!p) return NULL;
  void *out = arena_alloc(c->a, size);
  memcpy(out, p, size);
  return out;
}

/* An array of n pointers, to be filled by the caller (NULL when the source array is NULL). */
static void *ptrs(Cloner *c, const void *src, size_t n) {
  if (!src) return NULL;
  return arena_alloc(c->a, (n ? n : 1) * sizeof(void *));
}

static const char **strs(Cloner *c, const char *const *s, size_t n) {
  const char **out = ptrs(c, s, n);
  for (size_t i = 0; out && i < n; i++) out[i] = str(c, s[i]);
  return out;
}

static AstComment *comments(Cloner *c, const AstComment *k) {
  AstComment *head = NULL, **tail = &head;
  for (; k; k = k->next) {
    AstComment *n = arena_alloc(c->a, sizeof *n);
    n->text = str(c, k->text);
    *tail = n;
    tail = &n->next;
  }
  return head;
}

static void node(Cloner *c, AstNode *n) {
  n->comments = c->bare ? NULL : comments(c, n->comments);
  if (c->bare) n->type = NULL;
}

static AstExpr *expr(Cloner *c, const AstExpr *e);

static AstType *type(Cloner *c, const AstType *t) {
  AstType *n = dup(c, t, sizeof *t);
  if (!n) return NULL;
  node(c, &n->node);
  n->name = str(c, t->name);
  if (t->dims) {
    n->dims = arena_alloc(c->a, (t->ndims ? t->ndims : 1) * sizeof *n->dims);
    for (size_t i = 0; i < t->ndims; i++) {
      n->dims[i] = t->dims[i];
      n->dims[i].text = str(c, t->dims[i].text);
    }
  }
  n->args = ptrs(c, t->args, t->nargs);
  for (size_t i = 0; n->args && i < t->nargs; i++) n->args[i] = type(c, t->args[i]);
  n->type_params = strs(c, t->type_params, t->ntype_params);
  n->ret = type(c, t->ret);
  return n;
}

static AstAttrs attrs(Cloner *c, AstAttrs s) {
  AstAttrs out = {ptrs(c, s.items, s.len), s.len};
  for (size_t i = 0; out.items && i < s.len; i++) {
    AstAttr *n = dup(c, s.items[i], sizeof *n);
    if (n) {
      node(c, &n->node);
      n->key = str(c, s.items[i]->key);
      n->value = expr(c, s.items[i]->value);
    }
    out.items[i] = n;
  }
  return out;
}

static AstBinder *binder(Cloner *c, const AstBinder *b) {
  AstBinder *n = dup(c, b, sizeof *b);
  if (!n) return NULL;
  node(c, &n->node);
  n->name = str(c, b->name);
  n->attrs = attrs(c, b->attrs);
  n->type = type(c, b->type);
  return n;
}

static AstPattern *pattern(Cloner *c, const AstPattern *p) {
  AstPattern *n = dup(c, p, sizeof *p);
  if (!n) return NULL;
  node(c, &n->node);
  n->name = str(c, p->name);
  n->type = type(c, p->type);
  n->items = ptrs(c, p->items, p->nitems);
  for (size_t i = 0; n->items && i < p->nitems; i++) n->items[i] = pattern(c, p->items[i]);
  return n;
}

static AstFunc *func(Cloner *c, const AstFunc *f) {
  AstFunc *n = dup(c, f, sizeof *f);
  if (!n) return NULL;
  if (c->bare) n->type = NULL;
  n->type_params = strs(c, f->type_params, f->ntype_params);
  n->params = ptrs(c, f->params, f->nparams);
  for (size_t i = 0; n->params && i < f->nparams; i++) n->params[i] = binder(c, f->params[i]);
  n->attrs = attrs(c, f->attrs);
  n->ret = type(c, f->ret);
  n->body = expr(c, f->body);
  return n;
}

static AstStmt *stmt(Cloner *c, const AstStmt *s) {
  AstStmt *n = dup(c, s, sizeof *s);
  if (!n) return NULL;
  node(c, &n->node);
  if (c->bare) n->value_type = NULL;
  n->binder = binder(c, s->binder);
  n->graph = str(c, s->graph);
  n->value = expr(c, s->value);
  return n;
}

static AstMatchArm *arm(Cloner *c, const AstMatchArm *a) {
  AstMatchArm *n = dup(c, a, sizeof *a);
  if (!n) return NULL;
  node(c, &n->node);
  n->pattern = pattern(c, a->pattern);
  n->body = expr(c, a->body);
  return n;
}

static AstExpr *expr(Cloner *c, const AstExpr *e) {
  AstExpr *n = dup(c, e, sizeof *e);
  if (!n) return NULL;
  node(c, &n->node);
  n->text = str(c, e->text);
  n->a = expr(c, e->a);
  n->b = expr(c, e->b);
  n->items = ptrs(c, e->items, e->nitems);
  for (size_t i = 0; n->items && i < e->nitems; i++) n->items[i] = expr(c, e->items[i]);
  n->attrs = attrs(c, e->attrs);
  n->index_text = str(c, e->index_text);
  n->fn = func(c, e->fn);
  n->then_ = expr(c, e->then_);
  n->else_ = expr(c, e->else_);
  n->arms = ptrs(c, e->arms, e->narms);
  for (size_t i = 0; n->arms && i < e->narms; i++) n->arms[i] = arm(c, e->arms[i]);
  n->stmts = ptrs(c, e->stmts, e->nstmts);
  for (size_t i = 0; n->stmts && i < e->nstmts; i++) n->stmts[i] = stmt(c, e->stmts[i]);
  return n;
}

static AstCtorDef *ctor(Cloner *c, const AstCtorDef *k) {
  AstCtorDef *n = dup(c, k, sizeof *k);
  if (!n) return NULL;
  node(c, &n->node);
  n->name = str(c, k->name);
  n->fields = ptrs(c, k->fields, k->nfields);
  for (size_t i = 0; n->fields && i < k->nfields; i++) n->fields[i] = type(c, k->fields[i]);
  return n;
}

static AstDef *def(Cloner *c, const AstDef *d) {
  AstDef *n = dup(c, d, sizeof *d);
  if (!n) return NULL;
  node(c, &n->node);
  n->name = str(c, d->name);
  n->fn = func(c, d->fn);
  n->type_params = strs(c, d->type_params, d->ntype_params);
  n->ctors = ptrs(c, d->ctors, d->nctors);
  for (size_t i = 0; n->ctors && i < d->nctors; i++) n->ctors[i] = ctor(c, d->ctors[i]);
  return n;
}

AstModule *ast_module_clone(const AstModule *m) {
  if (!m) return NULL;
  AstModule *n = xcalloc(1, sizeof *n);
  arena_init(&n->arena);
  Cloner c = {&n->arena, false};
  n->has_version = m->has_version;
  n->ndefs = m->ndefs;
  n->defs = ptrs(&c, m->defs, m->ndefs);
  for (size_t i = 0; n->defs && i < m->ndefs; i++) n->defs[i] = def(&c, m->defs[i]);
  n->body = expr(&c, m->body);
  n->metadata = str(&c, m->metadata);
  n->metadata_at = m->metadata_at;
  n->leading = comments(&c, m->leading);
  n->trailing_newlines = m->trailing_newlines;
  return n;
}

AstExpr *ast_expr_copy(AstModule *into, const AstExpr *e, bool keep_annotations) {
  Cloner c = {&into->arena, !keep_annotations};
  return expr(&c, e);
}
