/*
 * Reductions: sum, mean, max, min, prod, all, any (ReduceRel: the input's dtype), argmax, argmin
 * (GenericReduceRel<ArgReduceAttrs>: an index dtype) and variance (VarianceRel: two inputs).  Facts
 * from TVM v0.13 src/relay/op/tensor/reduce.cc (GetReduceAxes, ReduceShapeImpl and the relations)
 * and include/tvm/relay/attrs/reduce.h (ReduceAttrs, ArgReduceAttrs, VarianceAttrs).
 *
 * Deliberately absent: std, mean_variance, mean_std and logsumexp.  In TVM they are Python helpers
 * (python/tvm/relay/op/reduce.py) that build calls to mean, variance, sqrt, max, exp, sum, log and
 * squeeze; no operator of those names is registered, so TVM's parser rejects `std(%x)`.  An entry
 * here would make relaykit accept (and a sampler emit) text that TVM cannot read.
 */
#include <stdlib.h>

#include "../op.h"
#include "../../support/xalloc.h"

/* Which axes of the input a call reduces (GetReduceAxes), or false after failing with a message.
   `reduced` has one entry per input dimension. */
static bool reduce_axes(OpCall *c, size_t rank, bool *reduced) {
  const AttrVal *axis = op_attr(c, "axis");
  bool exclude = op_bool(c, "exclude");
  for (size_t i = 0; i < rank; i++) reduced[i] = false;

  /* axis=None and, since TVM PR 11643 (in v0.13), axis=[] both reduce every axis -- even with
     exclude=True, which GetReduceAxes never looks at in that case.  (Only the compute,
     GetExcludeAxes, objects to exclude with axis=None; the type relation does not.) */
  size_t n = axis->kind == ATTR_LIST ? axis->n : axis->kind == ATTR_INT ? 1 : 0;
  if (axis->kind == ATTR_NONE || (axis->kind == ATTR_LIST && n == 0)) {
    for (size_t i = 0; i < rank; i++) reduced[i] = true;
    return true;
  }
  if (axis->kind == ATTR_META) {
    op_fail(c, -1, "%s: axis must be a list of integers, got %s", c->op->name, axis->s);
    return false;
  }

  /* per input axis: whether it was named, and how (for the duplicate message) */
  bool *named = xcalloc(rank ? rank : 1, sizeof *named);
  int64_t *spelled = xcalloc(rank ? rank : 1, sizeof *spelled);
  for (size_t k = 0; k < n; k++) {
    const AttrVal *v = axis->kind == ATTR_LIST ? &axis->items[k] : axis;
    if (v->kind != ATTR_INT) {
      free(named);
      free(spelled);
      op_fail(c, -1, "%s: axis must be a list of integers, got %s", c->op->name, v->s ? v->s : "a non-integer");
      return false;
    }
    /* The check order is TVM's: each axis is normalised and range-checked as it comes. */
    size_t a;
    if (!op_axis(v->i, rank, &a)) {
      free(named);
      free(spelled);
      op_fail(c, -1, "%s: Axis out of bounds in reduce operator: axis %lld, input rank %zu", c->op->name,
              (long long)v->i, rank);
      return false;
    }
    /* TVM does not check this: a repeated axis makes ReduceShapeImpl write past its output vector
       (keepdims=False) or silently skip later axes (keepdims=True), while topi's compute drops the
       repeat.  No answer would match TVM, so the call is refused. */
    if (named[a]) {
      op_fail(c, -1, "%s: duplicate axis in reduce operator: %lld and %lld both name axis %zu", c->op->name,
              (long long)spelled[a], (long long)v->i, a);
      free(named);
      free(spelled);
      return false;
    }
    named[a] = true;
    spelled[a] = v->i;
  }
  for (size_t i = 0; i < rank; i++) reduced[i] = exclude ? !named[i] : named[i];
  free(named);
  free(spelled);
  return true;
}

/* ReduceShapeImpl: the result shape for `data` with element type `dtype`, or NULL after failing. */
static const Type *reduce_shape(OpCall *c, const Type *data, DType dtype) {
  size_t rank = data->ndims;
  bool *reduced = xmalloc((rank ? rank : 1) * sizeof *reduced);
  if (!reduce_axes(c, rank, reduced)) {
    free(reduced);
    return NULL;
  }

  /* When a reduced axis is `?`, TVM asserts that the product of the static reduced extents met
     before it (in axis order) stays below INT32_MAX; being constant, the assertion is decided. */
  int64_t product = 1;
  for (size_t i = 0; i < rank; i++) {
    if (!reduced[i]) continue;
    if (data->dims[i] == TY_DIM_ANY) {
      if (product >= INT32_MAX) {
        free(reduced);
        return op_fail(c, 0, "%s: The maximum possible index of reduced shape cannot be more than int32 max",
                       c->op->name);
      }
      break;
    }
    /* saturate rather than overflow: only the comparison with INT32_MAX matters */
    product = data->dims[i] != 0 && product > INT64_MAX / data->dims[i] ? INT64_MAX : product * data->dims[i];
  }

  /* keepdims leaves a 1 where an axis was reduced; otherwise the axis goes.  With nothing reduced
     (exclude naming every axis, or a rank-0 input) the shape is the input's. */
  bool keepdims = op_bool(c, "keepdims");
  int64_t *dims = xmalloc((rank ? rank : 1) * sizeof *dims);
  size_t n = 0;
  for (size_t i = 0; i < rank; i++) {
    if (!reduced[i]) dims[n++] = data->dims[i];
    else if (keepdims) dims[n++] = 1;
  }
  const Type *t = ty_tensor(c->types, dtype, dims, n);
  free(dims);
  free(reduced);
  return t;
}

/* The ICHECK that GenericReduceRel and VarianceRel make (ReduceRel does not): a scalar input is an
   internal error in TVM. */
static const Type *nonscalar_tensor_arg(OpCall *c, size_t i) {
  const Type *t = op_tensor_arg(c, i);
  if (t && t->ndims == 0)
    return op_fail(c, (int)i, "%s: Check failed: data->shape.size() != 0: the input must have at least one dimension",
                   c->op->name);
  return t;
}

/* ReduceRel: the reduced shape, the input's dtype (all and any included: TVM does not ask for bool). */
static const Type *reduce_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  return data ? reduce_shape(c, data, data->dtype) : NULL;
}

/* GenericReduceRel<ArgReduceAttrs>: the reduced shape with the dtype of the input's first dimension.
   Dimensions written in Relay text (and `?`) are int32 IntImms, so the indices are int32. */
static const Type *arg_reduce_rel(OpCall *c) {
  const Type *data = nonscalar_tensor_arg(c, 0);
  return data ? reduce_shape(c, data, dt_int32) : NULL;
}

/* VarianceRel: variance(data, mean) -- the mean (as mean(..., keepdims=True) gives it) must have the
   data's rank; its shape and dtype are not otherwise checked.  The result is data's dtype. */
static const Type *variance_rel(OpCall *c) {
  const Type *data = nonscalar_tensor_arg(c, 0);
  const Type *mean = data ? op_tensor_arg(c, 1) : NULL;
  if (!mean) return NULL;
  if (mean->ndims != data->ndims)
    return op_fail(c, 1, "variance: the mean has rank %u but the data has rank %u (Check failed: in_shape.size() == mean_shape.size())",
                   mean->ndims, data->ndims);
  return reduce_shape(c, data, data->dtype);
}

/* Attribute schemas in TVM's declaration order.  ArgReduceAttrs puts select_last_index before
   exclude; VarianceAttrs appends unbiased. */
static const OpAttrSpec reduce_attrs[] = {
    {"axis", AT_INTS, "None"}, {"keepdims", AT_BOOL, "False"}, {"exclude", AT_BOOL, "False"}};
static const OpAttrSpec arg_reduce_attrs[] = {{"axis", AT_INTS, "None"},
                                              {"keepdims", AT_BOOL, "False"},
                                              {"select_last_index", AT_BOOL, "False"},
                                              {"exclude", AT_BOOL, "False"}};
static const OpAttrSpec variance_attrs[] = {{"axis", AT_INTS, "None"},
                                            {"keepdims", AT_BOOL, "False"},
                                            {"exclude", AT_BOOL, "False"},
                                            {"unbiased", AT_BOOL, "False"}};

#define REDUCE(n) OP_ENTRY(n, 1, 1, reduce_attrs, sizeof reduce_attrs / sizeof reduce_attrs[0], reduce_rel)
#define ARG_REDUCE(n) OP_ENTRY(n, 1, 1, arg_reduce_attrs, sizeof arg_reduce_attrs / sizeof arg_reduce_attrs[0], arg_reduce_rel)

const OpDef op_family_reduce[] = {
    REDUCE("sum"), REDUCE("mean"), REDUCE("max"), REDUCE("min"), REDUCE("prod"), REDUCE("all"), REDUCE("any"),
    ARG_REDUCE("argmax"), ARG_REDUCE("argmin"),
    OP_ENTRY("variance", 2, 2, variance_attrs, sizeof variance_attrs / sizeof variance_attrs[0], variance_rel),
};
const size_t op_family_reduce_len = sizeof op_family_reduce / sizeof op_family_reduce[0];
