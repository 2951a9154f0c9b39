/*
 * `rfmt --ast`: the AST as an S-expression, one node per line, indented by depth, without spans
 * or comments, so two parses can be compared with diff.
 */
#include <string.h>

#include "../support/strbuf.h"
#include "ast.h"

typedef struct Dumper {
  StrBuf out;
  unsigned depth;
} Dumper;

static void expr(Dumper *d, const AstExpr *e);
static void type(Dumper *d, const AstType *t);

static void open(Dumper *d, const char *head) {
  if (d->out.len) sb_putc(&d->out, '\n');
  for (unsigned i = 0; i < d->depth; i++) sb_puts(&d->out, "  ");
  sb_putc(&d->out, '(');
  sb_puts(&d->out, head);
  d->depth++;
}

static void close_(Dumper *d) {
  sb_putc(&d->out, ')');
  d->depth--;
}

static void word(Dumper *d, const char *prefix, const char *w) {
  sb_putc(&d->out, ' ');
  if (prefix) sb_puts(&d->out, prefix);
  sb_puts(&d->out, w);
}

static const char *const type_heads[] = {
    [AST_TY_TENSOR] = "tensor", [AST_TY_NAME] = "tname", [AST_TY_CALL] = "tcall", [AST_TY_TUPLE] = "ttuple",
    [AST_TY_FUNC] = "tfn", [AST_TY_REF] = "tref", [AST_TY_INCOMPLETE] = "tincomplete", [AST_TY_META] = "tmeta",
};

static void type(Dumper *d, const AstType *t) {
  open(d, type_heads[t->kind]);
  if (t->kind == AST_TY_TENSOR) {
    sb_puts(&d->out, " (");
    for (size_t i = 0; i < t->ndims; i++) sb_printf(&d->out, "%s%s", i ? " " : "", t->dims[i].text);
    sb_puts(&d->out, ")");
    word(d, NULL, t->name[0] ? t->name : "void");
  } else if (t->name && t->kind != AST_TY_INCOMPLETE) {
    word(d, NULL, t->name);
  }
  for (size_t i = 0; i < t->ntype_params; i++) word(d, "'", t->type_params[i]);
  for (size_t i = 0; i < t->nargs; i++) type(d, t->args[i]);
  if (t->ret) type(d, t->ret);
  close_(d);
}

static void attrs(Dumper *d, const AstAttrs *as) {
  for (size_t i = 0; i < as->len; i++) {
    open(d, "attr");
    word(d, NULL, as->items[i]->key);
    expr(d, as->items[i]->value);
    close_(d);
  }
}

static void binder(Dumper *d, const char *head, const AstBinder *b) {
  open(d, head);
  word(d, "%", b->name);
  attrs(d, &b->attrs);
  if (b->type) type(d, b->type);
  close_(d);
}

static void func(Dumper *d, const char *head, const char *name, const AstFunc *f) {
  open(d, head);
  if (name) word(d, "@", name);
  for (size_t i = 0; i < f->ntype_params; i++) word(d, "'", f->type_params[i]);
  for (size_t i = 0; i < f->nparams; i++) binder(d, "param", f->params[i]);
  attrs(d, &f->attrs);
  if (f->ret) {
    open(d, "ret");
    type(d, f->ret);
    close_(d);
  }
  expr(d, f->body);
  close_(d);
}

static void pattern(Dumper *d, const AstPattern *p) {
  static const char *const heads[] = {[AST_PAT_WILDCARD] = "pwild", [AST_PAT_VAR] = "pvar",
                                      [AST_PAT_CTOR] = "pctor", [AST_PAT_TUPLE] = "ptuple"};
  open(d, heads[p->kind]);
  if (p->kind == AST_PAT_VAR) word(d, "%", p->name);
  if (p->kind == AST_PAT_CTOR) word(d, NULL, p->name);
  if (p->kind == AST_PAT_CTOR && p->has_args) sb_puts(&d->out, " ()");
  if (p->type) type(d, p->type);
  for (size_t i = 0; i < p->nitems; i++) pattern(d, p->items[i]);
  close_(d);
}

static const char *const expr_heads[] = {
    [AST_INT] = "int", [AST_FLOAT] = "float", [AST_BOOL] = "bool", [AST_STRING] = "string",
    [AST_LOCAL] = "local", [AST_GRAPH] = "graph", [AST_GLOBAL] = "global", [AST_NAME] = "name",
    [AST_META] = "meta", [AST_ANY] = "any", [AST_CALL] = "call", [AST_BINARY] = "binary",
    [AST_TUPLE] = "tuple", [AST_PROJ] = "proj", [AST_PAREN] = "paren", [AST_FN] = "fn",
    [AST_IF] = "if", [AST_MATCH] = "match", [AST_REF] = "ref", [AST_REF_READ] = "ref_read",
    [AST_REF_WRITE] = "ref_write", [AST_SEQ] = "seq", [AST_BLOCK] = "block", [AST_LIST] = "list",
};

static void stmt(Dumper *d, const AstStmt *s) {
  switch (s->kind) {
  case AST_STMT_LET:
    open(d, "let");
    binder(d, "binder", s->binder);
    expr(d, s->value);
    break;
  case AST_STMT_GRAPH:
    open(d, "bind");
    word(d, "%", s->graph);
    expr(d, s->value);
    break;
  case AST_STMT_FREE:
    open(d, "free_var");
    binder(d, "binder", s->binder);
    break;
  case AST_STMT_EXPR:
    open(d, "do");
    expr(d, s->value);
    break;
  }
  close_(d);
}

static void expr(Dumper *d, const AstExpr *e) {
  if (e->kind == AST_FN) {
    func(d, "fn", NULL, e->fn);
    return;
  }
  open(d, expr_heads[e->kind]);
  if (e->text) word(d, NULL, e->text);
  if (e->kind == AST_PROJ) sb_printf(&d->out, " %u", e->index);
  if (e->a) expr(d, e->a);
  if (e->b) expr(d, e->b);
  for (size_t i = 0; i < e->nitems; i++) expr(d, e->items[i]);
  attrs(d, &e->attrs);
  if (e->then_) expr(d, e->then_);
  if (e->else_) expr(d, e->else_);
  for (size_t i = 0; i < e->narms; i++) {
    open(d, "arm");
    pattern(d, e->arms[i]->pattern);
    expr(d, e->arms[i]->body);
    close_(d);
  }
  for (size_t i = 0; i < e->nstmts; i++) stmt(d, e->stmts[i]);
  close_(d);
}

static void def(Dumper *d, const AstDef *df) {
  if (df->kind == AST_DEF_FN) {
    func(d, "def", df->name, df->fn);
    return;
  }
  open(d, df->kind == AST_DEF_TYPE ? "type" : "extern_type");
  word(d, NULL, df->name);
  for (size_t i = 0; i < df->ntype_params; i++) word(d, "'", df->type_params[i]);
  for (size_t i = 0; i < df->nctors; i++) {
    open(d, "ctor");
    word(d, NULL, df->ctors[i]->name);
    for (size_t j = 0; j < df->ctors[i]->nfields; j++) type(d, df->ctors[i]->fields[j]);
    close_(d);
  }
  close_(d);
}

char *ast_dump(const AstModule *m) {
  Dumper d = {{NULL, 0, 0}, 0};
  open(&d, "module");
  if (m->has_version) sb_puts(&d.out, " (version \"0.0.5\")");
  for (size_t i = 0; i < m->ndefs; i++) def(&d, m->defs[i]);
  if (m->body) expr(&d, m->body);
  if (m->metadata) sb_printf(&d.out, "\n  (metadata %zu bytes)", strlen(m->metadata));
  close_(&d);
  sb_putc(&d.out, '\n');
  return sb_take(&d.out);
}
