/*
 * --ill-typed: one controlled type error.  Each kind below finds the places where it applies and
 * keeps only changes the type checker must reject there: an operator call is re-typed with the
 * changed argument or attribute through the operator's own relation (op_infer), so a change the
 * relation accepts (relu of a rank-3 tensor, add broadcasting a new leading axis) is never
 * proposed.  Sites in @main come first; elsewhere only when @main offers none.
 *
 *   wrong-rank        an operator's tensor argument replaced by a value of another rank
 *   wrong-dtype       an argument replaced by the same shape in another dtype
 *   bad-attr          an attribute out of range: axis, strides, sizes, groups, layout, units
 *   unbound           a use of a variable replaced by %undefined_N
 *   wrong-arity       an operator, constructor or function call with one argument too few or many
 *   wrong-annotation  a let binder, a @main parameter or @main's result annotated with another type
 *
 * The replacing value is a new @main parameter (in @main) or zeros(shape=..., dtype=...).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../program/program.h"
#include "../typegen/ops/ops.h"
#include "../typegen/types/types.h"
#include "driver.h"

typedef struct Ill Ill;
static const Type *type_of(const Ill *w, const AstExpr *e);

/* A candidate change: the site of the expression it changes and what to change it to. */
typedef struct Cand {
  const MutSite *site;
  AstExpr *call;       /* the call changed (or whose argument is) */
  size_t arg;          /* the argument, or the attribute's schema index */
  const Type *t;       /* the new type */
  AttrVal val;         /* bad-attr: the new value */
  AttrVal items[8];    /* its list elements */
  AstBinder *binder;   /* wrong-annotation */
  AstFunc *fn;         /* wrong-annotation of a result */
  const AstExpr *use;  /* wrong-annotation of a parameter: the call that rejects it */
} Cand;
typedef VEC(Cand) Cands;

/* A candidate in @main when there is one. */
static Cand *pick(MutContext *c, Cands *cs) {
  size_t nmain = 0;
  for (size_t i = 0; i < cs->len; i++) nmain += cs->items[i].site->in_main;
  if (!cs->len) return NULL;
  size_t k = rng_index(c->rng, nmain ? nmain : cs->len);
  for (size_t i = 0; i < cs->len; i++)
    if ((!nmain || cs->items[i].site->in_main) && k-- == 0) return &cs->items[i];
  return NULL;
}

static const AstCtorDef *find_ctor(const AstModule *m, const char *name) {
  for (size_t i = 0; i < m->ndefs; i++)
    if (m->defs[i]->kind == AST_DEF_TYPE)
      for (size_t k = 0; k < m->defs[i]->nctors; k++)
        if (!strcmp(m->defs[i]->ctors[k]->name, name)) return m->defs[i]->ctors[k];
  return NULL;
}

/* The operator a call applies (not a constructor), or NULL. */
static const OpDef *call_op(const AstModule *m, const AstExpr *e) {
  if (e->kind != AST_CALL || e->a->kind != AST_NAME || find_ctor(m, e->a->text)) return NULL;
  return op_lookup(e->a->text);
}

static bool known(const Type *t) { return t && !ty_has_incomplete(t) && ty_is_readable(t); }

/* Whether the operator's relation rejects the call with argument `arg` of type t (t NULL: the
   argument dropped; arg == nitems: t appended) and attributes `attrs` (NULL: the call's own). */
static bool op_rejects(MutContext *c, const Ill *w, const AstExpr *call, size_t arg, const Type *t, const AstAttrs *attrs) {
  const OpDef *op = call_op(c->m, call);
  if (!op || call->nitems >= 16) return false;
  const Type *args[17];
  size_t n = 0;
  for (size_t i = 0; i <= call->nitems; i++) {
    if (i == arg) {
      if (t) args[n++] = t;
      continue;
    }
    if (i == call->nitems) break;
    const Type *a = type_of(w, call->items[i]);
    if (!known(a)) return false;
    args[n++] = a;
  }
  Arena arena;
  arena_init(&arena);
  OpCall oc = {.types = c->types};
  bool rejected = !op_infer(&oc, op, args, n, attrs ? attrs : &call->attrs, &arena);
  arena_free(&arena);
  return rejected;
}

/* ------------------------------------------------------------------ the program's expressions */
/* Every expression (typed or not: variable uses, if, sequences carry no type), with the types of
   variable uses resolved through the binders in scope, and every name the program binds. */
typedef struct Use {
  const AstExpr *e;
  const Type *t;
} Use;

struct Ill {
  MutSites sites;          /* in pre-order, callees included */
  VEC(Use) uses;           /* sorted by e */
};

static bool visit(const ScopedSite *site, void *ctx) {
  Ill *w = ctx;
  AstExpr *e = *site->slot;
  VEC_PUSH(w->sites, ((MutSite){site->slot, site->def, site->in_main, e->node.type}));
  const ScopeVar *v = e->kind == AST_LOCAL || e->kind == AST_GRAPH ? prog_scope_find(site, e->kind, e->text) : NULL;
  if (v) VEC_PUSH(w->uses, ((Use){e, v->type}));
  return false;
}

static int by_expr(const void *a, const void *b) {
  const AstExpr *x = ((const Use *)a)->e, *y = ((const Use *)b)->e;
  return x < y ? -1 : x > y;
}

static void ill_init(Ill *w, AstModule *m) {
  memset(w, 0, sizeof *w);
  prog_scoped_walk(m, visit, w);
  if (w->uses.len) qsort(w->uses.items, w->uses.len, sizeof *w->uses.items, by_expr);
}

static void ill_free(Ill *w) {
  free(w->sites.items);
  free(w->uses.items);
}

/* Whether any function binds or mentions the local `name`: a fresh name must be neither. */
static bool local_taken(const AstModule *m, const char *name) {
  for (size_t i = 0; i < m->ndefs; i++) {
    const AstFunc *f = m->defs[i]->kind == AST_DEF_FN ? m->defs[i]->fn : NULL;
    if (!f) continue;
    for (size_t k = 0; k < f->nparams; k++)
      if (!strcmp(f->params[k]->name, name)) return true;
    if (prog_binds(f->body, name) || prog_uses(f->body, AST_LOCAL, name)) return true;
  }
  return false;
}

/* An expression's type: its own, or its variable's. */
static const Type *type_of(const Ill *w, const AstExpr *e) {
  while (e->kind == AST_PAREN) e = e->a;
  if (e->node.type) return e->node.type;
  if (e->kind != AST_LOCAL && e->kind != AST_GRAPH) return NULL;
  Use key = {e, NULL};
  const Use *u = w->uses.len ? bsearch(&key, w->uses.items, w->uses.len, sizeof key, by_expr) : NULL;
  return u ? u->t : NULL;
}

/* ------------------------------------------------------------------ new types and values */
static DType other_dtype(DType d) { return dtype_is_float(d) ? dt_int32 : dt_float32; }

/* A tensor type like t changed in one way: 0 dtype, 1 rank + 1, 2 rank - 1, 3 one dimension. */
static const Type *variant(MutContext *c, const Type *t, int how) {
  if (t->kind != TY_TENSOR || t->ndims > 7 || t->dtype.lanes != 1) return NULL;
  int64_t dims[8];
  size_t n = t->ndims;
  if (n) memcpy(dims, t->dims, n * sizeof *dims);
  DType dt = t->dtype;
  switch (how) {
  case 0: dt = other_dtype(dt); break;
  case 1:
    memmove(dims + 1, dims, n * sizeof *dims);
    dims[0] = 1;
    n++;
    break;
  case 2:
    if (!n) return NULL;
    memmove(dims, dims + 1, --n * sizeof *dims);
    break;
  default: {
    if (!n) return NULL;
    size_t k = rng_index(c->rng, n);
    dims[k] = dims[k] < 0 ? 3 : dims[k] + 1;
  }
  }
  return ty_tensor(c->types, dt, dims, n);
}

/* A type other than t: a tensor changed in a random way, or a tuple with one field changed. */
static const Type *other_type(MutContext *c, const Type *t) {
  if (t->kind == TY_TENSOR) {
    int start = (int)rng_index(c->rng, 4);
    for (int k = 0; k < 4; k++) {
      const Type *v = variant(c, t, (start + k) % 4);
      if (v) return v;
    }
    return NULL;
  }
  if (t->kind != TY_TUPLE || !t->nargs || t->nargs > 64) return NULL;
  const Type *fields[64];
  memcpy(fields, t->args, t->nargs * sizeof *fields);
  size_t k = rng_index(c->rng, t->nargs);
  for (size_t j = 0; j < t->nargs; j++) {
    const Type *v = other_type(c, t->args[(k + j) % t->nargs]);
    if (v) {
      fields[(k + j) % t->nargs] = v;
      return ty_tuple(c->types, fields, t->nargs);
    }
  }
  return NULL;
}

static bool name_taken(const AstFunc *f, const char *name) {
  for (size_t i = 0; i < f->nparams; i++)
    if (!strcmp(f->params[i]->name, name)) return true;
  return false;
}

/* A value of tensor type t for the site: a new @main parameter, or zeros(...) (static shapes). */
static AstExpr *fresh_value(MutContext *c, const MutSite *site, const Type *t, const char *stem) {
  AstDef *main = prog_main(c->m);
  bool static_shape = t->kind == TY_TENSOR;
  for (uint32_t i = 0; static_shape && i < t->ndims; i++) static_shape = t->dims[i] >= 0;
  if (site->in_main && main && (!static_shape || rng_chance(c->rng, 1, 2))) {
    char name[64];
    for (unsigned k = 0;; k++) {
      snprintf(name, sizeof name, "%s%u", stem, k);
      if (!name_taken(main->fn, name)) break;
    }
    AstFunc *f = main->fn;
    AstBinder **params = arena_alloc(&c->m->arena, (f->nparams + 1) * sizeof *params);
    if (f->nparams) memcpy(params, f->params, f->nparams * sizeof *params);
    params[f->nparams] = ast_new_binder(c->m, name, ty_to_ast(c->m, t));
    f->params = params;
    f->nparams++;
    return ast_new_atom(c->m, AST_LOCAL, name);
  }
  if (!static_shape) return NULL;
  AstExpr *dims[8];
  for (uint32_t i = 0; i < t->ndims; i++) {
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", (long long)t->dims[i]);
    dims[i] = ast_new_atom(c->m, AST_INT, buf);
  }
  char dt[16], quoted[24];
  snprintf(quoted, sizeof quoted, "\"%s\"", dtype_str(t->dtype, dt));
  AstAttr *attrs[2] = {ast_new_attr(c->m, "shape", ast_new_list(c->m, dims, t->ndims)),
                       ast_new_attr(c->m, "dtype", ast_new_atom(c->m, AST_STRING, quoted))};
  return ast_new_call(c->m, ast_new_atom(c->m, AST_NAME, "zeros"), NULL, 0, attrs, 2);
}

static bool can_make(const MutSite *site, const Type *t) {
  if (site->in_main) return true;
  for (uint32_t i = 0; i < t->ndims; i++)
    if (t->dims[i] < 0) return false;
  return true;
}

/* ------------------------------------------------------------------ wrong rank, wrong dtype */
/* Operator arguments whose replacement by a value of type variant(how) the relation rejects. */
static bool replace_arg(MutContext *c, const Ill *w, const int *hows, size_t nhows, const char *kind,
                        const char *stem) {
  Cands cs = {0};
  for (size_t i = 0; i < w->sites.len; i++) {
    AstExpr *e = *w->sites.items[i].slot;
    if (!call_op(c->m, e)) continue;
    for (size_t a = 0; a < e->nitems; a++) {
      const Type *old = type_of(w, e->items[a]);
      if (!old || old->kind != TY_TENSOR) continue;
      size_t start = rng_index(c->rng, nhows);
      for (size_t h = 0; h < nhows; h++) {
        const Type *t = variant(c, old, hows[(start + h) % nhows]);
        if (t && can_make(&w->sites.items[i], t) && op_rejects(c, w, e, a, t, NULL)) {
          VEC_PUSH(cs, ((Cand){.site = &w->sites.items[i], .call = e, .arg = a, .t = t}));
          break;
        }
      }
    }
  }
  Cand *k = pick(c, &cs);
  bool ok = false;
  if (k) {
    AstExpr *old = k->call->items[k->arg];
    AstExpr *v = fresh_value(c, k->site, k->t, stem);
    if (v) {
      k->call->items[k->arg] = v;
      char *ts = ty_str(k->t);
      mut_note(c, &old->node, &v->node, "ill-typed %s at %u:%u: %s's argument %zu gets %s", kind, old->node.span.line,
               old->node.span.col, k->call->a->text, k->arg + 1, ts);
      free(ts);
      ok = true;
    }
  }
  free(cs.items);
  return ok;
}

static bool wrong_rank(MutContext *c, const Ill *w) {
  static const int hows[] = {1, 2};
  return replace_arg(c, w, hows, 2, "wrong-rank", "ill_rank");
}

static bool wrong_dtype(MutContext *c, const Ill *w) {
  static const int hows[] = {0};
  return replace_arg(c, w, hows, 1, "wrong-dtype", "ill_dtype");
}

/* ------------------------------------------------------------------ bad attribute */
static size_t first_rank(const Ill *w, const AstExpr *call) {
  const Type *t = call->nitems ? type_of(w, call->items[0]) : NULL;
  if (t && t->kind == TY_TUPLE && t->nargs) t = t->args[0];
  return t && t->kind == TY_TENSOR ? t->ndims : 0;
}

/* A bad value for attribute k of the call's op (cur: its value now); false when none is tried. */
static bool bad_value(const Ill *w, const OpAttrSpec *spec, const AttrVal *cur, const AstExpr *call, Cand *out,
                      unsigned attempt) {
  const char *n = spec->name;
  int64_t rank = (int64_t)first_rank(w, call);
  AttrVal *v = &out->val;
  memset(v, 0, sizeof *v);
  if (!strcmp(n, "axis") || !strcmp(n, "axes")) {
    int64_t bad = attempt % 2 ? -(rank + 2) : rank + 2;
    if (spec->type == AT_INT) {
      *v = (AttrVal){.kind = ATTR_INT, .i = bad, .f = (double)bad};
      return true;
    }
    out->items[0] = (AttrVal){.kind = ATTR_INT, .i = bad, .f = (double)bad};
    *v = (AttrVal){.kind = ATTR_LIST, .items = out->items, .n = 1};
    return spec->type == AT_INTS || spec->type == AT_ANY;
  }
  if (!strcmp(n, "strides") || !strcmp(n, "dilation") || !strcmp(n, "kernel_size") || !strcmp(n, "pool_size")) {
    size_t len = cur->kind == ATTR_LIST && cur->n && cur->n <= 8 ? cur->n : 2;
    int64_t bad = attempt % 2 ? -1 : 0;
    for (size_t i = 0; i < len; i++) out->items[i] = (AttrVal){.kind = ATTR_INT, .i = bad, .f = (double)bad};
    *v = (AttrVal){.kind = ATTR_LIST, .items = out->items, .n = len};
    return true;
  }
  if (!strcmp(n, "groups")) {
    static const int64_t g[] = {2, 3, 5, 7};
    *v = (AttrVal){.kind = ATTR_INT, .i = g[attempt % 4], .f = (double)g[attempt % 4]};
    return cur->kind == ATTR_INT && cur->i == 1;
  }
  if (strstr(n, "layout") && spec->type == AT_STR) {
    static const char *const bad[] = {"ABCD", "NCH", "NCHWW", "XYZW"};
    *v = (AttrVal){.kind = ATTR_STR, .s = bad[attempt % 4]};
    return true;
  }
  if (!strcmp(n, "units") || !strcmp(n, "channels") || !strcmp(n, "indices_or_sections")) {
    if (cur->kind != ATTR_INT) return false;
    int64_t bad = cur->i + 1 + attempt;
    *v = (AttrVal){.kind = ATTR_INT, .i = bad, .f = (double)bad};
    return true;
  }
  return false;
}

/* The call's attributes with `key` set to value (replacing or adding it); items in scratch. */
static AstAttrs with_attr(AstModule *m, const AstExpr *call, const char *key, AstExpr *value, AstAttr **scratch,
                          AstAttr **old) {
  size_t n = 0;
  *old = NULL;
  for (size_t i = 0; i < call->attrs.len; i++) {
    if (!strcmp(call->attrs.items[i]->key, key)) {
      *old = call->attrs.items[i];
      scratch[n++] = ast_new_attr(m, key, value);
    } else
      scratch[n++] = call->attrs.items[i];
  }
  if (!*old) scratch[n++] = ast_new_attr(m, key, value);
  return (AstAttrs){scratch, n};
}

static bool bad_attr(MutContext *c, const Ill *w) {
  Cands cs = {0};
  for (size_t i = 0; i < w->sites.len; i++) {
    AstExpr *e = *w->sites.items[i].slot;
    const OpDef *op = call_op(c->m, e);
    if (!op || e->attrs.len >= 31) continue;
    Arena arena;
    arena_init(&arena);
    char err[256];
    const AstAttr *badp;
    const AttrVal *vals = op_attrs_from_ast(op, &e->attrs, &arena, err, sizeof err, &badp);
    for (size_t k = 0; vals && k < op->nattrs; k++) {
      for (unsigned attempt = 0; attempt < 4; attempt++) {
        Cand cand = {.site = &w->sites.items[i], .call = e, .arg = k};
        if (!bad_value(w, &op->attrs[k], &vals[k], e, &cand, attempt)) break;
        /* the value is built in the module's arena: candidates are few, the waste small */
        AstAttr *scratch[32], *old;
        AstAttrs attrs = with_attr(c->m, e, op->attrs[k].name, attr_to_ast(c->m, &cand.val), scratch, &old);
        if (op_rejects(c, w, e, e->nitems + 1, NULL, &attrs)) {
          VEC_PUSH(cs, cand);
          break;
        }
      }
    }
    arena_free(&arena);
  }
  Cand *k = pick(c, &cs);
  if (k) {
    if (k->val.kind == ATTR_LIST) k->val.items = k->items; /* the vector moved the candidates */
    const OpDef *op = call_op(c->m, k->call);
    const char *key = op->attrs[k->arg].name;
    AstExpr *value = attr_to_ast(c->m, &k->val);
    AstAttr **scratch = arena_alloc(&c->m->arena, (k->call->attrs.len + 1) * sizeof *scratch), *old;
    k->call->attrs = with_attr(c->m, k->call, key, value, scratch, &old);
    AstAttr *now = NULL;
    for (size_t i = 0; i < k->call->attrs.len; i++)
      if (!strcmp(k->call->attrs.items[i]->key, key)) now = k->call->attrs.items[i];
    const AstNode *at = old ? &old->node : &k->call->node;
    if (!at->span.line) at = &k->call->node;
    char text[64] = "";
    if (value->kind == AST_LIST) {
      size_t len = 0;
      text[len++] = '[';
      for (size_t i = 0; i < value->nitems && len < 40; i++)
        len += (size_t)snprintf(text + len, sizeof text - len, "%s%s", i ? ", " : "", value->items[i]->text);
      snprintf(text + len, sizeof text - len, "]");
    } else
      snprintf(text, sizeof text, "%s", value->text);
    mut_note(c, at, &now->node, "ill-typed bad-attr at %u:%u: %s's %s=%s", at->span.line, at->span.col,
             k->call->a->text, key, text);
  }
  free(cs.items);
  return k != NULL;
}

/* ------------------------------------------------------------------ unbound variable */
static bool is_use(const AstExpr *e, void *ctx) {
  (void)ctx;
  return e->kind == AST_LOCAL || e->kind == AST_GRAPH;
}

static bool unbound(MutContext *c, const Ill *w) {
  Cands cs = {0};
  for (size_t i = 0; i < w->sites.len; i++)
    if (is_use(*w->sites.items[i].slot, NULL)) VEC_PUSH(cs, ((Cand){.site = &w->sites.items[i]}));
  Cand *k = pick(c, &cs);
  if (k) {
    char name[48];
    for (unsigned n = (unsigned)rng_index(c->rng, 100);; n++) {
      snprintf(name, sizeof name, "undefined_%u", n);
      if (!local_taken(c->m, name)) break;
    }
    AstExpr *old = *k->site->slot, *now = ast_new_atom(c->m, AST_LOCAL, name);
    *k->site->slot = now;
    mut_note(c, &old->node, &now->node, "ill-typed unbound at %u:%u: %%%s replaced by %%%s", old->node.span.line,
             old->node.span.col, old->text, name);
  }
  free(cs.items);
  return k != NULL;
}

/* ------------------------------------------------------------------ wrong arity */
/* The number of arguments a non-operator call must have, or -1 when that is not known. */
static long fixed_arity(const AstModule *m, const AstExpr *e) {
  if (e->kind != AST_CALL) return -1;
  const AstExpr *f = e->a;
  if (f->kind == AST_NAME) {
    const AstCtorDef *ctor = find_ctor(m, f->text);
    return ctor ? (long)ctor->nfields : -1;
  }
  if (f->kind == AST_GLOBAL) {
    for (size_t i = 0; i < m->ndefs; i++)
      if (m->defs[i]->kind == AST_DEF_FN && !strcmp(m->defs[i]->name, f->text) && !m->defs[i]->fn->ntype_params)
        return (long)m->defs[i]->fn->nparams;
    return -1;
  }
  return f->node.type && f->node.type->kind == TY_FUNC && !f->node.type->ntparams ? (long)f->node.type->nargs : -1;
}

/* How a description names what a call calls: nn.conv2d, Cons, @f, %12, a closure. */
static const char *callee_name(const AstExpr *call, char *buf, size_t len) {
  const AstExpr *f = call->a;
  const char *sigil = f->kind == AST_GLOBAL ? "@" : f->kind == AST_LOCAL || f->kind == AST_GRAPH ? "%" : "";
  snprintf(buf, len, "%s%s", sigil, f->text ? f->text : "a function");
  return buf;
}

static bool wrong_arity(MutContext *c, const Ill *w) {
  Cands cs = {0};
  for (size_t i = 0; i < w->sites.len; i++) {
    AstExpr *e = *w->sites.items[i].slot;
    if (e->kind != AST_CALL) continue;
    const OpDef *op = call_op(c->m, e);
    /* arg: 0 drops an argument, 1 adds one; either way the count is out of the op's range, which
       op_infer checks before anything else */
    bool drop, add;
    if (op) {
      drop = e->nitems > 0 && (int)e->nitems - 1 < op->min_args;
      add = op->max_args >= 0 && (int)e->nitems + 1 > op->max_args;
    } else {
      long n = fixed_arity(c->m, e);
      if (n < 0 || (size_t)n != e->nitems) continue;
      drop = n > 0;
      add = true;
    }
    if (drop || add)
      VEC_PUSH(cs, ((Cand){.site = &w->sites.items[i], .call = e, .arg = add && (!drop || rng_chance(c->rng, 1, 2))}));
  }
  Cand *k = pick(c, &cs);
  if (k) {
    AstExpr *e = k->call;
    size_t n = e->nitems;
    AstExpr **items = arena_alloc(&c->m->arena, (n + 1) * sizeof *items);
    if (n) memcpy(items, e->items, n * sizeof *items);
    size_t which = n ? rng_index(c->rng, n) : 0;
    if (k->arg) {
      items[n] = n ? e->items[which] : ast_new_atom(c->m, AST_FLOAT, "0f");
      e->nitems = n + 1;
    } else {
      memmove(items + which, items + which + 1, (n - which - 1) * sizeof *items);
      e->nitems = n - 1;
    }
    e->items = items;
    char callee[96];
    mut_note(c, &e->node, &e->node, "ill-typed wrong-arity at %u:%u: %s called with %zu argument%s instead of %zu",
             e->node.span.line, e->node.span.col, callee_name(e, callee, sizeof callee), e->nitems,
             e->nitems == 1 ? "" : "s", n);
  }
  free(cs.items);
  return k != NULL;
}

/* ------------------------------------------------------------------ wrong annotation */
/* Whether a @main parameter annotated t is rejected where it is used: an operator argument the
   relation refuses, or the argument of a call of an annotated function (which must then match). */
static const AstExpr *use_rejects(MutContext *c, const Ill *w, const char *name, const Type *was, const Type *t) {
  for (size_t i = 0; i < w->sites.len; i++) {
    AstExpr *e = *w->sites.items[i].slot;
    if (!w->sites.items[i].in_main || e->kind != AST_CALL) continue;
    for (size_t a = 0; a < e->nitems; a++) {
      const AstExpr *x = e->items[a];
      if (x->kind != AST_LOCAL || strcmp(x->text, name) || type_of(w, x) != was) continue;
      if (call_op(c->m, e) ? op_rejects(c, w, e, a, t, NULL) : fixed_arity(c->m, e) == (long)e->nitems) return e;
    }
  }
  return NULL;
}

static bool wrong_annotation(MutContext *c, const Ill *w) {
  Cands cs = {0};
  /* let binders: the value keeps its type, so any other annotation is a mismatch */
  for (size_t i = 0; i < w->sites.len; i++) {
    AstExpr *e = *w->sites.items[i].slot;
    if (e->kind != AST_SEQ) continue;
    for (size_t s = 0; s < e->nstmts; s++) {
      AstStmt *st = e->stmts[s];
      if (st->kind != AST_STMT_LET || !known(st->value_type)) continue;
      const Type *t = other_type(c, st->value_type);
      if (t) VEC_PUSH(cs, ((Cand){.site = &w->sites.items[i], .binder = st->binder, .t = t}));
    }
  }
  /* @main's parameters, where a use rejects the new type, and its result annotation */
  AstDef *main = prog_main(c->m);
  const MutSite *msite = NULL;
  for (size_t i = 0; i < w->sites.len && !msite; i++)
    if (w->sites.items[i].in_main) msite = &w->sites.items[i];
  if (main && msite && main->fn->type && main->fn->type->kind == TY_FUNC) {
    const Type *ft = main->fn->type;
    for (size_t p = 0; p < main->fn->nparams && p < ft->nargs; p++) {
      if (!known(ft->args[p])) continue;
      const Type *t = other_type(c, ft->args[p]);
      const AstExpr *use = t ? use_rejects(c, w, main->fn->params[p]->name, ft->args[p], t) : NULL;
      if (use) VEC_PUSH(cs, ((Cand){.site = msite, .binder = main->fn->params[p], .t = t, .use = use}));
    }
    const Type *t = known(ft->ret) ? other_type(c, ft->ret) : NULL;
    if (t) VEC_PUSH(cs, ((Cand){.site = msite, .fn = main->fn, .t = t}));
  }
  Cand *k = pick(c, &cs);
  if (k) {
    char *ts = ty_str(k->t);
    AstType *now = ty_to_ast(c->m, k->t);
    if (k->binder) {
      const AstNode *at = &k->binder->node;
      k->binder->type = now;
      char use[160] = "", callee[96];
      if (k->use)
        snprintf(use, sizeof use, " (refused by %s at %u:%u)", callee_name(k->use, callee, sizeof callee),
                 k->use->node.span.line, k->use->node.span.col);
      mut_note(c, at, &k->binder->node, "ill-typed wrong-annotation at %u:%u: %%%s annotated %s%s", at->span.line,
               at->span.col, k->binder->name, ts, use);
    } else {
      AstSpan where = k->fn->ret ? k->fn->ret->node.span : main->node.span;
      k->fn->ret = now;
      mut_note(c, &now->node, &now->node, "ill-typed wrong-annotation at %u:%u: @main's result annotated %s",
               where.line, where.col, ts);
      c->where = where;
    }
    free(ts);
  }
  free(cs.items);
  return k != NULL;
}

/* ------------------------------------------------------------------ the kinds */
typedef bool (*IllKind)(MutContext *c, const Ill *w);
static const IllKind kinds[] = {wrong_rank, wrong_dtype, bad_attr, unbound, wrong_arity, wrong_annotation};
enum { NKINDS = sizeof kinds / sizeof kinds[0] };

bool mut_ill_typed(MutContext *c) {
  Ill w;
  ill_init(&w, c->m);
  size_t order[NKINDS];
  for (size_t i = 0; i < NKINDS; i++) order[i] = i;
  for (size_t i = NKINDS - 1; i > 0; i--) {
    size_t j = rng_index(c->rng, i + 1), t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  bool ok = false;
  for (size_t i = 0; i < NKINDS && !ok; i++) ok = kinds[order[i]](c, &w);
  ill_free(&w);
  return ok;
}
