/* Helpers shared by the vision, image, dyn and random families (see spatial_util.h). */
#include "spatial_util.h"
#include "opx.h"

#include "../../support/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ================================================================== relations */

const char *su_dtype_name(DType d, char *buf) {
  if (d.code == DT_VOID) return strcpy(buf, "void");
  return dtype_str(d, buf);
}

bool su_required(OpCall *c, const char *name) {
  if (!op_is_none(c, name)) return true;
  op_fail(c, -1, "%s: Cannot find required field '%s' during initialization", c->op->name, name);
  return false;
}

long su_ints(OpCall *c, const char *name, int64_t *out, size_t max) {
  const AttrVal *v = op_attr(c, name);
  if (v->kind == ATTR_NONE) return 0;
  if (v->kind != ATTR_INT && v->kind != ATTR_LIST) {
    op_fail(c, -1, "%s: attribute '%s' must be a list of integers", c->op->name, name);
    return -1;
  }
  size_t n = op_ints(c, name, out, max);
  for (size_t i = 0; i < n && i < max; i++)
    if (v->kind == ATTR_LIST && v->items[i].kind != ATTR_INT) {
      op_fail(c, -1, "%s: attribute '%s' must hold constant integers", c->op->name, name);
      return -1;
    }
  return (long)n;
}

long su_list_len(OpCall *c, const char *name) {
  const AttrVal *v = op_attr(c, name);
  if (v->kind == ATTR_NONE) return 0;
  if (v->kind == ATTR_LIST) return (long)v->n;
  op_fail(c, -1, "%s: attribute '%s' must be a list", c->op->name, name);
  return -1;
}

const Type *su_ranked(OpCall *c, size_t i, size_t rank, const char *msg) {
  const Type *t = op_tensor_arg(c, i);
  if (!t) return NULL;
  if (t->ndims == rank) return t;
  op_fail(c, (int)i, "%s: %s (argument %zu has rank %u)", c->op->name, msg, i + 1, t->ndims);
  return NULL;
}

bool su_assign(OpCall *c, size_t i, const Type *want) {
  const Type *t = c->args[i];
  bool ok = t->kind == TY_TENSOR && dtype_eq(t->dtype, want->dtype) && t->ndims == want->ndims;
  size_t bad = (size_t)-1;
  for (size_t k = 0; ok && k < want->ndims; k++)
    if (t->dims[k] != want->dims[k] && t->dims[k] != SU_ANY && want->dims[k] != SU_ANY) {
      ok = false;
      bad = k;
    }
  if (ok) return true;
  char *got = ty_str(t), *w = ty_str(want);
  if (bad != (size_t)-1)
    op_fail(c, (int)i,
            "%s: argument %zu has type %s, but the relation requires %s (dimension %zu conflicts: %lld does "
            "not match %lld)",
            c->op->name, i + 1, got, w, bad, (long long)t->dims[bad], (long long)want->dims[bad]);
  else
    op_fail(c, (int)i, "%s: argument %zu has type %s, but the relation requires %s", c->op->name, i + 1, got,
            w);
  free(got);
  free(w);
  return false;
}

bool su_add_exact(int64_t a, int64_t b, int64_t *out) {
  if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b)) return false;
  *out = a + b;
  return true;
}

bool su_mul_exact(int64_t a, int64_t b, int64_t *out) {
  if (a == 0 || b == 0) {
    *out = 0;
    return true;
  }
  bool over = a > 0 ? (b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a)
                    : (b > 0 ? a < INT64_MIN / b : b < INT64_MAX / a);
  if (over) return false;
  *out = a * b;
  return true;
}

int64_t su_mul(int64_t a, int64_t b) {
  if (a == 0 || b == 0) return 0;
  int64_t r;
  return a == SU_ANY || b == SU_ANY || !su_mul_exact(a, b, &r) ? SU_ANY : r;
}

int64_t su_floordiv(int64_t a, int64_t b) {
  if (a == SU_ANY || b == SU_ANY || (a == INT64_MIN && b == -1)) return SU_ANY;
  return opx_floordiv(a, b);
}

bool su_nonneg(OpCall *c, const char *what, const int64_t *v, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (v[i] < 0) {
      op_fail(c, -1, "%s: %s would make a negative dimension (%lld)", c->op->name, what, (long long)v[i]);
      return false;
    }
  return true;
}

const Type *su_all_any(OpCall *c, DType dt, size_t rank) {
  if (rank > OP_RANK_LIMIT)
    return op_fail(c, -1, "%s: the result would have rank %zu (the limit is %d)", c->op->name, rank, OP_RANK_LIMIT);
  int64_t *dims = xmalloc((rank ? rank : 1) * sizeof *dims);
  for (size_t i = 0; i < rank; i++)
    dims[i] = SU_ANY;
  const Type *t = ty_tensor(c->types, dt, dims, rank);
  free(dims);
  return t;
}

bool su_keyed_attrs(OpCall *c, const char *key, bool reads_attrs) {
  const AttrVal *k = op_attr(c, "attrs_type_key");
  if (k->kind == ATTR_STR) {
    if (!strcmp(k->s, key)) return true;
    op_fail(c, -1, "%s: attrs_type_key must be \"%s\", got \"%s\"", c->op->name, key, k->s);
    return false;
  }
  if (k->kind != ATTR_NONE) {
    op_fail(c, -1, "%s: attrs_type_key must be a string", c->op->name);
    return false;
  }
  for (size_t i = 0; i < c->op->nattrs; i++)
    if (strcmp(c->op->attrs[i].name, "attrs_type_key") != 0 && !op_attr_equals_default(c->op, i, &c->attrs[i])) {
      op_fail(
          c, -1,
          "%s: unable to determine the 'attrs_type_key' with which to represent the call attributes for this "
          "operator (write attrs_type_key=\"%s\")",
          c->op->name, key);
      return false;
    }
  if (!reads_attrs) return true;
  op_fail(
      c, -1,
      "%s: the call has no attributes, which the type relation needs (TVM registers no attrs type for this "
      "operator: write attrs_type_key=\"%s\")",
      c->op->name, key);
  return false;
}

/* ------------------------------------------------------------------ layouts */

bool su_layout_to(OpCall *c, const char *attr, const char *canon, const char *fmt, Layout *l,
                  Layout *cl) {
  layout_parse(c, "", canon, cl);
  if (!layout_parse(c, attr, op_str(c, attr), l)) return false;
  if (layout_convertible(l, cl)) return true;
  if (!fmt) {
    op_fail(c, -1, "%s: Cannot operate on an undefined bijective layout (%s to %s)", c->op->name, l->name,
            canon);
    return false;
  }
  char msg[256];
  snprintf(msg, sizeof msg, fmt, l->name);
  op_fail(c, -1, "%s: %s", c->op->name, msg);
  return false;
}

/* ================================================================== generators */

bool su_static_ok(const Type *t, OpDtypes cls, unsigned lo, unsigned hi) {
  if (t->kind != TY_TENSOR || t->ndims < lo || t->ndims > hi || t->ndims > SU_RANK_MAX ||
      !opgen_dtype_in_class(cls, t->dtype))
    return false;
  int64_t n = 1;
  for (uint32_t i = 0; i < t->ndims; i++) {
    if (t->dims[i] < 1 || t->dims[i] > SU_ELEMENTS_MAX) return false;
    n *= t->dims[i];
    if (n > SU_ELEMENTS_MAX) return false;
  }
  return true;
}

bool su_all_any_ok(const Type *t, OpDtypes cls, unsigned lo, unsigned hi) {
  if (t->kind != TY_TENSOR || t->ndims < lo || t->ndims > hi || t->ndims > SU_RANK_MAX ||
      !opgen_dtype_in_class(cls, t->dtype))
    return false;
  for (uint32_t i = 0; i < t->ndims; i++)
    if (t->dims[i] != SU_ANY) return false;
  return true;
}

int64_t su_elements(const Type *t) {
  if (t->kind == TY_TUPLE) {
    int64_t n = 0;
    for (uint32_t i = 0; i < t->nargs; i++)
      n += su_elements(t->args[i]);
    return n;
  }
  if (t->kind != TY_TENSOR) return 1;
  int64_t n = 1;
  for (uint32_t i = 0; i < t->ndims; i++)
    if (t->dims[i] > 0) n *= t->dims[i];
  return n;
}

int64_t su_budget(OpGen *g, const Type *result) {
  int64_t n = su_elements(result);
  return n > g->policy->max_elements ? n : g->policy->max_elements;
}

void su_rand_dims(OpGen *g, size_t n, int64_t budget, int64_t *dims) {
  int64_t el = 1;
  for (size_t i = 0; i < n; i++) {
    int64_t cap = budget / el;
    if (cap > g->policy->max_dim) cap = g->policy->max_dim;
    if (cap < 1) cap = 1;
    dims[i] = rng_range(g->rng, 1, cap);
    el *= dims[i];
  }
}

const Type *su_rand_tensor(OpGen *g, DType dt, size_t rank, int64_t budget) {
  int64_t dims[SU_RANK_MAX];
  if (rank > SU_RANK_MAX) rank = SU_RANK_MAX;
  su_rand_dims(g, rank, budget, dims);
  return ty_tensor(g->types, dt, dims, rank);
}

const Type *su_tensor(OpGen *g, DType dt, const int64_t *dims, size_t n) {
  return ty_tensor(g->types, dt, dims, n);
}

const Type *su_scalar(OpGen *g, DType dt) { return ty_scalar(g->types, dt); }

DType su_index_dtype(OpGen *g) { return rng_chance(g->rng, 1, 2) ? dt_int32 : dt_int64; }

int64_t su_divisor(OpGen *g, int64_t n, int64_t max) {
  int64_t divs[64];
  size_t k = 0;
  for (int64_t d = 1; d * d <= n && d <= max && k < 62; d++)
    if (n % d == 0) {
      divs[k++] = d;
      if (d != n / d && n / d <= max) divs[k++] = n / d;
    }
  return divs[rng_index(g->rng, k)];
}

const char *su_pick(OpGen *g, const char *const *items, size_t n) { return items[rng_index(g->rng, n)]; }

void su_arg(OpPlan *p, const Type *t) { p->args[p->nargs++] = t; }

void su_set_attr(const OpDef *op, OpPlan *plan, const char *name, AttrVal v) {
  for (size_t k = 0; k < op->nattrs; k++)
    if (!strcmp(op->attrs[k].name, name)) {
      plan->attrs[k] = v;
      return;
    }
  abort(); /* a generator names an attribute its own schema lacks: a bug in the table */
}

void su_set_floats(OpGen *g, const OpDef *op, OpPlan *plan, const char *name, const double *v, size_t n) {
  AttrVal *items = arena_alloc(g->arena, (n ? n : 1) * sizeof *items);
  for (size_t i = 0; i < n; i++)
    items[i] = (AttrVal){.kind = ATTR_FLOAT, .f = v[i]};
  su_set_attr(op, plan, name, (AttrVal){.kind = ATTR_LIST, .items = items, .n = n});
}

void su_set_dtype(OpGen *g, const OpDef *op, OpPlan *plan, const char *name, DType d) {
  char buf[16];
  opgen_set_str(g, op, plan, name, dtype_str(d, buf));
}
