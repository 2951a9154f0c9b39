/* What a program reaches, for the campaign's feedback: the operators it calls ("op:NAME") and the
   edges between them ("edge:A>B": a value made by A read by B).  A cheap stand-in for coverage: a
   program joins the pool when it reaches an operator or an edge no earlier one did.

   The features are those of the program as TVM's layout prints it, one binding a line (print.c),
   read a line at a time, which is how rfuzz has always counted them (a changed definition would
   make every campaign's pool another one):
     - a line's operators are the calls on it, after its `=` when it has one; the first is the
       line's top, and every later call on the line is an edge into the top (`exp(nn.relu(%1))`:
       nn.relu>exp);
     - a line `%N = ...` or `let %x = ...` whose value has a top binds N (or x) to that top; a later
       line that reads %N after its own top has an edge from it.  Only bindings printed bare bind:
       a `let` whose variable carries a type annotation or a comment does not;
     - the bindings are the definition's, in printed order: a closure's inner `%0` stands for the
       outer `%0` from where it is printed on, and a new `def` starts afresh;
     - a tuple or projection is no call: `%5 = (%3, %4)` binds nothing, so an edge does not pass
       through it.
   The walk below follows print.c's order and its line breaks (bodies in braces, a let chain in
   parentheses, match arms) without printing: only what a line holds matters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign.h"

/* a variable's name counts by its first 63 characters; a call of a longer name not at all */
enum { NAME_CHARS = 63 };

/* What a line holds, in printed order. */
typedef enum Token { TOK_CALL, TOK_READ, TOK_BINDS } Token;
typedef struct LineItem {
  Token token;
  const char *name; /* CALL: the operator; READ: the variable read; BINDS: what the `=` binds, or NULL */
  size_t len;
} LineItem;

typedef struct Binding { /* a variable bound to the top of its value */
  const char *name, *op;
  size_t len;
} Binding;

typedef struct Walk {
  bool typed; /* printed with its inferred types as comments (an rmutate mutant) */
  VEC(LineItem) line;
  VEC(Binding) bound; /* the current definition's */
  void (*add)(void *ctx, const char *key);
  void *ctx;
} Walk;

static void expr(Walk *w, const AstExpr *e);
static void type(Walk *w, const AstType *t);

static void item(Walk *w, Token token, const char *name) {
  size_t len = name ? strlen(name) : 0;
  VEC_PUSH(w->line, ((LineItem){token, name, len > NAME_CHARS ? NAME_CHARS : len}));
}

static void call(Walk *w, const char *op) {
  if (strlen(op) <= NAME_CHARS) item(w, TOK_CALL, op);
}

/* `%name`: read up to its first character that is not a letter, digit or '_'. */
static void read_var(Walk *w, const char *name) {
  size_t n = strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
  VEC_PUSH(w->line, ((LineItem){TOK_READ, name, n > NAME_CHARS ? NAME_CHARS : n}));
}

/* Whether the printer writes a comment after the node: a callee then is no longer followed by its
   `(`, a let's variable no longer by its ` = `. */
static bool commented(const Walk *w, const AstNode *n) {
  if (!w->typed) return n->comments != NULL;
  if (n->type) return true;
  for (const AstComment *c = n->comments; c; c = c->next)
    if (strncmp(c->text, "/* ty=", 6)) return true; /* ty= comments give way to the inferred type */
  return false;
}

static const char *producer(const Walk *w, const char *name, size_t len) {
  for (size_t i = w->bound.len; i > 0; i--) {
    const Binding *b = &w->bound.items[i - 1];
    if (b->len == len && !memcmp(b->name, name, len)) return b->op;
  }
  return NULL;
}

static void edge(Walk *w, const char *from, size_t from_len, const char *to, size_t to_len) {
  char key[160];
  snprintf(key, sizeof key, "edge:%.*s>%.*s", (int)from_len, from, (int)to_len, to);
  w->add(w->ctx, key);
}

/* The end of a printed line: its features, and what it binds. */
static void newline(Walk *w) {
  size_t from = 0;
  const LineItem *binds = NULL;
  for (size_t i = 0; i < w->line.len && !binds; i++)
    if (w->line.items[i].token == TOK_BINDS) binds = &w->line.items[i], from = i + 1; /* the first `=` */
  const LineItem *top = NULL;
  for (size_t i = from; i < w->line.len; i++) {
    const LineItem *it = &w->line.items[i];
    if (it->token == TOK_READ) {
      const char *op = producer(w, it->name, it->len);
      if (op && top) edge(w, op, strlen(op), top->name, top->len);
    } else if (it->token == TOK_CALL) {
      char key[80];
      snprintf(key, sizeof key, "op:%s", it->name);
      w->add(w->ctx, key);
      if (top) edge(w, it->name, it->len, top->name, top->len);
      else top = it;
    }
  }
  if (binds && binds->name && top) VEC_PUSH(w->bound, ((Binding){binds->name, top->name, binds->len}));
  w->line.len = 0;
}

/* ------------------------------------------------------------------ the printer's order */

static void types(Walk *w, AstType *const *ts, size_t n) {
  for (size_t i = 0; i < n; i++) type(w, ts[i]);
}

static void type(Walk *w, const AstType *t) {
  if (t->kind == AST_TY_REF) call(w, "ref"); /* printed `ref(T)` */
  types(w, t->args, t->nargs);
  if (t->kind == AST_TY_FUNC) type(w, t->ret);
}

static void attrs(Walk *w, const AstAttrs *as) {
  for (size_t i = 0; i < as->len; i++) expr(w, as->items[i]->value);
}

static void binder(Walk *w, const AstBinder *b) {
  read_var(w, b->name);
  attrs(w, &b->attrs);
  if (b->type) type(w, b->type);
}

static void braced(Walk *w, const AstExpr *body) {
  newline(w);
  expr(w, body);
  newline(w);
}

static void func(Walk *w, const AstFunc *f) {
  for (size_t i = 0; i < f->nparams; i++) binder(w, f->params[i]);
  attrs(w, &f->attrs);
  if (f->ret) type(w, f->ret);
  braced(w, f->body);
}

static void pattern(Walk *w, const AstPattern *p) {
  if (p->kind == AST_PAT_VAR) read_var(w, p->name);
  if (p->kind == AST_PAT_VAR && p->type) type(w, p->type);
  if (p->kind == AST_PAT_CTOR && p->has_args) call(w, p->name);
  for (size_t i = 0; i < p->nitems; i++) pattern(w, p->items[i]);
}

static void stmt(Walk *w, const AstStmt *s) {
  switch (s->kind) {
  case AST_STMT_LET: {
    binder(w, s->binder);
    const AstBinder *b = s->binder; /* `let %x = `: only a bare variable is read as bound */
    item(w, TOK_BINDS, !b->type && !b->attrs.len && !commented(w, &b->node) ? b->name : NULL);
    expr(w, s->value);
    break;
  }
  case AST_STMT_GRAPH:
    read_var(w, s->graph);
    item(w, TOK_BINDS, s->graph);
    expr(w, s->value);
    break;
  case AST_STMT_FREE: binder(w, s->binder); break;
  case AST_STMT_EXPR: expr(w, s->value); break;
  }
}

static void expr(Walk *w, const AstExpr *e) {
  switch (e->kind) {
  case AST_LOCAL:
  case AST_GRAPH: read_var(w, e->text); break;
  case AST_CALL:
    if (e->a->kind == AST_NAME && !commented(w, &e->a->node)) call(w, e->a->text);
    else expr(w, e->a);
    for (size_t i = 0; i < e->nitems; i++) expr(w, e->items[i]);
    attrs(w, &e->attrs);
    break;
  case AST_BINARY:
  case AST_PROJ:
  case AST_BLOCK:
  case AST_PAREN:
    if (e->kind == AST_BLOCK || (e->kind == AST_PAREN && e->a->kind == AST_SEQ)) braced(w, e->a);
    else expr(w, e->a);
    if (e->kind == AST_BINARY) expr(w, e->b);
    break;
  case AST_TUPLE:
  case AST_LIST:
    for (size_t i = 0; i < e->nitems; i++) expr(w, e->items[i]);
    break;
  case AST_FN: func(w, e->fn); break;
  case AST_IF:
    expr(w, e->a);
    braced(w, e->then_);
    braced(w, e->else_);
    break;
  case AST_MATCH:
    expr(w, e->a);
    for (size_t i = 0; i < e->narms; i++) {
      newline(w);
      pattern(w, e->arms[i]->pattern);
      expr(w, e->arms[i]->body);
    }
    newline(w);
    break;
  case AST_REF:
  case AST_REF_READ:
  case AST_REF_WRITE:
    call(w, e->kind == AST_REF ? "ref" : e->kind == AST_REF_READ ? "ref_read" : "ref_write");
    expr(w, e->a);
    if (e->kind == AST_REF_WRITE) expr(w, e->b);
    break;
  case AST_SEQ:
    for (size_t i = 0; i < e->nstmts; i++) {
      stmt(w, e->stmts[i]);
      newline(w);
    }
    expr(w, e->a);
    break;
  default: break; /* literals, globals, names, meta references: nothing a line counts */
  }
}

static void def(Walk *w, const AstDef *d) {
  if (d->kind == AST_DEF_FN) {
    w->bound.len = 0; /* a definition's graph numbers are its own */
    func(w, d->fn);
  } else if (d->kind == AST_DEF_TYPE) {
    for (size_t i = 0; i < d->nctors; i++) {
      newline(w);
      if (d->ctors[i]->nfields) call(w, d->ctors[i]->name); /* `Cons(A, List[A]),` */
      types(w, d->ctors[i]->fields, d->ctors[i]->nfields);
    }
    newline(w);
  }
}

void fuzz_features(const AstModule *m, bool typed, void (*add)(void *ctx, const char *key), void *ctx) {
  Walk w = {typed, {0}, {0}, add, ctx};
  for (size_t i = 0; i < m->ndefs; i++) {
    def(&w, m->defs[i]);
    newline(&w);
  }
  if (m->body) expr(&w, m->body);
  newline(&w);
  free(w.line.items);
  free(w.bound.items);
}
