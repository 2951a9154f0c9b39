/*
 * The printer: AST -> text in the layout TVM's RelayTextPrinter writes (§6 of the spec).
 * Every body is `{`, newline, the items indented by two more spaces, newline, `}`; statements
 * end with `;` and a newline; attached comments follow their node after one space.
 */
#include <stdlib.h>
#include <string.h>

#include "../support/strbuf.h"
#include "ast.h"

typedef struct Printer {
  StrBuf out;
  unsigned indent;
  const AstPrintOptions *opts;
  /* A block's result and the span comment its block holds (opts->type_text only).  TVM writes
     `ty=T span=S` after a block's last expression; read back, the comment ends where the block
     ends, so it belongs to the block (comments.c: the outermost node).  The result's type
     comment takes the span back, as TVM prints it, and the block then leaves it out. */
  const AstNode *span_for;
  const char *span_text;          /* the span, from "span=" to the comment's end */
  const AstComment *span_comment; /* the block's comment it came from, once taken */
} Printer;

static void expr(Printer *p, const AstExpr *e);
static void type(Printer *p, const AstType *t);
static void braced(Printer *p, const AstExpr *body);

static void put(Printer *p, const char *s) { sb_puts(&p->out, s); }

static void starts(Printer *p, const AstNode *n) {
  if (p->opts->node_start && (n->comments || p->opts->every_node))
    p->opts->node_start(n, p->out.len, p->opts->node_ctx);
}

/* An attribute or a type is reported only when it has comments, whatever every_node says: the
   nodes a caller follows through a printing are values, binders and statements. */
static void commented_starts(Printer *p, const AstNode *n) {
  if (p->opts->node_start && n->comments) p->opts->node_start(n, p->out.len, p->opts->node_ctx);
}

/* Indentation stops growing at this column: past 32 levels nobody lines braces up by eye, and
   indenting every level would make the text grow as the nesting depth squared (2,000 nested ifs
   of 48 KB printed as 12 MB).  TVM's own programs nest 4 levels at most (the corpus). */
enum { MAX_INDENT = 64 };

static void newline(Printer *p) {
  sb_putc(&p->out, '\n');
  unsigned indent = p->indent < MAX_INDENT ? p->indent : MAX_INDENT;
  for (unsigned i = 0; i < indent; i++) sb_putc(&p->out, ' ');
}

/* TVM's own annotations, which --strip-types drops. */
static bool is_tvm_annotation(const char *c) { return !strncmp(c, "/* ty=", 6) || !strncmp(c, "/* span=", 8); }

static bool dropped(const Printer *p, const char *c) {
  if (p->opts->strip_comments) return true;
  if (p->opts->strip_types && p->opts->keep_spans) return !strncmp(c, "/* ty=", 6);
  return p->opts->strip_types && is_tvm_annotation(c);
}

/* The " span=S" part (to the comment's end) of a joined "ty=T span=S" comment: " span=" at the
   comment's own level, so what follows it is balanced however comments nest inside; NULL if
   there is none.  The reducer keeps a node's span with it through this too. */
const char *ast_comment_span(const char *c) {
  unsigned depth = 0;
  for (const char *q = c; *q; q++) {
    if (q[0] == '/' && q[1] == '*') {
      depth++;
      q++;
    } else if (q[0] == '*' && q[1] == '/') {
      depth--;
      q++;
    } else if (depth == 1 && !strncmp(q, " span=", 6)) {
      return q;
    }
  }
  return NULL;
}

/* The "span=S * /" part of a joined comment, or NULL. */
static const char *joined_span(const char *c) {
  const char *s = ast_comment_span(c);
  return s ? s + 1 : NULL;
}

static void comments(Printer *p, const AstNode *n) {
  const AstComment *c = n->comments;
  if (n->opaque && (p->opts->strip_comments || p->opts->strip_types) && !p->opts->type_text) {
    for (; c; c = c->next)
      if (!strncmp(c->text, "/* ty=", 6)) { /* the one thing that types an unknown operator's call */
        sb_putc(&p->out, ' ');
        put(p, c->text);
        break;
      }
    c = n->comments;
  }
  if (p->opts->strip_comments) return;
  if (p->opts->type_text && n->type) {
    /* The inferred type replaces a written one, and joins a span comment as TVM prints both.
       The span may be a comment of its own or already joined to the written type (`ty=T
       span=S`, as this very printer writes it): either way it is kept, so printing twice is
       printing once. */
    const char *span = NULL;
    for (; c && !strncmp(c->text, "/* ty=", 6); c = c->next)
      if (joined_span(c->text)) span = joined_span(c->text);
    if (c && !strncmp(c->text, "/* span=", 8)) {
      span = c->text + 3;
      c = c->next;
    }
    if (!span && p->span_for == n && p->span_text) {
      span = p->span_text;
      p->span_text = NULL; /* taken: the block leaves its comment out */
    }
    char *ty = p->opts->type_text(n->type, n->opaque ? 0 : p->opts->max_type_text);
    if (!ty) {
      if (span) { /* the span stays, alone */
        put(p, " /* ");
        put(p, span);
      }
    } else {
      sb_puts(&p->out, " /* ty=");
      put(p, ty);
      if (span) {
        sb_putc(&p->out, ' ');
        put(p, span);
      } else {
        put(p, " */");
      }
    }
    free(ty);
  }
  for (; c; c = c->next) {
    if (c == p->span_comment) { /* its span went to the block's result */
      p->span_comment = NULL;
      continue;
    }
    if (p->opts->strip_types && p->opts->keep_spans && !strncmp(c->text, "/* ty=", 6) &&
        joined_span(c->text) && !(n->opaque && !p->opts->type_text)) { /* an opaque call's went whole */
      /* keep_spans keeps the span of a joined `ty=T span=S` comment: rmutate's marks
         (`span=SEED:L:C rmutate-step-N`) live in such comments once a step's mutant was printed
         with its types, and must survive the next step's printing */
      put(p, " /* ");
      put(p, joined_span(c->text));
      continue;
    }
    if ((p->opts->strip_types || p->opts->type_text) && !strncmp(c->text, "/* ty=", 6)) continue;
    if (dropped(p, c->text)) continue;
    sb_putc(&p->out, ' ');
    put(p, c->text);
  }
}

/* ------------------------------------------------------------------ types */

static void type_list(Printer *p, AstType *const *ts, size_t n, bool tuple) {
  for (size_t i = 0; i < n; i++) {
    if (i) put(p, ", ");
    type(p, ts[i]);
  }
  if (tuple && n == 1) put(p, ",");
}

static void names(Printer *p, const char *const *ns, size_t n) {
  if (n == 0) return;
  put(p, "[");
  for (size_t i = 0; i < n; i++) {
    if (i) put(p, ", ");
    put(p, ns[i]);
  }
  put(p, "]");
}

static void type(Printer *p, const AstType *t) {
  commented_starts(p, &t->node);
  switch (t->kind) {
  case AST_TY_TENSOR:
    put(p, "Tensor[(");
    for (size_t i = 0; i < t->ndims; i++) {
      if (i) put(p, ", ");
      put(p, t->dims[i].text);
    }
    put(p, "), ");
    put(p, t->name);
    put(p, "]");
    break;
  case AST_TY_NAME:
  case AST_TY_INCOMPLETE:
  case AST_TY_META:
    put(p, t->name);
    break;
  case AST_TY_CALL:
    put(p, t->name);
    put(p, "[");
    type_list(p, t->args, t->nargs, false);
    put(p, "]");
    break;
  case AST_TY_TUPLE:
    put(p, "(");
    type_list(p, t->args, t->nargs, true);
    put(p, ")");
    break;
  case AST_TY_FUNC:
    put(p, "fn ");
    names(p, t->type_params, t->ntype_params);
    put(p, "(");
    type_list(p, t->args, t->nargs, false);
    put(p, ") -> ");
    type(p, t->ret);
    break;
  case AST_TY_REF:
    put(p, "ref(");
    type(p, t->args[0]);
    put(p, ")");
    break;
  }
  comments(p, &t->node);
}

/* ------------------------------------------------------------------ attributes, binders */

static void attr(Printer *p, const AstAttr *a) {
  commented_starts(p, &a->node);
  put(p, a->key);
  put(p, "=");
  expr(p, a->value);
  comments(p, &a->node);
}

static void attr_list(Printer *p, const AstAttrs *as, bool leading_comma) {
  for (size_t i = 0; i < as->len; i++) {
    if (i || leading_comma) put(p, ", ");
    attr(p, as->items[i]);
  }
}

static void binder(Printer *p, const AstBinder *b) {
  starts(p, &b->node);
  put(p, "%");
  put(p, b->name);
  if (b->attrs.len) {
    put(p, " {");
    attr_list(p, &b->attrs, false);
    put(p, "}");
  }
  if (b->type) {
    put(p, ": ");
    type(p, b->type);
  }
  comments(p, &b->node);
}

/* An indented `{ ... }` body. */
static void braced(Printer *p, const AstExpr *body) {
  put(p, "{");
  p->indent += 2;
  newline(p);
  expr(p, body);
  p->indent -= 2;
  newline(p);
  put(p, "}");
}

/* [A](params, attrs) -> ret { body } */
static void func(Printer *p, const AstFunc *f) {
  names(p, f->type_params, f->ntype_params);
  put(p, "(");
  for (size_t i = 0; i < f->nparams; i++) {
    if (i) put(p, ", ");
    binder(p, f->params[i]);
  }
  attr_list(p, &f->attrs, f->nparams > 0);
  put(p, ") ");
  if (f->ret) {
    put(p, "-> ");
    type(p, f->ret);
    put(p, " ");
  }
  braced(p, f->body);
}

/* ------------------------------------------------------------------ patterns */

static void pattern(Printer *p, const AstPattern *pt) {
  switch (pt->kind) {
  case AST_PAT_WILDCARD:
    put(p, "_");
    break;
  case AST_PAT_VAR:
    put(p, "%");
    put(p, pt->name);
    if (pt->type) {
      put(p, ": ");
      type(p, pt->type);
    }
    break;
  case AST_PAT_CTOR:
  case AST_PAT_TUPLE:
    if (pt->kind == AST_PAT_CTOR) put(p, pt->name);
    if (pt->kind == AST_PAT_TUPLE || pt->has_args) {
      put(p, "(");
      for (size_t i = 0; i < pt->nitems; i++) {
        if (i) put(p, ", ");
        pattern(p, pt->items[i]);
      }
      put(p, ")");
    }
    break;
  }
  comments(p, &pt->node);
}

/* ------------------------------------------------------------------ expressions */

static void stmt(Printer *p, const AstStmt *s) {
  starts(p, &s->node);
  switch (s->kind) {
  case AST_STMT_LET:
    put(p, "let ");
    binder(p, s->binder);
    put(p, " = ");
    expr(p, s->value);
    break;
  case AST_STMT_GRAPH:
    put(p, "%");
    put(p, s->graph);
    put(p, " = ");
    expr(p, s->value);
    break;
  case AST_STMT_FREE:
    put(p, "free_var ");
    binder(p, s->binder);
    break;
  case AST_STMT_EXPR:
    expr(p, s->value);
    break;
  }
  put(p, ";");
  comments(p, &s->node);
}

/* The span a block's own comments give its result (Printer.span_for): the first comment, a
   `span=S` one or the span of a joined `ty=T span=S` one; NULL for none. */
static const char *block_span(const AstComment *c) {
  if (!c) return NULL;
  if (!strncmp(c->text, "/* span=", 8)) return c->text + 3;
  return !strncmp(c->text, "/* ty=", 6) ? joined_span(c->text) : NULL;
}

/* A block's result, which takes the block's span comment when it prints a type of its own.  The
   block's comments follow its result, so node_start reports the block where its result starts. */
static void seq_result(Printer *p, const AstExpr *seq) {
  const AstNode *for_ = p->span_for;
  const char *text = p->span_text;
  const char *span = p->opts->type_text && !seq->node.type ? block_span(seq->node.comments) : NULL;
  p->span_for = span ? &seq->a->node : NULL;
  p->span_text = span;
  p->span_comment = NULL;
  starts(p, &seq->node);
  expr(p, seq->a);
  bool took = span && !p->span_text;
  p->span_for = for_;
  p->span_text = text;
  /* the block's comments follow at once (expr's end): the taken one is left out there */
  if (took) p->span_comment = seq->node.comments;
}

/* Operands of `.N` must be atoms; a program-built tree may need parentheses here. */
static bool is_atomic(const AstExpr *e) {
  switch (e->kind) {
  case AST_CALL:
  case AST_BINARY:
  case AST_SEQ:
  case AST_MATCH:
  case AST_BLOCK:
    return false;
  default:
    return true;
  }
}

static void expr_list(Printer *p, AstExpr *const *es, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (i) put(p, ", ");
    expr(p, es[i]);
  }
}

/* A projection, `t.N`, its tuple in parentheses unless it is atomic. */
static void proj(Printer *p, const AstExpr *e) {
  /* Two atoms need parentheses too: an integer before `.N` reads as a malformed float (`1.0`),
     a name as a longer dotted name (`b.0`).  Floats end in their `f` suffix, booleans in a
     letter, and `%x.0.1` reads as two projections, so those stay bare: wrapping them would
     print a different tree than the one parsed (an explicit paren node).  Only code a reducer
     built without types puts such operands there, but it must still print as the tree it is. */
  AstExprKind k = e->a->kind;
  bool wrap = !is_atomic(e->a) || k == AST_INT || k == AST_NAME;
  if (wrap) put(p, "(");
  expr(p, e->a);
  if (wrap) put(p, ")");
  put(p, ".");
  if (e->index_text) put(p, e->index_text);
  else sb_printf(&p->out, "%u", e->index);
}

static void paren(Printer *p, const AstExpr *e) {
  put(p, "(");
  if (e->a->kind == AST_SEQ) {
    /* TVM's layout for a let chain used as a value: `(`, the chain indented, `)`. */
    p->indent += 2;
    newline(p);
    expr(p, e->a);
    p->indent -= 2;
    newline(p);
  } else {
    expr(p, e->a);
  }
  put(p, ")");
}

/* A match: `match` or `match?`, the scrutinee, then its arms, one a line. */
static void match(Printer *p, const AstExpr *e) {
  put(p, e->text);
  put(p, " ");
  expr(p, e->a);
  put(p, " {");
  p->indent += 2;
  for (size_t i = 0; i < e->narms; i++) {
    newline(p);
    pattern(p, e->arms[i]->pattern);
    put(p, " => ");
    expr(p, e->arms[i]->body);
    comments(p, &e->arms[i]->node);
    put(p, ",");
  }
  p->indent -= 2;
  newline(p);
  put(p, "}");
}

static void expr(Printer *p, const AstExpr *e) {
  if (e->kind != AST_SEQ) starts(p, &e->node); /* a block's comments are its result's (seq_result) */
  switch (e->kind) {
  case AST_INT:
  case AST_FLOAT:
  case AST_BOOL:
  case AST_STRING:
  case AST_NAME:
  case AST_META:
    put(p, e->text);
    break;
  case AST_ANY:
    put(p, "?");
    break;
  case AST_LOCAL:
  case AST_GRAPH:
    put(p, "%");
    put(p, e->text);
    break;
  case AST_GLOBAL:
    put(p, "@");
    put(p, e->text);
    break;
  case AST_CALL:
    expr(p, e->a);
    put(p, "(");
    expr_list(p, e->items, e->nitems);
    attr_list(p, &e->attrs, e->nitems > 0);
    put(p, ")");
    break;
  case AST_BINARY:
    expr(p, e->a);
    put(p, " ");
    put(p, e->text);
    put(p, " ");
    expr(p, e->b);
    break;
  case AST_TUPLE:
    put(p, "(");
    expr_list(p, e->items, e->nitems);
    if (e->nitems == 1) put(p, ",");
    put(p, ")");
    break;
  case AST_LIST:
    put(p, "[");
    expr_list(p, e->items, e->nitems);
    put(p, "]");
    break;
  case AST_PROJ:
    proj(p, e);
    break;
  case AST_PAREN:
    paren(p, e);
    break;
  case AST_FN:
    put(p, "fn ");
    func(p, e->fn);
    break;
  case AST_IF:
    put(p, "if (");
    expr(p, e->a);
    put(p, ") ");
    braced(p, e->then_);
    put(p, " else ");
    braced(p, e->else_);
    break;
  case AST_MATCH:
    match(p, e);
    break;
  case AST_REF:
  case AST_REF_READ:
    put(p, e->kind == AST_REF ? "ref(" : "ref_read(");
    expr(p, e->a);
    put(p, ")");
    break;
  case AST_REF_WRITE:
    put(p, "ref_write(");
    expr(p, e->a);
    put(p, ", ");
    expr(p, e->b);
    put(p, ")");
    break;
  case AST_SEQ:
    for (size_t i = 0; i < e->nstmts; i++) {
      stmt(p, e->stmts[i]);
      newline(p);
    }
    seq_result(p, e);
    break;
  case AST_BLOCK:
    braced(p, e->a);
    break;
  }
  comments(p, &e->node);
}

/* ------------------------------------------------------------------ definitions */

static void def(Printer *p, const AstDef *d) {
  switch (d->kind) {
  case AST_DEF_FN:
    put(p, "def @");
    put(p, d->name);
    func(p, d->fn);
    break;
  case AST_DEF_TYPE:
    put(p, "type ");
    put(p, d->name);
    names(p, d->type_params, d->ntype_params);
    put(p, " {");
    p->indent += 2;
    if (d->nctors == 0) newline(p); /* TVM prints an empty, indented line */
    for (size_t i = 0; i < d->nctors; i++) {
      const AstCtorDef *c = d->ctors[i];
      newline(p);
      put(p, c->name);
      if (c->nfields) {
        put(p, "(");
        type_list(p, c->fields, c->nfields, false);
        put(p, ")");
      }
      comments(p, &c->node);
      put(p, ",");
    }
    p->indent -= 2;
    newline(p);
    put(p, "}");
    break;
  case AST_DEF_EXTERN_TYPE:
    put(p, "extern type ");
    put(p, d->name);
    names(p, d->type_params, d->ntype_params);
    break;
  }
  comments(p, &d->node);
}

char *ast_print(const AstModule *m, const AstPrintOptions *opts) {
  AstPrintOptions defaults = {0};
  Printer p = {.out = {NULL, 0, 0}, .opts = opts ? opts : &defaults};
  for (const AstComment *c = m->leading; c; c = c->next) {
    if (dropped(&p, c->text)) continue;
    put(&p, c->text);
    put(&p, "\n");
  }
  if (m->has_version) put(&p, "#[version = \"0.0.5\"]\n");
  for (size_t i = 0; i < m->ndefs; i++) {
    if (i) put(&p, "\n");
    def(&p, m->defs[i]);
    put(&p, "\n");
  }
  if (m->body) {
    expr(&p, m->body);
    put(&p, "\n");
  }
  if (m->metadata) {
    put(&p, "\n");
    put(&p, m->metadata);
  } else if (m->trailing_newlines > 1 && (m->ndefs || m->body)) {
    put(&p, "\n");
  }
  return sb_take(&p.out);
}
