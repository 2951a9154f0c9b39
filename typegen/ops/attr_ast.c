/* Attribute values back to Relay text's AST, for the calls relaykit writes (see ops.h). */
#include "ops.h"

#include <stdlib.h>

#include "../../parser/literal.h"
#include "../../support/xalloc.h"

AstExpr *attr_to_ast(AstModule *m, const AttrVal *v) {
  char buf[LIT_SPELLING_MAX];
  switch (v->kind) {
  case ATTR_NONE: return ast_new_atom(m, AST_NAME, "None");
  case ATTR_INT: return ast_new_atom(m, AST_INT, arena_printf(&m->arena, "%lld", (long long)v->i));
  case ATTR_FLOAT: lit_spell_float(v->f, 32, buf); return ast_new_atom(m, AST_FLOAT, buf);
  case ATTR_BOOL: return ast_new_atom(m, AST_BOOL, v->i ? "True" : "False");
  case ATTR_STR: return ast_new_atom(m, AST_STRING, arena_printf(&m->arena, "\"%s\"", v->s));
  case ATTR_META: return ast_new_atom(m, AST_META, v->s);
  case ATTR_LIST: {
    AstExpr **items = xmalloc((v->n ? v->n : 1) * sizeof *items);
    for (size_t i = 0; i < v->n; i++) items[i] = attr_to_ast(m, &v->items[i]);
    AstExpr *e = ast_new_list(m, items, v->n);
    free(items);
    return e;
  }
  }
  return ast_new_atom(m, AST_NAME, "None");
}

size_t attrs_to_ast(AstModule *m, const OpDef *op, const AttrVal *vals, AstAttr **out) {
  size_t n = 0;
  for (size_t k = 0; k < op->nattrs; k++) {
    if (op_attr_is_default(op, k, &vals[k])) continue;
    out[n++] = ast_new_attr(m, op->attrs[k].name, attr_to_ast(m, &vals[k]));
  }
  /* TVM's parser needs the key to attach attributes (typegen/ops/required.c), and with none some
     of these ops' relations read a null struct: cumsum(%x) crashes TVM v0.13.0 (signal 11; also
     cumprod, unique, nn.dilate, collapse_sum_to), so the key is written even alone. */
  const char *key = op_attrs_key(op);
  if (key)
    out[n++] = ast_new_attr(m, "attrs_type_key", ast_new_atom(m, AST_STRING, arena_printf(&m->arena, "\"%s\"", key)));
  return n;
}
