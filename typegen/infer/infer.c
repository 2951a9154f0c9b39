/*
 * Type inference.  One pass over each definition in order, with unknowns (incomplete types)
 * for what is not yet known — unannotated parameters, recursive let-bound functions, the type
 * arguments of a polymorphic call — solved by unification.  Operator calls run the registry's
 * relation once their argument types are known.  The first error stops inference; it is
 * reported at the expression it concerns.
 */
#include "infer.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../parser/literal.h"
#include "../../support/xalloc.h"
#include "../../support/scoped_names.h"

/* ------------------------------------------------------------------ state */

typedef struct CtorInfo {
  const AstDef *adt;      /* the type definition */
  const AstCtorDef *ctor;
  const Type *adt_type;   /* the ADT applied to its own type parameters: List[A] */
  const Type **fields;    /* field types, in terms of the ADT's type parameters */
} CtorInfo;

/* A use of a global whose result type is not written: the use's result (an unknown of the
   definition being checked) and the type inference found for the global's body. */
typedef struct UseResult {
  const Type *use, *inferred;
} UseResult;

typedef struct Infer {
  TyTable *types;
  TySubst subst;
  Diag *diag;
  AstModule *m;
  Arena *arena;
  ScopedNames locals;           /* %x: innermost wins */
  ScopedNames graph;            /* %N: one table for the whole text; the first binding wins */
  ScopedNames globals;          /* @f: its (possibly polymorphic) declared function type */
  ScopedNames global_uses;      /* @f as the definition being checked sees it (global_type) */
  VEC(UseResult) use_results;   /* this definition's uses of globals without a result type */
  VEC(CtorInfo) ctors;
  VEC(const char *) adts;       /* defined type names */
  VEC(AstNode *) typed;         /* nodes to resolve at the end */
  VEC(const struct Type **) slots; /* other places holding types to resolve at the end */
  VEC(AstExpr *) opaque;        /* calls of unknown operators: checked to be typed at the end */
  const TyScope *scope;         /* type parameters in scope */
  MetaTable meta;
  bool failed;
} Infer;

static bool error_at(Infer *in, const AstNode *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool error_at(Infer *in, const AstNode *n, const char *fmt, ...) {
  if (in->failed) return false;
  char msg[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  diag_error(in->diag, n->span.start, "%s", msg);
  in->failed = true;
  return false;
}

/* A type as the user should read it: solved unknowns filled in. */
static char *show(Infer *in, const Type *t) { return ty_str(ty_subst_resolve(&in->subst, t)); }

static const Type *typed(Infer *in, AstNode *n, const Type *t) {
  if (!t) return NULL;
  n->type = t;
  VEC_PUSH(in->typed, n);
  return t;
}

/* Unifies, or reports "expected X, found Y" at n. */
static void record(Infer *in, const Type **slot, const Type *t) {
  *slot = t;
  VEC_PUSH(in->slots, slot);
}

static bool expect(Infer *in, const AstNode *n, const Type *want, const Type *got, const char *what) {
  if (ty_unify(&in->subst, want, got)) return true;
  char *w = show(in, want), *g = show(in, got);
  error_at(in, n, "type mismatch in %s: expected %s, found %s", what, w, g);
  free(w);
  free(g);
  return false;
}

/* TVM's unifier turns a static dimension met by `?` into `?`, and the expression whose type
   was unified takes that type (e.g. a body returned at an annotated `Tensor[(?, ?), float32]`). */
static void widen_to(Infer *in, AstExpr *e, const Type *want) {
  while (e->kind == AST_PAREN || e->kind == AST_BLOCK || e->kind == AST_SEQ) e = e->a;
  want = ty_subst_resolve(&in->subst, want);
  const Type *got = e->node.type ? ty_subst_resolve(&in->subst, e->node.type) : NULL;
  if (!got || got->kind != TY_TENSOR || want->kind != TY_TENSOR || got->ndims != want->ndims || got == want) return;
  int64_t dims[64];
  bool changed = false;
  for (uint32_t i = 0; i < got->ndims && i < 64; i++) {
    dims[i] = want->dims[i] == TY_DIM_ANY ? TY_DIM_ANY : got->dims[i];
    changed |= dims[i] != got->dims[i];
  }
  if (changed && got->ndims <= 64) e->node.type = ty_tensor(in->types, got->dtype, dims, got->ndims);
}

static const Type *find(const ScopedNames *names, const char *name) {
  bool bound;
  return names_find(names, name, &bound);
}

static void bind_local(Infer *in, const char *name, const Type *t) {
  names_bind(&in->locals, name, t);
}

static const Type *annotation(Infer *in, const AstType *a) {
  char err[256];
  const AstType *bad;
  const Type *t = ty_from_ast(in->types, a, in->scope, err, sizeof err, &bad);
  if (!t) error_at(in, &bad->node, "%s", err);
  return t;
}

/* Replaces the type parameters of a polymorphic function type by fresh unknowns. */
static const Type *instantiate(Infer *in, const Type *t) {
  if (t->kind != TY_FUNC || t->ntparams == 0) return t;
  const Type *fresh[16];
  size_t n = t->ntparams < 16 ? t->ntparams : 16;
  for (size_t i = 0; i < n; i++) fresh[i] = ty_incomplete(in->types);
  const Type *mono = ty_func(in->types, t->args, t->nargs, t->ret, NULL, 0);
  return ty_substitute_vars(in->types, mono, t->tparams, fresh, n);
}

/* t with every unknown replaced by a fresh one (the same unknown twice by the same fresh one). */
typedef struct Refresh {
  TyTable *types;
  const Type *from[32], *to[32];
  size_t n;
} Refresh;

static const Type *refresh_unknowns(void *ctx, const Type *t) {
  Refresh *r = ctx;
  if (t->kind != TY_INCOMPLETE) return ty_map_children(r->types, t, refresh_unknowns, r);
  for (size_t i = 0; i < r->n; i++)
    if (r->from[i] == t) return r->to[i];
  const Type *fresh = ty_incomplete(r->types);
  if (r->n < 32) r->from[r->n] = t, r->to[r->n++] = fresh;
  return fresh;
}

/* The type of @name as the definition being checked sees it.  TVM's InferType types every use
   of a global by the global's annotation (AddGlobalTypes), not by what inference finds for its
   body: a parameter or result written without a type is an unknown there, and since each
   definition is solved on its own, those unknowns are fresh per definition and shared by all of
   its uses of that global.  So a call of `def @f(%x: int32) { %x }` has a result that only the
   caller's context can fix (`let %y: int32 = @f(1)`), and nothing else: TVM then says it was
   unable to infer a type (checked on TVM v0.13.0). */
static const Type *global_type(Infer *in, const char *name) {
  const Type *t = find(&in->global_uses, name);
  if (t) return t;
  const Type *sig = find(&in->globals, name);
  if (!sig) return NULL;
  Refresh r = {.types = in->types, .n = 0};
  t = refresh_unknowns(&r, sig);
  names_bind(&in->global_uses, name, t);
  if (sig->kind == TY_FUNC && sig->ret->kind == TY_INCOMPLETE && t->ret != sig->ret) {
    UseResult u = {t->ret, sig->ret};
    VEC_PUSH(in->use_results, u);
  }
  return t;
}

/* An operator's relation runs once its argument types are known; TVM's solver instead waits,
   and may learn an unwritten global result type from what the program does with the call later
   (`negative(@f(%x))` returned at an annotated type).  relaykit does not defer relations: when an
   argument is still unknown, the unwritten result types of this definition's global uses that
   nothing has fixed yet take the types inference found for those globals' bodies, which is what
   TVM's solver arrives at whenever it accepts.  Returns whether it fixed any. */
static bool settle_use_results(Infer *in) {
  bool any = false;
  for (size_t i = 0; i < in->use_results.len; i++) {
    const Type *use = in->use_results.items[i].use, *inferred = in->use_results.items[i].inferred;
    if (ty_subst_resolve(&in->subst, use)->kind != TY_INCOMPLETE) continue;
    if (ty_subst_resolve(&in->subst, inferred)->kind == TY_INCOMPLETE) continue; /* its body is not checked yet */
    any |= ty_unify(&in->subst, use, inferred);
  }
  return any;
}

/* Before each definition (and an expression-mode body): its uses of globals start afresh. */
static void forget_global_uses(Infer *in) {
  names_truncate(&in->global_uses, 0);
  in->use_results.len = 0;
}

static const CtorInfo *find_ctor(Infer *in, const char *name) {
  for (size_t i = 0; i < in->ctors.len; i++)
    if (!strcmp(in->ctors.items[i].ctor->name, name)) return &in->ctors.items[i];
  return NULL;
}

/* A constructor's type at fresh type arguments: field types and the ADT type. */
static const Type *instantiate_ctor(Infer *in, const CtorInfo *c, const Type **fields) {
  const Type *vars[16], *fresh[16];
  size_t n = c->adt->ntype_params < 16 ? c->adt->ntype_params : 16;
  for (size_t i = 0; i < n; i++) {
    vars[i] = ty_var(in->types, c->adt->type_params[i]);
    fresh[i] = ty_incomplete(in->types);
  }
  for (size_t i = 0; i < c->ctor->nfields; i++) fields[i] = ty_substitute_vars(in->types, c->fields[i], vars, fresh, n);
  return ty_substitute_vars(in->types, c->adt_type, vars, fresh, n);
}

/* ------------------------------------------------------------------ expressions */

static const Type *expr(Infer *in, AstExpr *e);
static const Type *func(Infer *in, AstFunc *f, const Type *known);

/* The type a `/ * ty=T ... * /` comment on n states, or NULL (no such comment, or not a type this
   table can hold). */
static const Type *type_from_comment(Infer *in, const AstNode *n) {
  for (const AstComment *c = n->comments; c; c = c->next) {
    if (strncmp(c->text, "/* ty=", 6) != 0) continue;
    const char *t = c->text + 6, *end = strstr(t, " span=");
    if (!end) end = strstr(t, "*/");
    while (end && end > t && end[-1] == ' ') end--;
    if (!end) return NULL;
    /* the type as a parameter's annotation, which the parser reads */
    size_t len = (size_t)(end - t);
    char *src = xmalloc(len + 32);
    snprintf(src, len + 32, "fn (%%x: %.*s) { %%x }", (int)len, t);
    Diag d;
    diag_init(&d, "ty", src, strlen(src));
    AstModule *m = ast_parse(src, strlen(src), &d);
    const Type *ty = NULL;
    if (m && m->body && m->body->kind == AST_FN && m->body->fn->nparams == 1) {
      char err[128];
      const AstType *bad;
      ty = ty_from_ast(in->types, m->body->fn->params[0]->type, in->scope, err, sizeof err, &bad);
    }
    ast_free(m);
    diag_free(&d);
    free(src);
    return ty;
  }
  return NULL;
}

/* A call of an operator the registry does not know (a newer TVM, a custom or BYOC op): a black
   box typed as its ty= comment says, or as the program around it pins it (an unknown that
   unification may solve: a let annotation, a function's return type); whether it ended up typed
   is checked at the end (check_opaque).  Its arguments are typed as usual, its attributes not. */
static const Type *opaque_call(Infer *in, AstExpr *e) {
  for (size_t i = 0; i < e->nitems; i++)
    if (!(i + 1 == e->nitems && meta_is_attrs_ref(e->items[i])) && !expr(in, e->items[i])) return NULL;
  e->node.opaque = true;
  VEC_PUSH(in->opaque, e);
  const Type *t = type_from_comment(in, &e->node);
  return t ? t : ty_incomplete(in->types);
}

/* Whether t has no unknown left in it. */
static bool solved(const Type *t) {
  if (!t || t->kind == TY_INCOMPLETE) return false;
  for (uint32_t i = 0; i < t->nargs; i++)
    if (!solved(t->args[i])) return false;
  return !t->ret || solved(t->ret);
}

/* After inference: an unknown operator's call is an error unless something typed it, and a
   warning when something did (relaykit checks neither its arguments nor its attributes). */
static bool check_opaque(Infer *in) {
  for (size_t i = 0; i < in->opaque.len; i++) {
    AstExpr *e = in->opaque.items[i];
    const Type *t = e->node.type ? ty_subst_resolve(&in->subst, e->node.type) : NULL;
    if (!solved(t))
      return error_at(in, &e->a->node,
                      "unknown operator or constructor '%s': nothing gives its result type (add the "
                      "/* ty=T */ comment TVM's astext() prints after the call, or annotate the binding)",
                      e->a->text);
    char *ts = ty_str(t);
    diag_warning(in->diag, e->a->node.span.start, "unknown operator '%s' typed as %s %s; its arguments and attributes are not checked",
                 e->a->text, ts, type_from_comment(in, &e->node) ? "from its ty= comment" : "from the program around it");
    free(ts);
  }
  return true;
}

static const Type *literal(Infer *in, AstExpr *e) {
  const char *err;
  int bits;
  if (e->kind == AST_BOOL) return ty_scalar(in->types, dt_bool);
  if (e->kind == AST_INT) {
    int64_t v;
    if (!lit_int(e->text, &v, &bits, &err)) return error_at(in, &e->node, "%s", err), NULL;
    return ty_scalar(in->types, DT(DT_INT, bits));
  }
  double v;
  if (!lit_float(e->text, &v, &bits, &err)) return error_at(in, &e->node, "%s", err), NULL;
  return ty_scalar(in->types, DT(DT_FLOAT, bits));
}

static const char *const binary_ops[][2] = {{"*", "multiply"}, {"/", "divide"}, {"+", "add"},
                                             {"-", "subtract"}, {"<", "less"}, {"<=", "less_equal"},
                                             {">", "greater"}, {">=", "greater_equal"}, {"==", "equal"},
                                             {"!=", "not_equal"}};

/* An operator call: argument types must be known before the relation can run. */
static const Type *op_call(Infer *in, AstExpr *call, const OpDef *op, AstExpr *const *args, size_t nargs,
                           const AstAttrs *attrs) {
  const Type *stack[16] = {0};
  const Type **types = nargs <= 16 ? stack : xmalloc(nargs * sizeof *types);
  const Type *result = NULL;
  /* call_lowered's relation only ties types together (TVM's CallLoweredRel: the argument tuple is
     the function's parameters, the result its result), so it types with unknowns in them: the
     function is a global whose result type is often not written. */
  bool lowered = op && !strcmp(op->name, "call_lowered");
  for (size_t i = 0; i < nargs; i++) {
    const Type *t = expr(in, args[i]);
    if (!t) goto out;
    types[i] = ty_subst_resolve(&in->subst, t);
    if (ty_has_incomplete(types[i]) && settle_use_results(in)) types[i] = ty_subst_resolve(&in->subst, t);
    bool ties_unknowns = lowered && (i == 1 || (i == 0 && types[0]->kind == TY_FUNC)); /* the function, its argument tuple */
    if (ty_has_incomplete(types[i]) && !ties_unknowns) {
      const AstExpr *a = args[i];
      while (a->kind == AST_PAREN) a = a->a;
      if (a->node.opaque) /* say what would type it, not only that it is untyped */
        error_at(in, &a->a->node, "unknown operator or constructor '%s': nothing gives its result type (add the "
                 "/* ty=T */ comment TVM's astext() prints after the call, or annotate the binding)", a->a->text);
      else
        error_at(in, &args[i]->node, "cannot infer the type of this argument of %s", op->name);
      goto out;
    }
  }
  OpCall c = {.types = in->types};
  result = op_infer(&c, op, types, nargs, attrs, in->arena);
  if (result && lowered && !expect(in, &args[1]->node, ty_tuple(in->types, types[0]->args, types[0]->nargs), types[1],
                                   "call_lowered's arguments (the function's parameter types)"))
    result = NULL;
  if (!result) {
    const AstNode *at = c.bad_arg >= 0 && (size_t)c.bad_arg < nargs ? &args[c.bad_arg]->node : &call->node;
    error_at(in, at, "%s", c.err);
  }
out:
  if (types != stack) free(types);
  return result;
}

/* A call of a function value, a global or a constructor: unify parameters with arguments. */
static const Type *apply(Infer *in, AstExpr *call, const Type *ftype, AstExpr *const *args, size_t nargs,
                         const char *what) {
  ftype = ty_subst_resolve(&in->subst, ftype);
  if (ftype->kind == TY_INCOMPLETE) {
    /* An unannotated function-typed value: its type is whatever this call needs. */
    const Type **params = xmalloc((nargs ? nargs : 1) * sizeof *params);
    for (size_t i = 0; i < nargs; i++) params[i] = ty_incomplete(in->types);
    const Type *f = ty_func(in->types, params, nargs, ty_incomplete(in->types), NULL, 0);
    free(params);
    ty_unify(&in->subst, ftype, f);
    ftype = f;
  }
  if (ftype->kind != TY_FUNC) {
    char *s = show(in, ftype);
    error_at(in, &call->node, "cannot call %s: it has type %s, not a function type", what, s);
    free(s);
    return NULL;
  }
  ftype = instantiate(in, ftype);
  if (ftype->nargs != nargs)
    return error_at(in, &call->node, "%s expects %u argument%s, got %zu", what, ftype->nargs,
                    ftype->nargs == 1 ? "" : "s", nargs),
           NULL;
  for (size_t i = 0; i < nargs; i++) {
    const Type *t = expr(in, args[i]);
    if (!t || !expect(in, &args[i]->node, ftype->args[i], t, "a call argument")) return NULL;
  }
  return ftype->ret;
}

static const Type *call(Infer *in, AstExpr *e) {
  AstExpr *callee = e->a;
  if (callee->kind == AST_NAME) {
    const CtorInfo *c = find_ctor(in, callee->text);
    if (c) {
      if (e->attrs.len) return error_at(in, &e->node, "constructor %s takes no attributes", callee->text), NULL;
      const Type *fields[32];
      if (c->ctor->nfields > 32) return error_at(in, &e->node, "too many constructor fields"), NULL;
      const Type *adt = instantiate_ctor(in, c, fields);
      if (e->nitems != c->ctor->nfields)
        return error_at(in, &e->node, "constructor %s expects %zu argument%s, got %zu", callee->text,
                        c->ctor->nfields, c->ctor->nfields == 1 ? "" : "s", e->nitems),
               NULL;
      for (size_t i = 0; i < e->nitems; i++) {
        const Type *t = expr(in, e->items[i]);
        if (!t || !expect(in, &e->items[i]->node, fields[i], t, "a constructor argument")) return NULL;
      }
      return adt;
    }
    const OpDef *op = op_lookup(callee->text);
    int other = op ? -1 : op_tvm_elsewhere(callee->text);
    if (other >= 0) /* not a custom op: one relaykit knows TVM removed or added */
      return error_at(in, &callee->node, "operator %s is not in TVM v%s's registry (TVM v%s has it: --tvm-version %s)",
                      callee->text, op_tvm_name(), op_tvm_release_name((TvmRelease)other),
                      op_tvm_release_short((TvmRelease)other)),
             NULL;
    if (!op) return opaque_call(in, e);
    return op_call(in, e, op, e->items, e->nitems, &e->attrs);
  }
  if (e->attrs.len) {
    /* Non-operator calls carry attributes only with attrs_type_key (spec §3.7); they do not type. */
    bool keyed = false;
    for (size_t i = 0; i < e->attrs.len; i++) keyed |= !strcmp(e->attrs.items[i]->key, "attrs_type_key");
    if (!keyed) return error_at(in, &e->node, "a call of a function takes attributes only with attrs_type_key"), NULL;
  }
  const Type *ftype;
  const char *what = "this expression";
  if (callee->kind == AST_GLOBAL) {
    ftype = global_type(in, callee->text);
    if (!ftype) return error_at(in, &callee->node, "unknown global function @%s", callee->text), NULL;
    what = callee->text;
  } else {
    ftype = expr(in, callee);
    if (!ftype) return NULL;
  }
  return apply(in, e, ftype, e->items, e->nitems, what);
}

/* A name used as a value: a constructor (a call if it has no fields, as TVM reads `Nil`). */
static const Type *name_value(Infer *in, AstExpr *e) {
  const CtorInfo *c = find_ctor(in, e->text);
  if (!c) {
    if (op_lookup(e->text))
      return error_at(in, &e->node, "operator %s used as a value (relaykit types only calls of operators)", e->text),
             NULL;
    return error_at(in, &e->node, "unknown operator or constructor '%s'", e->text), NULL;
  }
  const Type *fields[32];
  if (c->ctor->nfields > 32) return error_at(in, &e->node, "too many constructor fields"), NULL;
  const Type *adt = instantiate_ctor(in, c, fields);
  if (c->ctor->nfields == 0) return adt;
  return ty_func(in->types, fields, c->ctor->nfields, adt, NULL, 0);
}

static const Type *bind_pattern(Infer *in, AstPattern *p, const Type *t);

static const Type *seq(Infer *in, AstExpr *e) {
  size_t mark = in->locals.len;
  for (size_t i = 0; i < e->nstmts; i++) {
    AstStmt *s = e->stmts[i];
    switch (s->kind) {
    case AST_STMT_LET: {
      AstBinder *b = s->binder;
      const Type *ann = b->type ? annotation(in, b->type) : ty_incomplete(in->types);
      if (!ann) return NULL;
      /* A let-bound function may call itself (TVM's let-rec); other values may not see the name. */
      bool rec = s->value->kind == AST_FN;
      if (rec) bind_local(in, b->name, ann);
      const Type *v = expr(in, s->value);
      if (!v || !expect(in, &s->value->node, ann, v, "a let binding")) return NULL;
      widen_to(in, s->value, ann);
      if (!rec) bind_local(in, b->name, ann);
      typed(in, &b->node, ann);
      record(in, &s->value_type, ann);
      break;
    }
    case AST_STMT_GRAPH: {
      const Type *v = expr(in, s->value);
      if (!v) return NULL;
      bool bound;
      names_find(&in->graph, s->graph, &bound);
      if (!bound) names_bind(&in->graph, s->graph, v);
      record(in, &s->value_type, v);
      break;
    }
    case AST_STMT_FREE: {
      AstBinder *b = s->binder;
      const Type *t = b->type ? annotation(in, b->type) : ty_incomplete(in->types);
      if (!t) return NULL;
      bind_local(in, b->name, t);
      typed(in, &b->node, t);
      break;
    }
    case AST_STMT_EXPR:
      if (!expr(in, s->value)) return NULL;
      break;
    }
  }
  const Type *r = expr(in, e->a);
  names_truncate(&in->locals, mark);
  return r;
}

/* AdtInfo for the exhaustiveness check: the constructors of an ADT, from the definitions. */
static size_t adt_ctors(void *ctx, const char *adt, const char *const **names, const Type *const *const **fields,
                        const size_t **nfields) {
  Infer *in = ctx;
  size_t n = 0;
  for (size_t i = 0; i < in->ctors.len; i++) n += !strcmp(in->ctors.items[i].adt->name, adt);
  const char **nm = arena_alloc(in->arena, (n + 1) * sizeof *nm);
  const Type *const **fl = arena_alloc(in->arena, (n + 1) * sizeof *fl);
  size_t *nf = arena_alloc(in->arena, (n + 1) * sizeof *nf);
  size_t k = 0;
  for (size_t i = 0; i < in->ctors.len; i++) {
    const CtorInfo *c = &in->ctors.items[i];
    if (strcmp(c->adt->name, adt) != 0) continue;
    nm[k] = c->ctor->name;
    fl[k] = c->fields;
    nf[k++] = c->ctor->nfields;
  }
  *names = nm;
  *fields = fl;
  *nfields = nf;
  return n;
}

static const Type *match(Infer *in, AstExpr *e) {
  const Type *scrut = expr(in, e->a);
  if (!scrut) return NULL;
  const Type *result = ty_incomplete(in->types);
  for (size_t i = 0; i < e->narms; i++) {
    size_t mark = in->locals.len;
    if (!bind_pattern(in, e->arms[i]->pattern, scrut)) return NULL;
    const Type *b = expr(in, e->arms[i]->body);
    if (!b || !expect(in, &e->arms[i]->body->node, result, b, "a match arm")) return NULL;
    names_truncate(&in->locals, mark);
  }
  if (!strcmp(e->text, "match")) {
    char missing[256];
    AdtInfo adts = {adt_ctors, in};
    if (!match_is_exhaustive(e->arms, e->narms, ty_subst_resolve(&in->subst, scrut), &adts, missing, sizeof missing))
      return error_at(in, &e->node, "match is not exhaustive: %s is not matched (use match? for a partial match)",
                      missing),
             NULL;
  }
  return result;
}

static const Type *bind_pattern(Infer *in, AstPattern *p, const Type *t) {
  switch (p->kind) {
  case AST_PAT_WILDCARD: return t;
  case AST_PAT_VAR: {
    if (p->type) {
      const Type *ann = annotation(in, p->type);
      if (!ann || !expect(in, &p->node, ann, t, "a pattern")) return NULL;
    }
    bind_local(in, p->name, t);
    return typed(in, &p->node, t);
  }
  case AST_PAT_TUPLE: {
    const Type **fields = xmalloc((p->nitems ? p->nitems : 1) * sizeof *fields);
    for (size_t i = 0; i < p->nitems; i++) fields[i] = ty_incomplete(in->types);
    const Type *tt = ty_tuple(in->types, fields, p->nitems);
    bool ok = expect(in, &p->node, tt, t, "a tuple pattern");
    for (size_t i = 0; ok && i < p->nitems; i++) ok = bind_pattern(in, p->items[i], fields[i]) != NULL;
    free(fields);
    return ok ? t : NULL;
  }
  case AST_PAT_CTOR: {
    const CtorInfo *c = find_ctor(in, p->name);
    if (!c)
      return error_at(in, &p->node, "'%s' is not a constructor (write %%%s to bind a variable)", p->name, p->name),
             NULL;
    const Type *fields[32];
    if (c->ctor->nfields > 32) return NULL;
    const Type *adt = instantiate_ctor(in, c, fields);
    if (!expect(in, &p->node, adt, t, "a constructor pattern")) return NULL;
    if (p->nitems != c->ctor->nfields)
      return error_at(in, &p->node, "constructor %s has %zu field%s, the pattern gives %zu", p->name,
                      c->ctor->nfields, c->ctor->nfields == 1 ? "" : "s", p->nitems),
             NULL;
    for (size_t i = 0; i < p->nitems; i++)
      if (!bind_pattern(in, p->items[i], fields[i])) return NULL;
    return t;
  }
  }
  return NULL;
}

/* e.N: field N of a tuple. */
static const Type *proj(Infer *in, AstExpr *e) {
  const Type *tt = expr(in, e->a);
  if (!tt) return NULL;
  tt = ty_subst_resolve(&in->subst, tt);
  if (tt->kind != TY_TUPLE) {
    char *s = show(in, tt);
    error_at(in, &e->node, "cannot project field %u: the value has type %s, not a tuple", e->index, s);
    free(s);
    return NULL;
  }
  if (e->index >= tt->nargs)
    return error_at(in, &e->node, "tuple index %u out of range: the tuple has %u field%s", e->index, tt->nargs,
                    tt->nargs == 1 ? "" : "s"),
           NULL;
  return tt->args[e->index];
}

/* if (c) { a } else { b }: c a bool scalar, a and b of one type. */
static const Type *if_expr(Infer *in, AstExpr *e) {
  const Type *c = expr(in, e->a);
  if (!c) return NULL;
  const Type *cr = ty_subst_resolve(&in->subst, c);
  if (!(cr->kind == TY_TENSOR && cr->ndims == 0 && dtype_is_bool(cr->dtype)) &&
      !ty_unify(&in->subst, cr, ty_scalar(in->types, dt_bool))) {
    char *s = show(in, cr);
    error_at(in, &e->a->node, "the condition of an if must be a bool scalar, found %s", s);
    free(s);
    return NULL;
  }
  const Type *a = expr(in, e->then_), *b = a ? expr(in, e->else_) : NULL;
  if (!b || !expect(in, &e->else_->node, a, b, "the else branch (both branches must have one type)")) return NULL;
  return a;
}

static const Type *expr(Infer *in, AstExpr *e) {
  const Type *t = NULL;
  switch (e->kind) {
  case AST_INT:
  case AST_FLOAT:
  case AST_BOOL: t = literal(in, e); break;
  case AST_LOCAL:
    t = find(&in->locals, e->text);
    if (!t) return error_at(in, &e->node, "unbound variable %%%s", e->text), NULL;
    return t; /* uses of variables carry no type comment */
  case AST_GRAPH:
    t = find(&in->graph, e->text);
    if (!t) return error_at(in, &e->node, "%%%s is used before it is bound", e->text), NULL;
    return t;
  case AST_GLOBAL:
    t = global_type(in, e->text);
    if (!t) return error_at(in, &e->node, "unknown global function @%s", e->text), NULL;
    /* A polymorphic global used as a value keeps its type parameters, as in TVM: a call through
       it, or unification with a monomorphic function type, instantiates them. */
    return t;
  case AST_NAME:
    t = name_value(in, e);
    if (t && t->kind == TY_FUNC) return t; /* an unapplied constructor: no type comment in TVM */
    break;
  case AST_META: t = meta_constant_type(&in->meta, in->types, e->text); 
    if (!t) return error_at(in, &e->node, "unknown meta reference %s%s", e->text,
                            in->m->metadata ? "" : " (the file has no #[metadata] section)"), NULL;
    break;
  case AST_CALL: t = call(in, e); break;
  case AST_BINARY: {
    const OpDef *op = NULL;
    for (size_t i = 0; i < sizeof binary_ops / sizeof binary_ops[0]; i++)
      if (!strcmp(binary_ops[i][0], e->text)) op = op_lookup(binary_ops[i][1]);
    AstExpr *args[2] = {e->a, e->b};
    AstAttrs none = {NULL, 0};
    t = op_call(in, e, op, args, 2, &none);
    return t; /* TVM sees a call; the text has none to annotate */
  }
  case AST_TUPLE: {
    const Type **fields = xmalloc((e->nitems ? e->nitems : 1) * sizeof *fields);
    bool ok = true;
    for (size_t i = 0; ok && i < e->nitems; i++) ok = (fields[i] = expr(in, e->items[i])) != NULL;
    if (ok) t = ty_tuple(in->types, fields, e->nitems);
    free(fields);
    break;
  }
  case AST_PROJ:
    t = proj(in, e);
    if (!t) return NULL;
    break;
  case AST_PAREN:
  case AST_BLOCK: return expr(in, e->a);
  case AST_FN: t = func(in, e->fn, NULL); break;
  case AST_IF: return if_expr(in, e); /* If has no type comment */
  case AST_MATCH: return match(in, e);
  case AST_REF: {
    const Type *v = expr(in, e->a);
    return v ? ty_ref(in->types, v) : NULL;
  }
  case AST_REF_READ: {
    const Type *r = expr(in, e->a);
    if (!r) return NULL;
    const Type *inner = ty_incomplete(in->types);
    if (!expect(in, &e->a->node, ty_ref(in->types, inner), r, "ref_read")) return NULL;
    return inner;
  }
  case AST_REF_WRITE: {
    const Type *r = expr(in, e->a), *v = r ? expr(in, e->b) : NULL;
    if (!v || !expect(in, &e->a->node, ty_ref(in->types, v), r, "ref_write")) return NULL;
    return ty_unit(in->types);
  }
  case AST_SEQ: return seq(in, e);
  case AST_STRING:
  case AST_ANY:
  case AST_LIST: return error_at(in, &e->node, "this is an attribute value, not an expression"), NULL;
  }
  return typed(in, &e->node, t);
}

/* Types a function; `known` is its declared type when a global's signature was set up front. */
static const Type *func(Infer *in, AstFunc *f, const Type *known) {
  TyScope scope = {f->type_params, f->ntype_params, in->scope};
  const TyScope *saved_scope = in->scope;
  in->scope = &scope;
  size_t mark = in->locals.len;
  const Type **params = xmalloc((f->nparams ? f->nparams : 1) * sizeof *params);
  const Type *result = NULL;
  for (size_t i = 0; i < f->nparams; i++) {
    AstBinder *b = f->params[i];
    params[i] = known ? known->args[i] : b->type ? annotation(in, b->type) : ty_incomplete(in->types);
    if (!params[i]) goto out;
    bind_local(in, b->name, params[i]);
    typed(in, &b->node, params[i]);
  }
  const Type *ret = known ? known->ret : f->ret ? annotation(in, f->ret) : ty_incomplete(in->types);
  if (!ret) goto out;
  const Type *body = expr(in, f->body);
  if (!body || !expect(in, &f->body->node, ret, body, "the function's result")) goto out;
  widen_to(in, f->body, ret);
  const Type *tp[16];
  size_t ntp = f->ntype_params < 16 ? f->ntype_params : 16;
  for (size_t i = 0; i < ntp; i++) tp[i] = ty_var(in->types, f->type_params[i]);
  result = known ? known : ty_func(in->types, params, f->nparams, ret, tp, ntp);
  record(in, &f->type, result);
out:
  free(params);
  names_truncate(&in->locals, mark);
  in->scope = saved_scope;
  return result;
}

/* ------------------------------------------------------------------ definitions */

/* ADTs first: constructors may be used anywhere, and definitions may come in any order. */
static bool declare_types(Infer *in) {
  for (size_t d = 0; d < in->m->ndefs; d++) {
    AstDef *def = in->m->defs[d];
    if (def->kind == AST_DEF_FN) continue;
    for (size_t i = 0; i < in->adts.len; i++)
      if (!strcmp(in->adts.items[i], def->name)) return error_at(in, &def->node, "duplicate type definition %s", def->name);
    VEC_PUSH(in->adts, def->name);
  }
  for (size_t d = 0; d < in->m->ndefs; d++) {
    AstDef *def = in->m->defs[d];
    if (def->kind == AST_DEF_FN) continue;
    if (def->kind == AST_DEF_EXTERN_TYPE && def->nctors)
      return error_at(in, &def->node, "an extern type cannot have constructors");
    TyScope scope = {def->type_params, def->ntype_params, NULL};
    const Type *params[16];
    size_t np = def->ntype_params < 16 ? def->ntype_params : 16;
    for (size_t i = 0; i < np; i++) params[i] = ty_var(in->types, def->type_params[i]);
    const Type *adt_type = ty_call(in->types, def->name, params, np);
    for (size_t c = 0; c < def->nctors; c++) {
      AstCtorDef *ctor = def->ctors[c];
      if (find_ctor(in, ctor->name)) return error_at(in, &ctor->node, "duplicate constructor %s", ctor->name);
      CtorInfo info = {def, ctor, adt_type, arena_alloc(in->arena, (ctor->nfields + 1) * sizeof(Type *))};
      for (size_t f = 0; f < ctor->nfields; f++) {
        char err[256];
        const AstType *bad;
        info.fields[f] = ty_from_ast(in->types, ctor->fields[f], &scope, err, sizeof err, &bad);
        if (!info.fields[f]) return error_at(in, &bad->node, "%s", err);
      }
      VEC_PUSH(in->ctors, info);
    }
  }
  return true;
}

/* Every global's type before any body, so definitions may call each other in any order. */
static bool declare_globals(Infer *in) {
  for (size_t d = 0; d < in->m->ndefs; d++) {
    AstDef *def = in->m->defs[d];
    if (def->kind != AST_DEF_FN) continue;
    if (find(&in->globals, def->name))
      return error_at(in, &def->node, "duplicate definition of @%s", def->name);
    AstFunc *f = def->fn;
    TyScope scope = {f->type_params, f->ntype_params, NULL};
    in->scope = &scope;
    const Type **params = xmalloc((f->nparams ? f->nparams : 1) * sizeof *params);
    bool ok = true;
    for (size_t i = 0; ok && i < f->nparams; i++)
      ok = (params[i] = f->params[i]->type ? annotation(in, f->params[i]->type) : ty_incomplete(in->types)) != NULL;
    const Type *ret = ok ? (f->ret ? annotation(in, f->ret) : ty_incomplete(in->types)) : NULL;
    in->scope = NULL;
    if (!ret) {
      free(params);
      return false;
    }
    const Type *tp[16];
    size_t ntp = f->ntype_params < 16 ? f->ntype_params : 16;
    for (size_t i = 0; i < ntp; i++) tp[i] = ty_var(in->types, f->type_params[i]);
    names_bind(&in->globals, def->name, ty_func(in->types, params, f->nparams, ret, tp, ntp));
    free(params);
  }
  return true;
}

/* TVM rejects a variable or expression whose type nothing fixed ("unable to infer a type for
   this expression"): an unannotated parameter never used at a known type, the result of a call
   of a global whose result type is not written (global_type).  A type that only contains an
   unknown (`List[?]` of a bare Nil) is accepted, as TVM accepts it. */
static bool check_all_inferred(Infer *in, size_t ntyped) {
  for (size_t i = 0; i < ntyped; i++) {
    AstNode *n = in->typed.items[i];
    if (n->type && ty_subst_resolve(&in->subst, n->type)->kind == TY_INCOMPLETE)
      return error_at(in, n, "cannot infer a type for this: nothing in its definition fixes it, and TVM rejects "
                             "it too; annotate it, or the parameter or global function result it comes from");
  }
  return true;
}

bool infer_module(AstModule *m, TyTable *types, Diag *diag) {
  Infer in = {.types = types, .diag = diag, .m = m, .arena = &m->arena};
  ty_subst_init(&in.subst, types);
  char err[256];
  size_t where = 0;
  bool ok = meta_table_init(&in.meta, m->metadata, err, sizeof err, &where);
  if (!ok) meta_report(diag, m, err, where);
  ok = ok && meta_inline_attrs(m, diag);
  if (ok && m->ndefs && !m->has_version) {
    /* TVM reads header-less text as one expression (parse_expr), where definitions cannot stand. */
    error_at(&in, &m->defs[0]->node, "definitions need the #[version = \"0.0.5\"] header (without it TVM reads the text as one expression)");
    ok = false;
  }
  ok = ok && declare_types(&in) && declare_globals(&in);
  for (size_t d = 0; ok && d < m->ndefs; d++) {
    AstDef *def = m->defs[d];
    if (def->kind != AST_DEF_FN) continue;
    const Type *sig = find(&in.globals, def->name);
    forget_global_uses(&in);
    ok = func(&in, def->fn, sig) != NULL;
  }
  size_t typed_in_defs = in.typed.len;
  forget_global_uses(&in);
  if (ok && m->body) ok = expr(&in, m->body) != NULL;
  ok = ok && !in.failed && check_opaque(&in);
  /* Definitions only: TVM reads a text without them as one expression and does not type it. */
  ok = ok && check_all_inferred(&in, typed_in_defs);
  /* Types as TVM prints them: with every solved unknown filled in. */
  for (size_t i = 0; i < in.typed.len; i++) in.typed.items[i]->type = ty_subst_resolve(&in.subst, in.typed.items[i]->type);
  for (size_t i = 0; i < in.slots.len; i++) *in.slots.items[i] = ty_subst_resolve(&in.subst, *in.slots.items[i]);
  free(in.slots.items);
  free(in.opaque.items);
  names_free(&in.locals);
  names_free(&in.graph);
  names_free(&in.globals);
  names_free(&in.global_uses);
  free(in.use_results.items);
  free(in.ctors.items);
  free(in.adts.items);
  free(in.typed.items);
  meta_table_free(&in.meta);
  ty_subst_free(&in.subst);
  return ok;
}
