/* Types written in a program (AstType) to interned types, and back (see types.h). */
#include "types.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../parser/literal.h"
#include "../../support/xalloc.h"

static bool in_scope(const TyScope *s, const char *name) {
  for (; s; s = s->outer)
    for (size_t i = 0; i < s->len; i++)
      if (!strcmp(s->names[i], name)) return true;
  return false;
}

/* TVM reads any identifier that starts with one of these as a dtype (spec §3.6). */
static bool looks_like_dtype(const char *name) {
  return !strncmp(name, "int", 3) || !strncmp(name, "uint", 4) || !strncmp(name, "float", 5) ||
         !strncmp(name, "bool", 4);
}

static const Type *fail(const AstType *a, const AstType **bad, char *err, size_t errlen, const char *msg,
                        const char *what) {
  snprintf(err, errlen, msg, what);
  *bad = a;
  return NULL;
}

const Type *ty_from_ast(TyTable *t, const AstType *a, const TyScope *scope, char *err, size_t errlen,
                        const AstType **bad) {
  const Type *stack_args[8];
  const Type **args = a->nargs <= 8 ? stack_args : xmalloc(a->nargs * sizeof *args);
  const Type *result = NULL;
  TyScope inner = {a->type_params, a->ntype_params, scope};
  const TyScope *arg_scope = a->kind == AST_TY_FUNC ? &inner : scope;
  for (size_t i = 0; i < a->nargs; i++) {
    args[i] = ty_from_ast(t, a->args[i], arg_scope, err, errlen, bad);
    if (!args[i]) goto out;
  }
  switch (a->kind) {
  case AST_TY_TENSOR: {
    DType d;
    if (!dtype_parse(a->name, &d)) {
      result = fail(a, bad, err, errlen, "unknown data type '%s'", a->name);
      break;
    }
    int64_t dims[64];
    if (a->ndims > 64) {
      result = fail(a, bad, err, errlen, "%s", "tensor rank above 64");
      break;
    }
    for (size_t i = 0; i < a->ndims; i++) {
      int bits;
      const char *e;
      if (a->dims[i].kind == AST_DIM_ANY) dims[i] = TY_DIM_ANY;
      else if (a->dims[i].kind == AST_DIM_META) {
        result = fail(a, bad, err, errlen, "symbolic dimension %s is not supported", a->dims[i].text);
        goto out;
      } else if (!lit_int(a->dims[i].text, &dims[i], &bits, &e) || dims[i] < 0) {
        result = fail(a, bad, err, errlen, "invalid dimension '%s'", a->dims[i].text);
        goto out;
      }
    }
    result = ty_tensor(t, d, dims, a->ndims);
    break;
  }
  case AST_TY_NAME: {
    DType d;
    if (in_scope(scope, a->name)) result = ty_var(t, a->name);
    else if (looks_like_dtype(a->name)) {
      if (dtype_parse(!strcmp(a->name, "int") ? "int32" : a->name, &d)) result = ty_scalar(t, d);
      else result = fail(a, bad, err, errlen, "unknown data type '%s'", a->name);
    } else result = ty_call(t, a->name, NULL, 0);
    break;
  }
  case AST_TY_CALL: result = ty_call(t, a->name, args, a->nargs); break;
  case AST_TY_TUPLE: result = ty_tuple(t, args, a->nargs); break;
  case AST_TY_FUNC: {
    const Type *ret = ty_from_ast(t, a->ret, &inner, err, errlen, bad);
    if (!ret) break;
    const Type *tp[16];
    if (a->ntype_params > 16) {
      result = fail(a, bad, err, errlen, "%s", "more than 16 type parameters");
      break;
    }
    for (size_t i = 0; i < a->ntype_params; i++) tp[i] = ty_var(t, a->type_params[i]);
    result = ty_func(t, args, a->nargs, ret, tp, a->ntype_params);
    break;
  }
  case AST_TY_REF: result = ty_ref(t, args[0]); break;
  case AST_TY_INCOMPLETE: result = ty_incomplete(t); break;
  case AST_TY_META: result = fail(a, bad, err, errlen, "type %s cannot be read (no metadata for it)", a->name); break;
  }
out:
  if (args != stack_args) free(args);
  return result;
}

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
