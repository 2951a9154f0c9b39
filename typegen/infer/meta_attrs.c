/*
 * Call attributes kept in #[metadata]: `cumsum(%x, meta[relay.attrs.ScanopAttrs][0])`.
 *
 * TVM's printer writes a call's attributes into the metadata section when their struct is not the
 * one the op registers, which is every call of an op registered without an attrs type (cumsum,
 * nn.dilate, scatter_nd, unique, vision.*, annotation.compiler_begin, ...).  Such a reference is read
 * here into ordinary written attributes, with attrs_type_key where TVM's parser needs it, before
 * anything types the program: typing, reduction, mutation and printing then see one form, and what
 * relaykit prints TVM reads back (apache/tvm's parser builds the same struct from written fields).
 *
 * Written attributes may refer to the section too: TVM v0.19.0 boxes split's indices_or_sections
 * (runtime.BoxInt) and prints `indices_or_sections=meta[runtime.BoxInt][0]`; those become literals.
 *
 * TVM's node graph (SaveJSON) stores a plain field (int, double, bool, std::string, DataType) as its
 * value spelled as a string, and an object field (Array, IntImm, FloatImm, String) as the index of
 * its node; nothing in the JSON says which, so the struct's declaration does (op_attr_boxed).
 */
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "infer.h"

enum { OBJECT_DEPTH_MAX = 64 }; /* attribute values are lists of lists at most; a cycle stops here */

typedef struct Reader {
  AstModule *m;
  Diag *diag;
  json_t *root;    /* loaded on the first reference, NULL before */
  bool failed;
  const AstNode *at; /* the reference being read: where its errors are reported */
  char ref[160];   /* its spelling, for messages */
} Reader;

static AstExpr *fail(Reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static AstExpr *fail(Reader *r, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (!r->failed) diag_error(r->diag, r->at->span.start, "%s: %s", r->ref, msg);
  r->failed = true;
  return NULL;
}

static AstExpr *atom(Reader *r, AstExprKind kind, const char *text) {
  AstExpr *e = ast_new_atom(r->m, kind, text);
  e->node.span = r->at->span;
  return e;
}

/* The shortest spelling that reads back as the same double, with the float suffix. */
static AstExpr *float_atom(Reader *r, const char *s) {
  char *end;
  double v = strtod(s, &end);
  if (end == s || *end) return fail(r, "'%s' is not a number", s);
  char buf[64];
  if (isnan(v) || isinf(v)) {
    snprintf(buf, sizeof buf, "%s%sf", v < 0 ? "-" : "", isnan(v) ? "nan" : "inf");
  } else {
    for (int digits = 6; digits <= 17; digits++) {
      snprintf(buf, sizeof buf, "%.*g", digits, v);
      if (strtod(buf, NULL) == v) break;
    }
    strcat(buf, "f");
  }
  return atom(r, AST_FLOAT, buf);
}

static AstExpr *string_atom(Reader *r, const char *s) {
  if (strpbrk(s, "\"\\\n\r"))
    return fail(r, "the string \"%.40s\" holds a character a Relay string cannot", s);
  size_t n = strlen(s);
  char *quoted = malloc(n + 3);
  if (!quoted) return fail(r, "out of memory");
  quoted[0] = '"';
  memcpy(quoted + 1, s, n);
  quoted[n + 1] = '"';
  quoted[n + 2] = '\0';
  AstExpr *e = atom(r, AST_STRING, quoted);
  free(quoted);
  return e;
}

static const char *field(json_t *node, const char *key) {
  return json_string_value(json_object_get(json_object_get(node, "attrs"), key));
}

/* A boxed scalar (runtime.BoxInt, BoxBool, BoxFloat: TVM v0.19.0 keeps split's indices_or_sections
   so), whose value is its repr_str. */
static AstExpr *boxed(Reader *r, json_t *node) {
  const char *key = json_string_value(json_object_get(node, "type_key"));
  const char *s = json_string_value(json_object_get(node, "repr_str"));
  if (!s) return fail(r, "%s node has no repr_str", key);
  if (!strcmp(key, "runtime.BoxBool")) return atom(r, AST_BOOL, strcmp(s, "0") && strcmp(s, "False") ? "True" : "False");
  if (!strcmp(key, "runtime.BoxFloat")) return float_atom(r, s);
  if (strcmp(key, "runtime.BoxInt")) return fail(r, "a value of type %s, which relaykit cannot write as an attribute", key);
  char *end;
  strtoll(s, &end, 10);
  return end != s && !*end ? atom(r, AST_INT, s) : fail(r, "%s node holds '%s'", key, s);
}

/* The value of node `index` of the graph: None, an IntImm, FloatImm or String, or an Array of them. */
static AstExpr *object(Reader *r, const char *index, AttrType type, int depth) {
  char *end;
  long i = strtol(index, &end, 10);
  json_t *nodes = json_object_get(r->root, "nodes");
  json_t *node = end != index && !*end && i >= 0 ? json_array_get(nodes, (size_t)i) : NULL;
  if (!node) return fail(r, "'%s' names no node of the section", index);
  if (depth > OBJECT_DEPTH_MAX) return fail(r, "a value nested more than %d deep", OBJECT_DEPTH_MAX);
  const char *key = json_string_value(json_object_get(node, "type_key"));
  if (!key) return fail(r, "node %ld has no type_key", i);
  if (!*key) return atom(r, AST_NAME, "None");
  if (!strcmp(key, "IntImm")) {
    const char *dtype = field(node, "dtype"), *value = field(node, "value");
    if (!dtype || !value) return fail(r, "IntImm node %ld lacks its dtype or value", i);
    if (!strcmp(dtype, "bool") || type == AT_BOOL) return atom(r, AST_BOOL, strcmp(value, "0") ? "True" : "False");
    strtoll(value, &end, 10);
    if (end == value || *end) return fail(r, "IntImm node %ld holds '%s'", i, value);
    return atom(r, AST_INT, value);
  }
  if (!strcmp(key, "FloatImm")) {
    const char *value = field(node, "value");
    return value ? float_atom(r, value) : fail(r, "FloatImm node %ld has no value", i);
  }
  if (!strncmp(key, "runtime.Box", strlen("runtime.Box"))) return boxed(r, node);
  if (!strcmp(key, "runtime.String")) {
    const char *s = json_string_value(json_object_get(node, "repr_str"));
    return s ? string_atom(r, s) : fail(r, "String node %ld has no repr_str", i);
  }
  if (!strcmp(key, "Array")) {
    json_t *data = json_object_get(node, "data");
    size_t n = json_array_size(data);
    AstExpr **items = malloc((n ? n : 1) * sizeof *items);
    if (!items) return fail(r, "out of memory");
    char item[32];
    for (size_t k = 0; k < n && !r->failed; k++) {
      snprintf(item, sizeof item, "%lld", (long long)json_integer_value(json_array_get(data, k)));
      items[k] = object(r, item, type, depth + 1);
    }
    AstExpr *e = r->failed ? NULL : ast_new_list(r->m, items, n);
    free(items);
    if (e) e->node.span = r->at->span;
    return e;
  }
  return fail(r, "a value of type %s, which relaykit cannot write as an attribute", key);
}

/* One field of the struct, as the schema declares it. */
static AstExpr *value(Reader *r, const OpDef *op, const OpAttrSpec *spec, const char *s) {
  if (op_attr_boxed(op, (size_t)(spec - op->attrs))) return object(r, s, spec->type, 0);
  switch (spec->type) {
  case AT_INT: {
    char *end;
    strtoll(s, &end, 10);
    return end != s && !*end ? atom(r, AST_INT, s) : fail(r, "field %s holds '%s', not an int", spec->name, s);
  }
  case AT_FLOAT: return float_atom(r, s);
  case AT_BOOL: return atom(r, AST_BOOL, strcmp(s, "0") ? "True" : "False");
  case AT_DTYPE: return string_atom(r, strcmp(s, "void") ? s : ""); /* TVM's void is the schema's "" */
  default: return string_atom(r, s);
  }
}

static const OpAttrSpec *spec_of(const OpDef *op, const char *name) {
  for (size_t k = 0; k < op->nattrs; k++)
    if (!strcmp(op->attrs[k].name, name)) return &op->attrs[k];
  return NULL;
}

/* The struct node a reference "meta[relay.attrs.X][i]" names. */
static json_t *struct_node(Reader *r, const char *ref) {
  const char *key = ref + strlen("meta[");
  const char *close = strchr(key, ']');
  char *end;
  long i = close && close[1] == '[' ? strtol(close + 2, &end, 10) : -1;
  if (i < 0 || *end != ']') return fail(r, "not a reference of the form meta[KEY][INDEX]"), NULL;
  json_t *nodes = json_object_get(r->root, "nodes");
  json_t *map = json_array_get(nodes, (size_t)json_integer_value(json_object_get(r->root, "root")));
  json_t *keys = json_object_get(map, "keys"), *k;
  size_t at;
  json_array_foreach(keys, at, k) {
    const char *s = json_string_value(k);
    if (!s || strlen(s) != (size_t)(close - key) || strncmp(s, key, (size_t)(close - key)) != 0) continue;
    json_t *list = json_array_get(nodes, (size_t)json_integer_value(json_array_get(json_object_get(map, "data"), at)));
    json_t *entries = json_object_get(list, "data");
    if ((size_t)i >= json_array_size(entries)) break;
    json_t *node = json_array_get(nodes, (size_t)json_integer_value(json_array_get(entries, (size_t)i)));
    if (!node) break;
    return node;
  }
  fail(r, "the #[metadata] section has no such entry");
  return NULL;
}

/* The section's node that reference `ref` (meta[KEY][i]) names, the section read on first use;
   NULL (r failed) when it cannot be read or has no such entry.  Errors point at `ref`. */
static json_t *referenced(Reader *r, const AstExpr *ref) {
  r->at = &ref->node;
  snprintf(r->ref, sizeof r->ref, "%s", ref->text);
  if (!r->root) {
    char err[256];
    r->root = meta_json_load(r->m->metadata, err, sizeof err, NULL);
    if (!r->root) return fail(r, "cannot read the #[metadata] section: %s", err), NULL;
  }
  return struct_node(r, ref->text);
}

/* Replaces call e's last argument, a reference to a struct, by the struct's fields written out:
   those that differ from the schema's default or that TVM's parser requires, then the key. */
static void inline_call(Reader *r, AstExpr *e, const OpDef *op) {
  AstExpr *arg = e->items[e->nitems - 1];
  json_t *node = referenced(r, arg);
  if (!node) return;
  const char *type_key = json_string_value(json_object_get(node, "type_key"));
  json_t *fields = json_object_get(node, "attrs");
  if (!type_key || (fields && !json_is_object(fields))) return (void)fail(r, "not an attributes node");
  size_t n = json_object_size(fields), len = 0;
  AstAttr **items = malloc((n + 1) * sizeof *items);
  if (!items) return (void)fail(r, "out of memory");
  const char *name;
  json_t *v;
  json_object_foreach(fields, name, v) {
    if (!spec_of(op, name)) {
      fail(r, "%s has field '%s', which %s does not take", type_key, name, op->name);
      break;
    }
  }
  for (size_t k = 0; k < op->nattrs && !r->failed; k++) { /* in the schema's (TVM's declaration) order */
    const OpAttrSpec *spec = &op->attrs[k];
    if (!(v = json_object_get(fields, spec->name))) continue; /* absent: the default */
    AstExpr *val = json_string_value(v) ? value(r, op, spec, json_string_value(v))
                                        : fail(r, "field %s is not a string", spec->name);
    if (!val) break;
    items[len] = ast_new_attr(r->m, spec->name, val);
    items[len++]->node.span = arg->node.span;
  }
  if (!r->failed && op_takes_attrs_key(op)) {
    items[len] = ast_new_attr(r->m, "attrs_type_key", string_atom(r, type_key));
    items[len++]->node.span = arg->node.span;
  }
  if (r->failed) return free(items);
  /* The checker's own reading decides what is a default (and whether the values fit at all). */
  AstAttrs all = {items, len};
  char err[OP_ERR_MAX];
  const AstAttr *bad;
  const AttrVal *vals = op_attrs_from_ast(op, &all, &r->m->arena, err, sizeof err, &bad);
  if (!vals) {
    fail(r, "%s", err);
    return free(items);
  }
  size_t kept = 0;
  for (size_t i = 0; i < len; i++) {
    const OpAttrSpec *spec = spec_of(op, items[i]->key);
    size_t k = spec ? (size_t)(spec - op->attrs) : op->nattrs;
    bool key = !strcmp(items[i]->key, "attrs_type_key");
    if (key || k == op->nattrs || !op_attr_is_default(op, k, &vals[k])) items[kept++] = items[i];
  }
  e->attrs.items = arena_alloc(&r->m->arena, (kept ? kept : 1) * sizeof *e->attrs.items);
  memcpy(e->attrs.items, items, kept * sizeof *items);
  e->attrs.len = kept;
  e->nitems--;
  free(items);
}

bool meta_is_attrs_ref(const AstExpr *e) {
  return e->kind == AST_META && !strncmp(e->text, "meta[relay.attrs.", strlen("meta[relay.attrs."));
}

static bool is_boxed_ref(const AstExpr *e) {
  return e->kind == AST_META && !strncmp(e->text, "meta[runtime.Box", strlen("meta[runtime.Box"));
}

/* A written attribute's value that refers to a boxed scalar in the section, also inside lists:
   `indices_or_sections=[meta[runtime.BoxInt][0], meta[runtime.BoxInt][1]]` (v0.19.0's printing of
   split) becomes the literals. */
static void inline_boxed(Reader *r, AstExpr **slot) {
  AstExpr *e = *slot;
  if (e->kind == AST_LIST) {
    for (size_t i = 0; i < e->nitems && !r->failed; i++) inline_boxed(r, &e->items[i]);
    return;
  }
  if (!is_boxed_ref(e)) return;
  json_t *node = referenced(r, e);
  AstExpr *v = node ? boxed(r, node) : NULL;
  if (v) *slot = v;
}

static void walk(Reader *r, AstExpr *e) {
  if (!e || r->failed) return;
  if (e->kind == AST_CALL && e->a && e->a->kind == AST_NAME && e->nitems && !e->attrs.len &&
      meta_is_attrs_ref(e->items[e->nitems - 1])) {
    const OpDef *op = op_lookup(e->a->text);
    if (op) inline_call(r, e, op); /* an unknown op's call stays opaque, reference and all */
  }
  if (e->kind == AST_CALL)
    for (size_t i = 0; i < e->attrs.len && !r->failed; i++) inline_boxed(r, &e->attrs.items[i]->value);
  AstExpr **slot;
  for (AstChildren it = ast_children(e); !r->failed && (slot = ast_next_child(&it));) walk(r, *slot);
}

bool meta_inline_attrs(AstModule *m, Diag *diag) {
  if (!m->metadata) return true; /* no section, nothing to read (a dangling reference is the checker's) */
  Reader r = {.m = m, .diag = diag};
  for (size_t d = 0; d < m->ndefs && !r.failed; d++)
    if (m->defs[d]->kind == AST_DEF_FN) walk(&r, m->defs[d]->fn->body);
  walk(&r, m->body);
  if (r.root) json_decref(r.root);
  return !r.failed;
}
