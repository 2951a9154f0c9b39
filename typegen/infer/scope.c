/*
 * Scope checking without types: what TVM's parse_expr checks in expression mode (it runs no
 * InferType there).  Every %local must be bound by a parameter, let, free_var or pattern in
 * scope; %N must be bound before use; @globals, operator and constructor names and meta
 * references must resolve.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../support/scoped_names.h"
#include "../../support/xalloc.h"
#include "infer.h"

/* Every name is found in a table, in constant time: 50,000 globals each using an operator, looked
   up by a scan of the definitions per use, took minutes (rreduce checks each candidate so). */
typedef struct Scope {
  Diag *diag;
  const AstModule *m;
  MetaTable meta;
  ScopedNames locals;  /* %x: scopes left are truncated */
  ScopedNames graph;   /* %N: bound for the rest of the text */
  ScopedNames ctors;   /* constructor names of the type definitions */
  ScopedNames globals; /* @f of the function definitions */
  bool failed;
} Scope;

static bool fail(Scope *s, const AstNode *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(Scope *s, const AstNode *n, const char *fmt, ...) {
  if (s->failed) return false;
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  diag_error(s->diag, n->span.start, "%s", msg);
  s->failed = true;
  return false;
}

static bool bound(const ScopedNames *names, const char *name) {
  bool found;
  names_find(names, name, &found);
  return found;
}

static bool is_ctor(const Scope *s, const char *name) { return bound(&s->ctors, name); }

static bool is_global(const Scope *s, const char *name) { return bound(&s->globals, name); }

static bool expr(Scope *s, const AstExpr *e);

static bool pattern(Scope *s, const AstPattern *p) {
  if (p->kind == AST_PAT_VAR) names_bind(&s->locals, p->name, NULL);
  if (p->kind == AST_PAT_CTOR && !is_ctor(s, p->name))
    return fail(s, &p->node, "'%s' is not a constructor (write %%%s to bind a variable)", p->name, p->name);
  for (size_t i = 0; i < p->nitems; i++)
    if (!pattern(s, p->items[i])) return false;
  return true;
}

static bool func(Scope *s, const AstFunc *f) {
  size_t mark = s->locals.len;
  for (size_t i = 0; i < f->nparams; i++) names_bind(&s->locals, f->params[i]->name, NULL);
  bool ok = expr(s, f->body);
  names_truncate(&s->locals, mark);
  return ok;
}

static bool expr(Scope *s, const AstExpr *e) {
  if (!e) return true;
  switch (e->kind) {
  case AST_LOCAL:
    return bound(&s->locals, e->text) ||
           fail(s, &e->node, "unbound variable %%%s (not declared in this scope)", e->text);
  case AST_GRAPH:
    return bound(&s->graph, e->text) || fail(s, &e->node, "%%%s is used before it is bound", e->text);
  case AST_GLOBAL: return is_global(s, e->text) || fail(s, &e->node, "unknown global function @%s", e->text);
  case AST_NAME:
    return is_ctor(s, e->text) || op_lookup(e->text) ||
           fail(s, &e->node, "unknown operator or constructor '%s'", e->text);
  case AST_META:
    return meta_has_constant(&s->meta, e->text) || meta_is_attrs_ref(e) || /* an unknown op's attributes */
           fail(s, &e->node, "unknown meta reference %s%s", e->text,
                s->m->metadata ? "" : " (the file has no #[metadata] section)");
  case AST_FN: return func(s, e->fn);
  case AST_SEQ: {
    size_t mark = s->locals.len;
    for (size_t i = 0; i < e->nstmts; i++) {
      const AstStmt *st = e->stmts[i];
      bool rec = st->kind == AST_STMT_LET && st->value->kind == AST_FN;
      if (rec) names_bind(&s->locals, st->binder->name, NULL);
      if (st->value && !expr(s, st->value)) return false;
      if ((st->kind == AST_STMT_LET && !rec) || st->kind == AST_STMT_FREE) names_bind(&s->locals, st->binder->name, NULL);
      if (st->kind == AST_STMT_GRAPH) names_bind(&s->graph, st->graph, NULL);
    }
    bool ok = expr(s, e->a);
    names_truncate(&s->locals, mark);
    return ok;
  }
  case AST_MATCH:
    if (!expr(s, e->a)) return false;
    for (size_t i = 0; i < e->narms; i++) {
      size_t mark = s->locals.len;
      if (!pattern(s, e->arms[i]->pattern) || !expr(s, e->arms[i]->body)) return false;
      names_truncate(&s->locals, mark);
    }
    return true;
  default:
    if (!expr(s, e->a) || !expr(s, e->b) || !expr(s, e->then_) || !expr(s, e->else_)) return false;
    for (size_t i = 0; i < e->nitems; i++)
      if (!expr(s, e->items[i])) return false;
    return true; /* attribute values (e.g. meta[VirtualDevice][0]) are objects TVM resolves, not checked */
  }
}

bool scope_check_module(const AstModule *m, Diag *diag) {
  Scope s = {.diag = diag, .m = m};
  char err[256];
  size_t where = 0;
  if (!meta_table_init(&s.meta, m->metadata, err, sizeof err, &where)) {
    meta_report(diag, m, err, where);
    return false;
  }
  for (size_t d = 0; d < m->ndefs; d++) {
    if (m->defs[d]->kind == AST_DEF_FN) names_bind(&s.globals, m->defs[d]->name, NULL);
    for (size_t c = 0; c < m->defs[d]->nctors; c++) names_bind(&s.ctors, m->defs[d]->ctors[c]->name, NULL);
  }
  bool ok = true;
  for (size_t d = 0; ok && d < m->ndefs; d++)
    if (m->defs[d]->kind == AST_DEF_FN) ok = func(&s, m->defs[d]->fn);
  if (ok && m->body) ok = expr(&s, m->body);
  names_free(&s.locals);
  names_free(&s.graph);
  names_free(&s.ctors);
  names_free(&s.globals);
  meta_table_free(&s.meta);
  return ok && !s.failed;
}
