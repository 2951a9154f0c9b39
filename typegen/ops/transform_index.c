/*
 * Indexing transforms: adv_index (NumPy advanced indexing), scatter_elements, scatter_nd, the sparse
 * conversions sparse_fill_empty_rows, sparse_reshape and sparse_to_dense, and unravel_index.
 *
 * Facts from TVM v0.13: src/relay/op/tensor/transform.cc (AdvIndexRel, ScatterElementsRel,
 * ScatterNDRel, SparseFillEmptyRowsRel, SparseReshapeRel, SparseToDenseRel, UnRavelIndexRel) and
 * src/relay/op/type_relations.cc (ConcreteBroadcast); attribute schemas from
 * include/tvm/relay/attrs/transform.h (ScatterElementsAttrs, ScatterNDAttrs, SparseToDenseAttrs).
 *
 * TVM's "integer" checks are DataType::is_int() (signed) where a relation says "int" and
 * is_int() || is_uint() (bool included) where it says "int or uint"; the relations below keep
 * each one's choice.  ScatterNDRel ignores the results of its AssertEQ calls, so the shapes of
 * indices and updates are not checked beyond the dimensions it reads; SparseFillEmptyRowsRel checks
 * nothing but reads the second dimension of the indices.  Where TVM would read out of bounds the
 * relation rejects the call with a message instead.
 *
 * Below the relations, the RFC's generators; they build the shapes TVM's computes expect.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../support/xalloc.h"
#include "kit.h"

OP_FAMILY(transform_index);

/* ------------------------------------------------------------------ adv_index */

/* AdvIndexRel: a tuple (data, index...); the indices broadcast together (ConcreteBroadcast) and
   replace data's first dimensions. */
static const Type *adv_index_rel(OpCall *c) {
  const Type *tup = c->args[0];
  if (tup->kind != TY_TUPLE || tup->nargs == 0 || tup->args[0]->kind != TY_TENSOR) {
    char *s = ty_str(tup);
    op_fail(c, 0, "adv_index expects a tuple of tensors (data, indices...), got %s", s);
    free(s);
    return NULL;
  }
  const Type *data = tup->args[0];
  if (tup->nargs < 2) return op_fail(c, 0, "adv_index needs at least one index tensor");
  if (tup->nargs - 1 > data->ndims) return op_fail(c, 0, "adv_index: too many indices for data!");
  for (uint32_t i = 1; i < tup->nargs; i++)
    if (tup->args[i]->kind != TY_TENSOR) {
      char *s = ty_str(tup->args[i]);
      op_fail(c, 0, "adv_index: index %u must be a tensor, got %s", i - 1, s);
      free(s);
      return NULL;
    }
  const Type *b = tup->args[1];
  for (uint32_t i = 2; i < tup->nargs && b; i++)
    b = op_broadcast(c, b, tup->args[i], data->dtype);
  if (!b) {
    c->bad_arg = 0;
    return NULL;
  }
  size_t n = b->ndims + data->ndims - (tup->nargs - 1);
  int64_t *dims = xmalloc((n ? n : 1) * sizeof *dims);
  if (b->ndims) memcpy(dims, b->dims, b->ndims * sizeof *dims);
  for (uint32_t i = tup->nargs - 1, k = b->ndims; i < data->ndims; i++)
    dims[k++] = data->dims[i];
  const Type *t = ty_tensor(c->types, data->dtype, dims, n);
  free(dims);
  return t;
}

/* adv_index: the first b dimensions of the result are the indices' broadcast shape (one index has
   it, the others broadcast to it), the rest are data's dimensions after the indexed ones. */
static bool adv_index_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  size_t r = t->ndims, b = (size_t)rng_range(g->rng, 0, (int64_t)r), nidx = (size_t)rng_range(g->rng, 1, 3);
  if (r - b + nidx > KIT_RANK_MAX) nidx = 1;
  const Type *bshape = kit_tensor(g, kit_index_dtype(g), t->dims, b), *fields[4];
  int64_t dims[KIT_RANK_MAX];
  opgen_dims(g, nidx, g->policy->max_elements, dims);
  memcpy(dims + nidx, t->dims + b, (r - b) * sizeof *dims);
  fields[0] = kit_tensor(g, t->dtype, dims, nidx + r - b);
  size_t full = 1 + rng_index(g->rng, nidx);
  for (size_t i = 1; i <= nidx; i++) {
    DType dt = kit_index_dtype(g);
    fields[i] = i == full ? opgen_with_dtype(g, bshape, dt) : opgen_partner(g, bshape, dt);
  }
  kit_arg(out, ty_tuple(g->types, fields, nidx + 1));
  out->result = t;
  return true;
}

static const OpDef adv_index_ops[] = {
    KIT_OP_NOATTRS("adv_index", 1, adv_index_rel,
                   KIT_GEN(OPDT_ANY, kit_static_ranked, adv_index_solve, opgen_sample_by_solving)),
};
OP_REGISTER(adv_index_ops);

/* ------------------------------------------------------------ scatter_elements, scatter_nd, unravel_index */

static bool is_int_or_uint(DType d) { return d.code == DT_INT || d.code == DT_UINT; }

/* The three tensors of the scatter ops, and their integer indices. */
static bool scatter_args(OpCall *c, const char *who) {
  if (!op_tensor_arg(c, 0) || !op_tensor_arg(c, 1) || !op_tensor_arg(c, 2)) return false;
  if (!is_int_or_uint(c->args[1]->dtype)) {
    op_fail(c, 1, "%s: indices must be a tensor of integers.", who);
    return false;
  }
  return true;
}

/* ScatterElementsRel: data's type. */
static const Type *scatter_elements_rel(OpCall *c) {
  return scatter_args(c, "ScatterElements") ? c->args[0] : NULL;
}

/* ScatterNDRel: data's type.  indices is (M, Y_0..Y_{K-1}) with a constant M <= data's rank; updates
   must have the K + (N - M) dimensions the relation reads. */
static const Type *scatter_nd_rel(OpCall *c) {
  if (!scatter_args(c, "ScatterND")) return NULL;
  const Type *data = c->args[0], *idx = c->args[1], *upd = c->args[2];
  if (idx->ndims == 0 || idx->dims[0] == KIT_ANY) {
    char buf[256];
    return op_fail(c, 1, "ScatterND needs a static shape for the first axis of indices, got %s",
                   kit_dims_str(idx->dims, idx->ndims, buf, sizeof buf));
  }
  int64_t m = idx->dims[0], k = idx->ndims - 1, n = data->ndims;
  if (m > n)
    return op_fail(
        c, 1,
        "ScatterND: Given updates with shape (Y_0, ..., Y_{K-1}, X_M, ..., X_{N-1}), and indices with shape "
        "(M, Y_0, ..., Y_{K-1}), M must be less than or equal to N.");
  if ((int64_t)upd->ndims < k + n - m)
    return op_fail(c, 2, "ScatterND: updates has rank %u, but indices and data need %lld dimensions",
                   upd->ndims, (long long)(k + n - m));
  return data;
}

/* UnRavelIndexRel: Tensor[(shape's length[, indices' first dimension]), indices' dtype]. */
static const Type *unravel_index_rel(OpCall *c) {
  const Type *idx = op_tensor_arg(c, 0);
  if (!idx) return NULL;
  if (!is_int_or_uint(idx->dtype)) return op_fail(c, 0, "indices of unravel_index must be tensor of integer");
  const Type *shape = op_tensor_arg(c, 1);
  if (!shape) return NULL;
  if (!is_int_or_uint(shape->dtype)) return op_fail(c, 1, "shape of unravel_index must be tensor of integer");
  if (shape->ndims == 0)
    return op_fail(c, 1, "unravel_index: the shape must have one dimension, got a scalar");
  int64_t dims[2] = {shape->dims[0], idx->ndims ? idx->dims[0] : 0};
  return ty_tensor(c->types, idx->dtype, dims, idx->ndims ? 2 : 1);
}

static const char *const scatter_reductions[] = {"update", "add", "mul", "mean", "min", "max"};

/* scatter_elements: indices and updates of one shape, no larger than the data. */
static bool scatter_elements_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  int64_t dims[KIT_RANK_MAX], nd = t->ndims;
  for (int64_t i = 0; i < nd; i++)
    dims[i] = rng_range(g->rng, 1, t->dims[i]);
  kit_arg(out, t);
  kit_arg(out, kit_tensor(g, kit_index_dtype(g), dims, (size_t)nd));
  kit_arg(out, kit_tensor(g, t->dtype, dims, (size_t)nd));
  opgen_set_int(g, op, out, "axis", kit_gen_axis(g, rng_range(g->rng, 0, nd - 1), nd));
  opgen_set_str(g, op, out, "reduction", scatter_reductions[rng_index(g->rng, 6)]);
  out->result = t;
  return true;
}

/* scatter_nd: indices (M, Y...) address the first M dimensions; updates (Y..., X_M...). */
static bool scatter_nd_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  int64_t n = t->ndims, m = rng_range(g->rng, 1, n), k = rng_range(g->rng, 0, 2);
  int64_t idx[3], upd[KIT_RANK_MAX + 2];
  idx[0] = m;
  opgen_dims(g, (size_t)k, 64, idx + 1);
  memcpy(upd, idx + 1, (size_t)k * sizeof *upd);
  memcpy(upd + k, t->dims + m, (size_t)(n - m) * sizeof *upd);
  kit_arg(out, t);
  kit_arg(out, kit_tensor(g, kit_index_dtype(g), idx, (size_t)k + 1));
  kit_arg(out, kit_tensor(g, t->dtype, upd, (size_t)(k + n - m)));
  static const char *const modes[] = {"update", "add", "mul", "min", "max"};
  opgen_set_str(g, op, out, "mode", modes[rng_index(g->rng, 5)]);
  out->result = t;
  return true;
}

/* unravel_index: Tensor[(rank of the shape[, number of indices]), int]: the indices are a scalar
   or a vector, the shape a vector, of the same dtype. */
static bool unravel_index_recognize(const OpDef *op, const Type *t) {
  return kit_gen_ok(t, (OpDtypes)op->gen_dtypes, 1, 2) &&
         (dtype_eq(t->dtype, dt_int32) || dtype_eq(t->dtype, dt_int64));
}

static bool unravel_index_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  kit_arg(out, t->ndims == 2 ? kit_vec(g, t->dtype, t->dims[1]) : ty_scalar(g->types, t->dtype));
  kit_arg(out, kit_vec(g, t->dtype, t->dims[0]));
  out->result = t;
  return true;
}

static bool unravel_index_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  return unravel_index_solve(g, op, opgen_tensor(g, kit_index_dtype(g), 1, 2), out);
}

static const OpAttrSpec scatter_elements_attrs[] = {{"axis", AT_INT, "0"},
                                                    {"reduction", AT_STR, "\"update\""}};

static const OpAttrSpec scatter_nd_attrs[] = {{"mode", AT_STR, "\"update\""}};

static const OpDef scatter_elements_ops[] = {
    /* the reductions (add, mul, mean, ...) need numbers */
    KIT_OP("scatter_elements", 3, scatter_elements_attrs, scatter_elements_rel,
           KIT_GEN(OPDT_NUMERIC, kit_static_ranked, scatter_elements_solve, opgen_sample_by_solving)),
    KIT_OP("scatter_nd", 3, scatter_nd_attrs, scatter_nd_rel,
           KIT_GEN(OPDT_NUMERIC, kit_static_ranked, scatter_nd_solve, opgen_sample_by_solving)),
    KIT_OP_NOATTRS("unravel_index", 2, unravel_index_rel,
                   KIT_GEN(OPDT_INT, unravel_index_recognize, unravel_index_solve, unravel_index_sample)),
};
OP_REGISTER(scatter_elements_ops);

/* ------------------------------------------------------------------ sparse_fill_empty_rows */

/* SparseFillEmptyRowsRel: (Tensor[(?, ndims), int64], Tensor[(?), int64], Tensor[(?), int64]),
   ndims being the second dimension of sparse_indices. */
static const Type *sparse_fill_empty_rows_rel(OpCall *c) {
  const Type *idx = op_tensor_arg(c, 0);
  if (!idx) return NULL;
  if (idx->ndims < 2)
    return op_fail(c, 0, "sparse_fill_empty_rows: sparse_indices must have 2 dimensions, got %u", idx->ndims);
  int64_t d2[2] = {KIT_ANY, idx->dims[1]}, any = KIT_ANY;
  const Type *v = ty_tensor(c->types, dt_int64, &any, 1);
  const Type *fields[3] = {ty_tensor(c->types, dt_int64, d2, 2), v, v};
  return ty_tuple(c->types, fields, 3);
}

/* sparse_fill_empty_rows: (Tensor[(?, k), int64], Tensor[(?), int64], Tensor[(?), int64]). */
static bool fill_rows_recognize(const OpDef *op, const Type *t) {
  (void)op;
  if (t->kind != TY_TUPLE || t->nargs != 3) return false;
  const Type *a = t->args[0], *v = t->args[1];
  return a->kind == TY_TENSOR && dtype_eq(a->dtype, dt_int64) && a->ndims == 2 && a->dims[0] == KIT_ANY &&
         a->dims[1] >= 1 && a->dims[1] <= KIT_RANK_MAX && v->kind == TY_TENSOR &&
         dtype_eq(v->dtype, dt_int64) && v->ndims == 1 && v->dims[0] == KIT_ANY && t->args[2] == v;
}

static bool fill_rows_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  int64_t k = t->args[0]->dims[1], n = rng_range(g->rng, 1, g->policy->max_dim), d2[2] = {n, k};
  DType dt = opgen_dtype(g, OPDT_NUMERIC);
  kit_arg(out, kit_tensor(g, dt_int64, d2, 2));
  kit_arg(out, kit_vec(g, dt, n));
  kit_arg(out, kit_vec(g, dt_int64, k));
  kit_arg(out, ty_scalar(g->types, dt));
  out->result = t;
  return true;
}

static bool fill_rows_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  int64_t d2[2] = {KIT_ANY, rng_range(g->rng, 1, 4)}, any = KIT_ANY;
  const Type *v = ty_tensor(g->types, dt_int64, &any, 1);
  const Type *fields[3] = {ty_tensor(g->types, dt_int64, d2, 2), v, v};
  return fill_rows_solve(g, op, ty_tuple(g->types, fields, 3), out);
}

static const OpDef sparse_fill_empty_rows_ops[] = {
    KIT_OP_NOATTRS("sparse_fill_empty_rows", 4, sparse_fill_empty_rows_rel,
                   KIT_GEN(OPDT_INT, fill_rows_recognize, fill_rows_solve, fill_rows_sample)),
};
OP_REGISTER(sparse_fill_empty_rows_ops);

/* ------------------------------------------------------------------ sparse_reshape */

/* SparseReshapeRel: (Tensor[(N, new_shape's length), sparse_indices' dtype], new_shape's type). */
static const Type *sparse_reshape_rel(OpCall *c) {
  const Type *idx = op_tensor_arg(c, 0), *prev = idx ? op_tensor_arg(c, 1) : NULL,
             *ns = prev ? op_tensor_arg(c, 2) : NULL;
  if (!ns) return NULL;
  if (idx->dtype.code != DT_INT) return op_fail(c, 0, "sparse_indices must be tensor of integers");
  if (prev->dtype.code != DT_INT) return op_fail(c, 1, "prev_shape must be tensor of integers");
  if (ns->dtype.code != DT_INT) return op_fail(c, 2, "new_shape must be tensor of integers");
  if (idx->ndims != 2) return op_fail(c, 0, "sparse_indices must be 2-D tensor");
  if (prev->ndims != 1) return op_fail(c, 1, "prev_shape must be 1-D tensor");
  if (ns->ndims != 1) return op_fail(c, 2, "new_shape must be 1-D tensor");
  int64_t d2[2] = {idx->dims[0], ns->dims[0]};
  const Type *fields[2] = {ty_tensor(c->types, idx->dtype, d2, 2), ns};
  return ty_tuple(c->types, fields, 2);
}

/* sparse_reshape: (Tensor[(N, K), int], Tensor[(K), int]). */
static bool sparse_reshape_recognize(const OpDef *op, const Type *t) {
  (void)op;
  if (t->kind != TY_TUPLE || t->nargs != 2) return false;
  const Type *a = t->args[0], *s = t->args[1];
  return kit_gen_ok(a, OPDT_INT, 2, 2) && a->dtype.code == DT_INT && kit_gen_ok(s, OPDT_INT, 1, 1) &&
         s->dtype.code == DT_INT && s->dims[0] == a->dims[1];
}

static bool sparse_reshape_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  const Type *a = t->args[0];
  int64_t d2[2] = {a->dims[0], rng_range(g->rng, 1, 4)};
  kit_arg(out, kit_tensor(g, a->dtype, d2, 2));
  kit_arg(out, kit_vec(g, kit_index_dtype(g), d2[1]));
  kit_arg(out, t->args[1]);
  out->result = t;
  return true;
}

static bool sparse_reshape_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  int64_t d2[2] = {rng_range(g->rng, 1, g->policy->max_dim), rng_range(g->rng, 1, 4)};
  const Type *fields[2] = {ty_tensor(g->types, kit_index_dtype(g), d2, 2),
                           kit_vec(g, kit_index_dtype(g), d2[1])};
  return sparse_reshape_solve(g, op, ty_tuple(g->types, fields, 2), out);
}

static const OpDef sparse_reshape_ops[] = {
    KIT_OP_NOATTRS("sparse_reshape", 3, sparse_reshape_rel,
                   KIT_GEN(OPDT_INT, sparse_reshape_recognize, sparse_reshape_solve, sparse_reshape_sample)),
};
OP_REGISTER(sparse_reshape_ops);

/* ------------------------------------------------------------------ sparse_to_dense */

/* SparseToDenseRel: the output_shape attribute in sparse_values' dtype. */
static const Type *sparse_to_dense_rel(OpCall *c) {
  const Type *idx = op_tensor_arg(c, 0), *vals = idx ? op_tensor_arg(c, 1) : NULL,
             *def = vals ? op_tensor_arg(c, 2) : NULL;
  if (!def) return NULL;
  if (idx->dtype.code != DT_INT) return op_fail(c, 0, "sparse_indices must be tensor of integers");
  if (idx->ndims > 3) return op_fail(c, 0, "sparse_indices must be a tensor of either 0D, 1D or 2D");
  if (vals->ndims > 2) return op_fail(c, 1, "sparse_values must be a tensor of either 0D, 1D");
  if (def->ndims != 0) return op_fail(c, 2, "default_value should be a scalar");
  int64_t dims[KIT_RANK_MAX];
  long n = kit_ints(c, "output_shape", dims, KIT_RANK_MAX);
  if (n < 0 || !kit_nonneg(c, dims, (size_t)n)) return NULL;
  return ty_tensor(c->types, vals->dtype, dims, (size_t)n);
}

/* sparse_to_dense: N coordinates (a vector of them for a 1-D output, else N x rank), N values or
   one, a scalar default; output_shape is the result's. */
static bool sparse_to_dense_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  int64_t n = rng_range(g->rng, 1, g->policy->max_dim), d2[2] = {n, t->ndims};
  bool one = rng_chance(g->rng, 1, 4);
  if (one) n = d2[0] = 1;
  kit_arg(out, kit_tensor(g, kit_index_dtype(g), d2, t->ndims == 1 ? 1 : 2));
  kit_arg(out, one ? ty_scalar(g->types, t->dtype) : kit_vec(g, t->dtype, n));
  kit_arg(out, ty_scalar(g->types, t->dtype));
  opgen_set_ints(g, op, out, "output_shape", t->dims, t->ndims);
  out->result = t;
  return true;
}

static const OpAttrSpec sparse_to_dense_attrs[] = {{"output_shape", AT_INTS, "None"}};

static const OpDef sparse_to_dense_ops[] = {
    KIT_OP("sparse_to_dense", 3, sparse_to_dense_attrs, sparse_to_dense_rel,
           KIT_GEN(OPDT_NUMERIC, kit_static_ranked, sparse_to_dense_solve, opgen_sample_by_solving)),
};
OP_REGISTER(sparse_to_dense_ops);
