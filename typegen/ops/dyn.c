/*
 * Dynamic operators: the forms of expand_dims, full, zeros, ones, one_hot, sparse_to_dense,
 * squeeze, tile, topk, nn.pad, nn.upsampling(3d) and image.resize2d that take a shape, a count or
 * a scale as a tensor argument, so their results have `?` dimensions (dyn.reshape, dyn.broadcast_to
 * and dyn.strided_slice live in transform.c).  Facts from TVM v0.13
 * src/relay/op/dyn/tensor/transform.cc, src/relay/op/dyn/algorithm/topk.cc,
 * src/relay/op/dyn/nn/{pad.cc, upsampling.cc}, src/relay/op/dyn/image/resize.cc and the attribute
 * structs in include/tvm/relay/attrs/{transform.h, algorithm.h, nn.h, image.h}.
 *
 * Departures from TVM, deliberate:
 *   - dyn.expand_dims is registered without set_attrs_type: as for the vision ops (vision.c), its
 *     schema ends with attrs_type_key, and a call without attributes is rejected (TVM's relation
 *     reads num_newaxis through a null pointer).
 *   - Where TVM reads past the end of a shape (a scalar where a 1-D shape tensor is expected, an
 *     out-of-range one_hot axis) or builds a negative rank, the relation rejects the call.
 *   - dyn.zeros, dyn.ones and dyn.one_hot keep a void dtype attribute as the result's dtype, as TVM
 *     does (the result prints as `Tensor[(?), ]`).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit.h"

OP_FAMILY(dyn);

/* ================================================================== helpers the blocks below share */

/* The static length of a 1-D shape-like tensor argument; -1 after failing (a scalar would make TVM
   read past the shape; `?` fails with TVM's message `msg`). */
static int64_t static_len(OpCall *c, size_t i, const char *msg) {
  const Type *t = op_tensor_arg(c, i);
  if (!t) return -1;
  if (t->ndims == 0) {
    op_fail(c, (int)i, "%s: argument %zu must be a 1-D tensor, got a scalar", c->op->name, i + 1);
    return -1;
  }
  if (t->dims[0] == KIT_ANY) {
    op_fail(c, (int)i, "%s", msg);
    return -1;
  }
  return t->dims[0];
}

/* The non-tensor message of the relations that ICHECK for an incomplete type (TileRel, TopKRel,
   ExpandDimsRel). */
static const Type *tensor_or_fail(OpCall *c, size_t i, const char *what) {
  const Type *t = c->args[i];
  if (t->kind == TY_TENSOR) return t;
  char *s = ty_str(t);
  op_fail(c, (int)i, "%s: expect input type to be TensorType but get %s", what, s);
  free(s);
  return NULL;
}

/* The spatial axes of the canonical layout become unknown (UpSamplingRel, UpSampling3DRel and
   Resize2DRel in their dyn forms). */
static const Type *spatial_any(OpCall *c, const char *canon, const char *fmt, DType dt) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  KitLayout l, cl;
  int64_t s[KIT_LAYOUT_MAX], o[KIT_LAYOUT_MAX];
  if (!kit_layout_to(c, "layout", canon, fmt, &l, &cl) ||
      !kit_layout_convert(c, 0, &l, data->dims, data->ndims, &cl, s))
    return NULL;
  for (size_t i = 2; i < cl.ndim; i++)
    s[i] = KIT_ANY;
  if (!kit_layout_convert(c, -1, &cl, s, cl.ndim, &l, o)) return NULL;
  return ty_tensor(c->types, dt.code == DT_VOID ? data->dtype : dt, o, l.ndim);
}

/* ================================================================== generators */

/* A tensor with exactly one `?` dimension, the others static and positive; its position or -1. */
static int one_any(const Type *t, OpDtypes cls) {
  if (t->kind != TY_TENSOR || t->ndims < 1 || t->ndims > KIT_RANK_MAX || !opgen_dtype_in_class(cls, t->dtype))
    return -1;
  int at = -1;
  int64_t n = 1;
  for (uint32_t i = 0; i < t->ndims; i++) {
    if (t->dims[i] == KIT_ANY) {
      if (at >= 0) return -1;
      at = (int)i;
      continue;
    }
    if (t->dims[i] < 1 || t->dims[i] > KIT_ELEMENTS_MAX / n) return -1;
    n *= t->dims[i];
  }
  return at;
}

static const Type *any_tensor(OpGen *g, DType dt, size_t rank) {
  int64_t d[KIT_RANK_MAX];
  for (size_t i = 0; i < rank; i++)
    d[i] = KIT_ANY;
  return kit_tensor(g, dt, d, rank);
}

/* A random result: `rank_lo`..policy rank unknown dimensions of the op's class, then solved. */
static bool sample_any(OpGen *g, const OpDef *op, OpPlan *out, unsigned rank_lo) {
  unsigned hi = g->policy->max_rank > rank_lo ? g->policy->max_rank : rank_lo;
  const Type *t =
      any_tensor(g, opgen_dtype(g, (OpDtypes)op->gen_dtypes), (size_t)rng_range(g->rng, rank_lo, hi));
  return op->recognize(op, t) && op->solve(g, op, t, out);
}

static bool any_recognize(const OpDef *op, const Type *t) {
  return kit_all_any_ok(t, (OpDtypes)op->gen_dtypes, 1, KIT_RANK_MAX);
}

static bool any_sample(OpGen *g, const OpDef *op, OpPlan *out) { return sample_any(g, op, out, 1); }

/* A 1-D int tensor of n elements: a shape, axes, reps. */
static const Type *index_vector(OpGen *g, int64_t n) { return kit_tensor(g, kit_index_dtype(g), &n, 1); }

/* The spatial ops: channels first (NCHW, NCDHW) or last (NHWC, NDHWC); the batch and channel
   dimensions static, the spatial ones `?`.  Returns 1 for channels first, 2 for last, 0 for
   neither. */
static int spatial_form(const OpDef *op, const Type *t, size_t rank) {
  if (t->kind != TY_TENSOR || t->ndims != rank || !opgen_dtype_in_class((OpDtypes)op->gen_dtypes, t->dtype))
    return 0;
  for (int form = 1; form <= 2; form++) {
    size_t ch = form == 1 ? 1 : rank - 1, first = form == 1 ? 2 : 1;
    bool ok = t->dims[0] >= 1 && t->dims[ch] >= 1 && t->dims[0] * t->dims[ch] <= KIT_ELEMENTS_MAX;
    for (size_t i = first; ok && i < first + rank - 2; i++)
      ok = t->dims[i] == KIT_ANY;
    if (ok) return form;
  }
  return 0;
}

static bool spatial4_recognize(const OpDef *op, const Type *t) { return spatial_form(op, t, 4) != 0; }

/* A static input with random spatial extent for a spatial result; sets the layout attribute. */
static const Type *spatial_input(OpGen *g, const OpDef *op, const Type *t, OpPlan *out, DType dt) {
  size_t rank = t->ndims;
  int form = spatial_form(op, t, rank);
  size_t ch = form == 1 ? 1 : rank - 1, first = form == 1 ? 2 : 1;
  int64_t d[5], sp[3];
  opgen_dims(g, rank - 2, kit_budget(g, t) / (t->dims[0] * t->dims[ch]), sp);
  memcpy(d, t->dims, rank * sizeof *d);
  for (size_t i = 0; i < rank - 2; i++)
    d[first + i] = sp[i];
  static const char *const layouts[2][2] = {{"NCHW", "NHWC"}, {"NCDHW", "NDHWC"}};
  if (form == 2 || rng_chance(g->rng, 1, 4))
    opgen_set_str(g, op, out, "layout", layouts[rank == 5][form - 1]);
  return kit_tensor(g, dt, d, rank);
}

static bool spatial_sample(OpGen *g, const OpDef *op, OpPlan *out, size_t rank) {
  int64_t d[5], bc[2];
  opgen_dims(g, 2, g->policy->max_elements, bc);
  bool last = rng_chance(g->rng, 1, 3);
  for (size_t i = 0; i < rank; i++)
    d[i] = KIT_ANY;
  d[0] = bc[0];
  d[last ? rank - 1 : 1] = bc[1];
  return op->solve(g, op, kit_tensor(g, opgen_dtype(g, (OpDtypes)op->gen_dtypes), d, rank), out);
}

static bool spatial4_sample(OpGen *g, const OpDef *op, OpPlan *out) { return spatial_sample(g, op, out, 4); }

/* ------------------------------------------------------------------ dyn.expand_dims */

/* ExpandDimsRel (dyn): rank + num_newaxis unknown dimensions; the axis is a scalar tensor. */
static const Type *expand_dims_rel(OpCall *c) {
  if (!kit_keyed_attrs(c, "relay.attrs.DynExpandDimsAttrs", true)) return NULL;
  int64_t k = op_int(c, "num_newaxis");
  if (k < 0)
    return op_fail(
        c, -1, "relay.attrs.DynExpandDimsAttrs: num_newaxis: value %lld is smaller than the lower bound 0",
        (long long)k);
  const Type *data = tensor_or_fail(c, 0, "expand_dims");
  if (!data) return NULL;
  const Type *axis = op_tensor_arg(c, 1);
  if (!axis) return NULL;
  if (axis->ndims != 0) {
    /* TVM prints the shape as an Array: [1, ?] */
    char buf[256];
    return op_fail(c, 1, "Axis should be a scalar got shape %s", kit_dims_str(axis->dims, axis->ndims, buf, sizeof buf));
  }
  return kit_all_any(c, data->dtype, data->ndims + (size_t)k);
}

/* dyn.expand_dims: k new axes over a static input of rank - k; the axis an int scalar. */
static bool expand_dims_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  int64_t k = rng_range(g->rng, t->ndims > 1 ? 1 : 0, t->ndims < 2 ? t->ndims : 2);
  if (rng_chance(g->rng, 1, 8)) k = 0;
  opgen_plan_init(g, op, out);
  kit_arg(out, kit_rand_tensor(g, t->dtype, t->ndims - (size_t)k, g->policy->max_elements));
  kit_arg(out, kit_scalar(g, kit_index_dtype(g)));
  opgen_set_str(g, op, out, "attrs_type_key", "relay.attrs.DynExpandDimsAttrs");
  if (k != 1 || rng_chance(g->rng, 1, 3)) opgen_set_int(g, op, out, "num_newaxis", k);
  out->result = t;
  return true;
}

static const OpAttrSpec dyn_expand_dims_attrs[] = {{"num_newaxis", AT_INT, "1"},
                                               {"attrs_type_key", AT_STR, "None"}};

static const OpDef dyn_expand_dims_ops[] = {
    /* dyn/tensor/transform.cc */
    KIT_OP("dyn.expand_dims", 2, dyn_expand_dims_attrs, expand_dims_rel,
           KIT_GEN(OPDT_ANY, any_recognize, expand_dims_solve, any_sample)),
};
OP_REGISTER(dyn_expand_dims_ops);

/* ------------------------------------------------------------------ dyn.full */

/* FullRel (dyn): a scalar fill value; dtype "" takes the fill value's. */
static const Type *full_rel(OpCall *c) {
  const Type *fill = op_tensor_arg(c, 0);
  if (!fill || !op_tensor_arg(c, 1)) return NULL;
  DType dt = op_dtype(c, "dtype");
  if (dt.code == DT_VOID) dt = fill->dtype;
  if (fill->ndims != 0)
    return op_fail(c, 0, "Fill value should be a scalar but has dimension %u.", fill->ndims);
  int64_t n = static_len(c, 1, "Parameter shape must have static rank");
  return n < 0 ? NULL : kit_all_any(c, dt, (size_t)n);
}

/* dyn.full: a scalar fill value (of the result's dtype, or any with an explicit dtype). */
static bool full_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  bool explicit_dtype = rng_chance(g->rng, 1, 2);
  kit_arg(out, kit_scalar(g, explicit_dtype ? opgen_dtype(g, OPDT_ANY) : t->dtype));
  kit_arg(out, index_vector(g, t->ndims));
  if (explicit_dtype) kit_set_dtype(g, op, out, "dtype", t->dtype);
  out->result = t;
  return true;
}

static const OpDef dyn_full_ops[] = {
    KIT_OP("dyn.full", 2, kit_init_op_attrs, full_rel,
           KIT_GEN(OPDT_ANY, any_recognize, full_solve, any_sample)),
};
OP_REGISTER(dyn_full_ops);

/* ------------------------------------------------------------------ dyn.zeros, dyn.ones */

/* InitOpRel (dyn.zeros, dyn.ones): the dtype attribute as it is (void stays void). */
static const Type *init_rel(OpCall *c) {
  int64_t n = static_len(c, 0, "Parameter shape must have static rank");
  return n < 0 ? NULL : kit_all_any(c, op_dtype(c, "dtype"), (size_t)n);
}

/* dyn.zeros / dyn.ones: the dtype attribute names the result's. */
static bool init_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  kit_arg(out, index_vector(g, t->ndims));
  kit_set_dtype(g, op, out, "dtype", t->dtype);
  out->result = t;
  return true;
}

static const OpDef dyn_init_ops[] = {
    KIT_OP("dyn.zeros", 1, kit_init_op_attrs, init_rel,
           KIT_GEN(OPDT_ANY, any_recognize, init_solve, any_sample)),
    KIT_OP("dyn.ones", 1, kit_init_op_attrs, init_rel,
           KIT_GEN(OPDT_ANY, any_recognize, init_solve, any_sample)),
};
OP_REGISTER(dyn_init_ops);

/* ------------------------------------------------------------------ dyn.one_hot */

/* OneHotRel (dyn): the indices' shape with an unknown depth inserted at axis (-1: last); the
   dtype attribute as it is. */
static const Type *one_hot_rel(OpCall *c) {
  const Type *indices = op_tensor_arg(c, 0);
  if (!indices) return NULL;
  int64_t nd = indices->ndims, axis = op_int(c, "axis"), at = axis == -1 ? nd : axis;
  if (at < 0 || at > nd)
    return op_fail(c, -1,
                   "%s: axis %lld is out of range for indices of rank %lld (TVM reads past their shape)",
                   c->op->name, (long long)axis, (long long)nd);
  int64_t o[KIT_RANK_MAX + 1];
  if (nd + 1 > KIT_RANK_MAX + 1) return op_fail(c, 0, "%s: rank above %d", c->op->name, KIT_RANK_MAX);
  for (int64_t i = 0, k = 0; i <= nd; i++)
    o[i] = i == at ? KIT_ANY : indices->dims[k++];
  return ty_tensor(c->types, op_dtype(c, "dtype"), o, (size_t)nd + 1);
}

/* dyn.one_hot: indices of the other dimensions; on and off values scalars of the result's dtype,
   depth an int32 scalar. */
static bool one_hot_recognize(const OpDef *op, const Type *t) {
  return one_any(t, (OpDtypes)op->gen_dtypes) >= 0;
}

static bool one_hot_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  int at = one_any(t, (OpDtypes)op->gen_dtypes);
  int64_t d[KIT_RANK_MAX];
  size_t n = 0;
  for (uint32_t i = 0; i < t->ndims; i++)
    if ((int)i != at) d[n++] = t->dims[i];
  opgen_plan_init(g, op, out);
  kit_arg(out, kit_tensor(g, kit_index_dtype(g), d, n));
  kit_arg(out, kit_scalar(g, t->dtype));
  kit_arg(out, kit_scalar(g, t->dtype));
  kit_arg(out, kit_scalar(g, dt_int32));
  if (at != (int)n || rng_chance(g->rng, 1, 3)) opgen_set_int(g, op, out, "axis", at == (int)n ? -1 : at);
  kit_set_dtype(g, op, out, "dtype", t->dtype);
  out->result = t;
  return true;
}

static bool one_hot_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  int64_t d[KIT_RANK_MAX];
  size_t rank = (size_t)rng_range(g->rng, 1, g->policy->max_rank);
  opgen_dims(g, rank, g->policy->max_elements, d);
  d[rng_index(g->rng, rank)] = KIT_ANY;
  return one_hot_solve(g, op, kit_tensor(g, opgen_dtype(g, (OpDtypes)op->gen_dtypes), d, rank), out);
}

static const OpDef dyn_one_hot_ops[] = {
    KIT_OP("dyn.one_hot", 4, kit_one_hot_attrs, one_hot_rel,
           KIT_GEN(OPDT_NUMERIC, one_hot_recognize, one_hot_solve, one_hot_sample)),
};
OP_REGISTER(dyn_one_hot_ops);

/* ------------------------------------------------------------------ dyn.sparse_to_dense */

/* SparseToDenseRel (dyn): as many unknown dimensions as output_shape has elements, in
   sparse_values's dtype. */
static const Type *sparse_to_dense_rel(OpCall *c) {
  const Type *idx = op_tensor_arg(c, 0), *vals = idx ? op_tensor_arg(c, 1) : NULL,
             *def = vals ? op_tensor_arg(c, 2) : NULL;
  if (!def || !op_tensor_arg(c, 3)) return NULL;
  if (idx->dtype.code != DT_INT || idx->dtype.lanes != 1)
    return op_fail(c, 0, "sparse_indices must be tensor of integers");
  if (idx->ndims > 3) return op_fail(c, 0, "sparse_indices must be a tensor of either 0D, 1D or 2D");
  if (vals->ndims > 2) return op_fail(c, 1, "sparse_values must be a tensor of either 0D, 1D");
  if (def->ndims != 0) return op_fail(c, 2, "default_value should be a scalar");
  int64_t n = static_len(c, 3, "dyn.sparse_to_dense: output_shape must have a static length");
  return n < 0 ? NULL : kit_all_any(c, vals->dtype, (size_t)n);
}

/* dyn.sparse_to_dense: n sparse entries, indices (n, rank) (or (n) for rank 1), values (n). */
static bool sparse_to_dense_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  int64_t n = rng_range(g->rng, 1, g->policy->max_dim), id[2] = {n, t->ndims};
  opgen_plan_init(g, op, out);
  kit_arg(out, kit_tensor(g, kit_index_dtype(g), id, t->ndims > 1 ? 2 : 1));
  kit_arg(out, kit_tensor(g, t->dtype, &n, 1));
  kit_arg(out, kit_scalar(g, t->dtype));
  kit_arg(out, index_vector(g, t->ndims));
  out->result = t;
  return true;
}

static const OpDef dyn_sparse_to_dense_ops[] = {
    {.name = "dyn.sparse_to_dense",
     .min_args = 4,
     .max_args = 4,
     .relation = sparse_to_dense_rel,
     KIT_GEN(OPDT_NUMERIC, any_recognize, sparse_to_dense_solve, any_sample)},
};
OP_REGISTER(dyn_sparse_to_dense_ops);

/* ------------------------------------------------------------------ dyn.squeeze */

/* DynSqueezeRel: rank(data) - len(axes) unknown dimensions; axes is 1-D of static length. */
static const Type *squeeze_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0), *axes = data ? op_tensor_arg(c, 1) : NULL;
  if (!axes) return NULL;
  if (axes->ndims != 1) return op_fail(c, 1, "Got%uexpected 1", axes->ndims);
  if (axes->dims[0] == KIT_ANY) return op_fail(c, 1, "axes expected to be static rank");
  if (axes->dims[0] > (int64_t)data->ndims)
    return op_fail(c, 1, "%s: %lld axes to squeeze from a tensor of rank %u (a negative rank)", c->op->name,
                   (long long)axes->dims[0], data->ndims);
  return kit_all_any(c, data->dtype, data->ndims - (size_t)axes->dims[0]);
}

/* dyn.squeeze: k extra dimensions of extent 1 in the input, axes of length k. */
static bool squeeze_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  size_t k = (size_t)rng_range(g->rng, 1, 2), n = t->ndims + k;
  if (n > KIT_RANK_MAX) return false;
  int64_t d[KIT_RANK_MAX];
  opgen_dims(g, n, g->policy->max_elements, d);
  for (size_t i = 0; i < k; i++)
    d[rng_index(g->rng, n)] = 1;
  opgen_plan_init(g, op, out);
  kit_arg(out, kit_tensor(g, t->dtype, d, n));
  kit_arg(out, index_vector(g, (int64_t)k));
  out->result = t;
  return true;
}

static bool squeeze_recognize(const OpDef *op, const Type *t) {
  return kit_all_any_ok(t, (OpDtypes)op->gen_dtypes, 1, KIT_RANK_MAX - 2);
}

static const OpDef dyn_squeeze_ops[] = {
    KIT_OP("dyn.squeeze", 2, kit_squeeze_attrs, squeeze_rel,
           KIT_GEN(OPDT_ANY, squeeze_recognize, squeeze_solve, any_sample)),
};
OP_REGISTER(dyn_squeeze_ops);

/* ------------------------------------------------------------------ dyn.tile */

/* TileRel (dyn): max(rank(data), len(reps)) unknown dimensions. */
static const Type *tile_rel(OpCall *c) {
  const Type *data = tensor_or_fail(c, 0, "tile");
  if (!data || !tensor_or_fail(c, 1, "tile")) return NULL;
  int64_t n = static_len(c, 1, "Parameter reps must have static shape");
  if (n < 0) return NULL;
  return kit_all_any(c, data->dtype, (size_t)n > data->ndims ? (size_t)n : data->ndims);
}

/* dyn.tile: the longer of the input's rank and reps's length is the result's rank. */
static bool tile_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  int64_t r = t->ndims, n = r, m = r;
  if (rng_chance(g->rng, 1, 2))
    m = rng_range(g->rng, 1, r);
  else
    n = rng_range(g->rng, 0, r);
  opgen_plan_init(g, op, out);
  kit_arg(out, kit_rand_tensor(g, t->dtype, (size_t)n, g->policy->max_elements));
  kit_arg(out, index_vector(g, m));
  out->result = t;
  return true;
}

static const OpDef dyn_tile_ops[] = {
    KIT_OP("dyn.tile", 2, kit_tile_attrs, tile_rel, KIT_GEN(OPDT_ANY, any_recognize, tile_solve, any_sample)),
};
OP_REGISTER(dyn_tile_ops);

/* ------------------------------------------------------------------ dyn.topk */

/* TopKRel (dyn): k is a scalar or a (1) tensor; the axis becomes unknown. */
static const Type *topk_rel(OpCall *c) {
  const Type *data = tensor_or_fail(c, 0, "tile"), *k = data ? tensor_or_fail(c, 1, "tile") : NULL;
  if (!k) return NULL;
  if (k->ndims > 1) return op_fail(c, 1, "Parameter k must be a Scalar or a Tensor of shape (1, )");
  if (k->ndims == 1) {
    if (k->dims[0] == KIT_ANY) return op_fail(c, 1, "Parameter k must have static shape");
    if (k->dims[0] != 1) return op_fail(c, 1, "Parameter k must be a Scalar or a Tensor of shape (1, )");
  }
  size_t axis;
  if (!op_axis(op_int(c, "axis"), data->ndims, &axis))
    return op_fail(c, -1, "%s: Check failed: axis >= 0 && axis < ndim (axis %lld, rank %u)", c->op->name,
                   (long long)op_int(c, "axis"), data->ndims);
  int64_t o[KIT_RANK_MAX];
  if (data->ndims > KIT_RANK_MAX) return op_fail(c, 0, "%s: rank above %d", c->op->name, KIT_RANK_MAX);
  for (size_t i = 0; i < data->ndims; i++)
    o[i] = i == axis ? KIT_ANY : data->dims[i];
  const Type *values = ty_tensor(c->types, data->dtype, o, data->ndims);
  const Type *indices = ty_tensor(c->types, op_dtype(c, "dtype"), o, data->ndims);
  const char *ret = op_str(c, "ret_type");
  if (!strcmp(ret, "both")) {
    const Type *f[2] = {values, indices};
    return ty_tuple(c->types, f, 2);
  }
  if (!strcmp(ret, "values")) return values;
  if (!strcmp(ret, "indices")) return indices;
  return op_fail(c, -1, "Unsupported ret type: %s", ret);
}

/* dyn.topk: values, indices or both; the data has the result's static dimensions and any extent on
   the axis; k an int scalar or (1) tensor. */
static bool topk_recognize(const OpDef *op, const Type *t) {
  if (t->kind == TY_TENSOR) return one_any(t, (OpDtypes)op->gen_dtypes) >= 0;
  if (t->kind != TY_TUPLE || t->nargs != 2) return false;
  const Type *v = t->args[0], *i = t->args[1];
  if (one_any(v, (OpDtypes)op->gen_dtypes) < 0 || i->kind != TY_TENSOR ||
      !opgen_dtype_in_class(OPDT_INT, i->dtype) || i->ndims != v->ndims)
    return false;
  for (uint32_t k = 0; k < v->ndims; k++)
    if (v->dims[k] != i->dims[k]) return false;
  return true;
}

static bool topk_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  const Type *shape = t->kind == TY_TUPLE ? t->args[0] : t;
  int at = one_any(shape, (OpDtypes)op->gen_dtypes);
  DType data_dt = shape->dtype;
  opgen_plan_init(g, op, out);
  if (t->kind == TY_TUPLE) {
    kit_set_dtype(g, op, out, "dtype", t->args[1]->dtype);
    if (rng_chance(g->rng, 1, 3)) opgen_set_str(g, op, out, "ret_type", "both");
  } else if (opgen_dtype_in_class(OPDT_INT, t->dtype) && rng_chance(g->rng, 1, 2)) {
    data_dt = opgen_dtype(g, (OpDtypes)op->gen_dtypes);
    opgen_set_str(g, op, out, "ret_type", "indices");
    kit_set_dtype(g, op, out, "dtype", t->dtype);
  } else {
    opgen_set_str(g, op, out, "ret_type", "values");
    if (rng_chance(g->rng, 1, 2)) kit_set_dtype(g, op, out, "dtype", kit_index_dtype(g));
  }
  int64_t d[KIT_RANK_MAX], el = 1;
  for (uint32_t i = 0; i < shape->ndims; i++)
    if ((int)i != at) el *= shape->dims[i];
  memcpy(d, shape->dims, shape->ndims * sizeof *d);
  opgen_dims(g, 1, kit_budget(g, t) / el, &d[at]);
  kit_arg(out, kit_tensor(g, data_dt, d, shape->ndims));
  int64_t one = 1;
  kit_arg(out, rng_chance(g->rng, 1, 2) ? kit_scalar(g, kit_index_dtype(g))
                                       : kit_tensor(g, kit_index_dtype(g), &one, 1));
  int64_t n = shape->ndims;
  if (at != n - 1 || rng_chance(g->rng, 1, 3))
    opgen_set_int(g, op, out, "axis", rng_chance(g->rng, 1, 2) ? at : at - n);
  opgen_set_bool(g, op, out, "is_ascend", rng_chance(g->rng, 1, 2));
  out->result = t;
  return true;
}

static bool topk_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  int64_t d[KIT_RANK_MAX];
  size_t rank = (size_t)rng_range(g->rng, 1, g->policy->max_rank);
  opgen_dims(g, rank, g->policy->max_elements, d);
  d[rng_index(g->rng, rank)] = KIT_ANY;
  const Type *t = kit_tensor(g, opgen_dtype(g, (OpDtypes)op->gen_dtypes), d, rank);
  if (rng_chance(g->rng, 1, 2)) {
    const Type *f[2] = {t, kit_tensor(g, kit_index_dtype(g), d, rank)};
    t = ty_tuple(g->types, f, 2);
  }
  return topk_solve(g, op, t, out);
}

static const OpDef dyn_topk_ops[] = {
    /* dyn/algorithm/topk.cc: sorting compares numbers */
    KIT_OP("dyn.topk", 2, kit_topk_attrs, topk_rel,
           KIT_GEN(OPDT_NUMERIC, topk_recognize, topk_solve, topk_sample)),
};
OP_REGISTER(dyn_topk_ops);

/* ------------------------------------------------------------------ dyn.nn.pad */

/* PadRel (dyn): data of rank >= 1 and a 2-D pad_width give rank(data) unknown dimensions. */
static const Type *pad_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0), *width = data ? op_tensor_arg(c, 1) : NULL;
  if (!width || !op_tensor_arg(c, 2)) return NULL;
  if (data->ndims == 0) return op_fail(c, 0, "Data shape must have static rank");
  if (width->ndims != 2) return op_fail(c, 1, "Pad width must be 2D");
  return kit_all_any(c, data->dtype, data->ndims);
}

/* dyn.nn.pad: a static input of the result's rank, pad_width (rank, 2), a scalar pad value. */
static bool pad_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  static const char *const modes[] = {"constant", "edge", "reflect"};
  opgen_plan_init(g, op, out);
  const Type *data = kit_rand_tensor(g, t->dtype, t->ndims, g->policy->max_elements);
  int64_t wd[2] = {t->ndims, 2};
  kit_arg(out, data);
  kit_arg(out, kit_tensor(g, kit_index_dtype(g), wd, 2));
  kit_arg(out, kit_scalar(g, t->dtype));
  opgen_set_str(g, op, out, "pad_mode", kit_pick_str(g, modes, KIT_NELEMS(modes)));
  out->result = t;
  return true;
}

static const OpDef dyn_nn_pad_ops[] = {
    /* dyn/nn/pad.cc, dyn/nn/upsampling.cc, dyn/image/resize.cc */
    KIT_OP("dyn.nn.pad", 3, kit_pad_attrs, pad_rel,
           KIT_GEN(OPDT_NUMERIC, any_recognize, pad_solve, any_sample)),
};
OP_REGISTER(dyn_nn_pad_ops);

/* ----------------------------------------------------------------- dyn.nn.upsampling, dyn.nn.upsampling3d */

static const Type *upsampling_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0), *h = data ? op_tensor_arg(c, 1) : NULL,
             *w = h ? op_tensor_arg(c, 2) : NULL;
  if (!w) return NULL;
  if (h->ndims != 0)
    return op_fail(c, 1, "%s: Check failed: scale_h->shape.size() == 0 (%u vs. 0)", c->op->name, h->ndims);
  if (w->ndims != 0)
    return op_fail(c, 2, "%s: Check failed: scale_w->shape.size() == 0 (%u vs. 0)", c->op->name, w->ndims);
  return spatial_any(c, "NCHW",
                     "UpSampling only supports input layouts that are convertible from NCHW. But got %s",
                     dt_void);
}

static const Type *upsampling3d_rel(OpCall *c) {
  return spatial_any(c, "NCDHW",
                     "UpSampling3D only support input layouts that are convertible from NCDHW. But got %s",
                     dt_void);
}

static bool spatial5_recognize(const OpDef *op, const Type *t) { return spatial_form(op, t, 5) != 0; }

static bool spatial5_sample(OpGen *g, const OpDef *op, OpPlan *out) { return spatial_sample(g, op, out, 5); }

/* dyn.nn.upsampling(3d): the scales float32 scalars. */
static bool upsampling_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  static const char *const methods[] = {"nearest_neighbor", "bilinear", "bicubic"};
  opgen_plan_init(g, op, out);
  kit_arg(out, spatial_input(g, op, t, out, t->dtype));
  for (size_t i = 2; i < t->ndims; i++)
    kit_arg(out, kit_scalar(g, dt_float32));
  if (t->ndims == 4) {
    opgen_set_str(g, op, out, "method", kit_pick_str(g, methods, KIT_NELEMS(methods)));
    opgen_set_bool(g, op, out, "align_corners", rng_chance(g->rng, 1, 2));
  } else {
    opgen_set_str(g, op, out, "method", rng_chance(g->rng, 1, 2) ? "nearest_neighbor" : "trilinear");
    opgen_set_str(g, op, out, "coordinate_transformation_mode",
                  rng_chance(g->rng, 1, 2) ? "half_pixel" : "asymmetric");
  }
  out->result = t;
  return true;
}

static const OpDef dyn_upsampling_ops[] = {
    KIT_OP("dyn.nn.upsampling", 3, kit_dyn_upsampling_attrs, upsampling_rel,
           KIT_GEN(OPDT_FLOAT, spatial4_recognize, upsampling_solve, spatial4_sample)),
    KIT_OP("dyn.nn.upsampling3d", 4, kit_dyn_upsampling3d_attrs, upsampling3d_rel,
           KIT_GEN(OPDT_FLOAT, spatial5_recognize, upsampling_solve, spatial5_sample)),
};
OP_REGISTER(dyn_upsampling_ops);

/* ------------------------------------------------------------------ dyn.image.resize2d */

static const Type *resize2d_rel(OpCall *c) {
  return spatial_any(c, "NCHW",
                     "Resize only support input layouts that are convertible from NCHW. But got %s",
                     op_dtype(c, "out_dtype"));
}

/* dyn.image.resize2d: size a (2) int tensor, roi a (4) float32 tensor. */
static bool resize2d_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  static const char *const methods[] = {"nearest_neighbor", "linear", "cubic"};
  static const char *const modes[] = {"half_pixel", "align_corners", "asymmetric"};
  opgen_plan_init(g, op, out);
  bool cast = rng_chance(g->rng, 1, 4);
  kit_arg(out, spatial_input(g, op, t, out, cast ? opgen_dtype(g, OPDT_FLOAT) : t->dtype));
  kit_arg(out, index_vector(g, 2));
  int64_t four = 4;
  kit_arg(out, kit_tensor(g, dt_float32, &four, 1));
  opgen_set_str(g, op, out, "method", kit_pick_str(g, methods, KIT_NELEMS(methods)));
  opgen_set_str(g, op, out, "coordinate_transformation_mode", kit_pick_str(g, modes, KIT_NELEMS(modes)));
  if (cast || rng_chance(g->rng, 1, 4)) kit_set_dtype(g, op, out, "out_dtype", t->dtype);
  out->result = t;
  return true;
}

static const OpDef dyn_image_resize2d_ops[] = {
    KIT_OP("dyn.image.resize2d", 3, kit_resize2d_attrs, resize2d_rel,
           KIT_GEN(OPDT_FLOAT, spatial4_recognize, resize2d_solve, spatial4_sample)),
};
OP_REGISTER(dyn_image_resize2d_ops);
