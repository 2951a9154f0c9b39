/*
 * TVM's annotations as edits of the tree: dropping a kind of comment, rewriting the ty= comments
 * that no longer state their node's type, and the comments a block leaves behind when its result
 * changes (see program.h).  Printing stays as it is: the tree says what is printed.
 */
#include <stdlib.h>
#include <string.h>

#include "program.h"

typedef void (*NodeFn)(AstNode *n, AstExpr *e, void *ctx); /* e: n's expression, or NULL */

static void walk_expr(AstExpr *e, NodeFn f, void *ctx);

static void walk_type(AstType *t, NodeFn f, void *ctx) {
  if (!t) return;
  f(&t->node, NULL, ctx);
  for (size_t i = 0; i < t->nargs; i++) walk_type(t->args[i], f, ctx);
  walk_type(t->ret, f, ctx);
}

static void walk_attrs(const AstAttrs *as, NodeFn f, void *ctx) {
  for (size_t i = 0; i < as->len; i++) {
    f(&as->items[i]->node, NULL, ctx);
    walk_expr(as->items[i]->value, f, ctx);
  }
}

static void walk_binder(AstBinder *b, NodeFn f, void *ctx) {
  if (!b) return;
  f(&b->node, NULL, ctx);
  walk_attrs(&b->attrs, f, ctx);
  walk_type(b->type, f, ctx);
}

static void walk_func(AstFunc *fn, NodeFn f, void *ctx) {
  if (!fn) return;
  for (size_t i = 0; i < fn->nparams; i++) walk_binder(fn->params[i], f, ctx);
  walk_attrs(&fn->attrs, f, ctx);
  walk_type(fn->ret, f, ctx);
  walk_expr(fn->body, f, ctx);
}

static void walk_pattern(AstPattern *p, NodeFn f, void *ctx) {
  if (!p) return;
  f(&p->node, NULL, ctx);
  walk_type(p->type, f, ctx);
  for (size_t i = 0; i < p->nitems; i++) walk_pattern(p->items[i], f, ctx);
}

static void walk_expr(AstExpr *e, NodeFn f, void *ctx) {
  if (!e) return;
  f(&e->node, e, ctx);
  walk_expr(e->a, f, ctx);
  walk_expr(e->b, f, ctx);
  for (size_t i = 0; i < e->nitems; i++) walk_expr(e->items[i], f, ctx);
  walk_attrs(&e->attrs, f, ctx);
  walk_func(e->fn, f, ctx);
  walk_expr(e->then_, f, ctx);
  walk_expr(e->else_, f, ctx);
  for (size_t i = 0; i < e->narms; i++) {
    f(&e->arms[i]->node, NULL, ctx);
    walk_pattern(e->arms[i]->pattern, f, ctx);
    walk_expr(e->arms[i]->body, f, ctx);
  }
  for (size_t i = 0; i < e->nstmts; i++) {
    AstStmt *s = e->stmts[i];
    f(&s->node, NULL, ctx);
    walk_binder(s->binder, f, ctx);
    walk_expr(s->value, f, ctx);
  }
}

/* Every node of m that can carry comments (the printer's list: definitions, constructors,
   binders, attributes, types, patterns, match arms, statements, expressions). */
static void walk_module(AstModule *m, NodeFn f, void *ctx) {
  for (size_t i = 0; i < m->ndefs; i++) {
    AstDef *d = m->defs[i];
    f(&d->node, NULL, ctx);
    walk_func(d->fn, f, ctx);
    for (size_t k = 0; k < d->nctors; k++) {
      f(&d->ctors[k]->node, NULL, ctx);
      for (size_t j = 0; j < d->ctors[k]->nfields; j++) walk_type(d->ctors[k]->fields[j], f, ctx);
    }
  }
  walk_expr(m->body, f, ctx);
}

static bool is_type_note(const char *c) { return !strncmp(c, "/* ty=", 6); }
/* A span TVM printed. rmutate's notes of where it changed a mutant (`/ * span=FILE:L:C
   rmutate-step-N * /`, mutate/driver.c) look like one but say nothing of TVM's: they are the user's
   kind of comment, which a reduction drops when the test does not need it. */
static bool is_span_note(const char *c) { return !strncmp(c, "/* span=", 8) && !strstr(c, " rmutate-step-"); }

/* The T of a `ty=T` comment: from after "ty=" to the span part or the closing delimiter. */
static const char *type_part(const char *c, size_t *len) {
  const char *t = c + 6, *end = ast_comment_span(c);
  if (!end) end = c + strlen(c) - 2;
  while (end > t && end[-1] == ' ') end--;
  *len = (size_t)(end - t);
  return t;
}

typedef struct Edit {
  Arena *arena;
  unsigned what; /* ProgNotes */
  bool apply;    /* false: count only, change nothing */
  size_t changed;
} Edit;

/* What comment c becomes once `what` is dropped from it: c itself, NULL (dropped), or the part
   that stays, byte for byte (a `ty=T span=S` comment keeps `/ * span=S * /`, or `/ * ty=T * /`). */
static const char *kept_part(Edit *ed, const AstNode *n, const char *c) {
  bool ty = is_type_note(c), span = is_span_note(c);
  if (!ty && !span) return ed->what & PROG_NOTE_USER ? NULL : c;
  if (span) return ed->what & PROG_NOTE_SPANS ? NULL : c;
  const char *s = ast_comment_span(c);
  /* an unknown operator's call is typed by its ty= comment alone (typegen/infer/infer.c) */
  bool drop_ty = (ed->what & PROG_NOTE_TYPES) && !n->opaque, drop_span = s && (ed->what & PROG_NOTE_SPANS);
  if (!drop_ty && !drop_span) return c;
  if (drop_ty && (!s || drop_span)) return NULL;
  if (!ed->apply) return ""; /* changed, whatever it becomes */
  if (drop_ty) return arena_printf(ed->arena, "/*%s", s);
  size_t len;
  const char *t = type_part(c, &len);
  return arena_printf(ed->arena, "/* ty=%.*s */", (int)len, t);
}

static void edit_list(Edit *ed, AstComment **list, const AstNode *n) {
  for (AstComment **c = list; *c;) {
    const char *kept = kept_part(ed, n, (*c)->text);
    if (kept == (*c)->text) {
      c = &(*c)->next;
      continue;
    }
    ed->changed++;
    if (!ed->apply) {
      c = &(*c)->next;
    } else if (!kept) {
      *c = (*c)->next;
    } else {
      (*c)->text = kept;
      c = &(*c)->next;
    }
  }
}

static void edit_node(AstNode *n, AstExpr *e, void *ctx) {
  (void)e;
  if (n->comments) edit_list(ctx, &n->comments, n);
}

static size_t edit_comments(AstModule *m, unsigned what, bool apply) {
  Edit ed = {&m->arena, what, apply, 0};
  static const AstNode none = {0};
  if (what & PROG_NOTE_USER) edit_list(&ed, &m->leading, &none);
  walk_module(m, edit_node, &ed);
  return ed.changed;
}

size_t prog_count_comments(const AstModule *m, unsigned what) { return edit_comments((AstModule *)m, what, false); }

size_t prog_drop_comments(AstModule *m, unsigned what) { return edit_comments(m, what, true); }

/* ------------------------------------------------------------------ stale type comments */

/* The type a node's ty= comment should state: its inferred type (a block's is its result's), when
   that is known and printable as TVM prints it.  A polymorphic function's type is left alone:
   TVM spells its type parameters (`fn [A](A) -> A`), relaykit's printer does not. */
static bool has_type_var(const Type *t) {
  if (!t) return false;
  if (t->kind == TY_VAR || t->kind == TY_INCOMPLETE || t->ntparams) return true;
  for (uint32_t i = 0; i < t->nargs; i++)
    if (has_type_var(t->args[i])) return true;
  return has_type_var(t->ret);
}

static const Type *stated_type(const AstNode *n, const AstExpr *e) {
  const Type *t = n->type;
  if (!t && e && e->kind == AST_SEQ && e->a) t = e->a->node.type;
  return t && !has_type_var(t) ? t : NULL;
}

typedef struct Stale {
  Arena *arena;
  bool fix;
  size_t n;
} Stale;

/* A stale comment is rewritten to the node's type when that is no longer than what it replaces;
   otherwise its ty= part goes (the span stays): the reducer keeps the smallest program it has
   seen, and a rewrite that grew the text would leave the stale one as the smallest. */
static void stale_node(AstNode *n, AstExpr *e, void *ctx) {
  Stale *st = ctx;
  if (!n->comments || n->opaque) return;
  const Type *t = NULL;
  char *want = NULL;
  for (AstComment **c = &n->comments; *c;) {
    const char *text = (*c)->text;
    if (!is_type_note(text)) {
      c = &(*c)->next;
      continue;
    }
    if (!t && !(t = stated_type(n, e))) break;
    if (!want) want = ty_str(t);
    size_t len;
    const char *has = type_part(text, &len);
    if (len == strlen(want) && !strncmp(has, want, len)) {
      c = &(*c)->next;
      continue;
    }
    st->n++;
    if (!st->fix) {
      c = &(*c)->next;
      continue;
    }
    const char *s = ast_comment_span(text);
    if (strlen(want) <= len) {
      (*c)->text = arena_printf(st->arena, "/* ty=%s%s", want, s ? s : " */");
    } else if (s) {
      (*c)->text = arena_printf(st->arena, "/*%s", s);
    } else {
      *c = (*c)->next;
      continue;
    }
    c = &(*c)->next;
  }
  free(want);
}

size_t prog_stale_type_comments(AstModule *m, bool fix) {
  Stale st = {&m->arena, fix, 0};
  walk_module(m, stale_node, &st);
  return st.n;
}

/* ------------------------------------------------------------------ a block's comments */

/* Read back, TVM's comment after a block's result attaches to the block (both end there: the
   outermost node takes it, parser/comments.c).  It describes that result; once a pass has put
   another expression there (a node made by the pass, or one from elsewhere in the text), the
   block's TVM annotations describe a node that is gone. */
static bool block_notes_stale(const AstExpr *e) {
  if (e->kind != AST_SEQ || !e->node.comments || !e->a) return false;
  const AstSpan *r = &e->a->node.span;
  return r->line == 0 || r->end != e->node.span.end;
}

static void stale_block(AstNode *n, AstExpr *e, void *ctx) {
  (void)n;
  Edit *ed = ctx;
  if (e && block_notes_stale(e)) edit_list(ed, &e->node.comments, &e->node);
}

size_t prog_stale_block_comments(AstModule *m, bool fix) {
  Edit ed = {&m->arena, PROG_NOTE_TYPES | PROG_NOTE_SPANS, fix, 0};
  walk_module(m, stale_block, &ed);
  return ed.changed;
}

void prog_block_notes_to_result(AstExpr *seq) {
  if (seq->kind != AST_SEQ || !seq->node.comments || block_notes_stale(seq)) return;
  AstComment **end = &seq->a->node.comments;
  while (*end) end = &(*end)->next;
  *end = seq->node.comments; /* printed where they were: right after the result */
  seq->node.comments = NULL;
}
