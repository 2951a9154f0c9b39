/*
 * Quantized counterparts of nn / transform operators: qnn.dense, qnn.contrib_dense_pack,
 * qnn.batch_matmul, qnn.conv2d_transpose, qnn.avg_pool2d, qnn.concatenate (the QNN checks they
 * share with qnn_elemwise.c are the kit's, kit_qnn_*).  qnn.conv2d lives with the convolutions in
 * nn_conv.c, qnn.quantize, qnn.dequantize and qnn.requantize in nn.c, the elementwise and
 * broadcasting QNN ops in qnn_elemwise.c.
 *
 * Facts from TVM v0.13 src/relay/qnn/op/{dense.cc, batch_matmul.cc, convolution_transpose.cc,
 * avg_pool2d.cc, concatenate.cc}, src/relay/qnn/utils.h (IsScalarType, AssignType), and the
 * attribute structs in include/tvm/relay/attrs/{nn.h, transform.h}: these ops reuse DenseAttrs,
 * DensePackAttrs, BatchMatmulAttrs, Conv2DTransposeAttrs, AvgPool2DAttrs and ConcatenateAttrs.
 * Each relation checks what the QNN relation checks, then runs the relation of the op it wraps
 * (MatmulRel, BatchMatmulRel, Conv2DTransposeRel, Pool2D's arithmetic, ConcatenateRel) through
 * kit_delegate, so the shapes follow nn.c, nn_conv.c and transform.c exactly.
 *
 * Departures from TVM, where TVM would crash rather than report:
 *   - qnn.dense with a per-channel weight scale and units=None: TVM builds Tensor[(null)], here
 *     the call is rejected;
 *   - qnn.conv2d_transpose with groups != 1 and a kernel layout lacking one of O and I: TVM
 *     indexes the weight's shape with npos, here the call is rejected;
 *   - qnn.avg_pool2d with a padding of 3 or more than 4 values: TVM's relation returns false (the
 *     type stays unsolved), here the call is rejected with the nn pool's message.
 *
 * Generators: int8 / uint8 data, int8 weights, int32 accumulators (what QNN's canonicalization
 * lowers); the shapes are planned by the wrapped nn op's solver where there is one.
 * qnn.contrib_dense_pack is not generated: its canonicalization is LOG(FATAL) in v0.13 (only
 * Hexagon's layout alteration produces it).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit.h"

OP_FAMILY(qnn);

/* ================================================================== helpers the blocks below share */

static const DType q8_16[] = {{DT_INT, 8, 1}, {DT_UINT, 8, 1}, {DT_INT, 16, 1}, {DT_UINT, 16, 1}};

/* The out_dtype attribute must be one of `set` (TVM's ICHECK on param->out_dtype). */
static bool out_dtype_in(OpCall *c, const DType *set, size_t n, const char *what) {
  DType d = op_dtype(c, "out_dtype");
  if (kit_dtype_in(d, set, n)) return true;
  char b[16];
  op_fail(c, -1, "%s: Expected %s for output but was %s", c->op->name, what, kit_dtype_name(d, b));
  return false;
}

/* ================================================================== generators */

/* A plan of nn op `nn` (its dtype class widened) for result t, or false. */
static bool nn_plan(OpGen *g, const char *nn, const Type *t, OpPlan *out) {
  OpDef d = kit_any_dtype(nn);
  return d.recognize(&d, t) && d.solve(g, &d, t, out);
}

static bool int32_static(const Type *t, unsigned rank) {
  return kit_static_in(t, &dt_int32, 1) && t->ndims == rank;
}

/* The QNN generators plan integer calls; each op's come in name_recognize / _solve / _sample. */
#define GENS(name) KIT_GEN(OPDT_INT, name##_recognize, name##_solve, name##_sample)

/* ------------------------------------------------------------------ qnn.dense */

/* QnnDenseRel (dense.cc): data int8/uint8/int16/uint16, weight int8/uint8, out_dtype int32/int64;
   (data, weight, input_zero_point, kernel_zero_point, input_scale, kernel_scale).  The kernel
   zero point is not checked; the kernel scale is a scalar or has `units` elements. */
static const Type *qnn_dense_rel(OpCall *c) {
  static const DType out[] = {{DT_INT, 32, 1}, {DT_INT, 64, 1}};
  if (!op_tensor_arg(c, 0) || !op_tensor_arg(c, 1) ||
      !kit_qnn_data_dtype(c, 0, q8_16, KIT_NELEMS(q8_16), "quantized dense type(int8, uint8, int16, uint16)", "input") ||
      !kit_qnn_data_dtype(c, 1, kit_q8, 2, "quantized dense type(int8, uint8)", "weight") ||
      !out_dtype_in(c, out, KIT_NELEMS(out), "quantized dense type(int32, int64)") ||
      !kit_qnn_scalar(c, 2, dt_int32, "input_zero_point") || !kit_qnn_scalar(c, 4, dt_float32, "input_scale"))
    return NULL;
  const AttrVal *units = op_attr(c, "units");
  const Type *ks = c->args[5];
  if (ks->kind == TY_TENSOR && ks->ndims != 0 && units->kind == ATTR_NONE)
    return op_fail(c, 5, "%s: a per-channel kernel_scale needs the units attribute (TVM would assign it a null shape)",
                   c->op->name);
  if (!kit_qnn_assign(c, 5, dt_float32, units->kind == ATTR_INT ? units->i : KIT_ANY)) return NULL;
  static const size_t which[] = {0, 1};
  return kit_delegate(c, "nn.dense", which, 2);
}

/* dense: (M, K) x (N, K) -> (M, N) int32; units = N or None; the kernel scale per channel only with
   units. */
static bool dense_recognize(const OpDef *op, const Type *t) {
  (void)op;
  return int32_static(t, 2);
}

static bool dense_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!dense_recognize(op, t)) return false;
  int64_t m = t->dims[0], n = t->dims[1], k = rng_range(g->rng, 1, g->policy->max_dim);
  int64_t a[2] = {m, k}, b[2] = {n, k};
  opgen_plan_init(g, op, out);
  out->args[0] = ty_tensor(g->types, kit_pick_dtype(g, kit_q8, 2), a, 2);
  out->args[1] = ty_tensor(g->types, DT(DT_INT, 8), b, 2);
  bool units = rng_chance(g->rng, 1, 2);
  if (units) opgen_set_int(g, op, out, "units", n);
  kit_set_dtype(g, op, out, "out_dtype", t->dtype);
  out->args[2] = ty_scalar(g->types, dt_int32);
  out->args[3] = ty_scalar(g->types, dt_int32);
  out->args[4] = ty_scalar(g->types, dt_float32);
  out->args[5] = units && rng_chance(g->rng, 1, 2) ? ty_tensor(g->types, dt_float32, &n, 1) : ty_scalar(g->types, dt_float32);
  out->nargs = 6;
  out->result = t;
  return true;
}

static bool dense_sample(OpGen *g, const OpDef *op, OpPlan *out) { return kit_sample_in(g, op, out, &dt_int32, 1, 2, 2); }

static const OpDef dense_ops[] = {
    KIT_OP("qnn.dense", 6, kit_dense_attrs, qnn_dense_rel, GENS(dense)),
};
OP_REGISTER(dense_ops);

/* ------------------------------------------------------------------ qnn.contrib_dense_pack */

/* QnnDensePackRel (dense.cc): 2-D data, 4-D packed weight; the result is (data[0], w[0] * w[2])
   in out_dtype.  The quantisation parameters are not checked. */
static const Type *qnn_dense_pack_rel(OpCall *c) {
  const Type *data = op_tensor_arg(c, 0), *w = data ? op_tensor_arg(c, 1) : NULL;
  if (!w) return NULL;
  if (data->ndims != 2) return op_fail(c, 0, "%s: Only 2D data is supported", c->op->name);
  if (w->ndims != 4) return op_fail(c, 1, "%s: Expect weight to be 4D tensor", c->op->name);
  DType out = op_dtype(c, "out_dtype");
  if (out.bits == 0 || out.code == DT_VOID)
    return op_fail(c, -1, "%s: Output dtype bits should be greater than 0.", c->op->name);
  int64_t dims[2] = {data->dims[0], 0};
  if (!kit_dim_mul(c, w->dims[0], w->dims[2], &dims[1])) return NULL;
  return ty_tensor(c->types, out, dims, 2);
}

static const OpDef contrib_dense_pack_ops[] = {
    KIT_OP("qnn.contrib_dense_pack", 6, kit_dense_pack_attrs, qnn_dense_pack_rel),
};
OP_REGISTER(contrib_dense_pack_ops);

/* ------------------------------------------------------------------ qnn.batch_matmul */

/* QnnBatchMatmulRel (batch_matmul.cc): int8/uint8 operands, out_dtype int32, scalar zero points
   (int32) and scales (float32): (x, y, x_zero_point, y_zero_point, x_scale, y_scale). */
static const Type *qnn_batch_matmul_rel(OpCall *c) {
  static const DType out[] = {{DT_INT, 32, 1}};
  if (!op_tensor_arg(c, 0) || !op_tensor_arg(c, 1) ||
      !kit_qnn_data_dtype(c, 0, kit_q8, 2, "quantized batch_matmul type(int8, uint8)", "input") ||
      !kit_qnn_data_dtype(c, 1, kit_q8, 2, "quantized batch_matmul type(int8, uint8)", "weight") ||
      !out_dtype_in(c, out, 1, "quantized batch_matmul type(int32)") || !kit_qnn_scalar(c, 2, dt_int32, "x_zero_point") ||
      !kit_qnn_scalar(c, 3, dt_int32, "y_zero_point") || !kit_qnn_scalar(c, 4, dt_float32, "x_scale") ||
      !kit_qnn_scalar(c, 5, dt_float32, "y_scale"))
    return NULL;
  static const size_t which[] = {0, 1};
  return kit_delegate(c, "nn.batch_matmul", which, 2);
}

/* batch_matmul: (B, I, K) x (B, J, K) -> (B, I, J): transpose_a=False, transpose_b=True, as the
   Python API sets them and QNN's canonicalization requires. */
static bool batch_matmul_recognize(const OpDef *op, const Type *t) {
  (void)op;
  return int32_static(t, 3);
}

static bool batch_matmul_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  if (!batch_matmul_recognize(op, t)) return false;
  int64_t k = rng_range(g->rng, 1, g->policy->max_dim);
  int64_t x[3] = {t->dims[0], t->dims[1], k}, y[3] = {t->dims[0], t->dims[2], k};
  opgen_plan_init(g, op, out);
  out->args[0] = ty_tensor(g->types, kit_pick_dtype(g, kit_q8, 2), x, 3);
  out->args[1] = ty_tensor(g->types, kit_pick_dtype(g, kit_q8, 2), y, 3);
  out->args[2] = ty_scalar(g->types, dt_int32);
  out->args[3] = ty_scalar(g->types, dt_int32);
  out->args[4] = ty_scalar(g->types, dt_float32);
  out->args[5] = ty_scalar(g->types, dt_float32);
  out->nargs = 6;
  kit_set_dtype(g, op, out, "out_dtype", t->dtype);
  opgen_set_bool(g, op, out, "transpose_b", true);
  out->result = t;
  return true;
}

static bool batch_matmul_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  return kit_sample_in(g, op, out, &dt_int32, 1, 3, 3);
}

static const OpDef batch_matmul_ops[] = {
    KIT_OP("qnn.batch_matmul", 6, kit_batch_matmul_attrs, qnn_batch_matmul_rel, GENS(batch_matmul)),
};
OP_REGISTER(batch_matmul_ops);

/* ------------------------------------------------------------------ qnn.conv2d_transpose */

/* Whether a scale or zero point counts as a scalar in QnnConv2DTransposeRel: rank 0, or exactly one
   element. */
static bool one_element(const Type *t) { return t->kind == TY_TENSOR && (t->ndims == 0 || ty_num_elements(t) == 1); }

/* QnnConv2DTransposeRel (convolution_transpose.cc): data int8/uint8/int16/uint16, weight
   int8/uint8, out_dtype int16/int32/int64; (data, weight, input_zero_point, kernel_zero_point,
   input_scale, kernel_scale).  The kernel zero point is int32 of any shape; the input ones are
   scalars or one-element vectors; the kernel scale follows O in the kernel layout (O x I for
   groups != 1).  Then Conv2DTransposeRel. */
static const Type *qnn_conv2d_transpose_rel(OpCall *c) {
  static const DType out[] = {{DT_INT, 16, 1}, {DT_INT, 32, 1}, {DT_INT, 64, 1}};
  if (!op_tensor_arg(c, 0) || !op_tensor_arg(c, 1) ||
      !kit_qnn_data_dtype(c, 0, q8_16, KIT_NELEMS(q8_16), "qnn conv2d type(int8, uint8, int16)", "input") ||
      !kit_qnn_data_dtype(c, 1, kit_q8, 2, "qnn conv2d type(int8, uint8)", "weight") ||
      !out_dtype_in(c, out, KIT_NELEMS(out), "qnn conv2d type(int16, int32, int64)"))
    return NULL;
  for (size_t i = 2; i <= 5; i++)
    if (!op_tensor_arg(c, i)) return NULL;
  char b[16];
  if (!dtype_eq(c->args[3]->dtype, dt_int32))
    return op_fail(c, 3, "%s: Check failed: weight_zp_type->dtype == DataType::Int(32) (kernel_zero_point is %s)",
                   c->op->name, kit_dtype_name(c->args[3]->dtype, b));
  if (!one_element(c->args[2]) || !one_element(c->args[4]))
    return op_fail(c, one_element(c->args[2]) ? 4 : 2, "%s: Zero point or scale should be scalar or a vector with one element.",
                   c->op->name);
  if (!kit_qnn_assign(c, 2, dt_int32, 1) || !kit_qnn_assign(c, 4, dt_float32, 1)) return NULL;
  const Type *weight = c->args[1];
  const char *kl = op_str(c, "kernel_layout");
  const char *o = strchr(kl, 'O'), *i = strchr(kl, 'I');
  int64_t len;
  if (op_int(c, "groups") == 1) {
    if (!o) return op_fail(c, -1, "%s: Kernel layout attribute is not defined", c->op->name);
    if ((size_t)(o - kl) >= weight->ndims)
      return op_fail(c, 1, "%s: the weight has rank %u, too small for kernel layout %s", c->op->name, weight->ndims, kl);
    len = weight->dims[o - kl];
  } else {
    if (!o && !i) return op_fail(c, -1, "%s: Kernel layout attribute is not defined", c->op->name);
    if (!o || !i)
      return op_fail(c, -1, "%s: kernel layout %s lacks %c, which a grouped kernel scale needs", c->op->name, kl,
                     o ? 'I' : 'O');
    size_t oi = (size_t)(o - kl), ii = (size_t)(i - kl);
    if (oi >= weight->ndims || ii >= weight->ndims)
      return op_fail(c, 1, "%s: the weight has rank %u, too small for kernel layout %s", c->op->name, weight->ndims, kl);
    if (!kit_dim_mul(c, weight->dims[oi], weight->dims[ii], &len)) return NULL;
  }
  if (!kit_qnn_assign(c, 5, dt_float32, len)) return NULL;
  static const size_t which[] = {0, 1};
  return kit_delegate(c, "nn.conv2d_transpose", which, 2);
}

/* conv2d_transpose: nn.conv2d_transpose's plan (NCHW / IOHW), int8/uint8 data, int8 weight, int32
   result; the kernel scale a scalar or one per O (groups == 1). */
static bool conv2d_transpose_recognize(const OpDef *op, const Type *t) {
  (void)op;
  if (!int32_static(t, 4)) return false;
  OpDef d = kit_any_dtype("nn.conv2d_transpose");
  return d.recognize(&d, t);
}

static bool conv2d_transpose_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  OpPlan p;
  if (!int32_static(t, 4) || !nn_plan(g, "nn.conv2d_transpose", t, &p)) return false;
  opgen_plan_init(g, op, out);
  kit_copy_attrs(op_lookup("nn.conv2d_transpose"), &p, op, out);
  kit_set_dtype(g, op, out, "out_dtype", t->dtype);
  const Type *w = p.args[1];
  out->args[0] = opgen_with_dtype(g, p.args[0], kit_pick_dtype(g, kit_q8, 2));
  out->args[1] = opgen_with_dtype(g, w, DT(DT_INT, 8));
  out->args[2] = ty_scalar(g->types, dt_int32);
  out->args[3] = ty_scalar(g->types, dt_int32);
  out->args[4] = ty_scalar(g->types, dt_float32);
  out->args[5] = ty_scalar(g->types, dt_float32);
  const AttrVal *groups = &out->attrs[0], *kl = &out->attrs[0];
  for (size_t k = 0; k < op->nattrs; k++) {
    if (!strcmp(op->attrs[k].name, "groups")) groups = &out->attrs[k];
    if (!strcmp(op->attrs[k].name, "kernel_layout")) kl = &out->attrs[k];
  }
  const char *o = kl->kind == ATTR_STR ? strchr(kl->s, 'O') : NULL;
  if (groups->i == 1 && o && (size_t)(o - kl->s) < w->ndims && rng_chance(g->rng, 1, 2))
    out->args[5] = ty_tensor(g->types, dt_float32, &w->dims[o - kl->s], 1);
  out->nargs = 6;
  out->result = t;
  return true;
}

static bool conv2d_transpose_sample(OpGen *g, const OpDef *op, OpPlan *out) {
  return kit_sample_in(g, op, out, &dt_int32, 1, 4, 4);
}

static const OpDef conv2d_transpose_ops[] = {
    KIT_OP("qnn.conv2d_transpose", 6, kit_conv2d_transpose_attrs, qnn_conv2d_transpose_rel,
           GENS(conv2d_transpose)),
};
OP_REGISTER(conv2d_transpose_ops);

/* ------------------------------------------------------------------ qnn.avg_pool2d */

/* QnnAvgPool2DRel (avg_pool2d.cc): int8/uint8 data, scalar scales and zero points (data, input_scale,
   input_zero_point, output_scale, output_zero_point); the shape arithmetic is Pool2DRel's (the
   result keeps the data's layout and dtype). */
static const Type *qnn_avg_pool2d_rel(OpCall *c) {
  if (!kit_qnn_data_dtype(c, 0, kit_q8, 2, "quantized avg_pool2d type(int8, uint8)", "input") ||
      !kit_qnn_scalar(c, 1, dt_float32, "input_scale") || !kit_qnn_scalar(c, 2, dt_int32, "input_zero_point") ||
      !kit_qnn_scalar(c, 3, dt_float32, "output_scale") || !kit_qnn_scalar(c, 4, dt_int32, "output_zero_point"))
    return NULL;
  if (c->args[0]->ndims < 2)
    return op_fail(c, 0, "%s: Pool2D only support input >= 2-D: input must have height and width", c->op->name);
  const char *l = op_str(c, "layout");
  if (!strchr(l, 'H') || !strchr(l, 'W') || strchr(l, 'h') || strchr(l, 'w'))
    return op_fail(c, -1, "%s: Invalid input layout %s. qnn_avg_pool2d inut layout must have H and W, which cannot be split",
                   c->op->name, l);
  static const size_t which[] = {0};
  return kit_delegate(c, "nn.avg_pool2d", which, 1);
}

/* avg_pool2d: nn.avg_pool2d's plan on int8/uint8 data, scalar parameters. */
static bool avg_pool2d_recognize(const OpDef *op, const Type *t) {
  (void)op;
  if (!kit_static_in(t, kit_q8, 2) || t->ndims != 4) return false;
  OpDef d = kit_any_dtype("nn.avg_pool2d");
  return d.recognize(&d, t);
}

static bool avg_pool2d_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  OpPlan p;
  if (!avg_pool2d_recognize(op, t) || !nn_plan(g, "nn.avg_pool2d", t, &p)) return false;
  opgen_plan_init(g, op, out);
  kit_copy_attrs(op_lookup("nn.avg_pool2d"), &p, op, out);
  out->args[0] = p.args[0];
  out->args[1] = ty_scalar(g->types, dt_float32);
  out->args[2] = ty_scalar(g->types, dt_int32);
  out->args[3] = ty_scalar(g->types, dt_float32);
  out->args[4] = ty_scalar(g->types, dt_int32);
  out->nargs = 5;
  out->result = t;
  return true;
}

static bool avg_pool2d_sample(OpGen *g, const OpDef *op, OpPlan *out) { return kit_sample_in(g, op, out, kit_q8, 2, 4, 4); }

static const OpDef avg_pool2d_ops[] = {
    KIT_OP("qnn.avg_pool2d", 5, kit_avg_pool2d_attrs, qnn_avg_pool2d_rel, GENS(avg_pool2d)),
};
OP_REGISTER(avg_pool2d_ops);

/* ------------------------------------------------------------------ qnn.concatenate */

/* A tuple of scalars: QnnConcatenateRel's input scales (float32) or zero points (int32). */
static bool scalar_tuple(OpCall *c, size_t i, DType dtype, const char *what, const char *nth) {
  const Type *t = c->args[i];
  if (t->kind != TY_TUPLE) {
    char *s = ty_str(t);
    op_fail(c, (int)i, "qnn concatenate requires a tuple of %s as the %s argument, found %s", what, nth, s);
    free(s);
    return false;
  }
  for (uint32_t k = 0; k < t->nargs; k++) {
    const Type *f = t->args[k];
    char b[16], *s = ty_str(f);
    bool ok = f->kind == TY_TENSOR && f->ndims == 0 && dtype_eq(f->dtype, dtype);
    if (!ok)
      op_fail(c, (int)i, "%s: field %u of the %s must be a scalar %s, got %s", c->op->name, k, what, kit_dtype_name(dtype, b), s);
    free(s);
    if (!ok) return false;
  }
  return true;
}

/* QnnConcatenateRel (concatenate.cc): (data, input_scales, input_zero_points, output_scale,
   output_zero_point), the first three tuples; then ConcatenateRel on the data.  The number of
   scales and zero points is not checked against the number of tensors. */
static const Type *qnn_concatenate_rel(OpCall *c) {
  if (!scalar_tuple(c, 1, dt_float32, "scales", "second") || !scalar_tuple(c, 2, dt_int32, "zero_points", "third") ||
      !kit_qnn_scalar(c, 3, dt_float32, "output_scale") || !kit_qnn_scalar(c, 4, dt_int32, "output_zero_point"))
    return NULL;
  static const size_t which[] = {0};
  return kit_delegate(c, "concatenate", which, 1);
}

/* concatenate: concatenate's plan on int8/uint8 tensors; one scale and zero point per tensor. */
static bool concatenate_recognize(const OpDef *op, const Type *t) {
  (void)op;
  if (!kit_static_in(t, kit_q8, 2)) return false;
  OpDef d = kit_any_dtype("concatenate");
  return d.recognize(&d, t);
}

static bool concatenate_solve(OpGen *g, const OpDef *op, const Type *t, OpPlan *out) {
  OpPlan p;
  if (!concatenate_recognize(op, t) || !nn_plan(g, "concatenate", t, &p)) return false;
  opgen_plan_init(g, op, out);
  kit_copy_attrs(op_lookup("concatenate"), &p, op, out);
  const Type *tup = p.args[0];
  const Type *scales[16], *zps[16];
  if (tup->kind != TY_TUPLE || tup->nargs > 16) return false;
  for (uint32_t i = 0; i < tup->nargs; i++) {
    scales[i] = ty_scalar(g->types, dt_float32);
    zps[i] = ty_scalar(g->types, dt_int32);
  }
  out->args[0] = tup;
  out->args[1] = ty_tuple(g->types, scales, tup->nargs);
  out->args[2] = ty_tuple(g->types, zps, tup->nargs);
  out->args[3] = ty_scalar(g->types, dt_float32);
  out->args[4] = ty_scalar(g->types, dt_int32);
  out->nargs = 5;
  out->result = t;
  return true;
}

static bool concatenate_sample(OpGen *g, const OpDef *op, OpPlan *out) { return kit_sample_in(g, op, out, kit_q8, 2, 1, 4); }

static const OpDef concatenate_ops[] = {
    KIT_OP("qnn.concatenate", 5, kit_concatenate_attrs, qnn_concatenate_rel, GENS(concatenate)),
};
OP_REGISTER(concatenate_ops);
