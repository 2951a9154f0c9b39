/* Helpers shared by the issue-12 families (see opx.h). */
#include "opx.h"

#include "../../support/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ relations */

bool opx_required(OpCall *c, const char *name) {
  if (!op_is_none(c, name)) return true;
  op_fail(c, -1, "%s: Cannot find required field '%s' during initialization", c->op->name, name);
  return false;
}

long opx_ints(OpCall *c, const char *name, int64_t *out, size_t max) {
  if (!opx_required(c, name)) return -1;
  const AttrVal *v = op_attr(c, name);
  if (v->kind == ATTR_INT) {
    if (max < 1) goto too_long;
    out[0] = v->i;
    return 1;
  }
  if (v->kind != ATTR_LIST) {
    op_fail(c, -1, "%s: attribute '%s' must be a list of integers", c->op->name, name);
    return -1;
  }
  if (v->n > max) goto too_long;
  for (size_t i = 0; i < v->n; i++) {
    if (v->items[i].kind != ATTR_INT) {
      op_fail(c, -1, "%s: attribute '%s' must hold constant integers", c->op->name, name);
      return -1;
    }
    out[i] = v->items[i].i;
  }
  return (long)v->n;
too_long:
  op_fail(c, -1, "%s: attribute '%s' has more than %zu values", c->op->name, name, max);
  return -1;
}

long opx_pairs(OpCall *c, const char *name, int64_t (*out)[2], size_t max, const char *pair_msg) {
  if (!opx_required(c, name)) return -1;
  const AttrVal *v = op_attr(c, name);
  if (v->kind != ATTR_LIST) {
    op_fail(c, -1, "%s: attribute '%s' must be a list of pairs of integers", c->op->name, name);
    return -1;
  }
  if (v->n > max) {
    op_fail(c, -1, "%s: attribute '%s' has more than %zu pairs", c->op->name, name, max);
    return -1;
  }
  for (size_t i = 0; i < v->n; i++) {
    const AttrVal *p = &v->items[i];
    size_t len = p->kind == ATTR_LIST ? p->n : 1;
    if (len != 2) {
      char msg[OP_ERR_MAX];
      snprintf(msg, sizeof msg, pair_msg, i, len);
      op_fail(c, -1, "%s: %s", c->op->name, msg);
      return -1;
    }
    if (p->items[0].kind != ATTR_INT || p->items[1].kind != ATTR_INT) {
      op_fail(c, -1, "%s: attribute '%s' must hold constant integers (pair %zu)", c->op->name, name, i);
      return -1;
    }
    out[i][0] = p->items[0].i;
    out[i][1] = p->items[1].i;
  }
  return (long)v->n;
}

const char *opx_dims_str(const int64_t *d, size_t n, char *buf, size_t cap) {
  size_t len = (size_t)snprintf(buf, cap, "[");
  for (size_t i = 0; i < n && len < cap; i++) {
    if (d[i] == OPX_ANY)
      len += (size_t)snprintf(buf + len, cap - len, "%s?", i ? ", " : "");
    else
      len += (size_t)snprintf(buf + len, cap - len, "%s%lld", i ? ", " : "", (long long)d[i]);
  }
  if (len < cap) snprintf(buf + len, cap - len, "]");
  return buf;
}

const char *opx_dt(DType d, char *buf) {
  if (d.code == DT_VOID) return strcpy(buf, "void");
  return dtype_str(d, buf);
}

bool opx_assign(OpCall *c, size_t i, DType dtype, const int64_t *dims, size_t n) {
  const Type *t = op_tensor_arg(c, i);
  if (!t) return false;
  bool ok = dtype_eq(t->dtype, dtype) && t->ndims == n;
  for (size_t k = 0; ok && k < n; k++)
    ok = opx_dim_match(t->dims[k], dims[k]);
  if (ok) return true;
  char *got = ty_str(t), *want = ty_str(ty_tensor(c->types, dtype, dims, n));
  op_fail(c, (int)i, "%s: argument %zu has type %s, but the relation requires %s", c->op->name, i + 1, got,
          want);
  free(got);
  free(want);
  return false;
}

int64_t opx_floordiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) q--;
  return q;
}

bool opx_nonneg(OpCall *c, const int64_t *dims, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (dims[i] < 0) {
      op_fail(c, -1, "%s: the result shape would have a negative dimension (%lld)", c->op->name,
              (long long)dims[i]);
      return false;
    }
  return true;
}

bool opx_dim_ok(OpCall *c, int64_t v) { return opx_nonneg(c, &v, 1); }

/* ------------------------------------------------------------------ generators */

bool opx_gen_ok(const Type *t, OpDtypes cls, unsigned lo, unsigned hi) {
  if (hi > OPX_RANK_MAX) hi = OPX_RANK_MAX;
  if (t->kind != TY_TENSOR || t->ndims < lo || t->ndims > hi) return false;
  if (!opgen_dtype_in_class(cls, t->dtype)) return false;
  int64_t n = 1;
  for (uint32_t i = 0; i < t->ndims; i++) {
    if (t->dims[i] < 1 || t->dims[i] > OPX_ELEMENTS_MAX) return false;
    n *= t->dims[i];
    if (n > OPX_ELEMENTS_MAX) return false;
  }
  return true;
}

void opx_gen_dims(OpGen *g, size_t n, int64_t budget, int64_t *dims) {
  int64_t el = 1;
  for (size_t i = 0; i < n; i++) {
    int64_t cap = budget / el;
    if (cap > g->policy->max_dim) cap = g->policy->max_dim;
    if (cap < 1) cap = 1;
    dims[i] = rng_range(g->rng, 1, cap);
    el *= dims[i];
  }
}

int64_t opx_gen_divisor(OpGen *g, int64_t n, int64_t cap) {
  int64_t pick = 1, seen = 0;
  for (int64_t i = 1; i <= n / i; i++) {
    if (n % i) continue;
    int64_t pair[2] = {i, n / i};
    for (int k = 0; k < (i == n / i ? 1 : 2); k++)
      if (pair[k] <= cap && rng_index(g->rng, (size_t)++seen) == 0) pick = pair[k];
  }
  return pick;
}

void opx_gen_factors(OpGen *g, int64_t total, size_t n, int64_t *out) {
  size_t last = rng_index(g->rng, n);
  for (size_t i = 0; i < n; i++) {
    if (i == last) continue;
    out[i] = opx_gen_divisor(g, total, g->policy->max_dim);
    total /= out[i];
  }
  out[last] = total;
}

const Type *opx_gen_partner(OpGen *g, const Type *t, DType dt) {
  int64_t dims[OPX_RANK_MAX];
  size_t drop = t->ndims && rng_chance(g->rng, 1, 3) ? (size_t)rng_range(g->rng, 0, t->ndims) : 0, n = 0;
  for (size_t i = drop; i < t->ndims && n < OPX_RANK_MAX; i++)
    dims[n++] = rng_chance(g->rng, 1, 3) ? 1 : t->dims[i];
  return ty_tensor(g->types, dt, dims, n);
}

DType opx_gen_index_dtype(OpGen *g) { return rng_chance(g->rng, 1, 2) ? dt_int32 : dt_int64; }

const Type *opx_gen_tensor(OpGen *g, DType dt, const int64_t *dims, size_t n) {
  return ty_tensor(g->types, dt, dims, n);
}

const Type *opx_gen_vec(OpGen *g, DType dt, int64_t n) { return ty_tensor(g->types, dt, &n, 1); }

static AttrVal *slot(const OpDef *op, OpPlan *p, const char *name) {
  for (size_t k = 0; k < op->nattrs; k++)
    if (!strcmp(op->attrs[k].name, name)) return &p->attrs[k];
  abort(); /* a generator names an attribute its own schema lacks: a bug in the table */
}

void opx_set_dtype(OpGen *g, const OpDef *op, OpPlan *p, const char *name, DType d) {
  char buf[16];
  opgen_set_str(g, op, p, name, dtype_str(d, buf));
}

void opx_set_pairs(OpGen *g, const OpDef *op, OpPlan *p, const char *name, const int64_t (*pairs)[2],
                   size_t n) {
  AttrVal *items = arena_alloc(g->arena, (n ? n : 1) * sizeof *items);
  for (size_t i = 0; i < n; i++) {
    AttrVal *two = arena_alloc(g->arena, 2 * sizeof *two);
    for (int k = 0; k < 2; k++)
      two[k] = (AttrVal){.kind = ATTR_INT, .i = pairs[i][k], .f = (double)pairs[i][k]};
    items[i] = (AttrVal){.kind = ATTR_LIST, .items = two, .n = 2};
  }
  *slot(op, p, name) = (AttrVal){.kind = ATTR_LIST, .items = items, .n = n};
}
