/* Attributes: give one attribute of an operator call a new value that keeps the call's result type
   (so the rest of the program is untouched).  Candidates: integers nudged (+-1) or set to 0, 1, 2;
   booleans flipped; floats halved, doubled or incremented; one element of an integer list nudged
   (strides and dilations stay positive), or a unit of padding moved from one side to the other
   ([1, 1, 1, 1] -> [0, 1, 2, 1] keeps the shape);
   dtypes from a few; strings only where their valid values are known (layouts are left alone).
   Each candidate is typed with the op's relation on the call's argument types; one that gives the
   same result type is chosen at random. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../typegen/ops/ops.h"
#include "expr_type.h"

enum { MAX_TRIES = 8, MAX_CANDS = 256 };

typedef struct Cand {
  size_t attr;   /* schema index */
  AttrVal val;
} Cand;
typedef VEC(Cand) Cands;

/* String attributes whose valid values are known, per op. */
static const struct {
  const char *op, *attr, *values[4];
} known_strings[] = {
    {"nn.pad", "pad_mode", {"constant", "edge", "reflect"}},
    {"nn.upsampling", "method", {"nearest_neighbor", "bilinear", "bicubic"}},
    {"image.resize2d", "method", {"nearest_neighbor", "linear", "cubic"}},
    {"image.resize2d", "coordinate_transformation_mode", {"half_pixel", "align_corners", "asymmetric"}},
    {"take", "mode", {"clip", "wrap", "fast"}},
};

static const char *const dtypes[] = {"", "float32", "float16", "float64", "int32", "int64"};

static void add(Cands *cs, size_t k, AttrVal v) { VEC_PUSH(*cs, ((Cand){k, v})); }

static void add_int(Cands *cs, size_t k, AttrKind kind, int64_t now, int64_t v) {
  if (v != now) add(cs, k, (AttrVal){.kind = kind, .i = v, .f = (double)v});
}

/* A copy of list `l` with element j set to v (and element j2 to v2 when j2 < n). */
static void add_list(Cands *cs, Arena *a, size_t k, const AttrVal *l, size_t j, int64_t v, size_t j2, int64_t v2) {
  AttrVal *items = arena_alloc(a, l->n * sizeof *items);
  memcpy(items, l->items, l->n * sizeof *items);
  items[j].i = v;
  items[j].f = (double)v;
  if (j2 < l->n) {
    items[j2].i = v2;
    items[j2].f = (double)v2;
  }
  add(cs, k, (AttrVal){.kind = ATTR_LIST, .items = items, .n = l->n});
}

static bool int_list(const AttrVal *v) {
  if (v->kind != ATTR_LIST || v->n == 0) return false;
  for (size_t i = 0; i < v->n; i++)
    if (v->items[i].kind != ATTR_INT) return false;
  return true;
}

/* Every candidate value of attribute k (now: its current value). */
static void candidates(const OpDef *op, size_t k, const AttrVal *now, Arena *a, Cands *cs) {
  const OpAttrSpec *spec = &op->attrs[k];
  switch (spec->type) {
  case AT_INT:
    if (now->kind != ATTR_INT) return;
    for (int64_t d = -1; d <= 1; d += 2) add_int(cs, k, ATTR_INT, now->i, now->i + d);
    for (int64_t v = 0; v <= 2; v++)
      if (v != now->i - 1 && v != now->i + 1) add_int(cs, k, ATTR_INT, now->i, v);
    return;
  case AT_BOOL:
    if (now->kind == ATTR_BOOL) add_int(cs, k, ATTR_BOOL, now->i, !now->i);
    return;
  case AT_FLOAT:
    if (now->kind != ATTR_FLOAT && now->kind != ATTR_INT) return;
    add(cs, k, (AttrVal){.kind = ATTR_FLOAT, .f = now->f * 0.5});
    add(cs, k, (AttrVal){.kind = ATTR_FLOAT, .f = now->f * 2});
    add(cs, k, (AttrVal){.kind = ATTR_FLOAT, .f = now->f + 1});
    return;
  case AT_INTS:
    if (!int_list(now)) return;
    /* strides, dilations, sizes stay positive (TVM's relations do not all check); paddings and
       axes may be 0 */
    int64_t min = strstr(spec->name, "pad") || strstr(spec->name, "ax") ? 0 : 1;
    for (size_t j = 0; j < now->n; j++) {
      int64_t x = now->items[j].i;
      add_list(cs, a, k, now, j, x + 1, now->n, 0);
      if (x > min) add_list(cs, a, k, now, j, x - 1, now->n, 0);
      if (x > 2) add_list(cs, a, k, now, j, 1, now->n, 0);
    }
    /* a unit of padding moved from one side to the other: [1, 1, 1, 1] -> [0, 1, 2, 1] */
    if (now->n % 2 == 0 && strstr(spec->name, "pad"))
      for (size_t j = 0; j < now->n / 2; j++) {
        size_t j2 = j + now->n / 2;
        int64_t x = now->items[j].i, y = now->items[j2].i;
        if (x > 0) add_list(cs, a, k, now, j, x - 1, j2, y + 1);
        if (y > 0) add_list(cs, a, k, now, j, x + 1, j2, y - 1);
      }
    return;
  case AT_DTYPE:
    if (now->kind != ATTR_STR) return;
    for (size_t i = 0; i < sizeof dtypes / sizeof *dtypes; i++)
      if (strcmp(dtypes[i], now->s)) add(cs, k, (AttrVal){.kind = ATTR_STR, .s = dtypes[i]});
    return;
  case AT_STR:
    if (now->kind != ATTR_STR) return;
    for (size_t i = 0; i < sizeof known_strings / sizeof *known_strings; i++)
      if (!strcmp(known_strings[i].op, op->name) && !strcmp(known_strings[i].attr, spec->name))
        for (size_t j = 0; j < 4 && known_strings[i].values[j]; j++)
          if (strcmp(known_strings[i].values[j], now->s)) add(cs, k, (AttrVal){.kind = ATTR_STR, .s = known_strings[i].values[j]});
    return;
  default: return;
  }
}

static const OpDef *called_op(const AstExpr *e) {
  if (e->kind != AST_CALL || !e->a || e->a->kind != AST_NAME || !e->node.type) return NULL;
  return op_lookup(e->a->text);
}

static bool want(const MutSite *s, void *ctx) {
  (void)ctx;
  const AstExpr *e = *s->slot;
  const OpDef *op = called_op(e);
  return op && op->nattrs > 0;
}

/* The call's attributes with attribute `name` set to the AST value v (added when absent). */
static AstAttrs with_attr(AstModule *m, const AstAttrs *attrs, const char *name, AstExpr *v) {
  AstAttrs out = {arena_alloc(&m->arena, (attrs->len + 1) * sizeof *out.items), 0};
  bool found = false;
  for (size_t i = 0; i < attrs->len; i++) {
    bool same = !strcmp(attrs->items[i]->key, name);
    out.items[out.len++] = same ? ast_new_attr(m, name, v) : attrs->items[i];
    found |= same;
  }
  if (!found) out.items[out.len++] = ast_new_attr(m, name, v);
  return out;
}

/* The type of `call` with attributes `attrs`, by the op's relation (NULL if rejected). */
static const Type *type_with(MutContext *c, const GenVars *scope, const OpDef *op, const AstExpr *call,
                             const AstAttrs *attrs) {
  const Type *args[OP_MAX_ARGS * 2];
  if (call->nitems > sizeof args / sizeof *args) return NULL;
  for (size_t i = 0; i < call->nitems; i++)
    if (!(args[i] = mut_expr_type(scope, call->items[i]))) return NULL;
  OpCall oc = {.types = c->types};
  return op_infer(&oc, op, args, call->nitems, attrs, &c->m->arena);
}

/* A value for the log line: 3, 0.5, True, "NCHW", [1, 2]. */
static void val_text(const AttrVal *v, char *buf, size_t size) {
  size_t n = 0;
  switch (v->kind) {
  case ATTR_INT: snprintf(buf, size, "%lld", (long long)v->i); return;
  case ATTR_BOOL: snprintf(buf, size, "%s", v->i ? "True" : "False"); return;
  case ATTR_FLOAT: snprintf(buf, size, "%g", v->f); return;
  case ATTR_STR: snprintf(buf, size, "\"%s\"", v->s); return;
  case ATTR_LIST:
    n += (size_t)snprintf(buf, size, "[");
    for (size_t i = 0; i < v->n && n < size; i++)
      n += (size_t)snprintf(buf + n, size - n, "%s%lld", i ? ", " : "", (long long)v->items[i].i);
    if (n < size) snprintf(buf + n, size - n, "]");
    return;
  default: snprintf(buf, size, "None"); return;
  }
}

/* Tries the candidates of one call in random order; true once one keeps the call's type. */
static bool change(MutContext *c, const GenVars *scope, AstExpr *call) {
  const OpDef *op = called_op(call);
  char err[256];
  const AstAttr *bad;
  const AttrVal *now = op_attrs_from_ast(op, &call->attrs, &c->m->arena, err, sizeof err, &bad);
  if (!now) return false;
  Cands cs = {0};
  for (size_t k = 0; k < op->nattrs; k++) candidates(op, k, &now[k], &c->m->arena, &cs);
  bool ok = false;
  while (cs.len > 0 && !ok) {
    size_t pick = rng_index(c->rng, cs.len);
    Cand cand = cs.items[pick];
    cs.items[pick] = cs.items[--cs.len];
    const char *name = op->attrs[cand.attr].name;
    AstAttrs attrs = with_attr(c->m, &call->attrs, name, attr_to_ast(c->m, &cand.val));
    if (type_with(c, scope, op, call, &attrs) != call->node.type) continue;
    call->attrs = attrs;
    char was[128], is[128];
    val_text(&now[cand.attr], was, sizeof was);
    val_text(&cand.val, is, sizeof is);
    mut_note(c, &call->node, &call->node, "attrs %s %s: %s -> %s at %u:%u", op->name, name, was, is,
             call->node.span.line, call->node.span.col);
    ok = true;
  }
  free(cs.items);
  return ok;
}

bool mut_attrs(MutContext *c) {
  MutSites sites = {0};
  mut_sites_to_change(c, &sites);
  bool ok = false;
  for (int tries = 0; tries < MAX_TRIES && !ok; tries++) {
    const MutSite *s = mut_pick(c, &sites, want, NULL);
    if (!s) break;
    GenVars scope = {0};
    mut_scope_at(c->m, s, &scope);
    ok = change(c, &scope, *s->slot);
    free(scope.items);
  }
  free(sites.items);
  return ok;
}
