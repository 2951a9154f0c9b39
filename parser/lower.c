/*
 * Lowering: tree-sitter tree -> AST.  The tree is already free of ERROR and MISSING nodes
 * (parse.c checks), so this file only checks what the grammar leaves open: literal ranges and
 * widths, the version string, and nesting depth.  Children are walked with a cursor, never with
 * ts_node_child(i), which is linear per call and made 1,500-binding bodies quadratic.
 */
#include "lower.h"

#include <stdlib.h>
#include <string.h>

#include "../support/xalloc.h"
#include "literal.h"

/* Node kinds of the grammar, looked up by name once (see sym_init). */
typedef enum Sym {
  S_UNKNOWN,
  S_source_file, S_version, S_metadata, S_function_definition, S_type_definition,
  S_extern_type_definition, S_constructor_definition, S_type_params, S_param_list, S_param,
  S_body, S_sequence, S_expression_statement, S_let_binding, S_graph_binding, S_free_var,
  S_binder, S_binding_sequence, S_block, S_binary_expression, S_call, S_arguments, S_projection,
  S_name, S_function, S_if, S_ref, S_ref_read, S_ref_write, S_tuple, S_parenthesized, S_match,
  S_match_arm, S_wildcard_pattern, S_var_pattern, S_constructor_pattern, S_tuple_pattern,
  S_tensor_type, S_shape, S_any_dim, S_tuple_type, S_function_type, S_type_call, S_type_name,
  S_ref_type, S_incomplete_type, S_attribute, S_attribute_list, S_attribute_paren, S_local,
  S_graph_var, S_global, S_identifier, S_boolean, S_integer, S_float, S_string, S_meta_ref,
  S_COUNT
} Sym;

static const char *const sym_names[S_COUNT] = {
#define N(x) [S_##x] = #x
  N(source_file), N(version), N(metadata), N(function_definition), N(type_definition),
  N(extern_type_definition), N(constructor_definition), N(type_params), N(param_list), N(param),
  N(body), N(sequence), N(expression_statement), N(let_binding), N(graph_binding), N(free_var),
  N(binder), N(binding_sequence), N(block), N(binary_expression), N(call), N(arguments),
  N(projection), N(name), N(function), N(if), N(ref), N(ref_read), N(ref_write), N(tuple),
  N(parenthesized), N(match), N(match_arm), N(wildcard_pattern), N(var_pattern),
  N(constructor_pattern), N(tuple_pattern), N(tensor_type), N(shape), N(any_dim), N(tuple_type),
  N(function_type), N(type_call), N(type_name), N(ref_type), N(incomplete_type), N(attribute),
  N(attribute_list), N(attribute_paren), N(local), N(graph_var), N(global), N(identifier),
  N(boolean), N(integer), N(float), N(string), N(meta_ref),
#undef N
};

/* TSSymbol -> Sym, filled on first use (a registry set up at start, never changed after). */
static Sym *sym_table;
static uint32_t sym_table_len;

static void sym_init(void) {
  if (sym_table) return;
  const TSLanguage *lang = tree_sitter_relay();
  sym_table_len = ts_language_symbol_count(lang);
  Sym *t = xcalloc(sym_table_len, sizeof *t);
  for (TSSymbol s = 0; s < sym_table_len; s++) {
    if (ts_language_symbol_type(lang, s) != TSSymbolTypeRegular) continue;
    const char *name = ts_language_symbol_name(lang, s);
    for (int k = 1; k < S_COUNT; k++)
      if (sym_names[k] && !strcmp(sym_names[k], name)) t[s] = (Sym)k;
  }
  sym_table = t;
}

static Sym sym_of(TSNode n) {
  TSSymbol s = ts_node_symbol(n);
  return s < sym_table_len ? sym_table[s] : S_UNKNOWN;
}

/* ------------------------------------------------------------------ children */

/* The non-extra children of a node, with their field names (NULL when none). */
typedef struct Kid {
  TSNode node;
  const char *field;
  Sym sym;
  bool named;
} Kid;

typedef struct Kids {
  Kid *items;
  size_t len;
} Kids;

static Kids kids_of(TSNode n) {
  Kids k = {NULL, 0};
  uint32_t count = ts_node_child_count(n);
  if (count == 0) return k;
  k.items = xmalloc(count * sizeof(Kid));
  TSTreeCursor c = ts_tree_cursor_new(n);
  if (ts_tree_cursor_goto_first_child(&c)) {
    do {
      TSNode child = ts_tree_cursor_current_node(&c);
      if (ts_node_is_extra(child)) continue;
      Kid *kid = &k.items[k.len++];
      kid->node = child;
      kid->field = ts_tree_cursor_current_field_name(&c);
      kid->sym = sym_of(child);
      kid->named = ts_node_is_named(child);
    } while (ts_tree_cursor_goto_next_sibling(&c));
  }
  ts_tree_cursor_delete(&c);
  return k;
}

static Kid *kid_field(Kids *k, const char *field) {
  for (size_t i = 0; i < k->len; i++)
    if (k->items[i].field && !strcmp(k->items[i].field, field)) return &k->items[i];
  return NULL;
}

/* ------------------------------------------------------------------ state */
typedef struct Lower {
  Arena *arena;
  const char *src;
  size_t len;
  Diag *diag;
  AstNodeList *nodes;
  ReadBudget *budget;
  unsigned depth;
  bool failed;
  /* Where each line starts, when the text has a lone "\r": tree-sitter counts rows by "\n" only,
     where a lone "\r" ends a line too (support/diag.c).  NULL otherwise (the rows agree). */
  size_t *line_starts, nlines;
} Lower;

static bool has_lone_cr(const char *src, size_t len) {
  for (const char *p = src; (p = memchr(p, '\r', len - (size_t)(p - src))) != NULL; p++)
    if (p + 1 == src + len || p[1] != '\n') return true;
  return false;
}

static void find_line_starts(Lower *l) {
  size_t cap = 1024;
  l->line_starts = xmalloc(cap * sizeof *l->line_starts);
  l->line_starts[l->nlines++] = 0;
  for (size_t i = 0; i < l->len; i++) {
    char c = l->src[i];
    if (c != '\n' && (c != '\r' || (i + 1 < l->len && l->src[i + 1] == '\n'))) continue;
    if (l->nlines == cap) l->line_starts = xrealloc(l->line_starts, (cap *= 2) * sizeof *l->line_starts);
    l->line_starts[l->nlines++] = i + 1;
  }
}

/* 1-based line and column of a node's first byte, counted as the messages count them. */
static void line_col(Lower *l, TSNode n, uint32_t *line, uint32_t *col) {
  if (!l->line_starts) {
    TSPoint p = ts_node_start_point(n);
    *line = p.row + 1;
    *col = p.column + 1;
    return;
  }
  size_t at = ts_node_start_byte(n), lo = 0, hi = l->nlines; /* the last line starting at or before `at` */
  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;
    if (l->line_starts[mid] <= at) lo = mid;
    else hi = mid;
  }
  *line = (uint32_t)lo + 1;
  *col = (uint32_t)(at - l->line_starts[lo]) + 1;
}

static char *text_of(Lower *l, TSNode n) {
  uint32_t s = ts_node_start_byte(n), e = ts_node_end_byte(n);
  return arena_strndup(l->arena, l->src + s, e - s);
}

static void error_at(Lower *l, TSNode n, const char *msg, const char *what) {
  if (what) diag_error(l->diag, ts_node_start_byte(n), "%s: '%s'", msg, what);
  else diag_error(l->diag, ts_node_start_byte(n), "%s", msg);
  l->failed = true;
}

/* Records the span of a freshly made node and remembers it for comment attachment. */
static void *made(Lower *l, AstNode *node, TSNode n) {
  node->span.start = ts_node_start_byte(n);
  node->span.end = ts_node_end_byte(n);
  line_col(l, n, &node->span.line, &node->span.col);
  AstNodeList *list = l->nodes;
  if (list->len == list->cap) {
    list->cap = list->cap ? list->cap * 2 : 1024;
    list->items = xrealloc(list->items, list->cap * sizeof *list->items);
  }
  list->items[list->len++] = node;
  if (read_budget_over(l->budget, l->diag, node->span.start)) l->failed = true;
  return node;
}

#define NEW(l, T) ((T *)arena_alloc((l)->arena, sizeof(T)))

/* One more level of nesting (of expressions, attribute values, types and patterns together: the
   lowering, the printer and the checker all recurse through them).  False, with the error
   reported once, past AST_MAX_DEPTH (or the read budget); the caller then builds a childless
   placeholder and calls leave() as usual. */
static bool enter(Lower *l, TSNode n) {
  if (++l->depth <= AST_MAX_DEPTH && !l->budget->over) return true;
  if (!l->failed) error_at(l, n, "nested too deeply (the limit is 2000 levels)", NULL);
  return false;
}

static void leave(Lower *l) { l->depth--; }

typedef VEC(void *) PtrVec;

/* Moves a scratch vector of pointers into the arena: returns the copy, stores its length in
   *count, and frees the vector. */
static void *take(Lower *l, PtrVec *v, size_t *count) {
  void **out = NULL;
  if (v->len) {
    out = arena_alloc(l->arena, v->len * sizeof(void *));
    memcpy(out, v->items, v->len * sizeof(void *));
  }
  *count = v->len;
  free(v->items);
  *v = (PtrVec){0};
  return out;
}

static AstExpr *lower_expr(Lower *l, TSNode n);
static AstType *lower_type(Lower *l, TSNode n);
static AstPattern *lower_pattern(Lower *l, TSNode n);

/* ------------------------------------------------------------------ names and attributes */

/* A dotted name, rebuilt from its identifiers so that spaces or comments around dots vanish. */
static const char *lower_name_text(Lower *l, TSNode n) {
  if (sym_of(n) != S_name) return text_of(l, n);
  Kids k = kids_of(n);
  size_t total = 0;
  for (size_t i = 0; i < k.len; i++) total += ts_node_end_byte(k.items[i].node) - ts_node_start_byte(k.items[i].node);
  char *out = arena_alloc(l->arena, total + 1), *p = out;
  for (size_t i = 0; i < k.len; i++) {
    uint32_t s = ts_node_start_byte(k.items[i].node), e = ts_node_end_byte(k.items[i].node);
    memcpy(p, l->src + s, e - s);
    p += e - s;
  }
  *p = '\0';
  free(k.items);
  return out;
}

static AstExpr *lower_attr_value(Lower *l, TSNode n);

static AstAttr *lower_attr(Lower *l, TSNode n) {
  Kids k = kids_of(n);
  AstAttr *a = NEW(l, AstAttr);
  a->key = lower_name_text(l, kid_field(&k, "key")->node);
  a->value = lower_attr_value(l, kid_field(&k, "value")->node);
  free(k.items);
  return made(l, &a->node, n);
}

static AstAttrs attrs_from(Lower *l, PtrVec *v) {
  AstAttrs out;
  out.items = take(l, v, &out.len);
  return out;
}

static AstExpr *lower_attr_value(Lower *l, TSNode n) {
  Sym s = sym_of(n);
  if (s == S_attribute_list || s == S_attribute_paren) {
    AstExpr *e = NEW(l, AstExpr);
    e->kind = AST_LIST;
    if (enter(l, n)) {
      e->kind = s == S_attribute_list ? AST_LIST : AST_PAREN;
      Kids k = kids_of(n);
      PtrVec items = {0};
      for (size_t i = 0; i < k.len; i++)
        if (k.items[i].named) VEC_PUSH(items, lower_attr_value(l, k.items[i].node));
      free(k.items);
      if (s == S_attribute_paren) e->a = items.len ? items.items[0] : NULL;
      else e->items = take(l, &items, &e->nitems);
      free(items.items);
    }
    leave(l);
    return made(l, &e->node, n);
  }
  if (s == S_any_dim) {
    AstExpr *e = NEW(l, AstExpr);
    e->kind = AST_ANY;
    e->text = "?";
    return made(l, &e->node, n);
  }
  return lower_expr(l, n); /* literals, names, meta refs */
}

/* ------------------------------------------------------------------ types */

static const char **lower_type_params(Lower *l, TSNode n, size_t *count) {
  Kids k = kids_of(n);
  PtrVec v = {0};
  for (size_t i = 0; i < k.len; i++)
    if (k.items[i].sym == S_identifier) VEC_PUSH(v, text_of(l, k.items[i].node));
  free(k.items);
  return take(l, &v, count);
}

static void check_int(Lower *l, TSNode n, const char *text) {
  int64_t v;
  int bits;
  const char *err;
  if (!lit_int(text, &v, &bits, &err)) error_at(l, n, err, text);
}

/* Lowers the children holding types: those with field `field`, or every named one if NULL. */
static void push_types(Lower *l, Kids *k, const char *field, PtrVec *out) {
  for (size_t i = 0; i < k->len; i++) {
    Kid *kid = &k->items[i];
    if (field ? kid->field && !strcmp(kid->field, field) : kid->named) VEC_PUSH(*out, lower_type(l, kid->node));
  }
}

static AstType *lower_type(Lower *l, TSNode n) {
  AstType *t = NEW(l, AstType);
  if (!enter(l, n)) {
    leave(l);
    t->kind = AST_TY_INCOMPLETE;
    t->name = "_";
    return made(l, &t->node, n);
  }
  Kids k = kids_of(n);
  PtrVec args = {0};
  switch (sym_of(n)) {
  case S_tensor_type: {
    t->kind = AST_TY_TENSOR;
    Kid *dt = kid_field(&k, "dtype");
    t->name = dt ? text_of(l, dt->node) : "";
    Kids dims = kids_of(kid_field(&k, "shape")->node);
    t->dims = arena_alloc(l->arena, (dims.len ? dims.len : 1) * sizeof(AstDim));
    for (size_t i = 0; i < dims.len; i++) {
      Kid *d = &dims.items[i];
      if (!d->named) continue;
      AstDim *dim = &t->dims[t->ndims++];
      dim->text = text_of(l, d->node);
      dim->kind = d->sym == S_any_dim ? AST_DIM_ANY : d->sym == S_meta_ref ? AST_DIM_META : AST_DIM_INT;
      if (dim->kind == AST_DIM_INT) check_int(l, d->node, dim->text);
    }
    free(dims.items);
    break;
  }
  case S_type_name:
    t->kind = AST_TY_NAME;
    t->name = text_of(l, n);
    break;
  case S_type_call:
    t->kind = AST_TY_CALL;
    t->name = text_of(l, kid_field(&k, "name")->node);
    push_types(l, &k, "argument", &args);
    break;
  case S_tuple_type:
  case S_ref_type:
    t->kind = sym_of(n) == S_tuple_type ? AST_TY_TUPLE : AST_TY_REF;
    push_types(l, &k, NULL, &args);
    break;
  case S_function_type: {
    t->kind = AST_TY_FUNC;
    Kid *tp = kid_field(&k, "type_params");
    if (tp) t->type_params = lower_type_params(l, tp->node, &t->ntype_params);
    push_types(l, &k, "argument", &args);
    t->ret = lower_type(l, kid_field(&k, "return_type")->node);
    break;
  }
  case S_incomplete_type:
    t->kind = AST_TY_INCOMPLETE;
    t->name = "_";
    break;
  case S_meta_ref:
    t->kind = AST_TY_META;
    t->name = text_of(l, n);
    break;
  default:
    error_at(l, n, "unexpected node in a type", ts_node_type(n));
    break;
  }
  free(k.items);
  t->args = take(l, &args, &t->nargs);
  leave(l);
  return made(l, &t->node, n);
}

/* ------------------------------------------------------------------ functions */

/* The expression inside a `{ ... }` body node. */
static AstExpr *lower_body(Lower *l, TSNode body) {
  Kids k = kids_of(body);
  AstExpr *e = NULL;
  for (size_t i = 0; i < k.len; i++)
    if (k.items[i].named) e = lower_expr(l, k.items[i].node);
  free(k.items);
  return e;
}

static AstBinder *lower_binder(Lower *l, TSNode n) {
  Kids k = kids_of(n);
  AstBinder *b = NEW(l, AstBinder);
  b->name = text_of(l, kid_field(&k, "name")->node) + 1;
  Kid *ty = kid_field(&k, "type");
  if (ty) b->type = lower_type(l, ty->node);
  PtrVec attrs = {0};
  for (size_t i = 0; i < k.len; i++)
    if (k.items[i].sym == S_attribute) VEC_PUSH(attrs, lower_attr(l, k.items[i].node));
  b->attrs = attrs_from(l, &attrs);
  free(k.items);
  return made(l, &b->node, n);
}

static AstFunc *lower_func(Lower *l, Kids *k) {
  AstFunc *f = NEW(l, AstFunc);
  Kid *tp = kid_field(k, "type_params");
  if (tp) f->type_params = lower_type_params(l, tp->node, &f->ntype_params);
  Kids ps = kids_of(kid_field(k, "params")->node);
  PtrVec params = {0}, attrs = {0};
  for (size_t i = 0; i < ps.len; i++) {
    if (ps.items[i].sym == S_param) VEC_PUSH(params, lower_binder(l, ps.items[i].node));
    else if (ps.items[i].sym == S_attribute) VEC_PUSH(attrs, lower_attr(l, ps.items[i].node));
  }
  free(ps.items);
  f->params = take(l, &params, &f->nparams);
  f->attrs = attrs_from(l, &attrs);
  Kid *ret = kid_field(k, "return_type");
  if (ret) f->ret = lower_type(l, ret->node);
  f->body = lower_body(l, kid_field(k, "body")->node);
  return f;
}

/* ------------------------------------------------------------------ sequences */

static AstStmt *lower_stmt(Lower *l, TSNode n) {
  Kids k = kids_of(n);
  AstStmt *s = NEW(l, AstStmt);
  switch (sym_of(n)) {
  case S_let_binding:
    s->kind = AST_STMT_LET;
    s->binder = lower_binder(l, kid_field(&k, "binder")->node);
    s->value = lower_expr(l, kid_field(&k, "value")->node);
    break;
  case S_graph_binding:
    s->kind = AST_STMT_GRAPH;
    s->graph = text_of(l, kid_field(&k, "name")->node) + 1;
    s->value = lower_expr(l, kid_field(&k, "value")->node);
    break;
  case S_free_var:
    s->kind = AST_STMT_FREE;
    s->binder = lower_binder(l, kid_field(&k, "binder")->node);
    break;
  default: /* expression_statement */
    s->kind = AST_STMT_EXPR;
    s->value = lower_expr(l, k.items[0].node);
    break;
  }
  free(k.items);
  return made(l, &s->node, n);
}

static void lower_sequence(Lower *l, AstExpr *e, TSNode n) {
  Kids k = kids_of(n);
  PtrVec stmts = {0};
  for (size_t i = 0; i < k.len; i++) {
    Kid *kid = &k.items[i];
    if (kid->field && !strcmp(kid->field, "result")) e->a = lower_expr(l, kid->node);
    else if (kid->named) VEC_PUSH(stmts, lower_stmt(l, kid->node));
  }
  free(k.items);
  e->stmts = take(l, &stmts, &e->nstmts);
}

/* ------------------------------------------------------------------ patterns */

static AstPattern *lower_pattern(Lower *l, TSNode n) {
  AstPattern *p = NEW(l, AstPattern);
  if (!enter(l, n)) {
    leave(l);
    p->kind = AST_PAT_WILDCARD;
    return made(l, &p->node, n);
  }
  Kids k = kids_of(n);
  PtrVec items = {0};
  switch (sym_of(n)) {
  case S_wildcard_pattern:
    p->kind = AST_PAT_WILDCARD;
    break;
  case S_var_pattern: {
    p->kind = AST_PAT_VAR;
    p->name = text_of(l, kid_field(&k, "name")->node) + 1;
    Kid *ty = kid_field(&k, "type");
    if (ty) p->type = lower_type(l, ty->node);
    break;
  }
  case S_constructor_pattern:
    p->kind = AST_PAT_CTOR;
    p->name = text_of(l, kid_field(&k, "constructor")->node);
    for (size_t i = 0; i < k.len; i++) {
      if (!k.items[i].named && !strcmp(ts_node_type(k.items[i].node), "(")) p->has_args = true;
      if (k.items[i].named && !k.items[i].field) VEC_PUSH(items, lower_pattern(l, k.items[i].node));
    }
    break;
  default: /* tuple_pattern */
    p->kind = AST_PAT_TUPLE;
    for (size_t i = 0; i < k.len; i++)
      if (k.items[i].named) VEC_PUSH(items, lower_pattern(l, k.items[i].node));
    break;
  }
  free(k.items);
  p->items = take(l, &items, &p->nitems);
  leave(l);
  return made(l, &p->node, n);
}

/* ------------------------------------------------------------------ expressions */

/* A literal, a variable or a name (a leaf): false when n is none of them. */
static bool lower_atom(Lower *l, AstExpr *e, Sym s, TSNode n) {
  switch (s) {
  case S_integer:
    e->kind = AST_INT;
    e->text = text_of(l, n);
    check_int(l, n, e->text);
    return true;
  case S_float: {
    e->kind = AST_FLOAT;
    e->text = text_of(l, n);
    double v;
    int bits;
    const char *err;
    if (!lit_float(e->text, &v, &bits, &err)) error_at(l, n, err, e->text);
    return true;
  }
  case S_boolean:
    e->kind = AST_BOOL;
    e->text = text_of(l, n);
    return true;
  case S_string:
    e->kind = AST_STRING;
    e->text = text_of(l, n);
    return true;
  case S_local:
    e->kind = AST_LOCAL;
    e->text = text_of(l, n) + 1;
    return true;
  case S_graph_var:
    e->kind = AST_GRAPH;
    e->text = text_of(l, n) + 1;
    return true;
  case S_global:
    e->kind = AST_GLOBAL;
    e->text = text_of(l, n) + 1;
    return true;
  case S_name:
  case S_identifier:
    e->kind = AST_NAME;
    e->text = lower_name_text(l, n);
    return true;
  case S_meta_ref:
    e->kind = AST_META;
    e->text = text_of(l, n);
    return true;
  default: return false;
  }
}

/* The index of a projection (e->a, the tuple, is lowered): a non-negative integer. */
static void lower_index(Lower *l, AstExpr *e, TSNode idx) {
  e->index_text = text_of(l, idx);
  int64_t v = 0;
  int bits;
  const char *err;
  if (!lit_int(e->index_text, &v, &bits, &err) || v < 0 || e->index_text[0] == '-')
    error_at(l, idx, "a tuple index must be a non-negative integer", e->index_text);
  e->index = (unsigned)v;
}

/* A call's arguments: the values into items, the attributes (`key=value`) into attrs. */
static void lower_args(Lower *l, TSNode n, PtrVec *items, PtrVec *attrs) {
  Kids args = kids_of(n);
  for (size_t i = 0; i < args.len; i++) {
    if (!args.items[i].named) continue;
    if (args.items[i].sym == S_attribute) VEC_PUSH(*attrs, lower_attr(l, args.items[i].node));
    else VEC_PUSH(*items, lower_expr(l, args.items[i].node));
  }
  free(args.items);
}

/* `pattern => body` of a match. */
static AstMatchArm *lower_arm(Lower *l, TSNode n) {
  Kids arm = kids_of(n);
  AstMatchArm *ma = NEW(l, AstMatchArm);
  ma->pattern = lower_pattern(l, kid_field(&arm, "pattern")->node);
  ma->body = lower_expr(l, kid_field(&arm, "body")->node);
  free(arm.items);
  return made(l, &ma->node, n);
}

static AstExpr *lower_expr(Lower *l, TSNode n) {
  AstExpr *e = NEW(l, AstExpr);
  if (!enter(l, n)) {
    leave(l);
    e->kind = AST_TUPLE;
    return made(l, &e->node, n);
  }
  Sym s = sym_of(n);
  Kids k = {NULL, 0};
  PtrVec items = {0}, attrs = {0};
  switch (s) {
  case S_call: {
    e->kind = AST_CALL;
    k = kids_of(n);
    e->a = lower_expr(l, kid_field(&k, "callee")->node);
    lower_args(l, kid_field(&k, "arguments")->node, &items, &attrs);
    break;
  }
  case S_binary_expression:
    e->kind = AST_BINARY;
    k = kids_of(n);
    e->a = lower_expr(l, kid_field(&k, "left")->node);
    e->text = text_of(l, kid_field(&k, "operator")->node);
    e->b = lower_expr(l, kid_field(&k, "right")->node);
    break;
  case S_tuple:
  case S_ref:
  case S_ref_read:
  case S_ref_write:
  case S_parenthesized:
  case S_block:
    e->kind = s == S_tuple ? AST_TUPLE : s == S_ref ? AST_REF : s == S_ref_read ? AST_REF_READ
            : s == S_ref_write ? AST_REF_WRITE : s == S_parenthesized ? AST_PAREN : AST_BLOCK;
    k = kids_of(n);
    for (size_t i = 0; i < k.len; i++)
      if (k.items[i].named) VEC_PUSH(items, lower_expr(l, k.items[i].node));
    if (s != S_tuple) {
      e->a = items.len > 0 ? items.items[0] : NULL;
      e->b = items.len > 1 ? items.items[1] : NULL;
      items.len = 0;
    }
    break;
  case S_projection: {
    e->kind = AST_PROJ;
    k = kids_of(n);
    e->a = lower_expr(l, kid_field(&k, "tuple")->node);
    if (e->a->kind == AST_INT) {
      /* `1.5` reads as "project field 5 of 1": TVM's lexer calls it a bad number, and so do we. */
      error_at(l, n, "invalid number (Relay floats need an 'f' suffix, as in 1.5f)", text_of(l, n));
      break;
    }
    lower_index(l, e, kid_field(&k, "index")->node);
    break;
  }
  case S_function:
    e->kind = AST_FN;
    k = kids_of(n);
    e->fn = lower_func(l, &k);
    break;
  case S_if: {
    e->kind = AST_IF;
    k = kids_of(n);
    e->a = lower_expr(l, kid_field(&k, "condition")->node);
    e->then_ = lower_body(l, kid_field(&k, "then")->node);
    e->else_ = lower_body(l, kid_field(&k, "else")->node);
    break;
  }
  case S_match: {
    e->kind = AST_MATCH;
    k = kids_of(n);
    e->text = ts_node_type(kid_field(&k, "keyword")->node); /* "match" or "match?" */
    e->a = lower_expr(l, kid_field(&k, "scrutinee")->node);
    for (size_t i = 0; i < k.len; i++)
      if (k.items[i].sym == S_match_arm) VEC_PUSH(items, lower_arm(l, k.items[i].node));
    e->arms = take(l, &items, &e->narms);
    break;
  }
  case S_sequence:
  case S_binding_sequence:
    e->kind = AST_SEQ;
    lower_sequence(l, e, n);
    break;
  default:
    if (!lower_atom(l, e, s, n)) error_at(l, n, "unexpected node in an expression", ts_node_type(n));
    break;
  }
  free(k.items);
  if (items.len) e->items = take(l, &items, &e->nitems);
  free(items.items);
  if (attrs.len) e->attrs = attrs_from(l, &attrs);
  leave(l);
  return made(l, &e->node, n);
}

/* ------------------------------------------------------------------ definitions */

static AstDef *lower_def(Lower *l, TSNode n) {
  AstDef *d = NEW(l, AstDef);
  Kids k = kids_of(n);
  Sym s = sym_of(n);
  if (s == S_function_definition) {
    d->kind = AST_DEF_FN;
    d->name = text_of(l, kid_field(&k, "name")->node) + 1;
    d->fn = lower_func(l, &k);
  } else {
    d->kind = s == S_type_definition ? AST_DEF_TYPE : AST_DEF_EXTERN_TYPE;
    d->name = text_of(l, kid_field(&k, "name")->node);
    Kid *tp = kid_field(&k, "type_params");
    if (tp) d->type_params = lower_type_params(l, tp->node, &d->ntype_params);
    PtrVec ctors = {0};
    for (size_t i = 0; i < k.len; i++) {
      if (k.items[i].sym != S_constructor_definition) continue;
      Kids ck = kids_of(k.items[i].node);
      AstCtorDef *c = NEW(l, AstCtorDef);
      c->name = text_of(l, kid_field(&ck, "name")->node);
      PtrVec fields = {0};
      push_types(l, &ck, "field", &fields);
      c->fields = take(l, &fields, &c->nfields);
      free(ck.items);
      VEC_PUSH(ctors, made(l, &c->node, k.items[i].node));
    }
    d->ctors = take(l, &ctors, &d->nctors);
  }
  free(k.items);
  return made(l, &d->node, n);
}

/* `#[version = "0.0.5"]`: TVM compares the trimmed text after '=' with "0.0.5" in quotes. */
static void check_version(Lower *l, TSNode n) {
  const char *t = l->src + ts_node_start_byte(n);
  const char *end = l->src + ts_node_end_byte(n) - 1; /* the ']' */
  const char *eq = memchr(t, '=', (size_t)(end - t));
  if (eq) {
    const char *v = eq + 1;
    while (v < end && (*v == ' ' || *v == '\t')) v++;
    const char *ve = end;
    while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t')) ve--;
    if (ve - v == 7 && !memcmp(v, "\"0.0.5\"", 7)) return;
  }
  error_at(l, n, "unsupported version header (relaykit reads Relay text format \"0.0.5\")", NULL);
}

bool lower_module(AstModule *m, TSNode root, const char *src, size_t len, Diag *diag, AstNodeList *nodes,
                  ReadBudget *budget) {
  sym_init();
  Lower l = {&m->arena, src, len, diag, nodes, budget, 0, false, NULL, 0};
  if (has_lone_cr(src, len)) find_line_starts(&l);
  Kids k = kids_of(root);
  PtrVec defs = {0};
  for (size_t i = 0; i < k.len; i++) {
    Kid *kid = &k.items[i];
    switch (kid->sym) {
    case S_version:
      m->has_version = true;
      check_version(&l, kid->node);
      break;
    case S_metadata: /* to the end of the input: the parse may have stopped at its header (parse.c) */
      m->metadata = arena_strndup(l.arena, l.src + ts_node_start_byte(kid->node), l.len - ts_node_start_byte(kid->node));
      m->metadata_at = ts_node_start_byte(kid->node);
      break;
    case S_function_definition:
    case S_type_definition:
    case S_extern_type_definition:
      VEC_PUSH(defs, lower_def(&l, kid->node));
      break;
    default:
      m->body = lower_expr(&l, kid->node);
      break;
    }
  }
  free(k.items);
  free(l.line_starts);
  m->defs = take(&l, &defs, &m->ndefs);
  return !l.failed;
}
