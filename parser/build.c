/* Building AST nodes from a program (see "building" in ast.h). */
#include <stdio.h>
#include <string.h>

#include "../support/xalloc.h"
#include "ast.h"

#define NEW(m, T) ((T *)arena_alloc(&(m)->arena, sizeof(T)))

static void *copy(AstModule *m, const void *items, size_t n, size_t size) {
  if (n == 0) return NULL;
  void *out = arena_alloc(&m->arena, n * size);
  memcpy(out, items, n * size);
  return out;
}

static const char *str(AstModule *m, const char *s) { return s ? arena_strdup(&m->arena, s) : NULL; }

AstModule *ast_module_new(bool has_version) {
  AstModule *m = xcalloc(1, sizeof *m);
  arena_init(&m->arena);
  m->has_version = has_version;
  m->trailing_newlines = 1;
  return m;
}

void ast_module_add(AstModule *m, AstDef *d) {
  AstDef **defs = arena_alloc(&m->arena, (m->ndefs + 1) * sizeof *defs);
  if (m->ndefs) memcpy(defs, m->defs, m->ndefs * sizeof *defs);
  defs[m->ndefs++] = d;
  m->defs = defs;
}

AstExpr *ast_new_atom(AstModule *m, AstExprKind kind, const char *text) {
  AstExpr *e = NEW(m, AstExpr);
  e->kind = kind;
  e->text = str(m, text);
  return e;
}

AstExpr *ast_new_unary(AstModule *m, AstExprKind kind, AstExpr *a) {
  AstExpr *e = NEW(m, AstExpr);
  e->kind = kind;
  e->a = a;
  return e;
}

AstExpr *ast_new_ref_write(AstModule *m, AstExpr *ref, AstExpr *value) {
  AstExpr *e = ast_new_unary(m, AST_REF_WRITE, ref);
  e->b = value;
  return e;
}

AstExpr *ast_new_call(AstModule *m, AstExpr *callee, AstExpr *const *args, size_t nargs, AstAttr *const *attrs,
                      size_t nattrs) {
  AstExpr *e = ast_new_unary(m, AST_CALL, callee);
  e->items = copy(m, args, nargs, sizeof *args);
  e->nitems = nargs;
  e->attrs.items = copy(m, attrs, nattrs, sizeof *attrs);
  e->attrs.len = nattrs;
  return e;
}

AstExpr *ast_new_tuple(AstModule *m, AstExpr *const *items, size_t n) {
  AstExpr *e = ast_new_unary(m, AST_TUPLE, NULL);
  e->items = copy(m, items, n, sizeof *items);
  e->nitems = n;
  return e;
}

AstExpr *ast_new_list(AstModule *m, AstExpr *const *items, size_t n) {
  AstExpr *e = ast_new_tuple(m, items, n);
  e->kind = AST_LIST;
  return e;
}

AstExpr *ast_new_proj(AstModule *m, AstExpr *tuple, unsigned index) {
  AstExpr *e = ast_new_unary(m, AST_PROJ, tuple);
  e->index = index;
  e->index_text = arena_printf(&m->arena, "%u", index);
  return e;
}

AstExpr *ast_new_if(AstModule *m, AstExpr *cond, AstExpr *then_, AstExpr *else_) {
  AstExpr *e = ast_new_unary(m, AST_IF, cond);
  e->then_ = then_;
  e->else_ = else_;
  return e;
}

AstExpr *ast_new_match(AstModule *m, bool partial, AstExpr *scrutinee, AstMatchArm *const *arms, size_t n) {
  AstExpr *e = ast_new_unary(m, AST_MATCH, scrutinee);
  e->text = partial ? "match?" : "match";
  e->arms = copy(m, arms, n, sizeof *arms);
  e->narms = n;
  return e;
}

AstExpr *ast_new_seq(AstModule *m, AstStmt *const *stmts, size_t n, AstExpr *result) {
  if (n == 0) return result;
  AstExpr *e = ast_new_unary(m, AST_SEQ, result);
  e->stmts = copy(m, stmts, n, sizeof *stmts);
  e->nstmts = n;
  return e;
}

AstExpr *ast_new_fn(AstModule *m, AstFunc *f) {
  AstExpr *e = ast_new_unary(m, AST_FN, NULL);
  e->fn = f;
  return e;
}

AstFunc *ast_new_func(AstModule *m, const char *const *type_params, size_t ntype_params, AstBinder *const *params,
                      size_t nparams, AstType *ret, AstExpr *body) {
  AstFunc *f = NEW(m, AstFunc);
  const char **tp = arena_alloc(&m->arena, (ntype_params ? ntype_params : 1) * sizeof *tp);
  for (size_t i = 0; i < ntype_params; i++) tp[i] = str(m, type_params[i]);
  f->type_params = ntype_params ? tp : NULL;
  f->ntype_params = ntype_params;
  f->params = copy(m, params, nparams, sizeof *params);
  f->nparams = nparams;
  f->ret = ret;
  f->body = body;
  return f;
}

AstBinder *ast_new_binder(AstModule *m, const char *name, AstType *type) {
  AstBinder *b = NEW(m, AstBinder);
  b->name = str(m, name);
  b->type = type;
  return b;
}

AstStmt *ast_new_let(AstModule *m, AstBinder *b, AstExpr *value) {
  AstStmt *s = NEW(m, AstStmt);
  s->kind = AST_STMT_LET;
  s->binder = b;
  s->value = value;
  return s;
}

AstStmt *ast_new_graph(AstModule *m, unsigned number, AstExpr *value) {
  AstStmt *s = NEW(m, AstStmt);
  s->kind = AST_STMT_GRAPH;
  s->graph = arena_printf(&m->arena, "%u", number);
  s->value = value;
  return s;
}

AstAttr *ast_new_attr(AstModule *m, const char *key, AstExpr *value) {
  AstAttr *a = NEW(m, AstAttr);
  a->key = str(m, key);
  a->value = value;
  return a;
}

AstMatchArm *ast_new_arm(AstModule *m, AstPattern *p, AstExpr *body) {
  AstMatchArm *a = NEW(m, AstMatchArm);
  a->pattern = p;
  a->body = body;
  return a;
}

AstPattern *ast_new_pattern(AstModule *m, AstPatternKind kind, const char *name, AstPattern *const *items, size_t n) {
  AstPattern *p = NEW(m, AstPattern);
  p->kind = kind;
  p->name = str(m, name);
  p->items = copy(m, items, n, sizeof *items);
  p->nitems = n;
  p->has_args = kind == AST_PAT_CTOR && n > 0;
  return p;
}

AstType *ast_new_type(AstModule *m, AstTypeKind kind, const char *name, AstType *const *args, size_t nargs) {
  AstType *t = NEW(m, AstType);
  t->kind = kind;
  t->name = str(m, name);
  t->args = copy(m, args, nargs, sizeof *args);
  t->nargs = nargs;
  return t;
}

AstType *ast_new_tensor_type(AstModule *m, const char *dtype, const char *const *dims, size_t ndims) {
  AstType *t = ast_new_type(m, AST_TY_TENSOR, dtype, NULL, 0);
  t->dims = arena_alloc(&m->arena, (ndims ? ndims : 1) * sizeof *t->dims);
  for (size_t i = 0; i < ndims; i++) {
    t->dims[i].text = str(m, dims[i]);
    t->dims[i].kind = !strcmp(dims[i], "?") ? AST_DIM_ANY : AST_DIM_INT;
  }
  t->ndims = ndims;
  return t;
}

AstDef *ast_new_fn_def(AstModule *m, const char *name, AstFunc *f) {
  AstDef *d = NEW(m, AstDef);
  d->kind = AST_DEF_FN;
  d->name = str(m, name);
  d->fn = f;
  return d;
}

AstDef *ast_new_type_def(AstModule *m, const char *name, const char *const *type_params, size_t ntype_params,
                         AstCtorDef *const *ctors, size_t nctors) {
  AstDef *d = NEW(m, AstDef);
  d->kind = AST_DEF_TYPE;
  d->name = str(m, name);
  const char **tp = arena_alloc(&m->arena, (ntype_params ? ntype_params : 1) * sizeof *tp);
  for (size_t i = 0; i < ntype_params; i++) tp[i] = str(m, type_params[i]);
  d->type_params = ntype_params ? tp : NULL;
  d->ntype_params = ntype_params;
  d->ctors = copy(m, ctors, nctors, sizeof *ctors);
  d->nctors = nctors;
  return d;
}

AstCtorDef *ast_new_ctor(AstModule *m, const char *name, AstType *const *fields, size_t nfields) {
  AstCtorDef *c = NEW(m, AstCtorDef);
  c->name = str(m, name);
  c->fields = copy(m, fields, nfields, sizeof *fields);
  c->nfields = nfields;
  return c;
}
