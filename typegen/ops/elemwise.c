/*
 * Elementwise operators: unary (IdentityRel), binary with broadcasting (BroadcastRel), comparisons
 * and logical ops (BroadcastCompRel: bool result), and the small elementwise family with
 * attributes (clip, cast, leaky_relu, ...).  Facts from TVM v0.13 src/relay/op/tensor/unary.cc,
 * binary.cc, transform.cc and src/relay/op/type_relations.cc.
 */

#include "kit.h"

OP_FAMILY(elemwise);

/* BroadcastRel: both operands have one dtype; the result has that dtype and the broadcast shape. */
static const Type *broadcast_rel(OpCall *c) {
  const Type *a = op_tensor_arg(c, 0), *b = a ? op_tensor_arg(c, 1) : NULL;
  if (!b) return NULL;
  if (!dtype_eq(a->dtype, b->dtype)) {
    char da[16], db[16];
    return op_fail(c, 1, "%s: data types %s and %s do not match in BroadcastRel", c->op->name,
                   dtype_str(a->dtype, da), dtype_str(b->dtype, db));
  }
  return op_broadcast(c, a, b, a->dtype);
}

/* ------------------------------------------------------------------ acos, acosh, asin, ... */

#define UNARY_GEN(cls) KIT_GEN(cls, opgen_unary_recognize, opgen_unary_solve, opgen_unary_sample)

#define UNARY(n, cls) {.name = n, .min_args = 1, .max_args = 1, .relation = kit_identity_rel, UNARY_GEN(cls)}

static const OpDef unary_ops[] = {
    /* unary math (unary.cc): float ops, as TVM's compute defines them */
    UNARY("acos", OPDT_FLOAT),
    UNARY("acosh", OPDT_FLOAT),
    UNARY("asin", OPDT_FLOAT),
    UNARY("asinh", OPDT_FLOAT),
    UNARY("atan", OPDT_FLOAT),
    UNARY("atanh", OPDT_FLOAT),
    UNARY("ceil", OPDT_FLOAT),
    UNARY("cos", OPDT_FLOAT),
    UNARY("cosh", OPDT_FLOAT),
    UNARY("erf", OPDT_FLOAT),
    UNARY("exp", OPDT_FLOAT),
    UNARY("fast_erf", OPDT_FLOAT),
    UNARY("fast_exp", OPDT_FLOAT),
    UNARY("fast_tanh", OPDT_FLOAT),
    UNARY("floor", OPDT_FLOAT),
    UNARY("log", OPDT_FLOAT),
    UNARY("log10", OPDT_FLOAT),
    UNARY("log2", OPDT_FLOAT),
    UNARY("round", OPDT_FLOAT),
    UNARY("rsqrt", OPDT_FLOAT),
    UNARY("sigmoid", OPDT_FLOAT),
    UNARY("sin", OPDT_FLOAT),
    UNARY("sinh", OPDT_FLOAT),
    UNARY("sqrt", OPDT_FLOAT),
    UNARY("tan", OPDT_FLOAT),
    UNARY("tanh", OPDT_FLOAT),
    UNARY("trunc", OPDT_FLOAT),
    /* unary on any number */
    UNARY("abs", OPDT_NUMERIC),
    UNARY("negative", OPDT_NUMERIC),
    UNARY("sign", OPDT_NUMERIC),
    UNARY("nn.relu", OPDT_NUMERIC),
    UNARY("logical_not", OPDT_BOOL),
    UNARY("bitwise_not", OPDT_INT),
    UNARY("copy", OPDT_ANY),
    UNARY("zeros_like", OPDT_ANY),
    UNARY("ones_like", OPDT_ANY),
};
OP_REGISTER(unary_ops);

/* ------------------------------------------------------------------ isnan, isinf, isfinite */

/* Ops whose result is an integer tensor of the same shape (e.g. isnan gives bool). */
static const Type *bool_identity_rel(OpCall *c) {
  const Type *t = op_tensor_arg(c, 0);
  return t ? ty_tensor(c->types, dt_bool, t->dims, t->ndims) : NULL;
}

static bool float_test_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  out->args[0] = opgen_with_dtype(g, t, opgen_dtype(g, OPDT_FLOAT));
  out->nargs = 1;
  out->result = t;
  return true;
}

static bool float_test_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  const Type *t = opgen_tensor(g, dt_bool, 0, g->policy->max_rank);
  return float_test_solve(g, op, t, out);
}

#define FLOAT_TEST(n) \
  {.name = n, .min_args = 1, .max_args = 1, .relation = bool_identity_rel, \
   KIT_GEN(OPDT_BOOL, opgen_compare_recognize, float_test_solve, float_test_sample)}

static const OpDef float_test_ops[] = {
    /* not here: stop_gradient and atan2, which TVM v0.13 does not register ("operator ... not
       found", measured by tests/tvm/fidelity.py) */
    FLOAT_TEST("isnan"),
    FLOAT_TEST("isinf"),
    FLOAT_TEST("isfinite"),
};
OP_REGISTER(float_test_ops);

/* ------------------------------------------------------------------ add, subtract, multiply, ... */

#define BINARY(n, cls) \
  {.name = n, .min_args = 2, .max_args = 2, .relation = broadcast_rel, \
   KIT_GEN(cls, opgen_unary_recognize, opgen_binary_solve, opgen_binary_sample)}

static const OpDef binary_ops[] = {
    /* binary with broadcasting (binary.cc) */
    BINARY("add", OPDT_NUMERIC),
    BINARY("subtract", OPDT_NUMERIC),
    BINARY("multiply", OPDT_NUMERIC),
    BINARY("divide", OPDT_FLOAT),
    BINARY("floor_divide", OPDT_NUMERIC),
    BINARY("trunc_divide", OPDT_NUMERIC),
    BINARY("mod", OPDT_INT),
    BINARY("floor_mod", OPDT_NUMERIC),
    BINARY("trunc_mod", OPDT_INT),
    BINARY("power", OPDT_FLOAT),
    BINARY("maximum", OPDT_NUMERIC),
    BINARY("minimum", OPDT_NUMERIC),
    BINARY("logical_and", OPDT_BOOL),
    BINARY("logical_or", OPDT_BOOL),
    BINARY("logical_xor", OPDT_BOOL),
    BINARY("bitwise_and", OPDT_INT),
    BINARY("bitwise_or", OPDT_INT),
    BINARY("bitwise_xor", OPDT_INT),
    BINARY("left_shift", OPDT_INT),
    BINARY("right_shift", OPDT_INT),
};
OP_REGISTER(binary_ops);

/* ------------------------------------------------------------------ equal, not_equal, less, ... */

/* BroadcastCompRel: as BroadcastRel, with a bool result. */
static const Type *broadcast_comp_rel(OpCall *c) {
  const Type *t = broadcast_rel(c);
  return t ? ty_tensor(c->types, dt_bool, t->dims, t->ndims) : NULL;
}

#define COMPARE(n) \
  {.name = n, .min_args = 2, .max_args = 2, .relation = broadcast_comp_rel, \
   KIT_GEN(OPDT_BOOL, opgen_compare_recognize, opgen_compare_solve, opgen_compare_sample)}

static const OpDef compare_ops[] = {
    /* comparisons: bool result */
    COMPARE("equal"),      COMPARE("not_equal"), COMPARE("less"),
    COMPARE("less_equal"), COMPARE("greater"),   COMPARE("greater_equal"),
};
OP_REGISTER(compare_ops);

/* ------------------------------------------------------------------ clip */

/* clip: a_min <= a_max, small values around zero. */
static bool clip_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_unary_solve(g, op, t, out);
  int64_t lo = rng_range(g->rng, -8, 4), hi = lo + rng_range(g->rng, 0, 8);
  opgen_set_float(g, op, out, "a_min", (double)lo);
  opgen_set_float(g, op, out, "a_max", (double)hi);
  return true;
}

static const OpAttrSpec clip_attrs[] = {{"a_min", AT_FLOAT, "0f"}, {"a_max", AT_FLOAT, "0f"}};

static const OpDef clip_ops[] = {
    /* elementwise with attributes */
    KIT_OP("clip", 1, clip_attrs, kit_identity_rel,
           KIT_GEN(OPDT_NUMERIC, opgen_unary_recognize, clip_solve, opgen_sample_by_solving)),
};
OP_REGISTER(clip_ops);

/* ------------------------------------------------------------------ cast */

/* cast(data, dtype): same shape, the new dtype. */
static const Type *cast_rel(OpCall *c) {
  const Type *t = op_tensor_arg(c, 0);
  return t ? ty_tensor(c->types, op_dtype(c, "dtype"), t->dims, t->ndims) : NULL;
}

/* cast: any dtype to the result's; the target dtype is the attribute. */
static bool cast_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  out->args[0] = opgen_with_dtype(g, t, opgen_dtype(g, OPDT_ANY));
  out->nargs = 1;
  char buf[16];
  opgen_set_str(g, op, out, "dtype", dtype_str(t->dtype, buf));
  out->result = t;
  return true;
}

static const OpDef cast_ops[] = {
    KIT_OP("cast", 1, kit_cast_attrs, cast_rel,
           KIT_GEN(OPDT_ANY, opgen_unary_recognize, cast_solve, opgen_sample_by_solving)),
};
OP_REGISTER(cast_ops);

/* ------------------------------------------------------------------ cast_like */

/* cast_like(data, like): the shape of data, the dtype of like. */
static const Type *cast_like_rel(OpCall *c) {
  const Type *t = op_tensor_arg(c, 0), *like = t ? op_tensor_arg(c, 1) : NULL;
  return like ? ty_tensor(c->types, like->dtype, t->dims, t->ndims) : NULL;
}

/* cast_like: the data takes the result's shape, the `like` tensor its dtype. */
static bool cast_like_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_plan_init(g, op, out);
  out->args[0] = opgen_with_dtype(g, t, opgen_dtype(g, OPDT_ANY));
  out->args[1] = opgen_tensor(g, t->dtype, 0, g->policy->max_rank);
  out->nargs = 2;
  out->result = t;
  return true;
}

static const OpDef cast_like_ops[] = {
    {.name = "cast_like",
     .min_args = 2,
     .max_args = 2,
     .relation = cast_like_rel,
     KIT_GEN(OPDT_ANY, opgen_unary_recognize, cast_like_solve, opgen_sample_by_solving)},
};
OP_REGISTER(cast_like_ops);

/* ------------------------------------------------------------------ nn.leaky_relu */

static bool leaky_relu_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_unary_solve(g, op, t, out);
  static const double alphas[] = {0.01, 0.1, 0.2, 0.25, 0.3};
  opgen_set_float(g, op, out, "alpha", alphas[rng_index(g->rng, 5)]);
  return true;
}

static const OpDef leaky_relu_ops[] = {
    KIT_OP("nn.leaky_relu", 1, kit_leaky_relu_attrs, kit_identity_rel,
           KIT_GEN(OPDT_FLOAT, opgen_unary_recognize, leaky_relu_solve, opgen_sample_by_solving)),
};
OP_REGISTER(leaky_relu_ops);

/* ------------------------------------------------------------------ fixed_point_multiply */

/* fixed_point_multiply: int32 only (the compute requires it). */
static bool fixed_point_recognize(const OpDef *op, const Type *t) {
  (void)op;
  return t->kind == TY_TENSOR && dtype_eq(t->dtype, dt_int32);
}

static bool fixed_point_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  opgen_unary_solve(g, op, t, out);
  opgen_set_int(g, op, out, "multiplier", rng_range(g->rng, 1, 2147483647));
  opgen_set_int(g, op, out, "shift", rng_range(g->rng, -31, 31));
  return true;
}

static bool fixed_point_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  return fixed_point_solve(g, op, opgen_tensor(g, dt_int32, 0, g->policy->max_rank), out);
}

static const OpAttrSpec fixed_point_multiply_attrs[] = {{"multiplier", AT_INT, "0"}, {"shift", AT_INT, "0"}};

static const OpDef fixed_point_multiply_ops[] = {
    KIT_OP("fixed_point_multiply", 1, fixed_point_multiply_attrs, kit_identity_rel,
           KIT_GEN(OPDT_INT, fixed_point_recognize, fixed_point_solve, fixed_point_sample)),
};
OP_REGISTER(fixed_point_multiply_ops);
