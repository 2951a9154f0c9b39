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

#include "kit.h"
#include "../../support/xalloc.h"

OP_FAMILY(reduce);

/* ================================================================== helpers the blocks below share */

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

/* ------------------------------------------------------------------ generators */

/* Which dtype the input has for a result of dtype `out`: argmax/argmin turn any number into int32. */
static bool is_arg_reduce(const OpDef *op) { return op->relation == arg_reduce_rel; }

static bool reduce_recognize(const OpDef *op, const Type *t) {
  if (t->kind != TY_TENSOR) return false;
  if (is_arg_reduce(op)) return dtype_eq(t->dtype, dt_int32);
  return opgen_dtype_in_class((OpDtypes)op->gen_dtypes, t->dtype);
}

/* Solves a reduction backwards: the input is the result with k reduced dimensions put back
   (as 1s turned into any size when keepdims), the axes name them (sometimes negatively, sometimes
   by exclusion).  A scalar result may also come from axis=None over any input. */
static bool reduce_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  const OpGenPolicy *p = g->policy;
  DType in_dtype = is_arg_reduce(op) ? opgen_dtype(g, OPDT_NUMERIC) : t->dtype;
  bool need_rank = is_arg_reduce(op) || op->relation == variance_rel; /* scalar inputs are refused */
  int64_t dims[16], axes[16];
  size_t rank = 0, naxes = 0;
  bool keepdims = false;

  /* keepdims: reduce some of the result's 1-dimensions in place. */
  size_t ones = 0;
  for (uint32_t i = 0; i < t->ndims; i++) ones += t->dims[i] == 1;
  if (ones > 0 && rng_chance(g->rng, 1, 3)) {
    keepdims = true;
    for (uint32_t i = 0; i < t->ndims && i < 16; i++) {
      dims[rank] = t->dims[i];
      if (t->dims[i] == 1 && (naxes == 0 || rng_chance(g->rng, 1, 2))) {
        dims[rank] = rng_range(g->rng, 1, p->max_dim);
        axes[naxes++] = (int64_t)rank;
      }
      rank++;
    }
  } else if (t->ndims == 0 && rng_chance(g->rng, 1, 2)) {
    /* axis=None: everything reduced */
    const Type *in = opgen_tensor(g, in_dtype, need_rank ? 1 : 0, p->max_rank);
    out->args[0] = in;
    out->nargs = 1;
    if (op->relation == variance_rel) {
      int64_t ones_dims[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
      out->args[1] = ty_tensor(g->types, in_dtype, ones_dims, in->ndims);
      out->nargs = 2;
    }
    out->result = t;
    return true;
  } else {
    /* put k new dimensions back, at random places */
    size_t room = p->max_rank > t->ndims ? p->max_rank - t->ndims : 0;
    if (room == 0) room = 1;
    size_t k = (size_t)rng_range(g->rng, 1, (int64_t)room);
    size_t total = t->ndims + k;
    if (total > 16) return false;
    bool reduced[16] = {0};
    for (size_t placed = 0; placed < k;) {
      size_t at = rng_index(g->rng, total);
      if (!reduced[at]) {
        reduced[at] = true;
        placed++;
      }
    }
    size_t from = 0;
    for (size_t i = 0; i < total; i++) {
      if (reduced[i]) {
        dims[i] = rng_range(g->rng, 1, p->max_dim);
        axes[naxes++] = (int64_t)i;
      } else {
        dims[i] = t->dims[from++];
      }
    }
    rank = total;
    /* exclude=True names the kept axes instead (needs at least one, or TVM reduces all). */
    if (t->ndims > 0 && rng_chance(g->rng, 1, 5)) {
      naxes = 0;
      for (size_t i = 0; i < total; i++)
        if (!reduced[i]) axes[naxes++] = (int64_t)i;
      opgen_set_bool(g, op, out, "exclude", true);
    }
  }
  for (size_t i = 0; i < naxes; i++)
    if (rng_chance(g->rng, 1, 4)) axes[i] -= (int64_t)rank; /* the same axis, counted from the end */
  const Type *in = ty_tensor(g->types, in_dtype, dims, rank);
  out->args[0] = in;
  out->nargs = 1;
  if (op->relation == variance_rel) {
    /* the mean, as mean(data, axis, keepdims=True) would give it */
    int64_t mdims[16];
    for (size_t i = 0; i < rank; i++) mdims[i] = dims[i];
    for (size_t i = 0; i < naxes; i++) mdims[axes[i] < 0 ? axes[i] + (int64_t)rank : axes[i]] = 1;
    out->args[1] = ty_tensor(g->types, in_dtype, mdims, rank);
    out->nargs = 2;
  }
  opgen_set_ints(g, op, out, "axis", axes, naxes);
  if (keepdims) opgen_set_bool(g, op, out, "keepdims", true);
  out->result = t;
  return true;
}

static bool reduce_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  DType d = is_arg_reduce(op) ? dt_int32 : opgen_dtype(g, (OpDtypes)op->gen_dtypes);
  return reduce_solve(g, op, opgen_tensor(g, d, 0, g->policy->max_rank > 0 ? g->policy->max_rank - 1 : 0), out);
}

/* Every reduction shares the generators; the dtype class differs. */
#define REDUCE(n, nargs, a, rel, cls) KIT_OP(n, nargs, a, rel, KIT_GEN(cls, reduce_recognize, reduce_solve, reduce_sample))

/* ------------------------------------------------------------------ sum, mean, max, ... */

/* ReduceRel: the reduced shape, the input's dtype (all and any included: TVM does not ask for bool). */
static const Type *reduce_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  return data ? reduce_shape(c, data, data->dtype) : NULL;
}

/* Attribute schemas in TVM's declaration order.  ArgReduceAttrs puts select_last_index before
   exclude; VarianceAttrs appends unbiased. */
static const OpAttrSpec reduce_attrs[] = {
    {"axis", AT_INTS, "None"}, {"keepdims", AT_BOOL, "False"}, {"exclude", AT_BOOL, "False"}};

static const OpDef reduce_ops[] = {
    REDUCE("sum", 1, reduce_attrs, reduce_rel, OPDT_NUMERIC),
    REDUCE("mean", 1, reduce_attrs, reduce_rel, OPDT_FLOAT),
    REDUCE("max", 1, reduce_attrs, reduce_rel, OPDT_NUMERIC),
    REDUCE("min", 1, reduce_attrs, reduce_rel, OPDT_NUMERIC),
    REDUCE("prod", 1, reduce_attrs, reduce_rel, OPDT_NUMERIC),
    REDUCE("all", 1, reduce_attrs, reduce_rel, OPDT_BOOL),
    REDUCE("any", 1, reduce_attrs, reduce_rel, OPDT_BOOL),
};
OP_REGISTER(reduce_ops);

/* ------------------------------------------------------------------ argmax, argmin */

static const OpAttrSpec arg_reduce_attrs[] = {{"axis", AT_INTS, "None"},
                                              {"keepdims", AT_BOOL, "False"},
                                              {"select_last_index", AT_BOOL, "False"},
                                              {"exclude", AT_BOOL, "False"}};

static const OpDef arg_reduce_ops[] = {
    REDUCE("argmax", 1, arg_reduce_attrs, arg_reduce_rel, OPDT_NUMERIC),
    REDUCE("argmin", 1, arg_reduce_attrs, arg_reduce_rel, OPDT_NUMERIC),
};
OP_REGISTER(arg_reduce_ops);

/* ------------------------------------------------------------------ variance */

static const OpAttrSpec variance_attrs[] = {{"axis", AT_INTS, "None"},
                                            {"keepdims", AT_BOOL, "False"},
                                            {"exclude", AT_BOOL, "False"},
                                            {"unbiased", AT_BOOL, "False"}};

static const OpDef variance_ops[] = {
    REDUCE("variance", 2, variance_attrs, variance_rel, OPDT_FLOAT),
};
OP_REGISTER(variance_ops);
