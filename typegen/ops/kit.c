/* The kit's relation helpers (see kit.h). */
#include "kit.h"

#include "../../support/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ attributes */

bool kit_required(OpCall *c, const char *name) {
  if (!op_is_none(c, name)) return true;
  op_fail(c, -1, "%s: Cannot find required field '%s' during initialization", c->op->name, name);
  return false;
}

long kit_ints(OpCall *c, const char *name, int64_t *out, size_t max) {
  if (!kit_required(c, name)) return -1;
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

long kit_ints_opt(OpCall *c, const char *name, int64_t *out, size_t max) {
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

long kit_const_ints(OpCall *c, const char *name, int64_t *out, size_t max) {
  size_t n = op_ints(c, name, out, max);
  for (size_t i = 0; i < n && i < max; i++)
    if (out[i] == KIT_ANY) {
      op_fail(c, -1, "%s: attribute '%s' must hold constant integers", c->op->name, name);
      return -1;
    }
  return (long)n;
}

bool kit_ints_need(OpCall *c, const char *name, size_t need, int64_t *out, size_t max) {
  long n = kit_const_ints(c, name, out, max);
  if (n < 0) return false;
  if ((size_t)n < need) {
    op_fail(c, -1, "%s: attribute '%s' needs %zu value%s, got %ld", c->op->name, name, need,
            need == 1 ? "" : "s", n);
    return false;
  }
  return true;
}

long kit_pairs(OpCall *c, const char *name, int64_t (*out)[2], size_t max, const char *pair_msg) {
  if (!kit_required(c, name)) return -1;
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

long kit_list_len(OpCall *c, const char *name) {
  const AttrVal *v = op_attr(c, name);
  if (v->kind == ATTR_NONE) return 0;
  if (v->kind == ATTR_LIST) return (long)v->n;
  op_fail(c, -1, "%s: attribute '%s' must be a list", c->op->name, name);
  return -1;
}

bool kit_int_attr(OpCall *c, const char *name, int64_t *out) {
  const AttrVal *v = op_attr(c, name);
  if (v->kind != ATTR_INT && v->kind != ATTR_BOOL) {
    op_fail(c, -1, "%s: attribute '%s' must be an integer", c->op->name, name);
    return false;
  }
  *out = v->i;
  return true;
}

bool kit_all_positive(OpCall *c, const char *name, const int64_t *v, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (v[i] <= 0) {
      op_fail(c, -1, "%s: attribute '%s' must hold positive integers, got %lld", c->op->name, name,
              (long long)v[i]);
      return false;
    }
  return true;
}

bool kit_keyed_attrs(OpCall *c, const char *key, bool reads_attrs) {
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
    if (strcmp(c->op->attrs[i].name, "attrs_type_key") != 0 &&
        !op_attr_equals_default(c->op, i, &c->attrs[i])) {
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

/* ------------------------------------------------------------------ messages */

const char *kit_dtype_name(DType d, char *buf) {
  if (d.code == DT_VOID) return strcpy(buf, "void");
  return dtype_str(d, buf);
}

const char *kit_dims_str(const int64_t *d, size_t n, char *buf, size_t cap) {
  size_t len = (size_t)snprintf(buf, cap, "[");
  for (size_t i = 0; i < n && len < cap; i++) {
    if (d[i] == KIT_ANY)
      len += (size_t)snprintf(buf + len, cap - len, "%s?", i ? ", " : "");
    else
      len += (size_t)snprintf(buf + len, cap - len, "%s%lld", i ? ", " : "", (long long)d[i]);
  }
  if (len < cap) snprintf(buf + len, cap - len, "]");
  return buf;
}

bool kit_dtype_in(DType d, const DType *set, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (dtype_eq(d, set[i])) return true;
  return false;
}

/* ------------------------------------------------------------------ arguments and results */

const Type *kit_ranked(OpCall *c, size_t i, size_t rank, const char *msg) {
  const Type *t = op_tensor_arg(c, i);
  if (!t) return NULL;
  if (t->ndims == rank) return t;
  op_fail(c, (int)i, "%s: %s (argument %zu has rank %u)", c->op->name, msg, i + 1, t->ndims);
  return NULL;
}

bool kit_assign_as(OpCall *c, size_t i, DType dtype, const int64_t *dims, size_t n, int how) {
  const Type *t = c->args[i];
  if (!(how & KIT_ASSIGN_UNCHECKED) && !op_tensor_arg(c, i)) return false;
  bool ok = t->kind == TY_TENSOR && dtype_eq(t->dtype, dtype) && t->ndims == n;
  size_t bad = (size_t)-1;
  for (size_t k = 0; ok && k < n; k++)
    if (!kit_dim_match(t->dims[k], dims[k])) {
      ok = false;
      bad = k;
    }
  if (ok) return true;
  char *got = ty_str(t), *want = ty_str(ty_tensor(c->types, dtype, dims, n));
  if (bad != (size_t)-1 && !(how & KIT_ASSIGN_BRIEF))
    op_fail(
        c, (int)i,
        "%s: argument %zu has type %s, but the relation requires %s (dimension %zu conflicts: %lld does not "
        "match %lld)",
        c->op->name, i + 1, got, want, bad, (long long)t->dims[bad], (long long)dims[bad]);
  else
    op_fail(c, (int)i, "%s: argument %zu has type %s, but the relation requires %s", c->op->name, i + 1, got,
            want);
  free(got);
  free(want);
  return false;
}

bool kit_assign(OpCall *c, size_t i, DType dtype, const int64_t *dims, size_t n) {
  return kit_assign_as(c, i, dtype, dims, n, 0);
}

bool kit_assign_type(OpCall *c, size_t i, const Type *want) {
  return kit_assign_as(c, i, want->dtype, want->dims, want->ndims, KIT_ASSIGN_UNCHECKED);
}

DType kit_out_dtype(OpCall *c, DType data) {
  DType d = op_dtype(c, "out_dtype");
  return d.code == DT_VOID ? data : d;
}

int64_t *kit_dims_dup(const Type *t) {
  int64_t *d = xmalloc((t->ndims ? t->ndims : 1) * sizeof *d);
  if (t->ndims) memcpy(d, t->dims, t->ndims * sizeof *d);
  return d;
}

const Type *kit_tensor_free(OpCall *c, DType dtype, int64_t *dims, size_t n) {
  const Type *t = ty_tensor(c->types, dtype, dims, n);
  free(dims);
  return t;
}

const Type *kit_all_any(OpCall *c, DType dt, size_t rank) {
  if (rank > OP_RANK_LIMIT)
    return op_fail(c, -1, "%s: the result would have rank %zu (the limit is %d)", c->op->name, rank,
                   OP_RANK_LIMIT);
  int64_t *dims = xmalloc((rank ? rank : 1) * sizeof *dims);
  for (size_t i = 0; i < rank; i++)
    dims[i] = KIT_ANY;
  const Type *t = ty_tensor(c->types, dt, dims, rank);
  free(dims);
  return t;
}

const Type *kit_identity_rel(OpCall *c) { return op_tensor_arg(c, 0); }

const Type *kit_pass_through_rel(OpCall *c) { return c->args[0]; }

const Type *kit_delegate(OpCall *c, const char *target, const size_t *which, size_t n) {
  const OpDef *t = op_lookup(target);
  if (!t) {
    fprintf(stderr, "relaykit: internal error: %s delegates to unknown operator %s\n", c->op->name, target);
    abort();
  }
  OpDef sub = *t;
  sub.name = c->op->name;
  AttrVal vals[16];
  const Type *args[OP_MAX_ARGS];
  if (t->nattrs > 16 || n > OP_MAX_ARGS) abort();
  for (size_t k = 0; k < t->nattrs; k++)
    vals[k] = *op_attr(c, t->attrs[k].name); /* aborts on a schema mismatch */
  for (size_t i = 0; i < n; i++)
    args[i] = c->args[which[i]];
  OpCall s = {.types = c->types, .op = &sub, .args = args, .nargs = n, .attrs = vals, .bad_arg = -1};
  const Type *r = t->relation(&s);
  if (!r) {
    memcpy(c->err, s.err, sizeof c->err);
    c->bad_arg = s.bad_arg >= 0 && (size_t)s.bad_arg < n ? (int)which[s.bad_arg] : -1;
  }
  return r;
}

/* ------------------------------------------------------------------ dimension arithmetic */

int64_t kit_floordiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) q--;
  return q;
}

int64_t kit_dim_floordiv(int64_t a, int64_t b) {
  if (a == KIT_ANY || b == KIT_ANY || (a == INT64_MIN && b == -1)) return KIT_ANY;
  return kit_floordiv(a, b);
}

bool kit_add_exact(int64_t a, int64_t b, int64_t *out) {
  if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b)) return false;
  *out = a + b;
  return true;
}

bool kit_mul_exact(int64_t a, int64_t b, int64_t *out) {
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

bool kit_fit(OpCall *c, KitWide v, int64_t *out) {
  if (v < INT64_MIN || v > INT64_MAX) {
    op_fail(c, -1, "%s: the shape arithmetic overflows int64 (TVM's would wrap around to a wrong shape)",
            c->op->name);
    return false;
  }
  *out = (int64_t)v;
  return true;
}

bool kit_dim_mul(OpCall *c, int64_t a, int64_t b, int64_t *out) {
  if (a == KIT_ANY || b == KIT_ANY) return *out = KIT_ANY, true;
  return kit_fit(c, (KitWide)a * b, out);
}

bool kit_dim_times(OpCall *c, int64_t d, int64_t k, int64_t *out) {
  if (d == KIT_ANY) return *out = KIT_ANY, true;
  return kit_fit(c, (KitWide)d * k, out);
}

bool kit_dim_plus(OpCall *c, int64_t d, int64_t k, int64_t *out) {
  if (d == KIT_ANY) return *out = KIT_ANY, true;
  return kit_fit(c, (KitWide)d + k, out);
}

int64_t kit_dim_mul_folded(int64_t a, int64_t b) {
  if (a == 0 || b == 0) return 0;
  int64_t r;
  return a == KIT_ANY || b == KIT_ANY || !kit_mul_exact(a, b, &r) ? KIT_ANY : r;
}

bool kit_nonneg(OpCall *c, const int64_t *dims, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (dims[i] < 0) {
      op_fail(c, -1, "%s: the result shape would have a negative dimension (%lld)", c->op->name,
              (long long)dims[i]);
      return false;
    }
  return true;
}

bool kit_dim_ok(OpCall *c, int64_t v) { return kit_nonneg(c, &v, 1); }

bool kit_nonneg_as(OpCall *c, const char *what, const int64_t *v, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (v[i] < 0) {
      op_fail(c, -1, "%s: %s would make a negative dimension (%lld)", c->op->name, what, (long long)v[i]);
      return false;
    }
  return true;
}

/* ------------------------------------------------------------------ QNN */

const DType kit_q8[2] = {{DT_INT, 8, 1}, {DT_UINT, 8, 1}};

bool kit_qnn_data_dtype(OpCall *c, size_t i, const DType *set, size_t n, const char *what, const char *role) {
  const Type *t = op_tensor_arg(c, i);
  if (!t) return false;
  if (kit_dtype_in(t->dtype, set, n)) return true;
  char b[16];
  op_fail(c, (int)i, "%s: Expected %s for %s but was %s", c->op->name, what, role,
          kit_dtype_name(t->dtype, b));
  return false;
}

bool kit_qnn_scalar(OpCall *c, size_t i, DType dtype, const char *what) {
  const Type *t = c->args[i];
  char *s = ty_str(t);
  if (t->kind != TY_TENSOR) {
    op_fail(c, (int)i, "%s: Only tensor type can be checked for scalar values. But got %s", c->op->name, s);
  } else if (t->ndims == 0 && dtype_eq(t->dtype, dtype)) {
    free(s);
    return true;
  } else {
    char b[16];
    op_fail(c, (int)i, "%s: argument %zu (%s) must be a scalar %s, got %s", c->op->name, i + 1, what,
            kit_dtype_name(dtype, b), s);
  }
  free(s);
  return false;
}

bool kit_qnn_assign(OpCall *c, size_t i, DType dtype, int64_t len) {
  const Type *t = c->args[i];
  char b1[16], b2[16];
  if (t->kind != TY_TENSOR) {
    char *s = ty_str(t);
    op_fail(c, (int)i, "%s: Can assign type to Tensor type only. But got %s", c->op->name, s);
    free(s);
    return false;
  }
  if (!dtype_eq(t->dtype, dtype)) {
    op_fail(c, (int)i, "%s: argument %zu: Expected type is %s but received %s", c->op->name, i + 1,
            kit_dtype_name(dtype, b1), kit_dtype_name(t->dtype, b2));
    return false;
  }
  if (t->ndims == 0) return true;
  if (t->ndims == 1 && (t->dims[0] == len || t->dims[0] == KIT_ANY || len == KIT_ANY)) return true;
  char *got = ty_str(t), *want = ty_str(ty_tensor(c->types, dtype, &len, 1));
  op_fail(c, (int)i, "%s: argument %zu has type %s, but the relation requires a scalar or %s", c->op->name,
          i + 1, got, want);
  free(got);
  free(want);
  return false;
}

bool kit_qnn_scalar_arg(OpCall *c, size_t i, DType dtype, const char *what) {
  const Type *t = op_tensor_arg(c, i);
  if (!t) return false;
  if (t->ndims == 0 && dtype_eq(t->dtype, dtype)) return true;
  char b[16], *s = ty_str(t);
  op_fail(c, (int)i, "%s: argument %zu (%s) must be a scalar %s, got %s", c->op->name, i + 1, what,
          kit_dtype_name(dtype, b), s);
  free(s);
  return false;
}

bool kit_qnn_assign_arg(OpCall *c, size_t i, DType dtype, int64_t len) {
  const Type *t = op_tensor_arg(c, i);
  if (!t) return false;
  if (!dtype_eq(t->dtype, dtype)) {
    char b1[16], b2[16];
    op_fail(c, (int)i, "%s: argument %zu: Expected type is %s but received %s", c->op->name, i + 1,
            kit_dtype_name(dtype, b1), kit_dtype_name(t->dtype, b2));
    return false;
  }
  return t->ndims == 0 || kit_assign(c, i, dtype, &len, 1);
}
