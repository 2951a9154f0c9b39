/*
 * Quantized elementwise operators: the unary ones (qnn.abs, erf, exp, hardswish, log, rsqrt,
 * sigmoid, sqrt, tanh), qnn.leaky_relu, qnn.softmax, the broadcasting binary ones (qnn.add, mul,
 * subtract) and qnn.simulated_quantize / qnn.simulated_dequantize.
 *
 * Facts from TVM v0.13 src/relay/qnn/op/{op_common.h (QnnElementwiseUnaryFuncRel, QnnBroadcastRel,
 * QNN_REGISTER_BINARY_OP), unary_elementwise_op.cc, leaky_relu.cc, softmax.cc, add.cc, mul.cc,
 * subtract.cc, simulated_quantize.cc, simulated_dequantize.cc}, src/relay/qnn/utils.h and
 * include/tvm/relay/qnn/attrs.h (BroadcastAttrs, SimulatedQuantizeAttrs, DequantizeAttrs),
 * include/tvm/relay/attrs/nn.h (LeakyReluAttrs, SoftmaxAttrs).
 *
 * The unary ops take (data, scale, zero_point, output_scale, output_zero_point), all four
 * parameters scalars; the binary ops take (lhs, rhs, lhs_scale, lhs_zero_point, rhs_scale,
 * rhs_zero_point, output_scale, output_zero_point), the input parameters scalars or vectors along
 * lhs_axis / rhs_axis, then BroadcastRel on lhs and rhs.  simulated_quantize and
 * simulated_dequantize check only that data and the dtype code are tensors: the result is the
 * data's type.
 *
 * Departure: where TVM's QnnBroadcastRel indexes the data's shape with an axis out of range while
 * the parameters are scalars (Array's bounds ICHECK), the call is rejected with that IndexError.
 */

#include <stdlib.h>
#include <string.h>

#include "kit.h"

OP_FAMILY(qnn_elemwise);

/* ================================================================== helpers the blocks below share */

/* The four scalar parameters of the unary QNN ops (arguments 1..4), then IdentityRel on the data. */
static const Type *unary_common(OpCall *c, const DType *set, size_t n, const char *what) {
  if (!kit_qnn_data_dtype(c, 0, set, n, what, "input") || !kit_qnn_scalar(c, 1, dt_float32, "scale") ||
      !kit_qnn_scalar(c, 2, dt_int32, "zero_point") || !kit_qnn_scalar(c, 3, dt_float32, "output_scale") ||
      !kit_qnn_scalar(c, 4, dt_int32, "output_zero_point"))
    return NULL;
  return c->args[0];
}

/* ================================================================== generators */

/* The unary ops: any static int8/uint8 tensor, itself the data. */
static bool unary_recognize(const OpDef *op, const Type *t) {
  (void)op;
  return kit_static_in(t, kit_q8, 2);
}

static bool unary_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!op->recognize(op, t)) return false;
  opgen_plan_init(g, op, out);
  out->args[0] = t;
  out->args[1] = ty_scalar(g->types, dt_float32);
  out->args[2] = ty_scalar(g->types, dt_int32);
  out->args[3] = ty_scalar(g->types, dt_float32);
  out->args[4] = ty_scalar(g->types, dt_int32);
  out->nargs = 5;
  out->result = t;
  return true;
}

/* int8 / uint8 results of any rank: the unary and the binary ops' sampler. */
static bool unary_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  return kit_sample_in(g, op, out, kit_q8, 2, 0, g->policy->max_rank);
}

/* ------------------------------------------------------------------ qnn.abs, qnn.erf, qnn.exp, ... */

/* QnnElementwiseUnaryFuncRel: int8/uint8 data. */
static const Type *qnn_unary_rel(OpCall *c) { return unary_common(c, kit_q8, 2, "quantized type(int8, uint8)"); }

#define QNN_UNARY(n) \
  {.name = (n), .min_args = 5, .max_args = 5, .relation = qnn_unary_rel, KIT_GEN(OPDT_INT, unary_recognize, unary_solve, unary_sample)}

static const OpDef unary_ops[] = {
    /* unary_elementwise_op.cc */
    QNN_UNARY("qnn.abs"),   QNN_UNARY("qnn.erf"),     QNN_UNARY("qnn.exp"),  QNN_UNARY("qnn.hardswish"), QNN_UNARY("qnn.log"),
    QNN_UNARY("qnn.rsqrt"), QNN_UNARY("qnn.sigmoid"), QNN_UNARY("qnn.sqrt"), QNN_UNARY("qnn.tanh"),
};
OP_REGISTER(unary_ops);

/* ------------------------------------------------------------------ qnn.leaky_relu */

/* QnnLeakyReluRel: int8/uint8 data. */
static const Type *qnn_leaky_relu_rel(OpCall *c) { return unary_common(c, kit_q8, 2, "quantized leaky_relu type(int8, uint8)"); }

static bool leaky_relu_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  static const double alphas[] = {0.01, 0.1, 0.2, 0.25, 0.3};
  if (!unary_solve(g, op, t, out)) return false;
  opgen_set_float(g, op, out, "alpha", alphas[rng_index(g->rng, KIT_NELEMS(alphas))]);
  return true;
}

static const OpDef leaky_relu_ops[] = {
    /* leaky_relu.cc, softmax.cc */
    {.name = "qnn.leaky_relu",
     .min_args = 5,
     .max_args = 5,
     .attrs = kit_leaky_relu_attrs,
     .nattrs = KIT_NELEMS(kit_leaky_relu_attrs),
     .relation = qnn_leaky_relu_rel,
     KIT_GEN(OPDT_INT, unary_recognize, leaky_relu_solve, unary_sample)},
};
OP_REGISTER(leaky_relu_ops);

/* ------------------------------------------------------------------ qnn.softmax */

/* QnnSoftmaxRel: int8 data only. */
static const Type *qnn_softmax_rel(OpCall *c) { return unary_common(c, kit_q8, 1, "quantized softmax type(int8)"); }

/* softmax: int8, rank >= 1 (the canonicalization reduces along the axis). */
static bool softmax_recognize(const OpDef *op, const Type *t) {
  (void)op;
  return kit_static_in(t, kit_q8, 1) && t->ndims >= 1;
}

static bool softmax_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!unary_solve(g, op, t, out)) return false;
  int64_t a = (int64_t)rng_index(g->rng, t->ndims);
  opgen_set_int(g, op, out, "axis", rng_chance(g->rng, 1, 2) ? a : a - (int64_t)t->ndims);
  return true;
}

static bool softmax_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  return kit_sample_in(g, op, out, kit_q8, 1, 1, g->policy->max_rank);
}

static const OpDef softmax_ops[] = {
    {.name = "qnn.softmax",
     .min_args = 5,
     .max_args = 5,
     .attrs = kit_softmax_attrs,
     .nattrs = KIT_NELEMS(kit_softmax_attrs),
     .relation = qnn_softmax_rel,
     KIT_GEN(OPDT_INT, softmax_recognize, softmax_solve, softmax_sample)},
};
OP_REGISTER(softmax_ops);

/* ------------------------------------------------------------------ qnn.add, qnn.mul, qnn.subtract */

/* QnnBroadcastRel's channel axis: 0 for rank <= 1, else the attribute (negative counts from the end). */
static int64_t channel_axis(size_t rank, int64_t attr) {
  if (rank <= 1) return 0;
  return attr < 0 ? (int64_t)rank + attr : attr;
}

/* One side's axis check: out of range fails TVM's ICHECK when a parameter is a vector. */
static bool side_axis(OpCall *c, size_t data, size_t scale, const char *attr, int64_t *axis) {
  size_t rank = c->args[data]->ndims;
  *axis = channel_axis(rank, op_int(c, attr));
  bool scalars = c->args[scale]->ndims == 0 && c->args[scale + 1]->ndims == 0;
  int64_t limit = rank > 0 ? (int64_t)rank : 1;
  if (!scalars && (*axis >= limit || *axis < 0)) {
    op_fail(c, -1, "%s: %s %lld is out of range", c->op->name, attr, (long long)op_int(c, attr));
    return false;
  }
  return true;
}

/* The length of the parameters along the axis (1 for a scalar); reading the shape out of range is
   TVM's Array IndexError. */
static bool side_len(OpCall *c, size_t data, int64_t axis, int64_t *len) {
  const Type *d = c->args[data];
  if (d->ndims == 0) {
    *len = 1;
    return true;
  }
  if (axis < 0 || axis >= (int64_t)d->ndims) {
    op_fail(c, -1, "%s: IndexError: indexing %lld on an array of size %u", c->op->name, (long long)axis, d->ndims);
    return false;
  }
  *len = d->dims[axis];
  return true;
}

/* QnnBroadcastRel (op_common.h). */
static const Type *qnn_binary_rel(OpCall *c) {
  for (size_t i = 0; i < 8; i++)
    if (!op_tensor_arg(c, i)) return NULL;
  int64_t la, ra, ll, rl;
  if (!side_axis(c, 0, 2, "lhs_axis", &la) || !side_axis(c, 1, 4, "rhs_axis", &ra) || !side_len(c, 0, la, &ll) ||
      !side_len(c, 1, ra, &rl) || !kit_qnn_assign(c, 2, dt_float32, ll) || !kit_qnn_assign(c, 3, dt_int32, ll) ||
      !kit_qnn_assign(c, 4, dt_float32, rl) || !kit_qnn_assign(c, 5, dt_int32, rl) ||
      !kit_qnn_scalar(c, 6, dt_float32, "output_scale") || !kit_qnn_scalar(c, 7, dt_int32, "output_zero_point"))
    return NULL;
  static const size_t which[] = {0, 1};
  return kit_delegate(c, "add", which, 2);
}

/* One side's scale and zero point: scalars, or vectors along a channel axis (for rank >= 2 the
   axis attribute names it; for rank 1 it is always 0). */
static void side_params(OpGen *g, const OpDef *op, OpPlan *out, const Type *data, size_t at, const char *attr) {
  size_t rank = data->ndims;
  out->args[at] = ty_scalar(g->types, dt_float32);
  out->args[at + 1] = ty_scalar(g->types, dt_int32);
  if (rank == 0 || rng_chance(g->rng, 1, 2)) return;
  size_t a = rank == 1 ? 0 : rng_index(g->rng, rank);
  if (rank >= 2) opgen_set_int(g, op, out, attr, rng_chance(g->rng, 1, 2) ? (int64_t)a : (int64_t)a - (int64_t)rank);
  int64_t len = data->dims[a];
  out->args[at] = ty_tensor(g->types, dt_float32, &len, 1);
  out->args[at + 1] = ty_tensor(g->types, dt_int32, &len, 1);
}

/* The binary ops: two int8/uint8 tensors of one dtype broadcasting to the result. */
static bool binary_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!unary_recognize(op, t)) return false;
  opgen_binary_solve(g, op, t, out);
  side_params(g, op, out, out->args[0], 2, "lhs_axis");
  side_params(g, op, out, out->args[1], 4, "rhs_axis");
  out->args[6] = ty_scalar(g->types, dt_float32);
  out->args[7] = ty_scalar(g->types, dt_int32);
  out->nargs = 8;
  return true;
}

/* BroadcastAttrs (qnn/attrs.h). */
static const OpAttrSpec broadcast_attrs[] = {{"lhs_axis", AT_INT, "-1"}, {"rhs_axis", AT_INT, "-1"}};

#define QNN_BINARY(n)                                                                                               \
  {.name = (n), .min_args = 8, .max_args = 8, .attrs = broadcast_attrs, .nattrs = KIT_NELEMS(broadcast_attrs),      \
   .relation = qnn_binary_rel, KIT_GEN(OPDT_INT, unary_recognize, binary_solve, unary_sample)}

static const OpDef binary_ops[] = {
    /* add.cc, mul.cc, subtract.cc */
    QNN_BINARY("qnn.add"),
    QNN_BINARY("qnn.mul"),
    QNN_BINARY("qnn.subtract"),
};
OP_REGISTER(binary_ops);

/* ------------------------------------------------------- qnn.simulated_quantize, qnn.simulated_dequantize */

/* SimulatedQuantizeRel / SimulatedDequantizeRel: data and the dtype code are tensors; the result
   has the data's type.  The scale and zero point are not checked. */
static const Type *qnn_simulated_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0);
  return data && op_tensor_arg(c, 1) ? data : NULL;
}

/* simulated_quantize / simulated_dequantize: float32 data (what their computes take), an int32
   dtype code, and a scale and zero point that are scalars or vectors along the axis. */
static bool simulated_recognize(const OpDef *op, const Type *t) {
  (void)op;
  return kit_static_in(t, &dt_float32, 1);
}

static bool simulated_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!simulated_recognize(op, t)) return false;
  opgen_plan_init(g, op, out);
  out->args[0] = t;
  out->args[1] = ty_scalar(g->types, dt_int32);
  out->args[2] = ty_scalar(g->types, dt_float32);
  out->args[3] = ty_scalar(g->types, dt_int32);
  if (t->ndims > 0 && rng_chance(g->rng, 1, 2)) {
    size_t a = rng_index(g->rng, t->ndims);
    opgen_set_int(g, op, out, "axis", rng_chance(g->rng, 1, 2) ? (int64_t)a : (int64_t)a - (int64_t)t->ndims);
    int64_t len = t->dims[a];
    out->args[2] = ty_tensor(g->types, dt_float32, &len, 1);
    out->args[3] = ty_tensor(g->types, dt_int32, &len, 1);
  }
  out->nargs = 4;
  out->result = t;
  return true;
}

static bool simulated_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  return kit_sample_in(g, op, out, &dt_float32, 1, 0, g->policy->max_rank);
}

/* SimulatedQuantizeAttrs (qnn/attrs.h): the axis.  DequantizeAttrs: kit_dequantize_attrs (v0.19.0
   added out_dtype, which simulated_dequantize's relation does not read). */
static const OpAttrSpec axis_attrs[] = {{"axis", AT_INT, "-1"}};

#define QNN_SIMULATED(n, a, ...)                                                                          \
  {.name = (n), .min_args = 4, .max_args = 4, .attrs = (a), .nattrs = KIT_NELEMS(a), .relation = qnn_simulated_rel, \
   KIT_GEN(OPDT_FLOAT, simulated_recognize, simulated_solve, simulated_sample), __VA_ARGS__}

static const OpDef simulated_ops[] = {
    /* simulated_quantize.cc, simulated_dequantize.cc */
    QNN_SIMULATED("qnn.simulated_quantize", axis_attrs),
    QNN_SIMULATED("qnn.simulated_dequantize", kit_dequantize_attrs_v13, OP_TVM_ONLY(TVM_0_13)),
    QNN_SIMULATED("qnn.simulated_dequantize", kit_dequantize_attrs, OP_TVM_ONLY(TVM_0_19)),
};
OP_REGISTER(simulated_ops);
