#include "to_ast.h"

#include <stdio.h>
#include <stdlib.h>

#include "../parser/literal.h"
#include "../support/xalloc.h"

AstType *ty_to_ast(AstModule *m, const Type *t) {
  char buf[32];
  switch (t->kind) {
  case TY_TENSOR: {
    if (t->ndims == 0 && t->dtype.code != DT_VOID) return ast_new_type(m, AST_TY_NAME, dtype_str(t->dtype, buf), NULL, 0);
    const char **dims = xmalloc((t->ndims ? t->ndims : 1) * sizeof *dims);
    char (*text)[24] = xmalloc((t->ndims ? t->ndims : 1) * sizeof *text);
    for (uint32_t i = 0; i < t->ndims; i++) {
      if (t->dims[i] == TY_DIM_ANY) snprintf(text[i], sizeof text[i], "?");
      else snprintf(text[i], sizeof text[i], "%lld", (long long)t->dims[i]);
      dims[i] = text[i];
    }
    AstType *a = ast_new_tensor_type(m, dtype_str(t->dtype, buf), dims, t->ndims);
    free(dims);
    free(text);
    return a;
  }
  case TY_VAR: return ast_new_type(m, AST_TY_NAME, t->name, NULL, 0);
  case TY_INCOMPLETE: return ast_new_type(m, AST_TY_INCOMPLETE, "_", NULL, 0);
  default: break;
  }
  AstType **args = xmalloc((t->nargs ? t->nargs : 1) * sizeof *args);
  for (uint32_t i = 0; i < t->nargs; i++) args[i] = ty_to_ast(m, t->args[i]);
  AstType *a = NULL;
  switch (t->kind) {
  case TY_TUPLE: a = ast_new_type(m, AST_TY_TUPLE, NULL, args, t->nargs); break;
  case TY_REF: a = ast_new_type(m, AST_TY_REF, NULL, args, 1); break;
  case TY_CALL: a = ast_new_type(m, AST_TY_CALL, t->name, args, t->nargs); break;
  case TY_FUNC: {
    a = ast_new_type(m, AST_TY_FUNC, NULL, args, t->nargs);
    a->ret = ty_to_ast(m, t->ret);
    if (t->ntparams) {
      const char **tp = arena_alloc(&m->arena, t->ntparams * sizeof *tp);
      for (uint32_t i = 0; i < t->ntparams; i++) tp[i] = arena_strdup(&m->arena, t->tparams[i]->name);
      a->type_params = tp;
      a->ntype_params = t->ntparams;
    }
    break;
  }
  default: break;
  }
  free(args);
  return a;
}

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
