/*
 * Small tensor ops registered outside the big families: ndarray_size (src/relay/op/tensor/unary.cc),
 * reinterpret, auto_scheduler_layout_transform, meta_schedule_layout_transform and
 * fixed_point_multiply_per_axis (src/relay/op/tensor/transform.cc).  Attributes from
 * include/tvm/relay/attrs/transform.h (NdarraySizeAttrs, CastAttrs,
 * AutoSchedulerLayoutTransformAttrs, MetaScheduleLayoutTransformAttrs,
 * FixedPointMultiplyPerAxisAttrs); the auto-scheduler layout syntax from
 * include/tvm/topi/transform.h (parse_auto_scheduler_layout).
 *
 * Departure: meta_schedule_layout_transform's result shape is its index_map (a tir::IndexMap, in
 * text a meta[...] reference) applied to the data's shape; that map cannot be evaluated here, so
 * every call is rejected with a message saying so.  Not generated, for the same reason.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit.h"

OP_FAMILY(misc_extra);

/* ================================================================== helpers the blocks below share */

/* Every dimension known. */
static bool is_static(const Type *t) {
  if (t->kind != TY_TENSOR) return false;
  for (size_t i = 0; i < t->ndims; i++)
    if (t->dims[i] == TY_DIM_ANY) return false;
  return true;
}

/* ------------------------------------------------------------------ ndarray_size */

/* NdarraySizeRel: a scalar of the dtype attribute. */
static const Type *ndarray_size_rel(OpCall *c) {
  if (!op_tensor_arg(c, 0)) return NULL;
  return ty_scalar(c->types, op_dtype(c, "dtype"));
}

/* ndarray_size: an integer scalar, from any tensor. */
static bool ndarray_size_recognize(const OpDef *op, const Type *t) {
  (void)op;
  return t->kind == TY_TENSOR && t->ndims == 0 && opgen_dtype_in_class(OPDT_INT, t->dtype);
}

static bool ndarray_size_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!ndarray_size_recognize(op, t)) return false;
  opgen_plan_init(g, op, out);
  out->args[0] = opgen_tensor(g, opgen_dtype(g, OPDT_ANY), 0, g->policy->max_rank);
  out->nargs = 1;
  kit_set_dtype(g, op, out, "dtype", t->dtype);
  out->result = t;
  return true;
}

static bool ndarray_size_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  return ndarray_size_solve(g, op, ty_scalar(g->types, opgen_dtype(g, OPDT_INT)), out);
}

/* NdarraySizeAttrs: dtype defaults to void (Python passes "int32"). */
static const OpAttrSpec ndarray_size_attrs[] = {{"dtype", AT_DTYPE, "\"\""}};

static const OpDef ndarray_size_ops[] = {
    KIT_OP("ndarray_size", 1, ndarray_size_attrs, ndarray_size_rel,
           KIT_GEN(OPDT_INT, ndarray_size_recognize, ndarray_size_solve, ndarray_size_sample)),
};
OP_REGISTER(ndarray_size_ops);

/* ------------------------------------------------------------------ reinterpret */

/* CastRel (reinterpret registers it): the data's shape, the dtype attribute. */
static const Type *reinterpret_rel(OpCall *c) {
  const Type *t = c->args[0];
  if (t->kind != TY_TENSOR) {
    char *s = ty_str(t);
    op_fail(c, 0, "cast: expect input type to be TensorType but get %s", s);
    free(s);
    return NULL;
  }
  return ty_tensor(c->types, op_dtype(c, "dtype"), t->dims, t->ndims);
}

/* reinterpret: the data has the result's shape and a dtype of the same width (topi's reinterpret
   keeps the bits). */
static const DType reinterpretable[] = {{DT_INT, 8, 1},   {DT_UINT, 8, 1},  {DT_INT, 16, 1}, {DT_UINT, 16, 1},
                                        {DT_FLOAT, 16, 1}, {DT_INT, 32, 1},  {DT_UINT, 32, 1}, {DT_FLOAT, 32, 1},
                                        {DT_INT, 64, 1},  {DT_UINT, 64, 1}, {DT_FLOAT, 64, 1}};

static bool reinterpret_recognize(const OpDef *op, const Type *t) {
  (void)op;
  if (!is_static(t)) return false;
  for (size_t i = 0; i < KIT_NELEMS(reinterpretable); i++)
    if (dtype_eq(t->dtype, reinterpretable[i])) return true;
  return false;
}

static bool reinterpret_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!reinterpret_recognize(op, t)) return false;
  DType same[KIT_NELEMS(reinterpretable)];
  size_t n = 0;
  for (size_t i = 0; i < KIT_NELEMS(reinterpretable); i++)
    if (reinterpretable[i].bits == t->dtype.bits) same[n++] = reinterpretable[i];
  opgen_plan_init(g, op, out);
  out->args[0] = opgen_with_dtype(g, t, same[rng_index(g->rng, n)]);
  out->nargs = 1;
  kit_set_dtype(g, op, out, "dtype", t->dtype);
  out->result = t;
  return true;
}

static const OpDef reinterpret_ops[] = {
    KIT_OP("reinterpret", 1, kit_cast_attrs, reinterpret_rel,
           KIT_GEN(OPDT_NUMERIC, reinterpret_recognize, reinterpret_solve, opgen_sample_by_solving)),
};
OP_REGISTER(reinterpret_ops);

/* ------------------------------------------------------------------ auto_scheduler_layout_transform */

/* AutoSchedulerLayoutTransformRel: the result's shape is the numbers of dst_layout, each written
   before its axis letters ("1N2C112H112W16c" is (1, 2, 112, 112, 16)); a number not followed by
   a letter and a zero are not dimensions (parse_auto_scheduler_layout). */
static const Type *auto_scheduler_layout_transform_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  if (!data) return NULL;
  if (op_is_none(c, "dst_layout"))
    return op_fail(c, -1, "%s: Cannot find required field 'dst_layout' during initialization", c->op->name);
  const char *l = op_str(c, "dst_layout");
  int64_t dims[64], factor = 0;
  size_t n = 0;
  for (const char *p = l; *p; p++) {
    if (*p >= 'A' && *p <= 'z') {
      if (factor != 0) {
        if (n == KIT_NELEMS(dims)) return op_fail(c, -1, "%s: layout %s has too many dimensions", c->op->name, l);
        dims[n++] = factor;
        factor = 0;
      }
    } else if (*p >= '0' && *p <= '9') {
      if (factor > (INT64_MAX - 9) / 10) return op_fail(c, -1, "%s: a factor of layout %s is too large", c->op->name, l);
      factor = factor * 10 + (*p - '0');
    } else {
      return op_fail(c, -1, "%s: Invalid layout %s", c->op->name, l);
    }
  }
  return ty_tensor(c->types, data->dtype, dims, n);
}

/* auto_scheduler_layout_transform: dst_layout spells the result's shape, one axis letter per
   dimension; src_layout the same axes in another order, which is the data's shape. */
static bool ast_recognize(const OpDef *op, const Type *t) {
  (void)op;
  if (!is_static(t) || t->ndims > 8) return false;
  for (size_t i = 0; i < t->ndims; i++)
    if (t->dims[i] < 1) return false; /* a 0 in a layout is not a dimension */
  return true;
}

static bool ast_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!ast_recognize(op, t)) return false;
  size_t n = t->ndims, perm[8];
  for (size_t i = 0; i < n; i++) perm[i] = i;
  for (size_t i = n; i > 1; i--) {
    size_t j = rng_index(g->rng, i), tmp = perm[i - 1];
    perm[i - 1] = perm[j];
    perm[j] = tmp;
  }
  char src[256] = "", dst[256] = "";
  int64_t in[8];
  size_t ls = 0, ld = 0;
  for (size_t i = 0; i < n; i++) {
    ld += (size_t)snprintf(dst + ld, sizeof dst - ld, "%lld%c", (long long)t->dims[i], (char)('A' + i));
    ls += (size_t)snprintf(src + ls, sizeof src - ls, "%lld%c", (long long)t->dims[perm[i]], (char)('A' + perm[i]));
    in[i] = t->dims[perm[i]];
  }
  opgen_plan_init(g, op, out);
  out->args[0] = ty_tensor(g->types, t->dtype, in, n);
  out->nargs = 1;
  opgen_set_str(g, op, out, "src_layout", src);
  opgen_set_str(g, op, out, "dst_layout", dst);
  out->result = t;
  return true;
}

/* AutoSchedulerLayoutTransformAttrs: the layout strings have no default. */
static const OpAttrSpec ast_attrs[] = {{"src_layout", AT_STR, "None"}, {"dst_layout", AT_STR, "None"}};

static const OpDef auto_scheduler_layout_transform_ops[] = {
    KIT_OP("auto_scheduler_layout_transform", 1, ast_attrs, auto_scheduler_layout_transform_rel,
           KIT_GEN(OPDT_ANY, ast_recognize, ast_solve, opgen_sample_by_solving)),
};
OP_REGISTER(auto_scheduler_layout_transform_ops);

/* ------------------------------------------------------------------ meta_schedule_layout_transform */

static const Type *meta_schedule_layout_transform_rel(OpCall *c) {
  return op_fail(c, -1, "%s: the result shape is the index_map applied to the data's shape, which cannot be evaluated here",
                 c->op->name);
}

/* MetaScheduleLayoutTransformAttrs: index_map has no default. */
static const OpAttrSpec mslt_attrs[] = {{"index_map", AT_ANY, "None"}};

static const OpDef meta_schedule_layout_transform_ops[] = {
    KIT_OP("meta_schedule_layout_transform", 1, mslt_attrs, meta_schedule_layout_transform_rel),
};
OP_REGISTER(meta_schedule_layout_transform_ops);

/* ------------------------------------------------------------------ fixed_point_multiply_per_axis */

/* FixedPointMultiplyPerAxisRel: four tensors; the result has the data's type. */
static const Type *fixed_point_multiply_per_axis_rel(OpCall *c) {
  for (size_t i = 0; i < 4; i++)
    if (c->args[i]->kind != TY_TENSOR) {
      char *s = ty_str(c->args[i]);
      op_fail(c, (int)i, "FixedPointMultiplyPerAxis: expect input type to be TensorType but get %s", s);
      free(s);
      return NULL;
    }
  return c->args[0];
}

/* fixed_point_multiply_per_axis: int32 data (topi requires it), int32 multipliers and shifts along
   one axis. */
static bool fpm_recognize(const OpDef *op, const Type *t) {
  (void)op;
  return is_static(t) && t->ndims >= 1 && dtype_eq(t->dtype, dt_int32);
}

static bool fpm_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!fpm_recognize(op, t)) return false;
  int64_t a = (int64_t)rng_index(g->rng, t->ndims), len = t->dims[a];
  opgen_plan_init(g, op, out);
  out->args[0] = t;
  for (size_t i = 1; i <= 3; i++) out->args[i] = ty_tensor(g->types, dt_int32, &len, 1);
  out->nargs = 4;
  opgen_set_ints(g, op, out, "axes", &a, 1);
  opgen_set_bool(g, op, out, "is_lshift_required", rng_chance(g->rng, 1, 2));
  opgen_set_bool(g, op, out, "is_rshift_required", rng_chance(g->rng, 1, 2));
  out->result = t;
  return true;
}

static bool fpm_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  return fpm_solve(g, op, opgen_tensor(g, dt_int32, 1, g->policy->max_rank), out);
}

/* FixedPointMultiplyPerAxisAttrs: the shifts default to false, axes has no default. */
static const OpAttrSpec fpm_attrs[] = {
    {"is_lshift_required", AT_BOOL, "False"}, {"is_rshift_required", AT_BOOL, "False"}, {"axes", AT_INTS, "None"}};

static const OpDef fixed_point_multiply_per_axis_ops[] = {
    KIT_OP("fixed_point_multiply_per_axis", 4, fpm_attrs, fixed_point_multiply_per_axis_rel,
           KIT_GEN(OPDT_INT, fpm_recognize, fpm_solve, fpm_sample)),
};
OP_REGISTER(fixed_point_multiply_per_axis_ops);
