/* Insert: wrap a value e of type T in a chain that returns T: a let, an if whose other branch is
   generated, a tuple round trip, a closure call, an arithmetic identity, or a pair of operators
   that undo each other (reshape, transpose, expand_dims/squeeze, cast). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../typegen/ops/ops.h"
#include "edit.h"

typedef enum Form { F_LET, F_IF, F_TUPLE, F_CLOSURE, F_IDENTITY, F_RESHAPE, F_TRANSPOSE, F_EXPAND, F_CAST, NFORMS } Form;

static const char *const form_names[NFORMS] = {"let",      "if",           "tuple",          "closure",  "identity",
                                               "reshape-pair", "transpose-pair", "expand-squeeze", "cast-pair"};

static bool float_tensor(const Type *t) { return t->kind == TY_TENSOR && dtype_is_float(t->dtype) && t->dtype.lanes == 1; }

/* Whether form f can wrap e (of type t) at site s. */
static bool applies(Form f, const MutSite *s, const AstExpr *e, const Type *t) {
  bool plain = mut_site_plain(s), tensor = t->kind == TY_TENSOR;
  switch (f) {
  case F_LET:
  case F_TUPLE: return plain;
  case F_IF: return plain && gen_smallest_is_exact(t, true);
  case F_CLOSURE: return plain && ty_is_readable(t);
  case F_IDENTITY: return float_tensor(t) && (plain || mut_is_var(e));
  case F_RESHAPE: return tensor && t->ndims >= 1 && ty_num_elements(t) >= 0;
  case F_TRANSPOSE: return tensor && t->ndims >= 2;
  case F_EXPAND: return tensor;
  case F_CAST: return float_tensor(t) && t->dtype.bits <= 32;
  default: return false;
  }
}

static bool wrappable(const MutSite *s) {
  const AstExpr *e = *s->slot;
  const Type *t = s->type;
  if (!t || t->kind == TY_FUNC || e->kind == AST_SEQ || e->kind == AST_FN) return false;
  for (Form f = 0; f < NFORMS; f++)
    if (applies(f, s, e, t)) return true;
  return false;
}

/* ------------------------------------------------------------------ building blocks */
static AstExpr *call1(AstModule *m, const char *op, AstExpr *arg, AstAttr *attr) {
  return ast_new_call(m, ast_new_atom(m, AST_NAME, op), &arg, 1, &attr, attr ? 1 : 0);
}

static AstExpr *int_list(AstModule *m, const int64_t *v, size_t n) {
  AstExpr **items = xmalloc((n ? n : 1) * sizeof *items);
  for (size_t i = 0; i < n; i++) items[i] = ast_new_atom(m, AST_INT, arena_printf(&m->arena, "%lld", (long long)v[i]));
  AstExpr *l = ast_new_list(m, items, n);
  free(items);
  return l;
}

static AstAttr *ints_attr(AstModule *m, const char *key, const int64_t *v, size_t n) {
  return ast_new_attr(m, key, int_list(m, v, n));
}

static AstExpr *paren_let(AstModule *m, const char *v, AstExpr *value, AstExpr *body) {
  AstStmt *st = ast_new_let(m, ast_new_binder(m, v, NULL), value);
  return ast_new_unary(m, AST_PAREN, ast_new_seq(m, &st, 1, body));
}

/* add(x, zeros_like(x)) or multiply(x, ones_like(x)), with x a variable named `x`. */
static AstExpr *identity_of(AstModule *m, Rng *rng, const char *x) {
  bool add = rng_chance(rng, 1, 2);
  AstExpr *args[2] = {mut_var_ref(m, x), call1(m, add ? "zeros_like" : "ones_like", mut_var_ref(m, x), NULL)};
  return ast_new_call(m, ast_new_atom(m, AST_NAME, add ? "add" : "multiply"), args, 2, NULL, 0);
}

/* ------------------------------------------------------------------ the forms */
static AstExpr *build(MutContext *c, Form f, AstExpr *e, const Type *t, Gen *g) {
  AstModule *m = c->m;
  switch (f) {
  case F_LET: {
    const char *v = prog_fresh_name(m, "mv");
    return paren_let(m, v, e, mut_var_ref(m, v));
  }
  case F_IF: {
    AstExpr *other = rng_chance(c->rng, 1, 2) ? gen_smallest(g, t) : gen_expr(g, t, c->fuel);
    bool first = rng_chance(c->rng, 1, 2);
    AstExpr *cond;
    if (rng_chance(c->rng, 1, 3)) cond = gen_expr(g, ty_scalar(c->types, dt_bool), c->fuel);
    else cond = ast_new_atom(m, AST_BOOL, first ? "True" : "False");
    return ast_new_if(m, cond, first ? e : other, first ? other : e);
  }
  case F_TUPLE: {
    size_t n = 1 + rng_index(c->rng, 3), k = rng_index(c->rng, n);
    AstExpr *items[3];
    for (size_t i = 0; i < n; i++) items[i] = i == k ? e : gen_smallest(g, gen_random_type(g));
    return ast_new_proj(m, ast_new_tuple(m, items, n), (unsigned)k);
  }
  case F_CLOSURE: {
    const char *fv = prog_fresh_name(m, "mf"), *p = prog_fresh_name(m, "mp");
    AstBinder *param = ast_new_binder(m, p, ty_to_ast(m, t));
    AstExpr *body = float_tensor(t) && rng_chance(c->rng, 1, 2) ? identity_of(m, c->rng, p) : mut_var_ref(m, p);
    AstExpr *fn = ast_new_fn(m, ast_new_func(m, NULL, 0, &param, 1, ty_to_ast(m, t), body));
    return paren_let(m, fv, fn, ast_new_call(m, mut_var_ref(m, fv), &e, 1, NULL, 0));
  }
  case F_IDENTITY: {
    if (mut_is_var(e)) return identity_of(m, c->rng, e->text);
    const char *v = prog_fresh_name(m, "mv");
    return paren_let(m, v, e, identity_of(m, c->rng, v));
  }
  case F_RESHAPE: {
    int64_t flat = -1;
    AstExpr *inner = call1(m, "reshape", e, ints_attr(m, "newshape", &flat, 1));
    return call1(m, "reshape", inner, ints_attr(m, "newshape", t->dims, t->ndims));
  }
  case F_TRANSPOSE: {
    size_t n = t->ndims;
    int64_t *perm = xmalloc(n * sizeof *perm), *inv = xmalloc(n * sizeof *inv);
    for (size_t i = 0; i < n; i++) perm[i] = (int64_t)i;
    for (size_t i = n - 1; i > 0; i--) {
      size_t j = rng_index(c->rng, i + 1);
      int64_t tmp = perm[i];
      perm[i] = perm[j];
      perm[j] = tmp;
    }
    bool same = true;
    for (size_t i = 0; i < n; i++) same &= perm[i] == (int64_t)i;
    if (same) { /* a pair of identities says nothing: swap the last two axes */
      perm[n - 1] = (int64_t)n - 2;
      perm[n - 2] = (int64_t)n - 1;
    }
    for (size_t i = 0; i < n; i++) inv[perm[i]] = (int64_t)i;
    AstExpr *inner = call1(m, "transpose", e, ints_attr(m, "axes", perm, n));
    AstExpr *outer = call1(m, "transpose", inner, ints_attr(m, "axes", inv, n));
    free(perm);
    free(inv);
    return outer;
  }
  case F_EXPAND: {
    int64_t axis = (int64_t)rng_index(c->rng, t->ndims + 1);
    AstExpr *inner = call1(m, "expand_dims", e,
                           ast_new_attr(m, "axis", ast_new_atom(m, AST_INT, arena_printf(&m->arena, "%lld", (long long)axis))));
    return call1(m, "squeeze", inner, ints_attr(m, "axis", &axis, 1));
  }
  case F_CAST: {
    char buf[16];
    const char *wide = t->dtype.bits < 32 && rng_chance(c->rng, 1, 2) ? "float32" : "float64";
    AstExpr *inner = call1(m, "cast", e, ast_new_attr(m, "dtype", ast_new_atom(m, AST_STRING, arena_printf(&m->arena, "\"%s\"", wide))));
    return call1(m, "cast", inner,
                 ast_new_attr(m, "dtype", ast_new_atom(m, AST_STRING, arena_printf(&m->arena, "\"%s\"", dtype_str(t->dtype, buf)))));
  }
  default: return e;
  }
}

static bool want(const MutSite *s, void *ctx) {
  (void)s;
  (void)ctx;
  return true;
}

bool mut_insert(MutContext *c) {
  MutSites all = {0}, sites = {0};
  mut_sites_to_change(c, &all);
  for (size_t i = 0; i < all.len; i++)
    if (wrappable(&all.items[i])) VEC_PUSH(sites, all.items[i]);
  free(all.items);
  const MutSite *s = mut_pick(c, &sites, want, NULL);
  if (!s) {
    free(sites.items);
    return false;
  }
  AstExpr *old = *s->slot;
  const Type *t = s->type;
  Form forms[NFORMS];
  size_t n = 0;
  for (Form f = 0; f < NFORMS; f++)
    if (applies(f, s, old, t)) forms[n++] = f;
  Form f = forms[rng_index(c->rng, n)];
  Gen g;
  GenStmts block = {0};
  mut_gen_at(c, s, &g, &block);
  AstExpr *e = build(c, f, old, t, &g);
  mut_place(c, s, e, &block);
  mut_note(c, &old->node, &(*s->slot)->node, "insert %s %u:%u", form_names[f], old->node.span.line, old->node.span.col);
  free(block.items);
  gen_free(&g);
  free(sites.items);
  return true;
}
