/*
 * Elementwise operators: unary (IdentityRel), binary with broadcasting (BroadcastRel), comparisons
 * and logical ops (BroadcastCompRel: bool result), and the small elementwise family with
 * attributes (clip, cast, leaky_relu, ...).  Facts from TVM v0.13 src/relay/op/tensor/unary.cc,
 * binary.cc, transform.cc and src/relay/op/type_relations.cc.
 */
#include "../op.h"

/* IdentityRel: the result has the type of the (only) argument. */
static const Type *identity_rel(OpCall *c) { return op_tensor_arg(c, 0); }

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

/* BroadcastCompRel: as BroadcastRel, with a bool result. */
static const Type *broadcast_comp_rel(OpCall *c) {
  const Type *t = broadcast_rel(c);
  return t ? ty_tensor(c->types, dt_bool, t->dims, t->ndims) : NULL;
}

/* Ops whose result is an integer tensor of the same shape (e.g. isnan gives bool). */
static const Type *bool_identity_rel(OpCall *c) {
  const Type *t = op_tensor_arg(c, 0);
  return t ? ty_tensor(c->types, dt_bool, t->dims, t->ndims) : NULL;
}

/* cast(data, dtype): same shape, the new dtype. */
static const Type *cast_rel(OpCall *c) {
  const Type *t = op_tensor_arg(c, 0);
  return t ? ty_tensor(c->types, op_dtype(c, "dtype"), t->dims, t->ndims) : NULL;
}

/* cast_like(data, like): the shape of data, the dtype of like. */
static const Type *cast_like_rel(OpCall *c) {
  const Type *t = op_tensor_arg(c, 0), *like = t ? op_tensor_arg(c, 1) : NULL;
  return like ? ty_tensor(c->types, like->dtype, t->dims, t->ndims) : NULL;
}

/* zeros_like / ones_like / copy: IdentityRel on the first argument. */

static const OpAttrSpec clip_attrs[] = {{"a_min", AT_FLOAT, "0f"}, {"a_max", AT_FLOAT, "0f"}};
static const OpAttrSpec cast_attrs[] = {{"dtype", AT_DTYPE, "\"\""}};
static const OpAttrSpec leaky_relu_attrs[] = {{"alpha", AT_FLOAT, "0.25f"}};
static const OpAttrSpec fixed_point_multiply_attrs[] = {{"multiplier", AT_INT, "0"}, {"shift", AT_INT, "0"}};

#define UNARY(n) OP_ENTRY(n, 1, 1, NULL, 0, identity_rel)
#define BINARY(n) OP_ENTRY(n, 2, 2, NULL, 0, broadcast_rel)
#define COMPARE(n) OP_ENTRY(n, 2, 2, NULL, 0, broadcast_comp_rel)
#define WITH_ATTRS(n, nargs, a, rel) OP_ENTRY(n, nargs, nargs, a, sizeof a / sizeof a[0], rel)

const OpDef op_family_elemwise[] = {
    /* unary math (unary.cc) */
    UNARY("abs"), UNARY("acos"), UNARY("acosh"), UNARY("asin"), UNARY("asinh"), UNARY("atan"), UNARY("atanh"),
    UNARY("ceil"), UNARY("cos"), UNARY("cosh"), UNARY("erf"), UNARY("exp"), UNARY("fast_erf"), UNARY("fast_exp"),
    UNARY("fast_tanh"), UNARY("floor"), UNARY("log"), UNARY("log10"), UNARY("log2"), UNARY("negative"),
    UNARY("round"), UNARY("rsqrt"), UNARY("sigmoid"), UNARY("sign"), UNARY("sin"), UNARY("sinh"), UNARY("sqrt"),
    UNARY("tan"), UNARY("tanh"), UNARY("trunc"), UNARY("logical_not"), UNARY("bitwise_not"), UNARY("nn.relu"),
    UNARY("copy"), UNARY("zeros_like"), UNARY("ones_like"), UNARY("stop_gradient"),
    OP_ENTRY("isnan", 1, 1, NULL, 0, bool_identity_rel), OP_ENTRY("isinf", 1, 1, NULL, 0, bool_identity_rel),
    OP_ENTRY("isfinite", 1, 1, NULL, 0, bool_identity_rel),
    /* binary with broadcasting (binary.cc) */
    BINARY("add"), BINARY("subtract"), BINARY("multiply"), BINARY("divide"), BINARY("floor_divide"),
    BINARY("trunc_divide"), BINARY("mod"), BINARY("floor_mod"), BINARY("trunc_mod"), BINARY("power"),
    BINARY("maximum"), BINARY("minimum"), BINARY("logical_and"), BINARY("logical_or"), BINARY("logical_xor"),
    BINARY("bitwise_and"), BINARY("bitwise_or"), BINARY("bitwise_xor"), BINARY("left_shift"),
    BINARY("right_shift"), BINARY("atan2"),
    /* comparisons: bool result */
    COMPARE("equal"), COMPARE("not_equal"), COMPARE("less"), COMPARE("less_equal"), COMPARE("greater"),
    COMPARE("greater_equal"),
    /* elementwise with attributes */
    WITH_ATTRS("clip", 1, clip_attrs, identity_rel), WITH_ATTRS("cast", 1, cast_attrs, cast_rel),
    OP_ENTRY("cast_like", 2, 2, NULL, 0, cast_like_rel), WITH_ATTRS("nn.leaky_relu", 1, leaky_relu_attrs, identity_rel),
    WITH_ATTRS("fixed_point_multiply", 1, fixed_point_multiply_attrs, identity_rel),
};
const size_t op_family_elemwise_len = sizeof op_family_elemwise / sizeof op_family_elemwise[0];
